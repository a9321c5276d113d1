"""Factory operators: empty, empty_strided, zeros, randn and the normal_ fill.

Mirrors aten/src/ATen/native/TensorFactories.cpp: every factory is ``empty``
followed by a fill (seed 002's table): randn = empty + normal_, zeros = empty
+ zero_.  ``empty`` itself is the memory path of :mod:`engine.memory`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracer.recorder import span

from .. import dtypes as D
from .. import generator as G
from .. import memory
from ..dispatcher import FACTORY, INPLACE, call, register
from ..errors import check, torch_error
from .touch import storage_offsets

FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"
DISTRIBUTIONS = "aten/src/ATen/native/Distributions.cpp"
NORMAL_KERNEL = "aten/src/ATen/native/cpu/DistributionTemplates.h"

#: at::toString(ScalarType) names used in "not implemented for" errors.
_CPP_NAME = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short",
             "int32": "Int", "int64": "Long", "float16": "Half", "float32": "Float",
             "float64": "Double"}


@register("aten::empty", kind=FACTORY, native="at::native::empty_cpu", source=FACTORIES)
def empty(size: Sequence[int], *, dtype: D.dtype, device: str = "cpu",
          memory_format: str | None = None):
    return memory.empty_generic(size, dtype, device, memory_format)


@register("aten::empty_strided", kind=FACTORY, native="at::native::empty_strided_cpu",
          source=FACTORIES)
def empty_strided(size: Sequence[int], stride: Sequence[int], *, dtype: D.dtype,
                  device: str = "cpu"):
    return memory.empty_strided_generic(size, stride, dtype, device)


@register("aten::zeros", kind=FACTORY, native="at::native::zeros", source=FACTORIES)
def zeros(size: Sequence[int], *, dtype: D.dtype, device: str = "cpu"):
    result = call("aten::empty", size, dtype=dtype, device=device)
    return call("aten::zero_", result)


@register("aten::randn", kind=FACTORY, native="at::native::randn", source=FACTORIES)
def randn(size: Sequence[int], *, dtype: D.dtype, device: str = "cpu"):
    with span("randn = empty + normal_", "kernel", source=FACTORIES,
              note="randn allocates with empty, then fills in place with N(0, 1)"):
        pass
    result = call("aten::empty", size, dtype=dtype, device=device)
    return call("aten::normal_", result, 0.0, 1.0)


@register("aten::normal_", kind=INPLACE, native="at::native::normal_", source=DISTRIBUTIONS)
def normal_(self, mean: float = 0.0, std: float = 1.0):
    check(std >= 0.0, RuntimeError, f"normal expects std >= 0.0, but found std {_num(std)}")
    if self.is_meta:
        with span("normal_ (Meta)", "kernel", source=DISTRIBUTIONS,
                  note="a meta tensor has no memory: nothing to fill, no random numbers drawn"):
            return self
    if not self.dtype.is_floating_point:
        raise torch_error(NotImplementedError, f'"normal_kernel_cpu" not implemented for '
                                               f"'{_CPP_NAME[self.dtype.name]}'")
    gen = G.default_generator()
    n = self.numel()
    contiguous = self.is_contiguous()
    with span("CPUGeneratorImpl", "rng", source=G.SOURCE,
              note="the default CPU generator: one mt19937 stream shared by every random op",
              seed=gen.initial_seed(), engine="mt19937"):
        pass
    with span("normal_kernel", "rng", source=NORMAL_KERNEL,
              note="numel >= 16 and contiguous: normal_fill (vectorised Box-Muller on blocks "
                   "of 16); otherwise one Box-Muller pair per two elements, serially",
              numel=n, contiguous=contiguous, mean=mean, std=std) as s:
        from .. import rng

        values, variant = rng.normal(gen, n, self.dtype.np, mean, std, contiguous=contiguous)
        s.set(variant=variant)
        _write_memory_order(self, values)
        s.set_result(self)
    return self


def _write_memory_order(t, values: np.ndarray) -> None:
    """Store values in the order the CPU kernel walks memory (ascending addresses)."""
    if t.is_contiguous():
        t._array(write=True)[...] = values.reshape(t._sizes)
        return
    order = np.argsort(storage_offsets(t._sizes, t._strides, t._offset), kind="stable")
    flat = np.empty(values.shape, dtype=values.dtype)
    flat[order] = values
    t._array(write=True)[...] = flat.reshape(t._sizes)


def _num(x: float) -> str:
    """How c10 streams a double: ``-1`` not ``-1.0``."""
    return str(int(x)) if float(x).is_integer() else repr(x)
