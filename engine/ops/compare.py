"""Comparisons and bounds: eq, ne, lt, le, gt, ge (and in place), maximum, minimum, clamp,
clamp_min, clamp_max (aten/src/ATen/native/BinaryOps.cpp, TensorCompare.cpp,
cpu/BinaryOpsKernel.cpp, cpu/TensorCompareKernel.cpp).

A comparison is TensorIterator's comparison_op: the inputs are promoted to their common
dtype, a new result is bool, and an in-place one (``t.lt_(0)``) writes its truth values
into self's own dtype -- through a temporary unless self is bool.  ``clamp`` with
numbers does its own type promotion (the numbers take part) and then iterates over
``self.to(result_type)``; ``clamp_min``/``clamp_max`` skip that ``to`` for a float self.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, FUNCTIONAL, INPLACE,
                                          META_PYTHON, OUT, declare, structured)
from engine.dispatch.aliases import alias
from engine.dispatch.aten import aten
from engine.ops.pointwise import BINARY, Wrapped, iterate, result_type
from engine.ops.scalar import to_dtype_scalar

COMPARE = "aten/src/ATen/native/TensorCompare.cpp"
COMPARE_KERNEL = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp"

_COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                "gt": np.greater, "ge": np.greater_equal}


def _comparison(name: str, loop) -> None:
    """X.Tensor_out and X.Scalar_out, structured, with their delegates X.Tensor, X_.Tensor,
    X.Scalar, X_.Scalar: one kernel (TORCH_META_FUNC2(X, Tensor)'s comparison_op)."""
    def impl(form: str, self, other, *, out):
        if form == FUNCTIONAL:
            return iterate(name, [self, other], loop, out_dtype=D.bool, at_dispatch=True)
        # comparison_op: no safe-casting check; a bool output needs no temporary
        return iterate(_form_name(name, form), [self, other], loop, out=out,
                       resize=form == OUT, safe_cast=False, cast_output=out.dtype is not D.bool,
                       at_dispatch=True)
    # BinaryOpsKernel.cpp: complex numbers are equal or not, but have no order
    types = "ALL_TYPES_AND_COMPLEX_AND3" if name in ("eq", "ne") else "ALL_TYPES_AND3"
    for overload, other in (("Tensor", "Tensor"), ("Scalar", "Scalar")):
        structured(f"{name}.{overload}_out(Tensor self, {other} other, *, Tensor(a!) out) -> "
                   "Tensor(a!)", native=f"at::native::{name} (structured)",
                   out_native=f"at::native::{name}_{overload}_out (structured)",
                   source=BINARY, variants="method, function", meta=META_PYTHON,
                   at_dispatch=AT_DISPATCH(f"{name}_cpu",
                                           f"AT_DISPATCH_{types}(kBool, kBFloat16, kHalf)"),
                   takes_complex=True)(impl)


for _name, _loop in _COMPARISONS.items():
    _comparison(_name, _loop)


# -- maximum / minimum: NaN wins; the vector loop and the scalar loop disagree on ±0 ------------
def _signed_zero_tie(a, b) -> None:
    if a.dtype.kind == "f" and np.any((a == 0) & (b == 0) & (np.signbit(a) != np.signbit(b))):
        raise Refused("-0.0 against +0.0: torch's vector loop returns the second operand and "
                      "its scalar loop the first; tidx cannot tell which one runs")


def _extreme(pick):
    def loop(a, b):
        if a.dtype == np.bool_:
            return pick(a, b)
        a, b = np.broadcast_arrays(a, b)
        _signed_zero_tie(a, b)
        return pick(a, b)
    return loop


_MAXIMUM = _extreme(np.maximum)
_MINIMUM = _extreme(np.minimum)


def _minmax(name: str, loop) -> None:
    """maximum.out, structured, and maximum its delegate (torch has no maximum_)."""
    @structured(f"{name}.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
                native=f"at::native::{name} (structured)",
                out_native=f"at::native::{name}_out (structured)", source=BINARY,
                inplace=False, variants="method, function", meta=META_PYTHON, takes_complex=True)
    def kernel(form: str, self, other, *, out):
        # TORCH_META_FUNC2(maximum, ...)'s first check
        check(not any(getattr(t, "dtype", D.bool).is_complex for t in (self, other)),
              RuntimeError, f"{name} not implemented for complex tensors.")
        return iterate(name, [self, other], loop, out=out, resize=form == OUT)


_minmax("maximum", _MAXIMUM)
_minmax("minimum", _MINIMUM)


# -- clamp with numbers ---------------------------------------------------------------------------
#: caffe2::TypeMeta names, which clamp's in-place message prints (self.dtype())
_TYPEMETA = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
             "int16": "short int", "int32": "int", "int64": "long int", "float16": "c10::Half",
             "float32": "float", "float64": "double"}


