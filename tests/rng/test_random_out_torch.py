"""The random factories' out= forms (torch.rand(3, out=y), randn, randint): resize_ of the
given tensor, then the sampler, compared with torch -- the numbers bit for bit, the aten
tree, a larger or smaller out= (resized without a warning: resize_ is called directly),
and a wrong dtype's error, raised by the sampler after the resize."""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

CALLS = ["torch.rand(3, out=y)", "torch.randn(2, 3, out=y)", "torch.randint(5, (4,), out=y)",
         "torch.randint(-3, 3, (2, 2), out=y)", "torch.rand((2,), out=y)",
         "torch.randn(0, out=y)"]
OUTS = ["torch.empty(3)", "torch.empty(7)", "torch.empty(0)", "torch.empty(2, dtype=torch.long)",
        "torch.empty(3, dtype=torch.float64)", "torch.empty(6)[::2]"]


@pytest.mark.parametrize("out", OUTS)
@pytest.mark.parametrize("call", CALLS)
def test_a_random_factory_into_out_is_torch_s(call, out):
    assert_like_torch(["torch.manual_seed(4)", f"y = {out}", call], names=("y",),
                      uninitialised=("y",) if "randint" not in call and "long" in out
                      else ())
