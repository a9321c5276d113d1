"""tidx against real PyTorch 2.13: results, layouts, errors and the aten operator tree.

Each case runs the same statements in both; the operator tree must match what
torch.profiler records (names, order and nesting), the named tensors must match
in values, shape, strides, storage offset, dtype and storage size, and errors must
match in class and message.
"""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

pytestmark = pytest.mark.torch

CASES = [
    # seed 001
    (["t[1, 2] = 3"], ["t"]),
    (["t[rows, cols] = 10"], ["t"]),
    (["t.index_put_((rows, cols), torch.tensor([10, 10]))"], ["t"]),
    # views and basic getitem
    (["y = t[1:, ::2]"], ["y", "t"]),
    (["y = t[1]"], ["y"]),
    (["y = t[-1, -2]"], ["y"]),
    (["y = t[None]"], ["y"]),
    (["y = t[...]"], ["y"]),
    (["y = t[:, None, 1]"], ["y"]),
    (["y = t[..., 0]"], ["y"]),
    (["y = t[0:2]"], ["y"]),
    (["y = t[:]"], ["y"]),
    (["y = t[True]"], ["y"]),
    (["y = t[False]"], ["y"]),
    # basic setitem: copy_to's three cases
    (["t[1] = 3"], ["t"]),
    (["t[1] = torch.tensor([1, 2, 3])"], ["t"]),
    (["t[0:2] = torch.tensor([7, 8, 9])"], ["t"]),
    (["t[...] = 1"], ["t"]),
    (["t[:] = 5"], ["t"]),
    (["t[1, 2] = 3.7"], ["t"]),
    (["x[0, 1] = 2"], ["x"]),
    # advanced getitem / setitem
    (["y = t[rows, cols]"], ["y"]),
    (["y = t[rows]"], ["y"]),
    (["y = t[[0, 1]]"], ["y"]),
    (["y = t[rows, 1:]"], ["y"]),
    (["t[torch.tensor([0, 2])] = torch.tensor([[0, 0, 0]])"], ["t"]),
    (["y = a[idx_1, 1]"], ["y"]),
    (["y = b[idx_0, idx_1]"], ["y"]),
    (["y = a[idx_1, :, idx_1]"], ["y"]),
    (["a[idx_1, :, idx_1] = 0"], ["a"]),
    (["y = a[:, idx_1, idx_0]"], ["y"]),
    (["y = t[torch.tensor(1)]"], ["y"]),
    (["y = t[torch.tensor(True)]"], ["y"]),
    (["y = t[[[0, 1], [1, 2]]]"], ["y"]),
    (["y = t[[0, 1], [1, 2]]"], ["y"]),
    # seed 004 bool masks
    (["y = a[index_0]"], ["y"]),
    (["y = a[index_2]"], ["y"]),
    (["y = a[index_2, 1]"], ["y"]),
    (["y = a[:, index_1, 1]"], ["y"]),
    # factories
    (["y = torch.empty(2, 3)"], []),
    # an empty tensor is contiguous, so non-overlapping and dense: copies keep its strides
    (["z = torch.zeros(0, 3)[:, ::2]", "y = z.clone()"], ["y"]),
    (["z = torch.zeros(0, 4).t()", "y = torch.zeros_like(z)"], ["y"]),
    (["y = torch.zeros(2, 3)"], ["y"]),
    (["y = torch.tensor([[1.5, 2.0], [3.0, 4.0]])"], ["y"]),
    (["y = torch.tensor([True, False])"], ["y"]),
    # errors
    (["t[5]"], []),
    (["t[1, 2, 3]"], []),
    (["t[0, 5] = 1"], []),
    (["t[torch.tensor([0, 5])]"], []),
    (["t[rows, torch.tensor([0, 1, 2])]"], []),
    (["t[::-1]"], []),
    (["t[::0]"], []),
    (["t[1.5]"], []),
    (["t[torch.tensor([0.0])]"], []),
    (["t[1, 2][0]"], []),
    (["t[0:2] = torch.tensor([1, 2])"], []),
    (["t[rows] = torch.tensor([1.5, 2.5, 3.5])"], []),
    (["t[index_0] = 1"], ["t"]),
    (["t[0, 0] = 2**70"], []),
    (["torch.empty(2**62, 2**62)"], []),
    (["torch.empty(-1)"], []),
    (["torch.randn(2, dtype=torch.int64)"], []),
]


