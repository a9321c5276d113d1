"""x.exponential_(lambd), x.geometric_(p), x.cauchy_(median, sigma), x.random_() and torch.multinomial(p, n, replacement=True) (engine/ops/
samplers.py) compared with torch: the draws bit for bit with torch's CPU generator
(exponential: 53 bits of random64() and glibc's log1p per element in memory order,
strided and half tensors too; multinomial: the running sums in the dtype, one
uniform draw and one binary search per sample, rows one after another), the aten tree
torch.profiler records, errors word for word and in torch's order; and the forms tidx
does not replay (MKL's exponential on Intel) refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.core import capability as C
from engine.core.errors import Refused
from engine.interpreter import session
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

INTEL = C.machine().vendor in ("intel", "")
needs_torchs_own_loop = pytest.mark.skipif(
    INTEL, reason="torch runs MKL's exponential stream on an Intel CPU (refused by tidx)")

SELVES = ["torch.empty(3, 4)", "torch.empty(4, 3).t()", "torch.empty(8, dtype=torch.float64)",
          "torch.empty(5, dtype=torch.half)", "torch.empty(6)[::2]", "torch.empty(0)",
          "torch.empty(2, 1, 3)", "torch.empty(())"]


@needs_torchs_own_loop
@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(SELVES), st.sampled_from([1.0, 2.5, 0.1, 1e-30, 7]),
       st.sampled_from([0, 5]))
def test_exponential_is_torchs(self_, lambd, seed):
    assert_like_torch([f"torch.manual_seed({seed})", f"y = {self_}",
                       f"z = y.exponential_({lambd})", "w = torch.rand(2)"],
                      names=("y", "z", "w"))


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(SELVES + ["torch.empty(7, dtype=torch.long)",
                                 "torch.empty(3, 2, dtype=torch.int32)"]),
       st.sampled_from([0.5, 0.01, 0.9, 1e-6]), st.sampled_from([0, 5]))
def test_geometric_is_torchs(self_, p, seed):
    assert_like_torch([f"torch.manual_seed({seed})", f"y = {self_}",
                       f"z = y.geometric_({p})", "w = torch.rand(2)"], names=("y", "z", "w"))


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(SELVES), st.sampled_from([(0, 1), (2.5, 0.1), (-1e3, 7)]),
       st.sampled_from([0, 5]))
def test_cauchy_is_torchs(self_, params, seed):
    median, sigma = params
    assert_like_torch([f"torch.manual_seed({seed})", f"y = {self_}",
                       f"z = y.cauchy_({median}, sigma={sigma})", "w = torch.rand(2)"],
                      names=("y", "z", "w"))


RANDOM_SELVES = SELVES + ["torch.empty(7, dtype=torch.long)", "torch.empty(3, 2, dtype=torch.int32)",
                          "torch.empty(5, dtype=torch.int8)", "torch.empty(5, dtype=torch.uint8)",
                          "torch.empty(5, dtype=torch.int16)", "torch.empty(4, dtype=torch.bool)",
                          "torch.empty(4, 3, dtype=torch.long).t()"]


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(RANDOM_SELVES), st.sampled_from([0, 5]))
def test_random_over_the_whole_range_is_torchs(self_, seed):
    assert_like_torch([f"torch.manual_seed({seed})", f"y = {self_}", "z = y.random_()",
                       "w = torch.rand(2)"], names=("y", "z", "w"))


PROBS = ["torch.ones(4)", "torch.tensor([0.1, 0.0, 0.7, 0.2])", "torch.rand(3, 5)",
         "torch.rand(5, 3).t()", "torch.rand(2, 6, dtype=torch.float64)",
         "torch.rand(7).half()", "torch.tensor([[0., 3.], [1e-30, 1.]])",
         "torch.rand(10)[::2] * 100"]


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(PROBS), st.sampled_from([2, 3, 9]), st.sampled_from([0, 5]))
def test_multinomial_with_replacement_is_torchs(p, n, seed):
    assert_like_torch([f"torch.manual_seed({seed})", f"p = {p}",
                       f"y = torch.multinomial(p, {n}, replacement=True)",
                       "z = p.multinomial(2, True)", "w = torch.rand(2)"],
                      names=("y", "z", "w"))


@pytest.mark.parametrize("statement", [
    "y = torch.empty(3).exponential_(-1.)",
    "y = torch.zeros(1).expand(3).exponential_()",
    "y = torch.empty(3).exponential_(0)",
    "y = torch.empty(3, dtype=torch.long).exponential_()",
    "y = torch.empty(0, dtype=torch.long).exponential_()",
    "y = torch.empty(3, dtype=torch.bool).exponential_(2)",
    "y = torch.zeros(1).expand(3).random_()",
    "y = torch.empty(0, dtype=torch.bool).random_()",
    "y = torch.empty(3).geometric_(0)",
    "y = torch.empty(3).geometric_(1)",
    "y = torch.empty(3, dtype=torch.bool).geometric_(0.5)",
    "y = torch.zeros(1).expand(3).geometric_(0.5)",
    "y = torch.empty(3).cauchy_(sigma=0)",
    "y = torch.empty(3).cauchy_(1, -2)",
    "y = torch.empty(3, dtype=torch.long).cauchy_()",
    "y = torch.empty(0, dtype=torch.long).cauchy_()",
    "y = torch.multinomial(torch.ones(2, 2, 2), 2, True)",
    "y = torch.multinomial(torch.ones(()), 2, True)",
    "y = torch.multinomial(torch.ones(3, dtype=torch.long), 2, True)",
    "y = torch.multinomial(torch.ones(3), 0, True)",
    "y = torch.multinomial(torch.tensor([1., -1.]), 2, True)",
    "y = torch.multinomial(torch.tensor([float('inf'), -1.]), 2, True)",
    "y = torch.multinomial(torch.tensor([1., float('nan')]), 2, True)",
    "y = torch.multinomial(torch.tensor([[1., 1.], [0., 0.]]), 2, True)",
    "y = torch.multinomial(torch.zeros(0, 3), 2, True)",
    "y = torch.multinomial(torch.ones(3), 2, replacement=True, out=torch.empty(0))",
    "y = torch.multinomial(torch.ones(3), 2, replacement=True, "
    "out=torch.empty(0, dtype=torch.long))",
    "y = torch.multinomial(torch.ones(2, 3), 4, replacement=True, "
    "out=torch.empty(9, dtype=torch.long))",
])
def test_sampler_errors_and_edges_are_torchs(statement):
    assert_like_torch(["torch.manual_seed(0)", statement], names=("y",))


def test_what_tidx_does_not_replay_is_refused():
    if INTEL:
        with pytest.raises(Refused, match="MKL"):
            session.run("y = torch.empty(3).exponential_()")
