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
from tracer.steps import Layer, Lecture, step
from tracer.notes import Note

from engine.binding import autograd_meta, conj as C, functional, tensor_numpy, typed_storage, \
    unique
from engine.binding import python_indexing as PI
from engine.binding import operators as O
from engine.binding.arg_parser import ParsedArgs, PythonArgParser, check_noarg_method
from engine.binding.fastpath import basic_view
from engine.binding.python_signatures import manual_signatures
from engine.binding.tensor import Tensor, UntypedStorage, unpack, wrap, wrap_result
from engine.binding.options import memory_format
from engine.binding.tensor_str import format_tensor
from engine.binding.traced import traced as _traced
from engine.binding.torch_manual import new_tensor
from engine.core import dtypes as D
from engine.core import shape_math as M
from engine.core import view as S
from engine.core.context import current
from engine.core.device import Size, of_type
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.aten import OpOverload, aten
from engine.ops.scalar import real_part


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


TENSOR_ITER = step("Tensor.__iter__", Layer.PYTHON, source=TENSOR_PY, note="python.iter")


def __iter__(self: Tensor) -> Any:
    """torch/_tensor.py's ``__iter__``: Python code; a 0-d tensor has nothing to iterate,
    otherwise ``iter(self.unbind(0))`` — ``a, b = t`` and ``for row in t`` take views."""
    with recorder.span(TENSOR_ITER) as py:
        if not self._impl.view.sizes:
            raise torch_error(TypeError, "iteration over a 0-d tensor")
        rows = self.unbind(0)
        py.set_result(rows)
    return iter(rows)


#: METH_NOARGS methods that read the TensorImpl: name -> (the field read, the reader).
_FACTS: dict[str, tuple[str, Callable[[Tensor], Any]]] = {
    "dim": ("dim()", lambda t: t._impl.dim()),
    "numel": ("numel()", lambda t: t._impl.numel()),
    "nelement": ("numel()", lambda t: t._impl.numel()),
    "ndimension": ("dim()", lambda t: t._impl.dim()),
    "storage_offset": ("storage_offset()", lambda t: t._impl.view.offset),
    "element_size": ("itemsize()", lambda t: t._impl.dtype.itemsize),
    "is_floating_point": ("dtype()", lambda t: t._impl.dtype.is_floating_point),
    "is_complex": ("dtype()", lambda t: t._impl.dtype.name.startswith("complex")),
    "is_conj": ("is_conj()", lambda t: t._impl.is_conj),
    "data_ptr": ("data_ptr()", lambda t: t._impl.data_ptr()),
    # TensorImpl::get_device: the device's index (cuda:0 -> 0), -1 for the CPU
    "get_device": ("get_device()", lambda t: 0 if t._impl.device_type == "cuda" else -1),
    "untyped_storage": ("storage()", lambda t: UntypedStorage(t._impl.storage)),
}

#: Attributes (python_variable.cpp's getters): name -> (the field read, the reader).
_PROPERTIES: dict[str, tuple[str, Callable[[Tensor], Any]]] = {
    "shape": ("sizes()", lambda t: Size(t._impl.view.sizes)),
    "dtype": ("dtype()", lambda t: t._impl.dtype),
    "device": ("device()", lambda t: of_type(t._impl.device_type)),
    "is_meta": ("is_meta()", lambda t: t._impl.is_meta),
    "is_cuda": ("is_cuda()", lambda t: t._impl.device_type == "cuda"),
    "ndim": ("dim()", lambda t: t._impl.dim()),
    "itemsize": ("itemsize()", lambda t: t._impl.dtype.itemsize),
    # python_variable.cpp THPVariable_get_nbytes: numel() * itemsize(), whatever the
    # strides (an expanded tensor counts every element it shows)
    "nbytes": ("numel() * itemsize()", lambda t: t._impl.numel() * t._impl.dtype.itemsize),
    # THPVariable_get_real / get_imag call at::real / at::imag (complex_parts.py)
    "real": ("", lambda t: wrap(aten.real.default(unpack(t)))),
    "imag": ("", lambda t: wrap(aten.imag.default(unpack(t)))),
}