def _bound(value: Any) -> None:
    if isinstance(value, float) and math.isnan(value):
        raise Refused("clamp with a NaN bound is not modelled by tidx")


def _form_name(op: str, form: str) -> str:
    """The operator's name as its messages and steps print it: ``clamp_`` in place."""
    return op + "_" if form == INPLACE else op


def _clamp_scalar(op: str, form: str, self, lo: Any, hi: Any, out, skip_float_to: bool):
    """TORCH_META_FUNC(clamp) (and clamp_min's, clamp_max's), then the kernel: one
    structured group, ``out`` None (a new tensor), self (in place) or the out= tensor."""
    name = _form_name(op, form)
    check(lo is not None or hi is not None, RuntimeError,
          "torch.clamp: At least one of 'min' or 'max' must not be None")
    check(not self.dtype.is_complex, NotImplementedError,
          "clamp is not supported for complex types")
    if isinstance(lo, complex) or isinstance(hi, complex):
        raise Refused(f"{op} with a complex bound is not modelled by tidx")
    dtype = self.dtype
    if not dtype.is_floating_point:
        dtype = result_type([self] + [Wrapped(v) for v in (lo, hi) if v is not None])
        if form == INPLACE and dtype is not self.dtype:
            raise torch_error(RuntimeError, f"result type {D.cpp_name(dtype)} can't be cast to "
                                            f"the desired output type {_TYPEMETA[self.dtype.name]}")
    source = self
    if not (skip_float_to and self.dtype.is_floating_point):
        source = aten.to.dtype(self, dtype)
    if form == OUT and out.dtype is not source.dtype:
        # build_unary_op: check_all_same_dtype(true), the output included
        raise torch_error(RuntimeError, f"Found dtype {D.cpp_name(out.dtype)} but expected "
                                        f"{D.cpp_name(source.dtype)}")
    for v in (lo, hi):
        if v is not None:
            _bound(v)
    which = "clamp" if lo is not None and hi is not None else (
        "clamp_min" if lo is not None else "clamp_max")

    bounds: list[Any] = []

    def prologue(common: D.dtype) -> None:
        """The kernel's AT_DISPATCH, then min_.to<scalar_t>() / max_.to<scalar_t>()
        (checked conversions), before the loop -- an empty tensor raises them too."""
        _bool_check(common, which)
        bounds.extend(None if v is None else common.np.type(to_dtype_scalar(v, common))
                      for v in (lo, hi))

    def loop(a):
        x = a
        if bounds[0] is not None:   # std::max(a, min): the first argument on a tie or a NaN
            x = np.where(x < bounds[0], bounds[0], x)
        if bounds[1] is not None:   # std::min(x, max)
            x = np.where(bounds[1] < x, bounds[1], x)
        return x
    return iterate(name, [source], loop, out=out, resize=form == OUT, source=COMPARE_KERNEL,
                   check_dtype=prologue)


