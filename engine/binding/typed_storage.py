"""``tensor.storage()``: a TypedStorage, the storage seen as elements of the tensor's dtype.

torch 2.x keeps ``Tensor.storage()`` for old code and warns once per process that it is
deprecated (torch/storage.py ``_warn_typed_storage_removal``).  It is Python
(torch/_tensor.py ``Tensor.storage`` -> ``_typed_storage``): the tensor's
``untyped_storage()`` (THPVariable_storage, no aten operator) wrapped as a
``torch.TypedStorage`` of ``self.dtype``.  The TypedStorage is the whole storage, from
byte 0, whatever the tensor's offset and strides: ``t[:, 1].storage()`` shows every
element of ``t``.
"""

from __future__ import annotations

from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.binding.tensor import STORAGE_BINDING, STORAGE_METHOD, Tensor, UntypedStorage
from engine.core import dtypes as D
from engine.core.device import device, of_type
from engine.core.context import current
from engine.core.errors import Refused, torch_error
from engine.core.storage import Storage
from engine.memory.allocator import check_temporary

STORAGE_PY = "torch/storage.py"

#: torch/storage.py ``_warn_typed_storage_removal``'s message, word for word
TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will "
    "be the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead "
    "of tensor.storage()")

TENSOR_STORAGE = step("Tensor.storage", Layer.PYTHON, source="torch/_tensor.py",
                      note="binding.storage.typed")
WARN_TYPED_STORAGE_REMOVAL = step("_warn_typed_storage_removal", Layer.PYTHON,
                                  source=STORAGE_PY, note="binding.storage.deprecated")
THPVARIABLE_STORAGE = step("THPVariable_storage", Layer.BINDING,
                           source="torch/csrc/autograd/python_variable.cpp",
                           note="binding.storage.untyped",
                           libtorch=symbol("THPVariable_storage"))


def _no_arguments(method: str, args: tuple, kwargs: dict[str, Any]) -> None:
    """A Python ``def method(self)`` given arguments: CPython's TypeError."""
    if kwargs:
        raise torch_error(TypeError, f"{method}() got an unexpected keyword argument "
                                     f"'{next(iter(kwargs))}'")
    if args:
        raise torch_error(TypeError, f"{method}() takes 1 positional argument but "
                                     f"{len(args) + 1} were given")


class _Warned:
    """Whether this run has warned already (torch warns once per process)."""

    def __init__(self) -> None:
        self.done = False


class TypedStorage:
    """``torch.TypedStorage``: an untyped storage and the dtype its bytes are read as."""

    __slots__ = ("_storage", "_dtype")

    def __init__(self, storage: Storage, dtype: D.dtype) -> None:
        self._storage, self._dtype = storage, dtype

    @property
    def dtype(self) -> D.dtype:
        return self._dtype

    @property
    def device(self) -> device:
        return of_type(self._storage.device)

    def _fact(self, name: str, value: Any, binding: str = "nbytes") -> Any:
        """A fact torch/storage.py computes from the untyped storage's nbytes."""
        with span(STORAGE_METHOD, called=f"TypedStorage.{name}") as py:
            with span(STORAGE_BINDING, called=f"THPStorage_{binding}",
                      note="binding.storage.nbytes") as b:
                b.set_result(self._storage.nbytes)
            py.set_result(value)
        return value

    def size(self, *args: Any, **kwargs: Any) -> int:
        _no_arguments("TypedStorage.size", args, kwargs)
        return self._fact("size", self._length())

    def nbytes(self, *args: Any, **kwargs: Any) -> int:
        _no_arguments("TypedStorage.nbytes", args, kwargs)
        return self._fact("nbytes", self._storage.nbytes)

    def element_size(self, *args: Any, **kwargs: Any) -> int:
        _no_arguments("TypedStorage.element_size", args, kwargs)
        return self._dtype.itemsize

    def data_ptr(self, *args: Any, **kwargs: Any) -> int:
        _no_arguments("TypedStorage.data_ptr", args, kwargs)
        return self._fact("data_ptr", self._storage.data_ptr(), "data_ptr")

    def untyped(self, *args: Any, **kwargs: Any) -> UntypedStorage:
        _no_arguments("TypedStorage.untyped", args, kwargs)
        return UntypedStorage(self._storage)

    def __len__(self) -> int:
        return self._length()

    def _length(self) -> int:
        return self._storage.nbytes // self._dtype.itemsize

    def _values(self) -> list[Any]:
        """The elements as Python numbers (float32 widened to a Python float, as
        ``TypedStorage.__getitem__``'s item() gives them), for the repr."""
        n = self._length()
        current().budget.build(n * 32, f"the {n} elements of a TypedStorage")
        assert self._storage.data is not None       # not meta: the bytes exist
        return self._storage.data[:n * self._dtype.itemsize].view(self._dtype.np).tolist()

    def __getitem__(self, idx: Any) -> Any:
        # torch/storage.py _getitem: torch.tensor([]).set_(self)[idx].item(), aten
        # operators per element that tidx does not model yet (set_ with a storage)
        raise Refused("reading a TypedStorage's elements (storage[i], tolist()) is not "
                      "modelled yet: index the tensor instead")

    def __repr__(self) -> str:
        """torch/storage.py ``TypedStorage.__repr__``: each element on its own line, then
        what the storage is; a meta storage has no elements to show."""
        info = (f"[torch.storage.TypedStorage(dtype={self._dtype}, device={self.device}) "
                f"of size {self._length()}]")
        if self._storage.device == "meta":
            return "...\n" + info
        check_temporary("TypedStorage.__repr__", self._length(), 40)
        return " " + "\n ".join(map(str, self._values())) + "\n" + info

    __str__ = __repr__

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        return {**self._storage.__tidx_summary__(max_values), "dtype": str(self._dtype),
                "elements": self._length()}


def storage(self: Tensor, *args: Any, **kwargs: Any) -> TypedStorage:
    """``Tensor.storage()``: the deprecation warning (once per run, as torch warns once per
    process), then the untyped storage read as ``self.dtype``."""
    _no_arguments("Tensor.storage", args, kwargs)
    with span(TENSOR_STORAGE) as py:
        warned = current().local(_Warned)
        if not warned.done:
            warned.done = True
            with span(WARN_TYPED_STORAGE_REMOVAL, category="UserWarning",
                      message=TYPED_STORAGE_WARNING):
                pass
        with span(THPVARIABLE_STORAGE) as b:
            untyped = UntypedStorage(self._impl.storage)
            b.set_result(untyped)
        result = TypedStorage(self._impl.storage, self._impl.dtype)
        py.set_result(result)
    return result
