"""The pointwise math nodes' backward formulas (abs, clamp, pow, the trigonometric and
logarithmic functions, rounding, the in-place samplers and comparisons)
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`.

C++ arithmetic in a formula is an operator call each: ``t * 2.0`` and ``t / n`` wrap
the number (TensorOperators.h, :func:`number`), ``2.0 * t`` is ``t.mul(2.0)``
(mul.Scalar), ``1 - t`` is ``t.neg() + 1`` nowhere: it is what the operator overloads
write, measured against torch.profiler for each formula (tests/ops/test_backward_math_torch.py).
"""

from __future__ import annotations

import math
from typing import Any

from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import Grad, formula, needs, number, saved, unpack_all

MANUAL = "torch/csrc/autograd/FunctionsManual.cpp"

# The C++ evaluation order (the gcc build torch ships): ``a * b`` of two subexpressions
# is ``operator*(a, b)``, whose arguments run right to left (b's operators first); a
# member call ``a.f(b)`` runs a first; a braced list (a tuple's elements) left to right.


def _rsub(value: float, t: Any) -> Any:
    """``value - t`` in C++ (TensorOperators.h): ``empty_like(t).fill_(value).sub_(t)``."""
    out = aten.empty_like.default(t, memory_format="preserve_format")
    aten.fill_.Scalar(out, value)
    return aten.sub_.Tensor(out, t)


def _radd(value: float, t: Any) -> Any:
    """``value + t`` in C++: ``t.add(value)`` -- the number wrapped (add.Tensor)."""
    return aten.add.Tensor(t, number(value))


# -- sign-like: abs, rounding, sign ----------------------------------------------------------
@formula("AbsBackward0")
def abs_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * self.sgn()"""
    return [aten.mul.Tensor(grads[0], aten.sgn.default(saved(node, "self")))]


@formula("CeilBackward0", "FloorBackward0", "RoundBackward0", "RoundBackward1",
         "TruncBackward0", "SignBackward0")
def zero_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """zeros_like(grad): a step function's derivative is 0 wherever it has one."""
    return [aten.zeros_like.default(grads[0])]


@formula("FracBackward0")
def frac_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [grads[0]]


# -- clamp -----------------------------------------------------------------------------------
@formula("ClampBackward1")
def clamp_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """clamp_backward (FunctionsManual.cpp): the gradient where min <= self <= max, 0
    elsewhere: ``where((self >= min).logical_and_(self <= max), grad, zero)``, or one
    bound's comparison alone."""
    grad, self = grads[0], saved(node, "self")
    lo, hi = node.arguments.get("min"), node.arguments.get("max")
    zero = aten.scalar_tensor.default(0.0, dtype=grad.dtype, device=grad.device_type)
    if lo is not None and hi is not None:
        mask = aten.logical_and_.default(aten.ge.Scalar(self, lo), aten.le.Scalar(self, hi))
        return [aten.where.self(mask, grad, zero)]
    if lo is not None:
        return [aten.where.self(aten.ge.Scalar(self, lo), grad, zero)]
    if hi is not None:
        return [aten.where.self(aten.le.Scalar(self, hi), grad, zero)]
    return [grad]


@formula("ClampMinBackward0")
def clamp_min_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """where(self >= min, grad, at::scalar_tensor(0., grad.options()))"""
    grad, self = grads[0], saved(node, "self")
    # (a call's arguments run right to left in the gcc build: the zero first)
    zero = aten.scalar_tensor.default(0.0, dtype=grad.dtype, device=grad.device_type)
    return [aten.where.self(aten.ge.Scalar(self, node.arguments["min"]), grad, zero)]


@formula("ClampMaxBackward0")
def clamp_max_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """where(self <= max, grad, at::scalar_tensor(0., grad.options()))"""
    grad, self = grads[0], saved(node, "self")
    zero = aten.scalar_tensor.default(0.0, dtype=grad.dtype, device=grad.device_type)
    return [aten.where.self(aten.le.Scalar(self, node.arguments["max"]), grad, zero)]


# -- exponentials and logarithms -------------------------------------------------------------
@formula("Exp2Backward0")
def exp2_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * result.conj() * M_LN2"""
    product = aten.mul.Tensor(grads[0], saved(node, "result"))
    return [aten.mul.Tensor(product, number(math.log(2.0)))]


@formula("Expm1Backward0")
def expm1_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * (result.conj() + 1)"""
    return [aten.mul.Tensor(grads[0], _radd_tensor(saved(node, "result"), 1))]


