"""torch.roll / Tensor.roll against torch 2.13 (TensorTransformations.cpp roll and
roll_common): values, layout, errors and the operator tree (narrow twice, then cat; a
roll per dim; a flattened roll without dims)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples, require_torch
from oracle import compare

pytestmark = pytest.mark.torch


@st.composite
def cases(draw):
    dtype = draw(st.sampled_from(["int64", "float32", "bool", "uint8", "float64"]))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=3)))
    step = tuple(draw(st.integers(1, 2)) for _ in shape)
    transpose = len(shape) >= 2 and draw(st.booleans())
    shifts = draw(st.one_of(st.integers(-9, 9), st.lists(st.integers(-9, 9), max_size=3),
                            st.sampled_from([1.5, "a", None])))
    dims = draw(st.one_of(st.none(), st.integers(-4, 4),
                          st.lists(st.integers(-4, 4), max_size=3)))
    form = draw(st.sampled_from(["function", "method", "keywords"]))
    return dtype, shape, step, transpose, shifts, dims, form


def outcome(lib, dtype, shape, step, transpose, shifts, dims, form):
    n = int(np.prod(shape)) if shape else 1
    base = lib.tensor((np.arange(n) * 5 % 7).astype(dtype).tolist(),
                      dtype=getattr(lib, dtype)).reshape(shape)
    t = base[tuple(slice(None, None, s) for s in step)] if shape else base
    if transpose:
        t = t.transpose(0, 1)
    try:
        if form == "keywords":
            r = lib.roll(t, shifts=shifts, **({} if dims is None else {"dims": dims}))
        elif form == "function":
            r = lib.roll(t, shifts, *(() if dims is None else (dims,)))
        else:
            r = t.roll(shifts, *(() if dims is None else (dims,)))
        return ("ok", r.tolist(), list(r.shape), list(r.stride()), r.storage_offset(),
                str(r.dtype))
    except Exception as exc:  # noqa: BLE001 - the error is the result
        return ("error", type(exc).__name__, str(exc))


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_roll_matches_torch(case):
    torch = require_torch()
    assert outcome(engine, *case) == outcome(torch, *case)


@pytest.mark.parametrize("statement", [
    "y = t.roll(1)", "y = t.roll(1, 0)", "y = t.roll((1, 2), (0, 1))", "y = t.T.roll(1, 0)",
    "y = torch.empty(0, 3).roll(1, 0)", "y = t.roll(-4, 1)", "y = t.roll(1, 5)",
    "y = t.roll((1, 2), 0)", "y = t.roll(())", "y = torch.tensor(5).roll(1)",
    "y = t[:, ::2].roll(1)", "y = torch.roll(t, shifts=2, dims=-1)", "y = t.roll(1, (0, 0))",
])
def test_roll_runs_the_operators_torch_runs(statement):
    torch = require_torch()
    ours, theirs = compare(torch, [statement], ["y"])
    assert (ours.ops, ours.error, ours.tensors) == (theirs.ops, theirs.error, theirs.tensors)
