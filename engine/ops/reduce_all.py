"""Which zero a whole-tensor max() / min() / aminmax() keeps when +0.0 and -0.0 tie
(aten/src/ATen/native/cpu/ReduceAllOpsKernel.cpp's reduce_all_kernel_vec and
reduce2_all_kernel_vec, ATen/cpu/vec/functional_base.h's reduce_all).

The comparison itself never tells the two zeros apart; the order does.  ``maximum(a, b)``
(``_mm256_max_ps``; DEFAULT's ``a > b ? a : b``) keeps ``b`` on a tie, the scalar
``max_impl`` (``std::max(a, b)``) keeps ``a``.  ``reduce_all`` loads the first vector
(32 bytes: 8 floats or 4 doubles -- torch 2.13's wheel has no AVX512 build of these
kernels), folds each further vector into it lane by lane, the tail into its first lanes,
then folds the lanes: for float in the AVX2 build by three shuffles (halves, then pairs,
then neighbours), else one lane after another into lane 0; fewer elements than a vector
are folded one after another.  Past GRAIN_SIZE elements, at::parallel_reduce gives each
thread a chunk and folds their results into ``data[0]`` with the scalar op.  Measured
against torch 2.13 under DEFAULT, AVX2 and AVX512, float and double, lengths 1 to 80.
"""

from __future__ import annotations

import numpy as np

from engine.core.context import current
from engine.ops.parallel import GRAIN_SIZE, chunks

#: Vectorized<T>::size() in the builds these kernels have (DEFAULT's vec_base and AVX2)
VECTOR_BYTES = 32


def _vop(a: np.ndarray, b: np.ndarray, biggest: bool) -> np.ndarray:
    """maximum / minimum of two vectors, zero-free of NaN: ``b`` on a tie."""
    return np.where(a > b, a, b) if biggest else np.where(a < b, a, b)


def _reduce_all(x: np.ndarray, biggest: bool, shuffle: bool) -> np.floating:
    lanes = VECTOR_BYTES // x.dtype.itemsize
    n = x.size
    if n < lanes:
        acc, size = x, n
    else:
        acc = x[:lanes].copy()
        d = lanes
        while d < n - n % lanes:
            acc = _vop(acc, x[d:d + lanes], biggest)
            d += lanes
        if n - d > 0:
            tail = n - d
            acc[:tail] = _vop(acc[:tail], x[d:], biggest)
        size = lanes
        if shuffle:
            # VecReduceAllSIMD<float>: lane i meets lane i ^ 4, then i ^ 2, then i ^ 1
            for step in (4, 2, 1):
                acc = _vop(acc, acc[np.arange(lanes) ^ step], biggest)
            return acc[0]
    first = acc[:1]
    for i in range(1, size):
        first = _vop(first, acc[i:i + 1], biggest)
    return first[0]


def zero_sign(flat: np.ndarray, biggest: bool) -> np.floating:
    """The zero (of the sign torch keeps) that max() (``biggest``) or min() of the whole
    contiguous ``flat`` returns, when its extreme is zero and no element is NaN."""
    shuffle = flat.dtype == np.float32 and current().cpu.name in ("AVX2", "AVX512")
    if flat.size <= GRAIN_SIZE or current().cpu.threads == 1:
        return _reduce_all(flat, biggest, shuffle)
    # at::parallel_reduce: one result a thread (ident for a thread without a chunk),
    # folded into ident = data[0] by std::max / std::min, which keep the first on a tie
    parts = [_reduce_all(flat[b:e], biggest, shuffle) for b, e in chunks(flat.size)]
    parts += [flat[0]] * (current().cpu.threads - len(parts))
    result = flat[0]
    for part in parts:
        if (part > result) if biggest else (part < result):
            result = part
    return result
