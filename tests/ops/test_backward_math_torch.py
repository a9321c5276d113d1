"""The pointwise math nodes' backward formulas (issue #27, engine/autograd/formulas_math.py)
compared with torch 2.13 as tests/ops/test_backward_joins_torch.py compares the joins: the
leaves' ``.grad`` (values bit for bit, shape, strides, dtype), the whole profiler tree of
the backward pass (each formula's operators in torch's order) and torch's errors.

The leaves hold the values the formulas branch on: -0.0 and 0 (abs's sgn, pow's 0**0 and
log(0), atan2's zero denominator), ties (maximum/minimum split the gradient in half, clamp
passes it at the bounds), and the programs take strided and broadcast operands.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numpy as np

import backward_math_cases
from conftest import examples
from oracle import assert_like_torch, compare
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

LEAF = "x = torch.tensor([[-2., -0.0, 0.], [1.5, 3., 1.]], requires_grad=True)"
OTHER = "w = torch.tensor([[1., 0., 2.], [-1., 3., 1.]], requires_grad=True)"
PROB = "p = torch.tensor([[0.2, 0.5, 0.], [0.3, 0.7, 1.]], requires_grad=True)"
#: ties with w (1, 0, 3) without a -0.0: maximum/minimum/clamp's forward of -0.0 against
#: +0.0 is refused (torch's vector loop picks by position)
TIES = "v = torch.tensor([[1., 0., 0.5], [1.5, 3., -1.]], requires_grad=True)"
#: NaN and infinities (float) against a float64 operand with NaN and infinities
NONFINITE = ("e = torch.tensor([float('nan'), float('inf'), -float('inf'), 0., 1., -1.], "
             "requires_grad=True)")
NONFINITE64 = ("f = torch.tensor([1., float('nan'), 2., -float('inf'), 0., 3.], "
               "dtype=torch.float64, requires_grad=True)")
NAMES = ("gx", "gw", "gp", "gv", "ge", "gf", "y")
EF = "y.backward(); ge = e.grad; gf = f.grad"
E1 = "y.backward(); ge = e.grad"
BOTH = "y.backward(); gx = x.grad; gw = w.grad"
VW = "y.backward(); gv = v.grad; gw = w.grad"

# the ones a tutorial meets first: one program each, fast
FAST = [
    "y = x.abs().sum(); y.backward(); gx = x.grad",
    "y = x.clamp(-1, 1.5).sum(); y.backward(); gx = x.grad",
    "y = x.exp2().sum(); y.backward(); gx = x.grad",
    "y = p.rsqrt().sum(); y.backward(); gp = p.grad",
    "y = v.maximum(w).sum(); " + VW,
    "y = x.atan2(w).sum(); " + BOTH,
]

PROGRAMS = [
    "y = (x.t().abs() * torch.arange(2.)).sum(); y.backward(); gx = x.grad",
    "y = x.sign().sum(); y.backward(); gx = x.grad",
    # clamp: numbers, one bound, tensor bounds (broadcast), ties at the bounds
    "y = x.clamp(min=0.).sum(); y.backward(); gx = x.grad",
    "y = x.clamp(max=1.).sum(); y.backward(); gx = x.grad",
    "y = x.clamp().sum() if False else x.clamp(min=-0.).sum(); y.backward(); gx = x.grad",
    "y = v.clamp(w, w + 1).sum(); " + VW,
    "y = v.clamp(min=w).sum(); " + VW,
    "y = v.clamp(max=w[0]).sum(); " + VW,
    "y = v.clamp(w, p).sum(); y.backward(); gv = v.grad; gw = w.grad; gp = p.grad",
    "y = x.clamp_min(0.).sum(); y.backward(); gx = x.grad",
    "y = x.clamp_max(-0.).sum(); y.backward(); gx = x.grad",
    "y = v.clamp_min(w).sum(); " + VW,
    "y = v.t().clamp_max(w.t()).sum(); " + VW,
    "y = torch.clamp(v, min=torch.tensor(0.)).sum(); y.backward(); gv = v.grad",
    # pow: 0**0, log(0), a number base, a broadcast exponent
    "y = x.pow(w[1]).sum(); " + BOTH,
    "y = torch.pow(2., w).sum(); y.backward(); gw = w.grad",
    "y = torch.pow(0., w).sum(); y.backward(); gw = w.grad",
    # exponentials and logarithms
    "y = x.expm1().sum(); y.backward(); gx = x.grad",
    "y = p.log1p().sum(); y.backward(); gp = p.grad",
    "y = p.log2().sum(); y.backward(); gp = p.grad",
    "y = p.log10().sum(); y.backward(); gp = p.grad",
    "y = p.reciprocal().sum(); y.backward(); gp = p.grad",
    # (logaddexp's forward is modelled only where exp(-|a - b|) vanishes)
    "v = torch.tensor([-150., 200., 0.], requires_grad=True); "
    "y = v.logaddexp(torch.tensor([0., 0., 300.]).requires_grad_()).sum(); "
    "y.backward(); gv = v.grad",
    # trigonometric and hyperbolic
    "y = p.acos().sum(); y.backward(); gp = p.grad",
    "y = torch.atan2(x, w[0]).sum(); " + BOTH,
    "y = x.hypot(w).sum(); " + BOTH,
    # maximum and minimum: ties split the gradient
    "y = v.minimum(w).sum(); " + VW,
    "y = torch.maximum(v, w[1]).sum(); " + VW,
    "y = (torch.minimum(v.t(), w.t()) * torch.arange(2.)).sum(); " + VW,
    # rounding: zeros; frac and the remainders: the gradient
    "y = x.ceil().sum(); y.backward(); gx = x.grad",
    "y = x.floor().sum(); y.backward(); gx = x.grad",
    "y = x.round().sum(); y.backward(); gx = x.grad",
    "y = x.round(decimals=1).sum(); y.backward(); gx = x.grad",
    "y = x.trunc().sum(); y.backward(); gx = x.grad",
    "y = x.frac().sum(); y.backward(); gx = x.grad",
    "y = x.fmod(1.5).sum(); y.backward(); gx = x.grad",
    "y = x.remainder(-1.5).sum(); y.backward(); gx = x.grad",
    "y = x.fmod(w + 4).sum(); " + BOTH,
    "y = x.remainder(w + 4).sum(); " + BOTH,
    "y = x.div(w + 4, rounding_mode='floor').sum(); " + BOTH,
    "y = x.div(2., rounding_mode='trunc').sum(); y.backward(); gx = x.grad",
    "y = x.div(w + 4, rounding_mode=None).sum(); " + BOTH,
    # lerp, nan_to_num
    "y = x.lerp(w, 0.3).sum(); " + BOTH,
    "y = x.lerp(w, p).sum(); y.backward(); gx = x.grad; gw = w.grad; gp = p.grad",
    "y = x.lerp(w[0], p.t().t()).sum(); y.backward(); gx = x.grad; gw = w.grad; gp = p.grad",
    "y = (x / x).nan_to_num().sum(); y.backward(); gx = x.grad",
    "y = x.angle().sum(); y.backward(); gx = x.grad",
    # the in-place samplers and comparisons, zero_: zeros
    "y = x.clone().eq_(w).sum(); " + BOTH,
    "y = x.clone().lt_(1.).sum(); y.backward(); gx = x.grad",
    "y = x.clone().ge_(w[0]).sum(); " + BOTH,
    "y = x.clone().zero_().sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().uniform_().sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().normal_().sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().bernoulli_(p).sum(); y.backward(); gx = x.grad; gp = p.grad",
    "torch.manual_seed(0); y = x.clone().bernoulli_(0.3).sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().random_(0, 5).sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = torch.normal(x, p).sum(); y.backward(); gx = x.grad; gp = p.grad",
    "torch.manual_seed(0); y = torch.normal(x, 1.).sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = torch.normal(0., p).sum(); y.backward(); gp = p.grad",
    "y = x.conj_physical().sum(); y.backward(); gx = x.grad",
    # NaN, infinities and zeros through every branch
    "y = e.abs().sum(); " + E1,
    "y = e.clamp(2., 1.).sum(); " + E1,
    "y = e.clamp(-0.5, 0.5).sum(); " + E1,
    "y = e.maximum(f.float()).sum(); " + EF,
    "y = e.pow(f).sum(); " + EF,
    "y = torch.pow(0., f).sum(); " + EF,
    "y = torch.pow(-2., f).sum(); " + EF,
    "y = e.atan2(f).sum(); " + EF,
    "y = e.hypot(f).sum(); " + EF,
    "y = e.fmod(f).sum(); " + EF,
    "y = e.remainder(f).sum(); " + EF,
    "y = e.nan_to_num().sum(); " + E1,
    "y = e.reciprocal().sum(); " + E1,
    "y = e.rsqrt().sum(); " + E1,
    "y = e.log1p().sum(); " + E1,
    "y = e.log2().sum(); " + E1,
    "y = e.expm1().sum(); " + E1,
    "y = e.exp2().sum(); " + E1,
    "y = e.lerp(f.float(), 0.5).sum(); " + EF,
    "y = e.div(f, rounding_mode='floor').sum(); " + EF,
    "y = e[:0].abs().sum(); " + E1,
    "y = e[0].clamp(0, 1); " + E1,
    # create_graph=True: the formulas' operators are recorded, C++'s ``result + 1`` as
    # add.Scalar (AddBackward1), ``grad / 2`` as div.Scalar (DivBackward1) ...
    "y = x.expm1().sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); "
    "g.sum().backward(); gx = x.grad",
    "y = x.exp2().sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); "
    "g.sum().backward(); gx = x.grad",
    "y = (v ** w).sum(); (g, h) = torch.autograd.grad(y, (v, w), create_graph=True); "
    "(g + h).sum().backward(); gv = v.grad; gw = w.grad",
    "y = v.maximum(w).sum(); (g,) = torch.autograd.grad(y, v, create_graph=True); "
    "g.sum().backward()",
    "y = (v.clamp(-1, 1.2) * v).sum(); (g,) = torch.autograd.grad(y, v, create_graph=True); "
    "g.sum().backward(); gv = v.grad",
    "y = p.log1p().sum(); (g,) = torch.autograd.grad(y, p, create_graph=True); "
    "g.sum().backward(); gp = p.grad",
    "y = (p * 3).rsqrt().sum(); (g,) = torch.autograd.grad(y, p, create_graph=True); "
    "g.sum().backward(); gp = p.grad",
    # mixed dtypes: the float operand's product casts (an aten::to inside its mul), which
    # shows the order the node computes its inputs' gradients in (the yaml's names sorted)
    "y = v.hypot(w.double()).sum(); " + VW,
    "y = torch.maximum(v, w.double()).sum(); " + VW,
    "y = v.minimum(w.double()).sum(); " + VW,
    "y = v.clamp(min=w.double()).sum(); " + VW,
    "y = v.clamp(w.double(), w + 1).sum(); " + VW,
    "y = v.clamp_max(w.double()).sum(); " + VW,
    "y = x.fmod(w.double() + 4).sum(); " + BOTH,
    "y = x.remainder(w.double() + 4).sum(); " + BOTH,
    "y = x.div(w.double() + 4, rounding_mode='trunc').sum(); " + BOTH,
    "y = x.clone().eq_(w.double()[0]).sum(); " + BOTH,
    "a = torch.tensor([-2000., 0., 1500.], requires_grad=True); "
    "b = torch.tensor([1., 3000., -2000.], dtype=torch.float64, requires_grad=True); "
    "y = a.logaddexp(b).sum(); y.backward(); gx = a.grad; gw = b.grad",
    "torch.manual_seed(0); y = torch.bernoulli(p).sum(); y.backward(); gp = p.grad",
    "torch.manual_seed(0); y = torch.poisson(p * 3).sum(); y.backward(); gp = p.grad",
    "torch.manual_seed(0); y = x.clone().exponential_().sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().cauchy_().sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().log_normal_().sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().geometric_(0.5).sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().random_(3).sum(); y.backward(); gx = x.grad",
    "torch.manual_seed(0); y = x.clone().random_().sum(); y.backward(); gx = x.grad",
    "y = x.clone().ne_(w).sum(); " + BOTH,
    "y = x.clone().le_(0.).sum(); y.backward(); gx = x.grad",
    "y = x.clone().gt_(w).sum(); " + BOTH,
]


#: formulas whose operators run MKL's VML or Sleef in torch (log, exp, erf, tan ...:
#: docs/fidelity-math.md), whose last bits tidx cannot replay: their gradients are compared
#: within this many float32 ulp (each such operator is within 4, then a product or two);
#: everything else about them (the operators, shapes, strides, dtypes, errors) exactly
BOUNDED_ULPS = 8


#: programs whose forward or backward runs a function torch takes from MKL's VML or Sleef
#: (pow's log, erf's exp, tan, atan, asin, sinh, cosh): compared within BOUNDED_ULPS
BOUNDED = [
    "y = x.pow(w).sum(); " + BOTH,
    "y = x.pow(p).sum(); y.backward(); gx = x.grad; gp = p.grad",
    "y = p.pow(x).sum(); y.backward(); gx = x.grad; gp = p.grad",
    "y = (x ** w.t().t()).sum(); " + BOTH,
    "y = (3 ** x).sum(); y.backward(); gx = x.grad",
    "y = x.erf().sum(); y.backward(); gx = x.grad",
    "y = x.tan().sum(); y.backward(); gx = x.grad",
    "y = x.atan().sum(); y.backward(); gx = x.grad",
    "y = p.asin().sum(); y.backward(); gp = p.grad",
    "y = x.sinh().sum(); y.backward(); gx = x.grad",
    "y = x.cosh().sum(); y.backward(); gx = x.grad",
    "y = torch.nn.functional.silu(x).sum(); y.backward(); gx = x.grad",
    "y = x.tan().sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); "
    "g.sum().backward(); gx = x.grad",
    # create_graph: infinitely_differentiable_silu_backward, made of sigmoid, mul, add
    "y = torch.nn.functional.silu(x).sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); "
    "gx = g",
    "y = torch.nn.functional.gelu(p).sum(); (g,) = torch.autograd.grad(y, p, create_graph=True); "
    "gp = g",
    "y = torch.nn.functional.silu(x).sum(); (g,) = torch.autograd.grad(y, x, create_graph=True); "
    "g.sum().backward(); gx = x.grad",
]

#: gelu's backward, whose derivative cancels where it crosses zero: compared within the
#: absolute bound engine/ops/activation_backward_bounded.py states, K * eps * |grad| *
#: max(1, |x|), at its largest here (|x| <= 3, a weight of at most 2)
ABSOLUTE = [
    "y = torch.nn.functional.gelu(x).sum(); y.backward(); gx = x.grad",
    "y = (torch.nn.functional.gelu(x.t(), approximate='tanh') * 2).sum(); y.backward(); "
    "gx = x.grad",
    "y = (torch.nn.functional.silu(w) * 2).sum(); y.backward(); gw = w.grad",
]


def _run(program, bounded=False, absolute=None):
    statements = [LEAF, OTHER, PROB, TIES, NONFINITE, NONFINITE64, *program.split("; ")]
    if not bounded:
        assert_like_torch(statements, names=NAMES)
        return
    from conftest import require_torch

    mine, real = compare(require_torch(), statements, list(NAMES))
    assert mine.error == real.error
    assert mine.ops == real.ops
    assert mine.tensors.keys() == real.tensors.keys()
    for name, ours in mine.tensors.items():
        theirs = real.tensors[name]
        strip = {"values", "repr"}
        assert {k: v for k, v in ours.items() if k not in strip} == \
            {k: v for k, v in theirs.items() if k not in strip}, name
        if absolute is None:
            assert _ulps(ours["values"], theirs["values"]) <= BOUNDED_ULPS, (name, ours, theirs)
        else:
            mine_v, real_v = (np.vectorize(float)(np.array(v["values"], dtype=object))
                              .astype(np.float64) for v in (ours, theirs))
            assert (np.isnan(mine_v) == np.isnan(real_v)).all(), name
            assert np.nanmax(np.abs(mine_v - real_v), initial=0) <= absolute, (name, ours, theirs)


def _ulps(a, b) -> int:
    """The largest distance in float32 ulp between two tensors' values (by repr, as
    oracle.norm gives them); NaN only matches NaN, infinities only themselves."""
    x = np.array(np.vectorize(float)(np.array(a, dtype=object)), dtype=np.float32).ravel()
    y = np.array(np.vectorize(float)(np.array(b, dtype=object)), dtype=np.float32).ravel()
    assert (np.isnan(x) == np.isnan(y)).all() and (np.isinf(x) == np.isinf(y)).all()
    assert (x[np.isinf(x)] == y[np.isinf(y)]).all()
    keep = np.isfinite(x)
    xi, yi = x[keep].view(np.int32).astype(np.int64), y[keep].view(np.int32).astype(np.int64)
    # the integers' order is the floats' order once the negatives are flipped
    xi = np.where(xi < 0, -(xi & 0x7FFFFFFF), xi)
    yi = np.where(yi < 0, -(yi & 0x7FFFFFFF), yi)
    return int(np.abs(xi - yi).max(initial=0))


@pytest.mark.fast
@pytest.mark.parametrize("program", FAST)
def test_first_met_gradients_are_torchs(program):
    _run(program)


@pytest.mark.slow
@pytest.mark.parametrize("program", PROGRAMS)
def test_gradients_and_the_backward_operators_are_torchs(program):
    _run(program)


@pytest.mark.parametrize("program", BOUNDED)
def test_bounded_gradients_are_torchs_within_the_libraries_bound(program):
    """The operators and layouts exactly, the values within the stated bound."""
    _run(program, bounded=True)


@pytest.mark.parametrize("program", ABSOLUTE)
def test_gelu_and_silu_gradients_are_torchs_within_the_stated_bound(program):
    from engine.ops.activation_backward_bounded import K

    _run(program, bounded=True, absolute=K * float(np.finfo(np.float32).eps) * 3 * 2)


# -- a property test: shapes that broadcast, transposed leaves, ties and zeros --------------
#: (call, whether it takes a second tensor); formulas made of exactly rounded operators
DRAWN = [("x.abs()", False), ("x.clamp(-1, 0.5)", False), ("x.clamp(min=w)", True),
         ("x.clamp_max(w)", True), ("x.maximum(w)", True), ("torch.minimum(x, w)", True),
         ("x.atan2(w)", True), ("x.hypot(w)", True), ("x.fmod(w.abs() + 1)", True),
         ("x.remainder(w.abs() + 1)", True), ("x.lerp(w, 0.25)", True),
         ("(x.abs() + 1).rsqrt()", False), ("(x.abs() + 1).reciprocal()", False),
         ("x.sign() + x.frac()", False), ("(x.abs() + 0.5).log1p()", False)]


@st.composite
def _pointwise(draw):
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    other = list(shape)
    for i in range(len(other)):         # broadcast some dims of the second operand
        if draw(st.booleans()):
            other[i] = 1
    other = other[draw(st.integers(0, len(other) - 1)):]
    call, binary = draw(st.sampled_from(DRAWN))
    # a few values, no -0.0 (a tie of -0.0 against +0.0 is refused by maximum's forward)
    values = st.sampled_from([-2., -1., -0.5, 0., 0.5, 1., 2.])
    n = _numel(shape)
    xs = draw(st.lists(values, min_size=n, max_size=n))
    transposed = len(shape) == 2 and draw(st.booleans())
    layout = f"reshape({shape[::-1]}).t()" if transposed else f"reshape({shape})"
    program = [f"x = torch.tensor({xs}).{layout}.requires_grad_()"]
    names = ["gx"]
    if binary:
        ws = draw(st.lists(values, min_size=_numel(other), max_size=_numel(other)))
        program.append(f"w = torch.tensor({ws}).reshape({other}).requires_grad_()")
        names.append("gw")
    weight = draw(st.sampled_from(["", " * 2", " * torch.arange(3.)[:1]"]))
    program += [f"y = ({call}{weight}).sum()", "y.backward()", "gx = x.grad"]
    if binary:
        program.append("gw = w.grad")
    return program, tuple(names)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@pytest.mark.slow
@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=_pointwise())
def test_drawn_pointwise_gradients_are_torchs(case):
    program, names = case
    assert_like_torch(program, names=names)


@pytest.mark.parametrize("statement", [
    "y = torch.tensor([-2., -0., 0., 1.5, float('nan'), float('-inf')]).sgn()",
    "y = torch.sgn(torch.tensor([[3, -1], [0, 2]]).t())",
    "y = torch.tensor([True, False]).sgn()",
    "y = torch.tensor([-1., 2.]); y.sgn_()",
    "y = torch.empty(0, dtype=torch.int64); torch.sgn(torch.tensor([-5, 0, 7]), out=y)",
])
def test_sgn_is_torchs(statement):
    """aten::sgn (AbsBackward0's formula calls it): a real tensor's is sign's loop."""
    assert_like_torch(statement.split("; "))


# -- vectorised math in the backward pass, under every CPU capability -----------------------
RUNNABLE = runnable()
#: formulas of exactly rounded operators: torch's bits
EXACT_OPS = ("abs", "clamp", "maximum", "atan2", "rsqrt", "reciprocal")
#: operators from MKL or Sleef (pow's log, exp2, expm1, tan, erf's exp): within ulps
ULP_OPS = ("pow", "exp2", "expm1", "tan", "erf")
#: gelu/silu's backward: within the absolute bound activation_backward_bounded.py states
ABS_OPS = ("gelu", "gelu_tanh", "silu")
CAPABILITY_CASES = [(op, dtype, n, seed)
                    for op in EXACT_OPS + ULP_OPS + ABS_OPS
                    for dtype in ("float32", "float64")
                    for n, seed in ((37, 1), (1000, 2))]


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


@pytest.mark.slow
@pytest.mark.parametrize("case", CAPABILITY_CASES, ids=lambda c: "-".join(map(str, c)))
def test_vectorised_gradients_are_torchs_under_every_capability(workers, case):
    """The gradients bit for bit (or within their stated bound), with torch and tidx both
    under each ATEN_CPU_CAPABILITY the machine runs."""
    import engine

    from engine.ops.activation_backward_bounded import K

    op, dtype = case[0], case[1]
    eps = float(np.finfo(dtype).eps)
    for cap, worker in workers.items():
        theirs = worker.call("backward_math_cases", "run", case)
        ours = under_capability(cap, backward_math_cases.run, engine, case)
        assert ours[0] == theirs[0], (cap, case)
        mine, real = np.array(ours[1]), np.array(theirs[1])
        assert (np.isnan(mine) == np.isnan(real)).all(), (cap, case)
        if op in EXACT_OPS:
            assert ours == theirs, (cap, case)
        elif op in ULP_OPS:
            # each library value within a few ulp, then exactly rounded arithmetic: within
            # BOUNDED_ULPS eps of the gradient, or of the weight where a sum cancels
            # (expm1's result + 1 for a result near -1)
            weight = np.abs(np.array(ours[3]))
            bound = BOUNDED_ULPS * eps * (np.abs(real) + weight)
            assert (np.abs(mine - real) <= bound).all(), (cap, case)
        else:
            x, weight = np.abs(np.array(ours[2])), np.abs(np.array(ours[3]))
            bound = K * eps * weight * np.maximum(1, x)
            assert (np.abs(mine - real) <= bound).all(), (cap, case)


@pytest.mark.parametrize("program", [
    "x = torch.tensor([float('inf'), 1.], requires_grad=True); "
    "y = torch.nn.functional.silu(x).sum(); y.backward(); gx = x.grad",
    "x = torch.tensor([1., float('-inf')], requires_grad=True); "
    "y = torch.nn.functional.gelu(x, approximate='tanh').sum(); y.backward(); gx = x.grad",
])
def test_gelu_and_silu_backward_of_an_infinity_is_refused(program):
    """Where the vector loop and its scalar tail differ (an infinite input), one line."""
    from engine.core.errors import Refused
    from oracle import run_tidx

    with pytest.raises(Refused, match="of an infinite input"):
        run_tidx(program.split("; "), ["gx"])


def test_gelu_and_silu_backward_state_their_bound():
    """The kernel step says the values are within a bound (K * eps * |grad| * max(1, |x|)
    at its largest), which --verify reads; an exact formula's step says none."""
    from engine.interpreter import session
    from engine.interpreter.verify import ABSOLUTE_NOTES
    from engine.ops.activation_backward_bounded import K

    assert "activation.backward_bound" in ABSOLUTE_NOTES
    doc = session.run("x = torch.tensor([1., -3.], requires_grad=True); "
                      "y = (torch.nn.functional.silu(x) * 2).sum(); y.backward()")
    notes = [e for s in doc["statements"] for e in _walk(s["events"])
             if e.get("note_id") == "activation.backward_bound"]
    assert len(notes) == 1
    assert float(notes[0]["note_args"]["bound"]) == pytest.approx(
        K * float(np.finfo(np.float32).eps) * 2 * 3, rel=1e-2)
    exact = session.run("x = torch.tensor([1., -3.], requires_grad=True); "
                        "y = x.abs().sum(); y.backward()")
    assert not [e for s in exact["statements"] for e in _walk(s["events"])
                if e.get("note_id") == "activation.backward_bound"]


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children", []))
