"""How a tensor gets its memory: ``empty_generic`` and the steps seed 002 walks.

Mirrors aten/src/ATen/EmptyTensor.cpp ``_empty_generic``:
check_size_nonnegative -> computeStorageNbytesContiguous -> allocator ->
StorageImpl -> TensorImpl -> generic_set_sizes_contiguous -> (restride for a
memory format).  On the meta device the same steps run with a meta allocator
that hands out no memory (``empty_meta``), which is the whole point of meta
tensors: shapes and strides without bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Counted, Layer, Lecture, inlined, step, symbol

from engine.core import view as S
from engine.core.dtypes import dtype as DType
from engine.core.errors import check
from engine.core.storage import Storage
from engine.core.tensor_impl import TensorImpl
from engine.core.view import View
from engine.memory.allocator import ALIGNMENT, check_limit, new_storage

EMPTY = "aten/src/ATen/EmptyTensor.cpp"
EMPTY_CUDA = "aten/src/ATen/cuda/EmptyTensor.cpp"
ALLOC = "c10/core/CPUAllocator.cpp"
STORAGE = "c10/core/StorageImpl.h"
TENSORIMPL = "c10/core/TensorImpl.h"

_INT64_MAX = 2**63 - 1


def check_size_nonnegative(sizes: Sequence[int]) -> None:
    """at::detail::check_size_nonnegative."""
    for s in sizes:
        check(s >= 0, RuntimeError,
              f"Trying to create tensor with negative dimension {s}: {S.fmt_sizes(sizes)}")


def _restride_contiguous(sizes: Sequence[int]) -> tuple[int, ...]:
    """TensorImpl::empty_tensor_restride(Contiguous) with its overflow check."""
    strides = S.contiguous_strides(sizes)
    # c10::mul_overflows on each running product: a zero-sized tensor passes the
    # storage check (0 bytes) but can still have strides that overflow int64.
    acc = 1
    for s in reversed(sizes[1:]):
        acc *= max(int(s), 1)
        check(acc <= _INT64_MAX, RuntimeError, "Stride calculation overflowed")
    return strides


STORAGE_IMPL = step("StorageImpl", Layer.MEMORY, source=STORAGE, note="memory.StorageImpl",
                    libtorch=inlined("c10::StorageImpl::StorageImpl", "at::detail::empty_generic"))
META_ALLOCATOR_ALLOCATE = step("MetaAllocator::allocate", Layer.MEMORY, source=EMPTY,
                               note="memory.MetaAllocator")
DEFAULT_CPU_ALLOCATOR_ALLOCATE = step("DefaultCPUAllocator::allocate", Layer.MEMORY, source=ALLOC,
                                     libtorch=symbol("c10::DefaultCPUAllocator::allocate"),
                                     lecture=Lecture.ALLOCATION_PATH, counted=Counted.BLOCK)


def _allocate(nbytes: int, device: str) -> Storage:
    """The allocator and the StorageImpl: real memory on CPU, none on meta."""
    if device == "cuda":
        return _allocate_cuda(nbytes)
    if device == "meta":
        with span(META_ALLOCATOR_ALLOCATE, nbytes=nbytes):
            storage = new_storage(nbytes, "meta")
    else:
        with span(DEFAULT_CPU_ALLOCATOR_ALLOCATE,
                  note=lambda: Note("memory.posix_memalign", nbytes=nbytes, alignment=ALIGNMENT),
                  nbytes=nbytes, alignment=ALIGNMENT) as s:
            storage = new_storage(nbytes, "cpu")
            # the numpy buffer's real alignment (data_ptr() shows a simulated address)
            # (0 bytes: c10::alloc_cpu returns nullptr, aligned as any address 0 is; numpy's
            # empty slice would report where it happens to point, a different answer each
            # run)
            s.set(aligned=lambda: nbytes == 0 or (storage.data is not None and
                  int(storage.data.ctypes.data) % ALIGNMENT == 0))
    with span(STORAGE_IMPL, nbytes=nbytes, resizable=True) as s:
        s.set_result(storage)
    return storage


def _allocate_cuda(nbytes: int) -> Storage:
    """c10::cuda::CUDACachingAllocator (simulated): a block of the run's simulated device
    allocator; the bytes tidx keeps for it are host memory standing for the device's.

    Those host bytes are real memory, so they count against the run's one budget like a
    CPU storage's (checked here, charged by the Storage, given back when it dies).  The
    caching allocator's own rounding, segments and cache are bookkeeping with no memory
    behind them: a cached block or a 2 MiB segment costs nothing real, and does not
    count."""
    from engine.memory import cuda_lifetime
    from engine.memory.cuda_caching_allocator import CUDA_CACHING_ALLOCATOR_ALLOCATE, \
        device_allocator

    check_limit(nbytes)
    with span(CUDA_CACHING_ALLOCATOR_ALLOCATE,
              note=lambda: Note("cuda.device.allocate", nbytes=nbytes), nbytes=nbytes) as s:
        block = device_allocator().allocate(nbytes)
        ptr = block.ptr if block is not None else 0
        storage = Storage(nbytes, "cuda", np.empty(nbytes, dtype=np.uint8), address=ptr)
        # the run remembers the block, so that the storage's death can give it back
        cuda_lifetime.register(storage, block)
        s.set_result(hex(ptr) if ptr else "0")
    with span(STORAGE_IMPL, nbytes=nbytes, resizable=True) as s:
        s.set_result(storage)
    return storage


_EMPTY_NOTES = {"meta": "memory.empty_generic.meta", "cuda": "cuda.device.empty_generic"}


AT_DETAIL_EMPTY_CUDA = step("at::detail::empty_cuda", Layer.MEMORY, source=EMPTY_CUDA,
                            note="cuda.device.empty_cuda")


def empty_generic(sizes: Sequence[int], dtype: DType, device: str = "cpu",
                  memory_format: str | None = None):
    """at::detail::empty_generic / empty_meta: a tensor with fresh, uninitialised storage."""
    sizes = tuple(int(s) for s in sizes)
    if device == "cuda":
        with span(AT_DETAIL_EMPTY_CUDA, sizes=list(sizes), dtype=str(dtype)) as s:
            result = _empty_generic(sizes, dtype, device, memory_format)
            s.set_result(result)
        return result
    return _empty_generic(sizes, dtype, device, memory_format)


EMPTY_GENERIC = step("_empty_generic", Layer.MEMORY, source=EMPTY,
                     libtorch=symbol("at::detail::empty_generic"),
                     lecture=Lecture.FOLD_INSIDE_AFTER_FIRST)
CHECK_SIZE_NONNEGATIVE = step("check_size_nonnegative", Layer.MEMORY, source=EMPTY,
                              note="memory.check_size_nonnegative",
                              libtorch=symbol("at::detail::check_size_nonnegative"),
                              lecture=Lecture.HIDDEN)
COMPUTE_STORAGE_NBYTES_CONTIGUOUS = step("computeStorageNbytesContiguous", Layer.MEMORY,
                                         source=EMPTY,
                                         note="memory.computeStorageNbytesContiguous",
                                         libtorch=symbol("at::detail::computeStorageNbytesContiguous"))
TENSOR_IMPL = step("TensorImpl", Layer.MEMORY, source=TENSORIMPL, note="memory.TensorImpl",
                   libtorch=symbol("c10::TensorImpl::TensorImpl(c10::Storage&&, "
                                   "c10::DispatchKeySet, caffe2::TypeMeta)"))
GENERIC_SET_SIZES_CONTIGUOUS = step("generic_set_sizes_contiguous", Layer.MEMORY,
                                    source=TENSORIMPL, note="memory.generic_set_sizes_contiguous",
                                    libtorch=inlined("c10::TensorImpl::generic_set_sizes_contiguous<int64_t>",
                                                     "at::detail::empty_generic"))
EMPTY_TENSOR_RESTRIDE = step("empty_tensor_restride", Layer.MEMORY, source=TENSORIMPL,
                             note="memory.channels_last")


def _empty_generic(sizes: tuple[int, ...], dtype: DType, device: str,
                   memory_format: str | None):
    with span(EMPTY_GENERIC,
              note=_EMPTY_NOTES.get(device, "memory.empty_generic.cpu"),
              sizes=list(sizes), dtype=str(dtype), device=device) as outer:
        with span(CHECK_SIZE_NONNEGATIVE, sizes=list(sizes)):
            check_size_nonnegative(sizes)
        with span(COMPUTE_STORAGE_NBYTES_CONTIGUOUS,
                  sizes=list(sizes), itemsize=dtype.itemsize) as s:
            numel, nbytes = S.compute_storage_nbytes_contiguous(sizes, dtype.itemsize)
            s.set(numel=numel, formula=f"{numel} x {dtype.itemsize} = {nbytes} bytes")
            s.set_result(nbytes)
        storage = _allocate(nbytes, device)
        with span(TENSOR_IMPL, dtype=str(dtype)):
            pass
        with span(GENERIC_SET_SIZES_CONTIGUOUS, sizes=list(sizes)) as s:
            strides = _restride_contiguous(sizes)
            s.set(strides=list(strides))
        if memory_format == "channels_last":
            with span(EMPTY_TENSOR_RESTRIDE, memory_format="torch.channels_last") as s:
                check(len(sizes) == 4, RuntimeError,
                      "required rank 4 tensor to use channels_last format")
                strides = S.channels_last_strides(sizes)
                s.set(strides=list(strides))
        result = TensorImpl(storage, View(sizes, strides), dtype)
        outer.set_result(result)
    return result


EMPTY_STRIDED_GENERIC = step("empty_strided_generic", Layer.MEMORY, source=EMPTY,
                             note="memory.empty_strided_generic",
                             lecture=Lecture.FOLD_INSIDE_AFTER_FIRST)


def empty_strided_generic(sizes: Sequence[int], strides_: Sequence[int], dtype: DType,
                          device: str = "cpu"):
    """at::detail::empty_strided_generic: storage sized by computeStorageNbytes."""
    sizes, strides_ = tuple(int(s) for s in sizes), tuple(int(s) for s in strides_)
    with span(EMPTY_STRIDED_GENERIC, sizes=list(sizes), strides=list(strides_)) as s:
        # empty_strided_cpu checks the sizes first (check_size_nonnegative), then
        # computeStorageNbytes the dimensionalities
        check_size_nonnegative(sizes)
        check(len(sizes) == len(strides_), RuntimeError,
              f"dimensionality of sizes ({len(sizes)}) must match dimensionality of strides "
              f"({len(strides_)})")
        if device == "meta":
            # the meta path computes numel with an overflow check first
            n = 1
            for size in sizes:
                n *= size
                check(n <= _INT64_MAX, RuntimeError, "numel: integer multiplication overflow")
        nbytes = S.compute_storage_nbytes(sizes, strides_, dtype.itemsize)
        s.set(nbytes=nbytes)
        storage = _allocate(nbytes, device)
        # TensorImpl::set_sizes_and_strides -> refresh_numel: a numel past int64 is
        # refused once the storage exists (strides of 0 make its bytes few)
        S.safe_compute_numel(sizes)
        result = TensorImpl(storage, View(sizes, set_strides(sizes, strides_)), dtype)
        s.set_result(result)
    return result


def set_strides(sizes: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """TensorImpl::set_sizes_and_strides: a negative stride (which computeStorageNbytes
    lets through only for an empty tensor) becomes the contiguous one, kept monotonic
    "to match NumPy".

    >>> set_strides((0,), (-5,)), set_strides((0, 3), (-1, -1)), set_strides((2, 0), (5, 9))
    ((1,), (3, 1), (5, 9))
    """
    out = list(strides)
    for i in range(len(sizes) - 1, -1, -1):
        if out[i] < 0:
            out[i] = 1 if i == len(sizes) - 1 else max(sizes[i + 1], 1) * out[i + 1]
    return tuple(out)