#: Methods python_variable_methods.cpp binds to another name's function:
#: ``{"nelement", THPVariable_numel, METH_NOARGS}``, ``{"ndimension", THPVariable_dim, ...}``
_BOUND_TO = {"nelement": "numel", "ndimension": "dim"}

#: Facts whose step says more than where the value was read.
_FACT_NOTES = {"data_ptr": "binding.data_ptr"}


def _fact(name: str, reads: str, read: Callable[[Tensor], Any]) -> Callable[..., Any]:
    binding = f"THPVariable_{_BOUND_TO.get(name, name)}"

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        check_noarg_method(name, args, kwargs)
        if name in _FACT_NOTES:
            return _traced(f"Tensor.{name}", binding, METHODS_CPP,
                           lambda: read(self), note=_FACT_NOTES[name])
        return _traced(f"Tensor.{name}", binding, METHODS_CPP,
                       lambda: read(self), reads=reads)
    method.__name__ = name
    return method


def _getter(name: str, reads: str, read: Callable[[Tensor], Any]) -> Callable[[Tensor], Any]:
    def get(self: Tensor) -> Any:
        # a getter that calls an operator says nothing of reading the TensorImpl
        return _traced(f"Tensor.{name}", f"THPVariable_get_{name}", GETTERS_CPP,
                       lambda: read(self), reads=reads or None,
                       note="binding.readsTensorImpl" if reads else "binding.getter.op")
    get.__name__ = name
    return get


# -- values ------------------------------------------------------------------------------
def _require_data(self: Tensor, what: str) -> None:
    if self._impl.is_meta:
        raise torch_error(NotImplementedError,
                          f"Cannot copy out of meta tensor; no data! ({what})")


RECURSIVE_TO_LIST = step("recursive_to_list", Layer.BINDING, note="binding.recursive_to_list",
                         lecture=Lecture.HIDDEN)


def _tolist(self: Tensor) -> Any:
    """tensor_to_list (torch/csrc/utils/tensor_list.cpp): resolve_conj and resolve_neg,
    then recursive_to_list over the elements."""
    def body():
        data = aten.resolve_neg.default(aten.resolve_conj.default(self._impl))
        _require_data(self, "tolist")
        # every element becomes a Python number: the run's budget is asked before one is
        # made (a 10**6 x 10**6 expansion of one element would be 10**12 of them), and the
        # list is charged to the statement as the Python value it is
        current().budget.build(data.numel() * PY_NUMBER_BYTES,
                               f"tolist() of {data.numel()} elements")
        with recorder.span(RECURSIVE_TO_LIST, source=TENSOR_LIST, numel=data.numel()) as r:
            result = data.array().tolist()
            r.set_result(result)
        return result
    return _traced("Tensor.tolist", "THPVariable_tolist", METHODS_CPP, body,
                   note="binding.tensor_to_list")


TENSOR_LIST = "torch/csrc/utils/tensor_list.cpp"
#: What one element costs in a Python list: a float or int object (24 or 32 bytes) and
#: the list's slot (8).
PY_NUMBER_BYTES = 40


def _item(self: Tensor) -> Any:
    return aten.item.default(self._impl)


def _traced_item(python: str, binding: str) -> Callable[..., Any]:
    """``t.item()``, ``int(t)``, ``float(t)``: item() handed to Python as a number; int()
    and float() go through ``dispatch_to`` (one element first, a complex's real part);
    int() of a double as THPUtils_packDoubleAsInt (NaN and inf have no int)."""
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if python == "item":
            check_noarg_method("item", args, kwargs)

        def body():
            if python != "item" and self._impl.numel() != 1:
                raise torch_error(ValueError, "only one element tensors can be converted to "
                                              "Python scalars")
            value = _item(self) if python == "item" else \
                real_part(_item(self), D.int64 if python == "__int__" else D.float64)
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
                   lambda: aten.is_nonzero.default(self._impl), note="binding.bool_scalar")


def __index__(self: Tensor) -> int:
    impl = self._impl
    if impl.numel() != 1 or not D.is_integral(impl.dtype, include_bool=True):
        raise torch_error(TypeError, "only integer tensors of a single element can be "
                                     "converted to an index")
    return _traced("Tensor.__index__", "THPVariable_index_scalar", METHODS_CPP,
                   lambda: int(_item(self)), note="binding.item")


