"""``torch.*`` functions: the Python entry, the binding's argument parsing, the call.

Mirrors the generated bindings (torch/csrc/autograd/generated/python_torch_functions_*.cpp,
"THPVariable_randn" and friends) and torch/csrc/utils/tensor_new.cpp
(``internal_new_from_data`` for ``torch.tensor``): Python arguments become C++
sizes and TensorOptions, the aten operator is called through the dispatcher, and
the result is wrapped back into a Python object.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.recorder import span

from . import dtypes as D
from . import generator as G
from . import memory
from .binding import THPVariable_Wrap
from .device import SUPPORTED, device as Device
from .dispatcher import call
from .errors import Refused, check, torch_error
from .ops.copy import to_dtype_scalar

GEN = "torch/csrc/autograd/generated/python_torch_functions.cpp"
TENSOR_NEW = "torch/csrc/utils/tensor_new.cpp"


def _parse_size(fname: str, size: tuple) -> tuple[int, ...]:
    """IntArrayRef parsing: ``f(3, 4)`` and ``f((3, 4))`` both mean sizes [3, 4]."""
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    for s in size:
        if isinstance(s, bool) or not isinstance(s, int):
            raise torch_error(TypeError, f"{fname}(): argument 'size' (position 1) must be "
                                         f"tuple of ints, but found element of type "
                                         f"{type(s).__name__} at pos 0")
    return tuple(size)


def _parse_options(fname: str, dtype: Any, device: Any, requires_grad: bool,
                   default: D.dtype) -> tuple[D.dtype, str]:
    with span("parse TensorOptions", "binding", source=GEN,
              note="PythonArgParser turns keyword arguments into TensorOptions: dtype "
                   "(default torch.get_default_dtype()), layout strided, device, pin_memory",
              dtype=str(dtype) if dtype is not None else None,
              device=str(device) if device is not None else None) as s:
        if dtype is not None and not isinstance(dtype, D.dtype):
            raise torch_error(TypeError, f"{fname}() received an invalid combination of "
                                         f"arguments - got (dtype={type(dtype).__name__})")
        dtype = dtype or default
        dev = Device(device if device is not None else "cpu")
        if dev.type not in SUPPORTED:
            raise Refused(f"tidx runs the cpu and meta devices only (got device='{dev}')")
        if requires_grad:
            raise Refused("requires_grad=True is not supported yet: tidx has no autograd")
        s.set_result({"dtype": str(dtype), "layout": "torch.strided", "device": dev.type,
                      "pin_memory": False})
        return dtype, dev.type


def _entry(name: str, note: str, **args: Any) -> Any:
    return span(f"torch.{name}", "python", source="torch/__init__.py", note=note, **args)


def randn(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False):
    """torch.randn(*size): empty + normal_(0, 1)."""
    with _entry("randn", "torch.randn is imported from torch._C._VariableFunctions: a "
                "generated C++ binding", size=list(size)) as py:
        with span("THPVariable_randn", "binding", source=GEN,
                  note="parse the Python arguments, build TensorOptions, call at::randn"):
            sizes = _parse_size("randn", size)
            dtype, dev = _parse_options("randn", dtype, device, requires_grad,
                                        D.default_float)
            result = call("aten::randn", sizes, dtype=dtype, device=dev)
        result = THPVariable_Wrap(result)
        py.set_result(result)
        return result


def empty(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False, memory_format: Any = None):
    with _entry("empty", "uninitialised memory: whatever bytes the allocator returned",
                size=list(size)) as py:
        with span("THPVariable_empty", "binding", source=GEN,
                  note="parse the Python arguments, build TensorOptions, call at::empty"):
            sizes = _parse_size("empty", size)
            dtype, dev = _parse_options("empty", dtype, device, requires_grad, D.default_float)
            result = call("aten::empty", sizes, dtype=dtype, device=dev,
                          memory_format=memory_format)
        result = THPVariable_Wrap(result)
        py.set_result(result)
        return result


def zeros(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False):
    with _entry("zeros", "zeros = empty + zero_", size=list(size)) as py:
        with span("THPVariable_zeros", "binding", source=GEN,
                  note="parse the Python arguments, build TensorOptions, call at::zeros"):
            sizes = _parse_size("zeros", size)
            dtype, dev = _parse_options("zeros", dtype, device, requires_grad, D.default_float)
            result = call("aten::zeros", sizes, dtype=dtype, device=dev)
        result = THPVariable_Wrap(result)
        py.set_result(result)
        return result


def manual_seed(seed: int) -> None:
    with _entry("manual_seed", "reseed the default CPU generator", seed=seed):
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise torch_error(TypeError, f"manual_seed expected a long, but got "
                                         f"{type(seed).__name__}")
        G.manual_seed(seed)


# -- torch.tensor ------------------------------------------------------------------
def _infer(data: Any) -> tuple[tuple[int, ...], D.dtype]:
    """compute_sizes + infer_scalar_type (tensor_new.cpp)."""
    sizes: list[int] = []
    probe = data
    while isinstance(probe, (list, tuple)):
        sizes.append(len(probe))
        if not probe:
            break
        probe = probe[0]
    kinds: set[type] = set()

    def walk(obj: Any, dim: int) -> None:
        if dim < len(sizes):
            if not isinstance(obj, (list, tuple)):
                raise torch_error(TypeError, "not a sequence")
            if len(obj) != sizes[dim]:
                raise torch_error(ValueError, f"expected sequence of length {sizes[dim]} at "
                                              f"dim {dim} (got {len(obj)})")
            for o in obj:
                walk(o, dim + 1)
        else:
            if isinstance(obj, (list, tuple)):
                raise torch_error(ValueError, f"expected sequence of length {len(obj)}... ")
            if not isinstance(obj, (bool, int, float)):
                raise torch_error(TypeError, f"new(): invalid data type "
                                             f"'{type(obj).__name__}'")
            kinds.add(type(obj))

    walk(data, 0)
    if float in kinds:
        dtype = D.default_float
    elif int in kinds:
        dtype = D.int64
    elif bool in kinds:
        dtype = D.bool
    else:
        dtype = D.default_float  # empty data
    return tuple(sizes), dtype


def internal_new_from_data(data: Any, dtype: D.dtype | None, device: str,
                           indexing: bool = False):
    """empty(sizes) -> recursive_store -> to(device, dtype) -> lift_fresh."""
    with span("internal_new_from_data", "binding", source=TENSOR_NEW,
              note="infer sizes and dtype from the nested lists, allocate with empty, store "
                   "the Python values, then to() and lift_fresh") as s:
        sizes, inferred = _infer(data)
        if indexing and inferred is not D.bool:
            inferred = D.int64
        target = dtype if dtype is not None and not indexing else inferred
        s.set(sizes=list(sizes), inferred_dtype=str(inferred))
        tensor = call("aten::empty", sizes, dtype=inferred, device="cpu")
        with span("recursive_store", "binding", source=TENSOR_NEW,
                  note="copy each Python number into the new storage, in row-major order",
                  numel=tensor.numel()) as r:
            flat = np.asarray(_flatten(data), dtype=object)
            if inferred is D.int64 and flat.size:
                for v in (flat.min(), flat.max()):
                    check(-(2**63) <= v < 2**63, ValueError, "Overflow when unpacking long")
            if flat.size:
                tensor._array(write=True)[...] = np.asarray(flat.tolist(), dtype=inferred.np).reshape(
                    sizes)
            r.set_result(tensor)
        tensor = call("aten::to", tensor, target, device)
        tensor = call("aten::lift_fresh", tensor)
        s.set_result(tensor)
        return tensor


def _flatten(data: Any) -> list:
    if isinstance(data, (list, tuple)):
        out: list = []
        for d in data:
            out.extend(_flatten(d))
        return out
    return [data]


def tensor(data: Any, dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool = False):
    """torch.tensor(data): a new tensor that copies ``data``."""
    with _entry("tensor", "torch.tensor copies Python data into a new tensor") as py:
        with span("THPVariable_tensor", "binding", source="torch/csrc/utils/tensor_new.cpp",
                  note="tensor_ctor: build the tensor from data, then detach_ it so it "
                       "starts with no autograd history"):
            if _is_tensor(data):
                raise Refused("torch.tensor(a_tensor) is not supported; use .clone()")
            dtype_, dev = _parse_options("tensor", dtype, device, requires_grad,
                                         D.default_float)
            result = internal_new_from_data(data, dtype, dev)
            result = call("aten::detach_", result)
        result = THPVariable_Wrap(result)
        py.set_result(result)
        return result


def _is_tensor(obj: Any) -> bool:
    from ._tensor import Tensor
    return isinstance(obj, Tensor)


def scalar_tensor_static(value: Any, dtype: D.dtype, device: str):
    """at::detail::scalar_tensor_static (ATen/ScalarOps.h): a 0-dim tensor made with
    empty_cpu and scalar_fill directly: no operator, so the profiler sees nothing."""
    with span("scalar_tensor_static", "binding", source="aten/src/ATen/ScalarOps.h",
              note="empty_cpu({}) + scalar_fill, called directly: no dispatcher, no "
                   "aten operator", value=value, dtype=str(dtype)) as s:
        result = memory.empty_generic((), dtype, device)
        with span("scalar_fill", "kernel", source="aten/src/ATen/ScalarOps.cpp",
                  note="store the one value"):
            scalar = to_dtype_scalar(value, dtype)
            if device != "meta":
                result._array(write=True)[...] = scalar
        s.set_result(result)
        return result
