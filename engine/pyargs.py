"""PythonArgParser's checks and messages for the factory bindings.

torch/csrc/utils/python_arg_parser.cpp parses every ``torch.*`` call against the
function's signatures.  When none matches, a function with one signature names
the argument that failed ("zeros(): argument 'dtype' must be torch.dtype, not
str"); one with several lists them all ("randn() received an invalid
combination of arguments - got (tuple, dtype=str), but expected one of: ...").
tidx reproduces both forms for the arguments its factories take.
"""

from __future__ import annotations

from typing import Any

from . import dtypes as D
from .device import SUPPORTED, device as Device
from .errors import Refused, torch_error
from .signatures import SIGNATURES

#: The memory formats, as torch names them.
MEMORY_FORMATS = ("contiguous_format", "channels_last", "preserve_format")


class memory_format:
    """``torch.channels_last`` and friends: named constants."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
preserve_format = memory_format("preserve_format")


def type_name(value: Any) -> str:
    """The name PythonArgParser prints for a value's type."""
    from ._tensor import Tensor
    if isinstance(value, Tensor):
        return "Tensor"
    return type(value).__name__


def _fail(fname: str, args: tuple, kwargs: dict, param: str, expected: str,
          value: Any, position: int | None) -> BaseException:
    if fname in SIGNATURES:
        got = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in kwargs.items()]
        return torch_error(TypeError, f"{fname}() received an invalid combination of arguments "
                                      f"- got ({', '.join(got)}), but expected one of:\n"
                                      f"{SIGNATURES[fname]}")
    where = f" (position {position})" if position is not None else ""
    return torch_error(TypeError, f"{fname}(): argument '{param}'{where} must be {expected}, "
                                  f"not {type_name(value)}")


def check_keywords(fname: str, args: tuple, kwargs: dict, allowed: tuple[str, ...]) -> None:
    for key in kwargs:
        if key not in allowed:
            if fname in SIGNATURES:
                raise _fail(fname, args, kwargs, key, "", kwargs[key], None)
            raise torch_error(TypeError, f"{fname}() got an unexpected keyword argument "
                                         f"'{key}'")


def size_arg(fname: str, args: tuple, kwargs: dict, position: int = 1) -> tuple[int, ...]:
    """An IntArrayRef given as varargs (``f(2, 3)``) or one sequence (``f((2, 3))``)."""
    size = args
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        size = tuple(args[0])
    for s in size:
        if isinstance(s, bool) or not isinstance(s, int):
            if len(args) == 1 and not isinstance(args[0], (list, tuple)):
                raise torch_error(TypeError, f"{fname}(): argument 'size' (position {position}) "
                                             f"must be tuple of ints, not {type_name(s)}")
            raise torch_error(TypeError, f"{fname}(): argument 'size' (position {position}) "
                                         f"must be tuple of ints, but found element of type "
                                         f"{type_name(s)} at pos {size.index(s)}")
    return tuple(int(s) for s in size)


def int_arg(fname: str, args: tuple, kwargs: dict, name: str, value: Any,
            position: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(fname, args, kwargs, name, "int", value, position)
    return value


def number_arg(fname: str, args: tuple, kwargs: dict, name: str, value: Any,
               position: int) -> int | float | bool:
    if not isinstance(value, (int, float, bool)):
        raise _fail(fname, args, kwargs, name, "Number", value, position)
    return value


def options(fname: str, args: tuple, kwargs: dict, default_dtype: D.dtype | None,
            like: Any = None) -> tuple[D.dtype, str, bool]:
    """dtype, device and requires_grad, checked as the binding checks them."""
    dtype = kwargs.get("dtype")
    if dtype is not None and not isinstance(dtype, D.dtype):
        raise _fail(fname, args, kwargs, "dtype", "torch.dtype", dtype, None)
    device = kwargs.get("device")
    if device is not None and not isinstance(device, (str, Device)):
        raise _fail(fname, args, kwargs, "device", "torch.device", device, None)
    requires_grad = kwargs.get("requires_grad", False)
    if not isinstance(requires_grad, bool):
        raise _fail(fname, args, kwargs, "requires_grad", "bool", requires_grad, None)
    if dtype is None:
        dtype = like.dtype if like is not None else default_dtype
    if device is None:
        dev = like._device_type if like is not None else "cpu"
    else:
        dev = Device(device).type
        if dev == "cuda":
            raise torch_error(AssertionError, "Torch not compiled with CUDA enabled")
        if dev not in SUPPORTED:
            raise Refused(f"tidx runs the cpu and meta devices only (got device='{device}')")
    return dtype, dev, requires_grad


def memory_format_arg(fname: str, args: tuple, kwargs: dict,
                      default: memory_format | None) -> memory_format | None:
    fmt = kwargs.get("memory_format", default)
    if fmt is not None and not isinstance(fmt, memory_format):
        raise _fail(fname, args, kwargs, "memory_format", "torch.memory_format", fmt, None)
    return fmt
