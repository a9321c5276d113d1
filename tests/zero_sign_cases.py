"""Whole-tensor max()/min()/aminmax() over zeros of both signs, as one function of the
module it runs on (tests/ops/test_zero_sign_torch.py): ``run(torch, case)`` in a torch
worker under an ATEN_CPU_CAPABILITY, or with tidx's engine under the same capability.
A case is ``(dtype, n, seed)``: values drawn from {0.0, -0.0, -1, -2, 1} (zeros most of
all, so the extreme is often a zero of either sign).  The answer: each result's sign bit
and value."""

from __future__ import annotations

import math

import numpy as np


def run(torch, case: tuple) -> list:
    dtype, n, seed = case
    rng = np.random.default_rng(seed)
    pool = [0.0, -0.0, -1.0, -2.0, 1.0] if seed % 2 else [0.0, -0.0, 1.0, 2.0, -1.0]
    values = rng.choice(np.array(pool), n, p=[0.35, 0.35, 0.1, 0.1, 0.1]).tolist()
    x = torch.tensor(values, dtype=getattr(torch, dtype))
    lo, hi = torch.aminmax(x)
    return [(math.copysign(1.0, v), v) for v in (x.max().item(), x.min().item(), lo.item(),
                                                  hi.item())]
