"""Operators that move values: copy_, fill_, zero_, clone, to, lift_fresh, detach_.

Mirrors aten/src/ATen/native/Copy.cpp, Fill.cpp and TensorConversions.cpp.  Kernels work on numpy windows of the storages, vectorised.
"""

from __future__ import annotations

from typing import Any

import numpy as np


from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, inlined, part_of, step, symbol

from engine.core import dtypes as D
from engine.core import view as S
from engine.dispatch.declarations import (AUTOGRAD, COMPOSITE, FUNCTIONAL, META_PYTHON,
    META_PYTHON_ALONE, declare)
from engine.dispatch.aten import aten
from engine.memory.allocator import check_temporary
from engine.core.context import current
from engine.core.errors import Refused, check, torch_error
from engine.core.warn_once import warn_once
from engine.ops import overlap
from engine.ops.parallel import GRAIN_SIZE
from engine.ops import cuda_kernels
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import touched

COPY = "aten/src/ATen/native/Copy.cpp"
FILL = "aten/src/ATen/native/Fill.cpp"
CONV = "aten/src/ATen/native/TensorConversions.cpp"
ITER = "aten/src/ATen/TensorIterator.cpp"


def broadcast_to_output(out_shape: tuple[int, ...], in_shape: tuple[int, ...]) -> None:
    """TensorIterator::compute_shape with resize_outputs(false): the input must
    broadcast to exactly the output's shape."""
    ndim = max(len(out_shape), len(in_shape))
    result = []
    for i in range(ndim - 1, -1, -1):
        a = out_shape[i - ndim + len(out_shape)] if i - ndim + len(out_shape) >= 0 else 1
        b = in_shape[i - ndim + len(in_shape)] if i - ndim + len(in_shape) >= 0 else 1
        check(a == b or a == 1 or b == 1, RuntimeError,
              f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
              f"non-singleton dimension {i}")
        result.append(b if a == 1 else a)
    result.reverse()
    check(tuple(result) == tuple(out_shape), RuntimeError,
          f"output with shape {S.fmt_sizes(out_shape)} doesn't match the broadcast shape "
          f"{S.fmt_sizes(result)}")


TENSOR_ITERATOR = step("TensorIterator", Layer.KERNEL, source=ITER, note="copy.TensorIterator",
                       libtorch=symbol("at::TensorIteratorBase::build"), lecture=Lecture.HIDDEN)
COMPLEX_TO_REAL = step("TORCH_WARN_ONCE", Layer.KERNEL, source=COPY,
                       note="copy.complex_to_real")
COPY_KERNEL = step("copy_kernel", Layer.KERNEL, source="aten/src/ATen/native/cpu/CopyKernel.cpp",
                   libtorch=symbol("copy_kernel"))
IS_SAME_DATA = step("is_same_data", Layer.KERNEL, source=COPY, note="cudacopy.is_same_data")


@declare("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
         variants="method", native="at::native::copy_", source=COPY, takes_complex=True,
         conj_fallthrough=True)
