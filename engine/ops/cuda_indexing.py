"""Advanced indexing on the simulated CUDA device: what index / _index_put_impl_ do
differently when self is a CUDA tensor (issue 16, the setitem of seed 001 on a GPU).

The operators are the CPU's (engine/ops/advanced.py); torch 2.13 branches on the device
in four places, which this module models:

* ``_index_put_impl_`` (TensorAdvancedIndexing.cpp): a 0-dim value on another device
  (THPVariable_setitem made it on the CPU) is moved with ``value.to(self.device())``;
  on CUDA, ``accumulate`` (or deterministic algorithms) takes index_put_with_sort_stub
  (Indexing.cu), which tidx refuses rather than models half;
* ``make_info`` (TensorAdvancedIndexingUtils.h): every index tensor not on self's device
  is moved there with ``indice.to(self.device())``, after expand_outplace and
  transposeToFront and before the int32 -> int64 conversion: aten::to -> _to_copy ->
  empty_strided on CUDA (a caching allocator block) -> copy_ -> one host-to-device
  cudaMemcpyAsync of numel * 8 bytes for an int64 index;
* ``AdvancedIndex::AdvancedIndex``: for a CUDA src, two or more index tensors whose
  strides differ are all made contiguous (here: refused, a GPU-to-GPU copy);
* the stubs: ``index_kernel`` / ``index_put_kernel`` of native/cuda/IndexKernel.cu, both
  ``gpu_index_kernel`` launches that compute each element's byte offset from the index
  tensors and bound-check it with CUDA_KERNEL_ASSERT (a device-side assert, not the
  CPU's IndexError: refused here, with what a real GPU would do said).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, part_of, step

from engine.core.errors import Refused, torch_error
from engine.dispatch.aten import aten
from engine.memory.allocator import check_temporary
from engine.ops.touch import elements

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
UTILS = "aten/src/ATen/native/TensorAdvancedIndexingUtils.h"
INDEX_CU = "aten/src/ATen/native/cuda/IndexKernel.cu"


VALUE_TO_SELF_DEVICE = step("value.to(self.device())", Layer.KERNEL, source=ADV,
                            libtorch=part_of("at::native::_index_put_impl_"),
                            lecture=Lecture.TRANSFER)


def value_to_device(self, value):
    """``if (value.device() != self.device() && value.numel() == 1 && value.dim() == 0)
    value_ = value.to(self.device());`` -- the CPU scalar setitem made goes to the GPU."""
    if value.device_type == self.device_type or value.numel() != 1 or value.dim() != 0:
        return value
    with span(VALUE_TO_SELF_DEVICE,
              note=lambda: Note("cudaindex.value_to_device", device=_device(self)),
              value=value) as s:
        moved = aten.to.dtype_layout(value, device=self.device_type)
        s.set(simulated=True)
        s.set_result(moved)
    return moved


def check_not_with_sort(self, accumulate: bool) -> None:
    """On CUDA, accumulate=True goes to index_put_with_sort_stub (Indexing.cu: sort the
    linearised indices, then one thread block per run of equal ones)."""
    if self.device_type == "cuda" and accumulate:
        raise Refused("index_put_ with accumulate=True on the simulated CUDA device "
                      "(index_put_with_sort_stub, Indexing.cu) is not modelled yet")


INDICE_TO_SELF_DEVICE = step("indice.to(self.device())", Layer.KERNEL, source=UTILS,
                             libtorch=part_of("at::native::make_info"), lecture=Lecture.TRANSFER)


def indices_to_device(self, indices: list) -> list:
    """make_info's ``indice.to(self.device())`` for every defined index elsewhere."""
    out = []
    for k, index in enumerate(indices):
        if index is None or index.device_type == self.device_type:
            out.append(index)
            continue
        nbytes = index.numel() * index.dtype.itemsize
        with span(INDICE_TO_SELF_DEVICE,
                  note=lambda k=k, nbytes=nbytes: Note("cudaindex.index_to_device", dim=k,
                                                       device=_device(self), nbytes=nbytes),
                  index=index) as s:
            moved = aten.to.dtype_layout(index, device=self.device_type)
            s.set(simulated=True)
            s.set_result(moved)
        out.append(moved)
    return out


def check_strides_match(src, indices: list) -> None:
    """AdvancedIndex: "For CUDA ... tensors, force all index tensors to have the same
    striding to simplify the CUDA kernel" -- indice.contiguous() on the GPU."""
    if src.device_type != "cuda" or len(indices) < 2:
        return
    # Tensor::contiguous() returns an index that is contiguous already (no operator runs;
    # strides of size-1 dims may differ): only a real copy is not modelled
    if any(i.view.strides != indices[0].view.strides for i in indices[1:]) and \
            not all(i.is_contiguous() for i in indices):
        raise Refused("index tensors of different strides on the simulated CUDA device "
                      "(AdvancedIndex makes them contiguous with a GPU-to-GPU copy) are not "
                      "modelled yet")


