"""``torch.bernoulli(p)``, ``x.bernoulli_(p)`` and ``bernoulli(p, out=)`` with a tensor of
probabilities, compared with torch: the draws bit for bit (a float p draws 24 bits of
random(), a double p 53 bits of random64(), serially in the loop's order -- strided and
broadcast operands too), dtypes, the aten tree torch.profiler records, errors word for
word; and the float-p form, whose numbers depend on the CPU's vendor, refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

PROBS = ["torch.full((8,), 0.5)", "torch.rand(3, 4)", "torch.rand(3, 4, dtype=torch.float64)",
         "torch.rand(4, 3).t()", "torch.rand(6)[::2]", "torch.tensor([0., 1., 0.5, 0.25])",
         "torch.rand(5).half()", "torch.zeros(0)", "torch.rand(20, 20)",
         "torch.arange(4)", "torch.tensor(0.7)", "torch.rand(2, 1, 3)"]
SELVES = ["torch.zeros(3, 4)", "torch.zeros(4, 3).t()", "torch.zeros(3, 4, dtype=torch.long)",
          "torch.zeros(3, 4, dtype=torch.bool)", "torch.zeros(8)", "torch.zeros(2, 1, 3)",
          "torch.zeros(1).expand(3)", "torch.zeros(0)", "torch.zeros(3, 4, dtype=torch.uint8)",
          "torch.zeros(3, 4, dtype=torch.float64)[:, ::2]"]


@settings(max_examples=examples(80), deadline=None)
@given(st.sampled_from(PROBS), st.sampled_from([0, 5]))
def test_bernoulli_of_a_probability_tensor_is_torch_s(p, seed):
    assert_like_torch([f"torch.manual_seed({seed})", f"p = {p}", "y = torch.bernoulli(p)"])


@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from(SELVES), st.sampled_from(PROBS))
def test_bernoulli_in_place_is_torch_s(self_, p):
    assert_like_torch(["torch.manual_seed(1)", f"p = {p}", f"y = {self_}",
                       "y.bernoulli_(p)"])


@pytest.mark.parametrize("statement", [
    "y = torch.bernoulli(torch.rand(3), out=torch.empty(3))",
    "y = torch.bernoulli(torch.rand(3), out=torch.empty(5))",
    "y = torch.bernoulli(torch.rand(3), out=torch.empty(0, dtype=torch.long))",
    "y = torch.rand(2, 3).bernoulli()",
    "y = torch.bernoulli(torch.rand(3), generator=None)",
    "y = torch.empty(3).bernoulli_(torch.rand(4))",
])
def test_bernoulli_other_forms_are_torch_s(statement):
    assert_like_torch(["torch.manual_seed(2)", statement])


@pytest.mark.parametrize("statement", ["y = torch.empty(3).bernoulli_(0.3)",
                                       "y = torch.bernoulli(torch.empty(3), p=0.3)",
                                       "y = torch.empty(3).bernoulli_()"])
def test_a_float_probability_is_refused_in_one_line(statement):
    """Its numbers come from MKL on an Intel CPU and from torch's loop on others."""
    from oracle import run_tidx
    from engine.core.errors import Refused

    with pytest.raises(Refused, match="depend on the machine"):
        run_tidx(["torch.manual_seed(0)", statement], ["y"])
