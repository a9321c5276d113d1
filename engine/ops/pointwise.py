"""TensorIterator for the pointwise operators: type promotion, broadcasting, the output.

Every pointwise kernel of the family (engine/ops/arithmetic.py, compare.py, logic.py,
unary.py, power.py) runs through :func:`iterate`, which takes the steps
TensorIteratorBase::build takes (aten/src/ATen/TensorIterator.cpp) in its order:

1. ``compute_mem_overlaps`` -- an in-place output must not overlap itself or, partly,
   an input;
2. ``compute_shape`` -- the inputs broadcast (infer_size);
3. ``mark_resize_outputs`` -- an in-place output cannot be broadcast to that shape;
4. ``compute_types`` -- the common dtype (``at::native::result_type``: Python numbers are
   "wrapped numbers" that only lift the result's category, bool < integer < floating,
   never its width); an in-place output must be able to hold it (``canCast``); on the
   CPU an input of another dtype is copied with ``to`` (the ``aten::to`` calls
   torch.profiler shows inside ``aten::mul`` for ``t * 2.5``) and an in-place output of
   another dtype gets a temporary (``empty_like``) copied back at the end;
5. ``allocate_or_resize_outputs`` -- a new output is laid out in its inputs' memory
   order (engine/ops/iterator.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, step, symbol

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import Refused, check, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.at_dispatch import dispatched
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.memory.resize import resize_native
from engine.ops import overlap
from engine.ops.iterator import output_strides
from engine.ops.touch import touched
from engine.ops.scalar import (WRAPPED_SCALAR_TENSOR, scalar_tensor_static, scalar_type,
                               wrapped_scalar_tensor)

ITER = "aten/src/ATen/TensorIterator.cpp"
BINARY = "aten/src/ATen/native/BinaryOps.cpp"
UNARY = "aten/src/ATen/native/UnaryOps.cpp"
LOOPS = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp"


class Wrapped:
    """A Python number inside an operator: a 0-dim "wrapped number" tensor in torch."""

    __slots__ = ("value", "dtype", "tensor")

    def __init__(self, value: Any, tensor: TensorImpl | None = None) -> None:
        self.value = value
        self.dtype = scalar_type(value)
        #: the 0-dim CPU tensor torch holds it in (None where only its type is asked)
        self.tensor = tensor

    def __tidx_summary__(self, max_values: int) -> dict:
        return {"kind": "scalar", "value": self.value, "dtype": self.dtype.short}


def operand(x: Any) -> Any:
    """A kernel argument as TensorIterator holds it: a tensor, or a wrapped number."""
    if isinstance(x, TensorImpl) and x.wrapped_number:
        # made by the binding (PythonArgs::tensor_slow): the number it holds
        return Wrapped(x.array().item(), x)
    if isinstance(x, (TensorImpl, Wrapped)):
        return x
    if isinstance(x, complex):
        return Wrapped(x, wrapped_scalar_tensor(x, WRAPPED_SCALAR_TENSOR))
    if isinstance(x, (bool, int, float)):
        # a number bound to a Tensor parameter: PyLong_AsLongLong, then, on overflow,
        # PyLong_AsUnsignedLongLong (a uint64 Scalar), whose OverflowErrors these are
        if isinstance(x, int) and not isinstance(x, bool) and x >= 2**64:
            raise torch_error(OverflowError, "int too big to convert")
        if isinstance(x, int) and not isinstance(x, bool) and x < -(2**63):
            raise torch_error(OverflowError, "can't convert negative int to unsigned")
        if isinstance(x, int) and x >= 2**63:
            return Wrapped(x)       # a uint64 Scalar: refused where it is promoted
        # a Scalar overload's meta function wraps it (gt.Scalar: wrapped_scalar_tensor)
        return Wrapped(x, wrapped_scalar_tensor(x, WRAPPED_SCALAR_TENSOR))
    raise torch_error(TypeError, f"unsupported operand type: {type(x).__name__}")


def result_type(operands: Sequence[Any]) -> D.dtype:
    """at::native::result_type: dimensioned tensors, then 0-dim tensors, then wrapped
    numbers, each tier only able to lift the category of the one above.

    >>> from engine import tensor
    >>> result_type([tensor([1, 2]), Wrapped(2.5)]), result_type([tensor([1]), Wrapped(7)])
    (torch.float32, torch.int64)
    """
    tiers: list[D.dtype | None] = [None, None, None]
    for op in operands:
        if isinstance(op, Wrapped):
            # a wrapped double is the default dtype, a wrapped complex the default
            # complex dtype (update_result_type_state)
            tier, dt = 2, (current().default_dtype if op.dtype is D.float64 else
                           D.to_complex(current().default_dtype) if op.dtype.is_complex
                           else op.dtype)
        else:
            tier, dt = (0 if op.dim() > 0 else 1), op.dtype
        seen = tiers[tier]
        tiers[tier] = dt if seen is None else D.promote_types(seen, dt)

    def combine(higher: D.dtype | None, lower: D.dtype | None) -> D.dtype | None:
        """combine_categories: a lower tier lifts only the category (bool < integer <
        floating < complex), keeping a floating higher tier's width."""
        if higher is None:
            return lower
        if lower is None or higher.is_complex:
            return higher
        if lower.is_complex:
            return D.to_complex(higher) if higher.is_floating_point else lower
        if higher.is_floating_point:
            return higher
        if higher is D.bool or lower.is_floating_point:
            return D.promote_types(higher, lower)
        return higher

    out = combine(tiers[0], combine(tiers[1], tiers[2]))
    assert out is not None
    return out


