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
    """One block at a time; subclasses give the scalar ``op`` and the lane-wise ``vop``,
    and their folds: ``fold(acc, seq)`` is ``acc = op(acc, row)`` for each ``row`` of
    ``seq`` (along its first axis) in order, element by element (``acc`` is a row's
    shape: each element a lane), ``vfold`` the same with ``vop``.  The folds compute with
    whole arrays what the loops of Reduce.h do one element after another, with the same
    result in every bit."""

    @staticmethod
    def op(a, b):
        raise NotImplementedError

    @staticmethod
    def vop(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @classmethod
    def fold(cls, acc: np.ndarray, seq: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def vfold(self, acc: np.ndarray, seq: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _kernel(self, ib, ob, size0, size1, ins, outs) -> None:
        (i0, i1), (o0, o1) = ins, outs
        x = self.src[ib + np.arange(size0)[:, None] * i0 + np.arange(size1)[None] * i1]
        vec = self.vec
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            if o0 == 0 and i0 == 1:
                self.paths.append("vectorized_inner_reduction")
                self._inner(x, ob, o1, vec)
            elif o0 == 0 and o1 == 1 and i1 == 1:
                self.paths.append("vectorized_outer_reduction")
                self._outer(x, ob, vec)
            else:
                self.paths.append("basic_loop")
                self._basic(x, ob, o0, o1)

    def _basic(self, x: np.ndarray, ob: int, o0: int, o1: int) -> None:
        """basic_loop: ``out = op(out, x[i, j])`` for j, then i (row-major in j)."""
        size0, size1 = x.shape
        if o0 == 0 and o1 == 0:             # one output: every element in turn
            self.dst[ob] = self.fold(self.dst[ob:ob + 1], x.T.reshape(-1, 1))[0]
        elif o0 == 0:                       # an output per column, folded down it
            o = ob + np.arange(size1) * o1
            self.dst[o] = self.fold(self.dst[o], x)
        elif o1 == 0:                       # an output per row, folded along it
            o = ob + np.arange(size0) * o0
            self.dst[o] = self.fold(self.dst[o], x.T)
        else:                               # an output per element: one step each
            o = ob + np.arange(size0)[:, None] * o0 + np.arange(size1)[None] * o1
            assert np.unique(o).size == o.size, "a reduction's outputs do not overlap"
            self.dst[o] = self.fold(self.dst[o].reshape(-1), x.reshape(1, -1)).reshape(o.shape)

    def lane_fold(self, first: np.ndarray, rest: np.ndarray) -> np.ndarray:
        """vectorized_reduction's ``buffer[0] = op(buffer[0], buffer[j])`` over the lanes
        of the combined accumulator: ``fold``, unless a build compiles it otherwise."""
        return self.fold(first, rest)

    def _inner(self, x: np.ndarray, ob: int, o1: int, vec: int) -> None:
        """vectorized_inner_reduction of each column j of ``x`` into out[ob + j * o1]:
        four vector accumulators over 4 * vec elements at a time, combined
        ``(a0 . a1) . (a2 . a3)``, the lanes in order into the result, then the tail."""
        size0, size1 = x.shape
        width = 4 * vec
        count = size0 // width
        steps = []                                  # what meets out[o], row by row
        if count:
            blocks = x[:count * width].reshape(count, width, size1)
            a = self.vfold(blocks[0], blocks[1:]).reshape(4, vec, size1)
            lanes = self.vop(self.vop(a[0], a[1]), self.vop(a[2], a[3]))      # (vec, size1)
            steps.append(self.lane_fold(lanes[0], lanes[1:])[None])
        steps.append(x[count * width:])
        seq = np.concatenate(steps)                 # (steps, size1)
        if o1 == 0:                                 # every column into one output, in turn
            self.dst[ob] = self.fold(self.dst[ob:ob + 1], seq.T.reshape(-1, 1))[0]
        else:
            o = ob + np.arange(size1) * o1
            self.dst[o] = self.fold(self.dst[o], seq)

    def _outer(self, x: np.ndarray, ob: int, vec: int) -> None:
        """vectorized_outer_reduction: each column of 4 * vec columns runs down the rows
        in its own lane, then meets the result; the remaining columns element by
        element."""
        cut = x.shape[1] // (4 * vec) * (4 * vec)
        if cut:
            acc = self.vfold(x[0, :cut], x[1:, :cut])
            idx = ob + np.arange(cut)
            self.dst[idx] = self.vop(acc, self.dst[idx])
        if cut < x.shape[1]:
            idx = ob + np.arange(cut, x.shape[1])
            self.dst[idx] = self.fold(self.dst[idx], x[:, cut:])


class ProductLoop(BinaryReduceLoop):
    """prod_kernel_impl: ``a * b`` in both loops."""

    stub = PROD_STUB

    @staticmethod
    def op(a, b):
        return a * b

    @staticmethod
    def vop(a, b):
        return a * b

    @classmethod
    def fold(cls, acc: np.ndarray, seq: np.ndarray) -> np.ndarray:
        """The products in order, each rounded to the dtype: multiply.accumulate down
        the rows (a 1-D ``multiply.reduce`` may keep a Half product in float).

        >>> ProductLoop.fold(np.array([3.0], np.float16), np.array([[1.1], [1.1]], np.float16))
        array([3.627], dtype=float16)
        """
        if not len(seq):
            return acc.copy()
        return np.multiply.accumulate(np.concatenate([acc[None], seq]), axis=0)[-1]

    vfold = fold


def _nan(a, b):
    return np.isnan(a) | np.isnan(b)


def _extreme_fold(acc: np.ndarray, seq: np.ndarray, biggest: bool, last: bool) -> np.ndarray:
    """max_impl / min_impl (or their Vectorized twins) folded in order: a NaN anywhere
    gives NaN; else the extreme value, as the first (last) element equal to it has it
    -- which tells +0.0 from -0.0."""
    full = np.concatenate([acc[None], seq])
    ext = full.max(axis=0) if biggest else full.min(axis=0)
    hit = full == ext[None]
    if last:
        where = len(full) - 1 - hit[::-1].argmax(axis=0)
    else:
        where = hit.argmax(axis=0)
    out = np.take_along_axis(full, where[None], axis=0)[0]
    if out.dtype.kind == "f":
        out[np.isnan(full).any(axis=0)] = np.nan
    return out


def _all_ones_nan(dtype: np.dtype):
    """The NaN ``_mm256_or_ps(max, isnan_mask)`` leaves: every bit set (a negative NaN)."""
    bits = np.array(-1, {4: np.int32, 8: np.int64, 2: np.int16}[np.dtype(dtype).itemsize])
    return bits.view(dtype)[()]


class _ExtremeLoop(BinaryReduceLoop):
    """amax/amin's loops.  The scalar max_impl/min_impl returns the canonical quiet NaN
    when either side is NaN; the vector one depends on the build
    (ATen/cpu/vec/vec256/vec256_float.h, vec_base.h): AVX2's ``maximum``/``minimum`` ors
    the unordered-compare mask into the result (a NaN with every bit set: ``-nan``); the
    DEFAULT build's element loop keeps the NaN it holds, or takes the one it meets."""

    biggest = True

    def _pick(self, a, b):
        return np.where(a > b, a, b) if self.biggest else np.where(a < b, a, b)

    def vop(self, a, b):
        picked = self._pick(a, b)
        if self.build.name == "DEFAULT":
            return np.where(np.isnan(a), a, picked)     # a NaN b: the ternary gave b
        return np.where(_nan(a, b), _all_ones_nan(a.dtype), picked)

    @classmethod
    def fold(cls, acc, seq):
        return _extreme_fold(acc, seq, cls.biggest, False)

    def vfold(self, acc, seq):
        """The vector op folded down ``seq`` (it takes the zero it is given: the last
        of a tie), with its build's NaN: the first met (DEFAULT) or all ones (AVX2)."""
        out = _extreme_fold(acc, seq, self.biggest, True)
        if out.dtype.kind == "f":
            full = np.concatenate([acc[None], seq])
            nan = np.isnan(full)
            anywhere = nan.any(axis=0)
            if self.build.name == "DEFAULT":
                first = np.take_along_axis(full, nan.argmax(axis=0)[None], axis=0)[0]
                out[anywhere] = first[anywhere]
            else:
                out[anywhere] = _all_ones_nan(out.dtype)
        return out


class MaxLoop(_ExtremeLoop):
    """max_values_kernel_impl: max_impl (a NaN wins, else std::max: the first on a tie)
    and Vectorized maximum (_mm256_max_ps: the second on a tie, a NaN ored in).

    std::max keeps the zero it has:

    >>> MaxLoop.fold(np.array([0.0]), np.array([[-1.0], [-0.0]])).tolist()
    [0.0]
    """

    stub = MAX_VALUES_STUB
    biggest = True

    @staticmethod
    def op(a, b):
        if np.isnan(a) or np.isnan(b):
            return a.dtype.type(np.nan)
        return b if a < b else a


class MinLoop(_ExtremeLoop):
    """min_values_kernel_impl: min_impl (std::min: the first on a tie) and Vectorized
    minimum (_mm256_min_ps: the second on a tie)."""

    stub = MIN_VALUES_STUB
    biggest = False

    @staticmethod
    def op(a, b):
        if np.isnan(a) or np.isnan(b):
            return a.dtype.type(np.nan)
        return b if b < a else a
