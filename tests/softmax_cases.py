"""softmax and log_softmax cases as one function of the module they run on: ``run(torch,
case)`` with real torch (in a tests/torch_worker.py process started with
ATEN_CPU_CAPABILITY) or with tidx's engine (in a run whose RunContext has that
capability), so both sides build the same inputs the same way
(tests/ops/test_softmax_torch.py).

A case is ``(op, dtype, shape, dim, scale, layout, seed)``: standard normal values times
``scale`` from numpy's generator, made into a tensor with ``torch.tensor`` from their
exact values, contiguous or transposed (the kernel's ``contiguous()`` copy).  The
answer is the result's dtype, shape and every element as a float.
"""

from __future__ import annotations

import numpy as np


def run(torch, case: tuple) -> tuple:
    op, dtype, shape, dim, scale, layout, seed = case
    rng = np.random.default_rng(seed)
    values = (rng.standard_normal(int(np.prod(shape))) * scale).astype(dtype)
    x = torch.tensor(values.astype(np.float64).tolist(), dtype=getattr(torch, dtype))
    x = x.reshape(shape)
    if layout == "transposed":
        x = x.reshape(tuple(reversed(shape))).t() if len(shape) == 2 else x
    result = getattr(torch, op)(x, dim)
    return (str(result.dtype), list(result.shape), result.reshape(-1).tolist())
