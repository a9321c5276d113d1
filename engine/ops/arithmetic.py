"""Arithmetic: add, sub, rsub, mul, div (true, trunc, floor), true_divide, floor_divide,
remainder, fmod -- functional and in-place -- and logaddexp (aten/src/ATen/native/BinaryOps.cpp).

Each overload runs through TensorIterator (engine/ops/pointwise.py); the loops compute
what the CPU kernels of aten/src/ATen/native/cpu/BinaryOpsKernel.cpp compute, with
the same formula, so float results carry the same bits: remainder is ``fmod`` plus the
divisor when the signs differ, floor division is ``c10::div_floor_floating`` (fmod,
subtract, divide, floor, round-half correction).  Integer division by zero raises
``ZeroDivisionError`` as a RuntimeError (the kernels' TORCH_CHECK).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, FUNCTIONAL, INPLACE,
                                          META_PYTHON, OUT, OUT_NOT_MODELLED, declare,
                                          deprecated, not_modelled, structured)
from engine.dispatch.aliases import alias
from engine.dispatch.aten import aten
from engine.ops import complex_arith
from engine.ops.pointwise import BINARY, Wrapped, cast_error, iterate, operand, sub_check
from engine.ops.scalar import scalar_tensor_static, scalar_type, to_dtype_scalar
from engine.ops.touch import touched

_ALPHA = "*, Scalar alpha=1"


def _float_division(common: D.dtype) -> D.dtype:
    """promote_integer_inputs_to_float: true division of integers is in the default dtype."""
    return common if common.is_floating_point or common.is_complex else current().default_dtype


def _no_half(what: str, dtype: D.dtype) -> None:
    if dtype is D.float16:
        raise Refused(f"{what} on float16 is not modelled by tidx (the CPU kernel's Half "
                      "vector path rounds between steps)")


# -- add / sub: self + alpha * other ---------------------------------------------------------
def alpha_check(dtype: D.dtype, alpha: Any) -> None:
    """alpha_check (BinaryOps.h), on the iterator's dtype."""
    check(not isinstance(alpha, bool) or dtype is D.bool, RuntimeError,
          "Boolean alpha only supported for Boolean results.")
    check(dtype.is_floating_point or dtype.is_complex or not isinstance(alpha, (float, complex)),
          RuntimeError,
          "For integral input tensors, argument alpha must not be a floating point number.")
    check(dtype.is_complex or not isinstance(alpha, complex), RuntimeError,
          "For non-complex input tensors, argument alpha must not be a complex number.")


