"""Run the same statements in tidx and in real PyTorch, and describe both the same way.

Test code only: the statements are the tests' own strings, so running them in real
torch with ``exec`` is fine here (tidx itself never does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
            "values": None if meta else t.tolist(),
            "storage_nbytes": t.untyped_storage().nbytes(),
            "requires_grad": t.requires_grad, "repr": repr(t)}


def describe(value) -> dict[str, Any]:
    """A tensor as :func:`describe_tensor`; any other value (an int, a tuple, a
    torch.Size, a dtype, None ...) by its type's name and its repr, as Python prints it."""
    if hasattr(value, "untyped_storage"):
        return describe_tensor(value)
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
    from engine.interpreter.statements import parse
    from tracer import record

    ev = Evaluator()
    error = None
    ops: list[tuple[int, str]] = []
    # defaults are built with the recorder paused (Evaluator.lookup), as the torch
    # side builds them before profiling
    for stmt in parse("\n".join(statements)):
        if True:
            with record() as tr:
                try:
                    ev.run(stmt)
                except Exception as exc:  # noqa: BLE001
                    from engine.core.errors import is_torch_error
                    if not is_torch_error(exc):
                        raise
                    error = (type(exc).__name__, str(exc))
            doc = tr.to_dict()
            for s in doc["statements"]:
                ops += op_tree(s["events"])
            if error:
                break
    tensors = {n: describe_tidx_tensor(ev.names[n]) for n in names if n in ev.names}
    return Outcome(ops, error, tensors)


def compare(torch, statements: list[str], names: list[str]) -> tuple[Outcome, Outcome]:
    return run_tidx(statements, names), run_torch(torch, statements, names)
