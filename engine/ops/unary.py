"""Unary pointwise operators: neg, abs, sign, reciprocal, nan_to_num and the float classifiers
isnan, isinf, isfinite, isposinf, isneginf (aten/src/ATen/native/UnaryOps.cpp,
cpu/UnaryOpsKernel.cpp).

``abs`` is not structured: it allocates ``at::empty({0})`` and calls its out= overload,
which TensorIterator resizes (torch.profiler: ``aten::abs > aten::empty, aten::abs``).
The classifiers are composites over comparisons: ``isnan`` is ``self != self``,
``isinf`` is ``self.abs() == inf``, ``isfinite`` is ``(self == self) * (self.abs() != inf)``;
an integer tensor is never infinite nor NaN, so those answer with ``zeros_like`` /
``ones_like`` without looking at the values.
"""

from __future__ import annotations

import numpy as np

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, INPLACE, META_PYTHON,
                                          OUT, declare,
                                          structured)
from engine.dispatch.aliases import alias
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.ops.math_binary import _HYPOT
from engine.ops.pointwise import UNARY, can_cast, iterate, layout, resize_output
from engine.core import view as S
from tracer.notes import Note

UNARY_KERNEL = "aten/src/ATen/native/cpu/UnaryOpsKernel.cpp"


def _neg_check(self) -> None:
    check(self.dtype is not D.bool, RuntimeError,
          "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
          "to invert a mask, use the `~` or `logical_not()` operator instead.")


def _same_dtype(form: str, self, out) -> None:
    """build_borrowing_unary_op: check_all_same_dtype, an out= tensor included."""
    if form == OUT:
        check(out.dtype is self.dtype, RuntimeError,
              f"Found dtype {D.cpp_name(out.dtype)} but expected {D.cpp_name(self.dtype)}")


def _form_name(name: str, form: str) -> str:
    return name + "_" if form == INPLACE else name


@structured("neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::neg (structured)", out_native="at::native::neg_out (structured)",
            source=UNARY, inplace_variants="function, method", meta=META_PYTHON,
            takes_complex=True)
def neg(form: str, self, *, out):
    _neg_check(self)
    _same_dtype(form, self, out)
    return iterate(_form_name("neg", form), [self], np.negative, out=out, resize=form == OUT,
                   source=UNARY_KERNEL)


@declare("negative(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::negative", source=UNARY)
def negative(self):
    return aten.neg.default(self)


@declare("negative_(Tensor(a!) self) -> Tensor(a!)", variants="function, method",
         kind=COMPOSITE, native="at::native::negative_", source=UNARY)
def negative_(self):
    return aten.neg_.default(self)


# -- abs ------------------------------------------------------------------------------------------
@declare("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::abs_out", source=UNARY,
         meta=META_PYTHON,
         # abs_kernel's (cpu/UnaryOpsKernel.cpp)
         at_dispatch=AT_DISPATCH("abs_cpu",
                                 "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)"),
         takes_complex=True)
def abs_out(self, *, out):
    if self.dtype.is_complex and not out.dtype.is_complex:
        return _complex_abs_to_float(self, out)
    # unary_op's check_all_same_dtype (TensorIterator compute_types)
    check(out.dtype is self.dtype, RuntimeError,
          f"Found dtype {D.cpp_name(out.dtype)} but expected {D.cpp_name(self.dtype)}")
    if self.dtype.is_complex:       # (in place: |z| + 0i)
        return iterate("abs", [self], _complex_abs, out=out, resize=True, at_dispatch=True,
                       source=UNARY_KERNEL, note=_complex_abs_note(self.dtype))
    return iterate("abs", [self], np.abs, out=out, resize=True, at_dispatch=True,
                   source=UNARY_KERNEL)


def _complex_abs(z):
    """abs_kernel of a complex: Vectorized's abs_() is Sleef_hypot(real, imag) (u05), the
    scalar tail std::abs, glibc's hypot; the result is complex, |z| + 0i."""
    real = D.to_real(D.from_numpy(z.dtype)).np
    out = np.zeros(z.shape, z.dtype)
    out.real = np.hypot(z.real.astype(real), z.imag.astype(real))
    return out


def _complex_abs_note(dtype: D.dtype) -> Note:
    """Bit for bit in complex64 (numpy's hypot is Sleef's and glibc's there: 0 of 6,179
    measured differ); in complex128 within hypot's measured bound (docs/fidelity-math.md)."""
    if dtype is D.complex64:
        return Note("math.float_exact", op="abs")
    return Note("math.within_ulps", op="abs", library=_HYPOT[0], ulps=_HYPOT[2])


