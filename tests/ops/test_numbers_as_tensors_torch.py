"""A Python number where torch's arithmetic takes a Tensor (should_allow_numbers_as_tensors,
torch/csrc/utils/python_arg_parser.cpp): PythonArgs::tensor_slow wraps it into a 0-dim
CPU tensor, also when every operand is a number (``torch.add(5, 5)`` is ``tensor(10)``).
Once an internal error in tidx: TensorIterator found no tensor to take its device from."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

NUMBERS = st.one_of(st.booleans(), st.integers(-7, 7),
                    st.sampled_from([0.5, -2.25, 3.0, 1e30, float("inf")]))
FUNCTIONS = ["add", "sub", "mul", "div", "true_divide", "floor_divide"]


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(FUNCTIONS), NUMBERS, NUMBERS,
       st.sampled_from(["", ", alpha=2", ", alpha=0.5"]))
def test_numbers_alone_are_wrapped_as_torch_wraps_them(name, a, b, alpha):
    # alpha only where the function takes it (torch's TypeError otherwise: compared too)
    assert_like_torch(f"y = torch.{name}({a!r}, {b!r}{alpha})".replace("inf", "float('inf')"))


def test_a_number_first_beside_a_tensor():
    assert_like_torch("y = torch.add(5, torch.arange(3))")
    assert_like_torch("y = torch.mul(2.5, torch.arange(3))")
