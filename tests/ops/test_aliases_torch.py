"""torch's aliases (multiply, divide, subtract, greater, less, greater_equal, less_equal,
not_equal): each is one call of the operator it names (engine/dispatch/aliases.py), so
torch.profiler records ``aten::multiply`` with ``aten::mul`` under it.  Compared with torch:
values, errors (a wrong call's TypeError lists the alias's own signatures) and the ops."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

ALIASES = ["multiply", "divide", "subtract", "greater", "less", "greater_equal",
           "less_equal", "not_equal"]
SELF = ["torch.arange(6.).reshape(2, 3)", "torch.arange(6).reshape(2, 3)",
        "torch.tensor([True, False])", "torch.tensor(2.5)"]
OTHER = ["2", "0.5", "True", "torch.arange(3.)", "torch.tensor([1, 0, 2])", "'x'"]
EXTRA = ["", ", alpha=2", ", rounding_mode='floor'", ", rounding_mode='trunc'",
         ", rounding_mode=None", ", 3"]


@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from(ALIASES), st.sampled_from(SELF), st.sampled_from(OTHER),
       st.sampled_from(EXTRA), st.sampled_from(["function", "method", "inplace"]))
def test_an_alias_does_what_torch_does(name, self_, other, extra, form):
    call = {"function": f"torch.{name}(t, {other}{extra})",
            "method": f"t.{name}({other}{extra})",
            "inplace": f"t.{name}_({other}{extra})"}[form]
    assert_like_torch([f"t = {self_}", f"y = {call}"], names=("t", "y"))


@pytest.mark.parametrize("call", [
    "torch.multiply(t, 2, out=o)", "torch.divide(t, 2, rounding_mode='floor', out=o)",
    "torch.divide(t, t, out=o)", "torch.subtract(t, 1, alpha=2, out=o)",
    "torch.multiply(t, 2, out=t)"])
def test_an_alias_s_out_is_its_target_s(call):
    """mul.out, div.out(_mode) and sub.out are modelled (structured groups): an alias's
    out= is one call of its target's, aten::multiply over aten::mul as torch records."""
    assert_like_torch(["t = torch.arange(6.).reshape(2, 3)", "o = torch.empty(0)",
                       f"y = {call}"], names=("t", "y", "o"))


@settings(max_examples=examples(30), deadline=None)
@given(st.sampled_from(["torch.arange(3.)", "torch.ones(2, 3)", "torch.tensor(5)",
                        "torch.zeros(0, 2)"]),
       st.sampled_from(["t.nelement()", "t.ndimension()", "t.nelement(1)",
                        "t.ndimension(dim=0)", "torch.row_stack([t, t])",
                        "torch.row_stack((t,))", "torch.row_stack([])",
                        "torch.row_stack([t, torch.ones(7)])"]))
def test_the_other_aliases_do_what_torch_does(base, call):
    """nelement and ndimension (python_variable_methods.cpp binds them to THPVariable_numel
    and THPVariable_dim), row_stack (vstack)."""
    assert_like_torch([f"t = {base}", f"y = {call}"], names=("y",))
