"""torch.norm, Tensor.norm, torch.linalg.vector_norm / matrix_norm / norm
(engine/ops/norms.py, engine/binding/linalg.py) against torch 2.13: every order tidx
models (2, 1, 0, inf, -inf, any other number; 'fro'; a matrix's 1, -1, inf, -inf), dims,
keepdim, dtype=, strided inputs, errors word for word, the aten operators torch.profiler
records, and the values bit for bit -- the p=2 SIMD rows (multiply then add in the
lanes, the AVX2 build's fused tail) and binary_kernel_reduce's sequential
accumulation -- under every CPU capability this machine runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from engine.core.errors import Refused
from engine.interpreter import session
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

X = "x = torch.tensor([[3., -4., 0.5], [1., 2., -0.0]]); "


@pytest.mark.parametrize("statements", [
    X + "y = x.norm()",
    X + "y = torch.norm(x)",
    X + "y = x.norm(1)",
    X + "y = x.norm(p=0)",
    X + "y = x.norm(float('inf'))",
    X + "y = x.norm(-float('inf'), dim=1)",
    X + "y = x.norm(3)",
    X + "y = x.norm(-1, dim=0, keepdim=True)",
    X + "y = x.norm(0.5, 1)",
    X + "y = x.norm(dim=1)",
    X + "y = x.norm(dim=0)",
    X + "y = x.norm(p='fro')",
    X + "y = x.norm(p='fro', dim=(0, 1))",
    X + "y = x.norm(p=None)",
    X + "y = x.norm(dtype=torch.float64)",
    X + "y = x.t().norm()",
    X + "y = x[:, ::2].norm()",
    X + "y = x.half().norm()",
    X + "y = x.half().norm(dim=1, dtype=torch.float32)",
    X + "y = x.double().norm(2, 0)",
    X + "y = x[:1].norm(dim=0)",
    X + "y = x[:1].norm(0, dim=0)",
    X + "y = x[:1].norm(dim=0, keepdim=True, dtype=torch.float64)",
    X + "y = torch.linalg.vector_norm(x)",
    X + "y = torch.linalg.vector_norm(x, 1, dim=-1)",
    X + "y = torch.linalg.vector_norm(x, ord=float('inf'), dim=(0, 1), keepdim=True)",
    X + "y = torch.linalg.norm(x)",
    X + "y = torch.linalg.norm(x[0])",
    X + "y = torch.linalg.norm(x, 1)",
    X + "y = torch.linalg.norm(x, float('inf'))",
    X + "y = torch.linalg.norm(x, -1, dim=(1, 0))",
    X + "y = torch.linalg.norm(x, 'fro')",
    X + "y = torch.linalg.norm(x, dim=1)",
    X + "y = torch.linalg.norm(x, 3, dim=1)",
    X + "y = torch.linalg.matrix_norm(x)",
    X + "y = torch.linalg.matrix_norm(x, 1)",
    X + "y = torch.linalg.matrix_norm(x, -float('inf'), keepdim=True)",
    X + "y = torch.linalg.matrix_norm(x, ord=float('inf'), dim=(1, 0))",
    "x = torch.tensor(3.); y = x.norm()",
    "x = torch.tensor(-3.); y = x.norm(0)",
    "x = torch.zeros(0, 3); y = x.norm()",
    "x = torch.zeros(0, 3); y = x.norm(dim=0)",
    "x = torch.zeros(0, 3); y = x.norm(-1, dim=1)",
    "x = torch.tensor([float('nan'), 1.]); y = x.norm(float('inf'))",
    # errors
    "x = torch.tensor([3, 4]); y = x.norm()",
    "x = torch.tensor([3, 4]); y = torch.linalg.vector_norm(x)",
    "x = torch.tensor([True]); y = torch.linalg.norm(x)",
    X + "y = x.norm(dtype=torch.int64)",
    X + "y = x.norm(dtype=torch.float16)",
    X + "y = x.norm(p='nucc')",
    X + "y = torch.linalg.norm(x, 'fo')",
    X + "y = torch.linalg.matrix_norm(x, 3)",
    X + "y = torch.linalg.matrix_norm(x[0], 1)",
    X + "y = torch.linalg.matrix_norm(x, 1, dim=(0, 0))",
    X + "y = torch.linalg.matrix_norm(x, 1, dim=(0,))",
    X + "y = torch.linalg.matrix_norm(x.half(), 1)",
    X + "y = torch.linalg.norm(x, 2, dim=(0, 1, 1))",
    X + "y = torch.linalg.norm(x[None], 1)",
    X + "y = torch.linalg.norm(x[None], 'fro')",
    X + "y = x.norm(dim=3)",
    "x = torch.zeros(0, 3); y = x.norm(float('inf'))",
    "x = torch.zeros(0, 3); y = x.norm(-2, dim=0)",
    X + "y = x.norm(keepdims=True)",
])
def test_norms_are_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


def test_orders_that_need_the_singular_values_are_refused():
    for statement in ("y = torch.linalg.matrix_norm(x, 2)", "y = x.norm(p='nuc')",
                      "y = torch.linalg.norm(x, 'nuc')"):
        with pytest.raises(Refused, match="singular values"):
            session.run("x = torch.ones(2, 3); " + statement)


# -- bits under every CPU capability ----------------------------------------------------------
RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


def _tidx(case: tuple, capability: str):
    try:
        return under_capability(capability, run, engine, case)
    except Refused as exc:
        return ("refused", str(exc))


def run(torch, case: tuple) -> tuple:
    """The case on ``torch`` (real torch in a worker, or tidx's engine): the result's
    bits.  Values span many magnitudes, so every rounding shows."""
    p, dtype, shape, layout, dim, keepdim, seed = case
    rng = np.random.default_rng(seed)
    made = list(shape[::-1]) if layout == "transposed" else list(shape)
    if layout == "strided":
        made[-1] *= 2
    n = int(np.prod(made))
    v = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n)).astype(
        {"float16": np.float16, "float32": np.float32, "float64": np.float64}[dtype])
    x = torch.tensor(v.astype(np.float64).tolist(), dtype=getattr(torch, dtype)).reshape(made)
    if layout == "transposed":
        x = x.permute(*range(len(made) - 1, -1, -1))
    elif layout == "strided":
        x = x[..., ::2]
    try:
        out = torch.linalg.vector_norm(x, p, dim, keepdim)
    except RuntimeError as exc:
        return ("error", str(exc))
    return (list(out.shape), str(out.dtype),
            [float.hex(float(e)) if e == e else "nan" for e in out.reshape(-1).tolist()])


@st.composite
def cases(draw):
    p = draw(st.sampled_from([2, 2, 2, 1, 0, 3, 0.5, -1, float("inf"), -float("inf")]))
    dtype = draw(st.sampled_from(["float32", "float32", "float64", "float16"]))
    shape = draw(st.lists(st.integers(1, 40), min_size=1, max_size=3).map(tuple))
    layout = draw(st.sampled_from(["contiguous", "contiguous", "transposed", "strided"]))
    nd = len(shape)
    dim = draw(st.one_of(st.none(), st.integers(-nd, nd - 1),
                         st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd,
                                  unique=True).map(tuple)))
    return (p, dtype, shape, layout, dim, draw(st.booleans()), draw(st.integers(0, 2**16)))


@given(case=cases())
@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_bits_under_every_capability(workers, case):
    for cap, worker in workers.items():
        assert _tidx(case, cap) == worker.call("ops.test_norm_torch", "run", case), cap


@pytest.mark.parametrize("case", [
    (2, "float32", (1000,), "contiguous", None, False, 1),
    (2, "float32", (37, 301), "contiguous", 1, False, 2),
    (2, "float64", (301, 37), "transposed", None, True, 3),
    (2, "float32", (64, 99), "contiguous", 0, False, 4),
    (1, "float32", (500, 30), "strided", (0, 1), False, 5),
    (3, "float64", (20, 500), "contiguous", -1, False, 6),
], ids=str)
def test_long_rows_give_torchs_bits(workers, case):
    for cap, worker in workers.items():
        assert _tidx(case, cap) == worker.call("ops.test_norm_torch", "run", case), cap


def test_long_reductions_split_between_threads_are_refused():
    with pytest.raises(Refused, match="splits them between"):
        session.run("x = torch.ones(40000, 2); y = x.norm(1)")
