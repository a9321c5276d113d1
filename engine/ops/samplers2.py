"""Samplers with a loop of their own: torch.poisson and Tensor.log_normal_, bit for bit
with torch's CPU generator.

* ``torch.poisson(rates)`` (Distributions.cpp ``_s_poisson_cpu``): ``at::zeros`` like the
  rates, then a serial loop over the rates in the result's order, each
  ``sample_poisson(double(rate))``: for a rate below 10 the product method (one
  ``uniform_real_distribution<double>`` draw at a time until the running product falls
  to ``exp(-rate)`` or below), for 10 and above Hoermann's transformed rejection (two
  draws per try).  The draws per element vary, so they are taken one element after
  another.  The code is compiled once (not per CPU capability): no fused multiply-add.
  A negative or NaN rate stops the loop with torch's error where it is met.
* ``x.log_normal_(mean, std)`` (cpu/DistributionKernels.cpp ``log_normal_kernel``,
  DistributionTemplates.h): one ``lognormal_distribution<double>`` per element in memory
  order -- ``exp`` (glibc's) of a ``normal_distribution<double>(mean, std)`` draw (the
  generator's cached second value first, Box-Muller pairs after it; ``z * std + mean``
  fused in the AVX2/AVX512 builds), cast to the dtype.  No vectorised path and no MKL:
  the same on every CPU.
https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/Distributions.cpp
"""

from __future__ import annotations

import ctypes
import functools
import math

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.dispatch_stub import DispatchStub
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, declare
from engine.memory.allocator import check_temporary
from engine.ops.iterator import serial_order
from engine.ops.overlap import assert_no_internal_overlap
from engine.ops.random import _generator_step
from engine.ops.samplers import _libm_map, _num, _to_dtype, _uniform53
from engine.ops.touch import touched
from engine.rng import distributions as RD
from engine.rng import generator as G
from engine.rng.libm import _libm

DISTRIBUTIONS = "aten/src/ATen/native/Distributions.cpp"
KERNELS = "aten/src/ATen/native/cpu/DistributionTemplates.h"

POISSON_KERNEL = step("poisson_cpu", Layer.RNG, source=DISTRIBUTIONS)
LOG_NORMAL_KERNEL = step("log_normal_kernel", Layer.RNG, source=KERNELS)
LOG_NORMAL_STUB = DispatchStub("log_normal_stub", avx512=False,
                               source="aten/src/ATen/native/cpu/DistributionKernels.cpp")


@functools.lru_cache(maxsize=None)
def _lgamma():
    """glibc's lgamma (CPython's math.lgamma is its own, not libm's)."""
    lib = _libm()
    if lib is None:
        raise Refused("torch.poisson needs glibc's lgamma, which this system's libm lacks")
    fn = lib.lgamma
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double]
    return fn


def _sample_poisson(lam: float, draw) -> int:
    """sample_poisson (Distributions.cpp), adapted from numpy's distributions.c."""
    check(lam >= 0, RuntimeError, "invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        # transformed rejection method (Hoermann, 1993)
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        lgamma = _lgamma()
        while True:
            U = draw() - 0.5
            V = draw()
            us = 0.5 - math.fabs(U)
            k = math.floor((2 * a / us + b) * U + lam + 0.43)
            if us >= 0.07 and V <= vr:
                return k
            if k < 0 or (us < 0.013 and V > us):
                continue
            # std::log(0) is -inf (V is 0 once in 2**53 draws): math.log raises instead
            logv = math.log(V) if V > 0 else -math.inf
            if (logv + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - lgamma(float(k) + 1)):
                return k
    if lam == 0:
        return 0
    enlam = math.exp(-lam)
    x, prod = 0, 1.0
    while True:
        prod *= draw()
        if prod > enlam:
            x += 1
        else:
            return x


class _Uniforms:
    """``uniform_real_distribution<double>(0, 1)`` one at a time, read ahead in blocks:
    :meth:`settle` rewinds the generator and draws exactly the words used, so it ends
    where torch's does."""

    BLOCK = 4096

    def __init__(self, gen) -> None:
        self.gen, self.start = gen, gen.get_state()
        self.values: list[float] = []
        self.used = self.taken = 0

    def __call__(self) -> float:
        if self.used == len(self.values):
            self.taken += len(self.values)
            self.values, self.used = _uniform53(self.gen, self.BLOCK).tolist(), 0
        self.used += 1
        return self.values[self.used - 1]

    def settle(self) -> None:
        self.gen.set_state(*self.start)
        self.gen.random64(self.taken + self.used)


@declare("poisson(Tensor self, Generator? generator=None) -> Tensor", variants="function",
         native="at::native::_s_poisson_cpu", source=DISTRIBUTIONS, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("poisson_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def poisson(self, generator=None):
    ret = aten.zeros.default(list(self.view.sizes), dtype=self.dtype,
                             device=self.device_type)
    if self.device_type != "cpu":
        raise Refused(f"torch.poisson on a {self.device_type} tensor is not modelled by tidx "
                      "yet (the CPU's is)")
    dispatched(self.dtype)
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary("poisson", n, 16)
    rates = self.array().astype(np.float64).reshape(-1)     # the rates, in C order
    if np.isposinf(rates).any():
        raise Refused("torch.poisson of an infinite rate casts an infinite double to int64 "
                      "(undefined behaviour in C++): not modelled")
    with span(POISSON_KERNEL, numel=n, note=Note("random.poisson")) as s:
        out = np.zeros(n, dtype=np.float64)
        draw = _Uniforms(gen)
        try:
            for i, lam in enumerate(rates.tolist()):
                out[i] = _sample_poisson(lam, draw)
        finally:
            draw.settle()
            # the samples before an invalid rate are written, as torch's loop leaves them
            ret.array(write=True)[...] = _to_dtype(out, self.dtype).reshape(self.view.sizes)
        s.set(read=touched(self), written=touched(ret))
        s.set_result(ret)
    return ret


@declare("log_normal_(Tensor(a!) self, float mean=1, float std=2, *, Generator? generator=None)"
         " -> Tensor(a!)", variants="method", native="at::native::log_normal_",
         source=DISTRIBUTIONS, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("log_normal_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    check(std > 0.0, RuntimeError, f"log_normal_ expects std > 0.0, but found std={_num(std)}")
    if self.numel() == 0:
        return self
    if self.device_type != "cpu":
        raise Refused(f"log_normal_ on a {self.device_type} tensor is not modelled by tidx "
                      "yet (the CPU's is)")
    assert_no_internal_overlap(self)        # TensorIterator::borrowing_nullary_op
    fused = LOG_NORMAL_STUB.build().fma
    LOG_NORMAL_STUB.call(self.dtype, self.dtype.itemsize)
    dispatched(self.dtype)
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary("log_normal_", n, 48)
    with span(LOG_NORMAL_KERNEL, numel=n,
              note=Note("random.log_normal_kernel", mean=_num(mean), std=_num(std))) as s:
        order = serial_order(self.view.sizes,
                             [(self.view.sizes, self.view.strides, self.dtype.itemsize)])
        values = _libm_map(math.exp, RD.normal_distribution_double(gen, n, mean, std, fused))
        drawn = np.empty(n, dtype=np.float64)
        drawn[np.asarray(order, dtype=np.int64)] = values
        self.array(write=True)[...] = _to_dtype(drawn, self.dtype).reshape(self.view.sizes)
        s.set(written=touched(self))
        s.set_result(self)
    return self
