"""Issue #27's measure: the cells of the autograd tutorials learners follow (PyTorch's
"A Gentle Introduction to torch.autograd" and "Automatic Differentiation with
torch.autograd", the older "Autograd: Automatic Differentiation" blitz, d2l 2.5
"Automatic Differentiation" and 3.2 "Linear Regression from Scratch", the autograd
mechanics notes and the errors learners meet), each program run in tidx and in Python
over torch.

Every program either matches torch (what --verify compares: the named values, bit for
bit or within a stated bound, the errors and the aten operators of every statement,
the backward pass's included) or is refused in one line; nothing is silently wrong and
nothing is tidx's own error.  The share that matches is the measure; the issue asks for
at least 95%.  :data:`FLOOR` is the share measured when it last rose.
"""

from __future__ import annotations

import pytest

from conftest import require_torch
from interpreter.test_first_hour_corpus_torch import _outcome

pytestmark = pytest.mark.torch

CONTROL_FLOW = ("def f(a):\n    b = a * 2\n    while b.norm() < 1000:\n        b = b * 2\n"
                "    if b.sum() > 0:\n        c = b\n    else:\n        c = 100 * b\n"
                "    return c")

#: (source, program): a tutorial cell as statements; y, z and w are compared
PROGRAMS: list[tuple[str, list[str]]] = [
    # PyTorch "A Gentle Introduction to torch.autograd"
    ("gentle", ["a = torch.tensor([2., 3.], requires_grad=True)",
                "b = torch.tensor([6., 4.], requires_grad=True)", "Q = 3*a**3 - b**2",
                "external_grad = torch.tensor([1., 1.])", "Q.backward(gradient=external_grad)",
                "y = 9*a**2 == a.grad", "z = -2*b == b.grad", "w = a.grad"]),
    ("gentle", ["x = torch.rand(5, 5)", "y0 = torch.rand(5, 5)",
                "z0 = torch.rand((5, 5), requires_grad=True)", "a = x + y0",
                "y = a.requires_grad", "b = x + z0", "z = b.requires_grad"]),
    # PyTorch "Automatic Differentiation with torch.autograd"
    ("autograd", ["x = torch.ones(5)", "y0 = torch.zeros(3)",
                  "w0 = torch.randn(5, 3, requires_grad=True)",
                  "b = torch.randn(3, requires_grad=True)", "z = torch.matmul(x, w0)+b",
                  "loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y0)",
                  "loss.backward()", "y = w0.grad", "w = b.grad"]),
    # the same cell with a loss tidx has (the tutorial's graph of matmul and add)
    ("autograd", ["x = torch.ones(5)", "w0 = torch.randn(5, 3, requires_grad=True)",
                  "b = torch.randn(3, requires_grad=True)", "z = torch.matmul(x, w0)+b",
                  "loss = z.sum()", "loss.backward()", "y = w0.grad", "w = b.grad"]),
    ("autograd", ["x = torch.ones(5)", "w0 = torch.randn(5, 3, requires_grad=True)",
                  "b = torch.randn(3, requires_grad=True)", "z = torch.matmul(x, w0)+b",
                  "y = z.requires_grad",
                  "with torch.no_grad():\n    z = torch.matmul(x, w0)+b", "w = z.requires_grad"]),
    ("autograd", ["x = torch.ones(5)", "w0 = torch.randn(5, 3, requires_grad=True)",
                  "b = torch.randn(3, requires_grad=True)", "z = torch.matmul(x, w0)+b",
                  "z_det = z.detach()", "y = z_det.requires_grad"]),
    ("autograd", ["inp = torch.eye(4, 5, requires_grad=True)", "out = (inp+1).pow(2).t()",
                  "out.backward(torch.ones_like(out), retain_graph=True)", "y = inp.grad.clone()",
                  "out.backward(torch.ones_like(out), retain_graph=True)", "z = inp.grad.clone()",
                  "inp.grad.zero_()", "out.backward(torch.ones_like(out), retain_graph=True)",
                  "w = inp.grad"]),
    # the older blitz "Autograd: Automatic Differentiation"
    ("blitz", ["x = torch.ones(2, 2, requires_grad=True)", "y = x + 2", "z = y * y * 3",
               "out = z.mean()", "out.backward()", "w = x.grad"]),
    ("blitz", ["x = torch.randn(3, requires_grad=True)", "y = x * 2",
               "while y.data.norm() < 1000:\n    y = y * 2",
               "v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)", "y.backward(v)",
               "z = x.grad"]),
    ("blitz", ["x = torch.ones(2, requires_grad=True)", "y = x.requires_grad",
               "z = (x ** 2).requires_grad", "with torch.no_grad():\n    w = (x ** 2).requires_grad"]),
    ("blitz", ["a = torch.randn(2, 2)", "a = ((a * 3) / (a - 1))", "y = a.requires_grad",
               "a.requires_grad_(True)", "z = a.requires_grad", "b = (a * a).sum()",
               "w = b.grad_fn"]),
    # d2l 2.5 "Automatic Differentiation"
    ("d2l", ["x = torch.arange(4.0)", "x.requires_grad_(True)", "y = x.grad"]),
    ("d2l", ["x = torch.arange(4.0, requires_grad=True)", "y = 2 * torch.dot(x, x)",
             "y.backward()", "z = x.grad", "w = x.grad == 4 * x"]),
    ("d2l", ["x = torch.arange(4.0, requires_grad=True)", "y = 2 * torch.dot(x, x)",
             "y.backward()", "x.grad.zero_()", "y = x.sum()", "y.backward()", "z = x.grad"]),
    ("d2l", ["x = torch.arange(4.0, requires_grad=True)", "y = x * x",
             "y.backward(gradient=torch.ones(len(y)))", "z = x.grad"]),
    ("d2l", ["x = torch.arange(4.0, requires_grad=True)", "y = x * x", "u = y.detach()",
             "z0 = u * x", "z0.sum().backward()", "y = x.grad == u", "z = x.grad"]),
    ("d2l", ["x = torch.arange(4.0, requires_grad=True)", "y = x * x", "y.sum().backward()",
             "z = x.grad == 2 * x"]),
    ("d2l", [CONTROL_FLOW, "a = torch.randn(size=(), requires_grad=True)", "d = f(a)",
             "d.backward()", "y = a.grad == d / a", "z = a.grad"]),
    # d2l 3.2 "Linear Regression Implementation from Scratch": one step
    ("d2l", ["X = torch.arange(6.).reshape(3, 2)", "t = torch.tensor([1., 2., 3.])",
             "w0 = torch.zeros(2, requires_grad=True)", "b = torch.zeros(1, requires_grad=True)",
             "y_hat = torch.matmul(X, w0) + b", "l = (y_hat - t.reshape(y_hat.shape)) ** 2 / 2",
             "l.sum().backward()", "y = w0.grad", "z = b.grad",
             "with torch.no_grad():\n    w0 -= 0.03 * w0.grad / 3\n    w0.grad.zero_()",
             "w = w0"]),
    # the autograd notes and the errors learners meet
    ("errors", ["x = torch.ones(3, requires_grad=True)", "x[0] = 1"]),
    ("errors", ["x = torch.ones(3, requires_grad=True)", "y = x * 2", "y.backward()"]),
    ("errors", ["x = torch.ones(3, requires_grad=True)", "y = (x * x).sum()", "y.backward()",
                "y.backward()"]),
    ("errors", ["x = torch.ones(3, requires_grad=True)", "y = x * 2", "z = (y * y).sum()",
                "y.add_(1)", "z.backward()"]),
    ("errors", ["x = torch.ones(3)", "y = (x * 2).sum()", "y.backward()"]),
    ("errors", ["x = torch.tensor([1, 2])", "x.requires_grad_()"]),
    ("errors", ["x = torch.ones(3, requires_grad=True)", "y = x.sum()", "y.backward()",
                "y.backward()", "z = x.grad"]),
    ("errors", ["x = torch.ones(3, requires_grad=True)", "y = x * 2",
                "y.backward(torch.ones(2))"]),
    # what the lessons show: gradients through indexing add up, views and CopySlices
    ("lessons", ["x = torch.zeros(3, requires_grad=True)", "y = x[[0, 0, 2]].sum()",
                 "y.backward()", "z = x.grad"]),
    ("lessons", ["x = torch.ones(3, requires_grad=True)", "y = x * 2", "y[0] = 0",
                 "y.sum().backward()", "z = x.grad", "w = y.grad_fn"]),
    ("lessons", ["x = torch.ones(2, requires_grad=True)", "y = x * 3", "y.retain_grad()",
                 "z = y.sum()", "z.backward()", "w = y.grad"]),
    ("lessons", ["x = torch.ones(2, requires_grad=True)",
                 "for _ in range(3):\n    (x * 2).sum().backward()", "y = x.grad"]),
    ("lessons", ["A = torch.ones(2, 3, requires_grad=True)", "B = torch.ones(3, 4, requires_grad=True)",
                 "C = (A @ B).sum()", "C.backward()", "y = A.grad", "z = B.grad"]),
    ("lessons", ["x = torch.tensor([-1., 0., 2.], requires_grad=True)",
                 "y = torch.relu(x).sum()", "y.backward()", "z = x.grad"]),
    ("lessons", ["x = torch.zeros(3, requires_grad=True)", "y = torch.sigmoid(x).sum()",
                 "y.backward()", "z = x.grad"]),
    # hooks (the autograd mechanics notes, "Backward hooks execution")
    ("hooks", ["x = torch.ones(3, requires_grad=True)", "def double(g):\n    return g * 2",
               "h = x.register_hook(double)", "(x * 3).sum().backward()", "y = x.grad.clone()",
               "h.remove()", "(x * 3).sum().backward()", "z = x.grad"]),
    ("hooks", ["x = torch.ones(3, requires_grad=True)", "y0 = x * 2",
               "h = y0.register_hook(lambda g: print(g))", "y0.sum().backward()", "y = x.grad"]),
    ("hooks", ["x = torch.tensor([2.], requires_grad=True)", "y0 = x ** 3",
               "(g,) = torch.autograd.grad(y0, x, create_graph=True)",
               "(h,) = torch.autograd.grad(g, x)", "y = g", "z = h"]),
]

#: The share of PROGRAMS that matched torch when it last rose (a measure, not a target).
FLOOR = 1.0


@pytest.mark.parametrize("source, program", PROGRAMS,
                         ids=[f"{s}: " + " ; ".join(p)[:70] for s, p in PROGRAMS])
def test_an_autograd_program_matches_torch_or_is_refused(source, program):
    _outcome(require_torch(), program)


@pytest.mark.slow     # each program runs in the fast tier; the share, in the whole suite
def test_the_share_that_matches_torch():
    """The measure (issue #27 asks for 95%), printed by source."""
    torch = require_torch()
    results: dict[str, list[str]] = {}
    for source, program in PROGRAMS:
        results.setdefault(source, []).append(_outcome(torch, program))
    matched = sum(r == "matches" for rs in results.values() for r in rs)
    share = matched / len(PROGRAMS)
    print(f"\nautograd corpus: {matched} of {len(PROGRAMS)} match torch ({share:.0%})")
    for source, rs in results.items():
        print(f"  {source:<9} {rs.count('matches')}/{len(rs)}")
    assert share >= FLOOR, (matched, len(PROGRAMS))