def __repr__(self: Tensor) -> str:
    return repr_within(self, None)


def repr_within(self: Tensor, limit: int | None) -> str:
    """torch's repr; with ``limit``, past ``limit`` characters its first lines and what
    was left out (tensor_str.format_tensor): what a trace document keeps."""
    impl = self._impl
    # no elements: nothing to read (and a (2**62, 0) tensor is no numpy array)
    values = None if impl.is_meta else \
        np.empty((0,), impl.dtype.np) if impl.numel() == 0 else impl.logical(impl.array())
    return format_tensor(values, impl.dtype.name, impl.view.sizes, device=str(of_type(impl.device_type)),
                         requires_grad=impl.requires_grad, limit=limit,
                         grad_fn=impl.shown_grad_fn())


def _invert(self: Tensor) -> Tensor:
    # THPVariable_invert checks the dtype before anything is dispatched
    if self._impl.dtype.is_floating_point:
        raise torch_error(TypeError, "~ (operator.invert) is only implemented on integer "
                                     "and Boolean-type tensors")
    return wrap_result(aten.bitwise_not.default(self._impl))


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
    return wrap_result(aten.contiguous.default(self._impl, memory_format=fmt))


def copy_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    parsed = _COPY.parse(self, args, kwargs)
    non_blocking = parsed.values.get("non_blocking", parsed.values.get("async", False))
    return wrap_result(aten.copy_.default(self._impl, _tensor_arg(parsed["other"]),
                                          bool(non_blocking)))


def _tensor_arg(value: Any) -> Any:
    """PythonArgs::tensor_slow: copy_ is one of the names that let a Python number bind
    to a Tensor (should_allow_numbers_as_tensors); it becomes a 0-dim wrapped number
    (scalar_to_tensor: int64, double or bool) made without an operator, as for add."""
    if isinstance(value, Tensor):
        return unpack(value)
    if isinstance(value, int) and not isinstance(value, bool) and \
            not -(2**63) <= value < 2**63:
        # THPUtils_unpackLong -> PyLong_AsLongLong, in CPython's words
        raise torch_error(OverflowError, "int too big to convert")
    return O.tensor_slow(value)


def nonzero(self: Tensor, *args: Any, **kwargs: Any) -> Any:
    """THPVariable_nonzero: ``as_tuple=True`` gives one index tensor per dim."""
    parsed = _NONZERO.parse(self, args, kwargs)
    if parsed.values.get("as_tuple"):
        return wrap_result(aten.nonzero_numpy.default(self._impl))
    return wrap_result(aten.nonzero.default(self._impl))


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
        return wrap_result(aten.to.device(impl, device, dtype or impl.dtype, False,
                                          copy))
    if dtype is not None:
        return wrap_result(aten.to.dtype(impl, dtype, False, copy))
    return wrap_result(aten.to.dtype_layout(impl, copy=copy))


def _preserve_format_only(name: str, values: dict) -> None:
    """dispatch_to's memory_format: only preserve_format (the default) is modelled."""
    fmt = values.get("memory_format")
    if fmt is not None and getattr(fmt, "name", fmt) != "preserve_format":
        raise Refused(f"Tensor.{name}(memory_format=...) other than preserve_format is "
                      "not modelled by tidx")


#: python_variable_methods.cpp's THPVariable_to_type methods: name -> dtype
_TO_TYPE = {"float": D.float32, "double": D.float64, "half": D.float16, "long": D.int64,
            "int": D.int32, "short": D.int16, "char": D.int8, "byte": D.uint8,
            "bool": D.bool}


def _to_type(name: str, dtype: D.dtype) -> Callable[..., Tensor]:
    """``t.float()``: THPVariable_to_type -> dispatch_to -> ``self.to(dtype)`` (aten::to:
    the tensor itself when it already has the dtype, else a converted copy)."""
    parser = PythonArgParser([f"{name}(*, MemoryFormat? memory_format=None)"])

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        parsed = parser.parse(self, args, kwargs)
        _preserve_format_only(name, parsed.values)

        def body():
            return wrap_result(aten.to.dtype(self._impl, dtype, False, False))
        return _traced(f"Tensor.{name}", f"THPVariable_{name}", METHODS_CPP, body,
                       note=Note("binding.to_type", dtype=dtype.name))
    method.__name__ = name
    return method


