"""histc (engine/ops/histogram.py) and cross / linalg.cross (engine/ops/cross.py) against
torch 2.13: values bit for bit (histc's bin index computed in the input's dtype, half's
roundings and its count stopping at 2048 per thread, the threads' rows summed; cross's
a*b - c*d in the kernel's order), layouts, dtypes (the wrong ones too), strided inputs,
NaN and infinities, errors word for word, the aten operators torch.profiler records
(histc > empty, empty, reshape, [aminmax, item, item], linspace, fill_, reshape, zeros,
sum), grad_fn names, under every CPU capability this machine runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import stats2_cases
from conftest import examples
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

NAN = "float('nan')"
INF = "float('inf')"
X = "x = torch.tensor([[0.5, 1., 2.5, 3.], [-1., 0., 9., 2.]])"


# -- histc ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("statements", [
    [X, "y = torch.histc(x, 4)"], [X, "y = torch.histc(x, 4, 0, 10)"],
    [X, "y = x.histc()"], [X, "y = x.histc(bins=3, min=1, max=3)"],
    [X, "y = torch.histc(x.t(), 5)"], [X, "y = torch.histc(x[:, ::2], 5, -1, 1)"],
    [X, "y = torch.histc(x.double(), 3, 2, 2)"], [X, "y = torch.histc(x.half(), 3)"],
    [X, "y = torch.histc(x, 3, 1, True)"], [X, "y = torch.histc(x, 3, 5, 5)"],
    [X, "y = torch.histc(x, 3, 1e-7, 1e20)"],
    ["y = torch.histc(torch.zeros(0), 3)"], ["y = torch.histc(torch.tensor(2.), 3)"],
    ["y = torch.histc(torch.ones(5), 3)"],
    [f"y = torch.histc(torch.tensor([1., {NAN}, {INF}, -{INF}]), 4, 0, 3)"],
    # past 2048 per thread a half count stops (two threads of 2500)
    ["y = torch.histc(torch.full((5000,), 1.).half(), 2, 0, 2)"],
    ["y = torch.histc(torch.full((3000,), 1.).half(), 2, 0, 2)"],
    # out=
    [X, "y = torch.empty(0)", "z = torch.histc(x, 3, out=y)"],
    [X, "y = torch.empty(7)", "z = torch.histc(x, 3, out=y)"],
    # errors, word for word, after the operators torch runs first
    [X, "y = torch.histc(x, 0)"], [X, "y = torch.histc(x, -1)"],
    [X, "y = torch.histc(x, 4, 5, 1)"],
    [X, "y = torch.histc(x.long(), 4)"], [X, "y = torch.histc(x.long(), 4, 0, 3)"],
    [X, "y = torch.histc(x.int(), 4, 0, 3)"], [X, "y = torch.histc(x.bool(), 3)"],
    [X, "y = torch.histc(x, 4, 0, float('inf'))"], [X, "y = torch.histc(x, 3, float('nan'), 1)"],
    [X, "y = torch.histc(x, 3, float('-inf'), 1)"],
    [f"y = torch.histc(torch.tensor([1., {NAN}]), 4)"],
    [f"y = torch.histc(torch.tensor([{NAN}]), 4)"],
    [f"y = torch.histc(torch.tensor([{NAN}] * 20), 4)"],
    [f"y = torch.histc(torch.tensor([1., {NAN}]).double(), 4)"],
    [X, "y = torch.histc(x, 3, out=torch.empty(0, dtype=torch.double))"],
    [X, "y = torch.histc(x.long(), 3, out=torch.empty(0))"],
    [X, "y = torch.histc(x.half(), 3, out=torch.empty(0))"],
])
def test_histc_is_torchs(statements):
    assert_like_torch(statements, names=("y", "z"))


def test_a_reduced_nan_has_torchs_bits():
    """aminmax over more than one element returns Vectorized's NaN (every bit set, half's
    0xfe00), which histc's message prints as -nan; one element keeps its own."""
    for dtype, ints in (("float32", "int32"), ("float64", "int64"), ("float16", "int16")):
        assert_like_torch(lambda lib: [t.view(getattr(lib, ints)).item() for t in lib.aminmax(
            lib.tensor([1., float("nan"), 2.], dtype=getattr(lib, dtype)))])
    assert_like_torch(lambda lib: lib.aminmax(lib.tensor([float("nan")]))[0]
                      .view(lib.int32).item())


