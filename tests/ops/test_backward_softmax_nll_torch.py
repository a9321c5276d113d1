"""softmax's, log_softmax's and nll_loss's backward (engine/ops/softmax_backward.py,
engine/ops/loss_backward.py, engine/autograd/formulas_nn.py; issue #27), compared with
torch 2.13: F.cross_entropy's whole backward, the tutorial's classic.

_softmax_backward_data is exactly rounded arithmetic in torch's order: given the same
output, its values are torch's bit for bit (called directly, with every layout and dim).
Through a forward softmax, the output carries the forward's stated bound (its exp), so
end to end the gradients are compared within it, the operators and layouts exactly.
nll_loss_backward is exact.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from oracle import assert_like_torch, assert_within

pytestmark = pytest.mark.torch

NAMES = ("gx", "y", "g")
X = "x = torch.tensor([[1., 2., 3.], [0.5, -1., 2.]], requires_grad=True)"
T = "t = torch.tensor([2, 0])"

#: the backward operators called directly (grad, output, dim, dtype): the same inputs on
#: both sides, so the values must be torch's bits
def _direct(op: str, g: np.ndarray, y: np.ndarray, dim: int, transposed: bool = False):
    """(tidx's values, torch's values) of ``op(g, y, dim, dtype)``."""
    torch = require_torch()
    import engine
    from engine.core.context import RunContext, activate
    from engine.dispatch.aten import aten

    dtype = str(g.dtype)
    tg, ty = torch.tensor(g), torch.tensor(y)
    if transposed:
        tg = tg.t().contiguous().t()
    theirs = getattr(torch, op)(tg, ty, dim, getattr(torch, dtype)).numpy()
    with activate(RunContext()):
        eg = engine.tensor(g.tolist(), dtype=getattr(engine, dtype))
        ey = engine.tensor(y.tolist(), dtype=getattr(engine, dtype))
        if transposed:
            eg = eg.t().contiguous().t()
        mine = getattr(aten, op).default(eg._impl, ey._impl, dim,
                                         getattr(engine, dtype)).array().copy()
    return mine, theirs


DIRECT = [((2, 3), 1), ((2, 3), 0), ((3, 20), -1), ((3, 20), 0), ((5, 17), 1),
          ((4, 33), 1), ((1, 8), 1), ((6,), 0)]


@pytest.mark.parametrize("shape, dim", DIRECT)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_backward_data_is_torchs_bits(shape, dim, dtype):
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    g = rng.standard_normal(shape).astype(dtype)
    y = rng.uniform(0.01, 1, shape).astype(dtype)
    mine, theirs = _direct("_softmax_backward_data", g, y, dim)
    assert mine.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("shape, dim", DIRECT[:4])
def test_log_softmax_backward_data_is_torchs_within_the_bound(shape, dim):
    rng = np.random.default_rng(shape[-1])
    g = rng.standard_normal(shape).astype("float32")
    y = np.log(rng.uniform(0.01, 1, shape)).astype("float32")
    mine, theirs = _direct("_log_softmax_backward_data", g, y, dim)
    eps = np.finfo(np.float32).eps
    assert np.all(np.abs(mine - theirs) <= 4 * eps * np.maximum(1, np.abs(theirs)))


#: nll_loss alone (exact): reductions, weights, ignore_index, a single sample
NLL = [
    [X, T, "y = torch.nn.functional.nll_loss(x, t, reduction='sum'); y.backward(); "
     "gx = x.grad"],
    [X, T, "y = torch.nn.functional.nll_loss(x, t, reduction='none').sum(); y.backward(); "
     "gx = x.grad"],
    [X, T, "y = torch.nn.functional.nll_loss(x, t); y.backward(); gx = x.grad"],
    [X, "t = torch.tensor([2, 1])", "y = torch.nn.functional.nll_loss(x, t, weight="
     "torch.tensor([0.5, 2., 1.])); y.backward(); gx = x.grad"],
    [X, "t = torch.tensor([2, 1])", "y = torch.nn.functional.nll_loss(x, t, "
     "ignore_index=1); y.backward(); gx = x.grad"],
    ["x = torch.tensor([1., 2., 3.], requires_grad=True)", "t = torch.tensor(2)",
     "y = torch.nn.functional.nll_loss(x, t); y.backward(); gx = x.grad"],
    [X, "t = torch.tensor([2, 5])", "y = torch.nn.functional.nll_loss(x, t)"],
]


@pytest.mark.parametrize("program", NLL)
def test_nll_loss_backward_is_torchs(program):
    assert_like_torch(program, names=NAMES)


#: through the forward softmax / log_softmax: values within the forward's bound
END_TO_END = [
    [X, "y = (torch.softmax(x, 1) * torch.arange(3.)).sum(); y.backward(); gx = x.grad"],
    [X, "y = (torch.softmax(x, 0) * torch.arange(3.)).sum(); y.backward(); gx = x.grad"],
    [X, "y = torch.log_softmax(x, 1).sum(); y.backward(); gx = x.grad"],
    [X, "y = (x.log_softmax(0) * torch.arange(3.)).sum(); y.backward(); gx = x.grad"],
    [X, T, "y = torch.nn.functional.cross_entropy(x, t); y.backward(); gx = x.grad"],
    [X, T, "y = torch.nn.functional.cross_entropy(x, t, reduction='sum'); y.backward(); "
     "gx = x.grad"],
    ["x = torch.arange(40.).reshape(2, 20).div(7).requires_grad_()",
     "y = (torch.softmax(x, -1) * torch.arange(20.)).sum(); y.backward(); gx = x.grad"],
    # a classifier's step: logits from a linear layer, cross_entropy, backward
    ["w = torch.linspace(-1, 1, 12).reshape(4, 3).requires_grad_()",
     "x = torch.tensor([[1., 0., 2., -1.], [0.5, 0.5, 0., 1.]])", T,
     "y = torch.nn.functional.cross_entropy(x @ w, t); y.backward(); gx = w.grad"],
]


@pytest.mark.parametrize("program", END_TO_END)
def test_softmax_and_cross_entropy_gradients_are_torchs_within_the_bound(program):
    assert_within(program, NAMES, 16)


@pytest.mark.slow
@given(st.integers(1, 4), st.integers(1, 70), st.booleans(), st.booleans(),
       st.sampled_from(["float32", "float64"]), st.integers(0, 2**16))
@settings(max_examples=examples(60), deadline=None)
def test_drawn_softmax_backward_data_is_torchs_bits(rows, cols, last, transposed, dtype,
                                                    seed):
    """Drawn sizes (the vectorised sum's full vectors and tail), dims and layouts."""
    rng = np.random.default_rng(seed)
    g = rng.standard_normal((rows, cols)).astype(dtype)
    y = rng.uniform(0.01, 1, (rows, cols)).astype(dtype)
    mine, theirs = _direct("_softmax_backward_data", g, y, 1 if last else 0, transposed)
    assert mine.tobytes() == theirs.tobytes()


#: F.embedding's weight gradient (embedding_backward > embedding_dense_backward): each
#: index's row added in order, padding_idx's row left 0, any layout -- exact
EMBEDDING = [
    ["w = torch.arange(12.).reshape(4, 3).requires_grad_()", "i = torch.tensor([[0, 2], [2, 3]])",
     "y = (torch.nn.functional.embedding(i, w) * torch.arange(3.)).sum(); y.backward(); "
     "g = w.grad"],
    ["w = torch.arange(12.).reshape(4, 3).requires_grad_()", "i = torch.tensor([0, 2, 2, 2])",
     "y = torch.nn.functional.embedding(i, w).sum(); y.backward(); g = w.grad"],
    ["w = torch.arange(12.).reshape(4, 3).div(7).requires_grad_()",
     "i = torch.tensor([[1, 2], [2, 1]])",
     "y = (torch.nn.functional.embedding(i, w, padding_idx=2) * torch.linspace(0, 1, 3))"
     ".sum(); y.backward(); g = w.grad"],
    ["w = torch.arange(12.).reshape(4, 3).t().contiguous().t().requires_grad_()",
     "i = torch.tensor([[1, 2], [2, 1]]).t()",
     "y = torch.nn.functional.embedding(i, w).sum(); y.backward(); g = w.grad"],
]


@pytest.mark.parametrize("program", EMBEDDING)
def test_embedding_backward_is_torchs(program):
    assert_like_torch(program, names=NAMES)
