"""Real torch in a subprocess started with an environment of our choosing.

torch reads ATEN_CPU_CAPABILITY (and OMP_NUM_THREADS, MKL_NUM_THREADS ...) once, the first
time it needs it, so a test comparing tidx with torch under another CPU capability needs
another process. A :class:`TorchWorker` is one long-lived ``python`` that imports torch
under that environment and then answers calls: ``worker.call("capability_cases", "run",
case)`` runs ``capability_cases.run(torch, case)`` there and returns what it returned
(pickled), so the same function runs in tidx (``run(engine, case)``) and in torch.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

_SERVER = r"""
import importlib, pickle, struct, sys
sys.path[:0] = [%(root)r, %(tests)r]
import torch
out, inp = sys.stdout.buffer, sys.stdin.buffer
def send(obj):
    data = pickle.dumps(obj)
    out.write(struct.pack("<Q", len(data)) + data)
    out.flush()
send(("ready", torch.backends.cpu.get_cpu_capability(), torch.get_num_threads()))
while True:
    head = inp.read(8)
    if len(head) < 8:
        break
    module, function, args = pickle.loads(inp.read(struct.unpack("<Q", head)[0]))
    try:
        send(("ok", getattr(importlib.import_module(module), function)(torch, *args)))
    except BaseException as exc:
        send(("error", f"{type(exc).__name__}: {exc}"))
"""


class TorchWorker:
    """One torch process; ``capability`` None leaves ATEN_CPU_CAPABILITY unset (torch
    picks the CPU's best), and ``env`` adds or removes (value None) variables."""

    def __init__(self, capability: str | None, env: dict[str, str | None] | None = None):
        full = dict(os.environ)
        full.pop("ATEN_CPU_CAPABILITY", None)
        if capability is not None:
            full["ATEN_CPU_CAPABILITY"] = capability
        for key, value in (env or {}).items():
            if value is None:
                full.pop(key, None)
            else:
                full[key] = value
        code = _SERVER % {"root": str(ROOT), "tests": str(TESTS)}
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=full, cwd=str(ROOT))
        ready, self.capability, self.threads = self._receive()
        assert ready == "ready"

    def _receive(self) -> Any:
        head = self.proc.stdout.read(8)
        if len(head) < 8:
            raise RuntimeError(f"the torch worker stopped (exit {self.proc.wait()})")
        return pickle.loads(self.proc.stdout.read(struct.unpack("<Q", head)[0]))

    def call(self, module: str, function: str, *args: Any) -> Any:
        """``module.function(torch, *args)`` in the worker; its exceptions come back as
        RuntimeError naming them (a case's own torch errors are the case's business)."""
        data = pickle.dumps((module, function, args))
        self.proc.stdin.write(struct.pack("<Q", len(data)) + data)
        self.proc.stdin.flush()
        status, value = self._receive()
        if status != "ok":
            raise RuntimeError(f"torch worker: {value}")
        return value

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


# -- the capabilities of this machine, each with its worker, and tidx under each ----------------
def runnable() -> list[str]:
    """The ATEN_CPU_CAPABILITY values this machine runs (torch runs each in a worker)."""
    from engine.core import capability as C

    machine = C.machine()
    return [c for c in ("default", "avx2", "avx512") if machine.runs(C.ENV_VALUES[c])]


def capability_workers(choices: list[str | None]):
    """A module fixture's body: one TorchWorker per capability in ``choices`` (None: the
    machine's own choice), closed after the module's tests."""
    from conftest import require_torch

    require_torch()
    made = {cap: TorchWorker(cap) for cap in choices}
    try:
        yield made
    finally:
        for w in made.values():
            w.close()


def under_capability(capability: str | None, fn, *args: Any) -> Any:
    """``fn(*args)`` in a tidx run with ``capability`` (None: as the environment and CPU
    choose, as a run without --cpu-capability does)."""
    from engine.core import capability as C
    from engine.core.context import RunContext, activate

    cpu = C.choose(capability, {k: v for k, v in os.environ.items() if k != C.ENV},
                   C.machine())
    with activate(RunContext(cpu=cpu)):
        return fn(*args)