def _radd_tensor(t: Any, value: float) -> Any:
    """``t + value`` in C++: the number wrapped (add.Tensor)."""
    return aten.add.Tensor(t, number(value))


@formula("Log2Backward0")
def log2_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad / (self.conj() * 0.6931471805599453)"""
    scaled = aten.mul.Tensor(saved(node, "self"), number(0.6931471805599453))
    return [aten.div.Tensor(grads[0], scaled)]


@formula("Log10Backward0")
def log10_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad / (self.conj() * 2.3025850929940456)"""
    scaled = aten.mul.Tensor(saved(node, "self"), number(2.3025850929940456))
    return [aten.div.Tensor(grads[0], scaled)]


@formula("Log1PBackward0")
def log1p_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """log1p_backward (FunctionsManual.cpp): grad / (self + 1).conj()"""
    return [aten.div.Tensor(grads[0], _radd_tensor(saved(node, "self"), 1))]


@formula("ReciprocalBackward0")
def reciprocal_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """-grad * (result * result).conj()"""
    result = saved(node, "result")
    squared = aten.mul.Tensor(result, result)       # (the right operand first)
    return [aten.mul.Tensor(aten.neg.default(grads[0]), squared)]


@formula("RsqrtBackward0")
def rsqrt_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """-0.5 * grad * result.pow(3).conj()"""
    cubed = aten.pow.Tensor_Scalar(saved(node, "result"), 3)
    return [aten.mul.Tensor(aten.mul.Tensor(grads[0], number(-0.5)), cubed)]


@formula("ErfBackward0")
def erf_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad"""
    e = aten.exp.default(aten.neg.default(aten.pow.Tensor_Scalar(saved(node, "self"), 2)))
    return [aten.mul.Tensor(aten.mul.Tensor(e, number(2.0 / math.sqrt(math.pi))), grads[0])]


# -- trigonometric and hyperbolic ------------------------------------------------------------
@formula("TanBackward0")
def tan_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * (1 + result.pow(2)).conj()"""
    squared = aten.pow.Tensor_Scalar(saved(node, "result"), 2)
    return [aten.mul.Tensor(grads[0], _radd(1, squared))]


@formula("SinhBackward0")
def sinh_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], aten.cosh.default(saved(node, "self")))]


@formula("CoshBackward0")
def cosh_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], aten.sinh.default(saved(node, "self")))]


@formula("AtanBackward0")
def atan_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad / (self * self + 1).conj()"""
    self = saved(node, "self")
    return [aten.div.Tensor(grads[0], _radd_tensor(aten.mul.Tensor(self, self), 1))]


@formula("AsinBackward0")
def asin_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * (-self * self + 1).rsqrt().conj()"""
    self = saved(node, "self")
    inner = _radd_tensor(aten.mul.Tensor(aten.neg.default(self), self), 1)
    return [aten.mul.Tensor(grads[0], aten.rsqrt.default(inner))]


@formula("AcosBackward0")
def acos_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * -((-self * self + 1).rsqrt()).conj()"""
    self = saved(node, "self")
    inner = _radd_tensor(aten.mul.Tensor(aten.neg.default(self), self), 1)
    return [aten.mul.Tensor(grads[0], aten.neg.default(aten.rsqrt.default(inner)))]


@formula("Atan2Backward0")
def atan2_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """atan2_backward (FunctionsManual.cpp): recip = (self * self + other * other)
    .reciprocal(); self: grad * other * recip; other: grad * -self * recip."""
    grad, values = grads[0], unpack_all(node)
    self, other = values["self"], values["other"]
    recip = aten.reciprocal.default(aten.add.Tensor(aten.mul.Tensor(self, self),
                                                    aten.mul.Tensor(other, other)))
    # (0, 0) and squares too small: an infinite reciprocal gives a gradient of 0
    aten.masked_fill_.Scalar(recip, aten.eq.Scalar(recip, math.inf), 0)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.mul.Tensor(aten.mul.Tensor(grad, other), recip)
    if needs(node, 1):
        out[1] = aten.mul.Tensor(aten.mul.Tensor(grad, aten.neg.default(self)), recip)
    return out


# -- two-input pointwise ---------------------------------------------------------------------
@formula("MaximumBackward0", "MinimumBackward0")
def maximum_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """at::where(self == other, grad / 2, grad).masked_fill_(self < other, 0) for self
    (``>`` for other; swapped for minimum), other's first."""
    grad, values = grads[0], unpack_all(node)
    self, other = values["self"], values["other"]
    is_max = node.name() == "MaximumBackward0"
    out: list[Grad] = [None, None]

    def half_where_equal() -> Any:
        # where's arguments right to left: grad / 2 before self == other
        half = aten.div.Tensor(grad, number(2))
        return aten.where.self(aten.eq.Tensor(self, other), half, grad)
    if needs(node, 1):
        halved = half_where_equal()         # (the object of .masked_fill_ first)
        mask = aten.gt.Tensor(self, other) if is_max else aten.lt.Tensor(self, other)
        out[1] = aten.masked_fill_.Scalar(halved, mask, 0)
    if needs(node, 0):
        halved = half_where_equal()
        mask = aten.lt.Tensor(self, other) if is_max else aten.gt.Tensor(self, other)
        out[0] = aten.masked_fill_.Scalar(halved, mask, 0)
    return out


