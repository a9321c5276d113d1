"""Backward passes through the pointwise math formulas whose operators run vectorised
loops (Sleef, MKL, the CPU capability's Vectorized<T>), as one function of the module
they run on: ``run(torch, case)`` with real torch (in a tests/torch_worker.py process
started with ATEN_CPU_CAPABILITY) or with tidx's engine (in a run whose RunContext has
that capability) (tests/ops/test_backward_math_torch.py).

A case is ``(op, dtype, n, seed)``: a leaf of ``n`` random values (long enough for a
vector loop's body and its tail), a second operand where the op takes one, and a random
weight on the output so the incoming gradient is not all ones; the answer is the leaf's
``.grad`` and the leaf's values (the bound of gelu/silu's backward scales with them).
"""

from __future__ import annotations

import numpy as np

CALLS = {
    "abs": lambda torch, x, w: x.abs(),
    "clamp": lambda torch, x, w: x.clamp(-0.5, 0.75),
    "maximum": lambda torch, x, w: torch.maximum(x, w),
    "atan2": lambda torch, x, w: torch.atan2(x, w),
    "rsqrt": lambda torch, x, w: (x.abs() + 0.25).rsqrt(),
    "reciprocal": lambda torch, x, w: (x.abs() + 0.25).reciprocal(),
    "pow": lambda torch, x, w: (x.abs() + 0.5).pow(w),
    "exp2": lambda torch, x, w: x.exp2(),
    "expm1": lambda torch, x, w: x.expm1(),
    "tan": lambda torch, x, w: (x * 0.5).tan(),
    "erf": lambda torch, x, w: x.erf(),
    "gelu": lambda torch, x, w: _functional(torch, "gelu")(x),
    "gelu_tanh": lambda torch, x, w: _functional(torch, "gelu")(x, approximate="tanh"),
    "silu": lambda torch, x, w: _functional(torch, "silu")(x),
}


def _functional(torch, name: str):
    if hasattr(torch, "nn"):
        return getattr(torch.nn.functional, name)
    # tidx's engine: its torch.nn.functional (engine/binding/nn_functional.py)
    from engine.binding import nn_functional
    return nn_functional.functions()[name]


def run(torch, case: tuple) -> tuple:
    op, dtype, n, seed = case
    rng = np.random.default_rng(seed)

    def tensor(scale: float):
        values = (rng.standard_normal(n) * scale).astype(dtype).astype(np.float64).tolist()
        return torch.tensor(values, dtype=getattr(torch, dtype))

    x = tensor(2.).requires_grad_()
    w = tensor(1.)
    weight = tensor(1.)
    (CALLS[op](torch, x, w) * weight).sum().backward()
    return (str(x.grad.dtype), x.grad.tolist(), x.detach().tolist(), weight.tolist())
