"""Double backward: the nodes a create_graph=True backward pass records for the
first-hour activations' own backward operators (derivatives.yaml's threshold_backward
row: ThresholdBackwardBackward0, relu's; SigmoidBackwardBackward0, TanhBackwardBackward0),
backward through them compared with torch 2.13:
the leaves' ``.grad`` bit for bit and the gradient graph's nodes."""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

pytestmark = pytest.mark.torch

LEAF = "x = torch.tensor([[-1.5, 0., 2.], [3., -0.5, 1.]], requires_grad=True)"
V = "v = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)"

PROGRAMS = [
    # through grad_output (v) and self (relu's result)
    "y = x.relu(); y.backward(v, create_graph=True); g = x.grad; n = g.grad_fn.name(); "
    "(g * g).sum().backward(); gv = v.grad; gx = x.grad",
    "y = (x * 1).relu_(); y.backward(v, create_graph=True); g = x.grad; "
    "n = g.grad_fn.name(); g.sum().backward(); gv = v.grad; gx = x.grad",
    # sigmoid's and tanh's: both edges, then the output edge alone (tanh's outputs -1, 0
    # and 1: its float bits elsewhere are Sleef's, within a bound, not compared here)
    "y = x.sigmoid(); y.backward(v, create_graph=True); g = x.grad; n = g.grad_fn.name(); "
    "(g * g).sum().backward(); gv = v.grad; gx = x.grad",
    "y = (x * 40).tanh(); y.backward(v, create_graph=True); g = x.grad; n = g.grad_fn.name(); "
    "(g * g).sum().backward(); gv = v.grad; gx = x.grad",
    "y = (x * 40).tanh(); y.sum().backward(create_graph=True); g = x.grad; g.sum().backward(); "
    "gx = x.grad",
    "y = x.sigmoid(); y.sum().backward(create_graph=True); g = x.grad; g.sum().backward(); "
    "gx = x.grad",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_threshold_backward_backward_is_torchs(program):
    assert_like_torch([LEAF, V, *program.split("; ")], names=("g", "n", "gv", "gx"))
