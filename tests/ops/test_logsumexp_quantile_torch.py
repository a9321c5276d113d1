"""logsumexp (engine/ops/logsumexp.py) and quantile/nanquantile (engine/ops/quantile.py)
against torch 2.13: call forms, dims, keepdim, integer and bool inputs (promoted to the
default dtype), 0-dim and empty tensors, strided inputs, infinities and NaN, errors word
for word, the aten operators torch.profiler records (logsumexp > empty, logsumexp.out >
[to], real, amax, squeeze, abs, eq, masked_fill_, sub, exp_, sum, log_, add_), the
grad_fn torch records, and values: logsumexp within the bound its step states (torch's
exp and log are MKL's) under every CPU capability this machine runs, quantile bit for bit
(its sort, gather and lerp are replayed)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import stats2_cases
from conftest import examples, require_torch
from engine.interpreter import session, verify
from engine.ops.logsumexp import LOGSUMEXP_EPS
from oracle import assert_like_torch, assert_within
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

NINF = "float('-inf')"
INF = "float('inf')"
NAN = "float('nan')"
#: rows whose logsumexp every exp and log gives exactly (one element at the max, the
#: others -inf: exp(0) = 1, exp(-inf) = 0, log(1) = 0)
X = f"x = torch.tensor([[{NINF}, 2., {NINF}], [-1., {NINF}, {NINF}]])"


# -- logsumexp --------------------------------------------------------------------------------
@pytest.mark.parametrize("statements", [
    [X, "y = torch.logsumexp(x, 1)"], [X, "y = x.logsumexp(-1, keepdim=True)"],
    [X, "y = torch.logsumexp(x, (0, 1))"], [X, "y = torch.logsumexp(x, [1, 0], True)"],
    [X, "y = torch.logsumexp(x.t(), 0)"], [X, "y = torch.logsumexp(x[:, ::2], 1)"],
    ["y = torch.logsumexp(torch.tensor(2.5), 0)"],
    ["y = torch.logsumexp(torch.tensor(2.5, dtype=torch.float64), -1, True)"],
    # empty: exp, sum, log_ (no max of nothing)
    ["y = torch.logsumexp(torch.zeros(0, 3), 0)"], ["y = torch.logsumexp(torch.zeros(0, 3), 1)"],
    ["y = torch.logsumexp(torch.zeros(2, 0), 1, keepdim=True)"],
    # infinities: an infinite max is taken as 0
    [f"y = torch.logsumexp(torch.tensor([{INF}, 1.]), 0)"],
    [f"y = torch.logsumexp(torch.tensor([{NINF}, {NINF}]), 0)"],
    [f"y = torch.logsumexp(torch.tensor([{NAN}, 1.]), 0)"],
    [f"y = torch.logsumexp(torch.tensor([{INF}, {NINF}]), 0)"],
    # integers and bools: cast to the default dtype inside logsumexp.out
    ["y = torch.logsumexp(torch.tensor([[0, 0]]) - 100, 0)"],
    ["y = torch.logsumexp(torch.tensor([True]), 0)"],
    # out=
    [X, "y = torch.empty(0)", "z = torch.logsumexp(x, 1, out=y)"],
    [X, "y = torch.empty(5)", "z = torch.logsumexp(x, 1, out=y)"],
    # errors, word for word
    [X, "y = torch.logsumexp(x, 2)"], [X, "y = torch.logsumexp(x, (0, 0))"],
    [X, "y = torch.logsumexp(x, ())"], [X, "y = torch.logsumexp(x)"],
    [X, "y = torch.logsumexp(x, 1, out=torch.empty(0, dtype=torch.long))"],
    [X, "y = torch.logsumexp(x, 1, out=torch.empty(0, dtype=torch.bool))"],
    ["y = torch.logsumexp(torch.zeros(0, 3), ())"],
])
def test_logsumexp_is_torchs(statements):
    assert_like_torch(statements, names=("y", "z"))


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.lists(st.integers(0, 5), min_size=0, max_size=3), data=st.data(),
       dtype=st.sampled_from(["float32", "float64", "float16", "int64", "uint8", "bool"]),
       keepdim=st.booleans(), strided=st.booleans(), method=st.booleans())
def test_logsumexp_of_any_shape_dims_and_dtype_is_torchs(shape, data, dtype, keepdim,
                                                         strided, method):
    """The operator tree, the layout and the dtype exactly, the values within the step's
    bound, errors word for word (dims out of range, repeated)."""
    nd = max(len(shape), 1)
    dims = data.draw(st.lists(st.integers(-nd - 1, nd), min_size=1, max_size=2))
    seed = data.draw(st.integers(0, 2**16))
    # (+ 0.0: no -0.0 beside a 0.0 as a row's max, whose sign amax refuses to guess)
    values = (np.random.default_rng(seed).standard_normal(int(np.prod(shape))) * 4).round(2) + 0.0
    make = (f"x = torch.tensor({values.tolist()}, dtype=torch.float64).reshape({shape})"
            f".to(torch.{dtype})")
    if strided and len(shape) == 2:
        make += ".t()"
    call = (f"y = x.logsumexp({dims}, {keepdim})" if method
            else f"y = torch.logsumexp(x, dim={dims}, keepdim={keepdim})")
    assert_within([make, call], k=LOGSUMEXP_EPS)


def test_logsumexp_records_torchs_grad_fn():
    assert_like_torch(lambda lib: lib.logsumexp(lib.ones(2, 3, requires_grad=True), 1)
                      .grad_fn.name())


def test_the_step_states_whose_exp_and_log_and_how_far():
    doc = session.run("x = torch.tensor([0.5, 2.0]); y = torch.logsumexp(x, 0)")
    notes = [e for s in doc["statements"] for e in _walk(s["events"])
             if e.get("note_id") == "statistics.logsumexp_bound"]
    assert len(notes) == 1
    assert notes[0]["note_args"]["eps"] == LOGSUMEXP_EPS
    assert "MKL" in notes[0]["note_args"]["library"]


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3), data=st.data(),
       dtype=st.sampled_from(["float32", "float64"]))
def test_verify_compares_logsumexp_within_the_stated_bound(shape, data, dtype):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    seed = data.draw(st.integers(0, 2**16))
    values = np.random.default_rng(seed).standard_normal(int(np.prod(shape))) * 5
    text = (f"x = torch.tensor({values.tolist()}, dtype=torch.{dtype}).reshape({shape})\n"
            f"y = torch.logsumexp(x, {dim})")
    rows = verify.verify(text, session.run(text))
    assert all(row.ok for row in rows), [r.details for r in rows]
    # the row names the bound the values were compared within (when they differ): the
    # step's, never exp_'s ulps
    said = [s["id"] for s in rows[-1].said]
    assert "ui.verify.within_ulps" not in said, said


RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


LSE_CASES = [(dtype, shape, dim, scale, layout, seed, keep)
             for dtype in ("float32", "float64")
             for shape, dim, layout, seed, keep in (((300, 7), 1, "contiguous", 1, False),
                                                    ((33, 64), 0, "contiguous", 3, True),
                                                    ((5, 1000), 1, "contiguous", 4, False),
                                                    ((40, 17), 1, "transposed", 6, False),
                                                    ((4, 9, 11), (0, 2), "contiguous", 7,
                                                     False))
             for scale in (1e-3, 1.0, 30.0)]


@pytest.mark.parametrize("case", LSE_CASES, ids=str)
def test_logsumexp_within_the_stated_bound_under_every_capability(workers, case):
    eps = np.finfo(case[0]).eps
    for cap, worker in workers.items():
        theirs = worker.call("stats2_cases", "run", "logsumexp", case)
        ours = under_capability(cap, stats2_cases.run, engine, "logsumexp", case)
        assert ours[:2] == theirs[:2]
        a, b = np.array(ours[2]), np.array(theirs[2])
        assert np.all(np.abs(a - b) <= LOGSUMEXP_EPS * eps * np.maximum(1, np.abs(b))), \
            (cap, float(np.abs(a - b).max()))


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children") or [])


# -- quantile and nanquantile -------------------------------------------------------------------
Q = "x = torch.tensor([[3., 1., 2., 0.5], [5., -5., 4., 4.], [7., 1., 9., 0.]]); " \
    "q = torch.tensor([0.25, 0.5, 0.9])"


@pytest.mark.parametrize("statements", [
    Q + "; y = torch.quantile(x, 0.25)",
    Q + "; y = torch.quantile(x, q, 1, keepdim=True)",
    Q + "; y = torch.quantile(x, q, 0)",
    Q + "; y = x.quantile(q, -1, interpolation='lower')",
    Q + "; y = x.t().quantile(q, 0, interpolation='higher')",
    Q + "; y = x.quantile(0.4, interpolation='nearest')",
    Q + "; y = x.quantile(0.5, interpolation='nearest')",
    Q + "; y = torch.quantile(x, q, interpolation='midpoint')",
    Q + "; y = torch.quantile(x, q, None, True)",
    Q + "; y = torch.quantile(x, q[1], 1)",
    Q + "; y = torch.quantile(x, q[:0], 1)",
    Q + "; y = torch.quantile(x, True)",
    Q + "; y = torch.quantile(x, -0.0)",
    Q + "; y = torch.nanquantile(x, 0.5, 0, interpolation='lower')",
    Q + "; y = x.nanquantile(q, 1, True)",
    Q + "; y = torch.quantile(x.double(), 0.3, 0)",
    f"y = torch.quantile(torch.tensor([1., {NAN}, 0.]), 0.5)",
    f"y = torch.nanquantile(torch.tensor([1., {NAN}, 0.]), 0.5)",
    f"y = torch.nanquantile(torch.tensor([[1., {NAN}], [{NAN}, {NAN}]]), "
    "torch.tensor([0.1, 1.]), 1)",
    f"y = torch.quantile(torch.tensor([{INF}, {NINF}, 1.]), 0.5)",
    "y = torch.quantile(torch.tensor(3.), 0.5, 0, True)",
    "y = torch.quantile(torch.tensor(3.), torch.tensor([0.5]), None, True)",
    # out=
    Q + "; y = torch.empty(0); z = torch.quantile(x, 0.5, out=y)",
    Q + "; y = torch.empty(5); z = torch.nanquantile(x, q, 1, out=y)",
    # errors, word for word and in torch's order
    Q + "; y = torch.quantile(x, 1.5)", Q + "; y = torch.nanquantile(x, -0.5)",
    Q + "; y = torch.quantile(x, float('nan'))",
    Q + "; y = torch.quantile(x, torch.tensor([1.5]))",
    Q + "; y = torch.quantile(x, torch.tensor(float('nan')))",
    Q + "; y = torch.quantile(x.long(), 0.5)", Q + "; y = torch.quantile(x.half(), 0.5)",
    Q + "; y = torch.quantile(x.long(), 0.5, interpolation='foo')",
    Q + "; y = torch.quantile(x.long(), 1.5, interpolation='foo')",
    Q + "; y = torch.quantile(x, q.double())",
    Q + "; y = torch.quantile(x, torch.ones(2, 2) * 0.5)",
    Q + "; y = torch.quantile(x, 0.5, 2)",
    Q + "; y = torch.quantile(x, 0.5, out=torch.empty(0, dtype=torch.double))",
    "y = torch.quantile(torch.zeros(0, 3), 0.5, 1)",
    Q + "; y = torch.quantile(x, 0.5, interpolation='Linear')",
])
def test_quantile_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "z"))


VALUES = [0.0, -0.0, 1.0, 2.0, -3.0, 0.1, 1e-7, 2.0, 1.0, -1.5, 1e30]


@given(values=st.lists(st.sampled_from(VALUES + [float("nan"), float("inf")]), min_size=1,
                       max_size=24),
       rows=st.integers(1, 3), dtype=st.sampled_from(["float32", "float64"]),
       op=st.sampled_from(["quantile", "nanquantile"]), data=st.data(),
       mode=st.sampled_from(["linear", "lower", "higher", "midpoint", "nearest"]),
       keepdim=st.booleans(), strided=st.booleans(), method=st.booleans(),
       tensor_q=st.booleans())
@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
def test_quantile_of_any_layout_mode_and_q_is_torchs_bit_for_bit(values, rows, dtype, op,
                                                                 data, mode, keepdim,
                                                                 strided, method, tensor_q):
    """Sort, ranks, gather and lerp replayed: the values bit for bit (the lerp's two
    forms), the operator tree, the layout, NaN rows, under any dim and q."""
    cols = -(-len(values) // rows)
    dim = data.draw(st.sampled_from([None, 0, 1, -1]))
    qs = data.draw(st.lists(st.floats(0, 1, width=32), min_size=0 if tensor_q else 1,
                            max_size=4))
    flat = (values * rows * cols)[:rows * cols]
    make = f"x = torch.tensor({flat!r}, dtype=torch.{dtype}).reshape({rows}, {cols})"
    make = make.replace("nan", "float('nan')").replace("inf", "float('inf')")
    if strided:
        make += ".t()"
    q = f"torch.tensor({qs!r}, dtype=torch.{dtype})" if tensor_q else repr(qs[0])
    call = (f"y = x.{op}({q}, {dim}, {keepdim}, interpolation='{mode}')" if method
            else f"y = torch.{op}(x, {q}, dim={dim}, keepdim={keepdim}, "
                 f"interpolation='{mode}')")
    assert_like_torch([make, call])


def test_quantile_records_torchs_grad_fn():
    assert_like_torch(lambda lib: lib.quantile(lib.tensor([1., 3., 2.], requires_grad=True),
                                               0.3).grad_fn.name())
    assert_like_torch(lambda lib: lib.nanquantile(
        lib.tensor([[1., 3.], [2., 0.]], requires_grad=True), lib.tensor([0.3, 0.5]), 1,
        interpolation="lower").grad_fn.name())


Q_CASES = [(dtype, shape, dim, 10.0, layout, seed, (q, mode))
           for dtype in ("float32", "float64")
           for shape, dim, layout, seed in (((7, 300), 1, "contiguous", 1),
                                            ((33, 64), 0, "transposed", 3),
                                            ((5, 9, 40), 2, "contiguous", 7))
           for q, mode in (([0.1, 0.33, 0.5, 0.77, 0.999], "linear"), (0.3, "midpoint"))]


@pytest.mark.parametrize("case", Q_CASES, ids=str)
def test_quantile_bit_for_bit_under_every_capability(workers, case):
    """lerp_'s tail is fused under AVX2/AVX512 and not under DEFAULT: both replayed."""
    for cap, worker in workers.items():
        theirs = worker.call("stats2_cases", "run", "quantile", case)
        ours = under_capability(cap, stats2_cases.run, engine, "quantile", case)
        assert ours == theirs, cap


@pytest.mark.slow
def test_a_row_past_two_to_the_24_is_torchs_error():
    """The rank q * (n - 1) must fit a float's integers: torch sorts, then refuses."""
    doc = session.run("y = torch.quantile(torch.zeros(2**24 + 1), 0.5)", max_bytes=3 << 30)
    error = doc["statements"][-1]["error"]
    assert (error["type"], error["message"]) == ("RuntimeError",
                                                 "quantile() input tensor is too large")
    torch = require_torch()
    with pytest.raises(RuntimeError, match=r"^quantile\(\) input tensor is too large$"):
        torch.quantile(torch.zeros(2**24 + 1), 0.5)