def _bool_check(dtype: D.dtype, which: str) -> None:
    dispatched(dtype, f"{which}_scalar_cpu")


#: the scalar kernels' (cpu/TensorCompareKernel.cpp: clamp_scalar_kernel_impl and its
#: min and max halves); clamp with one bound runs the half's
_ALL_AND2 = "AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf)"
_CLAMP_SCALAR_CPU = AT_DISPATCH("clamp_scalar_cpu", _ALL_AND2)
_CLAMP_MIN_SCALAR_CPU = AT_DISPATCH("clamp_min_scalar_cpu", _ALL_AND2)
_CLAMP_MAX_SCALAR_CPU = AT_DISPATCH("clamp_max_scalar_cpu", _ALL_AND2)


@structured("clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> "
            "Tensor(a!)", native="at::native::clamp (structured)",
            out_native="at::native::clamp_out (structured)", source=COMPARE,
            inplace_variants="function, method", meta=META_PYTHON,
            at_dispatch=(_CLAMP_SCALAR_CPU, _CLAMP_MIN_SCALAR_CPU, _CLAMP_MAX_SCALAR_CPU),
            takes_complex=True)
def clamp(form: str, self, min: Any = None, max: Any = None, *, out):  # noqa: A002
    return _clamp_scalar("clamp", form, self, min, max, out, False)


@structured("clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::clamp_min (structured)",
            out_native="at::native::clamp_min_out (structured)", source=COMPARE,
            inplace_variants="function, method", meta=META_PYTHON,
            at_dispatch=_CLAMP_MIN_SCALAR_CPU, takes_complex=True)
def clamp_min(form: str, self, min: Any, *, out):  # noqa: A002
    return _clamp_scalar("clamp_min", form, self, min, None, out, True)


@structured("clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::clamp_max (structured)",
            out_native="at::native::clamp_max_out (structured)", source=COMPARE,
            inplace_variants="function, method", meta=META_PYTHON,
            at_dispatch=_CLAMP_MAX_SCALAR_CPU, takes_complex=True)
def clamp_max(form: str, self, max: Any, *, out):  # noqa: A002
    return _clamp_scalar("clamp_max", form, self, None, max, out, True)


# -- clamp with tensors: one TensorIterator over self and the bounds ------------------------------
def _clamp_tensor(op: str, form: str, self, lo, hi, out):
    check(lo is not None or hi is not None, RuntimeError,
          "torch.clamp: At least one of 'min' or 'max' must not be None")
    if any(t is not None and t.dtype.is_complex for t in (self, lo, hi)):
        check(lo is None or hi is None or not self.dtype.is_complex, NotImplementedError,
              "clamp is not supported for complex types")
        raise Refused(f"{op} with complex tensors is not modelled by tidx")
    bounds = [b for b in (lo, hi) if b is not None]
    if lo is not None and hi is not None:
        def loop(a, mn, mx):
            return _MINIMUM(_MAXIMUM(a, mn), mx)
    elif lo is not None:
        loop = _MAXIMUM
    else:
        loop = _MINIMUM
    # clamp_kernel_impl's AT_DISPATCH; with one bound, maximum_kernel or minimum_kernel,
    # which take every dtype (bool by its own branch)
    both = lo is not None and hi is not None
    return iterate(_form_name(op, form), [self, *bounds], loop, out=out, resize=form == OUT,
                   source=COMPARE_KERNEL, at_dispatch=both)


@structured("clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, "
            "Tensor(a!) out) -> Tensor(a!)", native="at::native::clamp (structured, Tensor)",
            out_native="at::native::clamp_Tensor_out (structured)", source=COMPARE,
            inplace_variants="function, method", meta=META_PYTHON, device_check=CHECK_WRAPPER,
            # clamp_kernel_impl's (cpu/TensorCompareKernel.cpp), when both bounds are given
            at_dispatch=AT_DISPATCH("clamp_cpu", _ALL_AND2), takes_complex=True)
