"""prod: the product of the elements, whole or along one dim (ReduceOps.cpp, and the
CPU loop binary_kernel_reduce_vec of cpu/Reduce.h that prod_kernel_impl runs).

A float product's last bits depend on the order of its multiplications, so the loop is
replayed as Reduce.h runs it on each 2-D block of the reduction's iterator
(engine/ops/reduce_loop.py).

Integer products wrap and commute, and a bool product is an ``and``: any order gives
the same bits there.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.dispatch.declarations import META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops import reduce as R
from engine.ops import sum_kernel as K
from engine.ops import complex_product
from engine.ops.reduce_loop import ProductLoop
from engine.ops.touch import touched

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"
LOOP = "aten/src/ATen/native/cpu/Reduce.h"


PROD_KERNEL_IMPL = step("prod_kernel_impl", Layer.KERNEL, source=LOOP)


def _prod(self, dim: int | None, keepdim: bool, dtype: D.dtype | None, *, whole: bool,
          out=None):
    """prod (whole: at::empty for the result) and prod.dim_int (structured);
    impl_func_prod: an empty iterator fills 1, else the loop over the input cast to the
    result's dtype, from a result filled with the identity."""
    out_dtype = R._sum_dtype(self, dtype) if out is None else out.dtype
    mask = R.dim_mask(self, None if dim is None else [dim])
    shape = R.reduced_shape(self.view.sizes, mask, keepdim)
    if out is not None:
        # resize_reduction into the out= tensor, of the dtype= it must have or its own
        R.reduction_out(self, [dim], keepdim, dtype, out)
        result = out
    elif whole:
        result = aten.empty.memory_format(shape, dtype=out_dtype,
                                          device=self.device_type)
    else:
        result = R._result(self, mask, keepdim, out_dtype)
    viewed = R.review(result, self.dim(), mask, keepdim)
    src = R._in_dtype(self, out_dtype)
    aten.fill_.Scalar(result, True if out_dtype is D.bool else 1)
    if self.numel() == 0:
        return result
    R._parallel(self, viewed)
    with span(PROD_KERNEL_IMPL, note=lambda: Note("prod.kernel", dtype=out_dtype)) as s:
        if not self.is_meta:
            axes = R._axes(self, mask)
            if out_dtype.is_floating_point or out_dtype.is_complex:
                s.set(capability=ProductLoop.stub.call(out_dtype, out_dtype.itemsize)
                      .describe())
                K.check_replay("prod()", src.numel(), out_dtype.itemsize)
                loop = ProductLoop
                if out_dtype.is_complex:
                    complex_product.check_replayable(out_dtype, src.numel())
                    loop = complex_product.ComplexProductLoop
                paths = K.parallel_reduce(
                    loop, src.elements(), src.view.offset, result.elements(write=True),
                    result.view.offset,
                    K.geometry(src.view.sizes, src.view.strides, R._out_strides(src, viewed)),
                    out_dtype.np, 1)
                s.set(paths=sorted(set(paths)))
            else:
                values = src.array()
                with np.errstate(over="ignore"):
                    if out_dtype is D.bool:
                        total = np.all(values, axis=axes)
                    else:
                        total = np.prod(values, axis=axes, dtype=np.int64)
                result.array(write=True)[...] = \
                    np.asarray(total).astype(out_dtype.np).reshape(result.view.sizes)
            # a reduction loads every input element and stores into every output one
            s.set(read=touched(src), written=touched(result))
        s.set_result(result)
    return result


@declare("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", variants="function, method",
         native="at::native::prod", source=REDUCE, meta=META_PYTHON, takes_complex=True)
def prod(self, *, dtype=None):
    return _prod(self, None, False, dtype, whole=True)


@declare("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) "
         "-> Tensor", variants="function, method",
         native="at::native::prod_out (structured)", source=REDUCE,
         meta=META_PYTHON, takes_complex=True)
def prod_dim(self, dim, keepdim=False, *, dtype=None):
    S.maybe_wrap_dim(dim, self.dim())
    return _prod(self, dim, keepdim, dtype, whole=False)


@declare("prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, "
         "Tensor(a!) out) -> Tensor(a!)", native="at::native::prod_out (structured)",
         source=REDUCE, meta=META_PYTHON)
def prod_int_out(self, dim, keepdim=False, *, dtype=None, out):
    S.maybe_wrap_dim(dim, self.dim())
    return _prod(self, dim, keepdim, dtype, whole=False, out=out)
