"""std, var, std_mean, var_mean (engine/ops/statistics.py) against torch 2.13: every
overload and call form, correction/unbiased/dim/keepdim, errors word for word, the aten
operators torch.profiler records, and the values bit for bit -- std_var_all_cpu's double
sum in the iterator's order and Welford's update (with FMA under AVX2/AVX512, without under
DEFAULT), checked under every CPU capability this machine runs."""

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

X = "x = torch.tensor([[1., 2., 3.5, -0.25], [4., -5., 6., 1e3], [0.1, 0.2, 0.3, 0.4]])"


@pytest.mark.parametrize("statements", [
    [X, "y = x.std()"], [X, "y = torch.var(x)"], [X, "y = x.std(unbiased=False)"],
    [X, "y = x.var(1)"], [X, "y = x.std(0, True)"], [X, "y = torch.std(x, 1, keepdim=True)"],
    [X, "y = x.var(dim=1, correction=2)"], [X, "y = x.std(dim=(0, 1))"],
    [X, "y = x.var([1, 0], keepdim=True)"], [X, "y = x.std(correction=0)"],
    [X, "y = x.t().var(0)"], [X, "y = x[:, ::2].std(1)"], [X, "y = x.double().var(0)"],
    [X, "y = x.half().std(1)"], [X, "y = x.half().var()"], [X, "y = x[0].std(0)"],
    [X, "y = x.var(-1, unbiased=False, keepdim=True)"],
    [X, "y = x.std(1, correction=4)"], [X, "y = x.std(1, correction=5)"],
    [X, "y = x.var(correction=1.5)"], [X, "y = x[:, :1].std(1)"],
    [X, "y = torch.std_mean(x)"], [X, "y = torch.var_mean(x, 1)"],
    [X, "y = torch.std_mean(x, 0, unbiased=False, keepdim=True)"],
    [X, "y = torch.var_mean(x, dim=1, correction=0)"], [X, "y = torch.std_mean(x.half(), 1)"],
    ["x = torch.empty(0, 3)", "y = x.std(0)"], ["x = torch.empty(0, 3)", "y = x.var()"],
    ["x = torch.empty(0, 3)", "y = torch.var_mean(x, 1)"],
    ["x = torch.tensor(2.5)", "y = x.std()"], ["x = torch.tensor(2.5)", "y = x.var(0)"],
    [X, "o = torch.empty(0)", "y = torch.var(x, 1, out=o)"],
    [X, "o = torch.empty(3)", "y = torch.std(x, 1, correction=0, out=o)"],
    [X, "o = torch.empty(2, 2)", "y = torch.std(x, 1, out=o)"],
    # std and var only support floating point and complex dtypes
    ["i = torch.tensor([1, 2])", "y = i.std()"], ["i = torch.tensor([True])", "y = i.var(0)"],
    ["i = torch.tensor([1, 2])", "y = torch.std_mean(i)"],
    ["i = torch.tensor([1, 2])", "y = torch.var_mean(i, 0)"],
    [X, "y = x.std(2)"], [X, "y = x.var((0, 0))"],
])
def test_std_var_are_torchs(statements):
    assert_like_torch(statements)


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
    """The case on ``torch`` (real torch in a worker, or tidx's engine): every result's
    bits.  The values span many magnitudes around an offset (catastrophic cancellation
    shows every rounding)."""
    op, dtype, shape, layout, dim, correction, keepdim, seed = case
    rng = np.random.default_rng(seed)
    made = list(shape[::-1]) if layout == "transposed" else list(shape)
    if layout == "strided":
        made[-1] *= 2
    n = int(np.prod(made))
    v = (1000.0 + rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n)).astype(
        {"float16": np.float16, "float32": np.float32, "float64": np.float64}[dtype])
    x = torch.tensor(v.astype(np.float64).tolist(), dtype=getattr(torch, dtype)).reshape(made)
    if layout == "transposed":
        x = x.permute(*range(len(made) - 1, -1, -1))
    elif layout == "strided":
        x = x[..., ::2]
    kw = {"correction": correction, "keepdim": keepdim}
    try:
        out = getattr(torch, op)(x, dim, **kw)
    except RuntimeError as exc:
        return ("error", str(exc))
    outs = out if isinstance(out, tuple) else (out,)
    return tuple((list(o.shape), [float.hex(float(e)) if e == e else "nan"
                                  for e in o.reshape(-1).tolist()]) for o in outs)


@st.composite
def cases(draw):
    op = draw(st.sampled_from(["std", "var", "std_mean", "var_mean"]))
    dtype = draw(st.sampled_from(["float32", "float64", "float16"]))
    shape = draw(st.lists(st.integers(1, 9), min_size=1, max_size=3).map(tuple))
    layout = draw(st.sampled_from(["contiguous", "transposed", "strided"]))
    nd = len(shape)
    dim = draw(st.one_of(st.none(), st.integers(-nd, nd - 1),
                         st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd,
                                  unique=True).map(tuple)))
    correction = draw(st.sampled_from([None, 0, 1, 2, 0.5]))
    return (op, dtype, shape, layout, dim, correction, draw(st.booleans()),
            draw(st.integers(0, 2**16)))


