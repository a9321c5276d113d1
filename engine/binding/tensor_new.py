"""``torch.tensor`` and list indices: Python data into a new tensor
(torch/csrc/utils/tensor_new.cpp, ``internal_new_from_data``).

The sizes come from walking down the first elements, the dtype from every element
(promoted; an empty list counts as the default float); the tensor is allocated with
``empty``, ``recursive_store`` copies the numbers in, and ``to`` + ``lift_fresh`` finish.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, step

from engine.binding.arg_parser import unpack_long
from engine.binding.ndarray import NDArray
from engine.binding.tensor_numpy import aten_dtype, from_numpy_data, tensor_from_numpy
from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, torch_error, tp_name
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.ops.scalar import to_dtype_scalar
from engine.memory.allocator import check_temporary

TENSOR_NEW = "torch/csrc/utils/tensor_new.cpp"
#: compute_sizes' MAX_DIMS: how deep nested lists may go.
MAX_DIMS = 128


def _is_sequence(obj: Any) -> bool:
    """PySequence_Check for the values a statement holds: lists, tuples, ranges and
    strings."""
    return isinstance(obj, (list, tuple, range, str))


def compute_sizes(data: Any) -> tuple[int, ...]:
    """compute_sizes: the lengths down the first elements (a string is a sequence too,
    each character another string, so strings nest until MAX_DIMS refuses them)."""
    sizes: list[int] = []
    probe = data
    while _is_sequence(probe):
        sizes.append(len(probe))
        if len(sizes) > MAX_DIMS:
            raise torch_error(ValueError, f"too many dimensions '{tp_name(probe)}'")
        if not probe:
            break
        probe = probe[0]
    return tuple(sizes)


def infer_scalar_type(obj: Any) -> D.dtype:
    """infer_scalar_type: every element's type, promoted; an empty sequence counts as
    the default float; a string is refused, anything else cannot be inferred.  A numpy
    scalar (``a[0]``) is its own dtype (np.float64 is float64, not the default)."""
    if isinstance(obj, np.generic):
        return _numpy_scalar_dtype(obj)
    if isinstance(obj, float):
        return current().default_dtype
    if isinstance(obj, complex):
        # get_default_complex_dtype(): complex128 when the default float is float64
        return D.to_complex(current().default_dtype)
    if isinstance(obj, bool):
        return D.bool
    if isinstance(obj, int):
        return D.int64
    if isinstance(obj, str):
        raise torch_error(TypeError, f"new(): invalid data type '{tp_name(obj)}'")
    if isinstance(obj, (list, tuple, range)):
        if not obj:
            return current().default_dtype
        result = infer_scalar_type(obj[0])
        for item in obj[1:]:
            result = D.promote_types(result, infer_scalar_type(item))
        return result
    if tp_name(obj) == "Tensor":
        raise Refused("torch.tensor() of a list holding tensors is not supported yet")
    raise torch_error(RuntimeError, f"Could not infer dtype of {tp_name(obj)}")


def _numpy_scalar_dtype(obj: np.generic) -> D.dtype:
    """numpy_dtype_to_aten of a numpy scalar's dtype (tensor_numpy.cpp)."""
    try:
        return D.from_numpy(obj.dtype)
    except TypeError:
        raise Refused(f"torch.tensor of a {tp_name(obj)} is not modelled by tidx") from None


def _stored_values(data: Any, sizes: tuple[int, ...]) -> list:
    """recursive_store's walk: every sequence must have the length of the first one
    at its depth, and below the last dim there must be numbers."""
    out: list = []

    def walk(obj: Any, dim: int) -> None:
        if dim == len(sizes):
            out.append(obj)           # store_scalar checks it is a number
            return
        if not _is_sequence(obj):
            raise torch_error(TypeError, "not a sequence")
        if len(obj) != sizes[dim]:
            raise torch_error(ValueError, f"expected sequence of length {sizes[dim]} at dim "
                                          f"{dim} (got {len(obj)})")
        for item in obj:
            walk(item, dim + 1)

    walk(data, 0)
    return out


