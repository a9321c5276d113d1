"""engine.ops.stl_compiled (stl.wat) takes exactly the steps engine.ops.stl's Python
replay of libstdc++ takes: the same permutation, ties included, for std::sort (with any
depth limit, so the heapsort fallback is reached at will), std::partial_sort and
std::nth_element, on rows drawn with few distinct keys and in the patterns quicksorts
find hard (sorted, reversed, organ pipes, McIlroy's adversary).  test_sorting_large_torch.py
holds both to torch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import antiqsort
from conftest import examples
from engine.ops import stl
from engine.ops import stl_compiled as C


def _less(x, y) -> bool:
    return x[0] < y[0]


def py_sort(keys, depth: int | None = None) -> list[int]:
    pairs = [(int(k), j) for j, k in enumerate(keys)]
    if depth is None:
        stl.sort(pairs, 0, len(pairs), _less)
    elif pairs:
        stl._introsort_loop(pairs, 0, len(pairs), depth, _less)
        stl._final_insertion_sort(pairs, 0, len(pairs), _less)
    return [j for _, j in pairs]


def py_topk(keys, k: int, partial: bool, sorted_: bool) -> list[int]:
    queue = [(int(r), j) for j, r in enumerate(keys)]
    n = len(queue)
    if partial:
        stl.partial_sort(queue, 0, k, n, _less)
    else:
        stl.nth_element(queue, 0, k - 1, n, _less)
        if sorted_:
            stl.sort(queue, 0, k - 1, _less)
    return [j for _, j in queue[:k]]


@st.composite
def key_rows(draw):
    rows = draw(st.integers(1, 3))
    n = draw(st.sampled_from([1, 2, 3, 4, 15, 16, 17, 18, 33, 64, 65, 200, 513]))
    spread = draw(st.sampled_from([1, 2, 3, 10, 1000]))
    pattern = draw(st.sampled_from(["random", "sorted", "reversed", "pipes", "saw"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    keys = rng.integers(0, spread, (rows, n))
    if pattern == "sorted":
        keys.sort(axis=-1)
    elif pattern == "reversed":
        keys = -np.sort(-keys, axis=-1)
    elif pattern == "pipes":
        keys = np.minimum(np.arange(n), np.arange(n)[::-1])[None].repeat(rows, 0) % spread
    elif pattern == "saw":
        keys = (np.arange(n) % (spread + 1))[None].repeat(rows, 0)
    return np.ascontiguousarray(keys, dtype=np.int64)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(key_rows(), st.integers(0, 6))
def test_sort_is_the_python_replay(keys, depth):
    assert C.sort_rows(keys).tolist() == [py_sort(row) for row in keys]
    # a small depth limit sends every longer run to the heapsort
    assert C.sort_depth(keys[0], depth).tolist() == py_sort(keys[0], depth)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(key_rows(), st.data())
def test_topk_is_the_python_replay(keys, data):
    n = keys.shape[-1]
    k = data.draw(st.integers(1, n))
    partial = data.draw(st.booleans())
    sorted_ = data.draw(st.booleans())
    assert (C.topk_rows(keys, k, partial, sorted_).tolist()
            == [py_topk(row, k, partial, sorted_) for row in keys])


@pytest.mark.parametrize("n", [100, 700, 3000])
def test_adversary_reaches_the_heapsort_alike(n):
    """McIlroy's adversary: introsort and introselect give up on quicksort and
    heapsort a run of ties; compiled and Python leave the same order."""
    keys = np.array(antiqsort.killer(n))
    assert C.sort_rows(keys[None])[0].tolist() == py_sort(keys)
    keys = np.array(antiqsort.killer(n, n // 2))
    for partial in (False, True):
        assert (C.topk_rows(keys[None], n // 2 + 1, partial, True)[0].tolist()
                == py_topk(keys, n // 2 + 1, partial, True))


def test_the_adversary_does_reach_the_heapsort(monkeypatch):
    """What the test above relies on, counted in the Python replay: one heapsort of a
    run of ties for std::sort, one heap select for std::nth_element."""
    calls = []
    real = stl._heap_select

    def spy(a, first, middle, last, less):
        calls.append((middle - first, last - first))
        return real(a, first, middle, last, less)
    monkeypatch.setattr(stl, "_heap_select", spy)
    keys = antiqsort.killer(500)
    py_sort(keys)
    assert len(calls) == 1 and calls[0][1] > 400 and 500 - len(set(keys)) > 400
    calls.clear()
    py_topk(antiqsort.killer(500, 250), 251, False, False)
    assert len(calls) == 1 and calls[0][1] > 400


def _comparator_classes(values: np.ndarray) -> np.ndarray:
    """KeyValueCompAsc's order as numbers: NaN above all, -0.0 equal to 0.0."""
    with np.errstate(invalid="ignore"):        # signalling NaNs among the bit patterns
        v = values.astype(np.float64)
        return np.where(np.isnan(v), np.inf, v + 0.0), np.isnan(v)


@pytest.mark.parametrize("values", [
    np.arange(1 << 16, dtype=np.uint16).view(np.float16),           # every Half
    np.random.default_rng(0).integers(0, 1 << 32, 1 << 20, dtype=np.uint64)
    .astype(np.uint32).view(np.float32),                            # float32 bit patterns
    np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 3.4e38, -3.4e38],
             np.float32),
    np.arange(-128, 128, dtype=np.int8), np.arange(256, dtype=np.uint8).astype(np.uint8),
    np.arange(-(1 << 15), 1 << 15, dtype=np.int16), np.array([True, False]),
    np.array([-(2**31), -1, 0, 2**31 - 1], np.int32),
    np.array([-(2**63), -1, 0, 2**63 - 1, 5, 5], np.int64),
    np.array([np.nan, -0.0, 0.0, -np.inf, 1e308, 5e-324], np.float64),
])
def test_order_keys_are_the_comparators_order(values):
    """The keys the replay compares: equal exactly for values the comparator finds
    equal, and ordered as it orders them."""
    from engine.ops.sorting import order_keys
    keys = order_keys(values)
    assert keys.dtype == np.uint64 and int(keys.max()) < 1 << 32
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    if values.dtype.kind == "f":
        v, nan = _comparator_classes(values[order])
        same = (v[1:] == v[:-1]) & (nan[1:] == nan[:-1])
        less = (v[:-1] < v[1:]) | (~nan[:-1] & nan[1:])
    else:
        v = values[order].astype(object)
        same = np.array([a == b for a, b in zip(v[:-1], v[1:])], dtype=bool)
        less = np.array([a < b for a, b in zip(v[:-1], v[1:])], dtype=bool)
    assert ((k[1:] == k[:-1]) == same).all()
    assert ((k[1:] > k[:-1]) == less).all()
