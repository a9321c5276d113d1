"""logsumexp, quantile, histc and cross cases as one function of the module they run on:
``run(torch, op, case)`` with real torch (in a tests/torch_worker.py process started with
ATEN_CPU_CAPABILITY) or with tidx's engine (in a run whose RunContext has that
capability), so both sides build the same inputs the same way
(tests/ops/test_logsumexp_quantile_torch.py, tests/ops/test_histc_cross_torch.py).

A case is ``(dtype, shape, dim, scale, layout, seed, extra)``: standard normal values times
``scale`` from numpy's generator, made into a tensor with ``torch.tensor`` from their
exact values, contiguous or transposed.  The answer is the result's dtype, shape and
every element as a float.
"""

from __future__ import annotations

import numpy as np


def _input(torch, dtype, shape, scale, layout, seed):
    rng = np.random.default_rng(seed)
    values = (rng.standard_normal(int(np.prod(shape))) * scale).astype(dtype)
    x = torch.tensor(values.astype(np.float64).tolist(), dtype=getattr(torch, dtype))
    if layout == "transposed" and len(shape) == 2:
        return x.reshape(tuple(reversed(shape))).t()
    return x.reshape(shape)


def run(torch, op: str, case: tuple) -> tuple:
    dtype, shape, dim, scale, layout, seed, extra = case
    x = _input(torch, dtype, shape, scale, layout, seed)
    if op == "logsumexp":
        result = torch.logsumexp(x, dim, keepdim=bool(extra))
    elif op in ("quantile", "nanquantile"):
        q, interpolation = extra
        q = torch.tensor(q, dtype=x.dtype) if isinstance(q, list) else q
        result = getattr(torch, op)(x, q, dim, interpolation=interpolation)
    elif op == "histc":
        bins, lo, hi = extra
        result = torch.histc(x, bins, lo, hi)
    else:
        y = _input(torch, dtype, shape, scale, layout, seed + 1)
        result = (torch.linalg.cross(x, y, dim=dim) if op == "linalg.cross"
                  else torch.cross(x, y, dim))
    return (str(result.dtype), list(result.shape), result.reshape(-1).tolist())
