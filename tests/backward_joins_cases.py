"""Backward passes through the joins and index-producing operators whose gradients are
sums (repeat's reshape + sum, gather's scatter_add_, index_select's index_add_, the
value of a masked_fill), as one function of the module they run on: ``run(torch, case)``
with real torch (in a tests/torch_worker.py process started with ATEN_CPU_CAPABILITY) or
with tidx's engine (in a run whose RunContext has that capability)
(tests/ops/test_backward_joins_torch.py).

A case is ``(op, dtype, n, seed)``: a leaf of ``n`` random values (large enough for the
vectorised reductions' bodies and tails), a weight of random values so that the sums
are not of equal terms, and the answer is the leaf's ``.grad``, element by element.
"""

from __future__ import annotations

import numpy as np


def run(torch, case: tuple) -> tuple:
    op, dtype, n, seed = case
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(n).astype(dtype).astype(np.float64).tolist()
    x = torch.tensor(values, dtype=getattr(torch, dtype)).requires_grad_()
    index = torch.tensor(rng.integers(0, n, 3 * n).tolist())
    if op == "repeat":
        y = x.repeat(7, 3)
    elif op == "gather":
        y = x.gather(0, index)
    elif op == "index_select":
        y = x.index_select(0, index)
    else:       # masked_fill with a tensor value: the value's gradient is a sum
        x = torch.tensor(values[0], dtype=getattr(torch, dtype)).requires_grad_()
        base = torch.tensor(values, dtype=getattr(torch, dtype))
        y = base.masked_fill(base > 0, x)
    weight = torch.tensor(rng.standard_normal(list(y.shape)).astype(dtype)
                          .astype(np.float64).tolist(), dtype=getattr(torch, dtype))
    (y * weight).sum().backward()
    return (str(x.grad.dtype), x.grad.reshape(-1).tolist())
