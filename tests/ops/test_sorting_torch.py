"""sort, argsort, msort and topk against real torch 2.13: values, layout, errors, operators.

Hypothesis draws dtypes, shapes (0-dim and 0-size included), strided and transposed
views of a base, values with many ties (and NaN, -0.0 for floats, so the comparators'
tie and NaN order shows), the arguments (wrapped and out-of-range dims, negative and too
large k, wrong types) and every call form (torch.X, Tensor.X, keywords); tidx and torch
must agree on the result (values, indices, shape, strides, offset, dtype, a new storage)
or on the error (class and message).  Unstable sorts and sorted=False topk are compared
exactly, not as multisets: tidx replays libstdc++'s std::sort / nth_element /
partial_sort, so even the tie order is torch's.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.core.errors import Refused
from conftest import examples, require_torch
from oracle import assert_like_torch, attempt

pytestmark = pytest.mark.torch

DTYPES = ["int64", "float32", "bool", "uint8", "float64", "int32", "float16", "int8"]


@st.composite
def tensors(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=0, max_size=3)))
    if draw(st.integers(0, 4)) == 0 and len(shape) >= 1:
        shape = shape[:-1] + (draw(st.integers(17, 40)),)   # past std::sort's 16
    view = tuple(slice(draw(st.integers(0, 1)), None, draw(st.integers(1, 2)))
                 if draw(st.booleans()) else slice(None) for _ in shape)
    transpose = len(shape) >= 2 and draw(st.booleans())
    expand = len(shape) >= 1 and draw(st.integers(0, 6)) == 0
    spread = draw(st.sampled_from([2, 3, 7, 1000]))
    special = dtype.startswith("float") and draw(st.booleans())
    seed = draw(st.integers(0, 2**16))
    return dtype, shape, view, transpose, expand, spread, special, seed


def make(lib, dtype, shape, view, transpose, expand, spread, special, seed):
    n = int(np.prod(shape)) if shape else 1
    rng = np.random.default_rng(seed)
    values = rng.integers(0, spread, n).astype(np.float64)
    if special:
        values[rng.random(n) < 0.15] = np.nan
        values[rng.random(n) < 0.15] = -0.0
        values[rng.random(n) < 0.1] = -np.inf
    values = values.reshape(shape).astype(dtype)
    base = lib.tensor(values.tolist(), dtype=getattr(lib, dtype)).reshape(shape)
    t = base[view] if view else base
    if transpose:
        t = t.transpose(0, 1)
    if expand and t.shape[-1] > 0:
        t = t[..., :1].expand(*t.shape[:-1], 3)
    return base, t


def describe(r, base):
    if isinstance(r, tuple):
        return (type(r).__name__, [describe(x, base) for x in r])
    shares = r.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    # str(): NaN equals NaN, and -0.0 is told from 0.0
    return (str(r.tolist()), list(r.shape), list(r.stride()), r.storage_offset(), str(r.dtype),
            shares and r.numel() > 0)


def run(lib, case, call):
    def go():
        base, t = make(lib, *case)
        return ("ok", describe(call(lib, t), base))
    return attempt(go)


DIMS = st.one_of(st.integers(-4, 3), st.sampled_from([None, 0.5, "a"]))


@st.composite
def sort_calls(draw):
    dim = draw(DIMS)
    descending = draw(st.one_of(st.booleans(), st.just(1)))
    stable = draw(st.sampled_from([None, True, False, "x"]))
    form = draw(st.sampled_from(["function", "method", "kw", "positional", "argsort",
                                 "argsort_kw", "argsort_method", "msort", "msort_method"]))
    return dim, descending, stable, form


def call_sort(lib, t, dim, descending, stable, form):
    kw = {} if stable is None else {"stable": stable}
    if form == "function":
        return lib.sort(t, dim=dim, descending=descending, **kw)
    if form == "method":
        return t.sort(dim=dim, descending=descending, **kw)
    if form == "kw":
        return t.sort(descending=descending, **kw)
    if form == "positional":
        return lib.sort(t, dim, descending)
    if form == "argsort":
        return lib.argsort(t, dim, descending)
    if form == "argsort_kw":
        return lib.argsort(t, dim=dim, descending=descending, **kw)
    if form == "argsort_method":
        return t.argsort(dim=dim, **kw)
    if form == "msort":
        return lib.msort(t)
    return t.msort()


@settings(max_examples=examples(180), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(tensors(), sort_calls())
def test_sort_matches_torch(case, args):
    torch = require_torch()

    def go(lib, t):
        return call_sort(lib, t, *args)
    assert run(engine, case, go) == run(torch, case, go)


@st.composite
def topk_calls(draw):
    k = draw(st.one_of(st.integers(-1, 6), st.sampled_from([0.5, None, 10**20])))
    dim = draw(DIMS)
    largest = draw(st.booleans())
    sorted_ = draw(st.booleans())
    form = draw(st.sampled_from(["function", "method", "kw", "positional"]))
    return k, dim, largest, sorted_, form


def call_topk(lib, t, k, dim, largest, sorted_, form):
    if form == "function":
        return lib.topk(t, k, dim=dim, largest=largest, sorted=sorted_)
    if form == "method":
        return t.topk(k, dim, largest, sorted_)
    if form == "kw":
        return t.topk(k=k, largest=largest)
    return lib.topk(t, k)


@settings(max_examples=examples(250), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(tensors(), topk_calls())
def test_topk_matches_torch(case, args):
    torch = require_torch()

    def go(lib, t):
        return call_topk(lib, t, *args)
    assert run(engine, case, go) == run(torch, case, go)


@pytest.mark.parametrize("n", [17, 40, 200, 1000])
def test_unstable_tie_order_is_torchs(n):
    """Many ties past 16 elements: std::sort's and topk's exact tie order."""
    torch = require_torch()
    for seed in range(5):
        values = np.random.default_rng(seed).integers(0, 4, n).tolist()
        ours, theirs = engine.tensor(values), torch.tensor(values)
        for descending in (False, True):
            assert (ours.sort(descending=descending).indices.tolist()
                    == theirs.sort(descending=descending).indices.tolist())
        for k in (1, n // 70 or 1, n // 2, n):
            for largest in (False, True):
                for sorted_ in (False, True):
                    assert (ours.topk(k, largest=largest, sorted=sorted_).indices.tolist()
                            == theirs.topk(k, largest=largest,
                                           sorted=sorted_).indices.tolist())


def test_radix_sort_is_stable():
    """1-D integers, ascending, GRAIN_SIZE elements or more: fbgemm's stable radix sort."""
    torch = require_torch()
    values = np.random.default_rng(1).integers(0, 3, 40000).tolist()
    for dtype in ("int64", "uint8"):
        ours = engine.tensor(values, dtype=getattr(engine, dtype))
        theirs = torch.tensor(values, dtype=getattr(torch, dtype))
        assert ours.sort().indices.tolist() == theirs.sort().indices.tolist()


