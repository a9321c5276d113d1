"""The pointwise math nodes' backward formulas (abs, clamp, pow, the trigonometric and
logarithmic functions, rounding, the in-place samplers and comparisons)
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`.

A node computes its inputs' gradients in the order of their names in derivatives.yaml,
sorted (load_derivatives.py sorts the formulas' keys): ``other`` before ``self``,
``end`` before ``self`` before ``weight``, ``min, max`` before ``self``.

C++ evaluates the operands of ``a * b`` (and a function's arguments) right to left on
torch's compilers, which is the order the operators below run in: ``grad *
(1 + result.pow(2))`` runs pow, add, then mul, as torch.profiler records.  A C++
number beside a tensor (``grad / 2``, ``result + 1``, ``-0.5 * grad``: TensorOperators.h
calls ``x.add(y)`` with a Scalar) is the ``.Scalar`` overload, as is a comparison with a
number (``self >= min``): under create_graph=True it records AddBackward1, MulBackward1
..., as torch does.
"""

from __future__ import annotations

import math
from typing import Any

from engine.core.context import current
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import Grad, formula, needs, saved
from engine.autograd.formulas_pointwise import div_backward, div_scalar_backward

#: the C++ functions the formulas mirror (derivatives.yaml names them)
MANUAL = "torch/csrc/autograd/FunctionsManual.cpp"
M_LN2 = 0.693147180559945309417
M_LN10 = 2.3025850929940456
M_PI = 3.14159265358979323846


def _zero(grad: TensorImpl) -> TensorImpl:
    """``at::scalar_tensor(0., grad.options())``: the where()s' other branch."""
    return aten.scalar_tensor.default(0., dtype=grad.dtype, device=grad.device_type)


def _zeros_like(grad: TensorImpl) -> TensorImpl:
    return aten.zeros_like.default(grad)


def _zeros_of(node: Node, name: str) -> TensorImpl:
    """``zeros_like(self)`` of an input the node did not save: torchgen saves its
    TypeAndSize (``self_info.zeros()``), which is ``at::zeros(sizes, options)``."""
    meta = node.arguments[name]
    return aten.zeros.default(list(meta.sizes), dtype=meta.dtype, device=meta.device_type)


# -- abs, sign, the roundings: zeros or the gradient itself ---------------------------------
@formula("AbsBackward0")
def abs_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad * self.sgn()"""
    return [aten.mul.Tensor(grads[0], aten.sgn.default(saved(node, "self")))]


# SgnBackward0 (a create_graph=True pass through abs meets it) is left refused: for a
# real tensor sgn_backward returns at::_efficientzerotensor, a ZeroTensor, whose
# accumulation into other gradients tidx does not model
@formula("AngleBackward0")
def angle_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """angle_backward of a real tensor: ``at::zeros_like(self, at::MemoryFormat::Preserve)``."""
    return [aten.zeros_like.default(saved(node, "self"))]


@formula("SignBackward0", "CeilBackward0", "FloorBackward0", "RoundBackward0",
         "RoundBackward1", "TruncBackward0", "ZeroBackward0",
         # the in-place samplers: self: zeros_like(grad)
         "NormalBackward0", "UniformBackward0", "ExponentialBackward0", "GeometricBackward0",
         "LogNormalBackward0", "CauchyBackward0", "RandomBackward0", "RandomBackward1",
         "RandomBackward2", "BernoulliBackward0", "BernoulliBackward2")
def zeros_like_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: zeros_like(grad)"""
    return [_zeros_like(grads[0])]


@formula("FracBackward0", "FmodBackward0", "RemainderBackward0", "LiftFreshBackward0",
         "ConjBackward0", "ConjPhysicalBackward0")
def identity_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad (conj() and conj_physical() of a real gradient are the gradient itself,
    no operator)."""
    return [grads[0]]


@formula("EqBackward0", "EqBackward1", "NeBackward0", "NeBackward1", "LtBackward0",
         "LtBackward1", "LeBackward0", "LeBackward1", "GtBackward0", "GtBackward1",
         "GeBackward0", "GeBackward1")
def comparison_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """The in-place comparisons: other: zeros_like(other), then self: zeros_like(self),
    each ``at::zeros`` of the input's sizes and options."""
    out: list[Grad] = [None] * len(node.next_functions)
    for i, name in reversed(list(enumerate(("self", "other")[:len(out)]))):
        if needs(node, i):
            out[i] = _zeros_of(node, name)
    return out


