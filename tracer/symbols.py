"""Which steps of a trace are functions of libtorch 2.13 that gdb can break on.

tidx's steps follow PyTorch's C++, but a release build (the wheel on PyPI) compiles
many small functions into their callers: ``c10::StorageImpl``'s constructor and
``generic_set_sizes_contiguous`` leave no function to stop in.  Each step's spec says
which function of the binary runs it (the ``gdb`` location tidx breaks on) or why there
is none (:class:`tracer.steps.Libtorch`, declared beside the engine code that emits the
step); this module turns that into the event's ``libtorch`` field, reading the event
itself where the spec says so (an operator's kernel).  The facts come from the symbols
of the torch 2.13.0 CPU wheel (``nm -C lib/libtorch_cpu.so``, ``libtorch_python.so``,
``libc10.so``) and from running the seeds' statements under gdb:
tests/cli/test_gdb_libtorch.py checks every function the specs name against the wheel and
the seeds' paths against the binary.

The recorder stores :func:`answer` in every event (``"libtorch"``, docs/trace-format.md),
and ``--format gdb`` (tracer/render/gdb.py) writes the breakpoints from it.
"""

from __future__ import annotations

from typing import Any

#: Why a step has no breakpoint (the ``why`` of an event's ``libtorch``).
PYTHON = "python"       # Python code in torch/*.py: pdb's business, not gdb's
INLINED = "inlined"     # a C++ function the release build compiled into its caller
PART = "part"           # a part of one C++ function (a branch, a computation), not a call
UNMAPPED = "unmapped"   # tidx has not matched this step to a function of the wheel

#: Kernels a dispatcher step names that are no function of that name in the wheel.
NOT_A_SYMBOL: frozenset[str] = frozenset({"at::native::argsort_stable", "at::native::zeros"})


def _str(value: Any, key: str) -> str | None:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def answer(libtorch: Any, event: dict[str, Any]) -> dict[str, Any]:
    """An event's ``libtorch`` field from its spec's :class:`tracer.steps.Libtorch`:
    ``breakable``, ``function`` (the gdb location, or the inlined function), ``into``
    (where an inlined step or a part runs) and ``why`` (None when breakable).  A
    dispatcher step's comes from its kernel argument; an event made without a spec has
    none (unmapped, or Python code).

    >>> from tracer.steps import FROM_KERNEL, inlined
    >>> answer(inlined("c10::StorageImpl::StorageImpl", "at::detail::empty_generic"),
    ...        {"name": "StorageImpl"})["why"]
    'inlined'
    >>> answer(FROM_KERNEL, {"name": "aten::randn",
    ...        "args": {"kernel": {"kind": "str", "value": "at::native::randn"}}})["breakable"]
    True
    >>> answer(FROM_KERNEL, {"name": "aten::index", "args": {"kernel": {
    ...     "kind": "str", "value": "at::native::index_out (structured)"}}})["why"]
    'unmapped'
    """
    if libtorch is None:
        why = PYTHON if event.get("layer") == "python" else UNMAPPED
        return {"breakable": False, "function": None, "into": None, "why": why}
    if libtorch.rule == "kernel":
        return _from_kernel(event.get("args") or {})
    if libtorch.rule:   # a family's member: the function named after the step
        return {**libtorch.answer(), "function": libtorch.rule.format(name=event["name"]),
                "why": None, "breakable": True}
    return libtorch.answer()


def _from_kernel(args: dict[str, Any]) -> dict[str, Any]:
    """A dispatcher step's ``libtorch``: the kernel it names, when that is a function."""
    kernel = _str(args.get("kernel"), "value")

    def answer(function: str | None, why: str | None) -> dict[str, Any]:
        return {"breakable": why is None, "function": function, "into": None, "why": why}

    # a "(structured)" kernel is a generated wrapper running meta() then the class
    # structured_NAME's impl(): no function of the declared name starts the step
    # (impl() comes after meta's allocation of the result)
    if (kernel and kernel.startswith("at::native::") and " " not in kernel
            and kernel not in NOT_A_SYMBOL):
        return answer(kernel, None)
    if kernel and kernel.startswith("torch::autograd::VariableType::"):
        # an Autograd kernel written by hand (VariableTypeManual.cpp: detach_)
        return answer(kernel, None)
    return answer(kernel, UNMAPPED)
