"""The oracle harness: run the same thing in tidx and in real PyTorch, describe both the
same way, and assert they agree.

Two kinds of program, one assertion, :func:`assert_like_torch`:

* statements (``["y = t.flip(1)"]``): run by tidx's evaluator and by ``exec`` in torch
  under torch.profiler; the aten operator tree, the error (class and message) and the
  named tensors (values, shape, strides, offset, dtype, device, storage bytes, repr)
  must agree;
* a function of the library (``lambda lib: lib.flip(lib.ones(2, 3), [0])``): called with
  ``engine`` and with ``torch``; what it returns (tensors by values, shape, strides,
  offset, dtype and device; numbers by type and repr; tuples and lists element by
  element) or the error it raises (class and message) must agree.

:func:`call` and :func:`forms` are the property helper over an operator's call forms
(``torch.X(t, ...)``, ``t.X(...)``, ``t.X_(...)``, ``torch.X(t, ..., out=out)``).

Test code only: the statements are the tests' own strings, so running them in real
torch with ``exec`` is fine here (tidx itself never does).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.interpreter import defaults as scope
from engine.interpreter.verify import profile_ops
from tracer import op_tree


@dataclass
class Outcome:
    ops: list[tuple[int, str]]
    error: tuple[str, str] | None
    tensors: dict[str, dict[str, Any]] = field(default_factory=dict)


def describe_tensor(t) -> dict[str, Any]:
    """The same description of a torch or a tidx tensor (their APIs agree)."""
    meta = str(t.device) == "meta"
    return {"shape": list(t.shape), "strides": list(t.stride()), "offset": t.storage_offset(),
            "dtype": str(t.dtype), "device": str(t.device),
            "values": None if meta else norm(t.tolist()),
            "storage_nbytes": t.untyped_storage().nbytes(),
            "requires_grad": t.requires_grad, "repr": repr(t)}


def describe(value) -> dict[str, Any]:
    """A tensor as :func:`describe_tensor`; any other value (an int, a tuple, a
    torch.Size, a dtype, None ...) by its type's name and its repr, as Python prints it."""
    if hasattr(value, "untyped_storage"):
        return describe_tensor(value)
    if type(value).__name__ == "ndarray":   # numpy's, or tidx's over its storage
        return {"type": "ndarray", "shape": list(value.shape), "strides": list(value.strides),
                "dtype": str(value.dtype), "values": norm(value.tolist()), "repr": repr(value)}
    return {"type": type(value).__name__, "repr": repr(value)}


describe_torch_tensor = describe_tidx_tensor = describe


def torch_scope(torch) -> dict[str, Any]:
    ns: dict[str, Any] = {"torch": torch}
    for d in scope.DEFAULTS:
        exec(f"{d.name} = {d.source}", ns)  # the defaults' own source, trusted
    return ns


def run_torch(torch, statements: list[str], names: list[str]) -> Outcome:
    from torch.profiler import ProfilerActivity, profile

    ns = torch_scope(torch)
    error = None
    ops: list[tuple[int, str]] = []
    for st in statements:
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            try:
                exec(st, ns)
            except Exception as exc:  # noqa: BLE001 - the oracle's error is data
                error = (type(exc).__name__, str(exc))
        ops += profile_ops(prof)
        if error:
            break
    tensors = {n: describe_torch_tensor(ns[n]) for n in names if n in ns}
    return Outcome(ops, error, tensors)


