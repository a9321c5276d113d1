"""copy_kernel_cuda (aten/src/ATen/native/cuda/Copy.cu) on the simulated CUDA device.

copy_impl (aten/src/ATen/native/Copy.cpp) picks the CUDA copy_stub when either side is on
CUDA; copy_kernel_cuda then takes one of three roads:

* ``copy_requires_temporaries``: a copy between the CPU and the GPU that casts or whose
  TensorIterator is not contiguous (after reordering and coalescing its dims) makes
  contiguous temporaries and copies through them, recursively calling ``copy_``.  A
  blocking copy converts on the CPU (``conversion_device = kCPU``): host to device, the
  source becomes ``src.to(dst.dtype).expand_as(dst).contiguous()`` on the CPU and, when
  ``dst`` is not contiguous, a contiguous ``empty_like(dst)`` on the GPU receives it and is
  copied into ``dst`` on the GPU; device to host, ``src.expand_as(dst).contiguous()`` on the
  GPU and, unless ``dst`` is contiguous and of src's dtype, ``empty_like(dst, src.dtype)``
  on the CPU, copied into ``dst`` (casting) by the CPU's copy kernel.
* GPU to GPU on the same device: ``copy_device_to_device``: one cudaMemcpyAsync
  DeviceToDevice (through CUDACachingAllocator::memcpyAsync) when the dtypes agree and the
  iterator is contiguous, else ``direct_copy_kernel_cuda``'s elementwise gpu_kernel, which
  casts; no stream synchronisation either way.
* the CPU and the GPU, same dtype, contiguous iterator: one cudaMemcpyAsync of
  numel x element size bytes, then (blocking) memcpy_and_sync's cudaStreamSynchronize.

The bytes move in the simulated device memory (host bytes standing for the GPU's); a
cast gives the values the CPU's cast gives (IEEE round to nearest even for the floating
types, which is what the GPU's conversions do too).
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, step

from engine.core import view as S
from engine.core.errors import Refused
from engine.dispatch.aten import aten
from engine.memory.cuda_caching_allocator import hex_ptr
from engine.ops import overlap
from engine.ops.touch import touched

COPY_CU = "aten/src/ATen/native/cuda/Copy.cu"
FUNCTIONS_H = "c10/cuda/CUDAFunctions.h"
ALLOCATOR = "c10/cuda/CUDACachingAllocator.cpp"


def iter_is_contiguous(dst, src) -> bool:
    """TensorIterator::is_contiguous for copy_'s iterator (dst, src broadcast to dst):
    one element, or a single dim left after reorder_dimensions and coalesce_dimensions
    with every operand's stride one element.  That holds exactly when the two operands
    step through memory alike (the same element strides wherever a dim has more than one
    element) and that common layout is dense without overlap.

    >>> from types import SimpleNamespace as N
    >>> t = lambda sizes, strides: N(view=N(sizes=sizes, strides=strides))
    >>> iter_is_contiguous(t((2, 3), (1, 2)), t((2, 3), (1, 2)))     # both transposed
    True
    >>> iter_is_contiguous(t((2, 3), (3, 1)), t((2, 3), (1, 2)))
    False
    >>> iter_is_contiguous(t((2, 3), (3, 1)), t((3,), (1,)))         # broadcast source
    False
    """
    sizes, strides = tuple(dst.view.sizes), tuple(dst.view.strides)
    numel = 1
    for n in sizes:
        numel *= n
    if numel == 1:
        return True
    offset = len(sizes) - len(src.view.sizes)
    for i, n in enumerate(sizes):
        if n == 1:
            continue
        j = i - offset
        if j < 0 or src.view.sizes[j] != n or src.view.strides[j] != strides[i]:
            return False
    return S.is_non_overlapping_and_dense(sizes, strides)


COPY_KERNEL_CUDA = step("copy_kernel_cuda", Layer.KERNEL, source=COPY_CU)
COPY_REQUIRES_TEMPORARIES = step("copy_requires_temporaries", Layer.KERNEL, source=COPY_CU)


def copy_(self, src, non_blocking: bool = False):
    """copy_kernel_cuda: the road Copy.cu takes for this pair (see the module)."""
    same_device = self.device_type == src.device_type
    contiguous = iter_is_contiguous(self, src)
    same_dtype = self.dtype is src.dtype
    if same_device and overlap.shares_elements(self, src):
        raise Refused("a GPU copy whose source and destination share elements of one "
                      "storage depends on the order the GPU's threads run, which tidx does "
                      "not model; copy the source first (.clone())")
    if not same_device and same_dtype and contiguous:
        return _memcpy_host_device(self, src, non_blocking)
    needs = not same_device
    with span(COPY_KERNEL_CUDA,
              note=lambda: Note("cudacopy.copy_kernel", src=f"{src.device_type}",
                                dst=f"{self.device_type}"),
              numel=self.numel()) as s:
        s.set(simulated=True)
        # on one GPU the answer does not depend on them: left out, so the answer stays
        # on screen
        inputs: dict[str, Any] = {} if same_device else {"same_dtype": same_dtype,
                                                          "iter_contiguous": contiguous}
        with span(COPY_REQUIRES_TEMPORARIES,
                  note="cudacopy.no_temporaries.same_gpu" if same_device else
                  "cudacopy.temporaries.cast" if not same_dtype else
                  "cudacopy.temporaries.strided", **inputs) as r:
            r.set_result(needs)
        if self.numel() == 0:
            return self
        if same_device:
            _device_to_device(self, src, same_dtype and contiguous)
        else:
            _through_temporaries(self, src, non_blocking)
    return self


CUDA_MEMCPY_ASYNC = step("cudaMemcpyAsync", Layer.MEMORY, lecture=Lecture.LIFTED)
CUDA_STREAM_SYNCHRONIZE = step("cudaStreamSynchronize", Layer.MEMORY, source=FUNCTIONS_H)


def _memcpy_host_device(self, src, non_blocking: bool):
    """The road without temporaries: one cudaMemcpyAsync, then memcpy_and_sync."""
    h2d = self.device_type == "cuda"
    kind = "cudaMemcpyHostToDevice" if h2d else "cudaMemcpyDeviceToHost"
    nbytes = self.numel() * self.dtype.itemsize
    with span(COPY_KERNEL_CUDA,
              note=lambda: Note("cuda.device.copy_kernel", kind=kind), kind=kind,
              numel=self.numel()) as s:
        if self.numel() == 0:
            # copy_impl returns before the stub when the iterator has no elements
            return self
        with span(CUDA_MEMCPY_ASYNC, source=COPY_CU,
                  note=lambda: Note("cuda.device.memcpy", nbytes=nbytes, kind=kind, stream=0),
                  nbytes=nbytes, kind=kind, stream=0, dst=hex_ptr(self.data_ptr()),
                  src=hex_ptr(src.data_ptr())) as m:
            self.array(write=True)[...] = src.array()
            m.set(simulated=True, written=touched(self), read=touched(src))
        if not non_blocking:
            with span(CUDA_STREAM_SYNCHRONIZE,
                      note=lambda: Note("cuda.device.stream_sync", stream=0), stream=0) as y:
                y.set(simulated=True)
        s.set(simulated=True)
    return self


#: Copy.cu's GPU copy kernels (direct_copy_kernel_cuda, float16_copy_kernel_cuda ...)
GPU_COPY_KERNEL = step("<...>_copy_kernel_cuda", Layer.KERNEL, source=COPY_CU)


def _device_to_device(self, src, memcpy_eligible: bool) -> None:
    """copy_device_to_device on one GPU: cudaMemcpyAsync or direct_copy_kernel_cuda."""
    if memcpy_eligible:
        nbytes = self.numel() * self.dtype.itemsize
        kind = "cudaMemcpyDeviceToDevice"
        with span(CUDA_MEMCPY_ASYNC, source=ALLOCATOR,
                  note=lambda: Note("cudacopy.memcpy_d2d", nbytes=nbytes, stream=0),
                  nbytes=nbytes, kind=kind, stream=0, dst=hex_ptr(self.data_ptr()),
                  src=hex_ptr(src.data_ptr())) as m:
            self.array(write=True)[...] = src.array()
            m.set(simulated=True, written=touched(self), read=touched(src))
        return
    kernel = ("float16_copy_kernel_cuda" if self.dtype.name == "float16" else
              "bfloat16_copy_kernel_cuda" if self.dtype.name == "bfloat16" else
              "direct_copy_kernel_cuda") if src.dtype.name == "float32" else \
        "direct_copy_kernel_cuda"
    with span(GPU_COPY_KERNEL, called=kernel,
              note=lambda: Note("cudacopy.gpu_kernel", src=src.dtype, dst=self.dtype,
                                numel=self.numel()),
              numel=self.numel()) as k:
        self.array(write=True)[...] = src.array()
        k.set(simulated=True, written=touched(self), read=touched(src))


def _contiguous(t):
    """Tensor::contiguous(): the tensor itself when already contiguous (no dispatch)."""
    return t if t.is_contiguous() else aten.contiguous.default(t)


TEMPORARIES = step("temporaries", Layer.KERNEL, source=COPY_CU)
COPY_BACK_INTO_DST = step("copy back into dst", Layer.KERNEL, source=COPY_CU)


def _through_temporaries(self, src, non_blocking: bool) -> None:
    """copy_kernel_cuda's ``copy_requires_temporaries`` branch, blocking (conversion on the
    CPU): contiguous same-dtype temporaries, one copy between them, one copy back."""
    conversion_on_cpu = not non_blocking
    src_is_conversion_side = (src.device_type == "cpu") == conversion_on_cpu
    with span(TEMPORARIES,
              note=lambda: Note("cudacopy.plan.convert_src" if src_is_conversion_side
                                else "cudacopy.plan.convert_dst",
                                device=src.device_type, dtype=self.dtype,
                                src_dtype=src.dtype),
              conversion_device="cpu" if conversion_on_cpu else "cuda") as p:
        p.set(simulated=True)
        if src_is_conversion_side:
            dst_contig = self if self.is_contiguous() else aten.empty_like.default(
                self, memory_format="contiguous_format")
            converted = aten.to.dtype(src, self.dtype)
            src_contig = _contiguous(aten.expand_as.default(converted, self))
        else:
            same_type = self.dtype is src.dtype
            dst_contig = self if (self.is_contiguous() and same_type) else aten.empty_like.default(
                self, dtype=src.dtype, memory_format="contiguous_format")
            src_contig = _contiguous(aten.expand_as.default(src, self))
    aten.copy_.default(dst_contig, src_contig, non_blocking)
    if dst_contig is not self:
        with span(COPY_BACK_INTO_DST,
                  note=lambda: Note("cudacopy.copy_back", device=self.device_type)) as b:
            b.set(simulated=True)
        aten.copy_.default(self, dst_contig, non_blocking)