_TYPE = PythonArgParser([
    "type(PyObject* dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)",
    "type(PyObject* dtype=None, bool async=False, *, MemoryFormat? memory_format=None)"
    "|deprecated"])


def type_(self: Tensor, *args: Any, **kwargs: Any) -> Any:
    """THPVariable_type: no argument gives the legacy type name (``'torch.LongTensor'``,
    options_to_string); a dtype, or a legacy name (options_from_string), converts through
    dispatch_to -> aten::to, the tensor itself when nothing changes."""
    parsed = _TYPE.parse(self, args, kwargs)
    values = parsed.values
    _preserve_format_only("type", values)
    obj = values.get("dtype")
    impl = self._impl

    def body() -> Any:
        if obj is None:
            return D.legacy_type_name(impl.dtype, impl.device_type)
        if isinstance(obj, D.dtype):
            return wrap_result(aten.to.dtype(impl, obj, False, False))
        if not isinstance(obj, str):
            raise torch_error(TypeError, "dtype must be a type, str, or dtype object")
        found = _LEGACY_NAMES.get(obj)
        if found is None:
            raise torch_error(ValueError, f"invalid type: '{obj}'")
        device, dtype = found
        return wrap_result(aten.to.device(impl, device, dtype, False, False))
    return _traced("Tensor.type", "THPVariable_type", METHODS_CPP, body, note=O.PARSER_NOTE,
                   args=args, kwargs=kwargs)


type_.__name__ = type_.__qualname__ = "type"
#: options_from_string's names: 'torch.FloatTensor', 'torch.cuda.FloatTensor' ...
_LEGACY_NAMES = {D.legacy_type_name(d, device): (device, d)
                 for d in D.ALL for device in ("cpu", "cuda")}


def _to_device(name: str) -> Callable[..., Tensor]:
    """``t.cuda()`` / ``t.cpu()``: THPVariable_cuda / THPVariable_cpu -> dispatch_to ->
    ``self.to(device, self.scalar_type(), non_blocking, copy=false)``: aten::to.device,
    the tensor itself when it is already there."""
    parser = PythonArgParser(
        ["cuda(Device? device=None, bool non_blocking=False, *, "
         "MemoryFormat? memory_format=None)"] if name == "cuda" else
        ["cpu(*, MemoryFormat? memory_format=None)"])

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        values = parser.parse(self, args, kwargs).values
        _preserve_format_only(name, values)
        if values.get("non_blocking"):
            raise Refused("Tensor.cuda(non_blocking=True) (a copy through pinned host "
                          "memory) is not modelled by tidx")
        device = O.device_type_of(values.get("device")) or name
        check(device == name, RuntimeError, "Invalid device, must be cuda device")

        def body():
            return wrap_result(aten.to.device(self._impl, device, self._impl.dtype,
                                              False, False))
        return _traced(f"Tensor.{name}", f"THPVariable_{name}", METHODS_CPP, body,
                       note=Note("cuda.device.to_device", device=device))
    method.__name__ = name
    return method


# -- T, mT, H, mH (python_variable.cpp's getters: THPVariable_get_T dispatches numpy_T, looked up
# at the first read, once declared), torch/_tensor.py's unflatten and dim_order ----------------
_VIEW_PROPERTIES: dict[str, Callable[[], OpOverload]] = {
    "T": lambda: aten.numpy_T.default, "mT": lambda: aten.mT.default,
    "H": lambda: aten.matrix_H.default, "mH": lambda: aten.mH.default}


def _view_property(name: str, op: Callable[[], OpOverload]) -> Callable[[Tensor], Any]:
    def get(self: Tensor) -> Any:
        return _traced(f"Tensor.{name}", f"THPVariable_get_{name}", GETTERS_CPP,
                       lambda: wrap_result(op()(self._impl)),
                       note=Note("binding.view_property", op=op().decl.op_name))
    get.__name__ = name
    return get


