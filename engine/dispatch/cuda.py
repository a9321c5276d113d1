"""What the simulated CUDA device runs, and the names of its kernels.

tidx's CUDA device is a simulation (issue 16): the factories that allocate and fill a
tensor (empty, zeros, ones, full, rand, randn and their ``*_like``), the view operators
(new sizes and strides over the same storage, the same kernel on every backend), the
copies between and on the devices (engine/ops/cuda_copy.py) and advanced indexing
(engine/ops/cuda_indexing.py).  Any other operator on a CUDA tensor is refused in one
line rather than answered by a CPU kernel wearing a CUDA label.

The kernel names are torch's CUDA registrations (aten/src/ATen/native/native_functions.yaml,
``CUDA:`` dispatch entries) where they differ from the CPU's.
"""

from __future__ import annotations

import numpy as np

from engine.core.errors import Refused, torch_error

#: Operators whose CUDA kernel differs in name from the CPU one: name -> (kernel, source).
CUDA_KERNELS = {
    "aten::empty.memory_format": ("at::native::empty_cuda",
                                  "aten/src/ATen/native/cuda/TensorFactories.cu"),
    "aten::empty_strided": ("at::native::empty_strided_cuda",
                            "aten/src/ATen/native/cuda/TensorFactories.cu"),
}

#: Factories and the in-place fills they end in (their kernels branch on the device).
_FACTORIES = {
    "aten::empty.memory_format", "aten::empty_strided", "aten::zeros", "aten::ones",
    "aten::full", "aten::rand", "aten::randn", "aten::empty_like", "aten::zeros_like",
    "aten::ones_like", "aten::full_like", "aten::rand_like", "aten::randn_like",
    "aten::fill_.Scalar", "aten::zero_", "aten::normal_", "aten::uniform_",
}

#: View operators: metadata over the same storage, the same kernel on every device.
_VIEWS = {
    "aten::select.int", "aten::slice.Tensor", "aten::view", "aten::transpose.int", "aten::t",
    "aten::unsqueeze", "aten::squeeze", "aten::squeeze.dim", "aten::squeeze.dims",
    "aten::expand", "aten::permute", "aten::narrow", "aten::alias", "aten::as_strided",
    "aten::diagonal", "aten::reshape", "aten::flatten.using_ints", "aten::unflatten.int",
    "aten::movedim.int", "aten::movedim.intlist", "aten::view_as", "aten::expand_as",
}

#: Copies between the CPU and the simulated GPU (cudaMemcpyAsync), what setitem runs.
_COPIES = {"aten::copy_", "aten::fill_.Tensor", "aten::lift_fresh", "aten::to.device",
           "aten::to.dtype", "aten::to.dtype_layout", "aten::_to_copy"}

#: Advanced indexing (engine/ops/cuda_indexing.py): index tensors moved to the device,
#: IndexKernel.cu's gpu_index_kernel.
_INDEXING = {"aten::index.Tensor", "aten::index_put_", "aten::_index_put_impl_"}

#: Copy.cu's whole copy path: clone and contiguous (its temporaries, GPU to GPU copies).
_COPY_PATH = {"aten::clone", "aten::contiguous"}

MODELLED = _FACTORIES | _VIEWS | _COPIES | _INDEXING | _COPY_PATH


#: TensorIterator binary operators (device_check: NoCheck in native_functions.yaml): their
#: device check is TensorIterator::compute_types', in the structured meta, before a kernel.
_ITER_BINARY = {f"aten::{op}{inplace}.Tensor"
                for op in ("add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge")
                for inplace in ("", "_")}


def same_device_error(name: str, args: tuple) -> BaseException | None:
    """TensorIterator::compute_types: the common device is the first non-CPU operand's
    (cuda:0); an operand elsewhere is an error unless it is a 0-dim CPU input (a CPU
    scalar the CUDA kernel reads).  The output (self, for an in-place op) counts too.
    The error is returned, not raised: the dispatcher raises it inside the operator's
    step, where torch.profiler has recorded the operator."""
    if name not in _ITER_BINARY:
        return None
    tensors = [a for a in args[:2] if hasattr(a, "device_type")]
    if len(tensors) != 2 or not any(t.device_type == "cuda" for t in tensors):
        return None
    # Only where nothing torch checks earlier could fail first: compute_shape's broadcast
    # (and an in-place output's shape), and compute_types' casting of the output, which
    # torch checks before the inputs' devices; other cases stay refused, not guessed.
    a, b = (t.view.sizes for t in tensors)
    try:
        shape = np.broadcast_shapes(a, b)
    except ValueError:
        return None
    in_place = name.partition(".")[0].endswith("_")
    if tensors[0].dtype is not tensors[1].dtype or tensors[0].dtype.name == "bool" or \
            (in_place and tuple(shape) != tuple(a)):
        return None
    for i, t in enumerate(tensors):
        is_output = i == 0 and in_place
        if t.device_type == "cpu" and (is_output or t.dim() != 0):
            return torch_error(RuntimeError, "Expected all tensors to be on the same device, "
                                             "but found at least two devices, cuda:0 and cpu!")
    return None


def check_modelled(name: str, op_name: str) -> None:
    """Refuse an operator the simulated CUDA device does not run, in one line."""
    if name not in MODELLED:
        raise Refused(f"{op_name} on the simulated CUDA device is not modelled yet (tidx "
                      "simulates CUDA factories, views, copies and indexing; arithmetic and "
                      "reductions on the GPU not yet)")
