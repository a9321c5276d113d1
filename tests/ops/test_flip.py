"""torch.flip / Tensor.flip against real torch 2.13: values, layout, errors, operators.

Hypothesis draws dtypes, shapes, strided views of a base, the dims (wrapped, repeated,
out of range, of the wrong type) and the call form (function, method, method with the
dims as varargs); tidx and torch must agree on the result (values, shape, strides,
offset, dtype, a new storage) or on the error (class and message).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch, call, shares

pytestmark = pytest.mark.torch

DTYPES = ["int64", "float32", "bool", "uint8", "float64"]


@st.composite
def cases(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=4)))
    view = tuple(slice(draw(st.integers(0, 1)), None, draw(st.integers(1, 2)))
                 if draw(st.booleans()) else slice(None) for _ in shape)
    transpose = len(shape) >= 2 and draw(st.booleans())
    dims = draw(st.one_of(
        st.lists(st.integers(-5, 5), min_size=0, max_size=3),
        st.sampled_from([0.5, "a", None, [0.5], 1])))
    form = draw(st.sampled_from(["function", "method", "varargs"]))
    return dtype, shape, view, transpose, dims, form


def flipped(lib, dtype, shape, view, transpose, dims, form):
    """The result, and whether it shares the base's storage (flip copies)."""
    n = int(np.prod(shape)) if shape else 1
    values = (np.arange(n) * 5 % 7).reshape(shape).astype(dtype)
    base = lib.tensor(values.tolist(), dtype=getattr(lib, dtype)).reshape(shape)
    t = base[view] if view else base
    if transpose:
        t = t.transpose(0, 1)
    if form == "varargs" and isinstance(dims, list):
        r = t.flip(*dims)
    else:
        r = call(lib, "function" if form == "function" else "method", "flip", t, dims)
    return r, shares(r, base)


@settings(max_examples=examples(400), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_flip_matches_torch(case):
    assert_like_torch(flipped, *case)


@pytest.mark.parametrize("statements", [
    ["y = t.flip(1)"],
    ["y = torch.flip(t, (0, 1))"],
    ["y = t.flip([])"],
    ["y = torch.zeros(1, 3).flip(0)"],
    ["y = t.t().flip(0)"],
    ["y = t[:, ::2].flip(-1)"],
    ["y = t.flip(0, 0)"],
])
def test_flip_runs_the_operators_torch_runs(statements):
    """The aten operator tree torch.profiler records, and the named tensors."""
    assert_like_torch(statements)