def clamp_tensor(form: str, self, min=None, max=None, *, out):  # noqa: A002
    return _clamp_tensor("clamp", form, self, min, max, out)


@structured("clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::clamp_min (structured, Tensor)",
            out_native="at::native::clamp_min_Tensor_out (structured)", source=COMPARE,
            inplace_variants="function, method", meta=META_PYTHON, device_check=CHECK_WRAPPER)
def clamp_min_tensor(form: str, self, min, *, out):  # noqa: A002
    return _clamp_tensor("clamp_min", form, self, min, None, out)


@structured("clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::clamp_max (structured, Tensor)",
            out_native="at::native::clamp_max_Tensor_out (structured)", source=COMPARE,
            inplace_variants="function, method", meta=META_PYTHON, device_check=CHECK_WRAPPER)
def clamp_max_tensor(form: str, self, max, *, out):  # noqa: A002
    return _clamp_tensor("clamp_max", form, self, None, max, out)


# -- isclose: a composite of the operators above ----------------------------------------------------
def _cpp_double(value: float) -> str:
    """A double as C++'s ostream prints it (6 significant digits, %g)."""
    return f"{value:g}"


@declare("isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
         "bool equal_nan=False) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::isclose", source=COMPARE)
def isclose(self, other, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False):
    """``|self - other| <= atol + rtol * |other|`` where the error is finite, or equal
    (or both NaN with equal_nan), in the operators TensorCompare.cpp calls."""
    check(self.dtype is other.dtype, RuntimeError,
          f"{D.cpp_name(self.dtype)} did not match {D.cpp_name(other.dtype)}")
    rtol, atol = float(rtol), float(atol)
    check(rtol >= 0, RuntimeError,
          f"rtol must be greater than or equal to zero, but got {_cpp_double(rtol)}")
    check(atol >= 0, RuntimeError,
          f"atol must be greater than or equal to zero, but got {_cpp_double(atol)}")
    close = aten.eq.Tensor(self, other)
    if equal_nan and self.dtype.is_floating_point:
        # torch 2.13 ands the two NaN masks in place when they have one shape, and with a
        # new tensor when they broadcast (what torch.profiler records for each)
        nan_self, nan_other = aten.isnan.default(self), aten.isnan.default(other)
        both = (aten.__iand__.Tensor if self.view.sizes == other.view.sizes
                else aten.bitwise_and.Tensor)(nan_self, nan_other)
        aten.__ior__.Tensor(close, both)
    if rtol == 0 and atol == 0:
        return close
    default = current().default_dtype
    cast_self = aten.to.dtype(self, default) if self.dtype is D.bool else self
    cast_other = (aten.to.dtype(other, default)
                  if not self.dtype.is_floating_point else other)
    allowed = aten.add.Tensor(
                   aten.abs.default(aten.mul.Tensor(cast_other, rtol)), atol)
    actual = aten.abs.default(aten.sub.Tensor(cast_self, cast_other))
    finite = aten.isfinite.default(actual)
    within = aten.le.Tensor(actual, allowed)
    return aten.__ior__.Tensor(close, aten.__iand__.Tensor(finite, within))


# -- aliases: greater, less, greater_equal, less_equal, not_equal (BinaryOps.cpp) ---------------
for _alias, _of in (("greater", "gt"), ("less", "lt"), ("greater_equal", "ge"),
                    ("less_equal", "le"), ("not_equal", "ne")):
    for _schema, _variants in (
            (f"{_alias}.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
             "function"),
            (f"{_alias}.Scalar(Tensor self, Scalar other) -> Tensor", "method, function"),
            (f"{_alias}.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
             "function"),
            (f"{_alias}.Tensor(Tensor self, Tensor other) -> Tensor", "method, function"),
            (f"{_alias}_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "method"),
            (f"{_alias}_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "method")):
        alias(_schema, of=_of, source=BINARY, variants=_variants)
