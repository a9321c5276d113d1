"""The pointwise math nodes' backward formulas (engine/autograd/formulas_math.py, issue
#27), compared with torch 2.13 as tests/ops/test_backward_torch.py compares the others:
the leaves' ``.grad`` bit for bit, the whole profiler tree of the backward pass (each
formula's operators in the order the gcc build runs them: a call's arguments right to
left, ``a * b``'s right operand first), and the errors.  Where the forward operator is
Sleef's (sinh, cosh, tan, asin, erf: a stated bound, engine/ops/math_unary.py), the
values are compared within that bound and everything else exactly.  (The formulas'
own operators -- mul, div, add, where -- are correctly rounded, so their bits do not
depend on the CPU capability; the forward operators' capability tests cover theirs.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from oracle import assert_like_torch, compare

pytestmark = pytest.mark.torch

NAMES = ("gx", "gw", "y")
X = "x = torch.tensor([-2., -0.5, -0., 0., 0.5, 1., 3.], requires_grad=True)"
P = "x = torch.tensor([0.1, 0.5, 1., 2., 1e-30, 40.], requires_grad=True)"
U = "x = torch.tensor([0.1, 0.5, -0.9, 0., -0.], requires_grad=True)"
W = "w = torch.tensor([1., -2., 0.5, 0., 0., 1., -3.], requires_grad=True)"
BACK = "y.backward(); gx = x.grad"

EXACT = [
    # sign-like: abs's sgn (0 at 0), the step functions' zeros
    [X, "y = x.abs().sum(); " + BACK],
    [X, "y = (x.abs() * x).sum(); " + BACK],
    [X, "y = (x.round() + x.floor() + x.ceil() + x.trunc() + x.sign() + x.frac()).sum(); "
     + BACK],
    [X, "y = x.round(decimals=1).sum(); " + BACK],
    # clamp, both bounds, one, the bounds themselves (subgradient 1 there)
    [X, "y = (x.clamp(-0.5, 1) * 2).sum(); " + BACK],
    [X, "y = x.clamp(min=0).sum(); " + BACK],
    [X, "y = x.clamp(max=0.5).sum(); " + BACK],
    [X, "y = torch.clamp_min(x, 0.).sum(); " + BACK],
    [X, "y = torch.clamp_max(x, 0.).sum(); " + BACK],
    [X, "y = x.clamp(-1., 1.).t().sum(); " + BACK],
    # exponentials and logarithms
    [P, "y = x.reciprocal().sum(); " + BACK],
    [P, "y = x.rsqrt().sum(); " + BACK],
    # two inputs: ties split the gradient in half (maximum/minimum), (0, 0) gives 0
    [X, W, "y = torch.atan2(x, w).sum(); " + BACK + "; gw = w.grad"],
    [X, W, "y = torch.maximum(x, w).sum(); " + BACK + "; gw = w.grad"],
    [X, W, "y = torch.minimum(x, w).sum(); " + BACK + "; gw = w.grad"],
    [X, W, "y = torch.hypot(x, w).sum(); " + BACK + "; gw = w.grad"],
    [X, W, "y = torch.lerp(x, w, 0.3).sum(); " + BACK + "; gw = w.grad"],
    [X, W, "y = torch.lerp(x, w, torch.linspace(0, 1, 7)).sum(); " + BACK + "; gw = w.grad"],
    ["x = torch.tensor([0., 0., 2.], requires_grad=True)",
     "w = torch.tensor([0., 2., -1.], requires_grad=True)",
     "y = (x ** w).sum(); " + BACK + "; gw = w.grad"],
    ["w = torch.tensor([2., 0.5, 0., -1.], requires_grad=True)",
     "y = torch.pow(2, w).sum(); y.backward(); gw = w.grad"],
    ["w = torch.tensor([2., 0.5, 0., -1.], requires_grad=True)",
     "y = torch.pow(0, w).sum(); y.backward(); gw = w.grad"],
    # in place: comparisons, samplers and zero_ cut the history (zeros flow back)
    [X, "v = x * 2; v.gt_(0.3); y = v.sum(); " + BACK],
    [X, W, "v = x * 2; v.eq_(w); y = v.sum(); " + BACK + "; gw = w.grad"],
    [X, "v = x * 2; v.zero_(); y = v.sum(); " + BACK],
    ["torch.manual_seed(0)", X, "v = x * 2; v.uniform_(); y = v.sum(); " + BACK],
    ["torch.manual_seed(0)", X, "v = x * 2; v.normal_(); y = (v * x).sum(); " + BACK],
    ["torch.manual_seed(0)", X, "v = x * 2; v.bernoulli_(0.5); y = v.sum(); " + BACK],
    ["torch.manual_seed(0)", X, "v = x * 2; v.exponential_(); y = v.sum(); " + BACK],
    # double precision
    ["x = torch.tensor([-2., 0., 0.5, 3.], dtype=torch.float64, requires_grad=True)",
     "y = (x.abs() + x.clamp(0, 1) + x.reciprocal()).sum(); " + BACK],
]


@pytest.mark.parametrize("program", [p if i < 10 else pytest.param(p, marks=pytest.mark.slow)
                                     for i, p in enumerate(EXACT)])
def test_math_gradients_are_torchs(program):
    assert_like_torch(program, names=NAMES)


#: the operators whose values are Sleef's or MKL's (engine/ops/math_unary.py's FLOAT_OPS:
#: exp2, expm1, logs, trigonometric and hyperbolic, erf's exp, pow's log): values within
#: the bound
BOUNDED = [
    [U, "y = x.acos().sum(); " + BACK],
    [P, "y = x.atan().sum(); " + BACK],
    [P, "y = x.log1p().sum(); " + BACK],
    [P, "y = x.log2().sum(); " + BACK],
    [P, "y = x.expm1().sum(); " + BACK],
    [P, "y = x.exp2().sum(); " + BACK],
    [P, "y = x.log10().sum(); " + BACK],
    [P, "w = torch.tensor([2., 0.5, 0., -1., 3., 0.25], requires_grad=True)",
     "y = torch.pow(x, w).sum(); " + BACK + "; gw = w.grad"],
    [P, "y = x.sinh().sum(); " + BACK],
    [P, "y = x.cosh().sum(); " + BACK],
    ["x = torch.tensor([0.1, 0.5, 1., 1.2, -0.3], requires_grad=True)",
     "y = x.tan().sum(); " + BACK],
    [U, "y = x.asin().sum(); " + BACK],
    [P, "y = x.erf().sum(); " + BACK],
]


def _within(mine, theirs, names, k):
    """Ops and errors equal; every tensor field equal but the values, within ``k * eps
    * max(1, |y|)`` (NaN and infinities exactly)."""
    assert mine.error == theirs.error
    assert mine.ops == theirs.ops
    for name in names:
        if name not in mine.tensors:
            continue
        a, b = dict(mine.tensors[name]), dict(theirs.tensors[name])
        va, vb = a.pop("values"), b.pop("values")
        a.pop("repr"), b.pop("repr")
        assert a == b, name
        fa = np.array(va, np.float64).reshape(-1)
        fb = np.array(vb, np.float64).reshape(-1)
        assert np.array_equal(np.isnan(fa), np.isnan(fb))
        finite = np.isfinite(fb)
        eps = float(np.finfo(np.float32 if a["dtype"] == "torch.float32" else np.float64).eps)
        assert np.all(np.abs(fa[finite] - fb[finite])
                      <= k * eps * np.maximum(1, np.abs(fb[finite]))), (name, fa, fb)


@pytest.mark.parametrize("program", [p if i < 3 else pytest.param(p, marks=pytest.mark.slow)
                                     for i, p in enumerate(BOUNDED)])
def test_sleef_math_gradients_are_torchs_within_the_bound(program):
    torch = require_torch()
    mine, theirs = compare(torch, program, list(NAMES))
    _within(mine, theirs, NAMES, 8)


UNARY = ["abs", "reciprocal", "rsqrt", "sign", "floor", "frac", "round", "trunc",
         "clamp(-1, 1)", "clamp(min=0)"]


@pytest.mark.slow
@given(st.lists(st.floats(-4, 4, width=32), min_size=1, max_size=7),
       st.sampled_from(UNARY), st.sampled_from(["float32", "float64"]), st.booleans())
@settings(max_examples=examples(60), deadline=None)
def test_drawn_math_gradients_are_torchs(values, op, dtype, strided):
    """Drawn values (ties, zeros, negative inputs of log1p/rsqrt: NaN gradients too) and
    dtypes, through a strided view."""
    make = f"x = torch.tensor({values!r}, dtype=torch.{dtype}, requires_grad=True)"
    src = "x.flip(0)" if strided else "x"
    weights = f"torch.arange({len(values)}, dtype=torch.{dtype})"
    call = op if "(" in op else op + "()"
    assert_like_torch([make, f"y = ({src}.{call} * {weights}).sum(); {BACK}"], names=NAMES)


REMAINDERS = [
    [X, W, "y = torch.fmod(x, w + 5).sum(); " + BACK + "; gw = w.grad"],
    [X, W, "y = torch.remainder(x, w + 5).sum(); " + BACK + "; gw = w.grad"],
    [X, "y = (torch.fmod(x, 2) + torch.remainder(x, 1.5) + x % 2).sum(); " + BACK],
    [X, W, "y = torch.div(x, w + 5, rounding_mode='floor').sum(); " + BACK + "; gw = w.grad"],
    [X, "y = torch.div(x, 2, rounding_mode='trunc').sum(); " + BACK],
    ["x = torch.tensor([3., float('nan'), float('inf'), -float('inf')], requires_grad=True)",
     "y = torch.nan_to_num(x).sum(); " + BACK],
]


@pytest.mark.parametrize("program", [p if i < 2 else pytest.param(p, marks=pytest.mark.slow)
                                     for i, p in enumerate(REMAINDERS)])
def test_remainder_and_rounding_division_gradients_are_torchs(program):
    assert_like_torch(program, names=NAMES)