@pytest.mark.parametrize("statements", [
    ["y = t.sort()"],
    ["y = torch.sort(t, 0, True)"],
    ["y = t.sort(stable=True, descending=True)"],
    ["y = t.t().sort()"],
    ["y = t[:, ::2].sort(0)"],
    ["y = t.expand(2, 3, 3).sort(0)"],
    ["y = torch.tensor(3.).sort()"],
    ["y = torch.zeros(0, 3).sort()"],
    ["y = t.sort(5)"],
    ["y = x.sort(descending=True).values"],
    ["y = x.argsort()"],
    ["y = torch.argsort(x, dim=0, stable=True)"],
    ["y = x.msort()"],
    ["z = torch.tensor([3, 1, 2]); y = z[z.argsort()]"],
    ["y = t.topk(2)"],
    ["y = torch.topk(x, 2, dim=0, largest=False, sorted=False)"],
    ["y = torch.tensor(3.).topk(1)"],
    ["y = t.topk(4)"],
    ["y = t.topk(1, 5)"],
    ["y = torch.tensor([True, False]).topk(1)"],
    ["y = torch.zeros(2, 0).topk(0)"],
    ["i = t.topk(2).indices; y = t.gather(1, i)"],
    ["y = t.sort()[1]"],
    ["y = torch.sort(t, 0, True, stable=True)"],
    ["y = t.sort(stable=None).indices"],
    ["y = torch.tensor([2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1]).sort().indices"],
    ["y = torch.tensor([2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]).topk(5, largest=False, sorted=False).indices"],
    ["y = torch.tensor([0.0, float('nan'), -0.0, 1.0, float('nan')]).sort(descending=True).indices"],
    ["y = t[t[:, 0].argsort(descending=True)]"],
])
def test_sorting_runs_the_operators_torch_runs(statements):
    """The aten operator tree torch.profiler records, and the named tensors."""
    assert_like_torch(statements)


# -- searchsorted, bucketize, isin -------------------------------------------------------