def can_cast(src: D.dtype, dst: D.dtype) -> bool:
    """c10::canCast: no complex -> non-complex, no floating -> integral, nothing but bool
    -> bool.

    >>> can_cast(D.float32, D.int64), can_cast(D.int64, D.uint8), can_cast(D.int64, D.bool)
    (False, True, False)
    >>> can_cast(D.complex64, D.float64), can_cast(D.float64, D.complex64)
    (False, True)
    """
    if src.is_complex and not dst.is_complex:
        return False
    if src.is_floating_point and not dst.is_floating_point and not dst.is_complex and \
            dst is not D.bool:
        return False
    return not (src is not D.bool and dst is D.bool)


def cast_error(common: D.dtype, out: D.dtype) -> BaseException:
    return torch_error(RuntimeError, f"result type {D.cpp_name(common)} can't be cast to the "
                                     f"desired output type {D.cpp_name(out)}")


def to_common(op: Any, common: D.dtype) -> Any:
    """CPU TensorIterator promotes an input by copying it to the common dtype."""
    if isinstance(op, Wrapped):
        if isinstance(op.value, int) and op.value >= 2**63:
            raise Refused("a Python int from 2**63 to 2**64 is a uint64 Scalar in torch; "
                          "tidx has no uint64 tensors to promote it from")
        if op.dtype is common:
            return op
        # the wrapped number's own tensor; the cast is a real `to`
        tensor = op.tensor if op.tensor is not None else \
            scalar_tensor_static(op.value, op.dtype, "cpu")
        return aten.to.dtype(tensor, common)
    if op.dtype is common:
        return op
    return aten.to.dtype(op, common)


def values(op: Any, dtype: D.dtype) -> Any:
    """The elements of an operand as a numpy array (a 0-dim one for a wrapped number)."""
    if isinstance(op, Wrapped):
        return np.asarray(op.value).astype(dtype.np)
    return op.array()


def shape_text(sizes: Sequence[int]) -> str:
    return "[" + ", ".join(str(s) for s in sizes) + "]"


def broadcast(tensors: Sequence[TensorImpl]) -> tuple[int, ...]:
    """compute_shape: infer_size over the inputs in order (its message names the first
    pair that cannot broadcast)."""
    shape: tuple[int, ...] = ()
    for t in tensors:
        new = S.broadcast_shapes(shape, t.view.sizes)
        if new is None:
            raise S.broadcast_error(shape, t.view.sizes)
        shape = new
    return shape


