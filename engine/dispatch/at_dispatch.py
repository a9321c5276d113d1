"""The dtypes a kernel's ``AT_DISPATCH`` accepts, declared with its operator, and the
error for any other.

A CPU kernel switches on the dtype with a macro of aten/src/ATen/Dispatch.h, e.g.
``AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, dtype, "arange_cpu", ...)``; a dtype
outside its set falls to the macro's default case, which raises::

    NotImplementedError: "arange_cpu" not implemented for 'Bool'

(``AT_ERROR(#NAME, " not implemented for '", toString(_st), "'")`` in Dispatch.h).

Which macro a kernel runs under is a fact of the operator, so it is written in the
operator's declaration, in the macro's own words (without the dtype and the lambda)::

    @declare("arange.start_out(...)", ...,
             at_dispatch=AT_DISPATCH("arange_cpu", "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"))

and the kernel says only *where* it switches (:func:`dispatched`, or
``pointwise.iterate(..., at_dispatch=True)`` once TensorIterator has built), so the steps
before the raise are the C++ kernel's.  The sets are the macros' own over the dtypes tidx
has: complex64 and complex128 but not ComplexHalf, no bfloat16, no barebones unsigned types
(an ``_AND`` naming them adds nothing here, but is kept for the reader who compares it
with the kernel).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import torch_error

#: AT_INTEGRAL_TYPES (Dispatch.h): Byte, Char, Short, Int, Long.
INTEGRAL_TYPES = frozenset({D.uint8, D.int8, D.int16, D.int32, D.int64})
#: AT_FLOATING_TYPES: Double, Float.
FLOATING_TYPES = frozenset({D.float32, D.float64})
#: AT_ALL_TYPES: the integral and floating types (no Bool, no Half).
ALL_TYPES = INTEGRAL_TYPES | FLOATING_TYPES
#: AT_DISPATCH_INDEX_TYPES: the index types, Int and Long.
INDEX_TYPES = frozenset({D.int32, D.int64})

#: AT_COMPLEX_TYPES: ComplexFloat, ComplexDouble.
COMPLEX_TYPES = frozenset({D.complex64, D.complex128})
#: The macros' base sets (``AT_DISPATCH_<base>[_AND<n>]``).
_BASES: dict[str, frozenset[D.dtype]] = {
    "ALL_TYPES": ALL_TYPES,
    "ALL_TYPES_AND_COMPLEX": ALL_TYPES | COMPLEX_TYPES,
    "FLOATING_TYPES": FLOATING_TYPES,
    "FLOATING_AND_COMPLEX_TYPES": FLOATING_TYPES | COMPLEX_TYPES,
    "COMPLEX_TYPES": COMPLEX_TYPES,
    "INTEGRAL_TYPES": INTEGRAL_TYPES,
    "INDEX_TYPES": INDEX_TYPES,
    "REDUCED_FLOATING_TYPES": frozenset({D.float16}),   # Half and BFloat16
}
#: The ScalarTypes an ``_AND`` part may name: tidx's dtype, or None for one tidx lacks.
_EXTRAS: dict[str, D.dtype | None] = {
    "kHalf": D.float16, "kBool": D.bool, "kBFloat16": None, "kComplexHalf": None,
    "kFloat8_e5m2": None, "kFloat8_e4m3fn": None, "kUInt16": None, "kUInt32": None,
    "kUInt64": None,
}
_MACRO = re.compile(r"AT_DISPATCH_(?P<base>[A-Z_]+?)(?:_AND(?P<n>\d?)\((?P<extra>[\w, ]+)\))?")


def _types(macro: str) -> frozenset[D.dtype]:
    """The dtypes ``macro`` accepts.

    >>> sorted(d.name for d in _types("AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
    ['float16', 'float32', 'float64']
    >>> sorted(d.name for d in _types("AT_DISPATCH_INDEX_TYPES"))
    ['int32', 'int64']
    """
    m = _MACRO.fullmatch(macro)
    if m is None or m["base"] not in _BASES:
        raise ValueError(f"not an AT_DISPATCH macro tidx knows: {macro!r}")
    extras = [e.strip() for e in m["extra"].split(",")] if m["extra"] else []
    if len(extras) != int(m["n"] or (1 if extras else 0)) or \
            any(e not in _EXTRAS for e in extras):
        raise ValueError(f"the _AND part of {macro!r} does not name its ScalarTypes")
    return _BASES[m["base"]] | {d for e in extras if (d := _EXTRAS[e]) is not None}


@dataclass(frozen=True)
class AtDispatch:
    """An ``AT_DISPATCH_<set>(..., dtype, NAME, ...)`` inside an operator's kernel: the
    ``NAME`` its error shows and the macro, as the C++ kernel writes them.  A kernel that
    branches before dispatching (``if (isIntegralType(dtype)) AT_DISPATCH_INTEGRAL_TYPES(dtype,
    "div_trunc_cpu", ...) else AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, dtype,
    "div_trunc_cpu", ...)``) names every branch's macro, and ``"if kBool"`` for a branch
    that takes a dtype without a macro (bitwise_and's ``if (dtype == kBool)``): a dtype
    that no branch takes raises, as the branch it falls to does.  Built with
    :func:`AT_DISPATCH`."""

    name: str                   # "arange_cpu"
    macros: tuple[str, ...]     # ("AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)",)

    def __post_init__(self) -> None:
        self.types      # a macro tidx does not know fails at import, not at run

    @property
    def types(self) -> frozenset[D.dtype]:
        return frozenset().union(*(_branch(m) for m in self.macros))

    def check(self, dtype: D.dtype) -> None:
        """Raise what the macro's default case raises for ``dtype``."""
        if dtype not in self.types:
            raise not_implemented(self.name, dtype)


def AT_DISPATCH(name: str, *macros: str) -> AtDispatch:  # noqa: N802 (the macro's name)
    """``AT_DISPATCH("arange_cpu", "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)")``."""
    return AtDispatch(name, macros)


def _branch(text: str) -> frozenset[D.dtype]:
    if text.startswith("if "):
        dtype = _EXTRAS.get(text[3:])
        if dtype is None:
            raise ValueError(f"not a branch on a tidx ScalarType: {text!r}")
        return frozenset({dtype})
    return _types(text)


def not_implemented(name: str, dtype: D.dtype) -> BaseException:
    """The error of an ``AT_DISPATCH`` named ``name`` given ``dtype``, with torch's text.

    >>> str(not_implemented("arange_cpu", D.bool))
    '"arange_cpu" not implemented for \\'Bool\\''
    """
    return torch_error(NotImplementedError,
                       f'"{name}" not implemented for \'{D.cpp_name(dtype)}\'')


class Running:
    """The operator whose kernel is running (this run's: ``current().local(Running)``),
    set by the dispatcher around each kernel, so that :func:`dispatched` reads the
    AT_DISPATCHes its declaration declares."""

    __slots__ = ("op", "dispatches")

    def __init__(self) -> None:
        self.op = ""
        self.dispatches: tuple[AtDispatch, ...] = ()


def dispatched(dtype: D.dtype, name: str | None = None) -> None:
    """The running operator's kernel switches on ``dtype`` here: raise what its declared
    ``AT_DISPATCH`` raises for a dtype outside the set.  ``name`` picks one when the
    declaration names several (a kernel whose branches dispatch differently, like clamp's
    ``clamp_scalar_cpu`` / ``clamp_min_scalar_cpu``)."""
    running = current().local(Running)
    found = [d for d in running.dispatches if name is None or d.name == name]
    assert len(found) == 1, \
        f"{running.op or 'no operator'} declares no single AT_DISPATCH {name or ''}"
    found[0].check(dtype)