@st.composite
def search_calls(draw):
    op = draw(st.sampled_from(["searchsorted", "searchsorted_scalar", "bucketize",
                               "bucketize_scalar", "isin", "isin_scalar", "isin_scalar_first"]))
    b_dtype = draw(st.sampled_from(DTYPES))
    b_len = draw(st.integers(0, 6))
    b_rows = draw(st.sampled_from([None, None, 1, 2]))
    b_step = draw(st.sampled_from([1, 1, 2]))
    scalar = draw(st.one_of(st.integers(-2, 8), st.floats(-2, 8), st.just(float("nan")),
                            st.booleans()))
    right = draw(st.booleans())
    side = draw(st.sampled_from([None, None, "left", "right", "middle"]))
    out_int32 = draw(st.booleans())
    invert = draw(st.booleans())
    assume_unique = draw(st.booleans())
    return (op, b_dtype, b_len, b_rows, b_step, scalar, right, side, out_int32, invert,
            assume_unique)


def call_search(lib, t, op, b_dtype, b_len, b_rows, b_step, scalar, right, side, out_int32,
                invert, assume_unique):
    # boundaries: sorted (with repeats), 1-D or one row per leading index of t
    row = np.sort(np.arange(b_len * b_step) * 7 % 5)[::b_step].astype(b_dtype)
    if b_rows is None:
        bd = lib.tensor(row.tolist(), dtype=getattr(lib, b_dtype))
    else:
        lead = list(t.shape[:-1]) if t.dim() else [b_rows]
        bd = lib.tensor(np.broadcast_to(row, lead + [b_len]).tolist(),
                        dtype=getattr(lib, b_dtype)).reshape(lead + [b_len])
    kw = {"out_int32": out_int32, "right": right}
    if op == "searchsorted":
        return lib.searchsorted(bd, t, side=side, **kw)
    if op == "searchsorted_scalar":
        return lib.searchsorted(bd, scalar, **kw)
    if op == "bucketize":
        return lib.bucketize(t, bd, **kw)
    if op == "bucketize_scalar":
        return lib.bucketize(scalar, bd, **kw)
    if op == "isin":
        return lib.isin(t, bd, invert=invert, assume_unique=assume_unique)
    if op == "isin_scalar":
        return lib.isin(t, scalar, invert=invert)
    return lib.isin(scalar, bd, invert=invert)


