"""cumprod (function, method, in place) and cummin (function, method, out=) against torch
2.13: values bit for bit (cumprod accumulates in double for float, as cumsum does; cummin's
ties and NaNs), dtypes, errors word for word and the aten operators torch.profiler
records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

X = "x = torch.tensor([[1.5, -2., 0.1, 3.], [float('nan'), 2., -0.5, 2.], [1e30, 1e30, 1e-30, 7.]])"


@pytest.mark.parametrize("statements", [
    [X, "y = x.cumprod(1)"], [X, "y = torch.cumprod(x, 0)"], [X, "y = x.t().cumprod(-1)"],
    [X, "y = x.cumprod(1, dtype=torch.float64)"], [X, "y = x.half().cumprod(1)"],
    [X, "y = x.cumprod_(1)"], [X, "y = x.cumprod_(0, dtype=torch.float64)"],
    ["i = torch.tensor([[1, -2, 3], [4, 5, 6]])", "y = i.cumprod(1)"],
    ["i = torch.tensor([[1, -2, 3], [4, 5, 6]], dtype=torch.int8)", "y = i.cumprod(0)"],
    ["b = torch.tensor([True, False, True])", "y = b.cumprod(0)"],
    ["e = torch.empty(0, 3)", "y = e.cumprod(0)"], ["s = torch.tensor(2.5)", "y = s.cumprod(0)"],
    [X, "y = x.cumprod(2)"],
    [X, "y = x.cummin(1)"], [X, "y = torch.cummin(x, 0)"], [X, "y = x.t().cummin(1)"],
    ["i = torch.tensor([[3, 1, 1, 2], [0, 0, -1, 5]])", "y = i.cummin(1)"],
    ["b = torch.tensor([True, False, True])", "y = b.cummin(0)"],
    ["z = torch.tensor([0., -0., 0., -0.])", "y = z.cummin(0)"],
    ["s = torch.tensor(2.5)", "y = s.cummin(0)"], ["e = torch.empty(0, 3)", "y = e.cummin(1)"],
    [X, "v = torch.empty(0)", "n = torch.empty(0, dtype=torch.long)",
     "y = torch.cummin(x, 1, out=(v, n))"],
    [X, "v = torch.empty(0, dtype=torch.float64)", "n = torch.empty(0, dtype=torch.long)",
     "y = torch.cummin(x, 1, out=(v, n))"],
    [X, "y = x.cummin(-3)"],
])
def test_cumprod_and_cummin_are_torchs(statements):
    assert_like_torch(statements)


@given(values=st.lists(st.floats(-4, 4, width=32) | st.sampled_from([0.0, -0.0, 1.0,
                                                                      float("nan")]),
                       min_size=1, max_size=40),
       dtype=st.sampled_from(["float32", "float64", "float16"]), op=st.sampled_from(
           ["cumprod", "cummin"]))
@settings(max_examples=examples(80), deadline=None)
def test_running_products_and_minima_give_torchs_bits(values, dtype, op):
    def program(lib):
        t = lib.tensor(values, dtype=getattr(lib, dtype))
        return getattr(t, op)(0)
    assert_like_torch(program)
