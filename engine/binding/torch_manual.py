"""The factory functions torch binds by hand: ``torch.range`` (its deprecation warning,
python_torch_functions_manual.cpp), ``torch.asarray`` and ``Tensor.new_tensor``
(tensor_new.cpp through their own PythonArgParsers), and the default dtype
(``torch.get_default_dtype`` / ``torch.set_default_dtype``: torch/__init__.py over
torch/csrc/Module.cpp and tensor_types.cpp).

The default dtype is per-run state: it lives in the run's RunContext
(:mod:`engine.core.context`), never in a module global.
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.binding import operators as O
from engine.binding import tensor_new as N
from engine.binding.arg_parser import PythonArgParser
from engine.binding.tensor import THPVariable_Wrap, Tensor, is_tensor, unpack
from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, torch_error, tp_name
from engine.dispatch.aten import aten

MANUAL = "torch/csrc/autograd/python_torch_functions_manual.cpp"
MODULE = "torch/csrc/Module.cpp"
TENSOR_TYPES = "torch/csrc/utils/tensor_types.cpp"

_RANGE = PythonArgParser([
    "range(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, ScalarType dtype=None, "
    "Layout layout=torch.strided, Device device=None, bool requires_grad=False)"])
_ASARRAY = PythonArgParser([
    "asarray(PyObject* obj, *, ScalarType? dtype=None, Device? device=None, bool? copy=None, "
    "bool requires_grad=False)"])
_AS_TENSOR = PythonArgParser([
    "as_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None)"])
_NEW_TENSOR = PythonArgParser([
    "new_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, "
    "bool requires_grad=False)"])

RANGE_WARNING = ("torch.range is deprecated and will be removed in a future release because "
                 "its behavior is inconsistent with Python's range builtin. Instead, use "
                 "torch.arange, which produces values in [start, end).")


#: the Python entry of a binding torch writes by hand (``torch.range``, ``torch.asarray``)
MANUAL_ENTRY = step("torch.<function>", Layer.PYTHON)


def _entry(name: str, note: str, args: tuple, kwargs: dict, source: str = "torch/__init__.py"):
    return span(MANUAL_ENTRY, called=name, source=source, note=note,
                args=lambda: [O.shown_argument(a) for a in args],
                kwargs=lambda: {k: O.shown_argument(v) for k, v in kwargs.items()})


def _dtype(value: Any) -> D.dtype | None:
    """PythonArgs::scalartype: a Python type stands for its dtype."""
    if isinstance(value, type):
        found = O.PYTHON_DTYPES.get(value)
        if found is None:
            raise Refused(f"dtype={value.__name__} (a complex dtype) is not modelled by tidx")
        return found
    return value


def _finish(result, requires_grad: bool) -> Tensor:
    if requires_grad:
        O.make_variable(result)
    return THPVariable_Wrap(result)


THPVARIABLE_RANGE = step("THPVariable_range", Layer.BINDING, source=MANUAL, note=O.PARSER_NOTE,
                         libtorch=symbol("torch::autograd::THPVariable_range"))


def range(*args: Any, **kwargs: Any) -> Tensor:  # noqa: A001 - torch's own name
    """THPVariable_range: parse, warn (UserWarning, every call), then range or range.out
    with the default dtype unless one is given (``r.scalartype`` defaults to it)."""
    with _entry("torch.range", "factory.range", args, kwargs) as py:
        with span(THPVARIABLE_RANGE) as b:
            parsed = _RANGE.parse(None, args, kwargs)
            v = parsed.values
            N.warn(RANGE_WARNING, MANUAL)
            if "layout" in parsed.given and str(v["layout"]) != "torch.strided":
                raise Refused("range(): layout= is not modelled by tidx (only strided)")
            # a 0-dim tensor for a Scalar is read with item() by ParsedArgs (scalar_slow)
            start, end, step = (parsed[k] for k in ("start", "end", "step"))
            if v.get("out") is not None:
                result = aten.range.out(start, end, step, out=unpack(v["out"]))
            else:
                device = O.device_type_of(v.get("device"))
                result = aten.range.step(start, end, step,
                                         dtype=_dtype(v.get("dtype")), device=device)
            b.set_result(result)
        out = _finish(result, bool(v.get("requires_grad")))
        py.set_result(out)
        return out


THPVARIABLE_AS_TENSOR = step("THPVariable_as_tensor", Layer.BINDING, source=MANUAL,
                             note=O.PARSER_NOTE,
                             libtorch=symbol("torch::autograd::THPVariable_as_tensor"))


def as_tensor(*args: Any, **kwargs: Any) -> Tensor:
    """torch.as_tensor(data, *, dtype, device): torch::utils::as_tensor, i.e.
    internal_new_from_data without copying a tensor (``to(..., copy=false)``) or a numpy
    array it can keep; a list or a number is stored into a new tensor."""
    with _entry("torch.as_tensor", "factory.as_tensor", args, kwargs) as py:
        with span(THPVARIABLE_AS_TENSOR) as b:
            v = _AS_TENSOR.parse(None, args, kwargs).values
            data, dtype = v["data"], _dtype(v.get("dtype"))
            device = O.device_type_of(v.get("device"))
            if is_tensor(data):
                result = N.new_from_tensor(unpack(data), dtype, device, False)
            else:
                result = N.internal_new_from_data(data, dtype, device or "cpu",
                                                  copy_numpy=False)
            b.set_result(result)
        out = THPVariable_Wrap(result)
        py.set_result(out)
        return out


THPVARIABLE_ASARRAY = step("THPVariable_asarray", Layer.BINDING, source=MANUAL, note=O.PARSER_NOTE,
                           libtorch=symbol("torch::autograd::THPVariable_asarray"))


def asarray(*args: Any, **kwargs: Any) -> Tensor:
    """torch.asarray(obj, *, dtype, device, copy, requires_grad): shares a tensor's
    memory unless a copy is asked for (copy=True) or needed (a dtype or device change);
    a list or a number is copied into a new tensor."""
    with _entry("torch.asarray", "factory.asarray", args, kwargs) as py:
        with span(THPVARIABLE_ASARRAY) as b:
            parsed = _ASARRAY.parse(None, args, kwargs)
            v = parsed.values
            obj = v["obj"]
            tensor = is_tensor(obj)
            device = O.device_type_of(v.get("device"))
            result = N.asarray(unpack(obj) if tensor else obj, tensor, _dtype(v.get("dtype")),
                               device, v["copy"] if "copy" in parsed.given else None)
            requires_grad = bool(v.get("requires_grad"))
            if tensor:
                # a leaf (every tidx tensor is one): set_requires_grad, also to False
                if requires_grad:
                    O.make_variable(result)
                else:
                    result.requires_grad = False
            elif requires_grad:
                O.make_variable(result)
            b.set_result(result)
        out = THPVariable_Wrap(result)
        py.set_result(out)
        return out


THPVARIABLE_NEW_TENSOR = step("THPVariable_new_tensor", Layer.BINDING,
                              source="torch/csrc/autograd/python_variable_methods.cpp",
                              note=O.PARSER_NOTE,
                              libtorch=symbol("torch::autograd::THPVariable_new_tensor"))


def new_tensor(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Tensor.new_tensor(data, *, dtype, device, requires_grad): torch.tensor with self's
    dtype and device as the defaults (and no type inference from the data)."""
    with _entry("Tensor.new_tensor", "factory.new_tensor", args, kwargs,
                source="torch/_tensor.py") as py:
        with span(THPVARIABLE_NEW_TENSOR) as b:
            v = _NEW_TENSOR.parse(self, args, kwargs).values
            data = v["data"]
            device = O.device_type_of(v.get("device"))
            result = N.new_tensor(unpack(self), unpack(data) if is_tensor(data) else data,
                                  _dtype(v.get("dtype")), device, is_tensor(data))
            if v.get("requires_grad"):
                O.make_variable(result)
            b.set_result(result)
        out = THPVariable_Wrap(result)
        py.set_result(out)
        return out