@given(case=cases())
@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_bits_under_every_capability(workers, case):
    for cap, worker in workers.items():
        assert _tidx(case, cap) == worker.call("ops.test_statistics", "run", case), cap


@pytest.mark.parametrize("case", [
    ("std", "float32", (40000,), "contiguous", None, None, False, 1),   # two threads' sums
    ("var", "float64", (300, 200), "transposed", None, 1, False, 2),
    ("std", "float32", (7, 9000), "strided", (0, 1), 0, False, 3),
    ("var", "float32", (5, 3000), "contiguous", 1, None, False, 4),    # long Welford rows
    ("std", "float64", (4, 33, 5), "transposed", (0, 2), None, True, 5),
], ids=str)
def test_large_and_permuted_reductions_give_torchs_bits(workers, case):
    for cap, worker in workers.items():
        assert _tidx(case, cap) == worker.call("ops.test_statistics", "run", case), cap


def test_long_welford_reductions_split_between_threads_are_refused():
    with pytest.raises(Refused, match="Welford partial results"):
        session.run("x = torch.ones(2, 40000); y = x.std(1)")


# -- trace, diff, nansum -----------------------------------------------------------------------
M = "m = torch.tensor([[1.5, -2., 0.1], [float('nan'), 2., -0.5], [1e30, 1e-30, 7.]])"


@pytest.mark.parametrize("statements", [
    [M, "y = m.trace()"], [M, "y = torch.trace(m[:, :2])"], [M, "y = m.t().trace()"],
    [M, "y = m.half().trace()"], [M, "y = m.double()[1:].trace()"],
    ["i = torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8)", "y = i.trace()"],
    ["b = torch.tensor([[True, False], [False, True]])", "y = b.trace()"],
    [M, "y = m[0].trace()"], ["e = torch.empty(0, 3)", "y = e.trace()"],
    [M, "y = m.diff()"], [M, "y = torch.diff(m, dim=0)"], [M, "y = m.diff(n=2, dim=0)"],
    [M, "y = m.diff(n=5)"], [M, "y = m.diff(n=0)"], [M, "y = m.t().diff(1, 1)"],
    [M, "y = m.diff(prepend=m[:, :1])"], [M, "y = m.diff(append=m, dim=0)"],
    [M, "y = m.diff(prepend=m[:, :1], append=m[:, 2:], n=2)"],
    ["b = torch.tensor([True, False, False, True])", "y = b.diff()"],
    ["i = torch.tensor([1, 4, 9, 16])", "y = torch.diff(i, 2)"],
    [M, "y = m.diff(n=-1)"], ["s = torch.tensor(1.)", "y = s.diff()"],
    [M, "y = m.diff(prepend=m[0])"], [M, "y = m.diff(append=m[:2, :1])"], [M, "y = m.diff(dim=2)"],
    [M, "y = m.nansum()"], [M, "y = m.nansum(1)"], [M, "y = torch.nansum(m, 0, keepdim=True)"],
    [M, "y = m.nansum(dtype=torch.float64)"], [M, "y = m.half().nansum(1)"],
    [M, "y = m.t().nansum(0)"], ["i = torch.tensor([[1, 2], [3, 4]])", "y = i.nansum()"],
    ["i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int8)", "y = i.nansum(0)"],
    ["b = torch.tensor([True, True])", "y = b.nansum()"], ["e = torch.empty(0, 3)", "y = e.nansum(0)"],
])
def test_trace_diff_nansum_are_torchs(statements):
    assert_like_torch(statements)


@given(values=st.lists(st.floats(-1e6, 1e6, width=32) | st.just(float("nan")), min_size=1,
                       max_size=300), cols=st.integers(1, 7),
       dtype=st.sampled_from(["float32", "float64"]), dim=st.sampled_from([None, 0, 1]))
@settings(max_examples=examples(60), deadline=None)
def test_nansum_gives_torchs_bits(values, cols, dtype, dim):
    def program(lib):
        rows = len(values) // cols
        t = lib.tensor(values[:rows * cols] or [0.0], dtype=getattr(lib, dtype))
        t = t.reshape(max(rows, 1), -1)
        return t.nansum() if dim is None else t.nansum(dim)
    assert_like_torch(program)


@pytest.mark.parametrize("statements", [
    [M, "y = m.nanmean()"], [M, "y = m.nanmean(1)"], [M, "y = torch.nanmean(m, 0, keepdim=True)"],
    [M, "y = m.nanmean(dtype=torch.float64)"], [M, "y = m.t().nanmean(0)"],
    ["n = torch.tensor([float('nan'), float('nan')])", "y = n.nanmean()"],
    ["i = torch.tensor([1, 2])", "y = i.nanmean()"], ["e = torch.empty(0, 3)", "y = e.nanmean(0)"],
])
def test_nanmean_is_torchs(statements):
    assert_like_torch(statements)
