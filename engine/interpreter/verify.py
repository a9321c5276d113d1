"""--verify: run the same statements in real PyTorch and say what matches.

The statements go through the same allow-listed evaluator, over a namespace built
from the real ``torch`` module (never ``exec``), under ``torch.profiler`` so the
aten operators can be compared with the ones tidx recorded.  PyTorch is optional:
without it, :func:`verify` returns None and the caller says so in one line.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import os
import pickle
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from tracer import op_tree
from tracer import values as V
from tracer.events import walk as walk_events

from engine.binding import legacy_ctor
from engine.interpreter import evaluator as E
from engine.interpreter.pymath import Module
from engine.interpreter import pynumpy
from engine.interpreter import verify_cuda as C
from engine.core.errors import Refused
from engine.interpreter.defaults import BY_NAME
from engine.interpreter.control import Driver
from engine.interpreter.statements import CATCHABLE, COMPOUND, parse
from engine.core.work_budget import WorkBudget

#: What is compared for each statement, in table order.
CHECKS = ("values", "shape", "strides", "offset", "dtype", "error", "aten ops")


@dataclass
class Row:
    """One statement's comparison: check name -> True (match), False, or None (n/a)."""

    source: str
    results: dict[str, bool | None] = field(default_factory=dict)
    details: list[str] = field(default_factory=list)
    compared: bool = True        # False: real PyTorch could not run it (pypto, refused)
    #: what the row's checks mean, as i18n ids with their arguments: a CUDA statement is
    #: compared on the CPU ({"id": "ui.verify.cuda_on_cpu", "args": {}})
    said: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(v is not False for v in self.results.values())


