"""``torch.Tensor``: the Python object over a TensorImpl (torch/csrc/autograd/python_variable.cpp).

A Python tensor is a THPVariable: a small object holding the C++ tensor.  Kernels never
see it; the binding unpacks arguments (``THPVariable_Unpack``) before it dispatches and
wraps results after (``THPVariable_Wrap``).  Wrapping the same TensorImpl twice gives
the same Python object (PyObject preservation), so ``t.contiguous() is t`` holds when
no copy was made, as in PyTorch.

The class here knows no operators: its methods are installed by
:mod:`engine.binding.methods` (hand-written ones mirror python_variable_methods.cpp; the
operators come from their declarations).
"""

from __future__ import annotations

import weakref
from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.binding.tensor_methods import TensorMethods
from engine.core.device import device, of_type
from engine.core.storage import Storage
from engine.core.tensor_impl import TensorImpl
from engine.memory.allocator import check_temporary


class Tensor(TensorMethods):
    """torch.Tensor.  Its attributes and methods are installed by the binding (what they
    are to a type checker: tensor_methods.pyi, generated)."""

    __tp_name__ = "Tensor"   # Py_TYPE(obj)->tp_name in torch's messages

    __slots__ = ("_impl", "__weakref__")
    _impl: TensorImpl

    __hash__ = object.__hash__  # identity, as torch.Tensor (== is elementwise)

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        return self._impl.__tidx_summary__(max_values)


def wrap(impl: TensorImpl) -> Tensor:
    """The Python object of ``impl`` (the existing one if alive), without a trace step:
    what THPVariable_Wrap does, for code that is not one of PyTorch's steps."""
    ref = impl.pyobj
    if ref is not None:
        obj = ref()
        if obj is not None:
            return obj
    obj = object.__new__(Tensor)
    obj._impl = impl
    impl.pyobj = weakref.ref(obj)
    return obj


THPVARIABLE_WRAP = step("THPVariable_Wrap", Layer.BINDING,
                        source="torch/csrc/autograd/python_variable.cpp",
                        note="binding.THPVariable_Wrap", libtorch=symbol("THPVariable_Wrap"))


def THPVariable_Wrap(tensor: TensorImpl) -> Tensor:
    """Hand the C++ tensor back to Python as a torch.Tensor object: the binding's last
    step of every call that returns a tensor."""
    with span(THPVARIABLE_WRAP) as s:
        s.set_result(tensor)
        return wrap(tensor)


def unpack(obj: Tensor) -> TensorImpl:
    """THPVariable_Unpack: the TensorImpl inside a Python tensor."""
    return obj._impl


def is_tensor(obj: Any) -> bool:
    """THPVariable_Check."""
    return isinstance(obj, Tensor)


def unwrap_args(value: Any) -> Any:
    """Arguments on their way to a kernel: every Python tensor, also inside lists and
    tuples, becomes its TensorImpl."""
    if isinstance(value, Tensor):
        return value._impl
    if type(value) in (list, tuple):
        return type(value)(unwrap_args(v) for v in value)
    if type(value) is dict:
        return {k: unwrap_args(v) for k, v in value.items()}
    return value


def wrap_result(value: Any) -> Any:
    """A kernel's result on its way back to Python: TensorImpls (also inside tuples and
    lists) become Python tensors."""
    if isinstance(value, TensorImpl):
        return wrap(value)
    if type(value) in (list, tuple):
        return type(value)(wrap_result(v) for v in value)
    return value


#: a storage's facts: the Python method (``UntypedStorage.nbytes``) and the C++ function
#: of torch/csrc/StorageMethods.cpp under it (``THPStorage_nbytes``)
STORAGE_METHOD = step("UntypedStorage.<method>", Layer.PYTHON, source="torch/storage.py")
STORAGE_BINDING = step("THPStorage_<method>", Layer.BINDING,
                       source="torch/csrc/StorageMethods.cpp")


class UntypedStorage:
    """What ``tensor.untyped_storage()`` returns: a thin handle on a Storage."""

    __slots__ = ("_storage",)

    def __init__(self, storage: Storage) -> None:
        self._storage = storage

    def nbytes(self) -> int:
        return self._fact("nbytes", self._storage.nbytes)

    def data_ptr(self) -> int:
        return self._fact("data_ptr", self._storage.data_ptr())

    def size(self) -> int:
        return self._fact("size", self._storage.nbytes)

    def _fact(self, name: str, value: int) -> int:
        """A StorageImpl field read by torch/csrc/StorageMethods.cpp (no aten operator)."""
        with span(STORAGE_METHOD, called=f"UntypedStorage.{name}") as py:
            with span(STORAGE_BINDING, called=f"THPStorage_{'nbytes' if name == 'size' else name}",
                      note=("binding.storage.data_ptr" if name == "data_ptr"
                            else "binding.storage.nbytes")) as b:
                b.set_result(value)
            py.set_result(value)
        return value

    @property
    def device(self) -> device:
        return of_type(self._storage.device)

    def __len__(self) -> int:
        return self._storage.nbytes

    def __repr__(self) -> str:
        """torch/storage.py ``_StorageBase.__repr__``: every byte on its own line, then
        what the storage is; a meta storage has no bytes to show."""
        st = self._storage
        info = f"[torch.storage.UntypedStorage(device={self.device}) of size {st.nbytes}]"
        if st.device == "meta":
            return "...\n" + info
        # a Python int and its digits per byte, before the string exists
        check_temporary("UntypedStorage.__repr__", st.nbytes, 40)
        assert st.data is not None      # not meta: the bytes exist
        return " " + "\n ".join(map(str, st.data[:st.nbytes].tolist())) + "\n" + info

    __str__ = __repr__

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        return self._storage.__tidx_summary__(max_values)