TENSOR_UNFLATTEN = step("Tensor.unflatten", Layer.PYTHON, source=TENSOR_PY,
                        note="binding.unflatten")


def unflatten(self: Tensor, dim: Any, sizes: Any) -> Tensor:
    """torch/_tensor.py's Tensor.unflatten: no sizes is refused in Python, the rest goes to
    the generated binding."""
    with recorder.span(TENSOR_UNFLATTEN):
        if not sizes:
            raise torch_error(RuntimeError, "unflatten: sizes must be non-empty")
        return O.method("unflatten")(self, dim, sizes)


unflatten.__qualname__ = "Tensor.unflatten"


_DIM_ORDER_TYPE = "The ambiguity_check argument must be a bool or a list of memory formats."


def dim_order(self: Tensor, *, ambiguity_check: Any = False) -> tuple[int, ...]:
    """torch/_tensor.py's Tensor.dim_order: Python over sizes and strides, no operator.
    The dims from outermost to innermost in memory; with ``ambiguity_check`` an order
    that is not the only one (a size-1 dim, equal neighbouring strides) is an error,
    unless exactly one of the given memory formats fits."""
    def body():
        check_ = ambiguity_check
        if not isinstance(check_, bool) and (not isinstance(check_, list) or any(
                not isinstance(f, memory_format) for f in check_)):
            raise torch_error(TypeError, _DIM_ORDER_TYPE)
        v = self._impl.view
        formats = check_ if isinstance(check_, list) else []
        multiple = any(a == b for a, b in zip(v.strides, v.strides[1:])) or 1 in v.sizes
        legal = sum(1 for f in formats if is_contiguous(self, memory_format=f))
        if (check_ if isinstance(check_, bool) else True) and multiple and legal != 1:
            raise torch_error(RuntimeError, "The tensor does not have unique dim order, or "
                                            "cannot map to exact one of the given memory "
                                            "formats.")
        perm, ambiguous = M.logical_to_physical_perm(
            v.sizes, v.strides, v.is_contiguous, v.is_channels_last_contiguous, bool(check_))
        if ambiguous:
            raise torch_error(RuntimeError, "The tensor does not have unique dim order.")
        return tuple(perm)
    return _traced("Tensor.dim_order", "compute_elementwise_output_logical_to_physical_perm",
                   "torch/_prims_common/__init__.py", body, note="binding.dim_order")


dim_order.__qualname__ = "Tensor.dim_order"


def _view_family_install(cls: type) -> set[str]:
    for name, op in _VIEW_PROPERTIES.items():
        setattr(cls, name, property(_view_property(name, op)))
    setattr(cls, "unflatten", unflatten)
    setattr(cls, "dim_order", dim_order)
    return set(_VIEW_PROPERTIES) | {"unflatten", "dim_order"}


# -- Python operators (python_variable_methods.cpp's table, torch/_tensor.py) ---------------
#: special method -> the declared operator whose method binding it is
_OPERATORS = {"__gt__": "gt", "__ge__": "ge", "__lt__": "lt", "__le__": "le", "__eq__": "eq",
              "__ne__": "ne", "__and__": "__and__", "__or__": "__or__", "__xor__": "__xor__",
              "__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul",
              "__rmul__": "mul", "__truediv__": "div", "__mod__": "remainder",
              "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_",
              "__itruediv__": "div_", "__ifloordiv__": "floor_divide_",
              "__imod__": "remainder_", "__iand__": "__iand__", "__ior__": "__ior__",
              "__ixor__": "__ixor__",
              # reflected: ``5 & t`` is bitwise_and(t, 5), no aten::__and__ in between
              "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
              # torch/_tensor.py: TensorBase.pow and pow_ wrapped to give NotImplemented
              "__pow__": "pow", "__ipow__": "pow_", "__matmul__": "matmul"}
#: torch/_tensor.py's Python operators: each calls a torch function with the operands
#: as written (``__rsub__`` is ``torch.rsub(self, other)``, ``__rmod__`` is
#: ``torch.remainder(other, self)``); a TypeError becomes NotImplemented
_PY_OPERATORS: dict[str, tuple[str, bool]] = {
    "__rsub__": ("rsub", False), "__floordiv__": ("floor_divide", False),
    "__rfloordiv__": ("floor_divide", True), "__rmod__": ("remainder", True),
    "__rpow__": ("pow", True), "__rmatmul__": ("matmul", True)}


