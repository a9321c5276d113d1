"""torch.where(condition, x, y) against torch 2.13 (TensorCompare.cpp where, where_self_out):
every overload (tensors and numbers on either side), promotion, broadcasting, strided
inputs, uint8 and non-bool conditions — values, layout, errors, operator trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

DTYPES = ["int64", "float32", "bool", "uint8", "float64", "int32"]


def _tensor(lib, dtype, shape, transpose):
    n = int(np.prod(shape)) if shape else 1
    t = lib.tensor((np.arange(n) * 3 % 5).astype(dtype).tolist(),
                   dtype=getattr(lib, dtype)).reshape(shape)
    return t.transpose(0, 1) if transpose and len(shape) >= 2 else t


@st.composite
def cases(draw):
    shapes = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)
    operand = st.one_of(
        st.tuples(st.sampled_from(DTYPES), shapes, st.booleans()),
        st.sampled_from([0, 1.5, True, -3, None, "a"]))
    cond = st.tuples(st.sampled_from(["bool", "bool", "uint8", "int64"]), shapes, st.booleans())
    form = draw(st.sampled_from(["function", "method"]))
    return draw(cond), draw(operand), draw(operand), form


def outcome(lib, cond, x, y, form):
    c = _tensor(lib, *cond) > 1 if cond[0] == "bool" else _tensor(lib, *cond)
    xs = _tensor(lib, *x) if isinstance(x, tuple) else x
    ys = _tensor(lib, *y) if isinstance(y, tuple) else y
    if form == "method" and isinstance(xs, lib.Tensor):
        return xs.where(c, ys)
    return lib.where(c, xs, ys)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_where_matches_torch(case):
    assert_like_torch(outcome, *case)


@pytest.mark.parametrize("statement", [
    "y = torch.where(t > 4, t, 0)", "y = torch.where(t > 4, 1.0, 0)",
    "y = torch.where(t > 4, t, t.float())", "y = torch.where(t > 4, 0.5, t)",
    "y = torch.where(t, t, 0)", "y = torch.where(t > 4, t, torch.zeros(3, 1))",
    "y = (t > 4).where(t, 0)", "y = t.where(t > 4, 0)", "y = torch.where((t > 4).byte(), t, 0)",
    "y = torch.where(t > 4, t.T, 0)", "y = torch.where(t > 4, t, torch.zeros(2))",
    "y = torch.where(t > 4, t[:, :1], t[0])", "y = torch.where(t > 4, True, t)",
])
def test_where_runs_the_operators_torch_runs(statement):
    assert_like_torch([statement])