def run_tidx(statements: list[str], names: list[str]) -> Outcome:
    from engine.interpreter.evaluator import Evaluator
    from engine.interpreter.control import Driver
    from engine.interpreter.statements import COMPOUND, parse
    from tracer import record

    ev = Evaluator()
    error = None
    ops: list[tuple[int, str]] = []
    # defaults are built with the recorder paused (Evaluator.lookup), as the torch
    # side builds them before profiling
    def one(stmt) -> None:
        nonlocal error
        with record() as tr:
            try:
                ev.run(stmt)
            except Exception as exc:  # noqa: BLE001
                from engine.core.errors import is_torch_error
                if not is_torch_error(exc):
                    raise
                error = (type(exc).__name__, str(exc))
        for s in tr.to_dict()["statements"]:
            ops.extend(op_tree(s["events"]))

    for stmt in parse("\n".join(statements)):
        if isinstance(stmt.node, COMPOUND):   # a loop or an if: the statements it runs
            Driver(one, lambda: error is None).run(stmt)
        else:
            one(stmt)
        if error:
            break
    tensors = {n: describe_tidx_tensor(ev.names[n]) for n in names if n in ev.names}
    return Outcome(ops, error, tensors)


def compare(torch, statements: list[str], names: list[str]) -> tuple[Outcome, Outcome]:
    return run_tidx(statements, names), run_torch(torch, statements, names)


# -- one assertion ----------------------------------------------------------------------------

def norm(values: Any) -> Any:
    """A tensor's ``tolist()`` with floats by repr: every bit counts (-0.0 is not 0.0, the
    last digit of a float32 sum), and a NaN equals a NaN (any payload: no Python-visible
    operation tells NaN payloads apart)."""
    if isinstance(values, list):
        return [norm(v) for v in values]
    if isinstance(values, (float, complex)):     # a complex's two halves likewise
        return repr(values)
    return values


def summary(value: Any) -> Any:
    """What tidx and torch must agree on about a value a program returned."""
    if hasattr(value, "untyped_storage"):
        meta = str(value.device) == "meta"
        return ("tensor", None if meta else norm(value.tolist()), list(value.shape),
                list(value.stride()), value.storage_offset(), str(value.dtype),
                str(value.device))
    if isinstance(value, list):
        return [summary(v) for v in value]
    if isinstance(value, tuple):   # by name: torch.Size is not a tuple, return_types.max
        return (type(value).__name__, tuple(summary(v) for v in value))
    if isinstance(value, (bool, int, float, str)) or value is None:
        return (type(value).__name__, repr(value))
    return (type(value).__name__.replace("torch.", ""), str(value))


def shares(a, b) -> bool:
    """Two tensors on one storage (and one of them has elements to share)."""
    return (a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
            and a.numel() > 0)


def outcome(lib, program: Callable[..., Any], *args: Any) -> tuple:
    """``program(lib, *args)``: ``("ok", summary)``, ``("error", class, message)``, or
    (tidx only) ``("refused", why)``. Warnings (torch's deprecations) are not outcomes."""
    return attempt(lambda: ("ok", summary(program(lib, *args))))


def attempt(thunk: Callable[[], Any]) -> Any:
    """What ``thunk()`` returns (a test's own description of a result), or the error it
    raised as ``("error", class, message)``, or (tidx only) ``("refused", why)``: the one
    place a test turns an exception into an outcome."""
    from engine.core.errors import Refused

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return thunk()
    except Refused as exc:
        return ("refused", str(exc))
    except HypothesisException:
        raise                        # assume() and friends steer the search, not the case
    except Exception as exc:  # noqa: BLE001 - the error is the outcome
        # a C++ backtrace torch may append is the build's, not the error's
        return ("error", type(exc).__name__, str(exc).split("\nException raised from")[0])


