"""The Autograd key's checks: what torch's generated VariableType kernels
(torch/csrc/autograd/generated/VariableType_*.cpp, from gen_variable_type.py) and the
hand-written ones of VariableTypeManual.cpp do before they redispatch, and the refusal
where they would record a graph node.

tidx does not build autograd graphs yet (issue #27).  What it does already is what
happens before any node is made, with torch's errors at the operator that raises them:

* ``check_inplace``: with grad mode on, an in-place operator on a leaf that requires
  grad raises "a leaf Variable that requires grad is being used in an in-place
  operation." (and a view made in no_grad mode, modified in place with grad mode on,
  raises handle_view_on_rebase's error);
* ``throw_error_out_requires_grad``: an out= operator whose outputs are differentiable
  raises when any argument requires grad -- named ``sum()`` by a generated kernel, or
  ``aten::rand()`` by the not-implemented fallback of an operator with no derivative
  formula (the factories);
* ``resize_`` of a tensor that requires grad raises, in any grad mode.

Where torch would record a ``grad_fn``, tidx refuses in one line rather than show a
result without it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core.context import current
from engine.core.errors import Refused, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.declarations import INPLACE, OUT, VIEW, Declaration
from engine.dispatch.schema import FunctionSchema

SOURCE = "torch/csrc/autograd/VariableTypeUtils.h"

_NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode "
    "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You "
    "can clarify your code by moving both the view and the inplace either both inside the "
    "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
    "want the inplace to be tracked).")


def requires_grad(args: tuple, kwargs: dict[str, Any]) -> bool:
    """compute_requires_grad: does any tensor argument (lists included) require grad?"""
    for a in (*args, *kwargs.values()):
        if isinstance(a, TensorImpl) and a.requires_grad:
            return True
        if isinstance(a, (list, tuple)) and requires_grad(tuple(a), {}):
            return True
    return False


def _tensors(values: Any) -> list[TensorImpl]:
    out: list[TensorImpl] = []
    for v in values:
        if isinstance(v, TensorImpl):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(_tensors(v))
    return out


@lru_cache(maxsize=None)
def _out_positions(schema: str) -> tuple[tuple[int, str], ...]:
    """The out arguments of a schema: (position, name) -- a fact of the schema's text."""
    parsed = FunctionSchema.parse(schema.split("::", 1)[-1])
    return tuple((parsed.arguments.index(a), a.name) for a in parsed.out)


def _outs(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> list[TensorImpl]:
    """The tensors given as the out arguments, by keyword or by position."""
    given = [kwargs[name] if name in kwargs else args[i] if i < len(args) else None
             for i, name in _out_positions(op.schema)]
    return _tensors(given)


def check_before(op: Declaration, args: tuple, kwargs: dict[str, Any],
                 grad_enabled: bool) -> None:
    """The Autograd kernel's checks before it redispatches (called above autograd)."""
    if op.name == "resize_" and args and isinstance(args[0], TensorImpl) \
            and args[0].requires_grad:
        # VariableTypeManual.cpp resize_: whatever the grad mode
        raise torch_error(RuntimeError, "cannot resize variables that require grad")
    if not grad_enabled or not requires_grad(args, kwargs):
        return
    if op.kind == INPLACE:
        self = args[0] if args and isinstance(args[0], TensorImpl) else None
        if self is None:
            return
        # every tensor tidx holds is a leaf (no grad_fn yet), and so is a view's base
        if self.view_base is not None:
            if self.created_without_grad:
                raise torch_error(RuntimeError, _NO_GRAD_VIEW)     # handle_view_on_rebase
            if self.requires_grad:
                raise torch_error(RuntimeError, "a view of a leaf Variable that requires "
                                                "grad is being used in an in-place operation.")
        if self.requires_grad:
            raise torch_error(RuntimeError, "a leaf Variable that requires grad is being "
                                            "used in an in-place operation.")
    elif op.kind == OUT:
        outs = _outs(op, args, kwargs)
        if not any(o.dtype.is_floating_point for o in outs):
            return      # integer or bool outputs are not differentiable: nothing to check
        inputs = _tensors(args)
        name = op.name if any(t not in outs for t in inputs) else op.op_name
        raise torch_error(RuntimeError, f"{name}(): functions with out=... arguments don't "
                                        "support automatic differentiation, but one of the "
                                        "arguments requires grad.")


class WritingThroughViews:
    """``t[i] = v`` is running (python_variable_indexing.cpp's THPVariable_setitem): the
    views its slicing makes are only written into, in place, and the write raises
    check_inplace's error before any node is made -- so they need no grad_fn, and are
    not refused (``x[0] = 1`` on a leaf gets torch's "a view of a leaf Variable ...")."""

    active = False


def refuse_after(op: Declaration, result: Any, args: tuple) -> None:
    """Where VariableType records a grad_fn on a floating result (it then requires grad
    and prints it), which tidx does not model yet (issue #27): refused rather than
    shown without it.  An integer or bool result (x > 0, x.argmax()) has no grad_fn in
    torch either, nor do the factories that only copy an input's options (zeros_like,
    new_ones) or detach."""
    if op.kind == VIEW and current().local(WritingThroughViews).active:
        return
    results = result if isinstance(result, (list, tuple)) else (result,)
    if op.kind not in (INPLACE, OUT) and any(r is a for r in results for a in args):
        return      # an input handed back as it is (resolve_conj without a conj bit)
    if op.name in ("detach", "detach_") or op.name.endswith("_like") or \
            op.name.startswith("new_") or not any(
            isinstance(r, TensorImpl) and r.dtype.is_floating_point for r in results):
        return
    raise Refused(f"{op.op_name} on a tensor that requires grad: torch records its autograd "
                  "node (grad_fn) and the result requires grad, which tidx does not model "
                  "yet; use .detach() or requires_grad=False to see its path")