def store_scalars(values: list, dtype: D.dtype) -> np.ndarray:
    """store_scalar for each element (torch/csrc/utils/python_scalars.h): a bool dtype
    takes any number's truth; a floating dtype the double, rounded (beyond its range, to
    inf: no check); an integral dtype goes through unpackIntegral: a Python int must fit
    int64 (THPUtils_unpackLong), then checked_convert names the type ``uint8`` ...
    A numpy scalar is stored as the number it holds.
    """
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    if dtype.is_complex:
        # THPUtils_unpackComplexDouble: any Python number, as a c10::complex<double>
        for v in values:
            if not isinstance(v, (bool, int, float, complex)):
                raise torch_error(TypeError, f"must be real number, not {tp_name(v)}")
        try:
            doubles = np.array([complex(v) for v in values], dtype=np.complex128)
        except OverflowError as exc:          # an int beyond double's range
            raise torch_error(OverflowError, str(exc)) from None
        with np.errstate(over="ignore"):
            return doubles.astype(dtype.np)
    if dtype is D.bool:
        # a complex number's truth too (store_scalar's bool case: THPUtils_unpackBool
        # of any number)
        if all(isinstance(v, (bool, int, float, complex)) for v in values):
            return np.array([bool(v) for v in values], dtype=np.bool_)
    for v in values:
        if not isinstance(v, (bool, int, float)):
            if dtype.is_floating_point:
                raise torch_error(TypeError, f"must be real number, not {tp_name(v)}")
            raise torch_error(TypeError, f"'{tp_name(v)}' object cannot be interpreted as an "
                                         f"integer")
    if dtype is D.bool:
        return np.array([bool(v) for v in values], dtype=np.bool_)
    if dtype.is_floating_point:
        try:
            doubles = np.array([float(v) for v in values], dtype=np.float64)
        except OverflowError as exc:          # an int beyond double's range
            raise torch_error(OverflowError, str(exc)) from None
        with np.errstate(over="ignore"):
            return doubles.astype(dtype.np)
    out = []
    for v in values:
        if not isinstance(v, float):
            unpack_long(v)
        out.append(to_dtype_scalar(v, dtype, dtype.name))
    return np.array(out, dtype=dtype.np)


INTERNAL_NEW_FROM_DATA = step("internal_new_from_data", Layer.BINDING, source=TENSOR_NEW,
                              note="binding.internal_new_from_data")
RECURSIVE_STORE = step("recursive_store", Layer.BINDING, source=TENSOR_NEW,
                       note="binding.recursive_store", lecture=Lecture.HIDDEN)


def internal_new_from_data(data: Any, dtype: D.dtype | None, device: str,
                           indexing: bool = False, copy_numpy: bool = True) -> TensorImpl:
    """empty(sizes) -> recursive_store -> to(device, dtype) -> lift_fresh; a numpy array
    goes through tensor_from_numpy instead (``copy_numpy``: torch.tensor copies it,
    torch.as_tensor does not)."""
    with span(INTERNAL_NEW_FROM_DATA) as s:
        if isinstance(data, NDArray):
            s.note("binding.internal_new_from_data.numpy")
            if indexing:        # indexing_tensor_from_data: a mask stays one, else long
                inferred = aten_dtype(data.dtype)
                dtype = inferred if inferred in (D.bool, D.uint8) else dtype
            result = from_numpy_data(data, dtype, device, copy_numpy and not indexing)
            s.set_result(result)
            return result
        if indexing:
            # indexing_tensor_from_data infers first: a list of bools (or bytes) stays a
            # mask, anything else becomes the long tensor asked for
            scalar_type = infer_scalar_type(data)
            assert dtype is not None        # the long tensor an index asks for
            inferred = scalar_type if scalar_type in (D.bool, D.uint8) else dtype
        elif isinstance(data, str):
            raise torch_error(TypeError, f"new(): invalid data type '{tp_name(data)}'")
        sizes = compute_sizes(data)
        if not indexing:
            # with a dtype there is no type inference: the values are stored as that type
            inferred = infer_scalar_type(data) if dtype is None else dtype
        target = dtype if dtype is not None and not indexing else inferred
        s.set(sizes=list(sizes), inferred_dtype=str(inferred))
        if device == "meta":
            s.note("binding.internal_new_from_data.meta")
            return aten.empty.memory_format(sizes, dtype=target, device="meta")
        tensor = aten.empty.memory_format(sizes, dtype=inferred, device="cpu")
        if tensor.numel():      # no elements: recursive_store is skipped, nothing checked
            with span(RECURSIVE_STORE, numel=tensor.numel()) as r:
                # the values in a flat list, their Python numbers, numpy's array of them
                check_temporary("torch.tensor", tensor.numel(), 56)
                stored = store_scalars(_stored_values(data, sizes), inferred)
                tensor.array(write=True)[...] = stored.reshape(sizes)
                r.set_result(tensor)
        tensor = aten.to.device(tensor, device, target)
        tensor = aten.lift_fresh.default(tensor)
        s.set_result(tensor)
        return tensor


