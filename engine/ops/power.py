"""pow and torch.result_type (aten/src/ATen/native/Pow.cpp, cpu/PowKernel.cpp,
TypeProperties.cpp).

``pow(Tensor, Scalar)`` computes the result type with ``at::result_type`` (an operator
of its own in the profile), copies the base to it (``base.to(common)``) and then takes
one of three roads: exponent 0 fills the output with ones, exponent 1 copies the base,
anything else runs the kernel.  The float kernel has exact special cases (-0.5 is
1/sqrt, -1 is 1/x, 2 is x*x, 3 is x*x*x, -2 is 1/(x*x)); any other float
exponent -- and any float Tensor**Tensor -- goes through std::pow and the vectorised
Sleef pow, whose last bits tidx cannot reproduce: tidx computes numpy's, within a measured
bound its note states; 0.5 goes through MKL's sqrt, within sqrt's bound (float16 pow is
not modelled).  Integers use
``powi`` (square-and-multiply, wrapping like C), where a negative exponent gives 1, ±1
or 0 -- and a negative integer Scalar exponent is an error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.core import view as S
from engine.ops.math_unary import FLOAT_OPS
from engine.ops.pointwise import Wrapped, iterate, operand, resize_output, result_type
from engine.ops.scalar import to_dtype_scalar

POW = "aten/src/ATen/native/Pow.cpp"
POW_KERNEL = "aten/src/ATen/native/cpu/PowKernel.cpp"
TYPES = "aten/src/ATen/native/TypeProperties.cpp"

#: sqrt's measured fidelity: exponent 0.5 runs the sqrt kernel
SQRT_FIDELITY = FLOAT_OPS["sqrt"][1]

#: std::pow (glibc) in the scalar loop and Sleef's vectorised pow (u10) in the vector body:
#: within 1 ulp of numpy's on 2^20 pairs per dtype under AVX512, AVX2 and DEFAULT
#: (docs/fidelity-math.md); the bound is that plus one
POW_LIBRARY = "glibc's pow and Sleef's vectorised pow (u10)"
POW_ULPS = 2


def _pow_note(common: D.dtype, exponent: Any):
    """The kernel step's note: a float pow other than the exact roads is computed within
    the measured bound, and says so."""
    if common in (D.float32, D.float64) and not any(
            _is(exponent, e) for e in (0.5, -0.5, -1.0, 2.0, 3.0, -2.0)):
        return Note("math.within_ulps", op="pow", library=POW_LIBRARY, ulps=POW_ULPS)
    if _is(exponent, 0.5) and common in (D.float32, D.float64):
        # pow_tensor_scalar_kernel hands exponent 0.5 to sqrt_kernel (MKL's VML)
        return Note("math.within_ulps", op="pow(x, 0.5)", library=SQRT_FIDELITY.library,
                    ulps=SQRT_FIDELITY.ulps(common))
    return Note("pointwise.pow_kernel", exponent=exponent)


# -- torch.result_type -----------------------------------------------------------------------
def _result_type_decl(overload: str, args: str, variants: str = "function") -> None:
    def kernel(a, b):
        return result_type([Wrapped(x) if isinstance(x, (bool, int, float)) else x
                            for x in (a, b)])
    declare(f"result_type.{overload}({args}) -> ScalarType", variants=variants,
            kind=COMPOSITE, native="at::native::result_type", source=TYPES)(kernel)


_result_type_decl("Tensor", "Tensor tensor, Tensor other")
_result_type_decl("Scalar", "Tensor tensor, Scalar other")
_result_type_decl("Scalar_Tensor", "Scalar scalar, Tensor tensor")
_result_type_decl("Scalar_Scalar", "Scalar scalar1, Scalar scalar2")


# -- the loops --------------------------------------------------------------------------------
def powi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """c10 powi (ATen/native/Pow.h): square-and-multiply in the integer type (wrapping as
    C does); a negative exponent gives 1 for base 1, ±1 for base -1, 0 otherwise."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    result = np.ones(a.shape, a.dtype)
    base, e = a.copy(), b.astype(np.int64)
    neg = e < 0
    e = np.where(neg, 0, e)
    while np.any(e):
        odd = (e & 1) == 1
        result = np.where(odd, result * base, result).astype(a.dtype)
        e = e // 2
        base = (base * base).astype(a.dtype)
    if a.dtype.kind == "i":
        odd_neg = ((-b.astype(np.int64)) % 2) == 1
        special = np.where(a == 1, 1, np.where(a == -1, np.where(odd_neg, -1, 1), 0))
        result = np.where(neg, special.astype(a.dtype), result)
    return result