def _complex_abs_to_float(self, out):
    """unary_op_impl_with_complex_to_float_out: complex -> complex into a temporary, then
    its real view copied into the float result (resized to the temporary's sizes)."""
    real = D.to_real(self.dtype)
    if not can_cast(real, out.dtype):
        raise torch_error(RuntimeError, f"result type {D.cpp_name(real)} can't be cast to "
                                        f"the desired output type {D.cpp_name(out.dtype)}")
    temp = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    iterate("abs", [self], _complex_abs, out=temp, resize=True, at_dispatch=True,
            source=UNARY_KERNEL, note=_complex_abs_note(self.dtype))
    resize_output(out, temp.view.sizes, S.contiguous_strides(temp.view.sizes))
    return aten.copy_.default(out, aten.real.default(temp))


@declare("abs(Tensor self) -> Tensor", variants="function, method",
         native="at::native::abs", source=UNARY,
         meta=META_PYTHON, takes_complex=True)
def abs_(self):
    if self.dtype.is_complex:
        # unary_op_impl_with_complex_to_float: the result is of the real type
        result = aten.empty_like.default(self, dtype=D.to_real(self.dtype))
        return aten.abs.out(self, out=result)
    result = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    return aten.abs.out(self, out=result)


@declare("abs_(Tensor(a!) self) -> Tensor(a!)", variants="function, method",
         native="at::native::abs_", source=UNARY,
         meta=META_PYTHON, takes_complex=True)
def abs_inplace(self):
    check(not self.dtype.is_complex, RuntimeError,      # abs_: |z| is not complex
          "In-place abs is not supported for complex tensors.")
    return aten.abs.out(self, out=self)


@declare("absolute(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::absolute", source=UNARY)
def absolute(self):
    return aten.abs.default(self)


@declare("absolute_(Tensor(a!) self) -> Tensor(a!)", variants="method", kind=COMPOSITE,
         native="at::native::absolute_", source=UNARY)
def absolute_(self):
    return aten.abs_.default(self)


# -- sign, reciprocal -------------------------------------------------------------------------------
def _sign(a):
    """sign_kernel: ``(0 < a) - (a < 0)``; a bool is its own sign.  NaN gives 0 (both
    comparisons are false), -0.0 gives +0.0, as the vector loop's blend does."""
    if a.dtype == np.bool_:
        return a
    one, zero = a.dtype.type(1), a.dtype.type(0)
    return np.where(a > zero, one, zero) - np.where(a < zero, one, zero)


@structured("sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::sign (structured)",
            out_native="at::native::sign_out (structured)", source=UNARY, meta=META_PYTHON,
            takes_complex=True)
def sign(form: str, self, *, out):
    check(not self.dtype.is_complex, NotImplementedError,    # TORCH_META_FUNC(sign)
          "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
          "torch.sgn instead.")
    _same_dtype(form, self, out)
    return iterate(_form_name("sign", form), [self], _sign, out=out, resize=form == OUT,
                   source=UNARY_KERNEL)


@structured("sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::sgn (structured)",
            out_native="at::native::sgn_out (structured)", source=UNARY, meta=META_PYTHON,
            device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER)
def sgn(form: str, self, *, out):
    """TORCH_IMPL_FUNC(sgn_out): a real tensor's sgn is sign_stub's loop (AbsBackward0's
    formula calls it); a complex one's (z / |z|) is refused with the other complex ops."""
    _same_dtype(form, self, out)
    return iterate(_form_name("sgn", form), [self], _sign, out=out, resize=form == OUT,
                   source=UNARY_KERNEL)


def _to_float(common: D.dtype):
    """build_borrowing_unary_float_op: an integer input is computed in the default dtype."""
    return common if common.is_floating_point else current().default_dtype


def _reciprocal(a):
    # float16 too: Vectorized<Half> and the scalar loop compute 1/x in float and round
    # to half, which is numpy's float16 division (all 65536 inputs checked in a test)
    return a.dtype.type(1) / a


@structured("reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::reciprocal (structured)",
            out_native="at::native::reciprocal_out (structured)", source=UNARY,
            inplace_variants="function, method", meta=META_PYTHON)
def reciprocal(form: str, self, *, out):
    # build_borrowing_unary_float_op: an out= takes the float result by safe casting
    return iterate(_form_name("reciprocal", form), [self], _reciprocal, out=out,
                   resize=form == OUT, common_dtype=_to_float, source=UNARY_KERNEL)


# -- isnan, isinf, isfinite, isposinf, isneginf ----------------------------------------------------
def _integral(t) -> bool:
    return not t.dtype.is_floating_point


@declare("isnan(Tensor self) -> Tensor", variants="function, method",
         native="at::native::isnan", source=UNARY,
         meta=META_PYTHON)
def isnan(self):
    return aten.ne.Tensor(self, self)


@declare("isinf(Tensor self) -> Tensor", variants="function, method",
         native="at::native::isinf", source=UNARY,
         meta=META_PYTHON)
def isinf(self):
    if _integral(self):
        return aten.zeros_like.default(self, dtype=D.bool, memory_format="preserve_format")
    return aten.eq.Scalar(aten.abs.default(self), float("inf"))


