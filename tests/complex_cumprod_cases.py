"""Complex cumprod cases as one function of the module they run on: ``run(torch, case)``
with real torch (in a tests/torch_worker.py process started with ATEN_CPU_CAPABILITY) or
with tidx's engine (in a run with that capability), both building the same input from
numpy's generator (tests/ops/test_complex_cumprod_torch.py).

A case is ``(dtype, shape, dim, scale, layout, seed)``; the answer is the result's dtype,
shape and every element's repr (both halves' doubles exactly)."""

from __future__ import annotations

import numpy as np


def run(torch, case: tuple) -> tuple:
    dtype, shape, dim, scale, layout, seed = case
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    values = (rng.standard_normal(n) + 1j * rng.standard_normal(n)) * scale
    x = torch.tensor(values.tolist(), dtype=getattr(torch, dtype)).reshape(shape)
    if layout == "transposed" and len(shape) == 2:
        x = x.t()
    result = torch.cumprod(x, dim)
    flat = result.reshape(-1).tolist()
    return str(result.dtype), list(result.shape), [repr(v) for v in flat]
