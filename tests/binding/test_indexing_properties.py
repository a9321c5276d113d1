"""Property-based: random tensors, strided bases and index tuples, against real torch.

Each example draws a base tensor (dtype, shape), optionally a strided view of it
(so indexing starts from non-trivial strides and offsets), and an index tuple of
integers, slices, None, Ellipsis, bools, integer lists and tensors, and bool masks.
tidx and torch must agree on the result (values, shape, strides, offset, dtype,
whether it shares storage) or on the exception (class and message).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from oracle import assert_like_torch, outcome

pytestmark = pytest.mark.torch

DTYPES = ["int64", "float32", "int32", "bool", "uint8", "float64", "int16"]


@st.composite
def base_arrays(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=4)))
    n = int(np.prod(shape)) if shape else 1
    values = np.arange(n, dtype=np.int64).reshape(shape) * 3 % 7
    arr = values.astype(np.dtype(dtype))
    # a strided view: slice each dim with a step, maybe transpose
    view = []
    for size in shape:
        start = draw(st.integers(0, max(size - 1, 0)))
        step = draw(st.integers(1, 2))
        view.append(slice(start, None, step) if draw(st.booleans()) else slice(None))
    return arr, tuple(view), False


def index_tuples(shape):
    """Index tuples with at most one Ellipsis: with two, PyTorch's C++ reads past the end
    of the sizes array (undefined behaviour, results vary run to run)."""
    return st.lists(index_items(shape), min_size=1, max_size=4).filter(
        lambda items: sum(i is Ellipsis for i in items) <= 1)


def index_items(shape):
    ints = st.integers(-5, 5)
    slices = st.builds(slice, st.one_of(st.none(), st.integers(-5, 5)),
                       st.one_of(st.none(), st.integers(-5, 5)),
                       st.one_of(st.none(), st.integers(-2, 3)))
    int_lists = st.lists(st.integers(-3, 3), min_size=0, max_size=3)
    long_tensors = st.lists(st.integers(-3, 3), min_size=1, max_size=3).map(
        lambda v: ("long", v))
    masks = st.lists(st.booleans(), min_size=1, max_size=4).map(lambda v: ("mask", v))
    scalars = st.one_of(st.integers(-4, 4).map(lambda v: ("long0", v)),
                        st.booleans().map(lambda v: ("mask0", v)))
    return st.one_of(ints, slices, st.just(None), st.just(Ellipsis), st.booleans(),
                     int_lists, long_tensors, masks, scalars)


def materialise(item, lib):
    if isinstance(item, tuple) and item and item[0] in ("long0", "mask0"):
        kind, value = item  # 0-dim index tensors: select, or unsqueeze + bool index
        return lib.tensor(value, dtype=lib.int64 if kind == "long0" else lib.bool)
    if isinstance(item, tuple) and item and item[0] in ("long", "mask"):
        kind, values = item
        dtype = lib.int64 if kind == "long" else lib.bool
        return lib.tensor(values, dtype=dtype) if kind == "long" else lib.tensor(values)
    return item


def build(lib, arr, view):
    flat = lib.tensor(arr.reshape(-1).tolist(), dtype=getattr(lib, str(arr.dtype)))
    base = flat.reshape(arr.shape)
    t = base[view] if view else base
    return base, t


def indexed(lib, arr, view, index, bare, setvalue=None):
    """``t[index]`` and whether it is a view of the base; or, given a value, the base and
    ``t`` after ``t[index] = value``."""
    base, t = build(lib, arr, view)
    idx = tuple(materialise(i, lib) for i in index)
    if bare and len(idx) == 1:
        idx = idx[0]
    if setvalue is None:
        r = t[idx]
        return r, r.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    t[idx] = setvalue
    return base, t


SETTINGS = settings(max_examples=examples(1500), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow
@SETTINGS
@given(data=st.data(), bare=st.booleans())
def test_getitem_matches_torch(data, bare):
    arr, view, _ = data.draw(base_arrays())
    index = tuple(data.draw(index_tuples(arr.shape)))
    assert_like_torch(indexed, arr, view, index, bare)


@pytest.mark.slow
@SETTINGS
@given(data=st.data(), value=st.integers(-3, 9), bare=st.booleans())
def test_setitem_scalar_matches_torch(data, value, bare):
    arr, view, _ = data.draw(base_arrays())
    index = tuple(data.draw(index_tuples(arr.shape)))
    assert_like_torch(indexed, arr, view, index, bare, value)


@pytest.mark.slow
@settings(max_examples=examples(800), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), bare=st.booleans())
def test_fast_path_equals_the_recorded_path(data, bare):
    """Without a recorder basic indexing takes engine.binding.fastpath; with one, every step.
    Both must produce the same tensor (or the same error)."""
    from tracer import record

    arr, view, _ = data.draw(base_arrays())
    index = tuple(data.draw(index_tuples(arr.shape)))
    unrecorded = outcome(engine, indexed, arr, view, index, bare)
    with record():
        recorded = outcome(engine, indexed, arr, view, index, bare)
    assert unrecorded == recorded


@st.composite
def value_tensors(draw):
    """A value to assign: a small tensor of some shape and dtype (often not matching)."""
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=3)))
    dtype = draw(st.sampled_from(DTYPES))
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n, dtype=np.int64).reshape(shape) % 5).astype(np.dtype(dtype))


@pytest.mark.slow
@SETTINGS
@given(data=st.data(), bare=st.booleans())
def test_setitem_tensor_value_matches_torch(data, bare):
    arr, view, _ = data.draw(base_arrays())
    index = tuple(data.draw(index_tuples(arr.shape)))
    value = data.draw(value_tensors())

    def run(lib):
        flat = lib.tensor(value.reshape(-1).tolist(), dtype=getattr(lib, str(value.dtype)))
        return indexed(lib, arr, view, index, bare, flat.reshape(value.shape))

    assert_like_torch(run)
