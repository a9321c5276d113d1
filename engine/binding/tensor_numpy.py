"""``torch.from_numpy(a)`` and ``t.numpy()``: one buffer, two views of it
(torch/csrc/utils/tensor_numpy.cpp).

``tensor_from_numpy`` checks the array (an ndarray; strides a whole number of elements,
none negative; native byte order; a dtype torch has), then ``at::from_blob`` wraps the
array's own bytes in a tensor whose deleter holds the array: nothing is copied, and the
tensor's strides are the array's divided by the element size.  ``tensor_to_numpy``
checks the tensor (on the CPU, no grad, no conjugate or negative bit), prepares it
(``detach().cpu().resolve_conj().resolve_neg()``: the aten operators torch.profiler
records) and builds ``PyArray_New`` over ``tensor.data_ptr()`` with the strides in bytes.
Here both land on one :class:`~engine.core.storage.Storage`, which the storage picture
draws once.

https://github.com/pytorch/pytorch/blob/v2.13.0/torch/csrc/utils/tensor_numpy.cpp
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, inlined, step, symbol

from engine.binding.arg_parser import PythonArgParser
from engine.binding.ndarray import NDArray
from engine.binding.traced import traced
from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, check, torch_error, tp_name
from engine.core.storage import Storage
from engine.core.tensor_impl import TensorImpl
from engine.core.view import View
from engine.dispatch.aten import aten

SOURCE = "torch/csrc/utils/tensor_numpy.cpp"

TENSOR_FROM_NUMPY = step("tensor_from_numpy", Layer.BINDING, source=SOURCE,
                         note="numpy.tensor_from_numpy",
                         libtorch=symbol("torch::utils::tensor_from_numpy"))
FROM_BLOB = step("at::from_blob", Layer.BINDING, source="aten/src/ATen/ops/from_blob.h",
                 note="numpy.from_blob",
                 libtorch=inlined("at::from_blob", "torch::utils::tensor_from_numpy"))
TENSOR_TO_NUMPY = step("tensor_to_numpy", Layer.BINDING, source=SOURCE,
                       note="numpy.tensor_to_numpy",
                       libtorch=symbol("torch::utils::tensor_to_numpy"))
PYARRAY_NEW = step("PyArray_New", Layer.BINDING, source=SOURCE, note="numpy.PyArray_New",
                   libtorch=inlined("PyArray_New", "torch::utils::tensor_to_numpy"))

#: numpy's dtypes torch has (numpy_dtype_to_aten) that tidx's engine does not model yet
_TORCH_ONLY = ("uint16", "uint32", "uint64", "complex64", "complex128")
_SUPPORTED = ("float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
              "uint64, uint32, uint16, uint8, and bool")


def aten_dtype(dtype: np.dtype) -> D.dtype:
    """numpy_dtype_to_aten: torch's dtype for a numpy one, or torch's TypeError."""
    if dtype.name in _TORCH_ONLY:
        raise Refused(f"numpy's {dtype.name} is a torch dtype tidx does not model yet")
    try:
        return D.from_numpy(dtype)
    except (TypeError, KeyError):
        raise torch_error(TypeError, f"can't convert np.ndarray of type "
                                     f"numpy.{dtype.type.__name__}. "
                                     f"The only supported types are: {_SUPPORTED}.") from None


def tensor_from_numpy(array: Any, *, warn_if_not_writeable: bool = True) -> TensorImpl:
    """The tensor over the array's own bytes (no copy), after torch's checks."""
    if not isinstance(array, NDArray):
        raise torch_error(TypeError, f"expected np.ndarray (got {tp_name(array)})")
    with span(TENSOR_FROM_NUMPY, shape=list(array.shape), strides=list(array.strides),
              dtype=str(array.dtype)) as s:
        if not array.writeable and warn_if_not_writeable:
            raise Refused("torch.from_numpy of a read-only array warns in torch (\"The given "
                          "NumPy array is not writable ...\"); tidx does not model the warning")
        item = array.dtype.itemsize
        for stride in array.strides:
            check(stride % item == 0, ValueError,
                  "given numpy array strides not a multiple of the element byte size. Copy "
                  "the numpy array to reallocate the memory.")
        strides = [stride // item for stride in array.strides]
        check(all(stride >= 0 for stride in strides), ValueError,
              "At least one stride in the given numpy array is negative, and tensors with "
              "negative strides are not currently supported. (You can probably work around "
              "this by making a copy of your array  with array.copy().) ")
        check(array.dtype.isnative, ValueError,
              "given numpy array has byte order different from the native byte order. "
              "Conversion between byte orders is currently not supported.")
        dtype = aten_dtype(array.dtype)
        with span(FROM_BLOB, sizes=list(array.shape), strides=strides) as blob:
            result = TensorImpl(_blob(array, strides), View(array.shape, strides, 0), dtype)
            blob.set_result(result)
        # torch.profiler records aten::lift_fresh inside every caller (from_numpy,
        # torch.tensor, as_tensor, asarray of an array): the new tensor is lifted here
        result = aten.lift_fresh.default(result)
        s.set_result(result)
        return result


def from_numpy_data(array: NDArray, dtype: D.dtype | None, device: str,
                    copy: bool) -> TensorImpl:
    """internal_new_from_data given an array: tensor_from_numpy (no warning when it will
    be copied), then ``to(device, dtype, non_blocking=false, copy)``: torch.tensor copies,
    torch.as_tensor shares unless the dtype or device changes."""
    tensor = tensor_from_numpy(array, warn_if_not_writeable=not copy)
    return aten.to.device(tensor, device, tensor.dtype if dtype is None else dtype,
                          False, copy)


def _blob(array: NDArray, strides: list[int]) -> Storage:
    """The storage at::from_blob makes over the array's data pointer: the array's own
    Storage when the array starts at its first byte and spans all of it (the tensor and
    the array are then drawn as one storage); else a storage over exactly the bytes from
    the array's first element (torch's storage_offset() is 0, its data_ptr() the array's)."""
    item = array.dtype.itemsize
    extent = 0 if 0 in array.shape else \
        (1 + sum((n - 1) * s for n, s in zip(array.shape, strides))) * item
    storage = array.storage
    if array.offset == 0 and extent == storage.nbytes:
        return storage
    assert storage.data is not None
    data = storage.data[array.offset:array.offset + extent]
    alias = Storage(extent, "cpu", data=data,
                    address=storage.data_ptr() + array.offset if storage.nbytes else 0)
    alias.initialised = storage.initialised
    return alias


