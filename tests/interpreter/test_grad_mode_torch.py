"""Grad mode and the Autograd key's checks (issue #27), compared with torch 2.13:
``with torch.no_grad():`` / ``enable_grad`` / ``set_grad_enabled``, what an operator on a
tensor that requires grad gives inside them, and torch's errors where the Autograd
kernel raises before any graph is made (in-place on a leaf, out= with a tensor that
requires grad, a view made in no_grad mode written with grad mode on, resize_)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.interpreter.session import run
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

#: a leaf that requires grad; VIEW is one too, but a view (of arange's result)
LEAF = "x = torch.ones(2, 3, requires_grad=True)"
VIEW = "x = torch.arange(6.).reshape(2, 3).requires_grad_()"


@pytest.mark.fast
@pytest.mark.parametrize("program", [
    # the training loop's update: allowed under no_grad, and counted
    [LEAF, "with torch.no_grad():\n    x -= 0.5 * torch.ones(2, 3)\n    x[0, 0] = 7",
     "y = (x._version, x.requires_grad, x.is_leaf, torch.is_grad_enabled())"],
    # results of a tensor that requires grad do not, under no_grad; views of it still do
    [LEAF, "with torch.no_grad():\n    y = x * 2\n    v = x[1]\n    w = x.sum()",
     "z = (y.requires_grad, v.requires_grad, v.is_leaf, v._is_view(), w.requires_grad)"],
    # ... and writing into that view with grad mode on again is an error
    [LEAF, "with torch.no_grad():\n    v = x[1]", "v.zero_()"],
    # nested modes, and the mode put back after each block
    [LEAF, "with torch.no_grad():\n    with torch.enable_grad():\n        y = "
     "torch.is_grad_enabled()\n    z = torch.is_grad_enabled()", "w = torch.is_grad_enabled()"],
    ["with torch.set_grad_enabled(False):\n    y = torch.is_grad_enabled()",
     "z = torch.is_grad_enabled()"],
    ["torch.set_grad_enabled(False)", "y = torch.is_grad_enabled()",
     "torch.set_grad_enabled(True)", "z = torch.is_grad_enabled()"],
    ["with torch.no_grad(), torch.enable_grad():\n    y = torch.is_grad_enabled()"],
    ["with torch.no_grad() as g:\n    y = g"],
    # the errors of the Autograd kernels, at the operator that raises them
    [LEAF, "x.add_(1)"],
    [LEAF, "x += 1"],
    [LEAF, "with torch.no_grad():\n    x += 1", "y = x"],
    [LEAF, "x.zero_()"],
    [VIEW, "x.zero_()"],
    [VIEW, "with torch.no_grad():\n    y = x[1]", "z = (y.requires_grad, y._base is x)"],
    [LEAF, "x[torch.tensor([0, 1]), torch.tensor([1, 2])] = 10"],
    [LEAF, "x.index_put_((torch.tensor([1]),), torch.tensor(5.), accumulate=True)"],
    [LEAF, "x.uniform_()"],
    [LEAF, "x.resize_(6)"],
    [LEAF, "with torch.no_grad():\n    x.resize_(6)"],
    [LEAF, "torch.rand(2, 3, out=x)"],
    [LEAF, "torch.randn(2, 3, out=x)"],
    [LEAF, "torch.add(x, 1, out=torch.empty(2, 3))"],
    [LEAF, "torch.sum(x, 0, out=torch.empty(3))"],
    [LEAF, "y = torch.gt(x, 1, out=torch.empty(2, 3, dtype=torch.bool))"],
    [LEAF, "y = torch.eq(x, 1, out=torch.empty(2, 3, dtype=torch.bool))"],
    [LEAF, "with torch.no_grad():\n    torch.add(x, 1, out=x)", "y = x"],
    [LEAF, "x.detach_()", "y = (x.requires_grad, x._version)"],
    # Python's own errors
    ["with 3:\n    y = 1"],
    ["with t:\n    y = 1"],
    ["with torch.no_grad:\n    y = 1"],
    ["torch.set_grad_enabled()"],
    ["torch.set_grad_enabled(1)"],
    ["y = torch.is_grad_enabled(1)"],
])
def test_grad_mode_and_autograd_checks_are_torchs(program):
    assert_like_torch(program, names=("y", "z", "w"))


WRITES = ["{x}.add_(1)", "{x}.mul_(2)", "{x}[0] = 3", "{x}.fill_(1)", "{x}.sub_(1)",
          "{x}.clamp_(0, 4)", "{x}.copy_(torch.ones({x}.shape))"]


@pytest.mark.fast
@given(st.sampled_from([LEAF, VIEW]), st.lists(st.tuples(st.booleans(), st.sampled_from(WRITES), st.sampled_from(
    ["x", "x[0]", "x.t()", "x.detach()", "x.data"])), min_size=1, max_size=4))
@settings(max_examples=examples(60), deadline=None)
def test_writes_inside_and_outside_no_grad(leaf, writes):
    """Writes into a leaf that requires grad, into its views and its detached aliases,
    each inside or outside a no_grad block: the same error or the same versions."""
    program = [leaf]
    for inside, write, target in writes:
        # a view made with grad mode on gets a grad_fn in torch, which tidx refuses
        assume(inside or target in ("x", "x.detach()", "x.data"))
        line = write.format(x=target)
        program.append(f"with torch.no_grad():\n    {line}" if inside else line)
    program.append("y = (x._version, x.requires_grad)")
    assert_like_torch(program)


@pytest.mark.fast
@pytest.mark.parametrize("program, why", [
    ("@torch.inference_mode()\ndef f(x):\n    return x", "decorat"),
    ("y = torch.inference_mode(len)", "decorator"),
    ("def f(x):\n    with torch.no_grad():\n        return x\ny = f(1)", "inside a def"),
    ("with torch.no_grad(3):\n    y = 1", "decorator"),
])
def test_what_is_refused_says_so_in_one_line(program, why):
    with pytest.raises(Refused, match=why):
        run(program)


OUT_CALLS = ["torch.add({a}, 1, out={o})", "torch.mul({a}, {a}, out={o})",
             "torch.clamp({a}, 0, 1, out={o})",
             "torch.floor({a}, out={o})", "torch.sub(1, {a}, out={o})",
             "torch.maximum({a}, {a}, out={o})", "torch.eq({a}, 1, out={b})",
             "torch.where({a} > 0, {a}, 0., out={o})", "torch.rand(2, 3, out={o})",
             "torch.randn(2, 3, out={o})", "torch.normal(0., 1., (2, 3), out={o})"]


@pytest.mark.fast
@pytest.mark.parametrize("call", OUT_CALLS)
@pytest.mark.parametrize("who", ["input", "out", "neither", "no_grad"])
def test_out_with_a_tensor_that_requires_grad(call, who):
    """throw_error_out_requires_grad: by name (generated kernels) or aten:: name (the
    fallback), only where the outputs are differentiable, never under no_grad."""
    leaf = "torch.ones(2, 3, requires_grad=True)"
    plain = "torch.ones(2, 3)"
    a = leaf if who in ("input", "no_grad") else plain
    o = leaf if who == "out" else "torch.empty(2, 3)"
    line = "y = " + call.format(a=a, o=o, b="torch.empty(2, 3, dtype=torch.bool)")
    if who == "no_grad":
        line = "with torch.no_grad():\n    " + line
    assert_like_torch(["torch.manual_seed(0)", line], names=("y",))


#: inference mode (c10/core/InferenceMode.h): T an inference tensor, N a normal one, X a
#: leaf that requires grad, V a view of N and W a view of X, both made inside
INFERENCE = ("x = torch.ones(3, requires_grad=True)\nn = torch.ones(3)\n"
             "with torch.inference_mode():\n    t = torch.ones(3)\n    y = x * 2\n"
             "    v = n[1:]\n    w = x[1:]\n    n.add_(1)\n    t.add_(1)")


@pytest.mark.fast
@pytest.mark.parametrize("line", [
    "z = (t.is_inference(), torch.is_inference(t), y.requires_grad, y.is_inference(), "
    "y.grad_fn, v.is_inference(), v._is_view(), n._version, w.requires_grad, w.is_leaf)",
    "z = (torch.is_inference_mode_enabled(), torch.is_grad_enabled())",
    # an inference tensor's views are inference tensors, and no autograd views
    "tv = t[1:]\nz = (tv.is_inference(), tv._is_view(), t.detach().is_inference(), "
    "t.clone().is_inference())",
    # no version counter; in-place updates outside the mode raise after the kernel wrote
    "z = t._version",
    "t.add_(1)",
    "t[0] = 5",
    "t.zero_()",
    "z = t + 1\nw2 = t.sum()",
    "z = torch.cat([n, t])",
    # autograd: an inference tensor cannot be saved, nor start requiring grad
    "z = x * t",
    "z = x + t\nz.sum().backward()\ng = x.grad",
    "t.requires_grad_()",
    "t.requires_grad = True",
    "t.requires_grad_(False)\nz = t.requires_grad",
    # a view made in inference mode, written in place in normal mode
    "w.mul_(2)",
    "v.mul_(2)\nz = n._version",
    # nested: inference_mode(False) inside turns both modes back on for its block
    "with torch.inference_mode():\n    with torch.inference_mode(False):\n        "
    "z = (torch.is_inference_mode_enabled(), torch.is_grad_enabled(), "
    "torch.ones(1).is_inference())\n    u = torch.ones(1).is_inference()",
    "with torch.inference_mode(mode=False):\n    z = torch.ones(1).is_inference()",
    # inside the mode, in-place on a leaf that requires grad is allowed (grad mode is off)
    "with torch.inference_mode():\n    x.mul_(2)\nz = (x._version, x.requires_grad)",
    "with torch.inference_mode():\n    r = torch.ones(2, requires_grad=True)\n"
    "z = (r.requires_grad, r.is_inference(), r.is_leaf)",
    "z = torch.is_inference(1)",
    "z = t.is_inference(1)",
    "z = torch.inference_mode(True, False)",
])
def test_inference_mode_is_torchs(line):
    """Inference tensors and their errors, each at the step torch raises it (the
    profiler tree of every statement compared, so an error raised after the kernel
    wrote shows that kernel), and what a later statement reads of them."""
    assert_like_torch([INFERENCE, line], names=("y", "z", "w2", "g", "u"))


@pytest.mark.parametrize("program", [
    # the views an operator returns several of (CreationMeta::MULTI_OUTPUT_NODE)
    "Y = torch.ones(2, 2, requires_grad=True) * 1\nu = Y.unbind(0)\nu[1].add_(1)",
    "Y = torch.ones(2, 2, requires_grad=True) * 1\nu = Y.split(1)\nu[0].mul_(2)",
    "Y = torch.ones(2, 2, requires_grad=True) * 1\nu = Y.chunk(2)\nu[1][0] = 5",
    "Y = torch.ones(2, 2, requires_grad=True) * 1\nu = Y.unbind(0)\nY.add_(1)\ng = u[0]",
    "Y = torch.ones(2, 2, requires_grad=True) * 1\nu = Y.unbind(0)\nY.add_(1)\n"
    "g = u[0].grad_fn",
    "Y = torch.ones(2, 2)\nu = Y.unbind(0)\nu[0].add_(1)\ng = Y",
    "Y = torch.ones(2, 2, requires_grad=True) * 1\nwith torch.no_grad():\n    u = Y.unbind(0)"
    "\nu[0].add_(1)",
    # a view made with autograd off, its base written since: grad_fn=<Invalid>, and
    # reading the history raises (VariableHooks::grad_fn's handle_view_on_rebase)
    "X = torch.ones(4, requires_grad=True)\nwith torch.no_grad():\n    a = X[1:]\n"
    "with torch.no_grad():\n    X.add_(1)\ng = a",
    "X = torch.ones(4, requires_grad=True)\nwith torch.no_grad():\n    a = X[1:]\n"
    "with torch.no_grad():\n    X.add_(1)\ng = a.is_leaf",
    "X = torch.ones(4, requires_grad=True)\nwith torch.no_grad():\n    a = X[1:]\n"
    "with torch.no_grad():\n    X.add_(1)\ng = a * 2",
    "X = torch.ones(4, requires_grad=True)\nwith torch.inference_mode():\n    a = X[1:]\n"
    "    X.add_(1)\ng = a.grad_fn",
    # a view of such a view keeps its CreationMeta (propagate_creation_meta)
    "X = torch.ones(4, requires_grad=True)\nwith torch.inference_mode():\n    a = X[1:]\n"
    "a[0] = 3",
    "X = torch.ones(4, requires_grad=True)\nwith torch.no_grad():\n    a = X[1:]\n"
    "b = a[1:]\nb.mul_(2)",
])
def test_creation_meta_errors_are_torchs(program):
    """CreationMeta (torch/csrc/autograd/variable.h): views made in no_grad or inference
    mode, or several at once by unbind/split, written in place directly or through their
    base -- torch's handle_view_on_rebase errors word for word, at the step that asks."""
    assert_like_torch(program.split("\n") if "with" not in program else [program],
                      names=("u", "g", "Y"))