def _float_scalar_loop(exp: float):
    """pow_tensor_scalar_kernel's float roads that round exactly."""
    def loop(a):
        one = a.dtype.type(1)
        if exp == 0.5:
            # sqrt_kernel runs MKL's vmsSqrt, which is not correctly rounded (torch's
            # sqrt(37.0) is one ulp below IEEE's): IEEE's value, under the bound the
            # kernel's note states (engine/ops/math_unary.py, docs/fidelity-math.md)
            return np.sqrt(a)
        if exp == -0.5:
            return one / np.sqrt(a)
        if exp == -1.0:
            return one / a
        if exp == 2.0:
            return a * a
        if exp == 3.0:
            return a * a * a
        if exp == -2.0:
            return one / (a * a)
        # std::pow / Sleef's pow of the exponent converted to scalar_t: numpy's, within
        # POW_ULPS (the kernel's note says so)
        return np.power(a, a.dtype.type(exp))
    return loop


def _scalar_kernel(exp: Any):
    """The loop and its prologue: an integer kernel converts the exponent with
    exp_scalar.to<scalar_t>() (checked) before the loop, so an empty tensor raises too."""
    converted: list[Any] = []

    def prologue(common: D.dtype) -> None:
        if common is D.float16:
            raise Refused("pow on float16 is not modelled by tidx")
        if not common.is_floating_point:
            converted.append(np.asarray(to_dtype_scalar(exp, common)).astype(common.np))

    def loop(a):
        if a.dtype.kind == "f":
            return _float_scalar_loop(float(exp))(a)
        return powi(a, converted[0])
    return loop, prologue


def _tensor_loop(a, b):
    if a.dtype == np.float16:
        raise Refused("pow on float16 is not modelled by tidx")
    if a.dtype.kind == "f":
        # std::pow / Sleef's pow: numpy's, within POW_ULPS (the kernel's note says so)
        return np.power(a, b)
    return powi(a, b)


def _tensor_note(self, exponent):
    common = result_type([operand(self), operand(exponent)])
    return (Note("math.within_ulps", op="pow", library=POW_LIBRARY, ulps=POW_ULPS)
            if common in (D.float32, D.float64) else None)


# -- pow(Tensor, Scalar) ------------------------------------------------------------------------
def _is(value: Any, number: float) -> bool:
    """Scalar::equal: a bool Scalar equals only a bool."""
    return not isinstance(value, bool) and value == number


POW_EXPONENT_0_OR_1 = step("pow: exponent 0 or 1", Layer.KERNEL, source=POW)


def _pow_tensor_scalar(name: str, self, exponent: Any, inplace: bool, out=None):
    """pow_Tensor_Scalar_out (Pow.cpp) in its three forms: into a new tensor, into self
    (``inplace``) or into an out= tensor, which the meta step resizes."""
    check(not (not self.dtype.is_floating_point and isinstance(exponent, (bool, int))
               and exponent < 0), RuntimeError,
          "Integers to negative integer powers are not allowed.")
    common = aten.result_type.Scalar(self, exponent)
    base = aten.to.dtype(self, common)
    zero = _is(exponent, 0.0) or exponent is False
    one = _is(exponent, 1.0) or exponent is True
    given = out
    out = self if inplace else out
    if zero or one:
        with span(POW_EXPONENT_0_OR_1, note=Note("pointwise.pow_shortcut", exponent=exponent)):
            pass
        result = iterate(name, [base], None, out=out, resize=given is not None,
                         source=POW_KERNEL)
        # the impl writes the out= tensor itself (``out.fill_(1)``, ``out.copy_(base)``):
        # the temporary the iterator made for another dtype is left unused
        result = given if given is not None else result
        if zero:
            return aten.fill_.Scalar(result, 1)
        return aten.copy_.default(result, base)
    loop, prologue = _scalar_kernel(exponent)
    return iterate(name, [base], loop, out=out, resize=given is not None, source=POW_KERNEL,
                   check_dtype=prologue, note=_pow_note(common, exponent))


