"""Property-based: random factories, shapes, dtypes and seeds against real torch.

Values must agree bit for bit (random ones after the same manual_seed, with the
generator state carried across two calls), as must shape, strides, dtype, storage
size and errors.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples, require_torch
from oracle import outcome

pytestmark = pytest.mark.torch

FLOATS = ["float32", "float64"]


@st.composite
def factory_calls(draw):
    kind = draw(st.sampled_from(["randn", "rand", "randint", "randperm", "zeros", "ones",
                                 "full", "arange", "eye", "normal_", "uniform_"]))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=0, max_size=3)))
    if draw(st.booleans()):  # sometimes large enough for the vectorised paths
        shape = (draw(st.integers(14, 300)),)
    dtype = draw(st.sampled_from(FLOATS))
    if kind == "randint":
        low = draw(st.integers(-2**40, 2**40))
        high = low + draw(st.integers(1, 2**41))
        if draw(st.booleans()):
            return kind, (low, high), {"size": shape}
        return kind, (low, high, shape), {}
    if kind == "randperm":
        return kind, (draw(st.integers(0, 300)),), {}
    if kind == "full":
        return kind, (shape, draw(st.one_of(st.integers(-9, 9), st.floats(-1e3, 1e3)))), {}
    if kind == "arange":
        start = draw(st.floats(-50, 50, allow_nan=False))
        step = draw(st.floats(0.01, 3)) * draw(st.sampled_from([1, -1]))
        count = draw(st.integers(0, 200))
        return kind, (start, start + step * (count + 0.5), step), {"dtype": dtype}
    if kind == "eye":
        return kind, (draw(st.integers(0, 6)), draw(st.integers(0, 6))), {"dtype": dtype}
    if kind in ("normal_", "uniform_"):
        a = draw(st.floats(-5, 5))
        b = a + draw(st.floats(0, 5))
        return kind, (shape, a, b), {"dtype": dtype}
    # the size as one sequence, as varargs (none at all is a TypeError) or size=
    style = draw(st.sampled_from(["sequence", "varargs", "keyword"]))
    if style == "varargs":
        return kind, shape, {"dtype": dtype}
    if style == "keyword":
        return kind, (), {"size": shape, "dtype": dtype}
    return kind, (shape,), {"dtype": dtype}


def make(lib, kind, args, kwargs):
    if kind in ("normal_", "uniform_"):
        shape, a, b = args
        t = lib.empty(shape, dtype=getattr(lib, kwargs["dtype"]))
        return getattr(t, kind)(a, b)
    kw = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
    return getattr(lib, kind)(*args, **kw)


def made(lib, kind, args, kwargs):
    t = make(lib, kind, args, kwargs)
    return t, t.untyped_storage().nbytes()


def made_in_turn(lib, seed, calls):
    """Each call's tensor and its storage's size, or its error (the next call still runs,
    on the generator the last one left)."""
    lib.manual_seed(seed)
    return [outcome(lib, made, kind, args, kwargs) for kind, args, kwargs in calls]


@settings(max_examples=examples(400), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(-2**63, 2**64 - 1), calls=st.lists(factory_calls(), min_size=1,
                                                          max_size=2))
def test_factories_match_torch(seed, calls):
    torch = require_torch()
    assert made_in_turn(engine, seed, calls) == made_in_turn(torch, seed, calls)
