"""The backward pass (issue #27), compared with torch 2.13: ``y.backward(...)`` runs the
engine over the graph the forward statements recorded, and tidx must give what torch
gives -- the leaves' ``.grad`` (values bit for bit, shape, strides, dtype), the operators
torch.profiler records for the whole pass (``aten::ones_like`` for the implicit gradient,
each node's ``autograd::engine::evaluate_function: <name>`` and ``<name>`` spans with the
formula's operators inside, InputBuffer's ``aten::add_`` between them, ``sum_to``'s
``aten::sum`` and ``aten::view`` for a broadcast input, AccumulateGrad's ``aten::detach``
when it steals the gradient or ``new_empty_strided`` + ``copy_`` when it copies), and
torch's errors (class and message) at the statement that raises them.
"""

from __future__ import annotations

import pytest

from oracle import assert_like_torch, run_tidx

pytestmark = pytest.mark.torch

LEAF = "x = torch.ones(2, 3, requires_grad=True)"
OTHER = "w = torch.arange(6.).reshape(2, 3).requires_grad_()"
NAMES = ("gx", "gw", "y")

#: backward programs over tidx's differentiable operators (values whose bits tidx's
#: forward operators give exactly: no exp/sin/cos, whose bits are within a stated bound)
PROGRAMS = [
    # pointwise, numbers and tensors on either side, broadcasting
    "y = (x * 2).sum(); y.backward(); gx = x.grad",
    "y = (x * w).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (x + w).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (x - w).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (x * x).sum(); y.backward(); gx = x.grad",
    "y = (x - 1).sum(); y.backward(); gx = x.grad",
    "y = (1 - x).sum(); y.backward(); gx = x.grad",
    "y = (x / 3).sum(); y.backward(); gx = x.grad",
    "y = (x / (w + 1)).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (w ** 2).sum(); y.backward(); gw = w.grad",
    "y = (w ** 3).sum(); y.backward(); gw = w.grad",
    "y = (w ** 0).sum(); y.backward(); gw = w.grad",
    "y = w.sqrt().sum(); y.backward(); gw = w.grad",
    "y = x.log().sum(); y.backward(); gx = x.grad",
    "y = (-x).sum(); y.backward(); gx = x.grad",
    "y = x.neg().mul(w).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (x + torch.ones(3)).sum(); y.backward(); gx = x.grad",
    "y = (x * torch.arange(3.)).sum(); y.backward(); gx = x.grad",
    "v = torch.ones(3, requires_grad=True); y = (x * v).sum(); y.backward(); gx = x.grad; "
    "gw = v.grad",
    "v = torch.ones(2, 1, requires_grad=True); y = (w * v).sum(); y.backward(); gx = v.grad",
    "y = x.add(w, alpha=2).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = x.sub(w, alpha=3).sum(); y.backward(); gx = x.grad; gw = w.grad",
    # reductions
    "y = x.sum(); y.backward(); gx = x.grad",
    "y = w.mean(); y.backward(); gw = w.grad",
    "y = w.mean(1).sum(); y.backward(); gw = w.grad",
    "y = w.mean(0, keepdim=True).sum(); y.backward(); gw = w.grad",
    "y = w.sum(0).sum(); y.backward(); gw = w.grad",
    "y = (w.sum((0, 1)) * 2); y.backward(); gw = w.grad",
    "y = w.sum(1, keepdim=True).sum(); y.backward(); gw = w.grad",
    # views
    "y = x[0].sum(); y.backward(); gx = x.grad",
    "y = (x[1] * w[0]).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = x[:, 1:].sum(); y.backward(); gx = x.grad",
    "y = (w[:, ::2] * 3).sum(); y.backward(); gw = w.grad",
    "y = w[-1, -2:].sum(); y.backward(); gw = w.grad",
    "y = x.t().sum(); y.backward(); gx = x.grad",
    "y = (w.t() * 2).sum(); y.backward(); gw = w.grad",
    "y = x.view(6).sum(); y.backward(); gx = x.grad",
    "y = (w.view(3, 2) * 2).sum(); y.backward(); gw = w.grad",
    "y = x.reshape(3, 2).sum(); y.backward(); gx = x.grad",
    "y = x.permute(1, 0).sum(); y.backward(); gx = x.grad",
    "y = x.transpose(0, 1).sum(); y.backward(); gx = x.grad",
    "y = (x.unsqueeze(0) * 2).sum(); y.backward(); gx = x.grad",
    "y = x[None].squeeze(0).sum(); y.backward(); gx = x.grad",
    "y = x[None].squeeze().sum(); y.backward(); gx = x.grad",
    "y = x.expand(4, 2, 3).sum(); y.backward(); gx = x.grad",
    "y = x.clone().sum(); y.backward(); gx = x.grad",
    # indexing: repeated indices add up
    "y = x[torch.tensor([0, 0, 1])].sum(); y.backward(); gx = x.grad",
    "y = (w[torch.tensor([1, 1]), torch.tensor([2, 2])] * 2).sum(); y.backward(); gw = w.grad",
    "y = w[[0, 1, 1]].sum(); y.backward(); gw = w.grad",
    # matrices
    "y = (x @ w.t()).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = torch.mm(x.t(), w).sum(); y.backward(); gx = x.grad; gw = w.grad",
    # accumulation: over calls, and into one input from two paths
    "y = (x * 2).sum(); y.backward(); y = (x * 3).sum(); y.backward(); gx = x.grad",
    "y = x.sum(); y.backward(); y.backward(); gx = x.grad",
    "y = (x * x).sum(); y.backward(retain_graph=True); y.backward(); gx = x.grad",
    "y = (x * w + x).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (x * w).sum() + (x * 2).sum(); y.backward(); gx = x.grad; gw = w.grad",
    # gradients given, a leaf as the root, a dtype cast, retain_grad
    "y = (x * 2); y.backward(torch.ones(2, 3)); gx = x.grad",
    "y = (x * 2); y.backward(torch.full((2, 3), 0.5, dtype=torch.float64)); gx = x.grad",
    "x.backward(torch.ones(2, 3)); gx = x.grad",
    "y = x + 0; y.backward(torch.ones(2, 3)); gx = x.grad",
    "z = x * 2; z.retain_grad(); y = z.sum(); y.backward(); gx = x.grad; gw = z.grad",
    "y = w.t(); y.backward(torch.ones(3, 2)); gw = w.grad",
    "y = (x * 2); y.backward([torch.ones(2, 3), torch.ones(1)]); gx = x.grad",
    "y = (x * 2).sum(); y.backward([None]); gx = x.grad",
    # in-place writes: into a non-view (rebase), into a view (CopySlices), and views made
    # before the write (their grad_fn made again: AsStridedBackward0)
    "z = w * 1; z[0, 1] = 10; y = z.sum(); y.backward(); gw = w.grad",
    "z = w * 1; z[0] = x[1]; y = (z * z).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "z = w * 1; z[:, 1].mul_(x[0, :2]); y = z.sum(); y.backward(); gw = w.grad; gx = x.grad",
    "z = w * 1; v = z[0]; z[0, 1] = 10; y = (v * 2).sum(); y.backward(); gw = w.grad",
    "z = w * 1; v = z[:, 1:]; z[0, 1] = 10; y = (v * 2).sum(); y.backward(); gw = w.grad",
    "z = w * 1; z[torch.tensor([0, 1]), torch.tensor([1, 2])] = 10; y = z.sum(); y.backward(); gw = w.grad",
    "z = w.clone(); z.mul_(2); y = z.sum(); y.backward(); gw = w.grad",
    "z = w.clone(); z += x; y = z.sum(); y.backward(); gw = w.grad; gx = x.grad",
    "z = w * 2; z.add_(x); y = (z * z).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "z = w * 1; z[1] *= 3; y = z.sum(); y.backward(); gw = w.grad",
    "z = w * 1; z[:, 0] = 0; y = (z * w).sum(); y.backward(); gw = w.grad",
    "z = w * 1; u = z.t(); u[0] = 5; y = z.sum(); y.backward(); gw = w.grad",
    "z = w * 1; z[0][1] = 7; y = (z * z).sum(); y.backward(); gw = w.grad",
    "z = w * 1; z[0, 1] = 10; y = z.grad_fn.name(); gx = z.grad_fn.next_functions[0][0].name()",
    # dot, mv, relu, sigmoid/tanh (at 0, where their forward is exact), in-place views
    "v = torch.arange(4.0, requires_grad=True); y = 2 * torch.dot(v, v); y.backward(); gx = v.grad",
    "v = torch.arange(3.0, requires_grad=True); y = torch.mv(w, v).sum(); y.backward(); "
    "gw = w.grad; gx = v.grad",
    "y = (w - 2).relu().sum(); y.backward(); gw = w.grad",
    "y = torch.zeros(2, 3, requires_grad=True); z = y.sigmoid().sum(); z.backward(); gw = y.grad",
    "y = torch.zeros(2, 3, requires_grad=True); z = y.tanh().sum(); z.backward(); gw = y.grad",
    "a = torch.ones(3); y = (torch.matmul(a, w.t()) + 1).sum(); y.backward(); gw = w.grad",
    "y = torch.matmul(torch.ones(2), w).sum(); y.backward(); gw = w.grad",
    "z = w * 1; z.unsqueeze_(0); y = z.sum(); y.backward(); gw = w.grad",
    "z = w[None] * 1; z.squeeze_(); y = z.sum(); y.backward(); gw = w.grad",
    "z = w * 1; z.transpose_(0, 1); y = (z * torch.arange(2.)).sum(); y.backward(); gw = w.grad",
    # create_graph (a second derivative) and torch.autograd.grad: only the nodes on a path
    # to the inputs run; their gradients are returned, not accumulated
    "v = torch.tensor([2.], requires_grad=True); y = v ** 3; y.backward(create_graph=True); gx = v.grad; z = gx.grad_fn",
    "v = torch.tensor([2.], requires_grad=True); y = v ** 3; (g,) = torch.autograd.grad(y, v, create_graph=True); gx = g; (h,) = torch.autograd.grad(g, v); gw = h",
    "y = (x * w).sum(); g = torch.autograd.grad(y, x); gx = g[0]",
    "y = (x * w + w.exp()).sum(); g = torch.autograd.grad(y, x); gx = g[0]",
    "y = (x * w).sum(); g = torch.autograd.grad(y, [x, w], retain_graph=True); gx = g[0]; gw = g[1]",
    "y = (x * 2).sum(); g = torch.autograd.grad(y, torch.ones(2, requires_grad=True))",
    "y = (x * 2).sum(); g = torch.autograd.grad(y, [x, torch.ones(2, requires_grad=True)], allow_unused=True); gx = g[0]",
    "y = (x * 2).sum(); g = torch.autograd.grad(y, torch.ones(2))",
    "z = x * w; y = z.sum(); g = torch.autograd.grad(y, z); gx = g[0]",
    "y = (x * x).sum(); g = torch.autograd.grad(y, x); gx = x.grad",
    "y = (x * x).sum(); g = torch.autograd.grad(y, x); h = torch.autograd.grad(y, x)",
    "y = (x * x * x).sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); g.sum().backward(); gx = x.grad",
    # hooks: a leaf's run before its AccumulateGrad, a non-leaf's before its node and
    # before retain_grad's; what they return replaces the gradient; remove()
    "h = x.register_hook(lambda g: g * 2); y = (x * 3).sum(); y.backward(); gx = x.grad",
    "z = x * 3; h = z.register_hook(lambda g: g + 1); y = z.sum(); y.backward(); gx = x.grad",
    "h = x.register_hook(lambda g: g * 2); y = (x * 3).sum(); y.backward(); h.remove(); y = (x * 3).sum(); y.backward(); gx = x.grad",
    "y = torch.ones(2).register_hook(lambda g: g)",
    "z = x * 3; h1 = z.register_hook(lambda g: None); z.retain_grad(); h2 = z.register_hook(lambda g: g * 10); z.sum().backward(); gw = z.grad; gx = x.grad",
    # a loss: mse_loss_backward into zeros_like, norm * (input - target) * grad
    "y = torch.nn.functional.mse_loss(w, x); y.backward(); gw = w.grad; gx = x.grad",
    "y = torch.nn.functional.mse_loss(w * 3, x.t().t() / 7); y.backward(); gw = w.grad; "
    "gx = x.grad",
    # a complex leaf (make_variable takes floating point and complex dtypes)
    "v = torch.ones(2, dtype=torch.complex64, requires_grad=True); y = v * 2",
]

