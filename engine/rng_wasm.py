"""The AVX2 float32 ``NormalFill16``, compiled: a WebAssembly twin of numpy's.

``randn`` of a large float32 tensor spends nearly all its time in the
Box-Muller transform of ``NormalFill16<float, true>``
(aten/src/ATen/native/cpu/DistributionTemplates.h, with avx_mathfun.h's
``log256_ps``/``sincos256_ps``).  Emulated with numpy
(:func:`engine.rng_normal._avx2_pairs`), each of its float32 operations and
each fma emulated in float64 is a pass over memory: about five times
torch's time for ``randn(10_000_000)``.  ``normal_fill16.wat`` performs the
same operations, in the same order and precision, four lanes at a time;
wasmtime (already a dependency, for SVG without ``dot``) compiles it to
machine code and runs it without holding the GIL, so large tensors are
transformed on every core.  WebAssembly's float arithmetic is IEEE with
round-to-nearest-even and no fast-math, so the two kernels agree bit for
bit: ``tests/test_rng_wasm.py`` checks that for spread inputs, and with
TIDX_RNG_EXHAUSTIVE=1 for all 2^24 inputs of each half of the transform.

This is an implementation detail of the emulation, not a step of torch's:
traces show the kernel torch runs.  Without wasmtime (a platform with no
wheel) the numpy kernel runs instead: the same numbers, slower.
"""

from __future__ import annotations

import atexit
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import numpy as np

from engine import rng_normal as rn
from engine.rng_fp import fma32

_WAT = Path(__file__).with_name("normal_fill16.wat")

# Floats per call: the slice of wasm memory stays in L2 (a multiple of 16).
CHUNK = 1 << 16
_WASM_PAGE = 1 << 16


def _constants() -> dict[str, str]:
    """The template's constants, taken from rng_normal's (exact hex floats)."""
    def hx(v: object) -> str:
        return float(v).hex()
    c = {
        "SQRTHF_MANTISSA": str(rn._SQRTHF_MANTISSA),
        "LOG_Q1": hx(rn._LOG_Q1), "LOG_Q2": hx(rn._LOG_Q2),
        "TWO_PI": hx(rn._TWO_PI_F32), "FOPI": hx(rn._FOPI),
        "DP1": hx(rn._DP1), "DP2": hx(rn._DP2), "DP3": hx(rn._DP3_64),
    }
    c.update({f"LOG_P{i}": hx(p) for i, p in enumerate(rn._LOG_P64)})
    c.update({f"COS_P{i}": hx(p) for i, p in enumerate(rn._COSCOF64)})
    c.update({f"SIN_P{i}": hx(p) for i, p in enumerate(rn._SINCOF64)})
    return c


def module_text() -> str:
    """The WebAssembly text of the kernel with its constants filled in."""
    return _WAT.read_text(encoding="utf-8").format(**_constants())


class _Instance:
    """One instance of the module (a wasmtime store is single-threaded)."""

    def __init__(self, engine: Any, module: Any) -> None:
        import wasmtime
        self.store = wasmtime.Store(engine)
        exports = wasmtime.Instance(self.store, module, []).exports(self.store)
        self.fn = exports["normal16"]
        memory = exports["memory"]
        memory.grow(self.store, 4 * CHUNK // _WASM_PAGE)
        self.view = np.frombuffer(memory.get_buffer_ptr(self.store),
                                  dtype=np.float32)

    def __call__(self, blocks: np.ndarray, plus0: bool) -> None:
        # Contiguous, so that flat is a view and the results land in blocks.
        assert blocks.flags.c_contiguous, "blocks must be contiguous"
        flat = blocks.reshape(-1)
        for s in range(0, flat.size, CHUNK):
            part = flat[s:s + CHUNK]
            n = part.size
            self.view[:n] = part
            self.fn(self.store, 0, n // 16, int(plus0))
            part[...] = self.view[:n]


_LOCK = threading.Lock()
_COMPILED: tuple[Any, Any] | None = None
_UNAVAILABLE = False
_LOCAL = threading.local()
_INSTANCES: list[_Instance] = []


def _compiled() -> tuple[Any, Any] | None:
    global _COMPILED, _UNAVAILABLE
    with _LOCK:
        if _COMPILED is None and not _UNAVAILABLE:
            try:
                import wasmtime
            except (ImportError, OSError):   # no wasmtime for this platform
                _UNAVAILABLE = True
                return None
            config = wasmtime.Config()
            # One function: nothing to compile in parallel, and rayon's pool
            # would deadlock a forked child that compiles again.
            config.parallel_compilation = False
            engine = wasmtime.Engine(config)
            try:
                _COMPILED = engine, wasmtime.Module(engine, module_text())
            except wasmtime.WasmtimeError:
                # e.g. a CPU whose SIMD Cranelift cannot target (the test
                # of available() catches a broken module on ours).
                _UNAVAILABLE = True
                return None
        return _COMPILED


def available() -> bool:
    """Whether the compiled kernel can run here (compiles it once)."""
    return _compiled() is not None


def _instance() -> _Instance:
    inst = getattr(_LOCAL, "instance", None)
    if inst is None:
        compiled = _compiled()
        assert compiled is not None, "check available() first"
        inst = _LOCAL.instance = _Instance(*compiled)
        with _LOCK:
            _INSTANCES.append(inst)
    return inst


@atexit.register
def _close() -> None:
    # Free wasmtime's objects while the interpreter still works: left to
    # their __del__ at shutdown they print "Exception ignored" tracebacks.
    global _POOL, _COMPILED
    if _POOL is not None:
        _POOL.shutdown(wait=True)
        _POOL = None
    with _LOCK:
        for inst in _INSTANCES:
            inst.store.close()
        _INSTANCES.clear()
        if _COMPILED is not None:
            engine, module = _COMPILED
            module.close()
            engine.close()
            _COMPILED = None


def avx2_pairs(blocks: np.ndarray, mean: np.float32, std: np.float32) -> None:
    """In place ``NormalFill16<float, true>`` on a contiguous (blocks, 16)
    float32 array: :func:`engine.rng_normal._avx2_pairs`, compiled."""
    plus0 = bool(std == 1 and mean == 0)
    _instance()(blocks, plus0)
    if not plus0:
        # fmadd(n, std, mean) with a general std/mean: exactly rounded, numpy.
        blocks[...] = fma32(blocks, std, mean)


# --------------------------------------------------------------------------
# Workers: every core transforms blocks (the calls release the GIL)
# --------------------------------------------------------------------------

_POOL: ThreadPoolExecutor | None = None
_FORKED: list[object] = []


def _forget_pool() -> None:
    # A forked child inherits the pool object but not its threads, and
    # copies of wasmtime objects it should neither use nor free.
    global _POOL, _COMPILED, _LOCAL
    _FORKED.append((_POOL, _COMPILED, _LOCAL, list(_INSTANCES)))
    _POOL = _COMPILED = None
    _LOCAL = threading.local()
    _INSTANCES.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _cores() -> int:
    """Cores this process may use (the in-flight jobs are few anyway)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:              # not on Linux
        n = os.cpu_count() or 2
    return max(1, min(n, 8))


def submit(job: Callable[[], None]) -> Future[None]:
    """Run ``job()`` on a worker thread (one per core); its future."""
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=_cores(),
                                       thread_name_prefix="tidx-rng-normal")
        return _POOL.submit(job)
