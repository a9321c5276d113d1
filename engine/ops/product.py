"""prod: the product of the elements, whole or along one dim (ReduceOps.cpp, and the
CPU loop binary_kernel_reduce_vec of cpu/Reduce.h that prod_kernel_impl runs).

A float product's last bits depend on the order of its multiplications, so the loop is
replayed as Reduce.h runs it on each 2-D block of the reduction's iterator
(engine/ops/sum_kernel.py builds the iterator and the threads' split):

* input contiguous along the reduced dim (``vectorized_inner_reduction``): four vector
  accumulators over 4 * Vec::size() elements at a time, multiplied together lane by
  lane, then the lanes in order into the result, then the tail one by one;
* result and input contiguous along the kept dim (``vectorized_outer_reduction``): each
  column of 4 * Vec::size() runs down the rows in its own lane, then meets the result;
  the remaining columns one element at a time;
* otherwise ``basic_loop``: result = result * x, element by element.

Integer products wrap and commute, and a bool product is an ``and``: any order gives
the same bits there.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span

from engine.core import dtypes as D
from engine.core import view as S
from engine.dispatch.declarations import FUNCTIONAL, OUT, OUT_NOT_MODELLED, declare, \
    not_modelled
from engine.dispatch.dispatcher import call
from engine.ops import reduce as R
from engine.ops import sum_kernel as K

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"
LOOP = "aten/src/ATen/native/cpu/Reduce.h"


class ProductLoop(K.Reduction):
    """binary_kernel_reduce_vec's loop with ``a * b``, on one block at a time."""

    def _kernel(self, ib, ob, size0, size1, ins, outs) -> None:
        (i0, i1), (o0, o1) = ins, outs
        x = self.src[ib + np.arange(size0)[:, None] * i0 + np.arange(size1)[None] * i1]
        vec = K.lanes(self.np.itemsize)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            if o0 == 0 and i0 == 1:
                self.paths.append("vectorized_inner_reduction")
                for j in range(size1):
                    self._inner(x[:, j], ob + j * o1, vec)
            elif o0 == 0 and o1 == 1 and i1 == 1:
                self.paths.append("vectorized_outer_reduction")
                self._outer(x, ob, vec)
            else:
                self.paths.append("basic_loop")
                for j in range(size1):
                    for i in range(size0):
                        o = ob + j * o1 + i * o0
                        self.dst[o] = self.dst[o] * x[i, j]

    def _inner(self, row: np.ndarray, o: int, vec: int) -> None:
        count = len(row) // (4 * vec)
        if count:
            acc = row[:4 * vec].reshape(4, vec).copy()
            for i in range(1, count):
                acc = acc * row[i * 4 * vec:(i + 1) * 4 * vec].reshape(4, vec)
            lanes = (acc[0] * acc[1]) * (acc[2] * acc[3])
            first = lanes[0]
            for v in lanes[1:]:
                first = first * v
            self.dst[o] = self.dst[o] * first
        for v in row[count * 4 * vec:]:
            self.dst[o] = self.dst[o] * v

    def _outer(self, x: np.ndarray, ob: int, vec: int) -> None:
        cut = x.shape[1] // (4 * vec) * (4 * vec)
        if cut:
            acc = x[0, :cut].copy()
            for i in range(1, len(x)):
                acc = acc * x[i, :cut]
            idx = ob + np.arange(cut)
            self.dst[idx] = acc * self.dst[idx]
        for j in range(cut, x.shape[1]):
            for i in range(len(x)):
                self.dst[ob + j] = self.dst[ob + j] * x[i, j]


def _prod(self, dim: int | None, keepdim: bool, dtype: D.dtype | None, *, whole: bool):
    """prod (whole: at::empty for the result) and prod.dim_int (structured);
    impl_func_prod: an empty iterator fills 1, else the loop over the input cast to the
    result's dtype, from a result filled with the identity."""
    out_dtype = R._sum_dtype(self, dtype)
    mask = R.dim_mask(self, None if dim is None else [dim])
    shape = R.reduced_shape(self.view.sizes, mask, keepdim)
    if whole:
        result = call("aten::empty.memory_format", shape, dtype=out_dtype,
                      device=self.device_type)
    else:
        result = R._result(self, mask, keepdim, out_dtype)
    viewed = R.review(result, self.dim(), mask, keepdim)
    src = R._in_dtype(self, out_dtype)
    call("aten::fill_.Scalar", result, True if out_dtype is D.bool else 1)
    if self.numel() == 0:
        return result
    R._parallel(self, viewed)
    with span("prod_kernel_impl", "kernel", source=LOOP,
              note=lambda: Note("prod.kernel", dtype=out_dtype)) as s:
        if not self.is_meta:
            axes = R._axes(self, mask)
            if out_dtype.is_floating_point:
                paths = K.parallel_reduce(
                    ProductLoop, src.elements(), src.view.offset, result.elements(write=True),
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
        s.set_result(result)
    return result


@declare("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", variants="function, method",
         kind=FUNCTIONAL, native="at::native::prod", source=REDUCE)
def prod(self, *, dtype=None):
    return _prod(self, None, False, dtype, whole=True)


@declare("prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) "
         "-> Tensor", variants="function, method", kind=FUNCTIONAL,
         native="at::native::prod_out (structured)", source=REDUCE)
def prod_dim(self, dim, keepdim=False, *, dtype=None):
    S.maybe_wrap_dim(dim, self.dim())
    return _prod(self, dim, keepdim, dtype, whole=False)


not_modelled("prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, "
             "Tensor(a!) out) -> Tensor(a!)", kind=OUT, reason=OUT_NOT_MODELLED)
