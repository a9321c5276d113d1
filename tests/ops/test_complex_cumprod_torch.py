"""torch.cumprod of complex tensors, and nansum/nanmean of them (torch's own error) (engine/ops/cumulative.py's complex_cumprod), bit for
bit with torch 2.13 under every CPU capability this machine runs, both sides under each:
the accumulator is c10::complex<double> for both complex dtypes, each step c10's
operator*=, fused by GCC into two multiply-adds in the AVX2 and AVX512 builds and rounded
product by product in DEFAULT."""

from __future__ import annotations

import pytest

import complex_cumprod_cases
import engine
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


CASES = [(dtype, shape, dim, scale, layout, seed)
         for dtype in ("complex64", "complex128")
         for shape, dim, layout, seed in (((40,), 0, "contiguous", 1), ((7, 30), 1, "contiguous", 2),
                                          ((30, 7), 0, "contiguous", 3),
                                          ((9, 13), 0, "transposed", 4),
                                          ((3, 4, 25), 2, "contiguous", 5))
         for scale in (0.3, 1.0, 3.0)]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_complex_cumprod_is_torchs_under_every_capability(workers, case):
    for cap, worker in workers.items():
        theirs = worker.call("complex_cumprod_cases", "run", case)
        ours = under_capability(cap, complex_cumprod_cases.run, engine, case)
        assert ours == theirs, cap


@pytest.mark.parametrize("program", [
    "x = torch.tensor([1+2j, 3-1j, 0.5+0.5j]); y = torch.cumprod(x, 0)",
    "x = torch.tensor([1., 2., 3.]); y = torch.cumprod(x, 0, dtype=torch.complex64)",
    "x = torch.tensor([1., 2., 3.]); q = torch.empty(0, dtype=torch.complex64); "
    "y = torch.cumprod(x, 0, out=q)",
    "x = torch.tensor([1+2j, 3-1j, 0.5+0.5j]); y = x.cumprod_(0)",
    "x = torch.tensor([[1+2j, float('inf')], [0j, 1j]], dtype=torch.complex128); "
    "y = x.cumprod(1)",
    "x = torch.tensor(1+2j); y = torch.cumprod(x, 0)",
    "x = torch.zeros(0, 2, dtype=torch.complex64); y = torch.cumprod(x, 0)",
])
def test_complex_cumprod_forms_are_torchs(program):
    assert_like_torch(program.split("; "))


@pytest.mark.parametrize("program", [
    ["x = torch.tensor([1+2j, float('nan')+1j])", 'y = torch.nansum(x)'],
    ["x = torch.tensor([1+2j, float('nan')+1j])", 'y = torch.nansum(x, 0)'],
    ["x = torch.tensor([1+2j, float('nan')+1j])", 'y = x.nansum()'],
    ['x = torch.tensor([1., 2.])', 'y = torch.nansum(x, dtype=torch.complex64)'],
    ["x = torch.tensor([1+2j, float('nan')+1j])", 'y = torch.nanmean(x)'],
    ["x = torch.tensor([1+2j, float('nan')+1j])", 'y = torch.nansum(x, out=torch.empty(0, dtype=torch.complex64))'],
    ["x = torch.tensor([1+2j, float('nan')+1j])", 'y = torch.nanmean(x, out=torch.empty(0, dtype=torch.complex64))'],
    ['x = torch.tensor([1., 2.])', 'y = torch.nansum(x, out=torch.empty(0, dtype=torch.complex64))'],
])
def test_complex_nansum_and_nanmean_are_torchs_errors(program):
    """nansum_out refuses a complex input on the CPU ("nansum on CPU does not support
    complex inputs"), which nanmean reaches after its count; a complex dtype= reaches the
    float-only kernel's dispatch."""
    assert_like_torch(program)
