"""The methods and attributes of ``torch.Tensor`` (python_variable_methods.cpp,
python_variable.cpp's getters, torch/_tensor.py).

:func:`install` fills :class:`engine.binding.tensor.Tensor`'s method table once, when
the binding is imported, as PyTorch fills ``THPVariableType``'s: every operator torch
generates a method for comes from its declarations (:mod:`engine.binding.operators`);
the methods torch writes by hand are written here, after python_variable_methods.cpp:
they read the TensorImpl directly (no operator runs for ``t.stride()``, as
torch.profiler confirms) or choose what to dispatch themselves (``contiguous`` returns
``self`` when there is nothing to do).  The Python operators (``t + 1``, ``t > 4``)
are the generated bindings of add, gt ... behind ``TypeError_to_NotImplemented_``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tracer import recorder
from tracer.notes import Note

from engine.binding import python_indexing as PI
from engine.binding import operators as O
from engine.binding.arg_parser import ParsedArgs, PythonArgParser, check_noarg_method
from engine.binding.fastpath import basic_view
from engine.binding.python_signatures import manual_signatures
from engine.binding.tensor import Tensor, UntypedStorage, unpack, wrap, wrap_result
from engine.binding.tensor_str import format_tensor
from engine.binding.torch_manual import new_tensor
from engine.core import dtypes as D
from engine.core import view as S
from engine.core.device import Size, device as Device
from engine.core.errors import Refused, torch_error
from engine.dispatch.dispatcher import call
from engine.memory.allocator import check_limit
from engine.ops.scalar import scalar_tensor_static, scalar_type


def _parser(name: str, *signatures: str) -> PythonArgParser:
    """The parser of a hand-written binding: its own strings, or torch's for the
    declared names it binds by hand (python_signatures.MANUAL_SIGNATURES)."""
    found = [s.text for s in manual_signatures(name, "method")]
    return PythonArgParser(list(signatures) or found)


def _noarg(name: str, fn: Callable[[Tensor], Any]) -> Callable[..., Any]:
    """A METH_NOARGS method: CPython itself refuses any argument."""
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        check_noarg_method(name, args, kwargs)
        return fn(self)
    method.__name__ = name
    return method


# -- facts read off the TensorImpl: no operator runs ----------------------------------------
METHODS_CPP = "torch/csrc/autograd/python_variable_methods.cpp"
GETTERS_CPP = "torch/csrc/autograd/python_variable.cpp"
TENSOR_PY = "torch/_tensor.py"


def _traced(python: str, binding: str, source: str, body: Callable[[], Any], *,
            note: Any = "binding.readsTensorImpl", args: tuple = (),
            reads: str | None = None) -> Any:
    """One hand-written binding call, recorded as the generated ones are: the Python
    step (``Tensor.stride``), the C++ binding under it (``THPVariable_stride``), and
    whatever the body dispatches inside.  ``reads`` names the TensorImpl field a fact
    comes from (torch.profiler sees no operator for those)."""
    if not recorder.active():
        return body()
    with recorder.span(python, "python", source=TENSOR_PY,
                       args=lambda: [O.shown_argument(a) for a in args]) as py:
        with recorder.span(binding, "binding", source=source,
                           note=Note(note, reads=reads) if reads else note) as b:
            result = body()
            b.set_result(result)
        py.set_result(result)
        return result


_SIZE = PythonArgParser(["size(int64_t? dim=None)"])
_STRIDE = PythonArgParser(["stride(int64_t? dim=None)"])
_IS_CONTIGUOUS = PythonArgParser(["is_contiguous(*, MemoryFormat memory_format="
                                  "contiguous_format)"])


def _optional(parsed: ParsedArgs, name: str) -> Any:
    """PythonArgs::toInt64Optional: a parameter not given (or given None) is None."""
    return None if parsed.is_none(name) else parsed[name]


def size(self: Tensor, *args: Any, **kwargs: Any):
    def body():
        dim = _optional(_SIZE.parse(self, args, kwargs), "dim")
        sizes = self._impl.view.sizes
        return Size(sizes) if dim is None else sizes[S.maybe_wrap_dim(dim, len(sizes), False)]
    return _traced("Tensor.size", "THPVariable_size", METHODS_CPP, body, args=args,
                   reads="sizes()")


def stride(self: Tensor, *args: Any, **kwargs: Any):
    def body():
        dim = _optional(_STRIDE.parse(self, args, kwargs), "dim")
        v = self._impl.view
        return v.strides if dim is None else v.strides[S.maybe_wrap_dim(dim, len(v.sizes),
                                                                          False)]
    return _traced("Tensor.stride", "THPVariable_stride", METHODS_CPP, body, args=args,
                   reads="strides()")


def is_contiguous(self: Tensor, *args: Any, **kwargs: Any) -> bool:
    def body():
        fmt = _IS_CONTIGUOUS.parse(self, args, kwargs)["memory_format"]
        v = self._impl.view
        return v.is_channels_last_contiguous if fmt.name == "channels_last" else v.is_contiguous
    return _traced("Tensor.is_contiguous", "THPVariable_is_contiguous", METHODS_CPP, body,
                   args=args, reads="is_contiguous()")


def __len__(self: Tensor) -> int:
    """torch/_tensor.py's ``__len__``: Python code over ``dim()`` and ``shape``."""
    def body():
        sizes = self._impl.view.sizes
        if not sizes:
            raise torch_error(TypeError, "len() of a 0-d tensor")
        return sizes[0]
    return _traced("Tensor.__len__", "THPVariable_get_shape", GETTERS_CPP, body,
                   note="python.len")