OPERATOR_CASES = [
    (["y = t > 4"], ["y"]),
    (["y = t >= 4.5"], ["y"]),
    (["y = 4 < t"], ["y"]),
    (["y = t == t"], ["y"]),
    (["y = ~(t > 4)"], ["y"]),
    (["y = (t > 4) & (t < 8)"], ["y"]),
    (["y = (t > 4) | (t < 2)"], ["y"]),
    (["y = t + 1"], ["y"]),
    (["y = t + t"], ["y"]),
    (["y = t * 2.5"], ["y"]),
    (["y = x * 2.5"], ["y"]),
    (["y = x + 1"], ["y"]),
    (["y = t / 2"], ["y"]),
    (["y = -t"], ["y"]),
    (["y = t - 1"], ["y"]),
    (["y = (t > 4) + 1"], ["y"]),
    (["y = t + torch.tensor(2.5)"], ["y"]),
    (["y = t & 1"], ["y"]),
    (["y = -(t > 4)"], []),
    (["y = ~x"], []),
    (["y = t + torch.tensor([1, 2])"], []),
    (["t[t > 4] = 0"], ["t"]),
    (["y = t[t > 4]"], ["y"]),
    (["y = a[a > 5]"], ["y"]),
    (["t[(t > 2) & (t < 8)] = -1"], ["t"]),
]



GATHER_CASES = [
    (["y = t.index_select(0, torch.tensor([0, 2]))"], ["y"]),
    (["y = t.index_select(1, torch.tensor([2, 0]))"], ["y"]),
    (["y = x.index_select(-2, indices)"], ["y"]),
    (["y = torch.index_select(x, 1, indices)"], ["y"]),
    (["y = t.index_select(0, torch.tensor([5]))"], []),
    (["y = t.index_select(0, torch.tensor([[0]]))"], []),
    (["y = torch.gather(t, 1, torch.tensor([[0], [1], [2]]))"], ["y"]),
    (["y = torch.gather(t, 0, torch.tensor([[1], [0], [2]]))"], ["y"]),
    (["y = torch.gather(t, 1, torch.tensor([[5]]))"], []),
    (["y = torch.gather(t, 1, torch.tensor([0, 1]))"], []),
    (["y = t.scatter(1, torch.tensor([[0], [1], [2]]), torch.tensor([[9], [9], [9]]))"], ["y"]),
    (["t.scatter_(1, torch.tensor([[0], [1], [2]]), 7)"], ["t"]),
    (["y = t.scatter_add(1, torch.tensor([[0], [0], [2]]), torch.tensor([[9], [9], [9]]))"],
     ["y"]),
    (["y = t.take(torch.tensor([0, 5, -1]))"], ["y"]),
    (["y = t.take(torch.tensor([9]))"], []),
    (["y = t.masked_fill(t > 4, 0)"], ["y", "t"]),
    (["t.masked_fill_(t > 4, 1)"], ["t"]),
    (["y = t.nonzero()"], ["y"]),
    (["y = t.masked_select(t > 4)"], ["y"]),
    (["y = t.masked_select(torch.tensor([True, False, True]))"], ["y"]),
    (["y = torch.masked_select(x, x > 0)"], ["y"]),
    (["y = t.masked_select(t)"], []),
    (["y = (t > 4).sum()"], ["y"]),
    (["y = t.sum()"], ["y"]),
    (["y = torch.where(t > 4)"], []),
    (["y = t.permute(1, 0)"], ["y"]),
    (["y = a.permute(2, 0, 1)"], ["y"]),
    (["y = t.permute(0, 0)"], []),
    (["y = t[None].squeeze(0)"], ["y"]),
    (["y = t.narrow(0, 1, 2)"], ["y"]),
    (["y = t.narrow(0, 2, 2)"], []),
    (["y = t.flatten()"], ["y"]),
    (["y = t.t().flatten()"], ["y"]),
    (["y = t.transpose(0, 1)"], ["y"]),
    # seed 004: gather written as fancy indexing with arange tensors
    (["i0 = torch.arange(3).view(3, 1)", "y = b[i0, torch.tensor([[1], [0], [1]])]"], ["y"]),
]


def _id(case) -> str:
    return "; ".join(case[0])


ALL_CASES = CASES + OPERATOR_CASES + GATHER_CASES


@pytest.mark.parametrize("statements,names", ALL_CASES, ids=[_id(c) for c in ALL_CASES])
def test_matches_torch(statements, names):
    assert_like_torch(statements, names=names)
