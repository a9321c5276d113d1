"""A fused complex multiply-add step meeting an infinity, against torch 2.13: IEEE's fma
keeps a finite exact product against an infinite addend, where rounding the product
first gives inf - inf = NaN -- for the addend an overflowed product (engine/rng/fp.py's
fma64, complex128 cumprod's accumulator) or a running product's overflowed part
(engine/ops/complex_arith.py's _fused, complex64 prod's fused steps)."""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("statements", [
    # cumprod's complex<double> accumulator, fused: fma(1e300, 1e10, -inf) is -inf
    ["x = torch.tensor([1e300+1e300j, 1e10+1e10j], dtype=torch.complex128)",
     "y = x.cumprod(0)"],
])
def test_fused_step_with_an_infinity_is_torchs(statements):
    assert_like_torch(statements)