@contextlib.contextmanager
def _quiet_stderr():
    """torch.profiler's backend writes a line to file descriptor 2 at every start and
    stop, whatever the log level; keep those out of tidx's output."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to silence
        yield
        return
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _torch():
    try:
        return importlib.import_module("torch")
    except ImportError:
        return None


def torch_version() -> str | None:
    torch = _torch()
    return None if torch is None else torch.__version__


def _namespace(torch) -> E.Namespace:
    functions = {name: getattr(torch, name) for name in E.TORCH_FUNCTIONS
                 if hasattr(torch, name)}
    functional = importlib.import_module("torch.nn.functional")
    constants = {name: getattr(torch, name) for name in E.CONSTANT_NAMES} | {
        "random": Module("torch.random", repr(torch.random),
                         {"manual_seed": torch.random.manual_seed}, {}),
        # torch.nn.functional's functions tidx runs, torch's own (engine/binding/nn_functional.py)
        "nn": Module("torch.nn", repr(torch.nn), {}, {
            "functional": Module("torch.nn.functional", repr(functional),
                                 {name: getattr(functional, name)
                                  for name in E.TORCH_NN.constants["functional"].functions}, {})}),
        "autograd": Module("torch.autograd", repr(torch.autograd),
                           {"grad": torch.autograd.grad}, {}),
        "linalg": Module("torch.linalg", repr(torch.linalg),
                         {name: getattr(torch.linalg, name)
                          for name in E.TORCH_CONSTANTS["linalg"].functions}, {})}
    return E.Namespace(f"PyTorch {torch.__version__}", functions, constants,
                       tensor=torch.Tensor, storage=(torch.UntypedStorage, torch.TypedStorage), size=torch.Size,
                       dtype=torch.dtype,
                       constructors={name: (getattr(torch, name),
                                            _isinstance_of(getattr(torch, name)))
                                     for name in ("Tensor", "Size", *legacy_ctor.TYPES)})


def _isinstance_of(cls: Any) -> Callable[[Any], bool]:
    return lambda obj: isinstance(obj, cls)


def _describe(value: Any) -> dict[str, Any] | None:
    if not hasattr(value, "stride") or not hasattr(value, "storage_offset"):
        return None
    meta = str(value.device) == "meta"
    # an empty tensor with a huge leading dim ((2**62, 0)) lists as 2**62 empty lists:
    # its values are not read (there are none)
    hollow = value.numel() == 0 and len(value.shape) > 1 and value.shape[0] > 0
    try:
        grad_fn = getattr(value, "grad_fn", None)
        node = None if grad_fn is None else grad_fn.name().rsplit("::", 1)[-1]
    except RuntimeError:    # a view whose history cannot be made again: repr's <Invalid>
        node = "Invalid"
    return {"values": None if meta or hollow else value.tolist(), "shape": list(value.shape),
            "strides": list(value.stride()), "offset": value.storage_offset(),
            "dtype": str(value.dtype),
            # autograd's part: compared with the values (a result is its values and history)
            "autograd": (bool(getattr(value, "requires_grad", False)), node),
            "grad": _grad_values(value)}


def _grad_values(value: Any) -> Any:
    """A leaf's (or a retained) ``.grad`` as a list; None when it has none.  Reading
    ``.grad`` of a tensor that is not a leaf warns in torch: only leaves and tensors
    that retain their gradient are read."""
    if not getattr(value, "requires_grad", False):
        return None
    try:
        history = getattr(value, "grad_fn", None) is not None
    except RuntimeError:    # (a view whose history cannot be made again)
        return None
    if history and not getattr(value, "retains_grad", False):
        return None
    grad = value.grad
    return None if grad is None else grad.tolist()


def profile_ops(prof) -> list[tuple[int, str]]:
    """The operators a torch.profiler run recorded, with their nesting depth, in call
    order (the same shape as tracer.op_tree gives for a tidx trace)."""
    events = sorted(prof.profiler.function_events,
                    key=lambda e: (e.time_range.start, -e.time_range.end))

    def depth(e) -> int:
        d = 0
        while e.cpu_parent is not None:
            d, e = d + 1, e.cpu_parent
        return d

    return [(depth(e), e.name) for e in events]


#: The environment variable torch chooses its kernels' builds by (DispatchStub.cpp)
CAPABILITY_ENV = "ATEN_CPU_CAPABILITY"


def torch_capability(doc: dict[str, Any]) -> str | None:
    """The ATEN_CPU_CAPABILITY value torch must run under to compare with ``doc``: the
    capability tidx's run used (``doc["cpu"]``), in torch's spelling."""
    cpu = doc.get("cpu") or {}
    name = cpu.get("capability")
    return None if name is None else name.lower()


def cannot_run(doc: dict[str, Any]) -> str | None:
    """Why real torch cannot run with the capability tidx simulated (None: it can)."""
    cpu = doc.get("cpu") or {}
    if not cpu.get("simulated"):
        return None
    return (f"tidx simulated the {cpu['capability']} build, which this {cpu.get('arch')} "
            f"CPU cannot run (its best is {cpu.get('cpu')}); torch was not run")


def verify(text: str, doc: dict[str, Any]) -> list[Row] | None:
    """Compare tidx's run (``doc``, from engine.interpreter.session.run) with real PyTorch's,
    with torch's kernels chosen by the same CPU capability as tidx's: in this process
    when torch has not chosen yet (ATEN_CPU_CAPABILITY set before it is imported) or
    chose the same, else in a subprocess started with that ATEN_CPU_CAPABILITY."""
    wanted = torch_capability(doc)
    if wanted is None or "torch" not in sys.modules:
        if importlib.util.find_spec("torch") is None:
            return None
        env = {} if wanted is None else {CAPABILITY_ENV: wanted}
        with _environment(env):
            return _verify_here(text, doc)
    torch = _torch()
    if torch is None:
        return None
    if torch.backends.cpu.get_cpu_capability().lower() == wanted:
        return _verify_here(text, doc)
    return _verify_in_subprocess(text, doc, wanted)


@contextlib.contextmanager
def _environment(env: dict[str, str]):
    """``env`` set in os.environ for the block (torch reads ATEN_CPU_CAPABILITY once, at
    its first kernel), then restored."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _verify_in_subprocess(text: str, doc: dict[str, Any], capability: str) -> list[Row]:
    """verify in a fresh Python whose torch starts with ATEN_CPU_CAPABILITY=capability
    (this process's torch has chosen another, once and for all)."""
    env = dict(os.environ, **{CAPABILITY_ENV: capability},
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    code = ("import pickle, sys; from engine.interpreter import verify as V; "
            "text, doc = pickle.load(sys.stdin.buffer); "
            "pickle.dump(V._verify_here(text, doc), sys.stdout.buffer)")
    proc = subprocess.run([sys.executable, "-c", code], input=pickle.dumps((text, doc)),
                          capture_output=True, env=env, check=False)
    if proc.returncode != 0:
        last = (proc.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
        raise RuntimeError(f"torch with {CAPABILITY_ENV}={capability} failed: {last}")
    return pickle.loads(proc.stdout)


def _verify_here(text: str, doc: dict[str, Any]) -> list[Row] | None:
    import warnings

    torch = _torch()
    if torch is None:
        return None
    # torch's own warnings (a deprecated index form ...) belong to torch's run, which
    # tidx compares with; they are not tidx's output (tidx shows its own)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _compare_all(torch, text, doc)


def _compare_all(torch, text: str, doc: dict[str, Any]) -> list[Row]:
    ev = E.Evaluator(torch=_namespace(torch), numpy=pynumpy.real_library())
    if doc.get("seed") is not None:
        torch.manual_seed(doc["seed"])
    pairing = _Pairing(ev, doc["statements"])
    for st in parse(text):
        if pairing.stopped:
            break
        if isinstance(st.node, COMPOUND):
            # the document unrolls a loop into the statements it ran (control.py); torch's
            # run is unrolled the same way, each pass's statement compared with its own
            Driver(pairing.one, lambda: not pairing.stopped, WorkBudget()).run(st)
        else:
            pairing.one(st)
    return pairing.rows


class _Pairing:
    """Each statement torch runs, beside the next statement of tidx's document."""

    def __init__(self, ev: E.Evaluator, ours: list[dict[str, Any]]) -> None:
        self.ev, self.ours = ev, list(ours)
        self.rows: list[Row] = []
        self.skipped: str | None = None
        self.stopped = False
        self.random = False  # a CUDA statement drew numbers: no values comparable after
        self.on_gpu: set[str] = set()   # the names bound to CUDA tensors so far
        self.approximate: set[str] = set()  # names holding a result computed within a bound

    def one(self, st) -> None:
        # real torch is optional: imported only when --verify asks for it
        from torch.profiler import ProfilerActivity, profile

        ev, rows = self.ev, self.rows
        if not self.ours or self.ours[0]["source"] != st.source:
            self.stopped = True     # tidx's run ended here (its error), or went elsewhere
            return
        ours = self.ours.pop(0)
        if self.skipped is None and any(isinstance(n, ast.Name) and n.id == "pypto"
                                        for n in ast.walk(st.node)):
            self.skipped = (f"{st.source!r} is pypto (Huawei CANN's, not PyTorch's): it and "
                            "the statements after it are not compared")
        cuda = self.skipped is None and C.reads_cuda(st.node, ours, self.on_gpu)
        self.on_gpu = C.cuda_names(ours, self.on_gpu)
        if self.skipped is not None:
            rows.append(_not_compared(st, self.skipped, first=not rows or rows[-1].compared))
            return
        # default names are made before profiling, as tidx makes them outside its trace
        for node in ast.walk(st.node):
            if isinstance(node, ast.Name) and node.id in BY_NAME and node.id not in ev.names:
                ev.lookup(node.id)
        error = None
        run = C.on_cpu(st) if cuda else st
        grads_before = _grads(ev)
        with _quiet_stderr(), profile(activities=[ProfilerActivity.CPU]) as prof:
            try:
                ev.run(run)
            except Refused as exc:
                self.skipped = f"PyTorch could not run {st.source!r} here: {exc}"
            except Exception as exc:  # noqa: BLE001 - torch's error is what we compare
                error = {"type": type(exc).__name__, "message": str(exc)}
        if self.skipped is not None:
            rows.append(_not_compared(st, self.skipped, first=True))
            return
        caught = error is not None and any(
            isinstance_name(error["type"], c) for c in st.catches)
        if ours["error"] is not None:
            ours = {**ours, "error": {k: v for k, v in ours["error"].items() if k != "caught"}}
        if cuda and C.device_error(ours, error):
            # a mixed-device error: only a GPU run raises it; tidx stopped here
            rows.append(_not_compared(st, f"{st.source!r} raises a mixed-device error, which "
                                          "only a GPU run can raise: not compared on the "
                                          "CPU", first=True))
            self.stopped = True
            return
        self.random = self.random or (cuda and C.draws_random(ours))
        row = _compare(run, ours, ev, error, profile_ops(prof), cuda=cuda, random=self.random)
        self.approximate = _within_bound(row, st, ours, ev, self.approximate)
        if {n.id for n in ast.walk(st.node) if isinstance(n, ast.Name)} & self.approximate:
            # a backward pass through values within a bound (sigmoid's, softmax's): the
            # .grad it wrote carries their difference on, as any arithmetic on them does
            self.approximate |= {n for n, g in _grads(ev).items() if g != grads_before.get(n)}
        rows.append(row)
        if (error is not None or ours["error"] is not None) and not caught:
            self.stopped = True


def _not_compared(st, why: str, first: bool) -> Row:
    """A statement real PyTorch cannot run: every check a dash, and why (on the first)."""
    return Row(st.source, {check: None for check in CHECKS}, [why] if first else [],
               compared=False)


def isinstance_name(type_name: str, catch: str) -> bool:
    """Whether an error of class ``type_name`` is caught by ``except catch``."""
    cls = CATCHABLE.get(type_name)
    return cls is not None and issubclass(cls, CATCHABLE[catch]) or catch == "Exception"


def _compare(st, ours: dict[str, Any], ev: E.Evaluator, error: dict | None,
             ops: list[tuple[int, str]], *, cuda: bool = False, random: bool = False) -> Row:
    """Compare one statement.  ``cuda``: it ran on tidx's simulated GPU and on torch's
    CPU (verify_cuda); ``random``: a CUDA generator has drawn, values are not comparable."""
    row = Row(st.source)
    if cuda:
        said = "ui.verify.cuda_random" if random else "ui.verify.cuda_device_value" \
            if C.queries_device(st.node) else "ui.verify.cuda_on_cpu"
        row.said.append({"id": said, "args": {}})
    elif random:
        row.said.append({"id": "ui.verify.after_cuda_random", "args": {}})
    row.results["error"] = ours["error"] == error
    if not row.results["error"]:
        row.details.append(f"error: tidx {ours['error']} / torch {error}")
    mine = op_tree(ours["events"])
    if cuda:
        mine, ops = C.without_moves(mine, "cuda"), C.without_moves(ops, "cpu")
    if _calls_print(st.node) or ours.get("printed"):
        # torch's repr runs operators of its own (tensor_str formatting); tidx prints
        # without tracing them, so the operator trees are not comparable here (a print
        # in a function the statement called, a backward hook's, is seen by what it printed)
        row.results["aten ops"] = None
    else:
        row.results["aten ops"] = mine == ops
    if row.results["aten ops"] is False:
        row.details.append(f"aten ops: tidx {[n for _, n in mine]} / torch {[n for _, n in ops]}")
    raw = {name: ev.names.get(name) for name in ours.get("bindings", {})}
    if ours.get("result") is not None:
        raw["(result)"] = st.value
    theirs = {name: _describe(value) for name, value in raw.items()}
    for check in ("values", "shape", "strides", "offset", "dtype"):
        verdicts = []
        for name, t in theirs.items():
            summary = (ours["result"] if name == "(result)" else ours["bindings"][name])
            s = summary["summary"] if summary else None
            if check == "values" and (random or cuda and C.queries_device(st.node)):
                continue  # a random draw, a device: differ from the CPU's by design
            if check == "values" and t is None and _plain_value(s):
                # an int, a tuple, a torch.Size, a dtype, None ...: as Python prints it
                theirs_text = _recorded_text(raw[name])
                same = V.text(s) == theirs_text
                verdicts.append(same)
                if not same:
                    row.details.append(f"value of {name}: tidx {V.text(s)} / torch "
                                       f"{raw[name]!r}")
                continue
            if isinstance(s, dict) and s.get("kind") == "ndarray" and check != "values":
                verdict = _array_check(check, s, raw[name], name, ours, ev.names, row)
                if verdict is not None:
                    verdicts.append(verdict)
                continue
            if t is None or not isinstance(s, dict) or s.get("kind") != "tensor":
                continue
            if check == "values":
                mine_grad = (bool(s.get("requires_grad")), s.get("grad_fn"))
                if mine_grad != t["autograd"]:
                    verdicts.append(False)
                    row.details.append(f"autograd of {name}: tidx requires_grad, grad_fn "
                                       f"{mine_grad} / torch {t['autograd']}")
                    continue
                mine_g, theirs_g = s.get("grad"), t.get("grad")
                if (mine_g is None) != (theirs_g is None) or (
                        mine_g is not None and not _same_values(mine_g, theirs_g) and not (
                            (stated := _absolute_bound(ours["events"])) is not None
                            and _within(mine_g, theirs_g, stated[0]))):
                    verdicts.append(False)
                    row.details.append(f".grad of {name}: tidx {mine_g} / torch {theirs_g}")
                    continue
                if "values" not in s or t["values"] is None:
                    continue  # large, uninitialised or empty: not recorded
                mine_v = s["values"]
                same = _same_values(mine_v, t["values"])
                stated = None if same else _absolute_bound(ours["events"])
                if stated is not None and _within(mine_v, t["values"], stated[0]):
                    # MKL's summation order, log_softmax's exp and log: a difference
                    # within the bound tidx stated
                    same = True
                    row.said.append(stated[1])
            else:
                key = {"dtype": "dtype"}.get(check, check)
                mine_v = s[key] if check != "dtype" else s["dtype"]
                same = _same_field(check, mine_v, t[check])
            verdicts.append(same)
            if not same:
                row.details.append(f"{check} of {name}: tidx {mine_v} / torch {t[check]}")
        row.results[check] = all(verdicts) if verdicts else None
    return row


def _array_check(check: str, mine: dict[str, Any], theirs: Any, name: str,
                 ours: dict[str, Any], names: dict[str, Any], row: Row) -> bool | None:
    """A numpy array's shape, strides (bytes) and dtype against numpy's; for ``offset``,
    where it lies: each tensor the statement bound, or the user's tensors it recorded
    (``names``), is on the array's storage in tidx exactly when it shares the array's
    memory in torch (a write through one is seen through the other)."""
    if type(theirs).__name__ != "ndarray":
        row.details.append(f"{name}: tidx has a numpy array, torch {type(theirs).__name__}")
        return False
    if check == "offset":
        verdicts = []
        recorded = {other: (b or {}).get("summary") for other, b in ours["bindings"].items()}
        recorded |= {other: s for other, s in (ours.get("names") or {}).items()
                     if other not in recorded}
        for other, s in recorded.items():
            value = names.get(other)
            if other == name or s is None or not V.is_tensor(s) or value is None or \
                    not hasattr(value, "untyped_storage"):
                continue
            same = (s["storage"] == mine["storage"]) == bool(
                value.device.type == "cpu" and np.shares_memory(theirs, value.detach().numpy()))
            verdicts.append(same)
            if not same:
                row.details.append(f"{name} and {other} share memory in one run only")
        return all(verdicts) if verdicts else None
    wanted = {"shape": list(theirs.shape), "strides": list(theirs.strides),
              "dtype": str(theirs.dtype)}[check]
    same = mine[check] == wanted
    if not same:
        row.details.append(f"{check} of {name}: tidx {mine[check]} / numpy {wanted}")
    return same


def _recorded_text(value: Any) -> str:
    """A torch value's repr as tidx records it: a storage by what it is (torch prints
    every element first; they are the tensor's, compared there), inside tuples and lists
    too."""
    if type(value).__name__ in ("TypedStorage", "UntypedStorage"):
        return repr(value).splitlines()[-1]
    if callable(value) and not hasattr(value, "untyped_storage"):
        # a function's repr names its address, which changes every run (tidx's has none)
        return re.sub(r" at 0x[0-9a-f]+>$", ">", repr(value))
    if type(value) in (tuple, list):
        parts = [_recorded_text(v) for v in value]
        if type(value) is list:
            return "[" + ", ".join(parts) + "]"
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return repr(value)


def _plain_value(summary: Any) -> bool:
    """A recorded value with no tensor inside, recorded whole (not cut at MAX_ITEMS)."""
    if not isinstance(summary, dict) or any(True for _ in V.tensors(summary)):
        return False
    # an object's repr with its address (<torch._C.Generator object at 0x...>) differs
    # from run to run in torch itself: not comparable
    return "..." not in V.text(summary) and " object at 0x" not in V.text(summary)


def _calls_print(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
               for n in ast.walk(node))


_SHORT = {"b8": "torch.bool", "u8": "torch.uint8", "i8": "torch.int8", "i16": "torch.int16",
          "i32": "torch.int32", "i64": "torch.int64", "f16": "torch.float16",
          "f32": "torch.float32", "f64": "torch.float64", "c64": "torch.complex64",
          "c128": "torch.complex128"}


def _same_field(check: str, mine: Any, theirs: Any) -> bool:
    if check == "dtype":
        return _SHORT.get(mine, mine) == theirs
    return list(mine) == list(theirs) if isinstance(mine, list) else mine == theirs


#: the kernel notes that state an absolute bound on how far torch's values may be
#: (engine/ops/softmax.py, functional_loss.py)
ABSOLUTE_NOTES = ("softmax.log_bound", "loss.cross_entropy_bound", "activation.gelu_bound",
                  "statistics.logsumexp_bound", "activation.backward_bound",
                  "activation.log_sigmoid_bound", "loss.bce_bound")


def _absolute_bound(events: list[dict[str, Any]]) -> tuple[float, dict[str, Any]] | None:
    """The largest absolute bound a step stated on how far torch's values may be from
    tidx's, and what the row says of it: a matmul step's (engine/ops/matmul.py's
    ``matmul.bound``: MKL's summation order) or log_softmax's (engine/ops/softmax.py's
    ``softmax.log_bound``: torch's exp and log)."""
    found = []
    for _, e in walk_events(events):
        if e.get("note_id") == "matmul.bound":
            bound = float(e["note_args"]["bound"])
            found.append((bound, {"id": "ui.verify.blas_bound", "args": {"bound": bound}}))
        elif e.get("note_id") in ABSOLUTE_NOTES:
            bound = float(e["note_args"]["bound"])
            found.append((bound, {"id": "ui.verify.abs_bound", "args": {
                "bound": bound, "op": e["note_args"].get("op", e.get("name", ""))}}))
    return max(found, key=lambda f: f[0]) if found else None


def _within(mine: Any, theirs: Any, bound: float) -> bool:
    """Every value within ``bound`` of torch's (nan and infinities must agree exactly)."""
    if isinstance(mine, list) or isinstance(theirs, list):
        return (isinstance(mine, list) and isinstance(theirs, list)
                and len(mine) == len(theirs)
                and all(_within(a, b, bound) for a, b in zip(mine, theirs)))
    if isinstance(mine, (int, float)) and isinstance(theirs, (int, float)):
        return abs(mine - theirs) <= bound
    return _same_values(mine, theirs)


def _same_values(mine: Any, theirs: Any) -> bool:
    """Recorded values store nan/inf as strings; compare them as torch prints them.  A
    complex element is recorded as its repr, which spells both halves' doubles exactly
    (a float32 half too): torch's is compared by its repr, so every bit of both halves."""
    def norm(v: Any) -> Any:
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, complex):
            return repr(v)
        if isinstance(v, float) and v != v:
            return "nan"
        if isinstance(v, float) and v in (float("inf"), float("-inf")):
            return repr(v)
        return v
    return norm(mine) == norm(theirs)


# -- values computed within a bound (engine/ops/math_unary.py, docs/fidelity-math.md) ----------
#: the kernel note that says "torch runs <library>; tidx's value may differ by <ulps> ulp"
BOUNDED_NOTE = "math.within_ulps"


def _grads(ev: E.Evaluator) -> dict[str, tuple[int, int]]:
    """Which gradient each of torch's named tensors holds (its identity and version): a
    backward pass replaces or accumulates into it."""
    import torch

    return {n: (id(v.grad), v.grad._version) for n, v in ev.names.items()
            if isinstance(v, torch.Tensor) and v.grad is not None}


def _bounds(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for e in events:
        if e.get("note_id") == BOUNDED_NOTE:
            found.append(e.get("note_args") or {})
        found.extend(_bounds(e.get("children") or []))
    return found


def _ulps(mine: Any, theirs: Any, dtype: str) -> float:
    """The largest distance in units in the last place between two value lists of one
    float dtype (NaN only equals NaN; an infinity only itself)."""
    def flat(v: Any) -> list[float]:
        if isinstance(v, list):
            return [x for item in v for x in flat(item)]
        return [float(v)]
    a, b = flat(mine), flat(theirs)
    if len(a) != len(b):
        return float("inf")
    kind: tuple[Any, Any, int] | None = {
        "f16": (np.float16, np.int16, -(2**15)), "f32": (np.float32, np.int32, -(2**31)),
        "f64": (np.float64, np.int64, -(2**63))}.get(dtype)
    if kind is None:
        return 0.0 if a == b else float("inf")
    fa, fb = np.array(a, kind[0]), np.array(b, kind[0])
    if not np.array_equal(np.isnan(fa), np.isnan(fb)) or not np.array_equal(
            np.isinf(fa) & (fa > 0), np.isinf(fb) & (fb > 0)) or not np.array_equal(
            np.isinf(fa) & (fa < 0), np.isinf(fb) & (fb < 0)):
        return float("inf")
    keep = np.isfinite(fa)
    lo = kind[2]     # the most negative integer: -0.0's bits, which orders next to +0.0

    def ordinal(x: Any) -> Any:
        i = x[keep].view(kind[1]).astype(np.int64)
        return np.where(i < 0, lo - i, i)
    return float(np.abs(ordinal(fa) - ordinal(fb)).max()) if keep.any() else 0.0


def _within_bound(row: Row, st, ours: dict[str, Any], ev: E.Evaluator,
                  approximate: set[str]) -> set[str]:
    """A statement whose kernel tidx computes within a measured bound of torch's (its note
    says whose code and how far): its values are compared within that bound and the row
    says so.  A later statement reading such a name can carry the difference on, grown
    by its own arithmetic: its values are not compared bit for bit, and the row says
    why.  Returns the names holding approximate values after the statement."""
    bounds = _bounds(ours.get("events") or [])
    reads = {n.id for n in ast.walk(st.node) if isinstance(n, ast.Name)} & approximate
    bound = max((int(b.get("ulps", 0)) for b in bounds), default=0)
    written = set((ours.get("bindings") or {}).keys()) | (_mutated(st.node) if bounds else set())
    if not bounds and not reads:
        if any(e.get("note_id") in ABSOLUTE_NOTES
               for _, e in walk_events(ours.get("events") or [])):
            # compared within its absolute bound above; what reads it later is not
            return approximate | written
        return approximate - written
    absolute = any(e.get("note_id") in ABSOLUTE_NOTES
                   for _, e in walk_events(ours.get("events") or []))
    if bounds and not (absolute and row.results.get("values") is not False):
        # (a step that states an absolute bound for the whole result, as logsumexp's
        # over its exp_ and log_, says what the values were compared within)
        row.said.append({"id": "ui.verify.within_ulps",
                         "args": {"ulps": bound, "library": bounds[0].get("library", "")}})
    if row.results.get("values") is not False:
        return approximate | written
    if reads:
        # derived from an approximate value: the difference is carried on, not bounded
        row.said.append({"id": "ui.verify.from_bounded", "args": {"names": ", ".join(sorted(reads))}})
        row.results["values"] = None
        row.details[:] = [d for d in row.details
                          if not d.startswith(("value", ".grad of "))]
        return approximate | written
    details = [d for d in row.details if not d.startswith("value")]
    values = {name: (ours["bindings"].get(name), ev.names.get(name)) for name in written}
    if ours.get("result") is not None:
        values["(result)"] = (ours["result"], st.value)
    for name, (summary, value) in values.items():
        s = summary["summary"] if summary else None
        theirs = _describe(value)
        if not isinstance(s, dict) or s.get("kind") != "tensor" or theirs is None \
                or "values" not in s or theirs["values"] is None:
            continue
        far = _ulps(s["values"], theirs["values"], s.get("dtype", ""))
        if far > bound:
            details.append(f"values of {name}: {far:g} ulp from torch's, beyond the "
                           f"{bound} ulp tidx states")
    row.results["values"] = len(details) == len([d for d in row.details
                                                 if not d.startswith("value")])
    row.details[:] = details
    return approximate | written


def _mutated(node: ast.AST) -> set[str]:
    """Names a statement writes into without binding them: ``x.exp_()``, ``out=x``."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr.endswith("_") \
                    and not f.attr.startswith("_") and isinstance(f.value, ast.Name):
                found.add(f.value.id)
            for kw in n.keywords:
                if kw.arg == "out" and isinstance(kw.value, ast.Name):
                    found.add(kw.value.id)
                if kw.arg == "inplace" and n.args:
                    # F.relu(x, inplace=True), F.silu(x.t(), inplace=True): x is written
                    root = n.args[0]
                    while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
                        root = root.func if isinstance(root, ast.Call) else root.value
                    if isinstance(root, ast.Name):
                        found.add(root.id)
    return found