@declare("isfinite(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::isfinite", source=UNARY)
def isfinite(self):
    if _integral(self):
        return aten.ones_like.default(self, dtype=D.bool, memory_format="preserve_format")
    # (self == self) * (self.abs() != inf): the compiler evaluated the right operand first
    finite = aten.ne.Scalar(aten.abs.default(self), float("inf"))
    return aten.mul.Tensor(aten.eq.Tensor(self, self), finite)


def _classifier(name: str, sign: float) -> None:
    def impl(self, out=None):
        if out is not None:
            # TORCH_META_FUNC(isposinf): the out= tensor must be bool, resized by the
            # force-boolean unary iterator
            check(out.dtype is D.bool, RuntimeError,
                  f"{name} does not support non-boolean outputs.")
        if _integral(self):
            # TORCH_IMPL_FUNC(isposinf_out): an integer is never infinite -> fill_(false)
            sizes = self.view.sizes
            if out is None:
                result = memory.empty_strided_generic(sizes, layout(sizes, [self]), D.bool,
                                                      self.device_type)
            else:
                resize_output(out, sizes, layout(sizes, [self]))
                result = out
            return aten.fill_.Scalar(result, False)
        # build_borrowing_unary_force_boolean_op: a bool output, never a cast temporary
        return iterate(name, [self], lambda a: a == a.dtype.type(sign), out_dtype=D.bool,
                       out=out, resize=out is not None, safe_cast=False, cast_output=False,
                       source=UNARY_KERNEL)

    def kernel(self):
        return impl(self)

    def out_kernel(self, *, out):
        return impl(self, out)
    declare(f"{name}(Tensor self) -> Tensor", variants="function, method",
            native=f"at::native::{name} (structured)", source=UNARY,
            meta=META_PYTHON, device_check=CHECK_WRAPPER)(kernel)
    declare(f"{name}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native=f"at::native::{name}_out (structured)", source=UNARY,
            meta=META_PYTHON, device_check=CHECK_WRAPPER)(out_kernel)


_classifier("isposinf", float("inf"))
_classifier("isneginf", float("-inf"))

# CompositeImplicitAutograd out= overloads (UnaryOps.cpp: negative_out calls at::neg_out,
# absolute_out at::abs_out)
alias("negative.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", of="neg", source=UNARY)
alias("absolute.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", of="abs", source=UNARY)


# -- nan_to_num: NaN and the infinities replaced ------------------------------------------------
def _replacement(value: float | None, default: float, dtype: D.dtype):
    """static_cast<scalar_t>(value): a double to the tensor's float type (Half through
    float, as c10::Half's constructor takes a float); an absent value is ``default``."""
    if value is None:
        return dtype.np.type(default)
    with np.errstate(over="ignore"):
        return dtype.np.type(np.float32(value)) if dtype is D.float16 else dtype.np.type(value)


@declare("nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, "
         "*, Tensor(a!) out) -> Tensor(a!)", native="at::native::nan_to_num_out",
         source=UNARY, meta=META_PYTHON, device_check=CHECK_WRAPPER)
def nan_to_num_out(self, nan=None, posinf=None, neginf=None, *, out):
    check(self.dtype is out.dtype, RuntimeError,
          f"nan_to_num: dtype of out: {D.cpp_name(out.dtype)} should be same as input: "
          f"{D.cpp_name(self.dtype)}")
    if not self.dtype.is_floating_point:
        # an integer (or bool) tensor has no NaN nor infinity: resize_output, copy_
        shape = self.view.sizes
        if out is not self:
            resize_output(out, shape, S.contiguous_strides(shape))
        return aten.copy_.default(out, self)
    info = np.finfo(self.dtype.np)
    values = (_replacement(nan, 0.0, self.dtype), _replacement(posinf, info.max, self.dtype),
              _replacement(neginf, info.min, self.dtype))

    def loop(a):
        # _isnan(a) ? nan : (a == inf ? posinf : (a == -inf ? neginf : a))
        return np.where(np.isnan(a), values[0], np.where(
            a == np.inf, values[1], np.where(a == -np.inf, values[2], a)))
    # TensorIterator::unary_op: the output's dtype is the input's (checked above)
    return iterate("nan_to_num", [self], loop, out=out, resize=True, safe_cast=False,
                   cast_output=False, source=UNARY_KERNEL,
                   note=Note("pointwise.nan_to_num", nan=float(values[0]),
                             posinf=float(values[1]), neginf=float(values[2])))


@declare("nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) "
         "-> Tensor", variants="function, method", native="at::native::nan_to_num",
         source=UNARY, meta=META_PYTHON)
def nan_to_num(self, nan=None, posinf=None, neginf=None):
    # CompositeExplicitAutograd: empty_like, then the out= kernel
    result = aten.empty_like.default(self)
    return aten.nan_to_num.out(self, nan, posinf, neginf, out=result)


@declare("nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, "
         "float? neginf=None) -> Tensor(a!)", variants="function, method",
         native="at::native::nan_to_num_", source=UNARY, meta=META_PYTHON)
def nan_to_num_(self, nan=None, posinf=None, neginf=None):
    return aten.nan_to_num.out(self, nan, posinf, neginf, out=self)
