"""torch.roll, Tensor.repeat and torch.tile against torch 2.13 (TensorTransformations.cpp
roll and roll_common; TensorShape.cpp repeat and tile_symint): values, layout, errors and
the operator trees (roll: narrow twice, then cat, a roll per dim, a flattened roll
without dims; repeat: expand, empty, an unfold per dim, one copy_, then the permutation
that puts each window dim beside its repeat dim and the reshape)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from oracle import assert_like_torch, call

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
    if form == "keywords":
        return lib.roll(t, shifts=shifts, **({} if dims is None else {"dims": dims}))
    return call(lib, form, "roll", t, shifts, *(() if dims is None else (dims,)))


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_roll_matches_torch(case):
    assert_like_torch(outcome, *case)


@pytest.mark.parametrize("statement", [
    "y = t.roll(1)", "y = t.roll(1, 0)", "y = t.roll((1, 2), (0, 1))", "y = t.T.roll(1, 0)",
    "y = torch.empty(0, 3).roll(1, 0)", "y = t.roll(-4, 1)", "y = t.roll(1, 5)",
    "y = t.roll((1, 2), 0)", "y = t.roll(())", "y = torch.tensor(5).roll(1)",
    "y = t[:, ::2].roll(1)", "y = torch.roll(t, shifts=2, dims=-1)", "y = t.roll(1, (0, 0))",
])
def test_roll_runs_the_operators_torch_runs(statement):
    assert_like_torch([statement])


@st.composite
def repeat_cases(draw):
    dtype = draw(st.sampled_from(["int64", "float32", "bool", "uint8"]))
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=3)))
    step = tuple(draw(st.integers(1, 2)) for _ in shape)
    transpose = len(shape) >= 2 and draw(st.booleans())
    reps = draw(st.one_of(st.lists(st.integers(-1, 3), max_size=4).map(tuple),
                          st.sampled_from([(1.5,), ("a",), 2])))
    form = draw(st.sampled_from(["repeat", "repeat_varargs", "tile", "tile_method"]))
    return dtype, shape, step, transpose, reps, form


def repeat_outcome(lib, dtype, shape, step, transpose, reps, form):
    n = int(np.prod(shape)) if shape else 1
    base = lib.tensor((np.arange(n) * 5 % 7).astype(dtype).tolist(),
                      dtype=getattr(lib, dtype)).reshape(shape)
    t = base[tuple(slice(None, None, s) for s in step)] if shape else base
    if transpose:
        t = t.transpose(0, 1)
    if form == "repeat":
        return t.repeat(reps)
    if form == "repeat_varargs":
        return t.repeat(*reps) if isinstance(reps, tuple) else t.repeat(reps)
    return call(lib, "function" if form == "tile" else "method", "tile", t, reps)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(repeat_cases())
def test_repeat_and_tile_match_torch(case):
    assert_like_torch(repeat_outcome, *case)


@pytest.mark.parametrize("statement", [
    "y = t[0].repeat(2)", "y = t.repeat(2, 1, 1)", "y = t.repeat(0, 1)",
    "y = torch.tensor(5).repeat(3)", "y = torch.tensor(5).repeat(())", "y = t.tile(2)",
    "y = t.repeat(1)", "y = t.repeat(-1, 2)", "y = t.T.repeat(2, 2)",
    "y = torch.tile(t, (2, 1, 1))", "y = t[:, ::2].repeat(1, 3)",
    "y = torch.zeros(0, 2).repeat(2, 2)",
])
def test_repeat_runs_the_operators_torch_runs(statement):
    assert_like_torch([statement])


@st.composite
def interleave_cases(draw):
    dtype = draw(st.sampled_from(["int64", "float32", "bool"]))
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=3)))
    transpose = len(shape) >= 2 and draw(st.booleans())
    n = draw(st.integers(0, 4))
    repeats = draw(st.one_of(
        st.lists(st.integers(-1, 3), min_size=n, max_size=n),
        st.integers(-1, 3)))
    rdtype = draw(st.sampled_from(["int64", "int64", "int32", "float32"]))
    dim = draw(st.one_of(st.none(), st.integers(-3, 3)))
    output_size = draw(st.one_of(st.none(), st.integers(-1, 8)))
    if output_size is not None:
        # a negative repeat with output_size= is undefined behaviour in torch (it writes
        # past the result and can abort the process); tidx refuses it (tested below)
        repeats = [abs(r) for r in repeats] if isinstance(repeats, list) else abs(repeats)
    form = draw(st.sampled_from(["method", "function", "repeats_only"]))
    return dtype, shape, transpose, repeats, rdtype, dim, output_size, form


def interleave_outcome(lib, dtype, shape, transpose, repeats, rdtype, dim, output_size, form):
    n = int(np.prod(shape)) if shape else 1
    t = lib.tensor((np.arange(n) * 5 % 7).astype(dtype).tolist(),
                   dtype=getattr(lib, dtype)).reshape(shape)
    if transpose:
        t = t.transpose(0, 1)
    r = lib.tensor(repeats, dtype=getattr(lib, rdtype))
    kwargs = {} if output_size is None else {"output_size": output_size}
    if form == "repeats_only":
        return lib.repeat_interleave(r, **kwargs)
    if form == "function":
        return lib.repeat_interleave(t, r, dim, **kwargs)
    return t.repeat_interleave(r, dim=dim, **kwargs)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(interleave_cases())
def test_repeat_interleave_with_a_tensor_of_repeats_matches_torch(case):
    assert_like_torch(interleave_outcome, *case)


@pytest.mark.parametrize("statement", [
    "y = t.repeat_interleave(torch.tensor([1, 2, 0]), dim=0)",
    "y = torch.repeat_interleave(torch.tensor([1, 2, 3]))",
    "y = t.flatten().repeat_interleave(torch.tensor([1, 2, 0, 1, 1, 1, 1, 1, 1]))",
    "y = t.repeat_interleave(torch.tensor([2]), dim=1)",
    "y = torch.repeat_interleave(torch.tensor([1, 2, 3]), output_size=6)",
    "y = t.repeat_interleave(torch.tensor([1, 2, 0]), dim=-2)",
    "y = torch.repeat_interleave(torch.tensor([], dtype=torch.long))",
    "y = t.repeat_interleave(torch.tensor([1, 2, 0], dtype=torch.int32), dim=0)",
    "y = t.repeat_interleave(torch.tensor(2))",
])
def test_repeat_interleave_runs_the_operators_torch_runs(statement):
    assert_like_torch([statement])


def test_a_negative_repeat_with_output_size_is_refused():
    """torch.repeat_interleave(torch.tensor([3, -1]), output_size=2): the cumsum fits, so
    torch's compute_cpu writes 3 entries into a result of 2 before it meets the -1."""
    from engine.core.errors import Refused
    with pytest.raises(Refused, match="undefined behaviour"):
        engine.repeat_interleave(engine.tensor([3, -1]), output_size=2)