@declare("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor",
         variants="function, method",
         native="at::native::pow (structured, Tensor_Scalar)", source=POW,
         meta=META_PYTHON)
def pow_tensor_scalar(self, exponent: Any):
    return _pow_tensor_scalar("pow", self, exponent, False)


@declare("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", variants="method",
         native="at::native::pow_ (structured, Scalar)", source=POW, meta=META_PYTHON)
def pow_scalar_(self, exponent: Any):
    return _pow_tensor_scalar("pow_", self, exponent, True)


# -- pow(Tensor, Tensor) ------------------------------------------------------------------------
#: pow_tensor_tensor_kernel's (cpu/PowKernel.cpp): floating types under one macro, the rest
#: under the integral one, where a bool finds no case
_POW = AT_DISPATCH("pow", "AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16)",
                   "AT_DISPATCH_INTEGRAL_TYPES")


@declare("pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
         variants="method, function",
         native="at::native::pow (structured, Tensor_Tensor)", source=POW,
         meta=META_PYTHON, at_dispatch=_POW)
def pow_tensor_tensor(self, exponent):
    return iterate("pow", [self, exponent], _tensor_loop, at_dispatch=True,
                   source=POW_KERNEL,
                   note=_tensor_note(self, exponent))


@declare("pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", variants="method",
         native="at::native::pow_ (structured, Tensor)", source=POW, meta=META_PYTHON,
         at_dispatch=_POW)
def pow_tensor_(self, exponent):
    return iterate("pow_", [self, exponent], _tensor_loop, out=self, at_dispatch=True,
                   source=POW_KERNEL,
                   note=_tensor_note(self, exponent))


@declare("pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::pow_out (structured)", source=POW,
         meta=META_PYTHON, at_dispatch=_POW)
def pow_tensor_tensor_out(self, exponent, *, out):
    return iterate("pow", [self, exponent], _tensor_loop, out=out, resize=True,
                   at_dispatch=True, source=POW_KERNEL,
                   note=_tensor_note(self, exponent))


# -- pow(Scalar, Tensor) ------------------------------------------------------------------------
@declare("pow.Scalar(Scalar self, Tensor exponent) -> Tensor",
         native="at::native::pow (structured, Scalar)", source=POW,
         meta=META_PYTHON)
def pow_scalar(self: Any, exponent):
    """Not a TensorIterator op itself: the output is allocated contiguous in the result
    type, then filled with ones (base 1) or computed by pow's out= overload."""
    dtype = aten.result_type.Scalar_Tensor(self, exponent)
    sizes = exponent.view.sizes
    out = memory.empty_strided_generic(sizes, S.contiguous_strides(sizes), dtype,
                                       exponent.device_type)
    if _is(self, 1.0):
        return aten.fill_.Scalar(out, 1)
    # pow_Scalar_out: at::pow_out(out, wrapped_scalar_tensor(base, exp.device()), exp)
    return aten.pow.Tensor_Tensor_out(operand(self), exponent, out=out)


@declare("pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::pow_out (structured, Scalar_out)", source=POW, meta=META_PYTHON)
def pow_scalar_out(self: Any, exponent, *, out):
    """TORCH_META_FUNC2(pow, Scalar): the out= tensor keeps its dtype and is resized to the
    exponent's shape (resize_output: contiguous, with the warning when it held elements);
    then pow_Scalar_out fills it (base 1) or calls pow's Tensor_Tensor out= into it."""
    resize_output(out, exponent.view.sizes, S.contiguous_strides(exponent.view.sizes))
    if _is(self, 1.0):
        return aten.fill_.Scalar(out, 1)
    return aten.pow.Tensor_Tensor_out(operand(self), exponent, out=out)


@declare("pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::pow_out (structured, Tensor_Scalar_out)", source=POW,
         meta=META_PYTHON)
def pow_tensor_scalar_out(self, exponent: Any, *, out):
    return _pow_tensor_scalar("pow", self, exponent, False, out=out)