def copy_(self, src, non_blocking: bool = False):
    if self is src:
        return self
    # copy_impl: a meta destination only checks shapes (below); a meta source has no data
    if src.is_meta and not self.is_meta:
        raise torch_error(NotImplementedError, "Cannot copy out of meta tensor; no data!")
    if _is_same_data(self, src):
        # copy_impl: "Exit early if self and src are views of the same data", before the
        # TensorIterator (and its overlap check) is built
        with span(IS_SAME_DATA):
            return self
    with span(TENSOR_ITERATOR, dst=list(self.view.sizes), src=list(src.view.sizes)):
        # build(): compute_mem_overlaps before compute_shape
        overlap.check("copy_", self, partial=[src])
        broadcast_to_output(self.view.sizes, src.view.sizes)
    if "cuda" in (self.device_type, src.device_type):
        # copy_impl: either side on CUDA picks the CUDA copy_stub
        return cuda_kernels.copy_(self, src, non_blocking)
    if overlap.shares_elements(self, src):
        # torch's copy loop reads, element by element (or a vector at a time), values it
        # has already written: t[:, 1:] = t[:, :-1] smears the first column along a row
        raise Refused("a copy whose source and destination share elements of one storage "
                      "(as t[:, 1:] = t[:, :-1]) depends on the order torch's copy loop "
                      "visits them, which tidx does not model; copy the source first "
                      "(.clone())")
    same = self.dtype is src.dtype
    if src.dtype.is_complex and not self.dtype.is_complex and self.dtype is not D.bool:
        # copy_impl: TORCH_WARN_ONCE before the copy, which keeps the real half (a bool
        # takes the whole number's truth, without a warning)
        with warn_once(COMPLEX_TO_REAL, "copy.complex_to_real"):
            pass
    with span(COPY_KERNEL,
              note="copy.same_dtype" if same else lambda: Note("copy.cast", src=src.dtype,
                                                               dst=self.dtype),
              numel=self.numel()) as s:
        if not self.is_meta:
            if src.storage is self.storage:
                # numpy copies a source whose bytes may overlap the destination's first
                check_temporary("copy_", src.numel(), src.dtype.itemsize)
            values = src.array()
            if src.is_conj != self.is_conj:
                # copy_kernel's conj branch: one side has the conjugate bit, so the
                # conjugates are what is stored
                values = np.conj(values)
            if values.dtype.kind == "c" and not self.dtype.is_complex:
                values = values != 0 if self.dtype is D.bool else values.real
            self.array(write=True)[...] = values
            s.set(written=touched(self), read=touched(src))
    return self


def _is_same_data(self, src) -> bool:
    """copy_impl's is_same_data: views of one storage with the same offset, strides,
    sizes, dtype and conjugate bit (tidx has no negative bit)."""
    return (self.storage is src.storage and self.view.offset == src.view.offset
            and tuple(self.view.strides) == tuple(src.view.strides)
            and tuple(self.view.sizes) == tuple(src.view.sizes) and self.dtype is src.dtype
            and self.is_conj == src.is_conj)


FILL_TENSOR = step("fill_(Tensor)", Layer.KERNEL, source=FILL)


@declare("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)",
         variants="function, method", native="at::native::fill_", source=FILL,
         meta=META_PYTHON, takes_complex=True)
def fill_tensor(self, value):
    # fill_(Tensor): only 0-dim values; on the same device it is a broadcast copy_.
    check(value.dim() == 0, RuntimeError,
          f"fill_ only supports 0-dimension value tensor but got tensor with "
          f"{value.dim()} dimensions.")
    if self.device_type != value.device_type:
        # Fill.cpp: a value on another device is read with item() and filled as a scalar
        with span(FILL_TENSOR, note="cuda.device.fill_from_cpu"):
            pass
        scalar = aten.item.default(value)
        # fill_out is called directly (no second dispatch): fill_stub on self's device
        return cuda_kernels.fill_(self, scalar) if self.device_type == "cuda" else \
            fill_(self, scalar)
    with span(FILL_TENSOR, note="fill.tensor"):
        pass
    if value.storage is self.storage:
        value = aten.clone.default(value)
    return aten.copy_.default(self, value)


# fill_out's two kernels: one CPU element by scalar_fill, else fill_kernel
FILL_SCALAR_FILL = step("scalar_fill", Layer.KERNEL, source=FILL,
                        libtorch=inlined("at::detail::scalar_fill",
                                         "at::detail::scalar_tensor_static"))
FILL_KERNEL = step("fill_kernel", Layer.KERNEL, source="aten/src/ATen/native/cpu/FillKernel.cpp")


@declare("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)",
         variants="function, method", native="at::native::fill_", source=FILL,
         meta=META_PYTHON_ALONE, takes_complex=True)
