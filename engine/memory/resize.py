"""Resizing a tensor in place: at::native::resize_ and the resize_output that out=
kernels call directly (aten/src/ATen/native/Resize.cpp).

A new size keeps the storage when the bytes it needs already fit; otherwise the same
storage gets larger bytes (through the memory limit) with the old ones copied over, as
``maybe_resize_storage_cpu`` / ``resize_bytes_cpu`` do: every view of it sees them.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Counted, Layer, step

from engine.core import view as S
from engine.core.view import View
from engine.core.errors import check, torch_error
from engine.memory.allocator import allocate


RESIZE_IMPL_CPU = step("resize_impl_cpu_", Layer.MEMORY, source="aten/src/ATen/native/Resize.cpp",
                       note="resize.resize_impl_cpu_", counted=Counted.REALLOC)


def resize_native(self, size: Sequence[int], memory_format: str | None = None):
    """at::native::resize_ (``_resize_``): ``_resize_impl_`` (contiguous sizes and strides,
    the storage grown in place if it is too small), then the memory format's restride.
    Called directly by resize_output (out= kernels): no operator recorded then."""
    size = tuple(size)
    with span(RESIZE_IMPL_CPU, size=list(size)) as s:
        if size != self.view.sizes:
            _resize_impl(self, size, s)
        else:
            s.set(realloc=False)
    if memory_format is not None:
        _restride(self, memory_format)
    return self


def _resize_impl(self, size: tuple[int, ...], s) -> None:
    # set_sizes_contiguous: set_sizes (the strides array keeps its old entries, new ones
    # are 0), refresh_numel (which may throw: the tensor keeps the new sizes then, as
    # torch's does), and only then the contiguous strides
    old = self.view.strides
    try:
        self.view = View(size, old[:len(size)] + (0,) * (len(size) - len(old)),
                         self.view.offset)
    except RuntimeError:
        if not any(n < 0 for n in size):
            raise
        # a negative size is refresh_numel's overflow (as uint64 it passes int64's max);
        # torch's tensor keeps sizes its storage cannot hold, which tidx's View cannot
        S.safe_compute_numel(size)
        raise
    S.safe_compute_numel(size)
    strides = S.contiguous_strides(size)
    self.view = View(size, strides, self.view.offset)
    if self.device_type == "meta":
        # the Meta kernel (resize__symint) computes the bytes in SymInt arithmetic, with
        # no overflow check: a product past int64 wraps, and a negative count never grows
        n = (S.numel(size) + self.view.offset) * self.dtype.itemsize
        nbytes = (n + 2**63) % 2**64 - 2**63
    else:
        _, nbytes = S.compute_storage_nbytes_contiguous(size, self.dtype.itemsize,
                                                        self.view.offset)
    # maybe_resize_storage_cpu: nothing to hold, nothing to grow
    if S.numel(size) and nbytes > self.storage.nbytes:
        resize_bytes_cpu(self.storage, nbytes)
        s.set(realloc=True, nbytes=nbytes)


def resize_bytes_cpu(storage, nbytes: int) -> None:
    """resize_bytes_cpu: new bytes for the *same* StorageImpl (through the allocator and
    the memory limit), the old ones copied over; every view of the storage sees them."""
    if storage.device == "meta":
        storage.nbytes = nbytes
        return
    data = allocate(nbytes)
    if storage.data is not None:
        keep = min(storage.nbytes, nbytes)
        data[:keep] = storage.data[:keep]
    if nbytes > storage.nbytes:
        # the new bytes are realloc's garbage: no trace may show them as values (they
        # would differ from run to run), as no trace shows an empty tensor's
        storage.initialised = False
    storage.replace_bytes(data)


EMPTY_TENSOR_RESTRIDE = step("empty_tensor_restride", Layer.MEMORY, source="c10/core/TensorImpl.h")


def _restride(self, memory_format: str) -> None:
    """``_resize_``'s tail, after the resize: Preserve is refused, the others restride
    (TensorImpl::empty_tensor_restride)."""
    if memory_format == "preserve_format":
        raise torch_error(RuntimeError, "Unsupported memory formatPreserve")
    with span(EMPTY_TENSOR_RESTRIDE, note=Note("resize.restride", memory_format=memory_format)):
        sizes = self.view.sizes
        if memory_format == "channels_last":
            check(len(sizes) == 4, RuntimeError,
                  "required rank 4 tensor to use channels_last format")
            strides = S.channels_last_strides(sizes)
        else:
            strides = S.contiguous_strides(sizes)
        self.view = View(sizes, strides, self.view.offset)
