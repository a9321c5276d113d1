"""The simulated CUDA device's kernels for the factories: fill, normal, uniform.

The operators (fill_, zero_, normal_, uniform_) are the same as on the CPU up to the
device check their C++ makes; there they reach the CUDA kernels, which tidx runs on its
simulated GPU:

* ``fill_`` -> fill_stub -> ``fill_kernel_cuda`` (aten/src/ATen/native/cuda/FillKernel.cu):
  a gpu_kernel writing the scalar, converted to the tensor's dtype, to every element (no
  scalar_fill shortcut: that branch is for one CPU element);
* ``zero_`` on CUDA is ``fill_(0)`` (Fill.cpp's memset path is for CPU tensors only);
* ``normal_`` / ``uniform_`` -> normal_stub / uniform_stub -> ``normal_kernel`` /
  ``uniform_kernel`` of aten/src/ATen/native/cuda/DistributionNormal.cu /
  DistributionUniform.cu, drawing from the CUDA generator's Philox4x32-10
  (:mod:`engine.rng.philox`, where what is bit-exact and what is approximated is said).

The values live in the simulated device memory: host bytes standing for the GPU's.
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span

from engine.core import dtypes as D
from engine.core.errors import Refused
from engine.memory.cuda_caching_allocator import hex_ptr
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import touched
from engine.rng import generator as G

FILL_CU = "aten/src/ATen/native/cuda/FillKernel.cu"
NORMAL_CU = "aten/src/ATen/native/cuda/DistributionNormal.cu"
UNIFORM_CU = "aten/src/ATen/native/cuda/DistributionUniform.cu"


def fill_(self, value: Any):
    """fill_kernel_cuda: every element becomes the scalar in the tensor's dtype."""
    with span("fill_kernel_cuda", "kernel", source=FILL_CU,
              note=lambda: Note("cuda.device.fill_kernel", value=repr(value)), value=value,
              numel=self.numel()) as s:
        if self.numel():
            self.array(write=True)[...] = to_dtype_scalar(value, self.dtype)
            s.set(written=touched(self))
    return self


def _float32_only(self, what: str) -> None:
    if self.dtype is not D.float32:
        raise Refused(f"{what} in {self.dtype} on the simulated CUDA device is not modelled "
                      "yet (float32 is)")


def _store(self, values) -> None:
    """The kernel writes element k (in the tensor's logical order) from thread k's draw;
    the factories' tensors are contiguous, the only ones this slice fills."""
    if not self.is_contiguous():
        raise Refused("a random fill of a non-contiguous tensor on the simulated CUDA "
                      "device is not modelled yet")
    self.flat(write=True)[...] = values


def normal_(self, mean: float, std: float):
    """normal_kernel (DistributionNormal.cu) on the simulated GPU."""
    from engine.rng import philox

    _float32_only(self, "normal_")
    with span("normal_kernel", "rng", source=NORMAL_CU, note="cuda.device.normal_kernel",
              numel=self.numel(), mean=mean, std=std) as s:
        _store(self, philox.normal_kernel(G.cuda_generator(), self.numel(), mean, std))
        s.set(simulated=True, written=touched(self))
        s.set_result(self)
    return self


def uniform_(self, low: float, high: float):
    """uniform_kernel (DistributionUniform.cu) on the simulated GPU."""
    from engine.rng import philox

    _float32_only(self, "uniform_")
    with span("uniform_kernel", "rng", source=UNIFORM_CU, note="cuda.device.uniform_kernel",
              numel=self.numel(), low=low, high=high) as s:
        _store(self, philox.uniform_kernel(G.cuda_generator(), self.numel(), low, high))
        s.set(simulated=True, written=touched(self))
        s.set_result(self)
    return self


COPY_CU = "aten/src/ATen/native/cuda/Copy.cu"
FUNCTIONS_H = "c10/cuda/CUDAFunctions.h"


def copy_(self, src, non_blocking: bool = False):
    """copy_kernel_cuda (Copy.cu) for a copy between the CPU and the simulated GPU.

    copy_impl picked the CUDA stub because one side is on CUDA.  A same-dtype copy whose
    TensorIterator is contiguous needs no temporaries (copy_requires_temporaries): one
    cudaMemcpyAsync of numel * element_size bytes on the current stream, then (blocking)
    memcpy_and_sync's cudaStreamSynchronize.  Every other case (a cast, a strided side,
    GPU to GPU) is refused here rather than modelled half.
    """
    if self.device_type == src.device_type:
        raise Refused("a copy from GPU to GPU (copy_device_to_device) on the simulated CUDA "
                      "device is not modelled yet")
    if self.dtype is not src.dtype or not (self.is_contiguous() and src.is_contiguous()) \
            or self.view.sizes != src.view.sizes:
        raise Refused("a copy to or from the CPU that casts, broadcasts or is not "
                      "contiguous (copy_kernel_cuda's temporaries) on the simulated CUDA "
                      "device is not modelled yet")
    h2d = self.device_type == "cuda"
    kind = "cudaMemcpyHostToDevice" if h2d else "cudaMemcpyDeviceToHost"
    nbytes = self.numel() * self.dtype.itemsize
    with span("copy_kernel_cuda", "kernel", source=COPY_CU,
              note=lambda: Note("cuda.device.copy_kernel", kind=kind), kind=kind,
              numel=self.numel()) as s:
        if self.numel() == 0:
            # copy_impl returns before the stub when the iterator has no elements
            return self
        with span("cudaMemcpyAsync", "memory", source=COPY_CU,
                  note=lambda: Note("cuda.device.memcpy", nbytes=nbytes, kind=kind, stream=0),
                  nbytes=nbytes, kind=kind, stream=0, dst=hex_ptr(self.data_ptr()),
                  src=hex_ptr(src.data_ptr())) as m:
            self.array(write=True)[...] = src.array()
            m.set(simulated=True, written=touched(self))
        if not non_blocking:
            with span("cudaStreamSynchronize", "memory", source=FUNCTIONS_H,
                      note=lambda: Note("cuda.device.stream_sync", stream=0), stream=0):
                pass
        s.set(simulated=True)
    return self