def check_value_device(src, value) -> None:
    """make_index_put_iterator's TensorIterator (compute_types): the common device is the
    output's (cuda:0); a value elsewhere that is not a 0-dim CPU input is an error."""
    if src.device_type == "cuda" and value.device_type == "cpu" and value.dim() != 0:
        raise torch_error(RuntimeError, "Expected all tensors to be on the same device, "
                                        "but found at least two devices, cuda:0 and cpu!")


def _device(t) -> str:
    return "cuda:0" if t.device_type == "cuda" else t.device_type


def offsets_or_refuse(info, shape: tuple[int, ...], offsets_of) -> np.ndarray:
    """The kernel's offsets; an index out of range is gpu_index_kernel's device-side
    assert on a real GPU, which tidx does not simulate: refused, saying so."""
    try:
        return offsets_of(info, shape)
    except IndexError as exc:
        if not hasattr(exc, "bad"):
            raise
        raise Refused(f"an index out of range on the simulated CUDA device ({exc}): on a "
                      "real GPU this is no IndexError: gpu_index_kernel's "
                      "CUDA_KERNEL_ASSERT(-sizes[i] <= index && index < sizes[i] && \"index "
                      "out of bounds\") fails on the device and torch raises RuntimeError: "
                      "CUDA error: device-side assert triggered (at this or a later CUDA "
                      "call); tidx does not simulate device-side asserts") from None


INDEX_KERNEL = step("index_kernel", Layer.KERNEL, source=INDEX_CU, note="cudaindex.index_kernel")
GPU_INDEX_KERNEL = step("gpu_index_kernel", Layer.KERNEL, source=INDEX_CU)


def index_kernel(self, out, offsets: np.ndarray, flat: np.ndarray, formulas) -> None:
    """index_kernel (IndexKernel.cu) -> gpu_index_kernel: thread i reads the element at
    its computed offset into out[i]."""
    with span(INDEX_KERNEL, numel=out.numel()) as k:
        with span(GPU_INDEX_KERNEL,
                  note=lambda: Note("cudaindex.gpu_index_kernel.read", numel=out.numel()),
                  numel=out.numel()) as s:
            out.array(write=True)[...] = flat[offsets]
            s.set(simulated=True, offsets=formulas,
                  read=lambda: elements(self.storage, offsets))
        k.set(simulated=True)
        k.set_result(out)


INDEX_PUT_KERNEL = step("index_put_kernel", Layer.KERNEL, source=INDEX_CU,
                        note="cudaindex.index_put_kernel")


def index_put_kernel(self, value, shape: tuple[int, ...], offsets: np.ndarray,
                     flat: np.ndarray, formulas) -> None:
    """index_put_kernel (IndexKernel.cu, accumulate false) -> gpu_index_kernel: thread i
    writes its value to its computed offset.  Threads writing one element run in no set
    order: where they write different values the result is not defined, so refused."""
    # the values flattened, the offsets' order and the sorted offsets and values
    check_temporary("index_put_", offsets.size, 24 + 2 * value.dtype.itemsize)
    vals = np.broadcast_to(value.array(), shape).reshape(-1)
    offs = offsets.reshape(-1)
    order = np.argsort(offs, kind="stable")
    same = offs[order][1:] == offs[order][:-1]
    if same.any():
        differ = vals[order][1:] != vals[order][:-1]
        if (same & differ).any():
            raise Refused("index_put_ writing different values to one element on the "
                          "simulated CUDA device: which GPU thread's write lands last is not "
                          "defined, so tidx does not pick one")
    with span(INDEX_PUT_KERNEL, accumulate=False) as k:
        with span(GPU_INDEX_KERNEL,
                  note=lambda: Note("cudaindex.gpu_index_kernel.write", numel=offs.size),
                  numel=offs.size) as s:
            self.storage.initialised = True
            flat[offs] = vals
            s.set(simulated=True, offsets=formulas,
                  written=lambda: elements(self.storage, offsets))
        k.set(simulated=True)


def check_indices_on_cpu_or_selfdevice(self, indices: list) -> None:
    """index.Tensor's meta: "Only allow: `dev_tensor[{cpu,dev}_tensor]`" -- a CUDA index
    into a CPU tensor is an error (index_put_ has no such check: make_info moves it)."""
    for index in indices:
        if index is not None and index.device_type not in ("cpu", self.device_type):
            raise torch_error(RuntimeError, "indices should be either on cpu or on the same "
                                            f"device as the indexed tensor ({_device(self)})")
