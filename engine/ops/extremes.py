"""max and min: of the whole tensor, along a dim (values and indices), and elementwise
(``torch.max(a, b)`` is at::maximum), each with its out= form.

Mirrors aten/src/ATen/native/TensorCompare.cpp (max/min, max.dim's structured meta and
minmax_out_impl, max_unary_out), cpu/ReduceAllOpsKernel.cpp and
cpu/TensorCompareKernel.cpp.  An out= form writes the given tensors as torch's do: the
structured max.dim_max checks each out= tensor's dtype and resizes it (resize_output's
warning when it held elements) before the kernel; max.unary_out checks that self's dtype
can be cast to the out= tensor's and resizes it to 0-dim.
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import check
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import can_cast, resize_output
from engine.ops.reduce import (ALL_KERNEL, COMPARE, _extreme, _first_index, _identity, _result,
                               _zero_numel_check_dim, dim_mask,
                               reduced_shape)
from engine.ops.touch import touched


# -- max() / min() of the whole tensor -----------------------------------------------------
MAX_ALL_KERNEL = step("max_all_kernel", Layer.KERNEL, source=ALL_KERNEL, note="max_all.kernel")
MIN_ALL_KERNEL = step("min_all_kernel", Layer.KERNEL, source=ALL_KERNEL, note="max_all.kernel")


def _max_min_all(self, biggest: bool, out=None):
    """max() / min(), or max_unary_out / min_unary_out into ``out`` (no numel check
    there: an empty self leaves the kernel's identity, -inf for max, inf for min)."""
    name = "max()" if biggest else "min()"
    if out is None:
        check(self.numel() > 0, RuntimeError,
              f"{name}: Expected reduction dim to be specified for input.numel() == 0. "
              "Specify the reduction dim with the 'dim' argument.")
        result = aten.empty.memory_format((), dtype=self.dtype, device=self.device_type)
    else:
        check(can_cast(self.dtype, out.dtype), RuntimeError,
              "Expected canCast( typeMetaToScalarType(self.dtype()), "
              "typeMetaToScalarType(out.dtype())) to be true, but got false.  (Could this "
              "error message be improved?  If so, please report an enhancement request to "
              "PyTorch.)")
        resize_output(out, (), ())
        result = out
    # max_all_kernel_impl reads input.expect_contiguous(): a copy only if it is not
    src = self if self.is_contiguous() else aten.contiguous.default(self)
    with span(MAX_ALL_KERNEL if biggest else MIN_ALL_KERNEL) as s:
        value = None if self.is_meta else _extreme(src.array(), tuple(range(self.dim())),
                                                    biggest, whole=True) if self.numel() else \
            np.asarray(_identity(self.dtype, biggest))
        s.set(value=None if value is None else value.item())
        if value is not None and self.numel():
            s.set(read=touched(src))
    # reduce_all_kernel writes its one value with fill_
    aten.fill_.Scalar(result, 0 if value is None else value.item())
    return result


@declare("max(Tensor self) -> Tensor", variants="method, function",
         native="at::native::max", source=COMPARE,
         meta=META_PYTHON)
def max_(self):
    return _max_min_all(self, True)


@declare("min(Tensor self) -> Tensor", variants="method, function",
         native="at::native::min", source=COMPARE,
         meta=META_PYTHON)
def min_(self):
    return _max_min_all(self, False)


@declare("max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::max_unary_out", source=COMPARE, meta=META_PYTHON)
def max_unary_out(self, *, out):
    return _max_min_all(self, True, out)


@declare("min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::min_unary_out", source=COMPARE, meta=META_PYTHON)
def min_unary_out(self, *, out):
    return _max_min_all(self, False, out)


# -- max(dim) / min(dim): values and indices ----------------------------------------------
COMPARE_KERNEL = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp"
MAX_KERNEL_IMPL = step("max_kernel_impl", Layer.KERNEL, source=COMPARE_KERNEL,
                       note="max_dim.kernel")
MIN_KERNEL_IMPL = step("min_kernel_impl", Layer.KERNEL, source=COMPARE_KERNEL,
                       note="max_dim.kernel")


def _max_min_dim(self, dim: int, keepdim: bool, biggest: bool, outs=None):
    """max.dim's meta (the dim wrapped, an empty one refused) and minmax_out_impl: a
    one-element 0-dim input is copied with fill_; else compare_base_kernel puts the dim
    back into both results (unsqueeze_), walks each row keeping the first extreme (the
    first NaN wins) and takes the dim away again (squeeze_).  ``outs``: max.dim_max's
    (values, indices), each checked and resized by the structured wrapper in turn."""
    name = "max()" if biggest else "min()"
    wrapped = S.maybe_wrap_dim(dim, self.dim())
    _zero_numel_check_dim(self, wrapped, name)
    mask = dim_mask(self, [wrapped])
    if outs is None:
        values = _result(self, mask, keepdim, self.dtype)
        indices = _result(self, mask, keepdim, D.int64)
    else:
        values, indices = outs
        shape = reduced_shape(self.view.sizes, mask, keepdim)
        for given, want in ((values, self.dtype), (indices, D.int64)):
            check(given.dtype is want, RuntimeError,
                  f"Expected out tensor to have dtype {D.type_meta_name(want)}, but got "
                  f"{D.type_meta_name(given.dtype)} instead")
            resize_output(given, shape, S.contiguous_strides(shape))
    if self.numel() == 0:
        return values, indices
    if self.numel() == 1 and self.dim() == 0:
        aten.fill_.Tensor(values, self)
        aten.fill_.Scalar(indices, 0)
        return values, indices
    if not keepdim:
        for r in (values, indices):
            if r.dim() >= wrapped:
                aten.unsqueeze_.default(r, wrapped)
    with span(MAX_KERNEL_IMPL if biggest else MIN_KERNEL_IMPL, dim=wrapped) as s:
        if not self.is_meta:
            # numpy's argmax copies the input with the dim moved last
            check_temporary(name, self.numel(), self.dtype.itemsize)
            arr = self.array()
            index = np.expand_dims(_first_index(arr, wrapped, biggest), wrapped)
            values.array(write=True)[...] = np.take_along_axis(arr, index, wrapped)
            indices.array(write=True)[...] = index
            s.set(read=touched(self), written=[touched(values), touched(indices)])
        s.set_result(values)
    if not keepdim:
        aten.squeeze_.dim(values, wrapped)
        aten.squeeze_.dim(indices, wrapped)
    return values, indices


@declare("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         variants="function, method",
         native="at::native::max_out (structured)", source=COMPARE,
         meta=META_PYTHON)
def max_dim(self, dim, keepdim=False):
    return _max_min_dim(self, dim, keepdim, True)


@declare("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         variants="function, method",
         native="at::native::min_out (structured)", source=COMPARE,
         meta=META_PYTHON)
def min_dim(self, dim, keepdim=False):
    return _max_min_dim(self, dim, keepdim, False)


@declare("max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
         "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::max_out (structured)", source=COMPARE)
def max_dim_max(self, dim, keepdim=False, *, max, max_values):
    return _max_min_dim(self, dim, keepdim, True, (max, max_values))


@declare("min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, "
         "Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::min_out (structured)", source=COMPARE)
def min_dim_min(self, dim, keepdim=False, *, min, min_indices):
    return _max_min_dim(self, dim, keepdim, False, (min, min_indices))


# -- max(other) / min(other): the pointwise maximum / minimum (TensorCompare.cpp) ----------
@declare("max.other(Tensor self, Tensor other) -> Tensor", variants="method, function",
         kind=COMPOSITE, native="at::native::max", source=COMPARE)
def max_other(self, other):
    """``torch.max(a, b)`` is not a reduction: it is at::maximum(a, b), elementwise."""
    return aten.maximum.default(self, other)


@declare("min.other(Tensor self, Tensor other) -> Tensor", variants="method, function",
         kind=COMPOSITE, native="at::native::min", source=COMPARE)
def min_other(self, other):
    """``torch.min(a, b)``: at::minimum(a, b), elementwise."""
    return aten.minimum.default(self, other)


@declare("max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::max_out", source=COMPARE)
def max_other_out(self, other, *, out):
    # at::maximum_out(result, self, other)
    return aten.maximum.out(self, other, out=out)


@declare("min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::min_out", source=COMPARE)
def min_other_out(self, other, *, out):
    return aten.minimum.out(self, other, out=out)
