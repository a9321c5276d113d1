"""F.logsigmoid and F.binary_cross_entropy_with_logits, forward and backward, compared with
torch 2.13 (engine/ops/log_sigmoid.py, functional_loss.py, formulas_nn.py).

torch runs Sleef's exp and log1p inside log_sigmoid, which tidx cannot replay: the operator
trees, errors, layouts and autograd nodes are compared exactly, the values within the
bound the kernel step states (and --verify compares within that bound).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from engine.interpreter import session, verify
from oracle import assert_like_torch, assert_within

pytestmark = pytest.mark.torch

X = "x = torch.tensor([[0.5, -1., 2.], [30., -20., 0.]], requires_grad=True)"
T = "t = torch.tensor([[1., 0., 1.], [0.25, 1., 0.]])"
F = "import torch.nn.functional as F"
NAMES = ("y", "gx")

PROGRAMS = [
    [X, "y = F.logsigmoid(x)", "y.sum().backward()", "gx = x.grad"],
    [X, "y = F.logsigmoid(x.t() * 2)", "y.sum().backward()", "gx = x.grad"],
    [X, T, "y = F.binary_cross_entropy_with_logits(x, t)", "y.backward()", "gx = x.grad"],
    [X, T, "y = F.binary_cross_entropy_with_logits(x, t, reduction='sum')", "y.backward()",
     "gx = x.grad"],
    [X, T, "y = F.binary_cross_entropy_with_logits(x, t, reduction='none')",
     "y.sum().backward()", "gx = x.grad"],
    [X, T, "w = torch.tensor([1., 2., 3.])", "p = torch.tensor([2., 0.5, 1.])",
     "y = F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=p)", "y.backward()",
     "gx = x.grad"],
    [X, T, "p = torch.tensor([3.])",
     "y = F.binary_cross_entropy_with_logits(x, t, pos_weight=p, reduction='sum')",
     "y.backward(create_graph=True)", "gx = x.grad"],
    # torch.binary_cross_entropy_with_logits's Python default reduction is atol("at::
    # Reduction::Mean"): 0, the elements
    [X, T, "y = torch.binary_cross_entropy_with_logits(x, t)"],
    [X.replace("]],", "]], dtype=torch.float64,"), T.replace("]])", "]], dtype=torch.float64)"),
     "y = F.binary_cross_entropy_with_logits(x, t)", "y.backward()", "gx = x.grad"],
    # the tutorial's cell ("Automatic Differentiation with torch.autograd")
    ["torch.manual_seed(0)", "x0 = torch.ones(5)", "y0 = torch.zeros(3)",
     "w0 = torch.randn(5, 3, requires_grad=True)", "b0 = torch.randn(3, requires_grad=True)",
     "z = torch.matmul(x0, w0) + b0",
     "y = torch.nn.functional.binary_cross_entropy_with_logits(z, y0)", "y.backward()",
     "gx = w0.grad"],
]

ERRORS = [
    [X, "y = F.binary_cross_entropy_with_logits(x, torch.ones(3))"],
    [X, "y = F.binary_cross_entropy_with_logits(x, torch.ones(2, 3), reduction='avg')"],
    ["y = F.logsigmoid(torch.tensor([1, 2]))"],
    ["y = F.logsigmoid(torch.tensor([1., 2.]), 3)"],
    [X, T, "y = F.binary_cross_entropy_with_logits(x, t.long())"],
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_values_within_the_stated_bound_everything_else_torchs(program):
    assert_within([F] + program, NAMES, 8)


@pytest.mark.parametrize("program", ERRORS)
def test_errors_are_torchs(program):
    assert_like_torch([F] + program, names=NAMES)


def test_the_target_gradient_is_refused_in_one_line():
    from engine.core.errors import Refused

    with pytest.raises(Refused, match="with respect to its target"):
        session.run(f"{X}\nt = torch.rand(2, 3, requires_grad=True)\n"
                    "y = torch.nn.functional.binary_cross_entropy_with_logits(x, t)\n"
                    "y.backward()")


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=2),
       dtype=st.sampled_from(["float32", "float64"]),
       reduction=st.sampled_from(["mean", "sum", "none"]),
       weights=st.sampled_from([(False, False), (True, False), (False, True), (True, True)]),
       scale=st.sampled_from([0.5, 4.0, 40.0]), seed=st.integers(0, 2**16))
def test_verify_compares_the_loss_and_its_gradient_within_the_stated_bound(
        shape, dtype, reduction, weights, scale, seed):
    require_torch()
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    x = (rng.standard_normal(n) * scale).round(3).tolist()
    t = rng.uniform(0, 1, n).round(2).tolist()
    lines = [f"x = torch.tensor({x}, dtype=torch.{dtype}).reshape({shape})",
             f"t = torch.tensor({t}, dtype=torch.{dtype}).reshape({shape})"]
    extra = ""
    if weights[0]:
        lines.append(f"w = torch.tensor({rng.uniform(0, 3, shape[-1]).round(2).tolist()}, "
                     f"dtype=torch.{dtype})")
        extra += ", weight=w"
    if weights[1]:
        lines.append(f"p = torch.tensor({rng.uniform(0, 3, shape[-1]).round(2).tolist()}, "
                     f"dtype=torch.{dtype})")
        extra += ", pos_weight=p"
    lines.append(f"y = torch.nn.functional.binary_cross_entropy_with_logits(x, t{extra}, "
                 f"reduction='{reduction}')")
    text = "\n".join(lines)
    rows = verify.verify(text, session.run(text))
    assert all(row.ok for row in rows), [r.details for r in rows]


# -- binary_cross_entropy: glibc's log and log1p, as torch's scalar loop calls them ------------
P = "x = torch.tensor([[0.5, 0.2, 0.9], [1e-30, 1., 0.]], requires_grad=True)"
BCE = [
    [P, T, "y = F.binary_cross_entropy(x, t)", "y.backward()", "gx = x.grad"],
    [P, T, "y = F.binary_cross_entropy(x, t, reduction='sum')", "y.backward()", "gx = x.grad"],
    [P, T, "y = F.binary_cross_entropy(x, t, reduction='none')", "y.sum().backward()",
     "gx = x.grad"],
    [P, T, "y = F.binary_cross_entropy(x, t, weight=torch.tensor([1., 2., 3.]))",
     "y.backward()", "gx = x.grad"],
    [P, T, "y = F.binary_cross_entropy(x.t(), t.t(), weight=torch.tensor([[2.], [0.5], [1.]]))"],
    [P.replace("]],", "]], dtype=torch.float64,"), T.replace("]])", "]], dtype=torch.float64)"),
     "y = F.binary_cross_entropy(x, t)", "y.backward()", "gx = x.grad"],
    # the errors: the loop's checks, element by element, the dtypes, the sizes
    ["y = F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([2., 0.]))"],
    ["y = F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([2., 0.]))"],
    ["y = F.binary_cross_entropy(torch.tensor([float('nan')]), torch.tensor([1.]))"],
    ["y = F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.], dtype=torch.float64))"],
    ["y = F.binary_cross_entropy(torch.tensor([[0.5]]), torch.tensor([1.]))"],
    ["y = F.binary_cross_entropy(torch.tensor([1, 0]), torch.tensor([1, 0]))"],
]


@pytest.mark.parametrize("program", BCE)
def test_binary_cross_entropy_is_torchs_bit_for_bit(program):
    assert_like_torch([F] + program, names=NAMES)


def test_after_a_sigmoid_only_the_sigmoids_bound_remains():
    """F.binary_cross_entropy(torch.sigmoid(z), y): the loss of tidx's sigmoid values is
    torch's loss of them; the sigmoid carries its ulps."""
    assert_within([F, "z = torch.tensor([[0.5, -3., 20.], [0., 1., -40.]], requires_grad=True)",
                   T, "y = F.binary_cross_entropy(torch.sigmoid(z), t)", "y.backward()",
                   "gx = z.grad"], NAMES, 16)


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(shape=st.lists(st.integers(1, 40), min_size=1, max_size=2),
       dtype=st.sampled_from(["float32", "float64"]),
       reduction=st.sampled_from(["mean", "sum", "none"]),
       transposed=st.booleans(), out_of_range=st.booleans(), seed=st.integers(0, 2**16))
def test_drawn_binary_cross_entropy_is_torchs_bit_for_bit(shape, dtype, reduction, transposed,
                                                          out_of_range, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    x = rng.uniform(0, 1, n)
    x[rng.integers(0, n, max(1, n // 8))] = rng.choice([0.0, 1.0, 1e-40, 1 - 1e-9])
    t = rng.uniform(0, 1, n).round(2)
    if out_of_range:
        (x if rng.integers(2) else t)[rng.integers(0, n)] = rng.choice([-0.5, 1.5])
    view = ".t()" if transposed and len(shape) == 2 else ""
    assert_like_torch([
        F, f"x = torch.tensor({x.tolist()}, dtype=torch.{dtype}).reshape({shape}){view}",
        f"t = torch.tensor({t.tolist()}, dtype=torch.{dtype}).reshape({shape}){view}",
        "x.requires_grad_()",
        f"y = F.binary_cross_entropy(x, t, reduction='{reduction}')",
        "y.sum().backward()", "gx = x.grad"], names=NAMES)