#: statements over a leaf X that requires grad, a plain N and the tensors made so far
INFERENCE_STEPS = ["a = {x} * 2", "a = {x}[1:]", "a = {x}.t()", "{x}.add_(1)", "{x}[0] = 3",
                   "a = {x}.sum()", "a = {x}.detach()", "a = {x}.clone()",
                   "a = ({x} * X).sum()", "a = {x} + N", "a = torch.cat([{x}, N])",
                   "a = {x}.view(2, 3)", "{x}.zero_()", "a = {x}.unbind(0)[1]",
                   "a = {x}.split(2)[0]", "a = {x}.chunk(3)[-1]", "a = {x}.unsqueeze(0)"]
BLOCKS = ["", "torch.no_grad()", "torch.inference_mode()", "torch.enable_grad()"]


@pytest.mark.slow
@given(st.lists(st.tuples(st.sampled_from(BLOCKS), st.sampled_from(INFERENCE_STEPS),
                          st.sampled_from(["X", "N", "a"])), min_size=1, max_size=6))
@settings(max_examples=examples(60), deadline=None)
def test_inference_mode_programs_are_torchs(steps):
    """Programs mixing no_grad and inference_mode blocks with normal statements over a
    leaf, a plain tensor and what they made (views of views, the views of unbind and
    split, written in place inside and outside the blocks): each statement's values,
    errors (at the step torch raises them, word for word: CreationMeta's messages) and
    operators, and the flags a learner reads, as torch has them."""
    program = ["X = torch.ones(6, requires_grad=True)", "N = torch.arange(6.)", "a = N * 1"]
    for block, line, target in steps:
        text = line.format(x=target)
        program.append(f"with {block}:\n    {text}" if block else text)
    program.append("z = (a.requires_grad, N._version, X._version)")
    program.append("w = (a.is_inference(), a.is_leaf, a.grad_fn is None)")
    assert_like_torch(program, names=("a", "z", "w"))
