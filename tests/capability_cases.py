"""The cases whose bits depend on ATen's CPU capability, as one function of the module
they run on: ``run(torch, case)`` with real torch (in a tests/torch_worker.py process
started with ATEN_CPU_CAPABILITY) or with tidx's engine (``import engine``, in a run whose
RunContext has that capability), so both sides build the same inputs the same way.

A case is ``(op, dtype, shape, layout, seed, params)``; the inputs come from numpy's
generator seeded with ``seed`` (values of many magnitudes for sums, near 1 for products,
ties of +0.0 and -0.0 for amax/amin), made into a tensor with ``torch.tensor`` from their
exact values. The answer is every element's bits (``float.hex``: -0.0 and 0.0 differ).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

REDUCTIONS = ("sum", "mean", "prod", "cumsum", "amax", "amin")
FACTORIES = ("linspace", "logspace")
SAMPLERS = ("multinomial", "poisson", "log_normal_")
OPS = REDUCTIONS + FACTORIES + ("index_add",) + SAMPLERS


def _np_dtype(dtype: str) -> Any:
    return {"float16": np.float16, "float32": np.float32, "float64": np.float64}[dtype]


def _values(op: str, n: int, dtype: str, rng: np.random.Generator, nan: bool) -> list:
    if op == "prod":
        v = 1.0 + 0.05 * rng.standard_normal(n)
    elif op in ("amax", "amin"):
        # the extreme is a zero most of the time: which of +0.0 and -0.0 wins is the
        # vector loop's order
        sign = -1.0 if op == "amax" else 1.0
        v = rng.choice(np.array([0.0, -0.0, 1.5, 2.0, 0.25]), n) * sign
    else:
        v = rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n)
    v = v.astype(_np_dtype(dtype))
    if nan and n:
        v[rng.integers(0, n)] = np.nan
    return v.astype(np.float64).tolist()


def _tensor(torch, op: str, dtype: str, shape: tuple[int, ...], layout: str,
            rng: np.random.Generator, nan: bool = False):
    """A tensor of ``shape``: contiguous, the transpose of a contiguous one, or every
    second column of a wider one."""
    made = list(shape)
    if layout == "transposed":
        made = made[::-1]
    elif layout == "strided":
        made[-1] *= 2
    n = int(np.prod(made))
    flat = torch.tensor(_values(op, n, dtype, rng, nan), dtype=getattr(torch, dtype))
    x = flat.reshape(made)
    if layout == "transposed":
        x = x.t()
    elif layout == "strided":
        x = x[..., ::2]
    return x


def _bits(v: float) -> str:
    return ("-nan" if math.copysign(1.0, v) < 0 else "nan") if v != v else float.hex(v)


def _answer(result) -> tuple:
    return ("ok", str(result.dtype), list(result.shape),
            [_bits(v) for v in result.reshape(-1).tolist()])


def _sampled(torch, op: str, dtype: str, shape: tuple[int, ...], rng: np.random.Generator,
             seed: int, params: dict) -> tuple:
    """A sampler's draws from torch's CPU generator seeded with ``seed``, and the next two
    uniforms (where the generator was left)."""
    n = int(np.prod(shape))
    made = getattr(torch, dtype)
    if op == "multinomial":
        weights = (rng.random(n) * (rng.random(n) < 0.8)).tolist()
        p = torch.tensor(weights, dtype=made).reshape(shape)
        torch.manual_seed(seed)
        result = torch.multinomial(p, params["k"], params.get("replacement", False)).double()
    elif op == "poisson":
        rates = torch.tensor((rng.random(n) * params["scale"]).tolist(), dtype=made)
        torch.manual_seed(seed)
        result = torch.poisson(rates.reshape(shape))
    else:
        torch.manual_seed(seed)
        result = torch.empty(shape, dtype=made).log_normal_(params["mean"], params["std"])
    after = _answer(torch.rand(2, dtype=torch.float64))
    return _answer(result) + after[3:]


def run(torch, case: tuple) -> tuple:
    """The case's result on ``torch`` (real torch or tidx's engine): its dtype, shape and
    the bits of every element; or the error it raised (class and message)."""
    op, dtype, shape, layout, seed, params = case
    rng = np.random.default_rng(seed)
    try:
        if op in REDUCTIONS:
            x = _tensor(torch, op, dtype, tuple(shape), layout, rng, params.get("nan", False))
            dim, keepdim = params.get("dim"), params.get("keepdim", False)
            if op == "cumsum":
                return _answer(x.cumsum(dim))
            if op in ("amax", "amin"):
                fn = getattr(x, op)
                return _answer(fn() if dim is None else fn(dim, keepdim))
            if op == "prod":
                return _answer(x.prod() if dim is None else x.prod(dim, keepdim))
            fn = getattr(x, op)
            return _answer(fn() if dim is None else fn(dim, keepdim))
        if op == "linspace":
            return _answer(torch.linspace(params["start"], params["end"], params["steps"],
                                          dtype=getattr(torch, dtype)))
        if op == "logspace":
            return _answer(torch.logspace(params["start"], params["end"], params["steps"],
                                          params["base"], dtype=getattr(torch, dtype)))
        if op == "index_add":
            dim, m, alpha = params["dim"], params["m"], params["alpha"]
            target = _tensor(torch, "sum", dtype, tuple(shape), layout, rng)
            src_shape = list(shape)
            src_shape[dim] = m
            source = _tensor(torch, "sum", dtype, tuple(src_shape), "contiguous", rng)
            index = torch.tensor(rng.integers(0, shape[dim], m).tolist())
            if params.get("out") is None:
                return _answer(target.index_add_(dim, index, source, alpha=alpha))
            # index_add.out: the same kernel into an out= tensor, resized from empty or
            # of the right shape with its own (transposed) strides
            out = (torch.empty(0, dtype=getattr(torch, dtype)) if params["out"] == "empty" else
                   torch.empty(tuple(shape)[::-1], dtype=getattr(torch, dtype)).t())
            return _answer(torch.index_add(target, dim, index, source, alpha=alpha, out=out))
        if op in SAMPLERS:
            return _sampled(torch, op, dtype, tuple(shape), rng, seed, params)
        raise ValueError(f"unknown case {op!r}")
    except (RuntimeError, IndexError, ValueError, TypeError, NotImplementedError) as exc:
        return ("error", type(exc).__name__, str(exc))   # (tidx's refusals propagate)