EDGES = [0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 0.7, 1e-8, 100.0, 3.0, 2.5]


@given(values=st.lists(st.one_of(st.sampled_from(EDGES + [float("nan"), float("inf")]),
                                 st.floats(-4, 4, width=16)), min_size=0, max_size=40),
       repeat=st.sampled_from([1, 1, 7, 60]),
       dtype=st.sampled_from(["float32", "float64", "float16"]),
       bins=st.integers(1, 13), range_=st.sampled_from(
           [(0, 0), (0, 1), (-1, 1), (0.1, 0.7), (-3, 2.5), (1, 1), (1e-8, 3.0), (0, 1 / 3)]),
       strided=st.booleans(), method=st.booleans(), out=st.booleans())
@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
def test_histc_of_any_values_bins_and_range_is_torchs_bit_for_bit(values, repeat, dtype,
                                                                  bins, range_, strided,
                                                                  method, out):
    """Elements on and near the edges land where torch's float (or half) arithmetic puts
    them; past 200 elements the threads' rows are counted apart and summed."""
    lo, hi = range_

    def program(lib):
        t = lib.tensor(values * repeat, dtype=getattr(lib, dtype))
        if strided and t.numel() > 1:
            t = t[::2]
        if out:
            o = lib.empty(0, dtype=t.dtype)
            lib.histc(t, bins, lo, hi, out=o)
            return o
        return t.histc(bins, lo, hi) if method else lib.histc(t, bins=bins, min=lo, max=hi)
    # aminmax (the range when min == max) over data whose extreme is both zeros keeps
    # the one torch's vector loop keeps (engine/ops/reduce_all.py)
    assert_like_torch(program)


@given(n=st.integers(1, 12), bins=st.integers(1, 9), dtype=st.sampled_from(
    ["float32", "float64", "float16"]))
@settings(max_examples=examples(40), deadline=None)
def test_histc_of_any_layout_records_torchs_operators(n, bins, dtype):
    assert_like_torch([f"x = torch.arange({2 * n}.).reshape(2, {n}).to(torch.{dtype}).t()",
                       f"y = torch.histc(x, {bins})"])


def test_histc_of_a_tensor_that_requires_grad_makes_no_node():
    """derivatives.yaml's histc row says only output_differentiability: [False]: torch
    makes no node and the result does not require grad (tidx's table has such rows as
    "-")."""
    assert_like_torch(lambda lib: lib.histc(lib.ones(3, requires_grad=True), 3))
    assert_like_torch(["x = torch.ones(3, requires_grad=True)", "y = torch.histc(x, 3)",
                       "z = torch.any(x > 0)"], names=("y", "z"))
    assert_like_torch(lambda lib: lib.histc(lib.ones(3, requires_grad=True).detach(), 3))


RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


H_CASES = [(dtype, (n,), None, 3.0, "contiguous", seed, (bins, lo, hi))
           for dtype in ("float32", "float64", "float16")
           for n, seed in ((199, 1), (201, 2), (5001, 3))
           for bins, lo, hi in ((10, 0, 0), (7, -2.5, 2.5))]


@pytest.mark.parametrize("case", H_CASES, ids=str)
def test_histc_bit_for_bit_under_every_capability(workers, case):
    for cap, worker in workers.items():
        theirs = worker.call("stats2_cases", "run", "histc", case)
        ours = under_capability(cap, stats2_cases.run, engine, "histc", case)
        assert ours == theirs, cap


# -- cross and linalg.cross -----------------------------------------------------------------------
A = "a = torch.tensor([[1., 2., 3.], [4., 5., 6.], [0.1, 0.2, 0.3], [7., -8., 9.]])"
B = "b = torch.tensor([[0.7, 2., -3.], [1., 0.3, 6.], [5., 0.2, 1.3], [2., 8., 0.9]])"


