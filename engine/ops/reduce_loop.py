"""binary_kernel_reduce_vec (aten/src/ATen/native/cpu/Reduce.h): the CPU loop prod,
amax and amin run, replayed block by block on the reduction iterator that
engine/ops/sum_kernel.py builds (with parallel_reduce's splits).

Reduce.h picks one of three loops for each 2-D block:

* input contiguous along the reduced dim (``vectorized_inner_reduction``): four vector
  accumulators over 4 * Vec::size() elements at a time, combined lane by lane
  ``(a0 . a1) . (a2 . a3)``, then the lanes in order into the result, then the tail one
  element at a time;
* result and input contiguous along the kept dim (``vectorized_outer_reduction``): each
  column of 4 * Vec::size() runs down the rows in its own lane, then meets the result;
  the remaining columns one element at a time;
* otherwise ``basic_loop``: result = op(result, x), element by element.

The scalar ``op`` and the vector ``vop`` may differ in their last detail: max_impl keeps
its first argument on a tie (std::max), _mm256_max_ps its second -- which is how a max
of +0.0 and -0.0 picks its sign.
"""

from __future__ import annotations

import numpy as np

from engine.core.dispatch_stub import DispatchStub
from engine.ops import sum_kernel as K

_KERNELS = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp"
#: their stubs: no AVX512 build in torch 2.13's x86 wheel (an AVX512 CPU runs AVX2's)
PROD_STUB = DispatchStub("prod_stub", avx512=False, source=_KERNELS)
MAX_VALUES_STUB = DispatchStub("max_values_stub", avx512=False, source=_KERNELS)
MIN_VALUES_STUB = DispatchStub("min_values_stub", avx512=False, source=_KERNELS)


class BinaryReduceLoop(K.Reduction):
    """One block at a time; subclasses give the scalar ``op`` and the lane-wise ``vop``."""

    @staticmethod
    def op(a, b):
        raise NotImplementedError

    @staticmethod
    def vop(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _kernel(self, ib, ob, size0, size1, ins, outs) -> None:
        (i0, i1), (o0, o1) = ins, outs
        x = self.src[ib + np.arange(size0)[:, None] * i0 + np.arange(size1)[None] * i1]
        vec = self.vec
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
                        self.dst[o] = self.op(self.dst[o], x[i, j])

    def _inner(self, row: np.ndarray, o: int, vec: int) -> None:
        count = len(row) // (4 * vec)
        if count:
            acc = row[:4 * vec].reshape(4, vec).copy()
            for i in range(1, count):
                acc = self.vop(acc, row[i * 4 * vec:(i + 1) * 4 * vec].reshape(4, vec))
            lanes = self.vop(self.vop(acc[0], acc[1]), self.vop(acc[2], acc[3]))
            first = lanes[0]
            for v in lanes[1:]:
                first = self.op(first, v)
            self.dst[o] = self.op(self.dst[o], first)
        for v in row[count * 4 * vec:]:
            self.dst[o] = self.op(self.dst[o], v)

    def _outer(self, x: np.ndarray, ob: int, vec: int) -> None:
        cut = x.shape[1] // (4 * vec) * (4 * vec)
        if cut:
            acc = x[0, :cut].copy()
            for i in range(1, len(x)):
                acc = self.vop(acc, x[i, :cut])
            idx = ob + np.arange(cut)
            self.dst[idx] = self.vop(acc, self.dst[idx])
        for j in range(cut, x.shape[1]):
            for i in range(len(x)):
                self.dst[ob + j] = self.op(self.dst[ob + j], x[i, j])


class ProductLoop(BinaryReduceLoop):
    """prod_kernel_impl: ``a * b`` in both loops."""

    stub = PROD_STUB

    @staticmethod
    def op(a, b):
        return a * b

    @staticmethod
    def vop(a, b):
        return a * b


def _nan(a, b):
    return np.isnan(a) | np.isnan(b)


def _all_ones_nan(dtype: np.dtype):
    """The NaN ``_mm256_or_ps(max, isnan_mask)`` leaves: every bit set (a negative NaN)."""
    bits = np.array(-1, {4: np.int32, 8: np.int64, 2: np.int16}[np.dtype(dtype).itemsize])
    return bits.view(dtype)[()]


class _ExtremeLoop(BinaryReduceLoop):
    """amax/amin's loops: the scalar max_impl/min_impl returns the canonical quiet NaN
    when either side is NaN; the vector one depends on the build
    (ATen/cpu/vec/vec256/vec256_float.h, vec_base.h): AVX2's ``maximum``/``minimum`` or the
    unordered-compare mask into the result (a NaN with every bit set: ``-nan``); the
    DEFAULT build's element loop keeps the NaN it met (``a`` if it is one, else ``b``)."""

    @staticmethod
    def pick(a, b):
        raise NotImplementedError

    @staticmethod
    def op(a, b):
        raise NotImplementedError

    def vop(self, a, b):
        picked = self.pick(a, b)
        if self.build.name == "DEFAULT":
            return np.where(np.isnan(a), a, picked)     # a NaN b: the ternary gave b
        return np.where(_nan(a, b), _all_ones_nan(a.dtype), picked)


class MaxLoop(_ExtremeLoop):
    """max_values_kernel_impl: max_impl (a NaN wins, else std::max: the first on a tie)
    and Vectorized maximum (_mm256_max_ps: the second on a tie, a NaN ored in)."""

    stub = MAX_VALUES_STUB

    @staticmethod
    def op(a, b):
        if np.isnan(a) or np.isnan(b):
            return a.dtype.type(np.nan)
        return b if a < b else a

    @staticmethod
    def pick(a, b):
        return np.where(a > b, a, b)


class MinLoop(_ExtremeLoop):
    """min_values_kernel_impl: min_impl (std::min: the first on a tie) and Vectorized
    minimum (_mm256_min_ps: the second on a tie)."""

    stub = MIN_VALUES_STUB

    @staticmethod
    def op(a, b):
        if np.isnan(a) or np.isnan(b):
            return a.dtype.type(np.nan)
        return b if b < a else a

    @staticmethod
    def pick(a, b):
        return np.where(a < b, a, b)