ERRORS = [
    "y = x * 2; y.backward()",
    "y = x.detach() * 2; y.backward()",
    "y = (x * 2); y.backward(torch.ones(3))",
    "y = (x * x).sum(); y.backward(); y.backward()",
    "z = x * 2; y = (z * z).sum(); z.add_(1); y.backward()",
    "z = w.sqrt(); y = z.sum(); z.mul_(2); y.backward()",
    "y = torch.ones(2).sum(); y.backward()",
    "y = (x * 2).sum(); y.backward(2)",
    "y = (x * 2).sum(); y.backward(foo=1)",
    "y = (x * 2).sum(); y.backward([])",
    "y = (x * 2).sum(); y.backward([2])",
    "y = (x * 2); y.backward((None,))",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_gradients_and_the_backward_operators_are_torchs(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


@pytest.mark.parametrize("program", ERRORS)
def test_errors_are_torchs(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


def test_a_second_backward_through_a_node_that_saved_nothing_runs():
    # SumBackward0 saves only sizes: nothing to free, so torch runs it again
    out = run_tidx([LEAF, "y = x.sum()", "y.backward()", "y.backward()", "gx = x.grad"],
                   ["gx"])
    assert out.error is None and out.tensors["gx"]["values"] == [["2.0"] * 3] * 2


@pytest.mark.parametrize("lesson", ["autograd_inplace_errors", "autograd_indexing_adds_up",
                                    "autograd_grad_modes",
                                    "autograd_views_copyslices"])
def test_the_autograd_lessons_agree_with_torch_on_every_check(lesson):
    """Each lesson under --verify: every statement's values, errors and operators
    (the backward passes' included) compared with torch."""
    from conftest import require_torch
    from engine.interpreter import lessons, session, verify

    require_torch()
    text = lessons.load(lesson).text
    rows = verify.verify(text, session.run(text))
    assert rows and all(row.compared and row.ok for row in rows), [
        r.details for r in rows if not r.ok]
    assert any(".backward()" in row.source for row in rows)


def test_verify_compares_the_grad_a_backward_left():
    """--verify compares a named leaf's .grad with torch's: a wrong one is a failed row."""
    from conftest import require_torch
    from engine.interpreter import session, verify

    require_torch()
    text = "x = torch.ones(3, requires_grad=True)\n(x * x).sum().backward()\ny = x"
    doc = session.run(text, seed=0)
    assert all(r.ok for r in verify.verify(text, doc))
    summary = doc["statements"][-1]["bindings"]["y"]["summary"]
    assert summary["grad"] == [2.0, 2.0, 2.0]
    summary["grad"] = [2.0, 2.0, 3.0]
    rows = verify.verify(text, doc)
    assert any(".grad of y" in d for r in rows if not r.ok for d in r.details)


@pytest.mark.parametrize("program", [
    # InputBuffer::add takes a Variable&&: an output added into a slot that already
    # holds a gradient stays held by the node's outputs until its turn ends, so the
    # next slot's gradient (the same tensor) is added out of place (found by
    # test_backward_graphs_torch)
    "x = torch.arange(1., 7.).reshape(2, 3).requires_grad_(); w = torch.ones(2, 3, "
    "requires_grad=True); v0 = w - x; v0 += x; v3 = w * v0; y = (v3 * torch.arange(6.)"
    ".reshape(2, 3)).sum(); y.backward(); gx = x.grad; gw = w.grad",
    # the saved inputs are unpacked sorted by name (other before self): the first stale
    # one names the version error
    "x = torch.arange(1., 7.).reshape(2, 3).requires_grad_(); v0 = x * x; "
    "v1 = v0 * v0[0]; v0[0, 1] = 5; y = v1.sum(); y.backward()",
])
def test_the_engines_reference_counts_and_unpack_order_are_torchs(program):
    assert_like_torch([program], names=NAMES)


@pytest.mark.parametrize("write, node", [("v.clamp_(min=0)", "Clamp1"),
                                         ("v.scatter_(0, torch.tensor([0]), 1.)", "Scatter1"),
                                         ("v.masked_fill_(v > 0, 1.)", "MaskedFill")])
def test_the_version_error_names_the_node_as_torch_does(write, node):
    """``ClampBackward1`` is "Clamp1" in torch's message, ``AddBackward0`` "Add"."""
    program = ["x = torch.ones(3, requires_grad=True)", "v = x * 1", "z = v * v", write,
               "z.sum().backward()"]
    assert_like_torch(program, names=NAMES)
    assert f"output 0 of {node}," in run_tidx(program, list(NAMES)).error[1]
