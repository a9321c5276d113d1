"""Drawn autograd graphs, compared with torch 2.13 (issue #27's Done when): programs made
of tidx's differentiable operators -- pointwise with broadcasting, reductions, views,
indexing with repeated indices, matrix products -- with in-place writes into the
results and into views of them (CopySlices), then a backward pass.  tidx must give
torch's gradients (bit for bit), its node names and versions (the reprs and
``_version``), its errors (an in-place write into a saved tensor, into a leaf), and the
operators torch.profiler records for every statement, the backward pass's included.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = [pytest.mark.torch, pytest.mark.slow]     # drawn programs: the whole suite

LEAVES = ["x = torch.arange(1., 7.).reshape(2, 3).requires_grad_()",
          "w = torch.tensor([[0.5, -1., 2.], [3., 0.25, -2.]], requires_grad=True)"]

#: ways to make a new (2, 3) tensor from ``{a}`` and ``{b}``
MAKE = ["{a} * {b}", "{a} + {b}", "{a} - {b}", "{a} / ({b} * {b} + 1)", "{a} ** 2",
        "-{a}", "{a}.relu()", "{a}.clone()", "{a}.t().t()", "{a}.reshape(3, 2).reshape(2, 3)",
        "{a}.unsqueeze(0).squeeze(0)", "{a}[[0, 0]] + {b}", "{a}[:, [2, 2, 0]]",
        "{a} * {a}[0]", "{a}.sum(0, keepdim=True) * {b}", "{a}.mean(1, keepdim=True) + {b}",
        "{a} @ {b}.t() @ {b}", "{a}.expand(2, 2, 3).sum(0)", "torch.mm({a}, torch.ones(3, 3))",
        "{a}.view(6).view(2, 3)", "{a}.permute(1, 0).permute(1, 0)", "{a} * 3 + 1",
        "{a}[torch.tensor([1, 1])] * {b}", "{a}.sum(1).unsqueeze(1) * {b}",
        # joins, gathers and scatters (repeated indices), selections
        "torch.cat([{a}, {b}], 0)[1:3]", "torch.stack([{a}, {b}]).sum(0)",
        "{a}.gather(1, torch.tensor([[0, 0, 2], [1, 1, 1]]))",
        "torch.zeros(2, 3).scatter_add(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), {a})",
        "torch.where({a} > 2, {a}, {b})", "{a}.masked_fill({b} > 0, 0.)", "{a}.flip(0)",
        "{a}.roll(1, 1)", "{a}.index_select(1, torch.tensor([2, 2, 0]))",
        "torch.take({a}, torch.tensor([[0, 5, 5], [1, 1, 2]]))", "{a}.tril()"]

#: ways to write into the non-leaf ``{a}`` (or a view of it: CopySlices)
WRITE = ["{a}[0, 1] = 5", "{a}.mul_(2)", "{a}[:, 1:].add_(1)", "{a}[{a} > 3] = 0",
         "{a} += {b}", "{a}[1] = {b}[0]", "{a}.t()[0] = 7", "{a}[torch.tensor([0, 0])] = 1",
         "{a}.index_add_(0, torch.tensor([1, 1]), {b})", "{a}.masked_fill_({a} > 3, 0)",
         "{a}.scatter_(1, torch.tensor([[0], [2]]), 1.)", "{a}[:, 0].copy_(torch.tensor([1., 2.]))"]


@st.composite
def programs(draw) -> list[str]:
    names = ["x", "w"]
    made: list[str] = []
    statements = list(LEAVES)
    for _ in range(draw(st.integers(1, 5))):
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        if made and draw(st.integers(0, 3)) == 0:
            target = draw(st.sampled_from(made))
            statements.append(draw(st.sampled_from(WRITE)).format(a=target, b=b))
            continue
        name = f"v{len(made)}"
        statements.append(f"{name} = " + draw(st.sampled_from(MAKE)).format(a=a, b=b))
        names.append(name)
        made.append(name)
    root = draw(st.sampled_from(made)) if made else "x"
    statements += [f"y = ({root} * torch.arange(6.).reshape(2, 3)).sum()", "y.backward()",
                   "gx = x.grad", "gw = w.grad",
                   "h = [(n._version, None if n.grad_fn is None else n.grad_fn.name()) "
                   "for n in (x, w, " + "".join(f"{m}, " for m in made) + ")]"]
    return statements


@given(programs())
@settings(max_examples=examples(120), deadline=None)
def test_gradients_nodes_versions_and_errors_are_torchs(program):
    assert_like_torch(program, names=("y", "gx", "gw", "h"))


#: what a tutorial does with a graph once it is built (``{m}``: one of the tensors made)
ENDINGS = [
    ["y.backward(retain_graph=True)", "y.backward()"],
    ["y.backward(retain_graph=True)", "x.grad.zero_()", "y.backward()"],
    ["{m}.retain_grad()", "y.backward()", "gm = {m}.grad"],
    ["hk = {m}.register_hook(lambda g: g * 2)", "y.backward()"],
    ["hk = {m}.register_hook(lambda g: g * 2)", "hk.remove()", "y.backward()"],
    ["hk = x.register_hook(lambda g: g + 1)", "y.backward()"],
    ["(gm,) = torch.autograd.grad(y, [x], retain_graph=True)", "y.backward()"],
    ["gm = torch.autograd.grad(y, [x, w], allow_unused=True)"],
    ["{m}.backward(torch.ones(2, 3) * 0.5)"],
    ["(gm,) = torch.autograd.grad(y, x, create_graph=True)", "gm.sum().backward()"],
    ["y.backward()", "y.backward()"],
]


@st.composite
def endings(draw) -> list[str]:
    program = draw(programs())
    made = [s.split(" = ")[0] for s in program if s.startswith("v") and " = " in s]
    body = [s for s in program if not s.startswith(("y.backward", "gx =", "gw =", "h ="))]
    m = draw(st.sampled_from(made)) if made else "x"
    ending = [s.format(m=m) for s in draw(st.sampled_from(ENDINGS))]
    return body + ending + ["gx = x.grad", "gw = w.grad"]


@given(endings())
@settings(max_examples=examples(80), deadline=None)
def test_what_a_tutorial_does_with_the_graph_is_torchs(program):
    """The engine's features over drawn graphs: a second backward (retained or freed),
    .grad accumulating and zeroed, retain_grad, hooks (removed too), autograd.grad with
    unused inputs, an explicit gradient, a second derivative -- gradients, errors and the
    profiler tree as torch's."""
    assert_like_torch(program, names=("y", "gx", "gw", "gm"))