_NUMPY = PythonArgParser(["numpy(*, bool force=False)"])


def tensor_to_numpy(tensor: Any, args: tuple, kwargs: dict[str, Any]) -> NDArray:
    """``t.numpy(force=False)``: torch's checks, the prepared tensor, an array over its
    bytes (strides in bytes) whose base is the tensor."""
    force = bool(_NUMPY.parse(tensor, args, kwargs).values.get("force"))
    impl = tensor._impl
    with span(TENSOR_TO_NUMPY, force=force) as s:
        if not force:
            check(impl.device_type == "cpu", TypeError,
                  f"can't convert {_device(impl)} device type tensor to numpy. Use "
                  "Tensor.cpu() to copy the tensor to host memory first.")
            # GradMode::is_enabled() && requires_grad: under torch.no_grad() it converts
            check(not (current().grad_enabled and impl.requires_grad), RuntimeError,
                  "Can't call numpy() on Tensor that requires grad. Use "
                  "tensor.detach().numpy() instead.")
        elif impl.device_type != "cpu" or current().grad_enabled and impl.requires_grad:
            raise Refused("t.numpy(force=True) of a tensor off the CPU or requiring grad is "
                          "not modelled by tidx")
        prepared = aten.detach.default(impl)
        prepared = aten.to.device(prepared, "cpu", prepared.dtype, False, False)
        prepared = aten.resolve_neg.default(aten.resolve_conj.default(prepared))
        dtype = prepared.dtype
        if dtype.name in ("bfloat16",):
            raise torch_error(TypeError, "Got unsupported ScalarType BFloat16")
        item = dtype.itemsize
        v = prepared.view
        with span(PYARRAY_NEW, shape=list(v.sizes),
                  strides=[st * item for st in v.strides]) as new:
            result = NDArray(prepared.storage, v.offset * item, v.sizes,
                             tuple(st * item for st in v.strides), np.dtype(dtype.np),
                             base=tensor)
            new.set_result(result)
        s.set_result(result)
        return result


def numpy(self: Any, *args: Any, **kwargs: Any) -> NDArray:
    """``Tensor.numpy`` (THPVariable_numpy, python_variable_methods.cpp)."""
    return traced("Tensor.numpy", "THPVariable_numpy",
                  "torch/csrc/autograd/python_variable_methods.cpp",
                  lambda: tensor_to_numpy(self, args, kwargs), note="numpy.THPVariable_numpy")


def _device(impl: TensorImpl) -> str:
    return "cuda:0" if impl.device_type == "cuda" else impl.device_type
