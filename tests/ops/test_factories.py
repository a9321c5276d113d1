"""Factories against real PyTorch 2.13: shape, strides, offset, dtype, device, storage
size, values (random ones bit for bit after manual_seed), errors and the aten operator
tree as torch.profiler records it."""

from __future__ import annotations

import pytest

from conftest import require_torch
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

CASES = [
    # seed 002 and the factory table
    ["torch.manual_seed(0)", "y = torch.randn(3, 4)"],
    ["torch.manual_seed(1)", "y = torch.randn(20)"],
    ["torch.manual_seed(2)", "y = torch.randn(5, 7, dtype=torch.float64)"],
    ["torch.manual_seed(3)", "y = torch.rand(3, 4)"],
    ["torch.manual_seed(4)", "y = torch.rand(40, dtype=torch.float64)"],
    ["torch.manual_seed(5)", "y = torch.randint(0, 10, (3, 4))"],
    ["torch.manual_seed(6)", "y = torch.randint(10, (5,))"],
    ["torch.manual_seed(6)", "y = torch.randint(-3, 2**40, (9,))"],
    ["torch.manual_seed(7)", "y = torch.randperm(10)"],
    ["torch.manual_seed(7)", "y = torch.randperm(5, dtype=torch.float32)"],
    ["torch.manual_seed(8)", "y = torch.randn(3)", "z = torch.randn(5)", "w = torch.rand(20)"],
    ["torch.manual_seed(2**40 + 3)", "y = torch.randn(17)"],
    ["torch.manual_seed(-5)", "y = torch.randn(4)"],
    ["y = torch.zeros(2, 3)"],
    ["y = torch.zeros(2, 3, dtype=torch.int32)"],
    ["y = torch.ones(2, 3)"],
    ["y = torch.ones(4, dtype=torch.bool)"],
    ["y = torch.full((2, 3), 7)"],
    ["y = torch.full((2, 3), 7.5)"],
    ["y = torch.full((2,), True)"],
    ["y = torch.arange(5)"],
    ["y = torch.arange(1, 4, 0.5)"],
    ["y = torch.arange(0, 1, 0.1)"],
    ["y = torch.arange(0.3, 7.1, 0.7, dtype=torch.float64)"],
    ["y = torch.arange(-3, 40, 2)"],
    ["y = torch.eye(3)"],
    ["y = torch.eye(2, 3, dtype=torch.int64)"],
    ["y = torch.tensor([[1.5, 2.0], [3.0, 4.0]])"],
    ["y = torch.tensor(3)"],
    ["y = torch.tensor([1, 2], dtype=torch.float64)"],
    ["y = torch.zeros_like(t)"],
    ["y = torch.ones_like(t, dtype=torch.float32)"],
    ["y = torch.full_like(t, 3)"],
    ["u = t.t()", "y = torch.zeros_like(u)"],
    ["u = t[:, ::2]", "y = torch.zeros_like(u)"],
    ["torch.manual_seed(9)", "y = torch.rand_like(x)"],
    ["torch.manual_seed(9)", "y = torch.randn_like(x)"],
    ["torch.manual_seed(9)", "y = torch.randint_like(t, 5)"],
    ["torch.manual_seed(9)", "y = torch.empty(3).normal_(2, 3)"],
    ["torch.manual_seed(9)", "y = torch.empty(30).uniform_(2, 3)"],
    ["y = t.to(torch.float32)"],
    ["y = t.to(torch.int64)"],
    ["y = t.t().contiguous()"],
    ["y = t.contiguous()"],
    ["y = t[:, ::2].clone()"],
    ["e = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last)"],
    ["e = torch.empty_strided((2, 3), (1, 2))"],
    ["e = torch.empty_like(t[:, ::2])"],
    ["y = torch.tensor([[], [1]])"],
    ["y = torch.tensor([[], 1])"],
    ["y = torch.tensor([True, 2, 3.5])"],
    ["y = torch.tensor([[True], [2]])"],
    ["y = torch.tensor([1, []])"],
    ["y = torch.tensor(data=[1, 2])"],
    ["y = torch.zeros(2, 3).fill_(5)"],
    ["y = torch.empty(2, 3, dtype=torch.int32).fill_(2.7)"],
    ["y = torch.empty(1).fill_(3)"],
    ["y = torch.ones(2, 3).zero_()"],
    ["y = t[:, ::2].zero_()"],
    ["y = t.t().zero_()"],
    ["y = t[0:0].zero_()"],
    ["y = torch.zeros(0)"],
    ["y = torch.zeros(32768)"],
    ["y = torch.zeros_like(torch.empty(40000))"],
    ["y = torch.empty(1).expand(5).zero_()"],
    ["y = torch.empty(3, device='meta').zero_()"],
    ["y = t.fill_(True)"],
    ["u = torch.zeros(2, 3, 4, 5)", "y = u.contiguous(memory_format=torch.channels_last)"],
    ["u = torch.arange(120).reshape(2, 3, 4, 5)",
     "y = u.contiguous(memory_format=torch.channels_last)",
     "z = y.contiguous(memory_format=torch.contiguous_format)"],
    ["y = t.contiguous(memory_format=torch.channels_last)"],
    ["y = torch.zeros([2, 3])"],
    ["torch.manual_seed(4)", "y = torch.randn((2, 3))"],
    ["y = torch.ones_like(t)"],
    ["torch.manual_seed(9)", "y = torch.randn_like(x, dtype=torch.float64)"],
    ["y = torch.full((2, 2), 1.5, dtype=torch.float16)"],
    ["y = torch.empty(0, 3)"],
    ["y = torch.zeros(2, 3, dtype=torch.int32).to(torch.float64)"],
    # large: the compiled Box-Muller and Fisher-Yates, the parallel fill
    # a million draws each: out of the fast tier (under 2 minutes)
    pytest.param(["torch.manual_seed(11)", "y = torch.randn(1_048_593)"],
                 marks=pytest.mark.slow),
    pytest.param(["torch.manual_seed(12)", "y = torch.empty(1_048_576).normal_(-1, 0.5)"],
                 marks=pytest.mark.slow),
    ["torch.manual_seed(13)", "y = torch.randperm(5000)"],
    # meta: shapes and strides, no memory
    ["y = torch.randn(3, 4, device='meta')"],
    ["y = torch.empty(2, 3, device='meta')"],
    ["y = torch.zeros(2, 3, device='meta')"],
    ["y = torch.ones(2, device='meta')"],
    ["y = torch.rand(2, device='meta')"],
    ["y = torch.arange(5, device='meta')"],
    ["y = torch.tensor([1, 2], device='meta')"],
    ["y = torch.zeros_like(t, device='meta')"],
    ["torch.manual_seed(3)", "y = torch.randn(3, 4, requires_grad=True)"],
    # errors
    ["torch.empty(2**62, 2**62)"],
    ["torch.empty(-1)"],
    ["torch.randn(2, dtype=torch.int64)"],
    ["torch.randn(2, dtype='float')"],
    ["torch.zeros(2, dtype='float')"],
    ["torch.zeros(2, 3, 4, 5, memory_format=torch.channels_last)"],
    ["torch.empty(2, 3, memory_format=torch.channels_last)"],
    ["torch.randn(2, device='foo')"],
    ["torch.randn(2.5)"],
    ["torch.randperm(-1)"],
    ["torch.arange(0, 5, 0)"],
    ["torch.arange(5, 0, 1)"],
    ["torch.randint(5, 5, (2,))"],
    ["torch.empty(2).uniform_(3, 2)"],
    ["torch.zeros(2, dtype=torch.int64).uniform_()"],
    ["torch.full((2,), 'a')"],
    ["torch.eye(-1)"],
    ["torch.randn(2, 2, dtype=torch.int32, requires_grad=True)"],
    ["torch.randn(2**62, 2**62, device='meta')"],
    ["torch.randperm(3000, dtype=torch.float16)"],
    ["torch.tensor([[1, 2], [3]])"],
    ["torch.tensor([1, [2, 3]])"],
    ["torch.tensor([[1], 2])"],
    ["torch.tensor([1.5, [2.0]])"],
    ["torch.tensor([True, [False]])"],
    ["torch.tensor([1, (2, 3)])"],
    ["torch.tensor([[1, 2], []])"],
    ["torch.tensor([1], [2])"],
    ["torch.tensor()"],
]


def _names(statements: list[str]) -> list[str]:
    return [s.split("=")[0].strip() for s in statements if " = " in s]


@pytest.mark.parametrize("statements", CASES, ids=["; ".join(
    c.values[0] if hasattr(c, "values") else c) for c in CASES])
def test_factory_matches_torch(statements):
    names = _names(statements)
    # e* are uninitialised memory: compare everything but the bytes
    assert_like_torch(statements, names=names,
                      uninitialised=[n for n in names if n.startswith("e")])