@formula("PoissonBackward0")
def poisson_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: zeros_like(self) (self_info.zeros())."""
    return [_zeros_of(node, "self")]


@formula("BernoulliBackward1")
def bernoulli_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """p: zeros_like(p) (p_info.zeros()), then self: zeros_like(grad)."""
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = _zeros_of(node, "p")
    if needs(node, 0):
        out[0] = _zeros_like(grads[0])
    return out


@formula("NormalBackward1", "NormalBackward2", "NormalBackward3")
def normal_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mean, std (the tensor ones): ``at::zeros_symint(x.sym_sizes(), grad.options())``."""
    names = [n for n in ("mean", "std") if hasattr(node.arguments.get(n), "sizes")]
    out: list[Grad] = [None] * len(node.next_functions)
    grad = grads[0]
    for i, name in enumerate(names):
        if needs(node, i):
            out[i] = aten.zeros.default(list(node.arguments[name].sizes), dtype=grad.dtype,
                                        device=grad.device_type)
    return out


# -- clamp -------------------------------------------------------------------------------------
@formula("ClampBackward1")
def clamp_backward1(node: Node, grads: list[Any]) -> list[Grad]:
    """clamp_backward (FunctionsManual.cpp) with numbers: where((self >= min).logical_and_(
    self <= max), grad, 0), or the one bound's comparison."""
    grad, self = grads[0], saved(node, "self")
    lo, hi = node.arguments.get("min"), node.arguments.get("max")
    if lo is None and hi is None:
        return [grad]
    zero = _zero(grad)
    if lo is not None and hi is not None:
        pred = aten.logical_and_.default(aten.ge.Scalar(self, lo), aten.le.Scalar(self, hi))
    elif lo is not None:
        pred = aten.ge.Scalar(self, lo)
    else:
        pred = aten.le.Scalar(self, hi)
    return [aten.where.self(pred, grad, zero)]


@formula("ClampBackward0")
def clamp_backward0(node: Node, grads: list[Any]) -> list[Grad]:
    """clamp.Tensor: clamp_backward_min_max (min's and max's gradients) first, then
    clamp_backward with tensors (self's)."""
    grad = grads[0]
    values = {k: v.unpack() for k, v in node.saved.items() if v is not None}
    self, lo, hi = values.get("self"), values.get("min"), values.get("max")
    has_lo = node.arguments.get("min") is not None
    has_hi = node.arguments.get("max") is not None
    out: list[Grad] = [None, None, None]
    want_lo, want_hi = has_lo and needs(node, 1), has_hi and needs(node, 2)
    if want_lo or want_hi:
        zero = _zero(grad)
        if has_lo and has_hi:
            if want_lo:
                pred = aten.logical_and_.default(aten.lt.Tensor(self, lo),
                                                 aten.lt.Tensor(lo, hi))
                out[1] = aten.where.self(pred, grad, zero)
            if want_hi:
                pred = aten.logical_or_.default(aten.gt.Tensor(self, hi),
                                                aten.lt.Tensor(hi, lo))
                out[2] = aten.where.self(pred, grad, zero)
        elif want_lo:
            out[1] = aten.where.self(aten.lt.Tensor(self, lo), grad, zero)
        elif want_hi:
            out[2] = aten.where.self(aten.gt.Tensor(self, hi), grad, zero)
    if needs(node, 0):
        if has_lo and has_hi:
            zero = _zero(grad)
            pred = aten.logical_and_.default(aten.ge.Tensor(self, lo), aten.le.Tensor(self, hi))
            out[0] = aten.where.self(pred, grad, zero)
        elif has_lo:
            zero = _zero(grad)
            out[0] = aten.where.self(aten.ge.Tensor(self, lo), grad, zero)
        elif has_hi:
            zero = _zero(grad)
            out[0] = aten.where.self(aten.le.Tensor(self, hi), grad, zero)
        else:
            out[0] = grad
    return out


@formula("ClampMinBackward0", "ClampMaxBackward0")
def clamp_bound_backward0(node: Node, grads: list[Any]) -> list[Grad]:
    """self: where(self >= min, grad, at::scalar_tensor(0., grad.options())) (<= max)."""
    grad, self = grads[0], saved(node, "self")
    zero = _zero(grad)
    if "min" in node.arguments:
        pred = aten.ge.Scalar(self, node.arguments["min"])
    else:
        pred = aten.le.Scalar(self, node.arguments["max"])
    return [aten.where.self(pred, grad, zero)]


