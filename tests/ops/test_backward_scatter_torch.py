"""The backward formulas of engine/autograd/formulas_scatter.py (rot90, diag_embed,
constant_pad_nd, index_copy, std_mean, var_mean;
issue #27, and pow_.Tensor), compared with torch 2.13 as tests/ops/test_backward_joins_torch.py
compares the others: the leaves' ``.grad`` (values bit for bit, shape, strides, dtype) and the
whole profiler tree of the backward pass.

Negative k and dims, offsets on either side of the diagonal, negative (cutting) pads and
strided (transposed) inputs, repeated
indices, 0-dim sources.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

LEAF = "x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()"
OTHER = "w = torch.arange(6.).reshape(2, 3).requires_grad_()"
NAMES = ("gx", "gw", "y")

PROGRAMS = [
    "y = (x.rot90(1, [0, 2]) * torch.arange(2.)).sum(); y.backward(); gx = x.grad",
    "y = (w.rot90() * torch.arange(2.)).sum(); y.backward(); gw = w.grad",
    "y = (w.t().rot90(-3, [-1, 0]) * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = (w.rot90(2) * w).sum(); y.backward(); gw = w.grad",
    "y = w.rot90(0).sum(); y.backward(); gw = w.grad",
    "y = (torch.diag_embed(w) * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = (torch.diag_embed(w, 1, 0, 2) * torch.arange(4.)).sum(); y.backward(); gw = w.grad",
    "y = (torch.diag_embed(w.t(), -2, -1, 1) * torch.arange(4.)).sum(); y.backward(); "
    "gw = w.grad",
    "y = (torch.constant_pad_nd(w, [1, -1, 0, 2]) * torch.arange(3.)).sum(); y.backward(); "
    "gw = w.grad",
    "y = (torch.nn.functional.pad(x, [2, 1], value=3.) * torch.arange(7.)).sum(); "
    "y.backward(); gx = x.grad",
    "y = (torch.constant_pad_nd(x.transpose(0, 2), [-1, -1, 1, 0, 0, 1]) * 2).sum(); "
    "y.backward(); gx = x.grad",
    # index_copy: the copied rows' gradient goes to source, self's is zeroed there
    "y = (w.index_copy(0, torch.tensor([1]), x[0, :1, :3] * 2) * w).sum(); y.backward(); "
    "gx = x.grad; gw = w.grad",
    "y = (w.index_copy(-1, torch.tensor([2, 0]), x[1, :2, :2].t()) * torch.arange(3.)).sum(); "
    "y.backward(); gx = x.grad; gw = w.grad",
    "y = (w.t().index_copy(0, torch.tensor([0, 0]), x[0, :2, :2]) * 3).sum(); y.backward(); "
    "gx = x.grad; gw = w.grad",
    "y = (w[0].index_copy(0, torch.tensor([1]), x[0, 0, 1]) * 2).sum(); y.backward(); "
    "gx = x.grad; gw = w.grad",
    "y = torch.zeros(3).index_copy(0, torch.tensor([2]), w[1, 1]).sum(); y.backward(); "
    "gw = w.grad",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_gradients_and_the_backward_operators_are_torchs(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


# std_mean / var_mean: either output's gradient, or both (added); a constant row (std 0).
# The unbiased= forms (std_mean.dim, std_mean) are composites whose node is
# std_mean.correction's: StdMeanBackward0 too
STATS = [
    "s, m = torch.std_mean(w); y = (s + m).sum(); y.backward(); gw = w.grad",
    "s, m = torch.std_mean(x, [0, -1], correction=1, keepdim=True); y = (s * m).sum(); y.backward(); "
    "gx = x.grad",
    "s, m = torch.std_mean(x, 1, correction=0); y = s.sum(); y.backward(); gx = x.grad",
    "s, m = torch.std_mean(w.t(), -1, correction=1); y = (m * 3).sum(); y.backward(); gw = w.grad",
    "s, m = torch.std_mean(w * 0, 0, correction=1); y = (s + m).sum(); y.backward(); gw = w.grad",
    "v, m = torch.var_mean(w); y = (v + m).sum(); y.backward(); gw = w.grad",
    "v, m = torch.var_mean(x, [2, 0], correction=1); y = (v * m).sum(); y.backward(); gx = x.grad",
    "v, m = torch.var_mean(x, 1, keepdim=True, correction=2); y = v.sum(); y.backward(); "
    "gx = x.grad",
    "v, m = torch.var_mean(w.t(), 0, correction=0); y = m.sum(); y.backward(); gw = w.grad",
    "s, m = torch.std_mean(x, dim=1); y = (s + m).sum(); y.backward(); gx = x.grad",
    "s, m = torch.std_mean(w, False); y = (s * m).sum(); y.backward(); gw = w.grad",
    "v, m = torch.var_mean(x, [0, 2], False, True); y = (v * m).sum(); y.backward(); "
    "gx = x.grad",
    "v, m = torch.var_mean(w, 1, unbiased=True); y = v.sum(); y.backward(); gw = w.grad",
]


@pytest.mark.parametrize("program", STATS)
def test_std_mean_and_var_mean_gradients_are_torchs(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


# pow_.Tensor has no row of its own: torchgen gives it pow.Tensor_Tensor's (same signature)
INPLACE_POW = [
    "a = w * 1; a.pow_(torch.tensor([2., 0.5, 3.])); y = a.sum(); y.backward(); gw = w.grad",
    "a = w + 1; a.pow_(w.t()[:2] * 0.5); y = (a * 2).sum(); y.backward(); gw = w.grad",
    "a = x[0, :2, :3] * 1; a.pow_(w); y = a.sum(); y.backward(); gx = x.grad; gw = w.grad",
]


@pytest.mark.parametrize("program", INPLACE_POW)
def test_pow_in_place_by_a_tensor_takes_the_functional_formula_like_torch(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


# an operator with its own kernel and no derivatives.yaml row: grad_fn=<NotImplemented>,
# whose backward raises torch's error (measured: floor_divide, remainder of a number by a
# tensor, scatter's reduce= forms)
NOT_IMPLEMENTED = [
    "y = torch.floor_divide(w, 2.); y.sum().backward()",
    "y = torch.floor_divide(w, x[0, :2, :3]); y.sum().backward()",
    "y = torch.remainder(2., w); y.sum().backward()",
    "y = w.scatter(0, torch.tensor([[0]]), 2., reduce='add'); y.sum().backward()",
    "y = w.scatter(1, torch.tensor([[0]]), x[0], reduce='multiply'); y.sum().backward()",
    "a = w * 1; a.floor_divide_(3.); y = a.sum(); y.backward()",
    # a factory's tensor arguments give it no node at all (measured)
    "y = torch.linspace(w[0, 0], w[1, 2], 4); n = y.requires_grad",
    "y = torch.logspace(w[0, 0], w[0, 1], 3); n = y.requires_grad",
]


@pytest.mark.parametrize("program", NOT_IMPLEMENTED)
def test_operators_without_a_formula_get_torchs_not_implemented_node(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=("y", "n"))


# the autograd fallback gives the node an edge for each tensor that requires grad only
# (autograd_not_implemented_fallback.cpp): not a None for a wrapped number or a constant
NOT_IMPLEMENTED_EDGES = [
    "y = torch.floor_divide(w, 2.)",
    "y = w // 2",
    "y = torch.floor_divide(x[0, :2, :3].detach(), w)",
    "y = torch.floor_divide(w, w)",
    "y = w.scatter(1, torch.tensor([[0]]), x[0].detach(), reduce='add')",
    "y = x[0].detach().scatter(1, torch.tensor([[0]]), w, reduce='multiply')",
]


@pytest.mark.parametrize("program", NOT_IMPLEMENTED_EDGES)
def test_not_implemented_nodes_have_an_edge_per_input_requiring_grad_like_torch(program):
    assert_like_torch([LEAF, OTHER, program, "e = len(y.grad_fn.next_functions)",
                       "f = y.grad_fn.next_functions[-1][0].name()"], names=("y", "e", "f"))


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(k=st.integers(-5, 5), dims=st.sampled_from([[0, 1], [1, 0], [-1, 0], [0, 2], [2, -2]]),
       offset=st.integers(-3, 3), pad=st.lists(st.integers(-1, 2), min_size=2, max_size=6))
def test_rot90_diag_embed_and_pad_gradients_are_torchs(k, dims, offset, pad):
    weights = "torch.arange(1., 5.)"
    assert_like_torch([
        LEAF,
        f"y = (x.rot90({k}, {dims}) * x.rot90({k}, {dims})).sum()", "y.backward()",
        "gx = x.grad",
    ], names=("gx", "y"))
    assert_like_torch([
        LEAF,
        f"d = torch.diag_embed(x, {offset}, -1, 0)",
        f"y = (d * {weights}[:1].expand(d.shape[-1])).sum()", "y.backward()", "gx = x.grad",
    ], names=("gx", "y"))
    assert_like_torch([
        LEAF, f"p = torch.constant_pad_nd(x, {pad})",
        "y = (p * torch.arange(float(p.shape[-1]))).sum()", "y.backward()", "gx = x.grad",
    ], names=("gx", "y"))
