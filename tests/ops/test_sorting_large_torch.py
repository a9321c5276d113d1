"""sort, argsort, topk and unique on thousands to a million elements, against torch.

Sizes where tidx runs libstdc++'s algorithms compiled (engine/ops/stl.wat), with values
full of ties, NaNs, infinities and signed zeros, in every dtype and along either dim of
a 2-D tensor: the values, the indices (the tie order std::sort, partial_sort and
nth_element leave), and unique's values (which of -0.0 and 0.0 the sort put first), its
inverse and counts must be torch's.  Then what the speed rests on, counted rather than
timed: a long sort makes no Python comparison and one compiled call, whatever the
number of rows; without wasmtime a long sort with ties is refused in one line.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import antiqsort
import engine
from conftest import examples, require_torch
from engine.core.context import RunContext, activate
from engine.core.errors import Refused
from engine.ops import sorting, stl, stl_compiled
from oracle import attempt

pytestmark = pytest.mark.torch

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "uint8", "int8", "bool"]


def values(dtype: str, n: int, spread: int, special: bool, seed: int) -> list:
    rng = np.random.default_rng(seed)
    # within what the dtype holds exactly
    spread = min(spread, {"int8": 100, "uint8": 200, "float16": 2000}.get(dtype, spread))
    v = rng.integers(0, spread, n).astype(np.float64)
    if dtype.startswith("float") and special:
        for x, share in ((np.nan, 0.1), (-0.0, 0.1), (0.0, 0.1), (np.inf, 0.03),
                         (-np.inf, 0.03)):
            v[rng.random(n) < share] = x
    if dtype in ("int8", "int16", "int32", "int64") and special:
        v -= spread // 2
    return v.astype(dtype).tolist()


def same(ours, theirs) -> None:
    """Equal as torch prints them (NaN equals NaN, -0.0 differs from 0.0), and of the
    same shape and dtype."""
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            same(a, b)
        return
    assert list(ours.shape) == list(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    assert str(ours.tolist()) == str(theirs.tolist())


@st.composite
def cases(draw):
    dtype = draw(st.sampled_from(DTYPES))
    n = draw(st.sampled_from([2049, 5000, 40_000]))
    rows = draw(st.sampled_from([None, 1, 3]))
    spread = draw(st.sampled_from([2, 7, 300, 100_000]))
    special = draw(st.booleans())
    seed = draw(st.integers(0, 2**16))
    return dtype, n, rows, spread, special, seed


def tensors(lib, dtype, n, rows, spread, special, seed):
    t = lib.tensor(values(dtype, n * (rows or 1), spread, special, seed),
                   dtype=getattr(lib, dtype))
    return t if rows is None else t.reshape(rows, n)


@st.composite
def calls(draw):
    op = draw(st.sampled_from(["sort", "argsort", "msort", "topk", "unique"]))
    dim = draw(st.sampled_from([-1, 0]))
    descending = draw(st.booleans())
    stable = draw(st.sampled_from([None, False, True]))
    k = draw(st.sampled_from([1, 7, 60, 700, 2049]))
    largest = draw(st.booleans())
    sorted_ = draw(st.booleans())
    return op, dim, descending, stable, k, largest, sorted_


def run(lib, t, op, dim, descending, stable, k, largest, sorted_):
    def go():
        if op == "sort":
            kw = {} if stable is None else {"stable": stable}
            return tuple(t.sort(dim=dim, descending=descending, **kw))
        if op == "argsort":
            return lib.argsort(t, dim=dim, descending=descending, stable=bool(stable))
        if op == "msort":
            return t.msort()
        if op == "topk":
            return tuple(t.topk(min(k, t.shape[dim]), dim=dim, largest=largest,
                                sorted=sorted_))
        return lib.unique(t, return_inverse=True, return_counts=True)
    return attempt(go)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cases(), calls())
def test_long_rows_match_torch(case, call):
    torch = require_torch()
    ours = run(engine, tensors(engine, *case), *call)
    theirs = run(torch, tensors(torch, *case), *call)
    if isinstance(theirs[0], str):
        assert ours == theirs
    else:
        same(ours, theirs)


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_a_million_random_floats_sort_as_torch_sorts():
    """The issue's case, torch.rand(10**6).sort(): some 30,000 pairs of equal floats
    (24 random bits each), so the tie order shows; and the other orderings."""
    torch = require_torch()
    torch.manual_seed(5)
    engine.manual_seed(5)
    ours, theirs = engine.rand(10**6), torch.rand(10**6)
    same(ours.sort(), theirs.sort())
    same(ours.sort(descending=True), theirs.sort(descending=True))
    same(ours.topk(1000), theirs.topk(1000))
    same(ours.topk(20_000, largest=False, sorted=False),
         theirs.topk(20_000, largest=False, sorted=False))
    same(ours.unique(return_inverse=True, return_counts=True),
         theirs.unique(return_inverse=True, return_counts=True))


@pytest.mark.parametrize("n", [3000, 20_000])
def test_heapsort_fallback_matches_torch(n):
    """McIlroy's adversary drives std::sort and std::nth_element to their depth limit
    (tests/antiqsort.py): the heap they fall back to sorts a run of ties."""
    torch = require_torch()
    keys = antiqsort.killer(n)
    same(engine.tensor(keys).sort(), torch.tensor(keys).sort())
    same(engine.tensor(keys, dtype=engine.float32).argsort(descending=False),
         torch.tensor(keys, dtype=torch.float32).argsort(descending=False))
    # topk(k) with k * 64 > n: std::nth_element at k - 1, with x < y for the smallest
    # and x > y (the keys negated) for the largest
    keys = antiqsort.killer(n, n // 2)
    k = n // 2 + 1
    for sign, largest in ((1, False), (-1, True)):
        signed = [sign * v for v in keys]
        same(engine.tensor(signed).topk(k, largest=largest, sorted=False),
             torch.tensor(signed).topk(k, largest=largest, sorted=False))


def _forbid_python_replay(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the Python replay ran")
    for name in ("sort", "partial_sort", "nth_element"):
        monkeypatch.setattr(stl, name, forbidden)


def test_long_sorts_make_no_python_comparison(monkeypatch):
    """Counted, not timed: sorting 2^16 elements with ties, or 64 rows of 1024, is one
    compiled call and no step of the Python replay; a 2^16-element topk too."""
    _forbid_python_replay(monkeypatch)
    runs = []
    real = stl_compiled._run

    def spy(keys, *args):
        runs.append(keys.shape)
        return real(keys, *args)
    monkeypatch.setattr(stl_compiled, "_run", spy)
    x = engine.tensor((np.arange(1 << 16) % 1000).tolist())
    x.sort(descending=True)
    assert runs == [(1, 1 << 16)]
    engine.tensor((np.arange(1 << 16) % 7).reshape(64, 1024).tolist()).sort()
    assert runs[1:] == [(64, 1024)]
    x.topk(10)
    x.topk(4000, sorted=False)
    assert runs[2:] == [(1, 1 << 16)] * 2


def test_rows_without_ties_skip_the_replay(monkeypatch):
    """Distinct values come out the same from every sort: no replay at all."""
    _forbid_python_replay(monkeypatch)

    def forbidden(*args):
        raise AssertionError("the compiled replay ran")
    monkeypatch.setattr(stl_compiled, "_run", forbidden)
    t = engine.tensor(np.random.default_rng(0).permutation(1 << 16).tolist())
    assert t.sort().values.tolist() == list(range(1 << 16))


def test_without_wasmtime_long_sorts_are_refused_in_one_line(monkeypatch):
    torch = require_torch()
    monkeypatch.setattr(stl_compiled, "available", lambda: False)
    small = (np.arange(5000) % 3).tolist()
    same(engine.tensor(small).sort(), torch.tensor(small).sort())
    big = engine.tensor((np.arange(sorting.PYTHON_MAX + 1) % 3).tolist())
    with pytest.raises(Refused, match="needs wasmtime") as info:
        big.sort(descending=True)
    assert "\n" not in str(info.value)
    # a stable sort needs no replay
    assert big.sort(stable=True).indices.tolist()[:3] == [0, 3, 6]


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_sorting_checks_the_memory_limit():
    """The working arrays are counted before they are made: a limit that holds the
    tensor and its results but not sort's temporaries is refused in one line."""
    t = engine.zeros(1 << 16)
    results = (1 << 16) * (4 + 8)
    with activate(RunContext(max_bytes=results + 1024)):
        with pytest.raises(Refused, match="refusing to allocate .* above tidx's memory limit"):
            t.sort()
        with pytest.raises(Refused, match="topk needs a temporary of 65536 elements"):
            t.topk(3)