def layout(shape: tuple[int, ...], ops: Sequence[Any]) -> tuple[int, ...]:
    inputs = [((), (), op.dtype.itemsize) if isinstance(op, Wrapped)
              else (op.view.sizes, op.view.strides, op.dtype.itemsize) for op in ops]
    return output_strides(shape, inputs)


TENSOR_ITERATOR = step("TensorIterator", Layer.KERNEL, source=ITER,
                       libtorch=symbol("at::TensorIteratorBase::build"), lecture=Lecture.HIDDEN)
CAST_COMMON_DTYPE_TO_OUTPUTS = step("cast_common_dtype_to_outputs", Layer.KERNEL, source=ITER,
                                    lecture=Lecture.HIDDEN)


#: a pointwise operator's CPU kernel (``add_kernel``, ``abs_kernel`` ...)
POINTWISE_KERNEL = step("<op>_kernel", Layer.KERNEL)


def iterate(name: str, inputs: Sequence[Any], fn: Callable[..., Any] | None, *,
            out: TensorImpl | None = None, out_dtype: D.dtype | None = None,
            common_dtype: Callable[[D.dtype], D.dtype] = lambda d: d,
            safe_cast: bool = True, cast_output: bool = True,
            at_dispatch: bool | str = False,
            check_dtype: Callable[[D.dtype], None] | None = None,
            allocate: str = "", resize: bool = False, source: str = LOOPS,
            note: Any = None) -> TensorImpl:
    """Build the iterator over ``inputs`` (tensors and wrapped numbers) and run ``fn``
    (numpy arrays in the common dtype -> the result) into a new output or into ``out``;
    with ``fn=None`` only build the iterator and return its output (pow's fill and copy
    roads).

    ``out_dtype`` fixes a new output's dtype (bool for comparisons); ``safe_cast`` and
    ``cast_output`` are TensorIteratorConfig's enforce_safe_casting_to_output and
    cast_common_dtype_to_outputs (on for binary_op, off for comparison_op);
    ``at_dispatch`` says the kernel switches on the common dtype with the running
    operator's declared AT_DISPATCH (its name, when the declaration has several): checked
    after the casts, as the C++ finds no case only once TensorIterator has built; ``allocate`` names the
    operator a non-structured kernel's output is allocated through (at::empty);
    ``resize`` says ``out`` is an out= tensor (written only, resized to the result)
    rather than the read-and-written self of an in-place operator; ``note`` is the
    kernel step's note when the loop deserves its own sentence.
    """
    ops = [operand(x) for x in inputs]
    tensors = [op for op in ops if isinstance(op, TensorImpl)]
    # only wrapped numbers (torch.add(5, 5)): they are 0-dim CPU tensors to TensorIterator
    device = tensors[0].device_type if tensors else "cpu"
    if out is not None:
        overlap.check(name, out, partial=[t for t in tensors if t is not out])
        # mark_outputs: an out= that is also an input is read and written, never resized
        resize = resize and not any(t is out for t in tensors)
    shape = broadcast(tensors)
    if out is not None and not resize and out.view.sizes != shape:
        raise torch_error(RuntimeError, f"output with shape {shape_text(out.view.sizes)} "
                                        f"doesn't match the broadcast shape {shape_text(shape)}")
    common = common_dtype(result_type(ops))
    with span(TENSOR_ITERATOR,
              note=lambda: Note("pointwise.TensorIterator", shape=list(shape), dtype=common),
              common_dtype=str(common), shape=list(shape)):
        target = out
        if out is not None and out.dtype is not common:
            if safe_cast and not can_cast(common, out.dtype):
                raise cast_error(common, out.dtype)
            if cast_output:
                # compute_types: a temporary in the common dtype, made like the out=
                # tensor as it is now (its old shape, when it is to be resized)
                with span(CAST_COMMON_DTYPE_TO_OUTPUTS,
                          note=Note("pointwise.temporary_output", out=out.dtype,
                                    dtype=common)):
                    target = aten.empty_like.default(out, dtype=common,
                                                     memory_format="contiguous_format")
        ops = [to_common(op, common) for op in ops]
    strides = layout(shape, ops)
    if resize and out is not None:
        if target is not None and target is not out and out.view.sizes != shape:
            # TensorIteratorBase::set_output_raw_strided: the temporary was made with the
            # old shape, so it is resized too (resize_output, its own warning); a
            # structured kernel's meta resized the out= tensor first, a non-structured
            # one resizes it after the loop, as cast_outputs copies back (resize_as_)
            if not allocate:
                resize_output(out, shape, strides)
            resize_output(target, shape, strides)
        else:
            resize_output(out, shape, strides)
    if target is None:
        dtype = out_dtype or common
        if allocate:
            if strides == S.contiguous_strides(shape):
                target = aten.empty.memory_format(list(shape), dtype=dtype,
                                                  device=device)
            else:
                target = aten.empty_strided.default(list(shape), list(strides), dtype=dtype,
                                                    device=device)
        else:
            target = memory.empty_strided_generic(shape, strides, dtype, device)
    if fn is None:
        return target
    if at_dispatch:
        dispatched(common, None if at_dispatch is True else at_dispatch)
    if check_dtype is not None:
        check_dtype(common)
    with span(POINTWISE_KERNEL, called=f"{name}_kernel", source=source,
              note=note or ("pointwise.binary_kernel" if len(ops) > 1
                            else "pointwise.unary_kernel")) as s:
        if device != "meta" and target.numel() > 0:
            # numpy makes the result whole (in the common dtype, or wider: some kernels
            # compute in int64 or float64), then its cast to the output's dtype
            check_temporary(name, target.numel(),
                            max(common.itemsize, 8) + target.dtype.itemsize)
            with np.errstate(all="ignore"):
                res = fn(*(values(op, common) for op in ops))
            target.array(write=True)[...] = np.asarray(res).astype(target.dtype.np, copy=False)
            # the loop loads every element of every tensor operand (a wrapped number is
            # a value, not an operand it steps through) and stores every output element
            s.set(read=[touched(op) for op in ops if isinstance(op, TensorImpl)],
                  written=touched(target))
        s.set_result(target)
    if out is not None and target is not out:
        if out.view.sizes != target.view.sizes:
            # TensorIteratorBase::cast_outputs of a non-structured kernel
            aten.as_strided_.default(aten.resize_as_.default(out, target),
                                     list(target.view.sizes), list(target.view.strides))
        aten.copy_.default(out, target)
        return out
    return target


