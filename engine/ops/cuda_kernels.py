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
from tracer.steps import Layer, inlined, step

from engine.core.errors import Refused
from engine.dispatch.at_dispatch import dispatched
from engine.memory.allocator import check_temporary
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import touched
from engine.rng import generator as G

FILL_CU = "aten/src/ATen/native/cuda/FillKernel.cu"
NORMAL_CU = "aten/src/ATen/native/cuda/DistributionNormal.cu"
UNIFORM_CU = "aten/src/ATen/native/cuda/DistributionUniform.cu"


FILL_KERNEL_CUDA = step("fill_kernel_cuda", Layer.KERNEL, source=FILL_CU)


def fill_(self, value: Any):
    """fill_kernel_cuda: every element becomes the scalar in the tensor's dtype."""
    with span(FILL_KERNEL_CUDA,
              note=lambda: Note("cuda.device.fill_kernel", value=repr(value)), value=value,
              numel=self.numel()) as s:
        if self.numel():
            self.array(write=True)[...] = to_dtype_scalar(value, self.dtype)
            s.set(written=touched(self))
    return self


#: The dtypes whose random kernels are modelled: float4 draws for float32 and float16
#: (accscalar_t float), double2 draws for float64 (bfloat16 is not a tidx dtype).
_RANDOM_DTYPES = ("float32", "float64", "float16")


def _modelled_dtype(self, what: str) -> str:
    if what == "normal_":
        # normal_kernel's AT_DISPATCH_FLOATING_TYPES_AND2 (cuda/DistributionTemplates.h),
        # declared with normal_ (engine/ops/random.py)
        dispatched(self.dtype, "normal_kernel_cuda")
    if self.dtype.name not in _RANDOM_DTYPES:
        raise Refused(f"{what} in {self.dtype} on the simulated CUDA device is not modelled "
                      "yet (float32, float64 and float16 are)")
    return self.dtype.name


def _contiguous(self) -> None:
    """The factories' tensors are contiguous, the only ones this slice fills."""
    if not self.is_contiguous():
        raise Refused("a random fill of a non-contiguous tensor on the simulated CUDA "
                      "device is not modelled yet")


def _store(self):
    """The kernel writes element k (in the tensor's logical order) from thread k's draw:
    the write, and the elements written, for the grid-stride kernel's step."""
    def store(values):
        self.flat(write=True)[...] = values
        return touched(self)
    return store


#: Each random kernel's note by dtype: float32's, or what another dtype changes (which
#: curand call, which type the transform runs in).
_KERNEL_NOTES = {
    ("normal", "float32"): "cuda.device.normal_kernel",
    ("normal", "float64"): "cudacopy.normal_kernel.float64",
    ("normal", "float16"): "cudacopy.normal_kernel.float16",
    ("uniform", "float32"): "cuda.device.uniform_kernel",
    ("uniform", "float64"): "cudacopy.uniform_kernel.float64",
    ("uniform", "float16"): "cudacopy.uniform_kernel.float16",
}


#: What the replay of the simulated GPU's threads holds per element: each thread's
#: counter, key and Philox rounds in uint32/uint64 arrays, and curand's transforms
#: (measured: about 340 bytes per element for uniform_, 130 for normal_).
PHILOX_BYTES = 360


NORMAL_KERNEL = step("normal_kernel", Layer.RNG, source=NORMAL_CU,
                     libtorch=inlined("at::native::templates::cpu::normal_kernel",
                                      "at::native::(anonymous namespace)::normal_kernel"))


def normal_(self, mean: float, std: float):
    """normal_kernel (DistributionNormal.cu) on the simulated GPU."""
    from engine.rng import philox

    dtype = _modelled_dtype(self, "normal_")
    with span(NORMAL_KERNEL, note=_KERNEL_NOTES["normal", dtype],
              numel=self.numel(), mean=mean, std=std) as s:
        _contiguous(self)
        check_temporary("normal_", self.numel(), PHILOX_BYTES)
        philox.normal_kernel(G.cuda_generator(), self.numel(), mean, std, dtype=dtype,
                             store=_store(self))
        s.set(simulated=True)
        s.set_result(self)
    return self


UNIFORM_KERNEL = step("uniform_kernel", Layer.RNG, source=UNIFORM_CU)


def uniform_(self, low: float, high: float):
    """uniform_kernel (DistributionUniform.cu) on the simulated GPU."""
    from engine.rng import philox

    dtype = _modelled_dtype(self, "uniform_")
    with span(UNIFORM_KERNEL, note=_KERNEL_NOTES["uniform", dtype],
              numel=self.numel(), low=low, high=high) as s:
        _contiguous(self)
        check_temporary("uniform_", self.numel(), PHILOX_BYTES)
        philox.uniform_kernel(G.cuda_generator(), self.numel(), low, high, dtype=dtype,
                              store=_store(self))
        s.set(simulated=True)
        s.set_result(self)
    return self


def copy_(self, src, non_blocking: bool = False):
    """copy_kernel_cuda (Copy.cu): every road it takes is in :mod:`engine.ops.cuda_copy`."""
    from engine.ops.cuda_copy import copy_ as copy_kernel_cuda

    return copy_kernel_cuda(self, src, non_blocking)