def _exact_products(x: np.ndarray, y: Any) -> bool:
    """Whether every ``x * y`` is exact in x's float type (Dekker's TwoProduct: the
    product's rounding error is zero), so that the vector loop's fused multiply-add and
    the scalar loop's multiply-then-add give the same bits."""
    p = x * y
    if not np.all(np.isfinite(p) | ~np.isfinite(x)):
        return False
    split = x.dtype.type(2 ** ((np.finfo(x.dtype).nmant + 2) // 2) + 1)

    def halves(v: Any) -> tuple[Any, Any]:
        c = split * v
        hi = c - (c - v)
        return hi, v - hi
    xh, xl = halves(x)
    yh, yl = halves(x.dtype.type(y))
    err = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
    finite = np.isfinite(x)
    tiny = np.finfo(x.dtype).tiny
    return bool(np.all((err[finite] == 0) & ((p[finite] == 0) | (abs(p[finite]) >= tiny))))


def _add_kernel(alpha: Any):
    """ufunc::add: ``self + alpha * other`` (vectorised as fmadd(other, alpha, self)); the
    kernel converts alpha with alpha.to<scalar_t>() (checked) before its loop."""
    scale: list[Any] = []

    def prologue(common: D.dtype) -> None:
        alpha_check(common, alpha)
        scale.append(to_dtype_scalar(alpha, common))

    def loop(a, b):
        if complex_arith.any_complex(a, b):
            return complex_arith.add(a, b, D.from_numpy(a.dtype), scale[0])
        if alpha is True or (not isinstance(alpha, bool) and alpha == 1):
            return a + b
        if not isinstance(alpha, bool) and alpha == -1 and a.dtype != np.bool_:
            return a - b        # sub's -alpha: b * -1 is exact, one rounding as fmadd
        dt = D.from_numpy(a.dtype)
        if dt.is_floating_point:
            _no_half("add/sub with alpha", dt)
            if not _exact_products(np.asarray(b), a.dtype.type(scale[0])):
                raise Refused("add/sub with this alpha rounds alpha * other before the add "
                              "in one CPU loop and not in the other (fused multiply-add); "
                              "tidx cannot tell which one torch takes")
            return a + b * a.dtype.type(scale[0])
        if dt is D.bool:
            return a | (b & bool(scale[0]))
        return a + b * np.asarray(scale[0]).astype(a.dtype)
    return loop, prologue


def _form_name(name: str, form: str) -> str:
    """The loop's name: ``add_`` for the in-place form, else ``add``."""
    return f"{name}_" if form == INPLACE else name


def _add(name: str, form: str, self, other, alpha: Any, out, negate: bool = False):
    if negate:      # sub: add_stub(..., -alpha)
        alpha = -alpha if not isinstance(alpha, bool) else alpha
    loop, prologue = _add_kernel(alpha)
    return iterate(_form_name(name, form), [self, other], loop, out=out, resize=form == OUT,
                   check_dtype=prologue)


def _sub_checks(self, other) -> None:
    # only the operands' types: the wrapped number's tensor is made once, by iterate
    sub_check(*(Wrapped(x) if isinstance(x, (bool, int, float, complex)) else operand(x)
                for x in (self, other)))


# add.out, sub.out, mul.out, div.out and div.out_mode are structured (TensorIteratorBase);
# add.Tensor and add_.Tensor ... their structured_delegates (native_functions.yaml)
@structured(f"add.out(Tensor self, Tensor other, {_ALPHA}, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::add (structured)",
            out_native="at::native::add_out (structured)", source=BINARY, overload="Tensor",
            meta=META_PYTHON, takes_complex=True)
def add(form: str, self, other, *, alpha: Any = 1, out):
    return _add("add", form, self, other, alpha, out)


@structured(f"sub.out(Tensor self, Tensor other, {_ALPHA}, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::sub (structured)",
            out_native="at::native::sub_out (structured)", source=BINARY, overload="Tensor",
            meta=META_PYTHON, takes_complex=True)
def sub(form: str, self, other, *, alpha: Any = 1, out):
    _sub_checks(self, other)        # TORCH_META_FUNC2(sub, Tensor): sub_check first
    return _add("sub", form, self, other, alpha, out, negate=True)


@declare(f"rsub.Tensor(Tensor self, Tensor other, {_ALPHA}) -> Tensor",
         native="at::native::rsub", source=BINARY, meta=META_PYTHON, takes_complex=True)
def rsub(self, other, *, alpha: Any = 1):
    """rsub: ``other - alpha * self``, an aten::sub with the operands swapped."""
    return aten.sub.Tensor(other, self, alpha=alpha)


@declare("rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
         native="at::native::rsub", source=BINARY, meta=META_PYTHON, takes_complex=True)
def rsub_scalar(self, other, alpha: Any = 1):
    return aten.sub.Tensor(other, self, alpha=alpha)


# -- mul --------------------------------------------------------------------------------------
def _mul(a, b):
    return a & b if a.dtype == np.bool_ else a * b


@structured("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::mul (structured)",
            out_native="at::native::mul_out (structured)", source=BINARY, overload="Tensor",
            meta=META_PYTHON, takes_complex=True)
def mul(form: str, self, other, *, out):
    def loop(a, b):
        if not complex_arith.any_complex(a, b):
            return _mul(a, b)
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        # (a new or in-place output is laid out as its inputs; an out= may not be)
        loop = complex_arith.loop_kind([a, b], shape, form != OUT or out.is_contiguous())
        return complex_arith.multiply(a, b, D.from_numpy(a.dtype), loop)
    return iterate(_form_name("mul", form), [self, other], loop, out=out, resize=form == OUT)


@declare("mul.Scalar(Tensor self, Scalar other) -> Tensor", variants="function, method",
         native="at::native::mul", source=BINARY, meta=META_PYTHON, takes_complex=True)
def mul_scalar(self, other):
    """C++'s ``tensor * number`` (not bound in Python, whose parser wraps the number and
    calls mul.Tensor): the number wrapped, the same loop; autograd records MulBackward1."""
    return iterate("mul", [self, other], _mul)


# -- division -----------------------------------------------------------------------------------
def _check_divisors(a, b) -> None:
    """The integer kernels' TORCH_CHECK(b != 0, "ZeroDivisionError"); and INT_MIN / -1,
    which traps (SIGFPE) in C for int and int64_t instead of giving a value."""
    if np.any(np.asarray(b) == 0):
        raise torch_error(RuntimeError, "ZeroDivisionError")
    if a.dtype in (np.int32, np.int64):
        low = np.iinfo(a.dtype).min
        if np.any((np.asarray(a) == low) & (np.asarray(b) == -1)):
            raise Refused(f"{low} divided by -1 overflows: the CPU traps (SIGFPE) there")


def _widen(a, b):
    """C promotes 8- and 16-bit integers to int before dividing; int64 arithmetic gives
    the same results once cast back."""
    return np.asarray(a).astype(np.int64), np.asarray(b).astype(np.int64)


def _div_true(a, b, loop_of=None, aliased: bool = False):
    if complex_arith.any_complex(a, b):
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        return complex_arith.divide(a, b, D.from_numpy(a.dtype), loop_of(a, b, shape),
                                    aliased)
    _no_half("division", D.from_numpy(a.dtype))
    return a / b


def _div_trunc(a, b):
    if a.dtype.kind in "iu":
        _check_divisors(a, b)
        x, y = _widen(a, b)
        q = np.abs(x) // np.abs(y)
        return np.where((x < 0) != (y < 0), -q, q)
    _no_half("division", D.from_numpy(a.dtype))
    return np.trunc(a / b)


def div_floor_floating(a, b):
    """c10::div_floor_floating (c10/util/generic_math.h), element by element."""
    mod = np.fmod(a, b)
    div = (a - mod) / b
    zero = a.dtype.type(0)
    div = np.where((mod != zero) & ((b < zero) != (mod < zero)), div - a.dtype.type(1), div)
    floordiv = np.floor(div)
    floordiv = np.where(div - floordiv > a.dtype.type(0.5), floordiv + a.dtype.type(1),
                        floordiv)
    basic = a / b
    floordiv = np.where(div == zero, np.copysign(zero, basic), floordiv)
    return np.where(b == zero, basic, floordiv)


def _div_floor(a, b):
    if a.dtype.kind in "iu":
        _check_divisors(a, b)
        x, y = _widen(a, b)
        return x // y               # c10::div_floor_integer: Python's floor division
    _no_half("floor division", D.from_numpy(a.dtype))
    return div_floor_floating(a, b)


#: the integer kernels' AT_DISPATCH_INTEGRAL_TYPES, then the floating one's, where a bool
#: finds no case (cpu/BinaryOpsKernel.cpp: div_trunc_kernel, div_floor_kernel,
#: remainder_kernel, fmod_kernel)
_INTEGRAL_OR_FLOATING = ("AT_DISPATCH_INTEGRAL_TYPES",
                         "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)")
_DIV_TRUNC_CPU = AT_DISPATCH("div_trunc_cpu", *_INTEGRAL_OR_FLOATING)
_DIV_FLOOR_CPU = AT_DISPATCH("div_floor_cpu", *_INTEGRAL_OR_FLOATING)


def _div(name: str, self, other, mode: str | None, out=None, allocate: str = "",
         resize: bool = False):
    if mode is None:
        def loop_of(a, b, shape):       # (an out= may not be laid out as its inputs)
            return complex_arith.loop_kind([a, b], shape, out is None or out.is_contiguous())
        aliased = out is not None and any(out is t for t in (self, other))
        return iterate(name, [self, other], lambda a, b: _div_true(a, b, loop_of, aliased),
                       out=out, resize=resize, common_dtype=_float_division)
    check(mode in ("trunc", "floor"), RuntimeError,
          f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                  f"found '{mode}'")
    return iterate(name, [self, other], _div_trunc if mode == "trunc" else _div_floor,
                   out=out, resize=resize, at_dispatch=f"div_{mode}_cpu", allocate=allocate,
                   note="pointwise.div_trunc" if mode == "trunc" else "pointwise.div_floor")


@structured("div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::div (structured)",
            out_native="at::native::div_out (structured)", source=BINARY, overload="Tensor",
            meta=META_PYTHON, takes_complex=True)
def div(form: str, self, other, *, out):
    return _div(_form_name("div", form), self, other, None, out=out, resize=form == OUT)


@structured("div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> "
            "Tensor(a!)", native="at::native::div (structured, mode)",
            out_native="at::native::div_out_mode (structured)", source=BINARY,
            overload="Tensor_mode", meta=META_PYTHON,
            at_dispatch=(_DIV_TRUNC_CPU, _DIV_FLOOR_CPU))
def div_mode(form: str, self, other, *, rounding_mode: str | None, out):
    return _div(_form_name("div", form), self, other, rounding_mode, out=out,
                resize=form == OUT)


@declare("div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor",
         variants="function, method", native="at::native::div", source=BINARY,
         meta=META_PYTHON, at_dispatch=(_DIV_TRUNC_CPU, _DIV_FLOOR_CPU))
def div_scalar_mode(self, other, *, rounding_mode: str | None = None):
    return _div("div", self, other, rounding_mode)


@declare("div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)",
         variants="method", native="at::native::div_", source=BINARY,
         meta=META_PYTHON, at_dispatch=(_DIV_TRUNC_CPU, _DIV_FLOOR_CPU))
def div_scalar_mode_(self, other, *, rounding_mode: str | None = None):
    return _div("div_", self, other, rounding_mode, out=self)


def _true_divide(overload: str, other: str, inplace: bool) -> None:
    """true_divide is div's alias (CompositeImplicitAutograd: it calls aten::div)."""
    name = "true_divide_" if inplace else "true_divide"
    self_t = "Tensor(a!) self" if inplace else "Tensor self"
    ret = "Tensor(a!)" if inplace else "Tensor"

    def kernel(self, other_):
        # both overloads call div(_).Tensor: div.Scalar has no Python binding; the
        # composite calls it, so the wrapped number goes to div.Tensor the way div.Scalar's
        # own kernel sends it
        return (aten.div_ if inplace else aten.div).Tensor(self, other_)
    declare(f"{name}.{overload}({self_t}, {other} other) -> {ret}",
            variants="method" if inplace else "function, method", kind=COMPOSITE,
            native=f"at::native::{name}", source=BINARY)(kernel)


for _overload, _other in (("Tensor", "Tensor"), ("Scalar", "Scalar")):
    _true_divide(_overload, _other, False)
    _true_divide(_overload, _other, True)


# -- floor_divide, remainder, fmod --------------------------------------------------------------
@declare("floor_divide(Tensor self, Tensor other) -> Tensor", variants="function, method",
         native="at::native::floor_divide", source=BINARY, meta=META_PYTHON, at_dispatch=_DIV_FLOOR_CPU)
def floor_divide(self, other):
    # not structured: TensorIterator::binary_op allocates the output with at::empty
    return _div("floor_divide", self, other, "floor", allocate="empty")


@declare("floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::floor_divide_out", source=BINARY, meta=META_PYTHON,
         at_dispatch=_DIV_FLOOR_CPU)
def floor_divide_out(self, other, *, out):
    # TensorIterator::binary_op(result, self, other), then div_floor_stub
    return _div("floor_divide", self, other, "floor", out=out, resize=True, allocate="empty")


@declare("floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
         variants="method", native="at::native::floor_divide_", source=BINARY,
         meta=META_PYTHON, at_dispatch=_DIV_FLOOR_CPU)
def floor_divide_(self, other):
    return _div("floor_divide_", self, other, "floor", out=self)


@declare("floor_divide.Scalar(Tensor self, Scalar other) -> Tensor",
         variants="function, method", native="at::native::floor_divide",
         source=BINARY,
         meta=META_PYTHON, at_dispatch=_DIV_FLOOR_CPU)
def floor_divide_scalar(self, other):
    return _div("floor_divide", self, other, "floor", allocate="empty")


@declare("floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
         variants="method", native="at::native::floor_divide_", source=BINARY,
         meta=META_PYTHON, at_dispatch=_DIV_FLOOR_CPU)
def floor_divide_scalar_(self, other):
    return _div("floor_divide_", self, other, "floor", out=self)


def _remainder(a, b):
    if a.dtype.kind in "iu":
        _check_divisors(a, b)
        x, y = _widen(a, b)
        return np.remainder(x, y)   # C's % plus the divisor when the signs differ
    _no_half("remainder", D.from_numpy(a.dtype))
    mod = np.fmod(a, b)
    zero = a.dtype.type(0)
    return np.where((mod != zero) & ((b < zero) != (mod < zero)), mod + b, mod)


def _fmod(a, b):
    if a.dtype.kind in "iu":
        _check_divisors(a, b)
        x, y = _widen(a, b)
        return np.fmod(x, y)
    _no_half("fmod", D.from_numpy(a.dtype))
    return np.fmod(a, b)


def _binary_family(name: str, loop, *, scalar_tensor: bool = False, note: str = "") -> None:
    """X.Scalar, X_.Scalar (CompositeExplicitAutograd in torch), X.Tensor_out, structured,
    with X.Tensor and X_.Tensor (and X.Scalar_Tensor): one loop."""
    dispatch = AT_DISPATCH(f"{name}_cpu", *_INTEGRAL_OR_FLOATING)
    for schema, inplace in ((f"{name}.Scalar(Tensor self, Scalar other) -> Tensor", False),
                            (f"{name}_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
                             True)):
        def kernel_fn(self, other, _inplace: bool = inplace,
                      _op: str = name + ("_" if inplace else "")):
            return iterate(_op, [self, other], loop, out=self if _inplace else None,
                           at_dispatch=True, note=note)
        declare(schema, variants="method" if inplace else "method, function",
                native=f"at::native::{name}{'_' if inplace else ''}", source=BINARY,
                meta=META_PYTHON, at_dispatch=dispatch)(kernel_fn)

    def impl(form: str, self, other, *, out):
        return iterate(_form_name(name, form), [self, other], loop, out=out,
                       resize=form == OUT, at_dispatch=True, note=note)
    structured(f"{name}.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
               native=f"at::native::{name}", out_native=f"at::native::{name}_out (structured)",
               source=BINARY, variants="method, function", meta=META_PYTHON,
               at_dispatch=dispatch)(impl)
    if scalar_tensor:
        @declare(f"{name}.Scalar_Tensor(Scalar self, Tensor other) -> Tensor",
                 native=f"at::native::{name}", source=BINARY, meta=META_PYTHON,
                 at_dispatch=dispatch)
        def reflected(self, other):
            # at::name(wrapped_scalar_tensor(self), other)
            return iterate(name, [operand(self), other], loop, at_dispatch=True, note=note)

    @declare(f"{name}.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
             native=f"at::native::{name}_out", source=BINARY, meta=META_PYTHON)
    def scalar_out(self, other, *, out):
        # CompositeExplicitAutograd: at::name_out(result, self, wrapped_scalar_tensor(other))
        return getattr(aten, name).Tensor_out(self, operand(other), out=out)


_binary_family("remainder", _remainder, scalar_tensor=True, note="pointwise.remainder")
_binary_family("fmod", _fmod, note="pointwise.fmod")


# add(self, alpha, other), the argument order of PyTorch 0.x, still binds with a warning
deprecated("add(Tensor self, Scalar alpha, Tensor other) -> Tensor", "add(self, other, alpha)")
deprecated("add(Tensor self, Scalar alpha, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
           "add_out(out, self, other, alpha)")
deprecated("add_(Tensor(a!) self, Scalar alpha, Tensor other) -> Tensor(a!)",
           "add_(self, other, alpha)")
deprecated("sub(Tensor self, Scalar alpha, Tensor other) -> Tensor", "sub(self, other, alpha)")
deprecated("sub(Tensor self, Scalar alpha, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
           "sub_out(out, self, other, alpha)")
deprecated("sub_(Tensor(a!) self, Scalar alpha, Tensor other) -> Tensor(a!)",
           "sub_(self, other, alpha)")

alias("true_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", of="div",
      source=BINARY)


# -- div_.Scalar: no Python binding of its own; mean divides its sum in place with it ----
DIV_TRUE_KERNEL = step("div_true_kernel", Layer.KERNEL, source=BINARY, note="mean.div")


@declare("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", variants="method",
         native="at::native::div_", source=BINARY, meta=META_PYTHON, takes_complex=True)
def div__scalar(self, other):
    """``self /= other`` for a floating self: the number becomes a wrapped 0-dim tensor,
    TensorIterator casts it to self's dtype (the ``to`` the profiler shows) and the
    kernel divides, each quotient rounded once (IEEE division, as the vector loop's).
    A complex self is divided by ``(n, 0)`` with c10::complex's operator/ (numpy's
    algorithm: ``(a + b*0) * (1/n)``, fused or not the same bits, as numpy's own)."""
    if not self.dtype.is_floating_point and not self.dtype.is_complex and \
            not isinstance(other, (bool, complex)):
        # true division promotes integers to the default dtype, which an integer self
        # cannot hold (mean's out= of an integer dtype ends here)
        raise cast_error(current().default_dtype, self.dtype)
    if not (self.dtype.is_floating_point or self.dtype.is_complex) or \
            isinstance(other, (bool, complex)):
        raise Refused("div_(number) is modelled only for a floating or complex tensor "
                      "divided by a real number (what mean needs)")
    wrapped = scalar_tensor_static(other, scalar_type(other), self.device_type)
    divisor = aten.to.dtype(wrapped, self.dtype) \
        if wrapped.dtype is not self.dtype else wrapped
    with span(DIV_TRUE_KERNEL) as s:
        if not self.is_meta:
            arr = self.array(write=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                arr[...] = arr / divisor.array()
            s.set(read=[touched(self), touched(divisor)], written=touched(self))
        s.set_result(self)
    return self


# -- logaddexp: log(exp(a) + exp(b)) without overflow -----------------------------------------
#: Below -104 (float) and -1000 (double) Sleef's exp is 0 (sleefsimdsp.c, sleefsimddp.c), as
#: glibc's: log1p(0) is 0 and the result is max(a, b) exactly
_EXP_VANISHES = {"float16": 104.0, "float32": 104.0, "float64": 1000.0}


def _logaddexp(a, b):
    """logaddexp_kernel (cpu/BinaryOpsKernel.cpp): equal infinities give themselves, else
    max(a, b) + log1p(exp(-|a - b|)) -- Half in float, as the reduced-float loop does."""
    wide = a.dtype == np.float16
    x, y = (a.astype(np.float32), b.astype(np.float32)) if wide else (a, b)
    gap = np.abs(x - y)
    same_inf = np.isinf(x) & (x == y)
    if np.any(~(same_inf | np.isnan(gap) | (gap > _EXP_VANISHES[a.dtype.name]))):
        raise Refused("logaddexp of operands this close runs Sleef's vectorised exp and log1p "
                      "in torch, whose last bit tidx cannot reproduce (tidx computes it where "
                      "exp(-|a - b|) is 0: a NaN, equal infinities, or operands further apart "
                      "than 104 in float, 1000 in double)")
    result = np.where(same_inf, x, np.maximum(x, y) + np.log1p(np.exp(-gap)))
    return result.astype(a.dtype) if wide else result


@structured("logaddexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::logaddexp (structured)",
            out_native="at::native::logaddexp_out (structured)", source=BINARY,
            inplace=False, variants="method, function", meta=META_PYTHON,
            device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER,
            # logaddexp_kernel (cpu/BinaryOpsKernel.cpp): the reduced floats, else the floats
            at_dispatch=AT_DISPATCH("logaddexp_cpu", "AT_DISPATCH_REDUCED_FLOATING_TYPES",
                                    "AT_DISPATCH_FLOATING_TYPES"))
def logaddexp(form: str, self, other, *, out):
    # build_borrowing_binary_op: promoted to the common dtype, which the AT_DISPATCH must take
    return iterate("logaddexp", [self, other], _logaddexp, out=out, resize=form == OUT,
                   at_dispatch=True, note="pointwise.logaddexp")


# -- aliases: multiply, divide, subtract (BinaryOps.cpp: one call of mul, div, sub) ---------
for _schema, _variants in (
        ("multiply.Tensor(Tensor self, Tensor other) -> Tensor", "function, method"),
        ("multiply_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "method"),
        ("multiply.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "function"),
        ("multiply.Scalar(Tensor self, Scalar other) -> Tensor", "function, method"),
        ("multiply_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "method")):
    alias(_schema, of="mul", source=BINARY, variants=_variants)
for _schema, _variants in (
        ("divide.Tensor(Tensor self, Tensor other) -> Tensor", "function, method"),
        ("divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "method"),
        ("divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "function"),
        ("divide.Scalar(Tensor self, Scalar other) -> Tensor", "function, method"),
        ("divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "method"),
        ("divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
         "function, method"),
        ("divide_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)",
         "method"),
        ("divide.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> "
         "Tensor(a!)", "function"),
        ("divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor",
         "function, method"),
        ("divide_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)",
         "method")):
    alias(_schema, of="div", source=BINARY, variants=_variants)
for _schema, _variants in (
        ("subtract.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
         "function"),
        ("subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
         "function, method"),
        ("subtract_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
         "method"),
        ("subtract.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
         "function, method"),
        ("subtract_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
         "method")):
    alias(_schema, of="sub", source=BINARY, variants=_variants)