@formula("ClampMinBackward1", "ClampMaxBackward1")
def clamp_bound_backward1(node: Node, grads: list[Any]) -> list[Grad]:
    """The tensor bound first (min: where(self < min, grad, 0); max: self > max), then
    self (self >= min; self <= max)."""
    grad, self = grads[0], saved(node, "self")
    is_min = "min" in node.arguments
    bound = saved(node, "min" if is_min else "max")
    out: list[Grad] = [None, None]
    if needs(node, 1):
        zero = _zero(grad)
        pred = aten.lt.Tensor(self, bound) if is_min else aten.gt.Tensor(self, bound)
        out[1] = aten.where.self(pred, grad, zero)
    if needs(node, 0):
        zero = _zero(grad)
        pred = aten.ge.Tensor(self, bound) if is_min else aten.le.Tensor(self, bound)
        out[0] = aten.where.self(pred, grad, zero)
    return out


# -- pow ---------------------------------------------------------------------------------------
@formula("PowBackward1")
def pow_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """pow.Tensor_Tensor: pow_backward_exponent first, then pow_backward_self
    (FunctionsManual.cpp)."""
    grad = grads[0]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        self, exponent, result = (saved(node, "self"), saved(node, "exponent"),
                                  saved(node, "result"))
        # cond = logical_and(self == 0, exponent >= 0): the right argument first
        ge = aten.ge.Scalar(exponent, 0)
        cond = aten.logical_and.default(aten.eq.Scalar(self, 0), ge)
        promoted = aten.result_type.Tensor(self, exponent)
        self_ = aten.to.dtype(self, promoted)
        value = aten.mul.Tensor(result, aten.log.default(self_))
        out[1] = aten.mul.Tensor(grad, aten.where.self(cond, _zero(grad), value))
    if needs(node, 0):
        self, exponent = saved(node, "self"), saved(node, "exponent")
        # where(exponent == 0.0, 0, grad * (exponent * self.pow(exponent - 1)))
        power = aten.pow.Tensor_Tensor(self, aten.sub.Scalar(exponent, 1))
        value = aten.mul.Tensor(grad, aten.mul.Tensor(exponent, power))
        zero = _zero(grad)
        out[0] = aten.where.self(aten.eq.Scalar(exponent, 0.), zero, value)
    return out


@formula("PowBackward2")
def pow_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """pow.Scalar: pow_backward_exponent with a number base: grad * (result * log(base)),
    zeros where base is 0 and the exponent >= 0."""
    grad, base = grads[0], node.arguments["self"]
    result = saved(node, "result")
    value = aten.mul.Scalar(result, _log(base))
    if base == 0:
        zeros = aten.zeros.default([], dtype=grad.dtype, device=grad.device_type)
        exponent = saved(node, "exponent")
        value = aten.where.self(aten.ge.Scalar(exponent, 0), zeros, value)
    return [aten.mul.Tensor(grad, value)]


def _log(base: Any) -> float:
    """Scalar::log(): std::log of the number as a double (-inf at 0, nan below)."""
    b = float(base)
    if b == 0:
        return -math.inf
    if b < 0 or math.isnan(b):
        return math.nan
    return math.log(b)


# -- exponentials and logarithms ---------------------------------------------------------------
@formula("Exp2Backward0")
def exp2_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * result.conj() * M_LN2"""
    return [aten.mul.Scalar(aten.mul.Tensor(grads[0], saved(node, "result")), M_LN2)]


@formula("Expm1Backward0")
def expm1_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * (result.conj() + 1)"""
    return [aten.mul.Tensor(grads[0], aten.add.Scalar(saved(node, "result"), 1))]


@formula("Log1PBackward0")
def log1p_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """log1p_backward: grad / (self + 1).conj()"""
    return [aten.div.Tensor(grads[0], aten.add.Scalar(saved(node, "self"), 1))]


@formula("Log2Backward0", "Log10Backward0")
def log2_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad / (self.conj() * ln 2) (ln 10 for log10)"""
    ln = M_LN2 if node.name() == "Log2Backward0" else M_LN10
    return [aten.div.Tensor(grads[0], aten.mul.Scalar(saved(node, "self"), ln))]


@formula("RsqrtBackward0")
def rsqrt_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """-0.5 * grad * result.pow(3).conj()"""
    cube = aten.pow.Tensor_Scalar(saved(node, "result"), 3)
    return [aten.mul.Tensor(aten.mul.Scalar(grads[0], -0.5), cube)]


@formula("ReciprocalBackward0")
def reciprocal_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """-grad * (result * result).conj()"""
    result = saved(node, "result")
    square = aten.mul.Tensor(result, result)
    return [aten.mul.Tensor(aten.neg.default(grads[0]), square)]


@formula("ErfBackward0")
def erf_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad"""
    e = aten.exp.default(aten.neg.default(aten.pow.Tensor_Scalar(saved(node, "self"), 2)))
    return [aten.mul.Tensor(aten.mul.Scalar(e, 2.0 / math.sqrt(M_PI)), grads[0])]


