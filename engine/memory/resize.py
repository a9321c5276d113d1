"""Resizing a tensor in place: at::native::resize_ and the resize_output that out=
kernels call directly (aten/src/ATen/native/Resize.cpp).

A new size keeps the storage when the bytes it needs already fit; otherwise a larger
storage is allocated (through the memory limit) and the old bytes are copied over, as
``maybe_resize_storage_cpu`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.recorder import span

from engine.core import view as S
from engine.core.view import View
from engine.memory.allocator import new_storage


def resize_native(self, size: Sequence[int]):
    """at::native::resize_ called directly (resize_output does): no operator recorded."""
    size = tuple(size)
    with span("resize_impl_cpu_", "memory", source="aten/src/ATen/native/Resize.cpp",
              note="resize.resize_impl_cpu_", size=list(size)) as s:
        if size == self.view.sizes:
            s.set(realloc=False)
            return self
        strides = S.contiguous_strides(size)
        # set_sizes_contiguous comes first: when the byte count then overflows, the
        # tensor keeps its new sizes (torch's does too)
        self.view = View(size, strides, self.view.offset)
        S.safe_compute_numel(size)      # refresh_numel: the product must fit first
        _, nbytes = S.compute_storage_nbytes_contiguous(size, self.dtype.itemsize,
                                                        self.view.offset)
        # maybe_resize_storage_cpu: nothing to hold, nothing to grow
        if S.numel(size) and nbytes > self.storage.nbytes:
            grown = new_storage(nbytes, self.device_type)
            if self.storage.data is not None and grown.data is not None:
                grown.data[: self.storage.nbytes] = self.storage.data
            self.storage = grown
            s.set(realloc=True, nbytes=nbytes)
    return self