def fill_(self, value: Any):
    if self.device_type == "cuda":
        return cuda_kernels.fill_(self, value)
    if self.numel() == 1 and not self.is_meta:
        # fill_out: one CPU element is written by scalar_fill, without a TensorIterator.
        kernel, note = "scalar_fill", lambda: Note("fill.scalar_fill", value=repr(value))
    else:
        kernel, note = "fill_kernel", lambda: Note("fill.fill_kernel", value=repr(value))
    with span(FILL_SCALAR_FILL if kernel == "scalar_fill" else FILL_KERNEL, note=note,
              value=value, numel=self.numel()) as s:
        if self.is_meta:
            scalar = None       # the Meta kernel of fill_ never converts the value
        elif kernel == "scalar_fill" and self.dtype is D.float16:
            # measured on torch 2.13: scalar_fill stores a Half without the overflow
            # check fill_kernel makes (fill_(1e30) of one float16 element gives inf);
            # the double goes to float, then to half, as c10::Half(float) does
            with np.errstate(over="ignore"):
                scalar = np.float32(float(value)).astype(np.float16)
        else:
            scalar = to_dtype_scalar(value, self.dtype)
        if not self.is_meta and self.numel():
            self.array(write=True)[...] = scalar
            s.set(written=touched(self))
    return self


ZERO_FILL_0 = step("zero_ -> fill_(0)", Layer.KERNEL, source=FILL)
ZERO_META = step("zero_meta_", Layer.KERNEL, source=FILL, note="zero.meta")
ZERO_CPU = step("zero_cpu_", Layer.KERNEL, source=FILL, note="zero.memset")


@declare("zero_(Tensor(a!) self) -> Tensor(a!)", variants="method, function",
         native="at::native::zero_", source=FILL,
         meta=META_PYTHON_ALONE, takes_complex=True)
def zero_(self):
    """Fill.cpp ``zero_``: a memset for small dense CPU tensors, else ``fill_(0)``."""
    n = self.numel()
    if self.is_meta:
        with span(ZERO_META):
            pass
        return self
    if self.device_type == "cuda":
        # Fill.cpp: the memset path is for CPU tensors; a CUDA tensor is fill_(0)
        with span(ZERO_FILL_0, note="cuda.device.zero_fill", numel=n):
            pass
        return aten.fill_.Scalar(self, 0)
    dense = S.is_non_overlapping_and_dense(self.view.sizes, self.view.strides)
    if dense and 0 < n < GRAIN_SIZE:
        with span(ZERO_CPU, numel=n, bytes=n * self.dtype.itemsize) as s:
            self.array(write=True)[...] = 0
            s.set(written=touched(self))
        return self
    why = ("zero.no_elements" if n == 0 else
           Note("zero.parallel", numel=n, grain_size=GRAIN_SIZE) if dense else
           "zero.not_dense")
    with span(ZERO_FILL_0, note=why, numel=n):
        pass
    return aten.fill_.Scalar(self, 0)


@declare("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
         variants="function, method", native="at::native::clone", source=CONV,
         takes_complex=True, conj_fallthrough=True)
def clone(self, *, memory_format: str | None = None):
    memory_format = memory_format or "preserve_format"
    if memory_format == "preserve_format" and _non_overlapping_and_dense(self):
        # "Copy all strides, this is marginally faster than calling empty_like"
        out = aten.empty_strided.default(self.view.sizes, self.view.strides, dtype=self.dtype,
                                         device=self.device_type)
    else:
        out = aten.empty_like.default(self, dtype=self.dtype, device=self.device_type,
                                      memory_format=memory_format)
    return aten.copy_.default(out, self)


CONTIGUOUS = step("contiguous", Layer.KERNEL, source=CONV, note="contiguous.clone")


@declare("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
         variants="method", kind=COMPOSITE, native="at::native::contiguous", source=CONV)
def contiguous(self, *, memory_format: str = "contiguous_format"):
    with span(CONTIGUOUS, memory_format=memory_format):
        pass
    return aten.clone.default(self, memory_format=memory_format)


def _non_overlapping_and_dense(t) -> bool:
    return S.is_non_overlapping_and_dense(t.view.sizes, t.view.strides)


LIFT_FRESH = step("lift_fresh", Layer.KERNEL, source="aten/src/ATen/native/TensorShape.cpp",
                  note="lift_fresh.identity", libtorch=part_of("at::native::lift_fresh"),
                  lecture=Lecture.HIDDEN)


# kind: torch registers lift_fresh as functional although its schema returns Tensor(a)
@declare("lift_fresh(Tensor(a) self) -> Tensor(a)", kind=FUNCTIONAL,
         native="at::native::lift_fresh",
          source="aten/src/ATen/native/TensorShape.cpp", takes_complex=True)
def lift_fresh(self):
    with span(LIFT_FRESH):
        return self


