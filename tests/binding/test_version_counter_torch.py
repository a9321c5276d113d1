"""The ADInplaceOrView key (issue #27): version counters and view bases, compared with
torch 2.13.

A program makes views of a tensor (select, slices, transposes, detach, ``.data``,
reshape that may or may not copy, unbind ...) and writes through some of them (in-place
operators, out=, indexed assignment); then every tensor's ``_version``, ``_is_view()``
and which tensor its ``_base`` is must be torch's.  The aten operators, the values and
any error are compared too (:func:`oracle.assert_like_torch`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

#: Ways to make a new tensor from ``{s}`` (a view, an alias that is not a view, a copy)
MAKE = ["{s}[1]", "{s}.t()", "{s}[:, 1:3]", "{s}.view(-1)", "{s}.unsqueeze(0)",
        "{s}.diagonal()", "{s}.narrow(0, 0, 2)", "{s}.detach()", "{s}.data", "{s}.clone()",
        "{s}.contiguous()", "{s}.reshape(-1)", "{s}.unbind(0)[0]", "{s}.split(1)[0]",
        "{s}[...]", "{s}[None]", "{s}[[0, 1]]", "{s}.T", "{s}.flatten()", "{s}.expand(2, -1, -1)",
        "{s}.permute(1, 0)", "{s}.squeeze()", "{s}.as_strided((2,), (1,))", "{s}.view_as({s})",
        "{s}.real", "{s}.movedim(0, -1)", "{s}[{s} > 3]"]

#: Ways to write into ``{s}``
WRITE = ["{s}.add_(1)", "{s}[0] = 1", "{s}.zero_()", "{s}.fill_(2)", "{s} += 1",
         "{s}.clamp_(0, 5)", "{s}.copy_({s})", "{s}[{s} > 3] = 0", "{s}.mul_(2).add_(1)",
         "torch.add({s}, 1, out={s})", "{s}.transpose_(0, -1)", "{s}.unsqueeze_(0)",
         "{s}.squeeze_()", "{s}.resize_(2)", "{s}.as_strided_((2,), (1,))",
         "{s}[..., 0] = {s}[..., 1]", "{s}.uniform_()", "{s}.detach_()",
         "{s}.index_fill_(0, torch.tensor([0]), 1.)", "torch.mul({s}, 2, out={s})"]


@st.composite
def programs(draw) -> list[str]:
    names = ["b"]
    statements = ["b = torch.arange(12.).reshape(3, 4)"]
    for _ in range(draw(st.integers(1, 6))):
        source = draw(st.sampled_from(names))
        if draw(st.booleans()):
            name = f"v{len(names)}"
            statements.append(f"{name} = " + draw(st.sampled_from(MAKE)).format(s=source))
            names.append(name)
        else:
            statements.append(draw(st.sampled_from(WRITE)).format(s=source))
    everyone = ", ".join(names)
    statements.append(f"y = [(n._version, n._is_view(), [n._base is m for m in "
                      f"({everyone},)]) for n in ({everyone},)]")
    return statements


@pytest.mark.fast
@given(programs())
@settings(max_examples=examples(300), deadline=None)
def test_versions_and_view_bases_are_torchs(program):
    assert_like_torch(program)


@pytest.mark.fast
@pytest.mark.parametrize("program", [
    # one bump per in-place call, through every view of the same base
    ["b = torch.arange(6.)", "v = b.view(2, 3)", "v[0] = 5", "w = v[1]", "b.add_(1)",
     "y = (b._version, v._version, w._version, w._base is b)"],
    # out= bumps its out once, even when it was resized first
    ["o = torch.empty(0)", "torch.rand(3, out=o)", "y = o._version"],
    ["o = torch.empty(2)", "torch.sum(torch.ones(3, 2), 0, out=o)", "y = o._version"],
    # detach shares the counter but is no view; .data has a counter of its own
    ["x = torch.zeros(3)", "d = x.detach()", "d.add_(1)", "e = x.data", "e.add_(1)",
     "y = (x._version, d._version, e._version, d._is_view(), e._is_view(), e is x)"],
    # a reshape that must copy is no view; one that can view is
    ["x = torch.arange(6).reshape(2, 3)", "y = (x.t().reshape(6)._is_view(), "
     "x.reshape(6)._is_view(), x._is_view())"],
    # a failing in-place call bumps nothing
    ["x = torch.zeros(3)", "y = x._version",
     "x.add_(torch.ones(2))"],
    # writes a kernel makes inside another operator are below the key
    ["x = torch.zeros(2, 3)", "x.index_put_((torch.tensor([0, 0]),), torch.ones(3), "
     "accumulate=True)", "y = x._version"],
])
def test_version_cases(program):
    assert_like_torch(program)


@pytest.mark.fast
@pytest.mark.parametrize("program", [
    "x = torch.zeros(3, dtype=torch.long)\nx.requires_grad = True",
    "x = torch.zeros(3, dtype=torch.long)\nx.requires_grad_()",
    "x = torch.zeros(3, dtype=torch.bool)\nx.requires_grad_(True)",
    "x = torch.zeros(3)\nx.requires_grad = 1",
    "x = torch.zeros(3)\nx.requires_grad_(1)",
    "x = torch.zeros(3)\nx.requires_grad_(True, 3)",
    "x = torch.zeros(3)\ny = x._is_view(1)",
    "x = torch.zeros(3, dtype=torch.long)\ny = x.requires_grad_(False) is x",
    "x = torch.zeros(3, dtype=torch.float16)\ny = x.requires_grad_(requires_grad=True)"
    ".requires_grad",
    "x = torch.zeros(3)\nx.requires_grad = True\n"
    "y = (x.is_leaf, x.grad, x.grad_fn, x.retains_grad, x.output_nr, x.requires_grad)",
    "x = torch.ones(2, requires_grad=True)\ny = (x.data.requires_grad, x.detach().is_leaf, "
    "x.detach().requires_grad)",
])
def test_requires_grad_flags_and_their_errors(program):
    assert_like_torch(program.split("\n"))