#: METH_NOARGS methods that read the TensorImpl: name -> (the field read, the reader).
_FACTS: dict[str, tuple[str, Callable[[Tensor], Any]]] = {
    "dim": ("dim()", lambda t: t._impl.dim()),
    "numel": ("numel()", lambda t: t._impl.numel()),
    "storage_offset": ("storage_offset()", lambda t: t._impl.view.offset),
    "element_size": ("itemsize()", lambda t: t._impl.dtype.itemsize),
    "is_floating_point": ("dtype()", lambda t: t._impl.dtype.is_floating_point),
    "data_ptr": ("data_ptr()", lambda t: t._impl.data_ptr()),
    "untyped_storage": ("storage()", lambda t: UntypedStorage(t._impl.storage)),
}

#: Attributes (python_variable.cpp's getters): name -> (the field read, the reader).
_PROPERTIES: dict[str, tuple[str, Callable[[Tensor], Any]]] = {
    "shape": ("sizes()", lambda t: Size(t._impl.view.sizes)),
    "dtype": ("dtype()", lambda t: t._impl.dtype),
    "device": ("device()", lambda t: Device(t._impl.device_type)),
    "is_meta": ("is_meta()", lambda t: t._impl.is_meta),
    "ndim": ("dim()", lambda t: t._impl.dim()),
    "requires_grad": ("requires_grad()", lambda t: t._impl.requires_grad),
}