TORCH_GET_DEFAULT_DTYPE = step("torch.get_default_dtype", Layer.PYTHON, source=MODULE,
                               note="default_dtype.get")


def get_default_dtype(*args: Any, **kwargs: Any) -> D.dtype:
    """torch.get_default_dtype (a METH_NOARGS C function): the run's default dtype."""
    name = "torch.get_default_dtype()"
    if kwargs:
        raise torch_error(TypeError, f"{name} takes no keyword arguments")
    if args:
        raise torch_error(TypeError, f"{name} takes no arguments ({len(args)} given)")
    with span(TORCH_GET_DEFAULT_DTYPE) as s:
        result = current().default_dtype
        s.set_result(str(result))
        return result


TORCH_SET_DEFAULT_DTYPE = step("torch.set_default_dtype", Layer.PYTHON, source="torch/__init__.py")
PY_SET_DEFAULT_DTYPE = step("py_set_default_dtype", Layer.BINDING, source=TENSOR_TYPES,
                            note="default_dtype.check")


def set_default_dtype(*args: Any, **kwargs: Any) -> None:
    """torch.set_default_dtype(d) (Python) -> _C._set_default_dtype -> py_set_default_dtype:
    a dtype, and a floating one; the default of Python floats from then on."""
    # CPython's checks of ``def set_default_dtype(d, /)``: keywords first (``d`` is
    # positional-only), then too many positionals, then a missing one
    if kwargs:
        if "d" in kwargs:
            raise torch_error(TypeError, "set_default_dtype() got some positional-only "
                                         "arguments passed as keyword arguments: 'd'")
        raise torch_error(TypeError, f"set_default_dtype() got an unexpected keyword "
                                     f"argument '{next(iter(kwargs))}'")
    if len(args) > 1:
        raise torch_error(TypeError, f"set_default_dtype() takes 1 positional argument but "
                                     f"{len(args)} were given")
    if not args:
        raise torch_error(TypeError, "set_default_dtype() missing 1 required positional "
                                     "argument: 'd'")
    d = args[0]
    with span(TORCH_SET_DEFAULT_DTYPE,
              note=Note("default_dtype.set", dtype=str(d) if isinstance(d, D.dtype)
                        else tp_name(d))):
        with span(PY_SET_DEFAULT_DTYPE):
            if not isinstance(d, D.dtype):
                raise torch_error(TypeError, "invalid dtype object: only floating-point types "
                                             "are supported as the default type")
            if not d.is_floating_point:
                raise torch_error(TypeError, "only floating-point types are supported as the "
                                             "default type")
            current().default_dtype = d
    return None


#: The functions of this module, by the name torch gives them.
FUNCTIONS = {"range": range, "asarray": asarray, "as_tensor": as_tensor, "get_default_dtype": get_default_dtype,
             "set_default_dtype": set_default_dtype}