@formula("HypotBackward0")
def hypot_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: grad * other / result; self: grad * self / result (other first)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.div.Tensor(aten.mul.Tensor(grad, values["other"]), values["result"])
    if needs(node, 0):
        out[0] = aten.div.Tensor(aten.mul.Tensor(grad, values["self"]), values["result"])
    return out


@formula("LogaddexpBackward0")
def logaddexp_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: grad / (1 + exp(self - other)).conj(); self: grad / (1 + exp(other - self))."""
    grad, values = grads[0], unpack_all(node)
    self, other = values["self"], values["other"]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.div.Tensor(grad, _radd(1, aten.exp.default(aten.sub.Tensor(self, other))))
    if needs(node, 0):
        out[0] = aten.div.Tensor(grad, _radd(1, aten.exp.default(aten.sub.Tensor(other, self))))
    return out


@formula("LerpBackward0")
def lerp_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """end: grad * weight.conj(); self: grad * (1 - weight.toDouble()) (end first)."""
    grad, weight = grads[0], node.arguments["weight"]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.mul.Tensor(grad, number(weight))
    if needs(node, 0):
        out[0] = aten.mul.Tensor(grad, number(1 - float(weight)))
    return out


@formula("LerpBackward1")
def lerp_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """end: grad * weight.conj(); self: grad * (1 - weight).conj(); weight: grad * (end -
    self).conj() (end, self, weight)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None, None]
    if needs(node, 1):
        out[1] = aten.mul.Tensor(grad, values["weight"])
    if needs(node, 0):
        out[0] = aten.mul.Tensor(grad, _rsub(1, values["weight"]))
    if needs(node, 2):
        out[2] = aten.mul.Tensor(grad, aten.sub.Tensor(values["end"], values["self"]))
    return out


@formula("PowBackward1")
def pow_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """pow_backward_exponent, then pow_backward_self (FunctionsManual.cpp)."""
    grad, values = grads[0], unpack_all(node)
    self, exponent = values["self"], values["exponent"]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = _pow_backward_exponent(grad, self, exponent, values["result"])
    if needs(node, 0):
        # pow_backward_self: at::where(exponent == 0.0, at::zeros({}, grad.options()),
        # grad * (exponent * self.pow(exponent - 1))), its arguments right to left
        minus_one = aten.sub.Tensor(exponent, number(1))
        term = aten.mul.Tensor(grad, aten.mul.Tensor(exponent,
                                                     aten.pow.Tensor_Tensor(self, minus_one)))
        zero = aten.scalar_tensor.default(0.0, dtype=grad.dtype, device=grad.device_type)
        out[0] = aten.where.self(aten.eq.Scalar(exponent, 0.0), zero, term)
    return out


def _pow_backward_exponent(grad: Any, self: Any, exponent: Any, result: Any) -> Any:
    """pow_backward_exponent: ``grad * where(cond, 0, result * self.log())`` with cond
    ``(self == 0) & (exponent >= 0)`` (a real self)."""
    nonneg = aten.ge.Scalar(exponent, 0)       # (right to left: exponent >= 0 first)
    cond = aten.logical_and.default(aten.eq.Scalar(self, 0), nonneg)
    promoted = aten.result_type.Tensor(self, exponent)
    self_ = aten.to.dtype(self, promoted)
    value = aten.mul.Tensor(result, aten.log.default(self_))
    zero = aten.scalar_tensor.default(0.0, dtype=grad.dtype, device=grad.device_type)
    return aten.mul.Tensor(grad, aten.where.self(cond, zero, value))