@formula("LogaddexpBackward0")
def logaddexp_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: grad / (1 + exp(self - other)), then self: grad / (1 + exp(other - self))."""
    grad = grads[0]
    self, other = saved(node, "self"), saved(node, "other")
    out: list[Grad] = [None, None]
    if needs(node, 1):
        e = aten.exp.default(aten.sub.Tensor(self, other))
        out[1] = aten.div.Tensor(grad, aten.add.Scalar(e, 1))
    if needs(node, 0):
        e = aten.exp.default(aten.sub.Tensor(other, self))
        out[0] = aten.div.Tensor(grad, aten.add.Scalar(e, 1))
    return out


# -- trigonometric and hyperbolic --------------------------------------------------------------
@formula("TanBackward0")
def tan_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * (1 + result.pow(2)).conj()"""
    square = aten.pow.Tensor_Scalar(saved(node, "result"), 2)
    return [aten.mul.Tensor(grads[0], aten.add.Scalar(square, 1))]


@formula("AtanBackward0")
def atan_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad / (self * self + 1).conj()"""
    self = saved(node, "self")
    return [aten.div.Tensor(grads[0], aten.add.Scalar(aten.mul.Tensor(self, self), 1))]


def _one_minus_square_rsqrt(self: TensorImpl) -> TensorImpl:
    """(-self * self + 1).rsqrt()"""
    square = aten.mul.Tensor(aten.neg.default(self), self)
    return aten.rsqrt.default(aten.add.Scalar(square, 1))


@formula("AsinBackward0")
def asin_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * (-self * self + 1).rsqrt().conj()"""
    return [aten.mul.Tensor(grads[0], _one_minus_square_rsqrt(saved(node, "self")))]


@formula("AcosBackward0")
def acos_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * -((-self * self + 1).rsqrt()).conj()"""
    root = _one_minus_square_rsqrt(saved(node, "self"))
    return [aten.mul.Tensor(grads[0], aten.neg.default(root))]


@formula("SinhBackward0")
def sinh_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], aten.cosh.default(saved(node, "self")))]


@formula("CoshBackward0")
def cosh_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], aten.sinh.default(saved(node, "self")))]


@formula("Atan2Backward0")
def atan2_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """atan2_backward: recip = (self * self + other * other).reciprocal(), zeroed where
    the sum is 0; self: grad * other * recip, other: grad * -self * recip."""
    grad = grads[0]
    self, other = saved(node, "self"), saved(node, "other")
    denom = aten.add.Tensor(aten.mul.Tensor(self, self), aten.mul.Tensor(other, other))
    recip = aten.reciprocal.default(denom)
    aten.masked_fill_.Scalar(recip, aten.eq.Scalar(denom, 0), 0)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.mul.Tensor(aten.mul.Tensor(grad, other), recip)
    if needs(node, 1):
        out[1] = aten.mul.Tensor(aten.mul.Tensor(grad, aten.neg.default(self)), recip)
    return out


@formula("HypotBackward0")
def hypot_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: grad * other / result, then self: grad * self / result."""
    grad, result = grads[0], saved(node, "result")
    out: list[Grad] = [None, None]
    for i, name in ((1, "other"), (0, "self")):
        if needs(node, i):
            out[i] = aten.div.Tensor(aten.mul.Tensor(grad, saved(node, name)), result)
    return out


# -- maximum, minimum, the binary remainders, lerp ---------------------------------------------
@formula("MaximumBackward0", "MinimumBackward0")
def maximum_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """maximum: self: at::where(self == other, grad / 2, grad).masked_fill_(self < other,
    0); other: the same with self > other (minimum: the comparisons swapped).  other
    first, as the generated apply runs them: a tie splits the gradient in half."""
    grad = grads[0]
    self, other = saved(node, "self"), saved(node, "other")
    is_max = node.name() == "MaximumBackward0"
    out: list[Grad] = [None, None]

    def half(loser):
        split = aten.div.Scalar(grad, 2)
        g = aten.where.self(aten.eq.Tensor(self, other), split, grad)
        return aten.masked_fill_.Scalar(g, loser(), 0)

    if needs(node, 1):
        out[1] = half(lambda: (aten.gt if is_max else aten.lt).Tensor(self, other))
    if needs(node, 0):
        out[0] = half(lambda: (aten.lt if is_max else aten.gt).Tensor(self, other))
    return out


