"""torch.aminmax / Tensor.aminmax (engine/ops/aminmax.py) compared with torch: values bit
for bit (the first extreme of each row; a NaN wins both), the shapes with and without
dim and keepdim, the torch.return_types.aminmax it prints, errors word for word (an empty
input, an empty reduced dim, a dim out of range, complex), and the aten tree
torch.profiler records (fill_ twice for the whole tensor; unsqueeze_/squeeze_ around the
kernel over a dim without keepdim; resize_ and fill_ for a 0-dim input)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = [pytest.mark.torch, pytest.mark.fast]

SELVES = ["torch.tensor([[3., -1., 2.], [0., 5., 5.]])", "torch.arange(12.).reshape(3, 4).t()",
          "torch.tensor([1., float('nan'), -2., float('nan')])",
          "torch.tensor([[2, 7, -3], [7, 1, 1]])", "torch.tensor([[True, False], [True, True]])",
          "torch.tensor([[1., 2.], [0.5, -3.]]).half()", "torch.tensor(4.)",
          "torch.tensor([[1.5, -2.], [4., 4.]], dtype=torch.float64)[:, ::-1]",
          "torch.ones(0, 3)", "torch.ones(2, 0)", "torch.arange(24).reshape(2, 3, 4)[:, 1]",
          "torch.tensor([[float('inf'), 1.], [2., float('-inf')]])", "torch.ones(1, 1, 5)"]


@settings(max_examples=examples(80), deadline=None)
@given(st.sampled_from(SELVES), st.sampled_from([None, 0, 1, -1, 2]), st.booleans(),
       st.sampled_from(["torch.aminmax(x{args})", "x.aminmax({args1})"]))
def test_aminmax_is_torchs(x, dim, keepdim, form):
    args = ("" if dim is None else f", dim={dim}") + (", keepdim=True" if keepdim else "")
    call = form.format(args=args, args1=args.lstrip(", "))
    assert_like_torch([f"x = {x}", f"r = {call}", "y, z = r", "w = r.min", "v = r[1]"],
                      names=("y", "z", "w", "v"))


@pytest.mark.parametrize("statement", [
    "y = torch.aminmax(torch.ones(0))",
    "y = torch.aminmax(torch.ones(0, 3), dim=0)",
    "y = torch.aminmax(torch.ones(2, 3), dim=2)",
    "y = torch.aminmax(torch.tensor(3.), dim=1)",
    "y = torch.aminmax(torch.ones(2, 3, dtype=torch.complex64))",
    "y = torch.aminmax(torch.ones(2, 3, dtype=torch.complex64), dim=0)",
    "y = torch.aminmax(torch.ones(0, dtype=torch.complex64))",
    "y = torch.aminmax(torch.tensor(1j), dim=0)",
])
def test_aminmax_errors_and_repr_are_torchs(statement):
    assert_like_torch([statement], names=("y",))


@pytest.mark.parametrize("program", [
    lambda lib: lib.aminmax(lib.tensor([[1., 2.], [3., 0.]]), dim=0),
    lambda lib: lib.tensor([1, 5, 2]).aminmax(),
    lambda lib: lib.tensor([[1., float("nan")]]).aminmax(dim=-1, keepdim=True),
])
def test_aminmax_prints_as_torch_does(program):
    """torch.return_types.aminmax(min=..., max=...), one field a line."""
    import engine
    from conftest import require_torch
    assert repr(program(engine)) == repr(program(require_torch()))


def test_aminmax_makes_torchs_grad_fn():
    assert_like_torch(["x = torch.tensor([[1., 2.], [3., 0.]], requires_grad=True)",
                       "y, z = torch.aminmax(x, dim=1)", "g = str(y.grad_fn.name())"],
                      names=("g",))
