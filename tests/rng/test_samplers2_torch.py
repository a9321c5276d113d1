"""torch.multinomial without replacement (or of one sample), torch.poisson and
Tensor.log_normal_ (engine/ops/samplers.py, engine/ops/samplers2.py) compared with torch:
the draws bit for bit with torch's CPU generator, under both CPU capabilities; the aten
tree torch.profiler records (multinomial: aminmax, ge, lt, bitwise_and, _assert_async,
sum, eq, [any,] bitwise_not, _assert_async, empty_like, exponential_, div, then argmax or
empty and topk); errors word for word and in torch's order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.core import capability as C
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

INTEL = C.machine().vendor in ("intel", "")
needs_torchs_own_loop = pytest.mark.skipif(
    INTEL, reason="torch runs MKL's exponential stream on an Intel CPU (refused by tidx)")

#: weights with zeros, ties, strided rows, doubles, rows of one category
PROBS = ["torch.ones(4)", "torch.tensor([0.1, 0.0, 0.7, 0.2])", "torch.rand(3, 5)",
         "torch.rand(5, 3).t()", "torch.rand(2, 6, dtype=torch.float64)",
         "torch.tensor([[0., 3., 0., 3.], [1e-30, 1., 1., 0.]])", "torch.tensor([5.])",
         "torch.rand(10)[::2] * 100", "torch.tensor([0., 0., 2., 0., 0.])",
         "torch.arange(1., 200.)", "torch.ones(2, 1)"]


@needs_torchs_own_loop
@pytest.mark.fast
@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(PROBS), st.sampled_from([1, 2, 3, 5]), st.sampled_from([0, 5]),
       st.sampled_from(["torch.multinomial(p, {n})", "p.multinomial({n})",
                        "torch.multinomial(p, {n}, replacement=False)",
                        "torch.multinomial(p, 1, True)"]))
def test_multinomial_without_replacement_is_torchs(p, n, seed, form):
    assert_like_torch([f"torch.manual_seed({seed})", f"p = {p}", f"y = {form.format(n=n)}",
                       "w = torch.rand(2)"], names=("y", "w"))


@pytest.mark.fast
@pytest.mark.parametrize("statement", [
    "y = torch.multinomial(torch.ones(3), 4)",
    "y = torch.multinomial(torch.tensor([1., -1.]), 1)",
    "y = torch.multinomial(torch.tensor([1., float('inf')]), 2)",
    "y = torch.multinomial(torch.tensor([1., float('nan')]), 1)",
    "y = torch.multinomial(torch.zeros(3), 2)",
    "y = torch.multinomial(torch.tensor([[1., 1.], [0., 0.]]), 1)",
    "y = torch.multinomial(torch.tensor([[1., 1.], [0., 0.]]), 2)",
    "y = torch.multinomial(torch.zeros(0, 3), 2)",
    "y = torch.multinomial(torch.ones(3, dtype=torch.long), 2)",
    "y = torch.multinomial(torch.ones(3), 0)",
    "y = torch.multinomial(torch.ones(3), 2, out=torch.empty(0))",
])
def test_multinomial_errors_are_torchs(statement):
    assert_like_torch(["torch.manual_seed(0)", statement], names=("y",))
