"""gelu and silu cases as one function of the module they run on: ``run(torch, case)``
with real torch (in a tests/torch_worker.py process started with ATEN_CPU_CAPABILITY) or
with tidx's engine (in a run whose RunContext has that capability)
(tests/ops/test_functional_torch.py).

A case is ``(op, approximate, dtype, n, layout, seed)``: ``n`` values over many
magnitudes and both signs (with 0 and -0), contiguous or every second element of a
longer tensor.  The answer is the inputs, the result's dtype and every element.
"""

from __future__ import annotations

import numpy as np


def run(torch, case: tuple) -> tuple:
    op, approximate, dtype, n, layout, seed = case
    rng = np.random.default_rng(seed)
    v = np.concatenate([rng.standard_normal(n) * 4, rng.uniform(-40, 40, n)])
    v[:2] = [0.0, -0.0]
    v = v.astype(dtype)
    x = torch.tensor(np.repeat(v, 2 if layout == "strided" else 1).astype(np.float64).tolist(),
                     dtype=getattr(torch, dtype))
    if layout == "strided":
        x = x[::2]
    if hasattr(torch, "nn"):
        fn = getattr(torch.nn.functional, op)
    else:       # tidx's engine: its torch.nn.functional (engine/binding/nn_functional.py)
        from engine.binding import nn_functional
        fn = nn_functional.functions()[op]
    result = fn(x, approximate=approximate) if op == "gelu" else fn(x)
    return (v.astype(np.float64).tolist(), str(result.dtype), result.reshape(-1).tolist())
