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


SCALAR_FORMS = ["y = torch.zeros(40).bernoulli_(0.3)", "y = torch.bernoulli(torch.zeros(3), p=0.3)",
                "y = torch.zeros(5).bernoulli_()", "y = torch.zeros(3).bernoulli_(1.5)",
                "y = torch.zeros(3).bernoulli_(float('nan'))", "y = torch.zeros(0).bernoulli_(2.)",
                "y = torch.zeros(4, 3).t().bernoulli_(0.25)",
                "y = torch.zeros(3, dtype=torch.long).bernoulli_(0.5)",
                "y = torch.zeros(3, dtype=torch.bool).bernoulli_(0.9)",
                "y = torch.zeros(1).expand(3).bernoulli_(0.5)",
                "y = torch.rand(2, 3).bernoulli(0.333333333)",
                "y = torch.zeros(6)[::2].bernoulli_(0.5)"]


def _intel() -> bool:
    from engine.core import capability as C

    machine = C.machine()
    return machine.x86 and machine.vendor in ("intel", "")


@pytest.mark.parametrize("statement", SCALAR_FORMS)
def test_a_float_probability_is_torch_s_or_refused_on_intel(statement):
    """torch's numbers depend on the CPU's vendor: MKL's MCG31 stream on Intel (refused by
    tidx in one line), torch's own serial loop elsewhere (compared bit for bit)."""
    if not _intel():
        assert_like_torch(["torch.manual_seed(0)", statement])
        return
    from oracle import run_tidx
    from engine.core.errors import Refused

    try:
        outcome = run_tidx(["torch.manual_seed(0)", statement], ["y"])
    except Refused as exc:
        assert "MKL" in str(exc) or "vendor" in str(exc)
    else:       # an argument error comes first, as in torch
        assert outcome.error is not None


@pytest.mark.parametrize("vendor, refused", [("intel", True), ("", True), ("amd", False),
                                             ("hygon", False)])
def test_the_vendor_chooses_the_kernel(monkeypatch, vendor, refused):
    """Whatever this machine is: an Intel (or unknown) x86 CPU refuses, others draw."""
    from engine.core import capability as C
    from engine.core.errors import Refused
    from oracle import run_tidx

    here = C.machine()
    monkeypatch.setattr(C, "machine", lambda: C.Machine("x86_64", here.features, 2, vendor))
    if refused:
        with pytest.raises(Refused):
            run_tidx(["y = torch.zeros(3).bernoulli_(0.5)"], ["y"])
    else:
        assert run_tidx(["y = torch.zeros(3).bernoulli_(0.5)"], ["y"]).error is None
