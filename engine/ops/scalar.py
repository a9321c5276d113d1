"""Python numbers inside ATen: c10::Scalar conversions and 0-dim scalar tensors.

``to_dtype_scalar`` is ``Scalar::to<T>()`` with c10::checked_convert's overflow checks
(c10/util/TypeCast.h); ``scalar_tensor_static`` is at::detail::scalar_tensor_static
(aten/src/ATen/ScalarOps.h), how setitem and wrapped numbers become tensors without
any operator the profiler would see.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, Lecture, StepSpec, inlined, step, symbol

from engine.core import dtypes as D
from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl
from engine.memory import empty as memory
from engine.ops.touch import touched


def to_dtype_scalar(value: Any, dtype: D.dtype, type_name: str | None = None) -> Any:
    """Scalar::to<T>() via c10::checked_convert (c10/util/TypeCast.h, overflows()).

    Integral targets refuse values outside their range and NaN/inf; an *integer* may
    wrap into an unsigned type when it is a small negative (two's complement: -3 is 253
    as uint8), a float may not (-1.5 overflows uint8); floats truncate toward zero.
    float32 and float16 refuse finite values beyond their max; float64 takes anything.
    ``type_name`` is the name the message gives the type (``Scalar::to`` says the C++
    type, ``uint8_t``; torch.tensor's store_scalar says ``uint8``).

    >>> to_dtype_scalar(-1, D.uint8), to_dtype_scalar(3.7, D.int64), to_dtype_scalar(-3.7, D.int8)
    (255, 3, -3)
    >>> to_dtype_scalar(300, D.int8)
    Traceback (most recent call last):
    ...
    RuntimeError: value cannot be converted to type int8_t without overflow
    >>> to_dtype_scalar(-1.5, D.uint8, "uint8")
    Traceback (most recent call last):
    ...
    RuntimeError: value cannot be converted to type uint8 without overflow
    """
    if dtype.is_complex:
        value = complex(value)
        # c10::overflows<c10::complex<float>>: either half beyond float's max
        if dtype is D.complex64 and any(
                abs(h) != float("inf") and abs(h) > _FLT_MAX for h in (value.real, value.imag)):
            raise _overflow(dtype, type_name)
        return value
    if isinstance(value, complex):
        # c10::overflows of a complex into a real type: a nonzero imaginary part overflows
        if value.imag != 0:
            raise _overflow(dtype, type_name)
        value = value.real
    if dtype is D.bool:
        return bool(value)
    if dtype.is_floating_point:
        value = float(value)
        # c10::overflows: a finite value beyond the type's max (inf and NaN pass); Half's
        # max is 65504 (numeric_limits<c10::Half>)
        limit = {"float32": _FLT_MAX, "float16": _HALF_MAX}.get(dtype.name)
        if limit is not None and abs(value) != float("inf") and abs(value) > limit:
            raise _overflow(dtype, type_name)
        return value
    info = np.iinfo(dtype.np)
    if isinstance(value, float):
        # c10::overflows compares in double: int64's max becomes 2**63, so 2.0**63 passes
        # and converts as x86's cvttsd2si does, to INT64_MIN
        if value != value or not float(info.min) <= value <= float(info.max):
            raise _overflow(dtype, type_name)                      # NaN, inf, out of range
        if value >= 2.0**63:
            return -(2**63)
        return int(value)                                          # truncates toward zero
    if info.min == 0:
        ok = value <= info.max and not (value < 0 and -int(value) > info.max)
    else:
        ok = info.min <= value <= info.max
    if not ok:
        raise _overflow(dtype, type_name)
    return int(value) % (info.max + 1) if info.min == 0 else int(value)


_FLT_MAX = float(np.finfo(np.float32).max)
_HALF_MAX = float(np.finfo(np.float16).max)


def _overflow(dtype: D.dtype, type_name: str | None = None) -> BaseException:
    name = type_name or {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t",
                         "int32": "int", "int64": "int64_t", "float32": "float",
                         "float16": "c10::Half", "float64": "double",
                         "complex64": "c10::complex<float>"}[dtype.name]
    return torch_error(RuntimeError, f"value cannot be converted to type {name} without overflow")


def real_part(value: Any, dtype: D.dtype) -> Any:
    """Scalar::to<int64_t>() or to<double>() of a Python scalar (``int(t)``, ``float(t)``):
    a complex one converts only without an imaginary part (c10::overflows).

    >>> real_part(2 + 0j, D.int64), real_part(1.5, D.float64)
    (2.0, 1.5)
    """
    if isinstance(value, complex):
        if value.imag != 0:
            raise _overflow(dtype)
        return value.real
    return value


def scalar_type(value: Any) -> D.dtype:
    """c10::Scalar::type() of a Python number: bool, int64 for integers, double otherwise
    (the dtype scalar_to_tensor and wrapped numbers get).

    >>> scalar_type(True), scalar_type(3), scalar_type(2.5)
    (torch.bool, torch.int64, torch.float64)
    """
    if isinstance(value, (bool, np.bool_)):
        return D.bool
    if isinstance(value, (complex, np.complexfloating)):
        return D.complex128
    return D.int64 if isinstance(value, (int, np.integer)) else D.float64


SCALAR_TENSOR_STATIC = step("scalar_tensor_static", Layer.BINDING,
                            source="aten/src/ATen/ScalarOps.h", note="scalar.scalar_tensor_static",
                            libtorch=symbol("at::detail::scalar_tensor_static"),
                            lecture=Lecture.HIDDEN)
SCALAR_FILL = step("scalar_fill", Layer.KERNEL, source="aten/src/ATen/ScalarOps.cpp",
                   note="scalar.scalar_fill",
                   libtorch=inlined("at::detail::scalar_fill", "at::detail::scalar_tensor_static"))


def scalar_tensor_static(value: Any, dtype: D.dtype, device: str) -> TensorImpl:
    """at::detail::scalar_tensor_static (ATen/ScalarOps.h): a 0-dim tensor made with
    empty_cpu and scalar_fill directly: no operator, so the profiler sees nothing."""
    with span(SCALAR_TENSOR_STATIC, value=value, dtype=str(dtype)) as s:
        result = memory.empty_generic((), dtype, device)
        with span(SCALAR_FILL) as k:
            scalar = to_dtype_scalar(value, dtype)
            if device != "meta":
                result.array(write=True)[...] = scalar
                k.set(written=touched(result))
        s.set_result(result)
        return result


#: the C++ functions that wrap a Python number (wrapped_scalar_tensor's ``where``)
TENSOR_SLOW = step("PythonArgs::tensor_slow", Layer.BINDING,
                   source="torch/csrc/utils/python_arg_parser.cpp", note="scalar.wrapped_number",
                   libtorch=symbol("torch::PythonArgs::tensor_slow"))
WRAPPED_SCALAR_TENSOR = step("wrapped_scalar_tensor", Layer.BINDING,
                             source="aten/src/ATen/ScalarOps.h", note="scalar.wrapped_number")


def wrapped_scalar_tensor(value: Any, where: StepSpec) -> TensorImpl:
    """A Python number beside a tensor becomes a 0-dim CPU tensor flagged as a wrapped
    number: scalar_to_tensor -> scalar_tensor_static (8 bytes from the CPU allocator for
    an int64 or double, 1 for a bool), then set_wrapped_number(true).  ``where`` is the
    C++ function that does it: PythonArgs::tensor_slow in the binding when the number
    binds to a Tensor parameter (add, sub, mul, div ...: should_allow_numbers_as_tensors),
    at::wrapped_scalar_tensor (aten/src/ATen/ScalarOps.h) inside an operator's Scalar
    overload (gt.Scalar's meta function ...).  The profiler sees the allocation only."""
    with span(where, value=value) as s:
        tensor = scalar_tensor_static(value, scalar_type(value), "cpu")
        tensor.wrapped_number = True
        s.set_result(tensor)
        return tensor

