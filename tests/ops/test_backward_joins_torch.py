"""The backward formulas of the joins, splits, index-producing and rearranging operators
(issue #27, engine/autograd/formulas_joins.py), compared with torch 2.13 as
tests/ops/test_backward_torch.py compares the others: the leaves' ``.grad`` (values bit for
bit, shape, strides, dtype), the whole profiler tree of the backward pass (each node's
formula's operators, the backward-only ones of engine/ops/index_backward.py --
gather_backward, index_select_backward, diagonal_backward, masked_select_backward,
value_selecting_reduction_backward), and torch's errors.

Repeated indices (their gradients add up), strided (transposed, expanded) inputs,
negative dims, outputs of a split no gradient flowed into (zeros), and a property test
drawing shapes, dims and index tensors for gather, index_select and cat.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backward_joins_cases
from conftest import examples
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

LEAF = "x = torch.ones(2, 3, requires_grad=True)"
OTHER = "w = torch.arange(6.).reshape(2, 3).requires_grad_()"
NAMES = ("gx", "gw", "y")

PROGRAMS = [
    # gather / index_select / take: repeated indices add up
    "y = x.gather(1, torch.tensor([[0, 0], [2, 1]])).sum(); y.backward(); gx = x.grad",
    "y = (w.gather(0, torch.tensor([[1, 1, 0]])) * 2).sum(); y.backward(); gw = w.grad",
    "y = w.gather(1, torch.tensor([[0, 0, 0, 0], [2, 2, 1, 0]])).sum(); y.backward(); gw = w.grad",
    "y = torch.gather(w, -1, torch.tensor([[1], [1]])).sum(); y.backward(); gw = w.grad",
    "y = (w.t().gather(0, torch.tensor([[1, 1], [0, 0]])) * 2).sum(); y.backward(); gw = w.grad",
    "y = w.index_select(1, torch.tensor([0, 0, 2])).sum(); y.backward(); gw = w.grad",
    "y = (w.index_select(-2, torch.tensor([1, 1])) * w[0]).sum(); y.backward(); gw = w.grad",
    "y = w.t().index_select(0, torch.tensor([2, 2, 0])).sum(); y.backward(); gw = w.grad",
    "y = w.expand(2, 2, 3).index_select(0, torch.tensor([1])).sum(); y.backward(); gw = w.grad",
    "y = w.take(torch.tensor([0, 4, 5])).sum(); y.backward(); gw = w.grad",
    "y = (w.take(torch.tensor([[3], [1]])) * 2).sum(); y.backward(); gw = w.grad",
    # take's gradient of a sum is an expanded number: put_ adds it at repeated indices
    "y = w.take(torch.tensor([0, 0, 5])).sum(); y.backward(); gw = w.grad",
    "y = w.t().take(torch.tensor([[0, 0], [5, 0]])).sum(); y.backward(); gw = w.grad",
    # joins: each input's part of the gradient as a view
    "y = torch.cat([x, w]).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (torch.cat([x, w], -1) * torch.arange(6.)).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = torch.cat([x, torch.ones(2, 1)], 1).sum(); y.backward(); gx = x.grad",
    "y = torch.cat([torch.tensor([]), w, x]).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = torch.cat([w.t(), x.t()], 1).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = torch.stack([x, w], 1).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = (torch.stack([x, w], -1) * torch.arange(2.)).sum(); y.backward(); gx = x.grad; "
    "gw = w.grad",
    "y = torch.stack([w[0], x[1], w[1]]).sum(); y.backward(); gx = x.grad; gw = w.grad",
    # splits: the outputs' gradients joined back, zeros where none flowed
    "y = w.unbind(1)[0].sum(); y.backward(); gw = w.grad",
    "y = (w.unbind()[0] * w.unbind()[1]).sum(); y.backward(); gw = w.grad",
    "a, b = w.unbind(-2); y = b.sum(); y.backward(); gw = w.grad",
    "y = w.split(2, 1)[1].sum(); y.backward(); gw = w.grad",
    "y = w.split([1, 2], 1)[1].sum(); y.backward(); gw = w.grad",
    "y = w.chunk(2, 1)[1].sum(); y.backward(); gw = w.grad",
    "y = w.split(1, -1)[0].sum() + w.split(1, -1)[2].sum() * 2; y.backward(); gw = w.grad",
    "a, b, c = w.split(1, 1); y = (a * 2 + c).sum(); y.backward(); gw = w.grad",
    "y = w.narrow(1, 1, 2).sum(); y.backward(); gw = w.grad",
    # masks and conditions
    "y = torch.where(w > 2, x, w).sum(); y.backward(); gx = x.grad; gw = w.grad",
    "y = torch.where(w > 2, x, 0.).sum(); y.backward(); gx = x.grad",
    "y = torch.where(torch.tensor([True, False, True]), w, x).sum(); y.backward(); "
    "gx = x.grad; gw = w.grad",
    "y = w.masked_fill(w > 2, 0).sum(); y.backward(); gw = w.grad",
    "y = w.masked_fill(w > 2, torch.tensor(1.)).sum(); y.backward(); gw = w.grad",
    "v = torch.tensor(2., requires_grad=True); y = w.masked_fill(w > 2, v).sum(); "
    "y.backward(); gx = v.grad; gw = w.grad",
    "y = w.masked_select(w > 2).sum(); y.backward(); gw = w.grad",
    "y = w.masked_select(torch.tensor([True, False, True])).sum(); y.backward(); gw = w.grad",
    "y = w.tril().sum(); y.backward(); gw = w.grad",
    "y = w.triu(1).sum(); y.backward(); gw = w.grad",
    "y = w.t().tril(-1).sum(); y.backward(); gw = w.grad",
    # rearrangements: flip, roll, repeat, diagonal
    "y = w.flip(1).sum(); y.backward(); gw = w.grad",
    "y = (w.flip(0, 1) * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = w.t().flip(-1).sum(); y.backward(); gw = w.grad",
    "y = w.roll(1, 1).sum(); y.backward(); gw = w.grad",
    "y = (w.roll((1, -1), (0, 1)) * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = (w.roll(2) * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = w.repeat(2, 1).sum(); y.backward(); gw = w.grad",
    "y = (w.repeat(2, 3, 2) * 2).sum(); y.backward(); gw = w.grad",
    "y = (w.t().repeat(1, 2) * torch.arange(4.)).sum(); y.backward(); gw = w.grad",
    "y = w.repeat(1, 1).sum(); y.backward(); gw = w.grad",
    "y = w.repeat(0, 1).sum(); y.backward(); gw = w.grad",
    "y = w.diagonal().sum(); y.backward(); gw = w.grad",
    "y = (w.diagonal(1) * 3).sum(); y.backward(); gw = w.grad",
    "y = w.diagonal(0, -1, -2).sum(); y.backward(); gw = w.grad",
    # casts
    "y = w.double().sum(); y.backward(); gw = w.grad",
    "y = (w.to(torch.float64) * 2).sum(); y.backward(); gw = w.grad",
    "y = w.to(torch.float16).sum(); y.backward(); gw = w.grad",
    "y = w.half().double().sum(); y.backward(); gw = w.grad",
    # scatter, scatter_add, index_add: both inputs' gradients
    "i = torch.tensor([[0, 0, 1]]); v = torch.ones(1, 3, requires_grad=True); "
    "y = (w.scatter(0, i, v) * w).sum(); y.backward(); gx = v.grad; gw = w.grad",
    "i = torch.tensor([[0, 0, 1]]); v = torch.ones(1, 3, requires_grad=True); "
    "y = (w.scatter_add(0, i, v) * w).sum(); y.backward(); gx = v.grad; gw = w.grad",
    "y = (w.scatter(1, torch.tensor([[0], [2]]), 5.) * 2).sum(); y.backward(); gw = w.grad",
    "y = (w.index_add(1, torch.tensor([0, 0, 2]), x) * w).sum(); y.backward(); gx = x.grad; "
    "gw = w.grad",
    "y = (w.index_add(0, torch.tensor([1, 1]), x, alpha=2) * w).sum(); y.backward(); "
    "gx = x.grad; gw = w.grad",
    # the values of sort and topk: their gradient through the indices
    "y = (w.sort(1)[0] * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = (w.sort(0, descending=True)[0] * torch.arange(3.)).sum(); y.backward(); gw = w.grad",
    "y = (w.sort(-1, descending=True).values * torch.arange(3.)).sum(); y.backward(); "
    "gw = w.grad",
    "y = (w.topk(2)[0] * torch.arange(2.)).sum(); y.backward(); gw = w.grad",
    "y = w.topk(1, 0)[0].sum(); y.backward(); gw = w.grad",
    "y = w.topk(2, largest=False).values.sum(); y.backward(); gw = w.grad",
    # the reductions along a dim that return indices: keepdim or not
    "y = (w.max(1)[0] * 2).sum(); y.backward(); gw = w.grad",
    "y = w.min(0, keepdim=True).values.sum(); y.backward(); gw = w.grad",
    "y = w.median(1)[0].sum(); y.backward(); gw = w.grad",
    "y = w.nanmedian(-1)[0].sum(); y.backward(); gw = w.grad",
    "y = torch.tensor([[1., 2, 2], [3, 3, 1]], requires_grad=True); z = y.mode(1)[0].sum(); "
    "z.backward(); gw = y.grad",
    "y = torch.tensor(3., requires_grad=True); z = y.max(0)[0]; z.backward(); gw = y.grad",
    "y = torch.tensor(3., requires_grad=True); z = y.sort()[0]; z.backward(); gw = y.grad",
    # cummax/cummin: each running extreme's gradient added where it came from
    "y = (w.cummax(1)[0] * w).sum(); y.backward(); gw = w.grad",
    "y = w.cummax(0)[0].sum(); y.backward(); gw = w.grad",
    "y = torch.tensor([[1., 3, 2, 3], [0, -1, -1, 4]], requires_grad=True); "
    "z = (y.cummin(-1).values * torch.arange(4.)).sum(); z.backward(); gw = y.grad",
    # index_fill, put, masked_scatter, the view scatters: both inputs' gradients
    "y = w.index_fill(1, torch.tensor([0, 0]), 5.).sum(); y.backward(); gw = w.grad",
    "v = torch.tensor(2., requires_grad=True); y = w.index_fill(1, torch.tensor([2, 0, 2]), v)"
    ".sum(); y.backward(); gw = w.grad; gx = v.grad",
    "y = (w.put(torch.tensor([0, 4]), x[0, :2]) * w).sum(); y.backward(); gw = w.grad; "
    "gx = x.grad",
    "y = w.put(torch.tensor([0, 4]), x[0, :2], accumulate=True).sum(); y.backward(); "
    "gw = w.grad; gx = x.grad",
    "y = (w.masked_scatter(w > 2, x) * w).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "y = w.masked_scatter(torch.tensor([True, False, True]), x).sum(); y.backward(); "
    "gw = w.grad; gx = x.grad",
    "y = (w.select_scatter(x[0], 0, 1) * w).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "y = w.slice_scatter(x[:, :2], 1, 1).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "y = w.slice_scatter(x[:, 1:], -1, -2).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "y = w.diagonal_scatter(x[0, :2]).sum(); y.backward(); gw = w.grad; gx = x.grad",
    "y = w.t().diagonal_scatter(x[0, :2], -1).sum(); y.backward(); gw = w.grad; gx = x.grad",
]

ERRORS = [
    # validate_outputs names the node and the edge: scatter's src gradient is the index's
    # shape, not src's
    "i = torch.tensor([[0, 0, 1]]); y = w.scatter(0, i, x).sum(); y.backward()",
    "i = torch.tensor([[0, 0, 1]]); y = w.scatter_add(0, i, x).sum(); y.backward()",
]


@pytest.mark.parametrize("statement", [
    "y = torch.zeros(5).put_(torch.tensor([0, 0, 1]), torch.tensor(2.5).expand(3), "
    "accumulate=True)",
    "y = torch.zeros(2, 3).put_(torch.tensor([[0, 0], [1, 0]]), torch.tensor(0.1)"
    ".expand(2, 2), accumulate=True)",
    "y = torch.zeros(4).put_(torch.tensor([3, 3]), torch.tensor(7.).expand(2))",
])
def test_put_of_one_expanded_value_at_repeated_indices_is_torchs(statement):
    """put_ at repeated indices from a source whose every element is one value (what
    TakeBackward0 puts for a sum): any visiting order gives the same bits, so tidx runs
    it rather than refusing the strided source."""
    assert_like_torch([statement])


def test_reshape_as_is_torchs():
    """Tensor.reshape_as (PutBackward0's formula calls it): reshape to other's sizes, a
    view where the strides allow, a copy where not."""
    assert_like_torch(["a = torch.arange(6.).reshape(2, 3)", "b = a.reshape_as(torch.ones(3, 2))",
                       "c = a.t().reshape_as(torch.ones(6))", "y = a.reshape_as(a)"],
                      names=("b", "c", "y"))


@pytest.mark.parametrize("program", PROGRAMS)
def test_gradients_and_the_backward_operators_are_torchs(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


@pytest.mark.fast
@pytest.mark.parametrize("program", ERRORS)
def test_errors_are_torchs(program):
    assert_like_torch([LEAF, OTHER, *program.split("; ")], names=NAMES)


@st.composite
def _indexing(draw):
    """A shape (1-3 dims of 1-4), a dim (negative or not), and an index tensor drawn for
    gather (the input's shape but at dim) and index_select (1-dim), with repeats."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    d = dim % len(shape)
    op = draw(st.sampled_from(["gather", "index_select", "cat"]))
    # a leaf laid out contiguously, or (2 dims) transposed: a column-major leaf
    transposed = len(shape) == 2 and draw(st.booleans())
    layout = f"reshape({shape[::-1]}).t()" if transposed else f"reshape({shape})"
    leaf = f"x = torch.arange({_numel(shape)}.).{layout}.requires_grad_()"
    if op == "cat":
        other = list(shape)
        other[d] = draw(st.integers(0, 3))
        call = f"torch.cat([x, torch.ones({other}, requires_grad=True), x], {dim})"
    else:
        n = draw(st.integers(1, 5))
        if op == "gather":
            ishape = list(shape)
            ishape[d] = n
            values = draw(st.lists(st.integers(0, shape[d] - 1), min_size=_numel(ishape),
                                   max_size=_numel(ishape)))
            index = f"torch.tensor({values}).reshape({ishape})"
        else:
            values = draw(st.lists(st.integers(0, shape[d] - 1), min_size=n, max_size=n))
            index = f"torch.tensor({values})"
        call = f"x.{op}({dim}, {index})"
    weight = draw(st.sampled_from(["", " * 2", " * 0.5"]))
    return [leaf, f"y = ({call}{weight}).sum()", "y.backward()", "gx = x.grad"]


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@pytest.mark.fast
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(program=_indexing())
def test_gather_index_select_and_cat_gradients_are_torchs(program):
    assert_like_torch(program, names=("gx", "y"))


# -- sums in the backward pass: torch's bits under every CPU capability -------------------
RUNNABLE = runnable()

CAPABILITY_CASES = [(op, dtype, n, seed)
                    for op in ("repeat", "gather", "index_select", "masked_fill")
                    for dtype in ("float32", "float64")
                    for n, seed in ((37, 1), (1000, 2))]


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


@pytest.mark.parametrize("case", CAPABILITY_CASES, ids=lambda c: "-".join(map(str, c)))
def test_summed_gradients_are_torchs_bits_under_every_capability(workers, case):
    """The gradients that are sums (repeat's, gather's scatter_add_, index_select's
    index_add_ with repeated indices, a masked_fill value's) bit for bit, with torch and
    tidx both under each ATEN_CPU_CAPABILITY the machine runs."""
    import engine

    for cap, worker in workers.items():
        theirs = worker.call("backward_joins_cases", "run", case)
        ours = under_capability(cap, backward_joins_cases.run, engine, case)
        assert ours == theirs, (cap, case)