@formula("FmodBackward1", "RemainderBackward1")
def fmod_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad; other: -grad * self.div(other, "trunc") ("floor" for remainder)."""
    grad = grads[0]
    mode = "trunc" if node.name() == "FmodBackward1" else "floor"
    out: list[Grad] = [None, None]
    if needs(node, 1):
        q = aten.div.Tensor_mode(saved(node, "self"), saved(node, "other"), rounding_mode=mode)
        out[1] = aten.mul.Tensor(aten.neg.default(grad), q)
    if needs(node, 0):
        out[0] = grad
    return out


@formula("DivBackward2", "DivBackward3")
def div_mode_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """div with a rounding mode: div_tensor_self_backward / div_tensor_other_backward give
    ``zeros_like(grad, grad.options().dtype(...))`` (the quotient is piecewise constant);
    without one, DivBackward0's formula."""
    grad = grads[0]
    if node.arguments.get("rounding_mode") is None:
        return (div_backward if node.name() == "DivBackward2" else div_scalar_backward)(
            node, grads)
    out: list[Grad] = [None] * len(node.next_functions)
    if len(out) > 1 and needs(node, 1):
        out[1] = aten.zeros_like.default(grad, dtype=node.arguments["other"].dtype)
    if needs(node, 0):
        out[0] = aten.zeros_like.default(grad, dtype=node.arguments["self"].dtype)
    return out


@formula("LerpBackward0")
def lerp_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """end: grad * weight, then self: grad * (1 - weight) (numbers)."""
    grad, weight = grads[0], node.arguments["weight"]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.mul.Scalar(grad, weight)
    if needs(node, 0):
        out[0] = aten.mul.Scalar(grad, 1 - float(weight))
    return out


@formula("LerpBackward1")
def lerp_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """end: grad * weight; self: grad * (1 - weight); weight: grad * (end - self), in
    that order."""
    grad = grads[0]
    out: list[Grad] = [None, None, None]
    if needs(node, 1):
        out[1] = aten.mul.Tensor(grad, saved(node, "weight"))
    if needs(node, 0):
        out[0] = aten.mul.Tensor(grad, _one_minus(saved(node, "weight")))
    if needs(node, 2):
        diff = aten.sub.Tensor(saved(node, "end"), saved(node, "self"))
        out[2] = aten.mul.Tensor(grad, diff)
    return out


def _one_minus(t: TensorImpl) -> TensorImpl:
    """``1 - t`` in C++ (TensorOperators.h operator-(Scalar, Tensor)):
    ``at::empty_like(t).fill_(1).sub_(t)``."""
    return aten.sub_.Tensor(aten.fill_.Scalar(aten.empty_like.default(t), 1), t)


@formula("NanToNumBackward0")
def nan_to_num_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * at::isfinite(self)"""
    return [aten.mul.Tensor(grads[0], aten.isfinite.default(saved(node, "self")))]


# -- activations -------------------------------------------------------------------------------
@formula("GeluBackward0")
def gelu_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """gelu_backward(grad, self, approximate) (engine/ops/activation_backward_bounded.py)"""
    return [aten.gelu_backward.default(grads[0], saved(node, "self"),
                                       approximate=node.arguments.get("approximate", "none"))]


@formula("SiluBackward0")
def silu_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """``GradMode::is_enabled() ? infinitely_differentiable_silu_backward(grad, self) :
    silu_backward(grad, self)``: the backward pass runs in grad mode only with
    create_graph=True, where the formula is made of differentiable operators:
    ``sigmoid = self.sigmoid(); grad * sigmoid * (1 + self * (1 - sigmoid))``."""
    grad, self = grads[0], saved(node, "self")
    if not current().grad_enabled:
        return [aten.silu_backward.default(grad, self)]
    sigmoid = aten.sigmoid.default(self)
    one_minus = _one_minus(sigmoid)
    inner = aten.add.Scalar(aten.mul.Tensor(self, one_minus), 1.0)
    return [aten.mul.Tensor(aten.mul.Tensor(grad, sigmoid), inner)]