def assert_like_torch(program: str | Sequence[str] | Callable[..., Any], *args: Any,
                      names: Sequence[str] = ("y",), uninitialised: Sequence[str] = (),
                      refused: bool | Callable[[tuple, tuple], bool] = False) -> None:
    """tidx does what torch 2.13 does with ``program`` (see the module's docstring).

    ``uninitialised``: named tensors of fresh memory (``empty``): everything but their
    bytes is compared. ``refused``: tidx may refuse where torch computes (True), or where
    ``refused(ours, theirs)`` holds of the two outcomes; a refusal is never a pass
    otherwise.
    """
    from conftest import require_torch

    torch = require_torch()
    if callable(program):
        ours, theirs = outcome(_engine(), program, *args), outcome(torch, program, *args)
        if ours[0] == "refused" and refused:
            allowed = theirs[0] == "ok" if refused is True else refused(ours, theirs)
            assert allowed, (ours, theirs)
            return
        assert ours == theirs
        return
    assert not args, "statements take no arguments"
    statements = [program] if isinstance(program, str) else list(program)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine, real = compare(torch, statements, list(names))
    for side in (mine, real):
        for name in uninitialised:
            if name in side.tensors:
                side.tensors[name].pop("values", None)
                side.tensors[name].pop("repr", None)
    assert mine.error == real.error
    assert mine.ops == real.ops
    assert mine.tensors == real.tensors


def assert_within(program: str | Sequence[str], names: Sequence[str] = ("y",), k: float = 1,
                  *, floor: float = 1) -> None:
    """As :func:`assert_like_torch` for statements, but each named tensor's values need only
    be within ``k * eps * max(floor, |torch's|)`` of torch's, eps its dtype's: for values
    whose bits come from a library tidx cannot replay (MKL's exp, a BLAS's order), where
    tidx states that bound.  NaN and the infinities must be where torch has them; the
    operators, the error and every other field of each tensor are compared exactly."""
    import numpy as np

    from conftest import require_torch

    torch = require_torch()
    statements = [program] if isinstance(program, str) else list(program)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine, real = compare(torch, statements, list(names))
    assert mine.error == real.error
    assert mine.ops == real.ops
    assert mine.tensors.keys() == real.tensors.keys()
    for name in names:
        if name not in mine.tensors:
            continue
        a, b = dict(mine.tensors[name]), dict(real.tensors[name])
        va, vb = a.pop("values"), b.pop("values")
        a.pop("repr"), b.pop("repr")
        assert a == b, name
        eps = float(np.finfo({"torch.float32": np.float32, "torch.float64": np.float64,
                              "torch.float16": np.float16}[a["dtype"]]).eps)
        fa = np.array(va, np.float64).reshape(-1)
        fb = np.array(vb, np.float64).reshape(-1)
        assert np.array_equal(np.isnan(fa), np.isnan(fb)), name
        finite = np.isfinite(fb)
        infinite = ~finite & ~np.isnan(fb)
        assert np.array_equal(fa[infinite], fb[infinite]), name
        assert np.all(np.abs(fa[finite] - fb[finite])
                      <= k * eps * np.maximum(floor, np.abs(fb[finite]))), (name, fa, fb)


def _engine():
    import engine

    return engine


# -- one property helper over call forms ------------------------------------------------------

FORMS = ("function", "method", "inplace", "out")


def forms(*allowed: str) -> st.SearchStrategy[str]:
    """The call forms a case is drawn in (all four unless named)."""
    assert set(allowed) <= set(FORMS), allowed
    return st.sampled_from(allowed or FORMS)


def call(lib, form: str, name: str, t, *args: Any, **kwargs: Any) -> Any:
    """``name`` applied to ``t`` in one call form: ``lib.name(t, *args)``,
    ``t.name(*args)``, in place ``t.name_(*args)`` (which must return ``t`` itself) or
    ``lib.name(t, *args, out=out)`` into an empty tensor of t's dtype (which must return
    ``out``, resized)."""
    if form == "function":
        return getattr(lib, name)(t, *args, **kwargs)
    if form == "method":
        return getattr(t, name)(*args, **kwargs)
    if form == "inplace":
        r = getattr(t, name + "_")(*args, **kwargs)
        assert r is t, f"{name}_ returned another tensor"
        return r
    if form == "out":
        out = lib.empty(0, dtype=t.dtype, device=t.device)
        r = getattr(lib, name)(t, *args, out=out, **kwargs)
        assert r is out, f"{name}(out=) returned another tensor"
        return r
    raise AssertionError(form)
