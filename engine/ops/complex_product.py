"""prod of complex64/complex128 tensors: binary_kernel_reduce_vec's loops (engine/ops/
reduce_loop.py) with c10::complex's multiplication, as torch's CPU builds compute it.

``Vectorized<c10::complex<T>>::operator*`` (cpu/vec/vec256/vec256_complex_{float,
double}.h) rounds each of the four products and then their difference and sum; so does
the DEFAULT build's scalar ``c10::complex<T>::operator*``.  The AVX2 build compiles that
scalar operator with ``-mfma``: ``re = fma(a, c, -(b*d))``, ``im = fma(a, d, b*c)`` (as
engine/ops/complex_arith.py measured for mul), one rounding fewer -- the scalar loop's
steps (the lanes folded into the result, a loop's tail, basic_loop) are fused there,
with two exceptions for complex<float>, where GCC's code differs by place: of the three
products folding the four lanes, the last is rounded apart, and basic_loop over a
strided input rounds every product apart (a contiguous row's tail and the columns
vectorized_outer_reduction leaves are fused).

Measured against torch 2.13: every length from 1 to 69 and 100 and 200, 1-d and 2-d,
contiguous, transposed and strided, whole and along a dim, values across 12 decades (an
overflowing product fused as IEEE's fma would), bit for bit under DEFAULT, AVX2 and
AVX512 (which runs the AVX2 build) for both dtypes.
"""

from __future__ import annotations

import numpy as np

from engine.core import dtypes as D
from engine.core.errors import Refused
from engine.ops import complex_arith
from engine.ops.reduce_loop import ProductLoop

#: the most elements tidx multiplies in a chain of exact fused roundings
MAX_MULTIPLIED = 20_000


def _separate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(ac - bd) + (ad + bc)i, every product and the sums rounded apart."""
    real = a.real.dtype.type
    ar, ai, br, bi = (np.asarray(v, real) for v in (a.real, a.imag, b.real, b.imag))
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), a.dtype)
    with np.errstate(all="ignore"):
        out.real = ar * br - ai * bi
        out.imag = ar * bi + ai * br
    return out


class ComplexProductLoop(ProductLoop):
    """prod_kernel_impl over c10::complex: ``vop`` rounds apart; ``op`` fuses under the
    AVX2 build (the stub's build says whether it has FMA)."""

    def __init__(self, src: np.ndarray, dst: np.ndarray, scalar_np: np.dtype) -> None:
        super().__init__(src, dst, scalar_np)
        self.acc = self.np
        self.fused = self.build.fma

    @staticmethod
    def vop(a, b):
        return _separate(np.asarray(a), np.asarray(b))

    def vfold(self, acc: np.ndarray, seq: np.ndarray) -> np.ndarray:
        for row in seq:
            acc = _separate(acc, row)
        return acc

    def lane_fold(self, first: np.ndarray, rest: np.ndarray) -> np.ndarray:
        """The lanes of the combined accumulator: GCC unrolls the loop over complex<float>'s
        four lanes and fuses the first two products of its AVX2 build but not the last
        (measured: the only one of the 125 ways to fuse the three that agrees with torch
        on every sample); complex<double>'s two lanes are one fused product."""
        if not (self.fused and np.dtype(self.np) == np.complex64):
            return self.fold(first, rest)
        return self.vfold(self.fold(first, rest[:-1]), rest[-1:])

    def _inner(self, x: np.ndarray, ob: int, o1: int, vec: int) -> None:
        """vectorized_inner_reduction; refused for complex<float> in an FMA build when
        several rows meet one output (a whole prod of a tensor that is not one contiguous
        run): no choice of fused or separate roundings of its steps was found to agree
        with torch there (measured: 625 over 120 samples)."""
        if self.fused and np.dtype(self.np) == np.complex64 and o1 == 0 and x.shape[1] > 1:
            raise Refused("prod of a complex64 tensor that is not one contiguous run, into "
                          "one value, under the AVX2 build: how GCC's code rounds the rows' "
                          "products into the result is not known to tidx (a contiguous "
                          "tensor, a product along a dim, or --cpu-capability default is "
                          "replayed)")
        super()._inner(x, ob, o1, vec)

    def _basic(self, x: np.ndarray, ob: int, o0: int, o1: int) -> None:
        """basic_loop over a strided input: fused as the scalar op is, but for
        complex<float> in the AVX2 build, whose basic_loop GCC compiles without fusing
        (measured: every product of a strided input rounded apart, where the tail of a
        contiguous row and the columns vectorized_outer_reduction leaves are fused)."""
        if self.fused and np.dtype(self.np) == np.complex64:
            self.fused = False
            try:
                super()._basic(x, ob, o0, o1)
            finally:
                self.fused = True
            return
        super()._basic(x, ob, o0, o1)

    def fold(self, acc: np.ndarray, seq: np.ndarray) -> np.ndarray:  # type: ignore[override]
        acc = np.array(acc, copy=True)
        if not self.fused:
            return self.vfold(acc, seq)
        real = np.dtype(acc.real.dtype)
        flat = acc.reshape(-1)
        for row in seq:
            values = np.asarray(row).reshape(-1)
            sep = _separate(flat, values)
            for j in range(flat.size):
                flat[j] = complex_arith._fused(float(flat[j].real), float(flat[j].imag),
                                               float(values[j].real), float(values[j].imag),
                                               complex(sep[j]), real)
        return flat.reshape(acc.shape)


def check_replayable(dtype: D.dtype, numel: int) -> None:
    """Refuse chains of exact fused roundings too long to replay element by element."""
    fused = ComplexProductLoop.stub.build().fma
    if fused and numel > MAX_MULTIPLIED:
        raise Refused(f"prod of more than {MAX_MULTIPLIED:,} complex elements is beyond "
                      "tidx's exact replay of torch's fused multiply-adds")