def _fact(name: str, reads: str, read: Callable[[Tensor], Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        check_noarg_method(name, args, kwargs)
        return _traced(f"Tensor.{name}", f"THPVariable_{name}", METHODS_CPP,
                       lambda: read(self), reads=reads)
    method.__name__ = name
    return method


def _getter(name: str, reads: str, read: Callable[[Tensor], Any]) -> Callable[[Tensor], Any]:
    def get(self: Tensor) -> Any:
        return _traced(f"Tensor.{name}", f"THPVariable_get_{name}", GETTERS_CPP,
                       lambda: read(self), reads=reads)
    get.__name__ = name
    return get


def _set_requires_grad(self: Tensor, value: bool) -> None:
    self._impl.requires_grad = bool(value)


# -- values ------------------------------------------------------------------------------
def _require_data(self: Tensor, what: str) -> None:
    if self._impl.is_meta:
        raise torch_error(NotImplementedError,
                          f"Cannot copy out of meta tensor; no data! ({what})")


def _tolist(self: Tensor) -> Any:
    """tensor_to_list (torch/csrc/utils/tensor_list.cpp): resolve_conj and resolve_neg,
    then recursive_to_list over the elements."""
    def body():
        data = call("aten::resolve_neg", call("aten::resolve_conj", self._impl))
        _require_data(self, "tolist")
        # every element becomes a Python number: checked against the memory limit before
        # one is made (a 10**6 x 10**6 expansion of one element would be 10**12 of them)
        check_limit(data.numel() * PY_NUMBER_BYTES, f"tolist() of {data.numel()} elements")
        with recorder.span("recursive_to_list", "binding", source=TENSOR_LIST,
                           note="binding.recursive_to_list", numel=data.numel()) as r:
            result = data.array().tolist()
            r.set_result(result)
        return result
    return _traced("Tensor.tolist", "THPVariable_tolist", METHODS_CPP, body,
                   note="binding.tensor_to_list")


TENSOR_LIST = "torch/csrc/utils/tensor_list.cpp"
#: What one element costs in a Python list: a float or int object and the list's slot.
PY_NUMBER_BYTES = 32


def _numpy(self: Tensor) -> np.ndarray:
    """Shares memory with the tensor, as torch's ``numpy()`` does."""
    _require_data(self, "numpy")
    return self._impl.array()


def _item(self: Tensor) -> Any:
    return call("aten::item", self._impl)


def _traced_item(python: str, binding: str) -> Callable[..., Any]:
    """``t.item()``, ``int(t)``, ``float(t)``: dispatch item() and hand the Scalar to
    Python as a number.  int() and float() go through ``dispatch_to``, which wants one
    element first (python_variable_methods.cpp); int() of a float tensor converts the
    double as Python does (THPUtils_packDoubleAsInt: NaN and inf have no int)."""
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if python == "item":
            check_noarg_method("item", args, kwargs)

        def body():
            if python != "item" and self._impl.numel() != 1:
                raise torch_error(ValueError, "only one element tensors can be converted to "
                                              "Python scalars")
            value = _item(self)
            if python == "__float__":
                return float(value)
            if python == "__int__":
                return _double_as_int(value) if isinstance(value, float) else int(value)
            return value
        return _traced(f"Tensor.{python}", binding, METHODS_CPP, body, note="binding.item")
    method.__name__ = python
    return method


def _double_as_int(value: float) -> int:
    if value != value:
        raise torch_error(ValueError, "cannot convert float NaN to integer")
    if value in (float("inf"), float("-inf")):
        raise torch_error(OverflowError, "cannot convert float infinity to integer")
    return int(value)


def __bool__(self: Tensor) -> bool:
    """THPVariable_bool_scalar: ``is_nonzero`` (one element, compared with zero)."""
    return _traced("Tensor.__bool__", "THPVariable_bool_scalar", METHODS_CPP,
                   lambda: call("aten::is_nonzero", self._impl), note="binding.bool_scalar")


def __index__(self: Tensor) -> int:
    impl = self._impl
    if impl.numel() != 1 or not D.is_integral(impl.dtype, include_bool=True):
        raise torch_error(TypeError, "only integer tensors of a single element can be "
                                     "converted to an index")
    return _traced("Tensor.__index__", "THPVariable_index_scalar", METHODS_CPP,
                   lambda: int(_item(self)), note="binding.item")


def __repr__(self: Tensor) -> str:
    impl = self._impl
    # no elements: nothing to read (and a (2**62, 0) tensor is no numpy array)
    values = None if impl.is_meta else \
        np.empty((0,), impl.dtype.np) if impl.numel() == 0 else impl.array()
    return format_tensor(values, impl.dtype.name, impl.view.sizes, device=impl.device_type,
                         requires_grad=impl.requires_grad)


def _invert(self: Tensor) -> Tensor:
    # THPVariable_invert checks the dtype before anything is dispatched
    if self._impl.dtype.is_floating_point:
        raise torch_error(TypeError, "~ (operator.invert) is only implemented on integer "
                                     "and Boolean-type tensors")
    return wrap_result(call("aten::bitwise_not", self._impl))


# -- indexing (python_variable_indexing.cpp) ----------------------------------------------
def __getitem__(self: Tensor, index: Any) -> Tensor:
    impl = self._impl
    if not recorder.active() and not impl.requires_grad:
        view = basic_view(impl, index)  # same geometry, no steps to record
        if view is not None:
            return wrap(view)
    return PI.THPVariable_getitem(self, index)


def __setitem__(self: Tensor, index: Any, value: Any) -> None:
    PI.THPVariable_setitem(self, index, value)


# -- declared operators torch binds by hand ---------------------------------------------
_CONTIGUOUS = _parser("contiguous")
_COPY = _parser("copy_")
_NONZERO = _parser("nonzero")
_TO = PythonArgParser([
    "to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, "
    "*, MemoryFormat? memory_format=None)",
    "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)",
    "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, "
    "MemoryFormat? memory_format=None)"])


def contiguous(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Already contiguous in that format: self, and no operator runs at all (the check
    lives in TensorBase::contiguous, before the dispatcher)."""
    fmt = _CONTIGUOUS.parse(self, args, kwargs)["memory_format"].name
    v = self._impl.view
    if v.is_channels_last_contiguous if fmt == "channels_last" else v.is_contiguous:
        return self
    return wrap_result(call("aten::contiguous", self._impl, memory_format=fmt))


def copy_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    parsed = _COPY.parse(self, args, kwargs)
    non_blocking = parsed.values.get("non_blocking", parsed.values.get("async", False))
    return wrap_result(call("aten::copy_", self._impl, _tensor_arg(parsed["other"]),
                            bool(non_blocking)))


def _tensor_arg(value: Any) -> Any:
    """PythonArgs::tensor_slow: copy_ is one of the names that let a Python number bind
    to a Tensor (should_allow_numbers_as_tensors); it becomes a 0-dim wrapped number
    (scalar_to_tensor: int64, double or bool) made without an operator."""
    if isinstance(value, Tensor):
        return unpack(value)
    if isinstance(value, complex):
        raise Refused("complex numbers are not modelled by tidx")
    if isinstance(value, int) and not isinstance(value, bool) and \
            not -(2**63) <= value < 2**63:
        # THPUtils_unpackLong -> PyLong_AsLongLong, in CPython's words
        raise torch_error(OverflowError, "int too big to convert")
    return scalar_tensor_static(value, scalar_type(value), "cpu")


def nonzero(self: Tensor, *args: Any, **kwargs: Any) -> Any:
    """THPVariable_nonzero: ``as_tuple=True`` gives one index tensor per dim."""
    parsed = _NONZERO.parse(self, args, kwargs)
    if parsed.values.get("as_tuple"):
        return wrap_result(call("aten::nonzero_numpy", self._impl))
    return wrap_result(call("aten::nonzero", self._impl))


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """THPVariable_to (parse_to_conversion): ``to(dtype)``, ``to(device)``,
    ``to(device, dtype)``, ``to(other)``; a copy only when something changes."""
    parsed = _TO.parse(self, args, kwargs)
    values = parsed.values
    impl = self._impl
    if parsed.index == 2:
        # a Python number binds here too (to is in should_allow_numbers_as_tensors)
        other = _tensor_arg(values["tensor"])
        device, dtype = other.device_type, other.dtype
    else:
        device = O.device_type_of(values.get("device"))
        dtype = values.get("dtype")
    copy = bool(values.get("copy"))
    if device is not None:
        return wrap_result(call("aten::to.device", impl, device, dtype or impl.dtype, False,
                                copy))
    if dtype is not None:
        return wrap_result(call("aten::to.dtype", impl, dtype, False, copy))
    return wrap_result(call("aten::to.dtype_layout", impl, copy=copy))


# -- Python operators (python_variable_methods.cpp's table, torch/_tensor.py) ---------------
#: special method -> the declared operator whose method binding it is
_OPERATORS = {"__gt__": "gt", "__ge__": "ge", "__lt__": "lt", "__le__": "le", "__eq__": "eq",
              "__ne__": "ne", "__and__": "__and__", "__or__": "__or__", "__neg__": "neg",
              "__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul",
              "__rmul__": "mul", "__truediv__": "div",
              # reflected: ``5 & t`` is bitwise_and(t, 5), no aten::__and__ in between
              "__rand__": "bitwise_and", "__ror__": "bitwise_or"}


def _operator(special: str, binding: Callable[..., Any]) -> Callable[..., Any]:
    """TypeError_to_NotImplemented_: an operand the binding cannot take makes Python try
    the other operand's reflected method (and, failing that, raise its own TypeError)."""
    def op(self: Tensor, *args: Any) -> Any:
        try:
            return binding(self, *args)
        except TypeError:
            return NotImplemented
    op.__name__ = special
    return op


def install(cls: type) -> frozenset[str]:
    """Fill the Tensor type's method table; the public methods and attributes, which the
    interpreter's allow-list is made of."""
    public: set[str] = set()
    for name in O.generated_names("method"):
        setattr(cls, name, O.method(name))
        public.add(name)
    for fn in (size, stride, is_contiguous, contiguous, copy_, nonzero, to, new_tensor):
        setattr(cls, fn.__name__, fn)
        public.add(fn.__name__)
    for name, (reads, read) in _FACTS.items():
        setattr(cls, name, _fact(name, reads, read))
        public.add(name)
    for name, fn in (("tolist", _tolist), ("numpy", _numpy)):
        setattr(cls, name, _noarg(name, fn))
    cls.item = _traced_item("item", "THPVariable_item")
    public |= {"item", "tolist"}
    for name, (reads, read) in _PROPERTIES.items():
        setattr(cls, name, property(_getter(name, reads, read)))
        public.add(name)
    cls.requires_grad = property(cls.requires_grad.fget, _set_requires_grad)
    cls.__int__ = _traced_item("__int__", "THPVariable_integral_scalar")
    cls.__float__ = _traced_item("__float__", "THPVariable_float_scalar")
    for fn in (__len__, __bool__, __index__, __repr__, __getitem__, __setitem__):
        setattr(cls, fn.__name__, fn)
    cls.__str__ = __repr__
    cls.__invert__ = _noarg("__invert__", _invert)
    for special, name in _OPERATORS.items():
        setattr(cls, special, _operator(special, O.method(name)))
    return frozenset(public)


#: The public methods and attributes of Tensor, as installed.
PUBLIC = install(Tensor)
