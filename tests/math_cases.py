"""Elementwise math cases as one function of the module they run on: ``run(torch, case)``
with real torch (in a tests/torch_worker.py process started with ATEN_CPU_CAPABILITY) or
with tidx's engine (in a run whose RunContext has that capability), so both sides build
the same inputs the same way (tests/ops/test_math_unary.py).

A case is ``(op, dtype, n, layout, seed, kwargs)``: ``n`` values from numpy's generator
seeded with ``seed`` over many magnitudes and both signs (with 0, -0, ±inf, NaN and
halves among them), made into a tensor with ``torch.tensor`` from their exact values:
contiguous, every second element of a longer one, or the transpose of a matrix.  The
answer is the result's dtype, shape and every element's bits.
"""

from __future__ import annotations

import math

import numpy as np

SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 0.5, -0.5, 1.5, 2.5, -2.5, 1.0]


def values(op: str, n: int, dtype: str, seed: int) -> list[float]:
    rng = np.random.default_rng(seed)
    if op in ("asin", "acos"):
        v = rng.uniform(-1.05, 1.05, n)
    elif op in ("exp", "exp2", "expm1", "sinh", "cosh", "sigmoid"):
        v = rng.uniform(-80, 80, n)
    else:
        v = rng.standard_normal(n) * 10.0 ** rng.uniform(-4, 6, n)
    v[: min(n, len(SPECIAL))] = SPECIAL[: min(n, len(SPECIAL))]
    rng.shuffle(v)
    with np.errstate(over="ignore"):    # beyond float16's range: infinities, as torch casts
        return v.astype({"float16": np.float16, "float32": np.float32,
                         "float64": np.float64}[dtype]).astype(np.float64).tolist()


def _bits(v: float) -> str:
    return "nan" if v != v else float.hex(v)


def run(torch, case: tuple) -> tuple:
    op, dtype, n, layout, seed, kwargs = case
    flat = values(op, n * (2 if layout == "strided" else 1), dtype, seed)
    x = torch.tensor(flat, dtype=getattr(torch, dtype))
    if layout == "strided":
        x = x[::2]
    elif layout == "transposed" and n % 2 == 0:
        x = x.reshape(2, n // 2).t()
    try:
        result = getattr(torch, op)(x, **kwargs)
    except (RuntimeError, NotImplementedError) as exc:
        return ("error", type(exc).__name__, str(exc))
    return ("ok", str(result.dtype), list(result.shape),
            [_bits(v) for v in result.reshape(-1).tolist()])
