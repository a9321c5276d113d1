"""``torch.normal``'s four overloads and their out= forms, compared with torch: the numbers
bit for bit (the normal kernel called directly, then torch's own add_/mul_), the shape,
strides and dtype, the aten tree torch.profiler records (the std checks run twice), the
resize warning's path and the errors word for word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

MEANS = ["0.", "1.5", "torch.arange(4.)", "torch.arange(6.).reshape(2, 3)",
         "torch.arange(8.).reshape(2, 4)[:, ::2]", "torch.arange(4.).reshape(4, 1)",
         "torch.arange(3, dtype=torch.float64)", "torch.zeros(0)", "torch.arange(4)",
         "torch.tensor(2.)", "torch.arange(20.)"]
STDS = ["1.", "2.", "0.", "-1.", "float('nan')", "torch.ones(4)", "torch.full((2, 3), 0.5)",
        "torch.tensor([1., -1., 2., 3.])", "torch.ones(3)", "torch.ones(2, dtype=torch.float64)",
        "torch.ones(1, 4)", "torch.ones(4, dtype=torch.long)", "torch.zeros(0)",
        "torch.arange(20.)"]
OUTS = ["", ", out=torch.empty(4)", ", out=torch.empty(0)", ", out=torch.empty(2)",
        ", out=torch.empty(4, dtype=torch.float64)", ", out=torch.empty(2, 3)"]


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(MEANS), st.sampled_from(STDS), st.sampled_from(OUTS),
       st.sampled_from([0, 7]))
def test_normal_with_tensors_is_torch_s(mean, std, out, seed):
    if mean[0].isdigit() and std[0] in "-0123456789f":
        std = "torch.ones(2)"       # (float, float) needs a size: the next test's form
    assert_like_torch([f"torch.manual_seed({seed})", f"y = torch.normal({mean}, {std}{out})"])


@pytest.mark.parametrize("call", [
    "torch.normal(0., 1., (2, 3))", "torch.normal(2, 3, size=(2,))",
    "torch.normal(0., 1., (2,), dtype=torch.float64)", "torch.normal(0., 1., (0,))",
    "torch.normal(0., -1., (2,))", "torch.normal(0., 1., (2,), out=torch.empty(5))",
    "torch.normal(0., 1., (2,), dtype=torch.long)", "torch.normal(0., 1.)",
    "torch.normal(torch.arange(4.))", "torch.normal(mean=torch.arange(4.), std=torch.ones(4))",
    "torch.normal(torch.arange(4.), 1., generator=None)",
])
def test_normal_other_forms_are_torch_s(call):
    assert_like_torch(["torch.manual_seed(0)", f"y = {call}"])


def test_a_normal_after_a_normal_draws_on():
    """The generator moves on: the second call's numbers follow the first's."""
    assert_like_torch(["torch.manual_seed(3)", "a = torch.normal(torch.zeros(17), 1.)",
                       "y = torch.normal(2., torch.ones(5))"], names=("a", "y"))
