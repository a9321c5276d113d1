"""bincount (engine/ops/counting.py) compared with torch 2.13: the counts, the weighted
sums bit for bit (float weights summed in float one element after another, every other
weight dtype as double), minlength, the empty input's int64 zeros, the errors word for
word and in torch's order, and the aten operators torch.profiler records (bincount >
contiguous of the weights, to(double), contiguous of the input, min, max, zeros)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

T = "t = torch.tensor([1, 2, 2, 5]); "


@pytest.mark.parametrize("statements", [
    T + "y = t.bincount()",
    T + "y = torch.bincount(t, minlength=8)",
    T + "y = t.bincount(torch.tensor([.5, 1., 1., 2.]))",
    T + "y = t.bincount(torch.tensor([.5, 1., 1., 2.], dtype=torch.double), minlength=3)",
    T + "y = t.bincount(torch.tensor([1, 1, 1, 2]))",
    T + "y = t.bincount(torch.tensor([.5, 1., 1., 2.], dtype=torch.half))",
    T + "y = t.bincount(torch.tensor([True, False, True, True]))",
    T + "y = t[::2].bincount(torch.tensor([1, 1, 1, 2])[::2])",
    T + "y = t[::2].bincount(torch.tensor([1., 1., 1., 2.])[::2])",
    "t = torch.tensor([], dtype=torch.long); y = t.bincount(minlength=3)",
    "t = torch.tensor([], dtype=torch.long); y = t.bincount(torch.tensor([]))",
    "t = torch.tensor([3, 0], dtype=torch.uint8); y = t.bincount()",
    "t = torch.tensor([3, 0], dtype=torch.int8); y = t.bincount(t)",
    # errors, in torch's order
    "t = torch.tensor([1., 2.]); y = t.bincount()",
    "t = torch.tensor([True, False]); y = t.bincount()",
    "t = torch.tensor([-1, 2]); y = t.bincount()",
    "t = torch.tensor([[1, 2]]); y = t.bincount()",
    "t = torch.tensor([[1, 2], [2, 5]]); y = t.bincount(torch.tensor([1., 1, 1, 2]))",
    "t = torch.tensor([1, -2, 2, 5]); y = t.bincount(torch.tensor([1., 1.]))",
    T + "y = t.bincount(torch.tensor([1., 1.]))",
    T + "y = t.bincount(torch.tensor([[1., 1., 1., 1.]]))",
    T + "y = t.bincount(minlength=-1)",
    T + "y = t.bincount(torch.tensor([1., 1.]), minlength=-1)",
    T + "y = t.bincount(minlength=1.5)",
])
def test_bincount_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


@given(values=st.lists(st.integers(0, 12), min_size=0, max_size=60),
       weights=st.sampled_from([None, "float32", "float64", "float16", "int64", "bool"]),
       minlength=st.integers(0, 20), step=st.integers(1, 3), seed=st.integers(0, 2 ** 16))
@settings(max_examples=examples(80), deadline=None)
def test_weighted_sums_round_as_torchs_loop(values, weights, minlength, step, seed):
    def program(lib):
        t = lib.tensor(values, dtype=lib.long)[::step]
        if weights is None:
            return t.bincount(minlength=minlength)
        rnd = random.Random(seed)
        w = lib.tensor([rnd.uniform(-300., 700.) for _ in values], dtype=lib.float64)
        w = (w > 0) if weights == "bool" else w.to(getattr(lib, weights))
        return lib.bincount(t, w[::step], minlength)
    assert_like_torch(program)
