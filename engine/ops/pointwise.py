"""Pointwise operators masks and values need: comparisons, bitwise ops, arithmetic.

Mirrors aten/src/ATen/native/BinaryOps.cpp, UnaryOps.cpp and the type promotion of
TensorIterator (aten/src/ATen/TensorIterator.cpp ``compute_types``,
``at::native::result_type``): Python numbers are "wrapped numbers" that only lift
the result's category (bool < integer < floating), never its width; on the CPU an
input whose dtype differs from the common dtype is first copied with ``to`` (the
``aten::to`` calls torch.profiler shows inside ``aten::mul`` for ``t * 2.5``).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from tracer.notes import Note
from tracer.recorder import span

from engine.core import dtypes as D
from engine.memory import empty as memory
from engine.core import view as S
from engine.core.context import current
from engine.core.tensor_impl import TensorImpl
from engine.ops.scalar import scalar_tensor_static, scalar_type
from engine.core.errors import Refused
from engine.dispatch.declarations import (COMPOSITE, FUNCTIONAL, OUT, OUT_NOT_MODELLED, declare,
                                          deprecated, not_modelled)
from engine.dispatch.dispatcher import call
from engine.core.errors import check, torch_error

BINARY = "aten/src/ATen/native/BinaryOps.cpp"
UNARY = "aten/src/ATen/native/UnaryOps.cpp"
ITER = "aten/src/ATen/TensorIterator.cpp"


class Wrapped:
    """A Python number inside an operator: a 0-dim "wrapped number" tensor in torch."""

    __slots__ = ("value", "dtype")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.dtype = scalar_type(value)

    def __tidx_summary__(self, max_values: int) -> dict:
        return {"kind": "scalar", "value": self.value, "dtype": self.dtype.short}


def _operand(x: Any) -> Any:
    if isinstance(x, TensorImpl):
        return x
    if isinstance(x, (bool, int, float)):
        if isinstance(x, int) and not isinstance(x, bool) and not -(2**63) <= x < 2**64:
            raise torch_error(RuntimeError, "Overflow when unpacking long long")
        return Wrapped(x)
    raise torch_error(TypeError, f"unsupported operand type: {type(x).__name__}")


def result_type(operands: list) -> D.dtype:
    """at::native::result_type: dimensioned tensors, then 0-dim tensors, then wrapped
    numbers, each tier only able to lift the category of the one above.

    >>> from engine import tensor
    >>> result_type([tensor([1, 2]), Wrapped(2.5)]), result_type([tensor([1]), Wrapped(7)])
    (torch.float32, torch.int64)
    """
    tiers: list[D.dtype | None] = [None, None, None]
    for op in operands:
        if isinstance(op, Wrapped):
            tier, dt = 2, (current().default_dtype if op.dtype is D.float64 else op.dtype)
        else:
            tier, dt = (0 if op.dim() > 0 else 1), op.dtype
        tiers[tier] = dt if tiers[tier] is None else D.promote_types(tiers[tier], dt)

    def combine(higher: D.dtype | None, lower: D.dtype | None) -> D.dtype | None:
        if higher is None:
            return lower
        if lower is None or higher.is_floating_point:
            return higher
        if higher is D.bool or lower.is_floating_point:
            return D.promote_types(higher, lower)
        return higher

    out = combine(tiers[0], combine(tiers[1], tiers[2]))
    assert out is not None
    return out


def _to_common(op: Any, common: D.dtype):
    """CPU TensorIterator promotes an input by copying it to the common dtype."""
    if isinstance(op, Wrapped):
        if isinstance(op.value, int) and op.value >= 2**63:
            raise Refused("a Python int from 2**63 to 2**64 is a uint64 Scalar in torch; "
                          "tidx has no uint64 tensors to promote it from")
        if op.dtype is common:
            return op
        # wrapped_scalar_tensor: made directly, no operator; the cast is a real `to`
        tensor = scalar_tensor_static(op.value, op.dtype, "cpu")
        return call("aten::to.dtype", tensor, common)
    assert isinstance(op, TensorImpl)
    if op.dtype is common:
        return op
    return call("aten::to.dtype", op, common)


def _values(op: Any, dtype: D.dtype) -> Any:
    if isinstance(op, Wrapped):
        return np.asarray(op.value).astype(dtype.np)
    return op.array()


def sub_check(a: Any, b: Any) -> None:
    """sub_check (aten/src/ATen/native/BinaryOps.h): no subtraction with bools."""
    check(a.dtype is not D.bool or b.dtype is not D.bool, RuntimeError,
          "Subtraction, the `-` operator, with two bool tensors is not supported. "
          "Use the `^` or `logical_xor()` operator instead.")
    check(a.dtype is not D.bool and b.dtype is not D.bool, RuntimeError,
          "Subtraction, the `-` operator, with a bool tensor is not supported. "
          "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def _binary(name: str, a: Any, b: Any, fn: Callable[[Any, Any], Any], *,
            out_dtype: Callable[[D.dtype], D.dtype] = lambda d: d,
            compute_dtype: Callable[[D.dtype], D.dtype] = lambda d: d,
            allowed: Callable[[D.dtype], bool] = lambda d: True, kernel: str = "",
            checks: Callable[[Any, Any], None] | None = None):
    a, b = _operand(a), _operand(b)
    if checks is not None:
        checks(a, b)
    common = compute_dtype(result_type([a, b]))
    shapes = [op.view.sizes for op in (a, b) if not isinstance(op, Wrapped)]
    shape = S.broadcast_shapes(*shapes)
    if shape is None:
        x, y = shapes
        raise S.broadcast_error(x, y)
    with span("TensorIterator", "kernel", source=ITER,
              note=lambda: Note("pointwise.TensorIterator", shape=list(shape), dtype=common),
              common_dtype=str(common), shape=list(shape)):
        a2, b2 = _to_common(a, common), _to_common(b, common)
    # the kernel's AT_DISPATCH finds no case for the dtype only after TensorIterator has
    # cast the inputs (torch.profiler shows the aten::to calls before the error)
    if not allowed(common):
        raise torch_error(NotImplementedError, f'"{kernel}" not implemented for '
                                               f"'{D.cpp_name(common)}'")
    out_dt = out_dtype(common)
    device = next(op.device_type for op in (a, b) if not isinstance(op, Wrapped))
    out = memory.empty_generic(shape, out_dt, device)
    with span(f"{name}_kernel", "kernel", source=BINARY,
              note="pointwise.binary_kernel") as s:
        if device != "meta":
            res = fn(_values(a2, common), _values(b2, common))
            out.array(write=True)[...] = np.asarray(res).astype(out_dt.np, copy=False)
        s.set_result(out)
    return out


def _integral(d: D.dtype) -> bool:
    return not d.is_floating_point


def _declare_binary(schemas: dict[str, str], fn: Callable[[Any, Any], Any], **kw: Any) -> None:
    """The overloads of one binary operator (``X.Tensor``, ``X.Scalar`` ...), one kernel:
    a Python number on either side is a wrapped number (see :func:`result_type`)."""
    for schema, variants in schemas.items():
        name = schema.partition(".")[0]

        def kernel(a, b, *, alpha: Any = 1, _name: str = name):
            if alpha != 1:
                raise Refused(f"{_name}(..., alpha={alpha!r}) is not modelled by tidx yet")
            return _binary(_name, a, b, fn, **kw)
        declare(schema, variants=variants, kind=FUNCTIONAL, native=f"at::native::{name}",
                source=BINARY)(kernel)


def _compare(name: str) -> dict[str, str]:
    return {f"{name}.Tensor(Tensor self, Tensor other) -> Tensor": "method, function",
            f"{name}.Scalar(Tensor self, Scalar other) -> Tensor": "method, function"}


for _name, _fn in (("gt", np.greater), ("ge", np.greater_equal), ("lt", np.less),
                   ("le", np.less_equal), ("eq", np.equal), ("ne", np.not_equal)):
    _declare_binary(_compare(_name), _fn, out_dtype=lambda d: D.bool)

_ALPHA = "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
_declare_binary({f"add.Tensor{_ALPHA}": "function, method"}, np.add)
_declare_binary({f"sub.Tensor{_ALPHA}": "function, method"}, np.subtract, checks=sub_check)
_declare_binary({"mul.Tensor(Tensor self, Tensor other) -> Tensor": "function, method"},
                np.multiply)
# true division: integers are divided as the default float type
_declare_binary({"div.Tensor(Tensor self, Tensor other) -> Tensor": "function, method"},
                np.true_divide,
                compute_dtype=lambda d: current().default_dtype if not d.is_floating_point else d)
for _name, _fn in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or)):
    _declare_binary({f"{_name}.Tensor(Tensor self, Tensor other) -> Tensor": "method, function",
                     f"{_name}.Scalar(Tensor self, Scalar other) -> Tensor": "method, function",
                     f"{_name}.Scalar_Tensor(Scalar self, Tensor other) -> Tensor": "function"},
                    _fn, allowed=_integral, kernel=f"{_name}_cpu")


def _dunder(name: str, inner: str) -> None:
    """``aten::__and__`` is a composite that calls ``bitwise_and``."""
    for overload, other in (("Tensor", "Tensor"), ("Scalar", "Scalar")):
        def kernel(a, b, _inner: str = f"aten::{inner}.{overload}"):
            return call(_inner, a, b)
        declare(f"{name}.{overload}(Tensor self, {other} other) -> Tensor",
                variants="method, function", kind=COMPOSITE, native=f"at::native::{name}",
                source=BINARY)(kernel)


_dunder("__and__", "bitwise_and")
_dunder("__or__", "bitwise_or")


def _unary(name: str, fn: Callable[[Any], Any], allowed: Callable[[D.dtype], bool],
           kernel_name: str) -> None:
    def kernel(self):
        if name == "neg" and self.dtype is D.bool:
            raise torch_error(RuntimeError, "Negation, the `-` operator, on a bool tensor is "
                                            "not supported. If you are trying to invert a mask, "
                                            "use the `~` or `logical_not()` operator instead.")
        if not allowed(self.dtype):
            raise torch_error(NotImplementedError, f'"{kernel_name}" not implemented for '
                                                   f"'{D.cpp_name(self.dtype)}'")
        out = memory.empty_generic(self.view.sizes, self.dtype, self.device_type)
        with span(f"{name}_kernel", "kernel", source=UNARY, note="pointwise.unary_kernel") as s:
            if not self.is_meta:
                out.array(write=True)[...] = fn(self.array())
            s.set_result(out)
        return out
    declare(f"{name}(Tensor self) -> Tensor", variants="function, method", kind=FUNCTIONAL,
            native=f"at::native::{name}", source=UNARY)(kernel)


_unary("neg", np.negative, lambda d: d is not D.bool, "neg_cpu")
_unary("bitwise_not", lambda a: np.logical_not(a) if a.dtype == np.bool_ else np.invert(a),
       _integral, "bitwise_not_cpu")


# add(self, alpha, other), the argument order of PyTorch 0.x, still binds with a warning
deprecated("add(Tensor self, Scalar alpha, Tensor other) -> Tensor", "add(self, other, alpha)")
deprecated("add(Tensor self, Scalar alpha, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
           "add_out(out, self, other, alpha)")
deprecated("sub(Tensor self, Scalar alpha, Tensor other) -> Tensor", "sub(self, other, alpha)")
deprecated("sub(Tensor self, Scalar alpha, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
           "sub_out(out, self, other, alpha)")

# -- overloads torch binds in Python that tidx does not model -----------------------------
not_modelled("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
             "div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor",
             variants="function, method",
             reason="div(..., rounding_mode=) is not modelled yet")
not_modelled(
    "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> "
    "Tensor(a!)",
    "neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    "lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
    "lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
    kind=OUT, reason=OUT_NOT_MODELLED)