@pytest.mark.parametrize("statement", [
    "y = torch.cross(a, b)", "y = torch.cross(a, b, 1)", "y = a.cross(b, dim=-1)",
    "y = torch.linalg.cross(a, b)", "y = torch.linalg.cross(a.t(), b.t(), dim=0)",
    "y = torch.cross(a.t().contiguous(), b.t().contiguous())",
    "y = torch.cross(a.t(), b.t(), 0)", "y = torch.linalg.cross(a, b[:1])",
    "y = torch.cross(a[:1], b)", "y = torch.linalg.cross(a, b[None])",
    "y = torch.cross(a.long(), b.long(), 1)", "y = torch.cross(a.half(), b.half(), 1)",
    "y = torch.cross(a.double(), b.double())", "y = torch.linalg.cross(a[:0], b[:0])",
    "y = torch.cross(a[:3, :3], b[:3, :3])",
    f"y = torch.linalg.cross(a, b * {INF})", f"y = torch.linalg.cross(a * {NAN}, b)",
    # out=
    "y = torch.empty(0); z = torch.linalg.cross(a, b, out=y)",
    "y = torch.empty(2); z = torch.cross(a, b, 1, out=y)",
    "y = torch.empty(0); z = torch.cross(a, b, out=y)",
    # errors, word for word
    "y = torch.linalg.cross(a.t(), b.t())", "y = torch.cross(a.t(), b.t(), 1)",
    "y = torch.cross(a[:, :2], b[:, :2])", "y = torch.linalg.cross(a, b, dim=5)",
    "y = torch.linalg.cross(a, b[:2])", "y = torch.cross(a, b.double(), 1)",
    "y = torch.cross(a.double(), b, 1)", "y = torch.cross(a.bool(), b.bool(), 1)",
    "y = torch.linalg.cross(a, b[0])",
    "y = torch.linalg.cross(a, b, out=torch.empty(0, dtype=torch.double))",
])
def test_cross_is_torchs(statement):
    assert_like_torch([A, B] + statement.split("; "), names=("y", "z"))


@given(batch=st.lists(st.integers(1, 3), min_size=0, max_size=2), data=st.data(),
       dtype=st.sampled_from(["float32", "float64", "float16", "int64", "int32"]),
       linalg=st.booleans(), transpose=st.booleans(), seed=st.integers(0, 2**16))
@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
def test_cross_of_any_batch_dim_and_dtype_is_torchs_bit_for_bit(batch, data, dtype, linalg,
                                                               transpose, seed):
    nd = len(batch) + 1
    at = data.draw(st.integers(0, nd - 1))
    shape = batch[:at] + [3] + batch[at:]
    other = [1 if data.draw(st.booleans()) else n for n in shape]
    other[at] = 3
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(int(np.prod(shape))) * 10).round(3).tolist()
    y = (rng.standard_normal(int(np.prod(other))) * 10).round(3).tolist()
    dim = data.draw(st.sampled_from([at, at - nd]))

    def program(lib):
        u = lib.tensor(x, dtype=lib.float64).reshape(shape).to(getattr(lib, dtype))
        v = lib.tensor(y, dtype=lib.float64).reshape(other).to(getattr(lib, dtype))
        if transpose and nd > 1:
            u = u.transpose(0, -1).contiguous().transpose(0, -1)
        return lib.linalg.cross(u, v, dim=dim) if linalg else lib.cross(u, v, dim)
    assert_like_torch(program)


def test_cross_records_torchs_grad_fn():
    assert_like_torch(lambda lib: lib.cross(lib.ones(2, 3, requires_grad=True),
                                            lib.ones(2, 3), 1).grad_fn.name())
    assert_like_torch(lambda lib: lib.linalg.cross(lib.ones(3), lib.ones(3, requires_grad=True))
                      .grad_fn.name())


C_CASES = [(dtype, (n, 3), -1, 10.0, layout, seed, None)
           for dtype in ("float32", "float64", "float16")
           for n, layout, seed in ((2000, "contiguous", 1), (700, "transposed", 2))]


@pytest.mark.parametrize("case", C_CASES, ids=str)
@pytest.mark.parametrize("op", ["cross", "linalg.cross"])
def test_cross_bit_for_bit_under_every_capability(workers, case, op):
    """Each line fused (one rounding of a1*b2) in the AVX2 build, two roundings in
    DEFAULT: about three quarters of the elements differ between the two."""
    for cap, worker in workers.items():
        theirs = worker.call("stats2_cases", "run", op, case)
        ours = under_capability(cap, stats2_cases.run, engine, op, case)
        assert ours == theirs, cap