@settings(max_examples=examples(250), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(tensors(), search_calls())
def test_search_matches_torch(case, args):
    torch = require_torch()

    def go(lib, t):
        return call_search(lib, t, *args)
    ours = run(engine, case, go)
    if ours[0] == "refused":
        return
    assert ours == run(torch, case, go)


@pytest.mark.parametrize("statements", [
    ["y = torch.searchsorted(torch.tensor([1, 3, 5, 7]), t)"],
    ["y = torch.searchsorted(torch.tensor([1, 3, 5, 7]), 4, right=True)"],
    ["y = torch.searchsorted(torch.tensor([1, 3, 5, 7]), 2.5)"],
    ["y = torch.searchsorted(t, t, side='right', out_int32=True)"],
    ["y = torch.searchsorted(t[:, ::2], t.t()[:, :2])"],
    ["y = torch.searchsorted(x[0], t)"],
    ["y = torch.searchsorted(t, 3)"],
    ["y = torch.searchsorted(t, t, side='middle')"],
    ["y = torch.searchsorted(t, t, side='left', right=True)"],
    ["y = torch.searchsorted(torch.tensor(1), t)"],
    ["y = torch.searchsorted(t[0], t, sorter=torch.tensor([0, 1]))"],
    ["y = torch.searchsorted(t[0], t, sorter=t[0].to(torch.int32))"],
    ["y = torch.bucketize(t, torch.tensor([2, 5]))"],
    ["y = torch.bucketize(3, torch.tensor([2, 5]), right=True)"],
    ["y = torch.bucketize(t, t)"],
    ["y = torch.bucketize(t.to(torch.bool), t[0].to(torch.bool))"],
    ["y = torch.isin(t, torch.tensor([1, 5, 9]))"],
    ["y = torch.isin(t, torch.tensor([1, 5, 9]), invert=True)"],
    ["y = torch.isin(t, t.t())"],
    ["y = torch.isin(t.to(torch.float32), torch.tensor([2, 3]))"],
    ["y = torch.isin(t, t.to(torch.bool))"],
    ["y = torch.isin(2.5, t[0])"],
    ["y = torch.isin(t[:, ::2], 3)"],
    ["y = torch.isin(t, 2.5, invert=True)"],
    ["y = torch.isin(t, True)"],
    ["y = torch.isin(torch.arange(5), torch.arange(11))"],     # the last default-path size
    ["z = torch.tensor([4, 1, 4, 2]); y = z[torch.isin(z, torch.tensor([4]))]"],
])
def test_search_runs_the_operators_torch_runs(statements):
    """searchsorted, bucketize, isin: the operator tree, the error, the result."""
    assert_like_torch(statements)


# -- unique, unique_consecutive ------------------------------------------------------------

@st.composite
def unique_calls(draw):
    consecutive = draw(st.booleans())
    flags = {k: draw(st.sampled_from([None, True, False, "a"]))
             for k in ("sorted", "return_inverse", "return_counts")}
    dim = draw(st.sampled_from([None, None, None, 0, -1, 5, "a"]))
    form = draw(st.sampled_from(["function", "method", "positional"]))
    return consecutive, flags, dim, form


def call_unique(lib, t, consecutive, flags, dim, form):
    kw = {k: v for k, v in flags.items() if v is not None}
    if consecutive:
        kw.pop("sorted", None)
    if dim is not None:
        kw["dim"] = dim
    if form == "positional" and not consecutive:
        return lib.unique(t, flags["sorted"] is not False, flags["return_inverse"] is True)
    if form == "positional":
        return lib.unique_consecutive(t, flags["return_inverse"] is True)
    name = "unique_consecutive" if consecutive else "unique"
    return getattr(t, name)(**kw) if form == "method" else getattr(lib, name)(t, **kw)


@settings(max_examples=examples(250), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(tensors(), unique_calls())
def test_unique_matches_torch(case, args):
    torch = require_torch()

    def go(lib, t):
        return call_unique(lib, t, *args)
    ours = run(engine, case, go)
    if ours[0] == "refused":
        return
    assert ours == run(torch, case, go)


@pytest.mark.parametrize("statements", [
    ["y = torch.unique(t)"],
    ["y = torch.unique(x, sorted=False)"],
    ["y = torch.unique(t, return_inverse=True, return_counts=True)[1]"],
    ["y = torch.unique(t, return_inverse=True, return_counts=True)[2]"],
    ["y = torch.unique(t.t(), return_counts=True)[1]"],
    ["y = torch.unique(torch.tensor(3))"],
    ["y = torch.unique(t[:0], return_inverse=True)[1]"],
    ["y = torch.unique(t > 4, return_inverse=True, return_counts=True)[1]"],
    ["y = t.unique(True, True)[1]"],
    ["y = torch.unique(t, dim=5)"],
    ["y = torch.unique(t[:0], dim=0)"],
    ["y = torch.unique(t[:0], dim=1)"],
    ["y = torch.unique(x, foo=1)"],
    ["y = torch.unique(t, sorted='a')"],
    ["y = t.unique(foo=1)"],
    ["y = torch.unique(torch.tensor([2.0, -0.0, 0.0, 1.0] * 5), return_inverse=True)[1]"],
    ["z = torch.tensor([3, 1, 3, 2]); y = torch.unique(z, return_inverse=True)[1]"],
    ["y = torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]))"],
    ["y = torch.unique_consecutive(torch.tensor([1, 1, 2, 3, 1]), return_counts=True)[1]"],
    ["y = torch.unique_consecutive(t.t(), return_inverse=True)[1]"],
    ["y = torch.unique_consecutive(t[0], dim=0)"],
    ["y = torch.unique_consecutive(t, dim=5)"],
    ["y = torch.unique_consecutive(torch.tensor(3), return_counts=True)[1]"],
    ["y = t.unique_consecutive(1, 2)"],
    ["y = torch.unique_consecutive(t, 1, 1, 0, 0)"],
])
def test_unique_runs_the_operators_torch_runs(statements):
    """unique (torch/functional.py -> _unique2 / unique_dim) and unique_consecutive."""
    assert_like_torch(statements)


def test_isin_sort_path_is_refused_not_guessed():
    """One more test element than the default path takes: torch switches to isin_sorting
    (aten::_unique twice, then cat ...), which tidx refuses in one line."""
    torch = require_torch()
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        torch.isin(torch.arange(5), torch.arange(12))
    assert "aten::_unique" in {e.name for e in prof.profiler.function_events}
    with pytest.raises(Refused, match="sort-based path"):
        engine.isin(engine.arange(5), engine.arange(12))


def test_verify_reads_a_return_type_field():
    """--verify runs the statement in real torch too: `.values` of torch's own
    torch.return_types.sort must resolve there as well."""
    require_torch()
    from conftest import cli_run

    result = cli_run("explain", "--verify", "y = t.sort(descending=True).values")
    assert result.exit_code == 0, result.output
    assert "agree on every check" in result.output
