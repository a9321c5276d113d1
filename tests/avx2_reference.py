"""The inputs NormalFill16's AVX2 kernels can see, and the check of a kernel against
the exactly rounded (round-to-odd) avx_mathfun reference of engine.rng.normal_fill.

Test code shared by tests/rng/test_rng.py (numpy kernel) and tests/rng/test_rng_wasm.py
(compiled kernel).  ``TIDX_RNG_EXHAUSTIVE=1`` takes all 2^24 inputs.
"""

from __future__ import annotations

import math
import os
from typing import Callable

import numpy as np

from engine.rng import fp as rng_fp
from engine.rng import normal_fill as rng_normal


def inputs(seed: int, spread: int) -> np.ndarray:
    """d = k * 2^-24 for every k (exhaustive), else the edges and ``spread`` random k."""
    if os.environ.get("TIDX_RNG_EXHAUSTIVE") == "1":
        k = np.arange(2 ** 24)
    else:
        k = np.concatenate([np.arange(4096), 2 ** 24 - 1 - np.arange(4096),
                            2 ** 23 + np.arange(-1024, 1024),
                            3 * 2 ** 22 + np.arange(-1024, 1024),
                            np.random.default_rng(seed).integers(0, 2 ** 24, spread)])
    k = k[: k.size - k.size % 8]
    return k.astype(np.float32) * np.float32(2.0 ** -24)


def check_kernel(fill: Callable[[np.ndarray], None], d: np.ndarray,
                 mean: float = 0.0, std: float = 1.0) -> None:
    """``fill`` (in place on (blocks, 16) float32, with ``mean`` and ``std``) equals the
    reference, ``fmadd(radius * trig, std, mean)`` exactly rounded.

    u1 = 1 - d and u2 = d run through the same values: both halves see every input
    (d = 0 included: u1 = 1 gives radius -0, whose products are zeros of either sign)."""
    m, sd = np.float32(mean), np.float32(std)
    step = 1 << 20
    for s in range(0, d.size, step):
        u = d[s:s + step]
        blocks = np.empty((u.size // 8, 16), np.float32)
        blocks[:, :8] = u.reshape(-1, 8)             # u1 = 1 - u
        blocks[:, 8:] = u.reshape(-1, 8)             # u2 = u
        fill(blocks)
        radius = np.sqrt(np.float32(-2)
                         * rng_normal.reference_log256_ps(np.float32(1) - u))
        sin, cos = rng_normal.reference_sincos256_ps(np.float32(2 * math.pi) * u)
        want_cos = rng_fp.fma32(radius * cos, sd, m).view(np.int32)
        want_sin = rng_fp.fma32(radius * sin, sd, m).view(np.int32)
        assert np.array_equal(blocks[:, :8].reshape(-1).view(np.int32), want_cos)
        assert np.array_equal(blocks[:, 8:].reshape(-1).view(np.int32), want_sin)