DETACH = step("detach", Layer.KERNEL, source="torch/csrc/autograd/VariableTypeManual.cpp",
              note="detach.alias", lecture=Lecture.HIDDEN)


@declare("detach(Tensor(a) self) -> Tensor(a)", variants="function, method",
         native="at::native::detach", source="torch/csrc/autograd/VariableTypeManual.cpp")
def detach(self):
    # a new TensorImpl on the same storage and geometry, cut from autograd history; the
    # inner record the profiler lists as plain "detach" is the Autograd kernel's
    # (VariableTypeManual.cpp's RECORD_FUNCTION), which inference mode and an inference
    # tensor do not reach (engine/dispatch/keys.reached)
    if current().inference_mode or self.is_inference:
        return self.with_view(self.view)
    with span(DETACH, op="detach") as s:
        result = self.with_view(self.view)
        s.set_result(result)
    return result


_DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution.")

DETACH_STEP = step("detach_", Layer.KERNEL, source="torch/csrc/autograd/VariableTypeManual.cpp",
                   note="detach_.history", lecture=Lecture.HIDDEN)


@declare("detach_(Tensor(a!) self) -> Tensor(a!)", variants="function, method", kind=AUTOGRAD,
         native="torch::autograd::VariableType::(anonymous namespace)::detach_",
         source="torch/csrc/autograd/VariableTypeManual.cpp", takes_complex=True)
def detach_(self):
    # VariableTypeManual.cpp's detach_ is the AutogradCPU kernel and the whole operator:
    # it clears the autograd metadata and returns, redispatching nowhere (gdb on the
    # torch 2.13 wheel: at::native::detach_ never runs).  Its RECORD_FUNCTION("detach_")
    # is the inner record the profiler lists as plain "detach_".
    with span(DETACH_STEP, op="detach_"):
        if self.view_base is not None:
            # a view's history is its base's: detaching it alone would leave them apart
            raise torch_error(RuntimeError, _DETACH_VIEW)
        self.requires_grad = False
        self.grad_fn, self.output_nr = None, 0      # a leaf from now on
    return self


TO = step("to", Layer.KERNEL, source=CONV, note="to.same")


def _to(self, dtype: D.dtype | None, device: str | None, copy: bool):
    """at::native::to's shared body (to_impl): a copy only when dtype or device differ."""
    dtype = dtype or self.dtype
    device = device or self.device_type
    if dtype is self.dtype and device == self.device_type and not copy:
        with span(TO):
            return self
    return aten._to_copy.default(self, dtype=dtype, device=device)


@declare("to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
         variants="method", kind=COMPOSITE, native="at::native::to", source=CONV)
def to_dtype(self, dtype: D.dtype, non_blocking: bool = False, copy: bool = False,
             memory_format: str | None = None):
    return _to(self, dtype, None, copy)


@declare("to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
         variants="method", kind=COMPOSITE, native="at::native::to", source=CONV)
def to_device(self, device: str, dtype: D.dtype, non_blocking: bool = False, copy: bool = False,
              memory_format: str | None = None):
    return _to(self, dtype, device, copy)


@declare("to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
         variants="method", kind=COMPOSITE, native="at::native::to", source=CONV)
def to_dtype_layout(self, *, dtype: D.dtype | None = None, layout=None, device: str | None = None,
                    pin_memory=None, non_blocking: bool = False, copy: bool = False,
                    memory_format: str | None = None):
    return _to(self, dtype, device, copy)


@declare("_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor",
         native="at::native::_to_copy", source=CONV, takes_complex=True)
def _to_copy(self, *, dtype: D.dtype | None = None, layout=None, device: str | None = None,
             pin_memory=None, non_blocking: bool = False, memory_format: str | None = None):
    # memory_format=Preserve: a dense input's strides, else infer_dense_strides (its dims'
    # order with the gaps closed), as at::native::_to_copy (TensorConversions.cpp) does
    out = aten.empty_strided.default(self.view.sizes, self.view.strides if
                                     _non_overlapping_and_dense(self) else
                                     S.infer_dense_strides(self.view.sizes, self.view.strides),
                                     dtype=dtype, device=device)
    return aten.copy_.default(out, self)
