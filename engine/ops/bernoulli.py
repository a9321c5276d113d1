"""``torch.bernoulli(p)`` and ``x.bernoulli_(p)`` with a tensor of probabilities.

Mirrors Distributions.cpp (``bernoulli``: ``empty_like`` then ``bernoulli_``,
``bernoulli_out``: ``resize_`` then the kernel), native/DistributionTemplates.h
(``bernoulli_impl_``: nothing for an empty tensor, then ``assert_no_internal_overlap``)
and native/cpu/DistributionTemplates.h (``bernoulli_kernel(self, p_, generator)``):
``p_.to(kCPU)``, expanded to ``self``'s shape, then a *serial* TensorIterator loop that
draws one uniform number per element with ``bernoulli_distribution`` -- a float p
draws ``random()`` (24 bits: ``u = (r & 0xFFFFFF) / 2**24``), a double p draws
``random64()`` (53 bits) -- and stores ``u < p`` as ``self``'s dtype.

A *float* probability (``bernoulli_(0.3)``, ``bernoulli(x, p=0.3)``, dropout's masks)
takes another kernel, chosen by the CPU's vendor: on an Intel CPU, MKL's MCG31 stream
seeded from the generator (not replayed by tidx: refused in one line there); on any
other, torch's own serial loop, 53 bits of random64() per element, ``u < p``.
https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/DistributionKernels.cpp
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import capability as C
from engine.core.errors import Refused, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, declare
from engine.ops.iterator import serial_order
from engine.ops.overlap import assert_no_internal_overlap
from engine.ops.random import _generator_step
from engine.ops.touch import touched
from engine.rng import generator as G
from engine.memory.allocator import check_temporary

DISTRIBUTIONS = "aten/src/ATen/native/Distributions.cpp"
KERNELS = "aten/src/ATen/native/cpu/DistributionTemplates.h"
#: the tensor kernel's two AT_DISPATCHes: on self's dtype, then on p's
TENSOR_DISPATCH = (
    AT_DISPATCH("bernoulli_tensor_cpu_self_", "AT_DISPATCH_ALL_TYPES_AND3(kBool, kBFloat16, kHalf)"),
    AT_DISPATCH("bernoulli_tensor_cpu_p_", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))

BERNOULLI_KERNEL = step("bernoulli_kernel", Layer.RNG, source=KERNELS)


def _supported(*tensors) -> None:
    for t in tensors:
        if t.device_type != "cpu":
            raise Refused(f"bernoulli on a {t.device_type} tensor is not modelled by tidx yet "
                          f"(the CPU's is)")


def _kernel(self, p_) -> None:
    """bernoulli_kernel(self, p_, generator): p on the CPU, expanded to self, one draw per
    element in the serial loop's order."""
    dispatched(self.dtype, "bernoulli_tensor_cpu_self_")
    p_cpu = aten.to.device(p_, "cpu", p_.dtype)
    p = p_cpu if p_cpu.view.sizes == self.view.sizes else \
        aten.expand.default(p_cpu, list(self.view.sizes))
    double = p.dtype is D.float64
    if not double:
        dispatched(p.dtype, "bernoulli_tensor_cpu_p_")
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary("bernoulli_", n, 40)
    with span(BERNOULLI_KERNEL, numel=n,
              note=Note("random.bernoulli_kernel", bits=53 if double else 24,
                        draw="random64()" if double else "random()")) as s:
        order = serial_order(self.view.sizes,
                             [(self.view.sizes, self.view.strides, self.dtype.itemsize),
                              (p.view.sizes, p.view.strides, p.dtype.itemsize)])
        if double:
            u = (gen.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        else:
            u = (gen.random(n).astype(np.uint64) & np.uint64((1 << 24) - 1)) \
                .astype(np.float64) * 2.0 ** -24
        # bernoulli_distribution<float> compares in float: p (Half too) as a float
        probs = p.array().astype(np.float64 if double else np.float32).reshape(-1)
        drawn = np.empty(n, dtype=np.float64)
        drawn[np.asarray(order, dtype=np.int64)] = u
        values = (drawn < probs) if double else (drawn.astype(np.float32) < probs)
        self.array(write=True)[...] = values.reshape(self.view.sizes).astype(self.dtype.np)
        s.set(read=[touched(p)], written=touched(self))
        s.set_result(self)


@declare("bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::bernoulli_", source=DISTRIBUTIONS,
         at_dispatch=TENSOR_DISPATCH)
def bernoulli_tensor_(self, p, *, generator=None):
    _supported(self, p)
    if self.numel() == 0:
        return self         # CHECK_EMPTY_AND_RETURN
    assert_no_internal_overlap(self)
    _kernel(self, p)
    return self


@declare("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor",
         variants="function, method", native="at::native::bernoulli", source=DISTRIBUTIONS,
         meta=META_PYTHON)
def bernoulli(self, *, generator=None):
    _supported(self)
    result = aten.empty_like.default(self, memory_format="contiguous_format")
    return aten.bernoulli_.Tensor(result, self)


@declare("bernoulli.out(Tensor self, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::bernoulli_out", source=DISTRIBUTIONS, meta=META_PYTHON,
         at_dispatch=TENSOR_DISPATCH)
def bernoulli_out(self, *, generator=None, out):
    _supported(self, out)
    # result.resize_(self.sizes()), then bernoulli_impl_ (the kernel, called directly)
    aten.resize_.default(out, list(self.view.sizes))
    if out.numel() == 0:
        return out
    assert_no_internal_overlap(out)
    _kernel(out, self)
    return out


BERNOULLI_SCALAR_KERNEL = step("bernoulli_scalar_kernel", Layer.RNG, source=KERNELS,
                               note="random.bernoulli_scalar_kernel")

_MKL = ("bernoulli_ with a float p on an Intel CPU runs MKL's MCG31 generator "
        "(viRngBernoulli), which tidx does not replay yet; a tensor of probabilities "
        "(torch.bernoulli(torch.full(shape, p))) is modelled")


def _num(x: float) -> str:
    return f"{float(x):g}"      # a C++ ostream's double


@declare("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> "
         "Tensor(a!)", variants="method", native="at::native::bernoulli_",
         source=DISTRIBUTIONS, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("bernoulli_scalar_cpu_",
                                 "AT_DISPATCH_ALL_TYPES_AND3(kBool, kBFloat16, kHalf)"))
def bernoulli_float_(self, p=0.5, *, generator=None):
    _supported(self)
    if not 0 <= p <= 1:
        raise torch_error(RuntimeError, f"bernoulli_ expects p to be in [0, 1], but got "
                                        f"p={_num(p)}")
    if self.numel() == 0:
        return self
    assert_no_internal_overlap(self)
    machine = C.machine()
    # bernoulli_scalar_kernel (native/cpu/DistributionKernels.cpp): with MKL (torch's
    # x86-64 wheels) on an Intel CPU, MKL's stream; on any other CPU torch's own loop
    if machine.x86 and machine.vendor in ("intel", ""):
        raise Refused(_MKL if machine.vendor else
                      "this CPU's vendor is unknown, and torch's bernoulli_(float) depends "
                      "on it (MKL's generator on Intel): not modelled here")
    dispatched(self.dtype)
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary("bernoulli_", n, 40)
    with span(BERNOULLI_SCALAR_KERNEL, numel=n, p=p, vendor=machine.vendor) as s:
        # cpu_serial_kernel over a nullary TensorIterator: memory order;
        # bernoulli_distribution<double>: 53 bits of random64(), u < p
        order = serial_order(self.view.sizes,
                             [(self.view.sizes, self.view.strides, self.dtype.itemsize)])
        u = (gen.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        drawn = np.empty(n, dtype=np.float64)
        drawn[np.asarray(order, dtype=np.int64)] = u
        self.array(write=True)[...] = (drawn < p).reshape(self.view.sizes) \
            .astype(self.dtype.np)
        s.set(written=touched(self))
        s.set_result(self)
    return self


@declare("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor",
         variants="function, method", native="at::native::bernoulli", source=DISTRIBUTIONS,
         meta=META_PYTHON)
def bernoulli_p(self, p, *, generator=None):
    _supported(self)
    result = aten.empty_like.default(self, memory_format="contiguous_format")
    return aten.bernoulli_.float(result, p)