@formula("PowBackward2")
def pow_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """pow_backward_exponent with a number base: ``grad * (result * log(base))``, or 0
    where base == 0 and exponent >= 0."""
    grad, values = grads[0], unpack_all(node)
    base = node.arguments["self"]
    log = math.log(base) if base > 0 else -math.inf if base == 0 else math.nan
    if base == 0:
        # where(exponent >= 0, zeros({}), result * log(0)), right to left
        value = aten.mul.Tensor(values["result"], number(log))
        zero = aten.zeros.default([], dtype=grad.dtype, device=grad.device_type)
        inner = aten.where.self(aten.ge.Scalar(values["exponent"], 0), zero, value)
        return [aten.mul.Tensor(grad, inner)]
    return [aten.mul.Tensor(grad, aten.mul.Tensor(values["result"], number(log)))]


# -- in place: comparisons and samplers -----------------------------------------------------
@formula("EqBackward0", "EqBackward1", "NeBackward0", "NeBackward1", "LtBackward0",
         "LtBackward1", "LeBackward0", "LeBackward1", "GtBackward0", "GtBackward1",
         "GeBackward0", "GeBackward1")
def compare_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: zeros_like(self) (x.gt_(y) writes 0s and 1s: nothing flows back); other: the
    same."""
    out: list[Grad] = [None] * len(node.next_functions)
    for i, name in enumerate(("self", "other")[:len(out)]):
        if needs(node, i):
            meta = node.arguments[name]
            out[i] = aten.zeros.default(list(meta.sizes), dtype=meta.dtype,
                                        device=meta.device_type)
    return out


@formula("NormalBackward0", "UniformBackward0", "ExponentialBackward0", "GeometricBackward0",
         "LogNormalBackward0", "CauchyBackward0", "RandomBackward0", "RandomBackward1",
         "RandomBackward2", "BernoulliBackward1", "BernoulliBackward2", "ZeroBackward0")
def sampled_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: zeros_like(grad): values drawn (or zeroed) in place do not depend on the old
    ones."""
    out: list[Grad] = [None] * len(node.next_functions)
    out[0] = aten.zeros_like.default(grads[0])
    return out


# -- remainders and rounding divisions -------------------------------------------------------
@formula("FmodBackward0", "RemainderBackward0")
def remainder_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [grads[0]]


@formula("FmodBackward1", "RemainderBackward1")
def remainder_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: -grad * self.div(other, rounding_mode) ("trunc" for fmod, "floor" for
    remainder); self: grad (other first)."""
    grad = grads[0]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        values = unpack_all(node)
        mode = "trunc" if node.name() == "FmodBackward1" else "floor"
        quotient = aten.div.Tensor_mode(values["self"], values["other"], rounding_mode=mode)
        out[1] = aten.mul.Tensor(aten.neg.default(grad), quotient)
    if needs(node, 0):
        out[0] = grad
    return out


@formula("DivBackward2", "DivBackward3")
def div_mode_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """div_tensor_other/self_backward with a rounding mode: zeros_like(grad) in the
    input's dtype (a rounded quotient is a step function); without one, as div's."""
    grad, a = grads[0], node.arguments
    out: list[Grad] = [None] * len(node.next_functions)
    if a.get("rounding_mode") is None:
        values = unpack_all(node)
        if len(out) > 1 and needs(node, 1):
            self, other = values["self"], values["other"]
            ratio = aten.div.Tensor(aten.div.Tensor(self, other), other)
            out[1] = aten.mul.Tensor(aten.neg.default(grad), ratio)
        if needs(node, 0):
            other = values["other"] if "other" in values else number(a["other"])
            out[0] = aten.div.Tensor(grad, other)
        return out
    if len(out) > 1 and needs(node, 1):
        out[1] = aten.zeros_like.default(grad, dtype=a["other"].dtype)
    if needs(node, 0):
        out[0] = aten.zeros_like.default(grad, dtype=a["self"].dtype)
    return out


@formula("NanToNumBackward0")
def nan_to_num_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad * at::isfinite(self): 0 where the input was replaced."""
    return [aten.mul.Tensor(grads[0], aten.isfinite.default(saved(node, "self")))]