def _rtruediv(self: Tensor, other: Any) -> Any:
    """Tensor.__rdiv__ (torch/_tensor.py): ``self.reciprocal() * other``."""
    try:
        return self.reciprocal() * other
    except TypeError:
        return NotImplemented


def _py_operator(special: str, name: str, swap: bool) -> Callable[..., Any]:
    fn = O.function(name)

    def op(self: Tensor, other: Any) -> Any:
        try:
            return fn(other, self) if swap else fn(self, other)
        except TypeError:
            return NotImplemented
    op.__name__ = special
    return op


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


def _bound(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The Python step and THPVariable_NAME around a method written here by hand."""
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return _traced(f"Tensor.{fn.__name__}", f"THPVariable_{fn.__name__}", METHODS_CPP,
                       lambda: fn(self, *args, **kwargs), note=O.PARSER_NOTE, args=args,
                       kwargs=kwargs)
    method.__name__ = method.__qualname__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def install(cls: type) -> frozenset[str]:
    """Fill the Tensor type's method table; the public methods and attributes, which the
    interpreter's allow-list is made of."""
    public: set[str] = set()
    for name in O.generated_names("method"):
        setattr(cls, name, O.method(name))
        public.add(name)
    for name, fn in functional.METHODS.items():    # written in Python by torch
        setattr(cls, name, fn)
        public.add(name)
    for fn in (size, stride, is_contiguous, new_tensor, typed_storage.storage,
               unique.tensor_unique, unique.tensor_unique_consecutive):
        setattr(cls, fn.__name__, fn)
        public.add(fn.__name__)
    setattr(cls, "type", type_)
    for fn in (contiguous, copy_, nonzero, to, C.conj):
        # bound by hand in python_variable_methods.cpp (to, contiguous) or with a
        # hand-written case (copy_, nonzero): recorded as the generated bindings are
        setattr(cls, fn.__name__, _bound(fn))
        public.add(fn.__name__)
    for name, (reads, read) in _FACTS.items():
        setattr(cls, name, _fact(name, reads, read))
        public.add(name)
    setattr(cls, "tolist", _noarg("tolist", _tolist))
    setattr(cls, "numpy", tensor_numpy.numpy)     # an array over the tensor's own bytes
    setattr(cls, "item", _traced_item("item", "THPVariable_item"))
    public |= {"item", "tolist", "type", "numpy"}
    for name, (reads, read) in _PROPERTIES.items():
        setattr(cls, name, property(_getter(name, reads, read)))
        public.add(name)
    public |= autograd_meta.install(cls)
    setattr(cls, "__int__", _traced_item("__int__", "THPVariable_integral_scalar"))
    setattr(cls, "__float__", _traced_item("__float__", "THPVariable_float_scalar"))
    for special_fn in (__len__, __iter__, __bool__, __index__, __repr__, __getitem__, __setitem__):
        setattr(cls, special_fn.__name__, special_fn)
    setattr(cls, "__str__", __repr__)
    setattr(cls, "__invert__", _noarg("__invert__", _invert))
    for special, name in _OPERATORS.items():
        setattr(cls, special, _operator(special, O.method(name)))
    for special, (name, swap) in _PY_OPERATORS.items():
        setattr(cls, special, _py_operator(special, name, swap))
    setattr(cls, "__rtruediv__", _rtruediv)
    # Tensor.__neg__ and __abs__ are TensorBase.neg and abs themselves (no NotImplemented)
    setattr(cls, "__neg__", O.method("neg"))
    setattr(cls, "__abs__", O.method("abs"))
    for name, dtype in _TO_TYPE.items():
        setattr(cls, name, _to_type(name, dtype))
        public.add(name)
    for name in ("cuda", "cpu"):
        setattr(cls, name, _to_device(name))
        public.add(name)
    public |= _view_family_install(cls)
    return frozenset(public)


#: The public methods and attributes of Tensor, as installed.
PUBLIC = install(Tensor)
