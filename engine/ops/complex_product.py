"""prod of complex64/complex128 tensors: binary_kernel_reduce_vec's loops (engine/ops/
reduce_loop.py) with c10::complex's multiplication, as torch's CPU builds compute it.

``Vectorized<c10::complex<T>>::operator*`` (cpu/vec/vec256/vec256_complex_{float,
double}.h) rounds each of the four products and then their difference and sum; so does
the DEFAULT build's scalar ``c10::complex<T>::operator*``.  The AVX2 build compiles that
scalar operator with ``-mfma``: ``re = fma(a, c, -(b*d))``, ``im = fma(a, d, b*c)`` (as
engine/ops/complex_arith.py measured for mul), one rounding fewer -- the scalar loop's
steps (the lanes folded into the result, a loop's tail, basic_loop) are fused there.

Measured against torch 2.13 (100 products of each dtype, 1 to 40 elements a dim, 1-d and
2-d, contiguous and transposed, whole and along a dim): bit for bit under DEFAULT for
both dtypes, and under AVX2 for complex128.  complex64 under AVX2 differs in about one
product in seven: GCC's code for complex<float> is neither all fused nor all apart there
(as for mul, where it pairs elements), and tidx refuses it in one line.
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
    """Refuse what was not measured bit for bit (see the module's note), and chains of
    exact fused roundings too long to replay element by element."""
    fused = ComplexProductLoop.stub.build().fma
    if fused and dtype is D.complex64:
        raise Refused("prod of a complex64 tensor under the AVX2 build: GCC's code for "
                      "c10::complex<float>'s product fuses some multiply-adds and not "
                      "others, which tidx does not replay (complex128, or "
                      "--cpu-capability default, is replayed)")
    if fused and numel > MAX_MULTIPLIED:
        raise Refused(f"prod of more than {MAX_MULTIPLIED:,} complex elements is beyond "
                      "tidx's exact replay of torch's fused multiply-adds")
