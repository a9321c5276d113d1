"""Bitwise and logical operators: bitwise_and/or/xor/not, the ``&``, ``|``, ``^`` operators
(``__and__`` ... and in place ``__iand__`` ...), logical_and/or/xor/not
(aten/src/ATen/native/BinaryOps.cpp, UnaryOps.cpp, cpu/BinaryOpsKernel.cpp).

The bitwise kernels are TensorIterator binary ops over integers and bools only (a float
common dtype finds no AT_DISPATCH case).  The logical ones are comparison-style: any
dtype goes in, the result is a truth value, and the functional form allocates its bool
result with ``at::empty({0})`` before calling its out= overload -- the nesting
torch.profiler shows (``aten::logical_and > aten::empty, aten::logical_and``).
"""

from __future__ import annotations

import numpy as np

from engine.core import dtypes as D
from engine.core.errors import check
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import (COMPOSITE, INPLACE, META_PYTHON, OUT, OUT_NOT_MODELLED,
                                          declare, not_modelled, structured)
from engine.dispatch.aten import aten
from engine.ops.pointwise import BINARY, UNARY, iterate, operand

_BITWISE: dict[str, np.ufunc] = {"bitwise_and": np.bitwise_and,
                                  "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor}


def _bitwise(name: str, loop) -> None:
    """X.Tensor_out, structured, with X.Tensor and X_.Tensor; X.Scalar, X_.Scalar and
    X.Scalar_Tensor (CompositeExplicitAutograd in torch): one loop."""
    # bitwise_and_kernel and its siblings (cpu/BinaryOpsKernel.cpp): a bool branch, then
    # AT_DISPATCH_INTEGRAL_TYPES, where a floating dtype finds no case
    dispatch = AT_DISPATCH(f"{name}_cpu", "if kBool", "AT_DISPATCH_INTEGRAL_TYPES")

    def impl(form: str, self, other, *, out):
        return iterate(name + "_" if form == INPLACE else name, [self, other], loop, out=out,
                       resize=form == OUT, at_dispatch=True)
    structured(f"{name}.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
               native=f"at::native::{name}", out_native=f"at::native::{name}_out (structured)",
               source=BINARY, variants="method, function", meta=META_PYTHON,
               at_dispatch=dispatch)(impl)

    def fn(self, other_):
        return iterate(name, [self, other_], loop, at_dispatch=True)

    def fn_(self, other_):
        return iterate(name + "_", [self, other_], loop, out=self, at_dispatch=True)
    declare(f"{name}.Scalar(Tensor self, Scalar other) -> Tensor",
            variants="method, function", native=f"at::native::{name}",
            source=BINARY, meta=META_PYTHON, at_dispatch=dispatch)(fn)
    declare(f"{name}_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
            variants="method", native=f"at::native::{name}_",
            source=BINARY, meta=META_PYTHON, at_dispatch=dispatch)(fn_)

    def reflected(self, other):
        # at::name(wrapped_scalar_tensor(self), other)
        return iterate(name, [operand(self), other], loop, at_dispatch=True)
    declare(f"{name}.Scalar_Tensor(Scalar self, Tensor other) -> Tensor",
            native=f"at::native::{name}", source=BINARY, meta=META_PYTHON,
            at_dispatch=dispatch)(reflected)

    def scalar_out(self, other_, *, out):
        # CompositeExplicitAutograd: at::name_out(result, self, wrapped_scalar_tensor(other))
        return getattr(aten, name).Tensor_out(self, operand(other_), out=out)
    declare(f"{name}.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
            native=f"at::native::{name}_out", source=BINARY, meta=META_PYTHON)(scalar_out)


for _name, _loop in _BITWISE.items():
    _bitwise(_name, _loop)


def _dunder(name: str, inner: str) -> None:
    """``aten::__and__`` is a composite that calls ``bitwise_and`` (``__iand__`` calls
    ``bitwise_and_``)."""
    for overload, other in (("Tensor", "Tensor"), ("Scalar", "Scalar")):
        # the packet is named at run time (one composite per bitwise operator): the
        # overloads exist, tests/binding/test_aten_calls.py checks the names _dunder is given
        def kernel(a, b, _overload: str = overload):
            return getattr(getattr(aten, inner), _overload)(a, b)

        def kernel_(a, b, _overload: str = overload):
            return getattr(getattr(aten, f"{inner}_"), _overload)(a, b)
        declare(f"__{name}__.{overload}(Tensor self, {other} other) -> Tensor",
                variants="method, function", kind=COMPOSITE, native=f"at::native::__{name}__",
                source=BINARY)(kernel)
        declare(f"__i{name}__.{overload}(Tensor(a!) self, {other} other) -> Tensor(a!)",
                variants="method", kind=COMPOSITE, native=f"at::native::__i{name}__",
                source=BINARY)(kernel_)


_dunder("and", "bitwise_and")
_dunder("or", "bitwise_or")
_dunder("xor", "bitwise_xor")


def _invert(a):
    return np.logical_not(a) if a.dtype == np.bool_ else np.invert(a)


#: bitwise_not_kernel's (cpu/UnaryOpsKernel.cpp): a bool branch, then the integral types
_BITWISE_NOT_CPU = AT_DISPATCH("bitwise_not_cpu", "if kBool", "AT_DISPATCH_INTEGRAL_TYPES")


@structured("bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::bitwise_not (structured)",
            out_native="at::native::bitwise_not_out (structured)", source=UNARY,
            meta=META_PYTHON, at_dispatch=_BITWISE_NOT_CPU)
def bitwise_not(form: str, self, *, out):
    # build_borrowing_unary_op: check_all_same_dtype, an out= tensor included
    if form == OUT:
        check(out.dtype is self.dtype, RuntimeError,
              f"Found dtype {D.cpp_name(out.dtype)} but expected {D.cpp_name(self.dtype)}")
    return iterate("bitwise_not_" if form == INPLACE else "bitwise_not", [self], _invert,
                   out=out, resize=form == OUT, at_dispatch=True, source=UNARY)


# -- logical_and / or / xor / not ---------------------------------------------------------------
_LOGICAL: dict[str, np.ufunc] = {"logical_and": np.logical_and, "logical_or": np.logical_or,
                                 "logical_xor": np.logical_xor}


def _logical(name: str, loop) -> None:
    def truth(a, b):
        return loop(a != 0, b != 0)

    def out_kernel(self, other, *, out):
        # comparison_op: inputs promoted to their common dtype; a bool out is written
        # directly, any other through a temporary of the common dtype
        return iterate(name, [self, other], truth, out=out, resize=True, safe_cast=False,
                       cast_output=out.dtype is not D.bool)

    def functional(self, other):
        result = aten.empty.memory_format([0], dtype=D.bool, device=self.device_type)
        return getattr(aten, name).out(self, other, out=result)

    def inplace(self, other):
        # logical_and_out(self, self, other): self is written, so its shape must already
        # be the broadcast one
        return getattr(aten, name).out(self, other, out=self)
    declare(f"{name}(Tensor self, Tensor other) -> Tensor", variants="function, method",
            native=f"at::native::{name}", source=BINARY, meta=META_PYTHON)(functional)
    declare(f"{name}_(Tensor(a!) self, Tensor other) -> Tensor(a!)", variants="method",
            native=f"at::native::{name}_", source=BINARY, meta=META_PYTHON)(inplace)
    declare(f"{name}.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", 
            native=f"at::native::{name}_out", source=BINARY, meta=META_PYTHON)(out_kernel)


for _name, _loop in _LOGICAL.items():
    _logical(_name, _loop)


@declare("logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::logical_not_out", source=UNARY,
         meta=META_PYTHON)
def logical_not_out(self, *, out):
    # check_all_same_dtype(false) and no promotion: the loop reads self's dtype and
    # writes out's
    return iterate("logical_not", [self], lambda a: a == 0, out=out, resize=True,
                   safe_cast=False, cast_output=False, source=UNARY)


@declare("logical_not(Tensor self) -> Tensor", variants="function, method",
         native="at::native::logical_not", source=UNARY,
         meta=META_PYTHON)
def logical_not(self):
    result = aten.empty.memory_format([0], dtype=D.bool, device=self.device_type)
    return aten.logical_not.out(self, out=result)


@declare("logical_not_(Tensor(a!) self) -> Tensor(a!)", variants="method",
         native="at::native::logical_not_", source=UNARY,
         meta=META_PYTHON)
def logical_not_(self):
    return aten.logical_not.out(self, out=self)