TORCH_WARN = step("TORCH_WARN", Layer.KERNEL, source="aten/src/ATen/native/Resize.cpp")


def resize_output(out: TensorImpl, shape: tuple[int, ...], strides: tuple[int, ...]) -> None:
    """TensorIterator::set_output_raw_strided for an out= tensor: at::native::resize_output,
    then as_strided_ when the inputs' memory order is not the contiguous one."""
    if out.view.sizes == shape:
        return      # mark_resize_outputs: an out= of the right shape is not touched
    if out.numel() != 0:
        warn_resized(out, shape)
    resize_native(out, shape)
    if strides != S.contiguous_strides(shape):
        aten.as_strided_.default(out, list(shape), list(strides))


def warn_resized(out: TensorImpl, shape: Sequence[int]) -> None:
    """at::native::resize_output_check's TORCH_WARN: a deprecated resize of an out= tensor
    that holds elements ("An output with one or more elements was resized ...")."""
    with span(TORCH_WARN, note=Note("pointwise.resize_warning", old=list(out.view.sizes),
                                    new=list(shape)), category="UserWarning"):
        pass


def sub_check(a: Any, b: Any) -> None:
    """sub_check (aten/src/ATen/native/BinaryOps.h): no subtraction with bools."""
    check(a.dtype is not D.bool or b.dtype is not D.bool, RuntimeError,
          "Subtraction, the `-` operator, with two bool tensors is not supported. "
          "Use the `^` or `logical_xor()` operator instead.")
    check(a.dtype is not D.bool and b.dtype is not D.bool, RuntimeError,
          "Subtraction, the `-` operator, with a bool tensor is not supported. "
          "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
