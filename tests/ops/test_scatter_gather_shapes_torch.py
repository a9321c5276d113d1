"""gather, scatter, scatter_add, scatter_reduce and take against real torch 2.13 on shapes
drawn apart: self, index and src each of 0 to 3 dims (0-dim and 0-size included), so the
operands' dims disagree as often as they agree.  ScatterGatherChecks.h checks them in an
order (index against self, sizes against src, src's dims) whose first failure is the
error torch raises, and the kernels treat a 0-dim operand as one element along one dim;
tidx must raise the same error or give the same result, never an internal error.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import cli_run, examples, require_torch
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

SHAPES = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)
OPS = ["gather", "scatter", "scatter_", "scatter_value", "scatter_reduce_old", "scatter_add",
       "scatter_reduce", "scatter_reduce_exclude", "take"]


def _tensor(lib, shape, dtype, shift=0):
    n = int(np.prod(shape)) if shape else 1
    values = ((np.arange(n) * 3 + shift) % 5).astype(dtype).tolist()
    return lib.tensor(values, dtype=getattr(lib, dtype)).reshape(shape)


def outcome(lib, op, self_shape, index_shape, src_shape, dim, index_values, dtype, reduce):
    """The result, and self after it (an in-place form writes it)."""
    t = _tensor(lib, self_shape, dtype)
    n = int(np.prod(index_shape)) if index_shape else 1
    index = lib.tensor([index_values[j % len(index_values)] for j in range(n)],
                       dtype=lib.int64).reshape(index_shape)
    src = _tensor(lib, src_shape, dtype, 1)
    if op == "gather":
        r = lib.gather(t, dim, index)
    elif op == "scatter":
        r = t.scatter(dim, index, src)
    elif op == "scatter_":
        r = t.scatter_(dim, index, src)
    elif op == "scatter_value":
        r = lib.scatter(t, dim, index, 2)
    elif op == "scatter_reduce_old":   # (its deprecation warning: the harness ignores it)
        r = t.scatter(dim, index, src, reduce="add" if reduce == "sum" else "multiply")
    elif op == "scatter_add":
        r = lib.scatter_add(t, dim, index, src)
    elif op == "scatter_reduce":
        r = t.scatter_reduce(dim, index, src, reduce)
    elif op == "scatter_reduce_exclude":
        r = t.scatter_reduce_(dim, index, src, reduce, include_self=False)
    else:
        r = t.take(index)
    return r, t


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(OPS), SHAPES, SHAPES, SHAPES, st.integers(-4, 3),
       st.lists(st.integers(-1, 3), min_size=1, max_size=4),
       st.sampled_from(["float32", "int64"]), st.sampled_from(["sum", "prod", "amax"]))
# the issue's idx_1.scatter(-1, torch.tensor(1), idx_0): src has more dims than index
@example("scatter", (2,), (), (2, 2), -1, [1], "int64", "sum")
# a 0-dim self or index beside a 1-dim one: one element along one dim in the kernel
@example("gather", (2,), (), (), 0, [0], "float32", "sum")
@example("gather", (), (1,), (), 0, [0], "float32", "sum")
@example("scatter_add", (), (1,), (2,), 0, [0], "float32", "sum")
@example("scatter_reduce", (3,), (), (), 0, [2], "float32", "prod")
# src with fewer dims than self: size() of src raises first
@example("scatter", (2, 2), (1, 1), (2,), 0, [0], "float32", "sum")
@example("take", (0,), (), (), 0, [0], "float32", "sum")
def test_scatter_gather_take_match_torch_on_any_shapes(op, self_shape, index_shape,
                                                      src_shape, dim, index_values, dtype,
                                                      reduce):
    assert_like_torch(outcome, op, self_shape, index_shape, src_shape, dim, index_values, dtype,
                      reduce)


def test_the_issues_scatter_is_torchs_error_from_the_command_line():
    torch = require_torch()
    statement = "idx_1.scatter(-1, torch.tensor(1), idx_0)"
    idx_0, idx_1 = torch.tensor([[1, 0], [2, 1]]), torch.tensor([0, 1])
    with pytest.raises(RuntimeError) as raised:
        idx_1.scatter(-1, torch.tensor(1), idx_0)
    result = cli_run("explain", statement)
    assert result.exit_code == 1, result.output
    assert f"raised RuntimeError: {raised.value}" in result.output
    assert "internal error" not in result.output