# -- Tensor.new_tensor and torch.asarray (tensor_new.cpp: new_tensor, asarray) --------------
NEW_TENSOR_WARNING = ("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                      ".requires_grad_(True), rather than tensor.new_tensor(sourceTensor).")


PY_ERR_WARN_EX = step("PyErr_WarnEx", Layer.BINDING)


def warn(message: str, source: str) -> None:
    """PyErr_WarnEx(PyExc_UserWarning, message): shown as a step of the trace."""
    with span(PY_ERR_WARN_EX, source=source, category="UserWarning",
              message=message, note=Note("binding.user_warning", message=message)):
        pass


def new_from_tensor(var: TensorImpl, dtype: D.dtype | None, device: str | None,
                    copy: bool) -> TensorImpl:
    """internal_new_from_data given a tensor: ``detach()`` when copying, then
    ``to(device, dtype, non_blocking=false, copy)``."""
    if copy:
        var = aten.detach.default(var)
    return aten.to.device(var, device or var.device_type, dtype or var.dtype,
                          False, copy)


def new_tensor(self: TensorImpl, data: Any, dtype: D.dtype | None, device: str | None,
               is_tensor: bool) -> TensorImpl:
    """torch::utils::new_tensor: self's dtype and device unless given; no type
    inference (new_from_data_copy); a tensor is copied (with torch's UserWarning); the
    result is detached."""
    dtype = dtype or self.dtype
    device = device or self.device_type
    if is_tensor:
        warn(NEW_TENSOR_WARNING, TENSOR_NEW)
        result = new_from_tensor(data, dtype, device, True)
    else:
        result = internal_new_from_data(data, dtype, device)
    return aten.detach_.default(result)


ASARRAY = step("asarray", Layer.BINDING, source=TENSOR_NEW)


def asarray(obj: Any, is_tensor: bool, dtype: D.dtype | None, device: str | None,
            copy: bool | None) -> TensorImpl:
    """torch::utils::asarray: a tensor is shared unless copy=True or a dtype/device
    change asks for a copy (copy=False then refuses); anything else is a sequence or a
    number, copied into a new tensor (type inference only without a dtype)."""
    force_copy, force_alias = copy is True, copy is False
    array = isinstance(obj, NDArray)
    with span(ASARRAY, note="binding.asarray.tensor" if is_tensor or array
              else "binding.asarray.data") as s:
        if is_tensor or array:
            # an array first becomes a tensor over its bytes, then follows a tensor's path
            tensor = tensor_from_numpy(obj, warn_if_not_writeable=False) if array else obj
            wrong_device = device is not None and device != tensor.device_type
            wrong_dtype = dtype is not None and dtype is not tensor.dtype
            if force_copy or (copy is None and (wrong_device or wrong_dtype)):
                if wrong_device or wrong_dtype:
                    tensor = aten.to.device(tensor, device or tensor.device_type,
                                            dtype or tensor.dtype, False, force_copy)
                else:
                    tensor = aten.clone.default(tensor)
            else:
                if wrong_device:
                    raise torch_error(ValueError, f"can't alias tensor from device "
                                                  f"'{tensor.device_type}' to '{device}'.")
                if wrong_dtype and dtype is not None:
                    raise torch_error(ValueError, f"can't alias tensor with dtype "
                                                  f"'{D.cpp_name(tensor.dtype)}' into dtype "
                                                  f"'{D.cpp_name(dtype)}'.")
            s.set_result(tensor)
            return tensor
        if force_alias:
            raise torch_error(ValueError, "can't alias arbitrary sequence into a tensor.")
        if tp_name(obj) == "Tensor" or (isinstance(obj, (list, tuple)) and any(
                tp_name(v) == "Tensor" for v in obj)):
            raise Refused("torch.asarray of a sequence holding tensors is not modelled by tidx")
        tensor = internal_new_from_data(obj, dtype, device or "cpu")
        s.set_result(tensor)
        return tensor
