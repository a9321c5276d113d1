"""Scalar types with torch's names (c10/core/ScalarType.h).

>>> str(int64), repr(float32), int64.itemsize
('torch.int64', 'torch.float32', 8)
>>> float16.is_floating_point, uint8.is_signed
(True, False)
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from engine.core.errors import Refused


class dtype:
    """A torch scalar type: a name, an item size and the numpy type used for storage."""

    __tp_name__ = "torch.dtype"   # Py_TYPE(obj)->tp_name in torch's messages

    __slots__ = ("name", "itemsize", "np", "is_floating_point", "is_signed", "is_complex",
                 "short")

    def __init__(self, name: str, np_type: type, short: str) -> None:
        self.name = name
        self.np: np.dtype[Any] = np.dtype(np_type)
        self.itemsize = self.np.itemsize
        self.is_floating_point = self.np.kind == "f"
        #: torch's complex types: one element is two of its real type, real half first
        self.is_complex = self.np.kind == "c"
        self.is_signed = self.np.kind in "fic"
        #: the abbreviation used in trace summaries (``i64[3, 3]``), as _debug_mode does
        self.short = short

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    __str__ = __repr__

    def __tidx_summary__(self, max_values: int) -> dict:
        """tracer/values.py's ``dtype`` shape."""
        return {"kind": "dtype", "name": self.name, "short": self.short}

    def __reduce__(self):  # pickles/copies as the singleton
        return (from_name, (self.name,))


bool = dtype("bool", np.bool_, "b8")  # noqa: A001 - torch's own name
uint8 = dtype("uint8", np.uint8, "u8")
int8 = dtype("int8", np.int8, "i8")
int16 = dtype("int16", np.int16, "i16")
int32 = dtype("int32", np.int32, "i32")
int64 = dtype("int64", np.int64, "i64")
float16 = dtype("float16", np.float16, "f16")
float32 = dtype("float32", np.float32, "f32")
float64 = dtype("float64", np.float64, "f64")
# c10::complex<float> and c10::complex<double>: numpy's complex64/complex128 store them
# alike (real, then imaginary, each of the real type).  complex32 (ComplexHalf) numpy
# cannot store, and torch calls it experimental: tidx refuses it (COMPLEX32_REFUSED).
complex64 = dtype("complex64", np.complex64, "c64")
complex128 = dtype("complex128", np.complex128, "c128")

ALL = (bool, uint8, int8, int16, int32, int64, float16, float32, float64, complex64,
       complex128)
_BY_NAME = {d.name: d for d in ALL}
#: torch's other names of dtypes (``torch.half``, ``torch.cfloat``)
ALIASES = ("half", "float", "double", "long", "int", "short", "cfloat", "cdouble")
_BY_NAME.update({"half": float16, "float": float32, "double": float64, "long": int64,
                 "int": int32, "short": int16,
                 "cfloat": complex64, "cdouble": complex128})
#: torch.complex32 / torch.chalf: what tidx says when one is asked for
COMPLEX32_REFUSED = "torch.complex32 (ComplexHalf, experimental in torch) is not modelled by tidx"
_BY_NP = {d.np: d for d in ALL}



_CPP = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
        "int64": "Long", "float16": "Half", "float32": "Float", "float64": "Double",
        "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def cpp_name(d: dtype) -> str:
    """c10::toString(ScalarType), as errors print it: ``Long``, ``Float``.

    >>> cpp_name(int64), cpp_name(uint8)
    ('Long', 'Byte')
    """
    return _CPP[d.name]


_TYPE_META = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
              "int16": "short int", "int32": "int", "int64": "long int",
              "float16": "c10::Half", "float32": "float", "float64": "double",
              "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def type_meta_name(d: dtype) -> str:
    """caffe2::TypeMeta's name, as messages that print a ``dtype()`` say it.

    >>> type_meta_name(int64), type_meta_name(float16)
    ('long int', 'c10::Half')
    """
    return _TYPE_META[d.name]


def legacy_type_name(d: dtype, device: str = "cpu") -> str:
    """Tensor::toString(), the legacy type name messages print: ``torch.LongTensor``.

    >>> legacy_type_name(int64), legacy_type_name(float32, "meta")
    ('torch.LongTensor', 'torch.meta.FloatTensor')
    """
    prefix = "torch." if device == "cpu" else f"torch.{device}."
    return f"{prefix}{_CPP[d.name]}Tensor"


def tensor_to_string(d: dtype, device: str = "cpu") -> str:
    """Tensor::toString(): a legacy name on CPU, except bool; else Backend+Scalar+Type.

    >>> tensor_to_string(int64), tensor_to_string(bool), tensor_to_string(float32, "meta")
    ('torch.LongTensor', 'CPUBoolType', 'MetaFloatType')
    """
    if device == "cpu" and d is not bool:
        return legacy_type_name(d, device)
    backend = "CPU" if device == "cpu" else device.capitalize()
    return f"{backend}{_CPP[d.name]}Type"


def from_name(name: str) -> dtype:
    return _BY_NAME[name]


def from_numpy(np_dtype: np.dtype) -> dtype:
    """The torch dtype storing a numpy dtype.

    >>> from_numpy(np.dtype("int32"))
    torch.int32
    """
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. "
                        "The only supported types are: float64, float32, float16, int64, "
                        "int32, int16, int8, uint8, and bool.") from None


def is_integral(d: dtype, include_bool: builtins.bool) -> builtins.bool:
    """at::isIntegralType(t, includeBool)."""
    return d is not bool and d.np.kind in "iu" or (include_bool and d is bool)


def to_real(d: dtype) -> dtype:
    """c10::toRealValueType: a complex type's half (``t.real``'s dtype); others as they are.

    >>> to_real(complex64), to_real(complex128), to_real(int64)
    (torch.float32, torch.float64, torch.int64)
    """
    return {complex64: float32, complex128: float64}.get(d, d)


def to_complex(d: dtype) -> dtype:
    """c10::toComplexType of a floating type (Half's, ComplexHalf, tidx refuses).

    >>> to_complex(float32), to_complex(float64), to_complex(complex64)
    (torch.complex64, torch.complex128, torch.complex64)
    """
    if d.is_complex:
        return d
    if d is float16:
        raise Refused(COMPLEX32_REFUSED)
    return complex128 if d is float64 else complex64


def promote_types(a: dtype, b: dtype) -> dtype:
    """c10::promoteTypes for the types tidx knows.  A complex type with a floating one
    keeps the wider real half (complex64 with float64 is complex128; with float16 it is
    complex64; with Half alone torch makes ComplexHalf, which tidx refuses).

    >>> promote_types(int64, float16), promote_types(uint8, int8), promote_types(bool, int32)
    (torch.float16, torch.int16, torch.int32)
    >>> promote_types(complex64, float64), promote_types(int64, complex64)
    (torch.complex128, torch.complex64)
    """
    if a is b:
        return a
    if a is bool:
        return b
    if b is bool:
        return a
    if a.is_complex or b.is_complex:
        halves = [to_real(a) if a.is_complex else a, to_real(b) if b.is_complex else b]
        floats = [h for h in halves if h.is_floating_point]
        return to_complex(floats[0] if len(floats) == 1 else
                          (floats[0] if floats[0].itemsize >= floats[1].itemsize else floats[1]))
    if a.is_floating_point != b.is_floating_point:
        return a if a.is_floating_point else b
    if a.is_floating_point:
        return a if a.itemsize >= b.itemsize else b
    # Both integral: uint8 with a signed type needs the next signed width.
    if a is uint8 or b is uint8:
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if a.itemsize >= b.itemsize else b
