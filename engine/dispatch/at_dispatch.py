"""The dtypes a kernel's ``AT_DISPATCH`` accepts, and the error for any other.

A CPU kernel switches on the dtype with a macro of aten/src/ATen/Dispatch.h, e.g.
``AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, dtype, "arange_cpu", ...)``; a dtype
outside its set falls to the macro's default case, which raises::

    NotImplementedError: "arange_cpu" not implemented for 'Bool'

(``AT_ERROR(#NAME, " not implemented for '", toString(_st), "'")`` in Dispatch.h).  The
sets below are the macros' own, over the dtypes tidx has (no complex, no bfloat16 and no
barebones unsigned types: a set's ``_AND`` part names them anyway, for the reader).  A
kernel says which macro it is under::

    at_dispatch("arange_cpu", dtype, ALL_TYPES_AND2_HALF_BFLOAT16)
"""

from __future__ import annotations

from engine.core import dtypes as D
from engine.core.errors import torch_error

#: AT_INTEGRAL_TYPES (Dispatch.h): Byte, Char, Short, Int, Long.
INTEGRAL_TYPES = frozenset({D.uint8, D.int8, D.int16, D.int32, D.int64})
#: AT_FLOATING_TYPES: Double, Float.
FLOATING_TYPES = frozenset({D.float32, D.float64})
#: AT_ALL_TYPES: the integral and floating types (no Bool, no Half).
ALL_TYPES = INTEGRAL_TYPES | FLOATING_TYPES
#: AT_DISPATCH_INDEX_TYPES: the index types, Int and Long.
INDEX_TYPES = frozenset({D.int32, D.int64})

#: The ``_AND`` forms tidx's kernels use.  BFloat16 and the complex types are not tidx
#: dtypes: ``ALL_TYPES_AND_COMPLEX_AND2(Half, BFloat16)`` is ALL_TYPES and Half here.
FLOATING_TYPES_AND2_HALF_BFLOAT16 = FLOATING_TYPES | {D.float16}
ALL_TYPES_AND_HALF = ALL_TYPES | {D.float16}
ALL_TYPES_AND2_HALF_BFLOAT16 = ALL_TYPES | {D.float16}
ALL_TYPES_AND_COMPLEX_AND2_HALF_BFLOAT16 = ALL_TYPES | {D.float16}


def not_implemented(name: str, dtype: D.dtype) -> BaseException:
    """The error of an ``AT_DISPATCH`` named ``name`` given ``dtype``, with torch's text.

    >>> str(not_implemented("arange_cpu", D.bool))
    '"arange_cpu" not implemented for \\'Bool\\''
    """
    return torch_error(NotImplementedError,
                       f'"{name}" not implemented for \'{D.cpp_name(dtype)}\'')


def at_dispatch(name: str, dtype: D.dtype, types: frozenset[D.dtype]) -> None:
    """Raise what the ``AT_DISPATCH`` named ``name`` over ``types`` raises for ``dtype``."""
    if dtype not in types:
        raise not_implemented(name, dtype)
