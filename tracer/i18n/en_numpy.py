"""English notes of numpy's values (issue #26): tensor_numpy.cpp's from_numpy and
numpy(), and torch.tensor / as_tensor given an array (engine/binding/tensor_numpy.py,
engine/binding/tensor_new.py).  Part of :data:`tracer.i18n.en.TEXT`, which merges this
table in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "numpy.tensor_from_numpy":
        "tensor_from_numpy: an ndarray, strides a whole number of elements and none negative, native byte order, a dtype torch has; its strides in bytes become strides in elements",
    "numpy.from_blob":
        "at::from_blob wraps the array's own bytes (its data pointer) in a tensor whose deleter holds the array: nothing is copied, both are views of one buffer",
    "numpy.THPVariable_numpy":
        "Tensor.numpy(): tensor_to_numpy over the tensor's own bytes",
    "numpy.tensor_to_numpy":
        "tensor_to_numpy: on the CPU, no grad, no conjugate or negative bit; then detach().cpu().resolve_conj().resolve_neg() (each returns the same bytes here)",
    "numpy.PyArray_New":
        "PyArray_New over tensor.data_ptr(): the strides in bytes (numpy) are the tensor's strides in elements times the element size; the array's base is the tensor",
    "binding.internal_new_from_data.numpy":
        "a numpy array: tensor_from_numpy over its bytes, then to(device, dtype, copy): "
        "torch.tensor copies them, torch.as_tensor keeps them unless the dtype or device changes",
    "factory.as_tensor":
        "torch.as_tensor: internal_new_from_data without copying a tensor or an array it can "
        "keep (same dtype, same device); a list is copied into a new tensor",
}
