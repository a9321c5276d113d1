"""torch.where(condition, x, y) (aten/src/ATen/native/TensorCompare.cpp ``where`` and
``where_self_out``; the kernel is cpu/TensorCompareKernel.cpp ``where_kernel_impl``).

The Scalar overloads make their numbers 0-dim tensors of the common dtype
(``at::scalar_tensor``) and convert the tensor argument with ``to`` first; ``where.self``
allocates ``empty({0})`` of the common dtype and ``where_self_out`` converts the inputs
that differ, turns a uint8 condition into bool (with torch's deprecation warning), checks
that the condition is bool, and runs a TensorIterator over the three inputs without a
common dtype (check_all_same_dtype(false)): they broadcast, and the output takes their
memory order.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check
from engine.dispatch.declarations import CHECK_CALLEE, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops.pointwise import Wrapped, broadcast, layout, resize_output, result_type
from engine.ops.shape import warn_once
from engine.ops.touch import touched
from engine.memory.allocator import check_temporary

COMPARE = "aten/src/ATen/native/TensorCompare.cpp"
KERNEL = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp"
UINT8_WARNING = ("where received a uint8 condition tensor. This behavior is deprecated and will "
                 "be removed in a future version of PyTorch. Use a boolean condition instead.")


@declare("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
         variants="function, method", native="at::native::where",
         source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_CALLEE,
         python_note="function.where")
def where_self(condition, self, other):
    common = result_type([self, other])
    result = aten.empty.memory_format([0], dtype=common,
                                      device=_out_device(condition, self, other))
    return _where_self_out(condition, self, other, result, common)


@declare("where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::where_self_out", source=COMPARE,
         meta=META_PYTHON)
def where_self_out(condition, self, other, *, out):
    common = result_type([self, other])
    check(out.dtype is common, RuntimeError,
          f"Expected out type to be {D.cpp_name(common)} but got {D.cpp_name(out.dtype)}")
    return _where_self_out(condition, self, other, out, common)


def _out_device(*tensors) -> str:
    """TensorCompare.cpp's out_device: the first operand not on the CPU decides."""
    return next((t.device_type for t in tensors if t.device_type != "cpu"), "cpu")


def _refuse_moves(cond, self_, other_) -> None:
    """where_self_out on a simulated GPU moves a 0-dim CPU operand there first
    (``.to(device)``, before the condition's dtype check): not modelled yet, refused."""
    device = _out_device(cond, self_, other_)
    if device == "cuda" and any(t.device_type != device and t.dim() == 0
                                for t in (cond, self_, other_)):
        raise Refused("torch.where with a 0-dim CPU tensor beside CUDA ones (moved to the GPU "
                      "first) on the simulated CUDA device is not modelled yet")


def _check_devices(cond, self_, other_) -> None:
    """Any operand still off the device is left for the TensorIterator to reject
    (compute_types: the common device is the first operand not on the CPU, the output's)."""
    device = _out_device(cond, self_, other_)
    check(device != "cuda" or all(t.device_type == device for t in (cond, self_, other_)),
          RuntimeError, "Expected all tensors to be on the same device, but found at least "
                        "two devices, cuda:0 and cpu!")


WHERE_KERNEL = step("where_kernel", Layer.KERNEL, source=KERNEL)


def _where_self_out(condition, self, other, out, common: D.dtype):
    self_ = self if self.dtype is common else aten.to.dtype(self, common)
    other_ = other if other.dtype is common else aten.to.dtype(other, common)
    cond = condition
    _refuse_moves(cond, self_, other_)
    if cond.dtype is D.uint8:
        warn_once("where", UINT8_WARNING)
        cond = aten.to.dtype(cond, D.bool)
    check(cond.dtype is D.bool, RuntimeError,
          f"where expected condition to be a boolean tensor, but got a tensor with dtype "
          f"{D.cpp_name(cond.dtype)}")
    inputs = [cond, self_, other_]
    shape = broadcast(inputs)
    # TensorIterator's build: compute_shape, then compute_types (devices), then the output
    _check_devices(cond, self_, other_)
    resize_output(out, shape, layout(shape, inputs))
    with span(WHERE_KERNEL, note=Note("where.kernel", dtype=common), shape=list(shape)) as s:
        if not out.is_meta and out.numel():
            check_temporary("where", out.numel(), out.dtype.itemsize)   # np.where's result
            out.array(write=True)[...] = np.where(cond.array(), self_.array(),
                                                  other_.array())
            # the loop loads the condition and both branches at every element
            s.set(read=[touched(cond), touched(self_), touched(other_)],
                  written=touched(out))
        s.set_result(out)
    return out


@declare("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor",
         variants="function, method", kind=COMPOSITE, native="at::native::where",
         source=COMPARE)
def where_scalar_other(condition, self, other):
    common = result_type([self, Wrapped(other)])
    other_t = aten.scalar_tensor.default(other, dtype=common, device=self.device_type)
    self_t = aten.to.dtype(self, common)
    return aten.where.self(condition, self_t, other_t)


@declare("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor",
         kind=COMPOSITE, native="at::native::where", source=COMPARE)
def where_scalar_self(condition, self, other):
    common = result_type([other, Wrapped(self)])
    self_t = aten.scalar_tensor.default(self, dtype=common, device=other.device_type)
    other_t = aten.to.dtype(other, common)
    return aten.where.self(condition, self_t, other_t)


@declare("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor",
         kind=COMPOSITE, native="at::native::where", source=COMPARE)
def where_scalar(condition, self, other):
    common = result_type([Wrapped(self), Wrapped(other)])
    other_t = aten.scalar_tensor.default(other, dtype=common, device=condition.device_type)
    self_t = aten.scalar_tensor.default(self, dtype=common, device=condition.device_type)
    return aten.where.self(condition, self_t, other_t)
