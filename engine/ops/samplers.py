"""Samplers: exponential_ and multinomial, bit for bit with torch's CPU generator.

* ``x.exponential_(lambd)`` (native/DistributionTemplates.h exponential_impl_;
  native/cpu/DistributionKernels.cpp exponential_kernel): on a CPU other than Intel's,
  torch's own serial loop (native/cpu/DistributionTemplates.h): per element in memory
  order ``exponential_distribution<double>``, i.e. ``u`` from 53 bits of ``random64()``
  and ``-1 / lambd * log1p(-u)`` (glibc's log1p) in double, then cast to the dtype.  On
  an Intel CPU the x86 wheels take MKL's ``vdRngExponential`` stream, seeded from the
  generator, which tidx does not replay: refused in one line there.
* ``torch.multinomial(p, n, replacement=True)`` (Distributions.cpp multinomial_out,
  cpu/MultinomialKernel.cpp multinomial_with_replacement_apply): per row, the running sum
  of the probabilities in the dtype (float for half), divided by the total, its last
  entry set to 1; per sample one ``uniform_real_distribution<double>`` draw (53 bits of
  ``random64()``) and a binary search for the first entry not below it.
* Without replacement (or for one sample) torch checks the distribution on tensors
  (``aminmax``, ``>= 0`` and ``< inf``, ``_assert_async``; the row sums ``== 0``,
  ``_assert_async``) and takes the exponential trick: ``q ~ Exp(1)`` by exponential_ (so
  bit for bit where exponential_ is), ``self / q`` over ``q``, then ``argmax`` or
  ``topk``.
https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/DistributionKernels.cpp
"""

from __future__ import annotations

import math

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import capability as C
from engine.core import dtypes as D
from engine.core.dispatch_stub import DispatchStub
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.memory.allocator import check_temporary
from engine.ops.iterator import serial_order
from engine.ops.overlap import assert_no_internal_overlap
from engine.ops.random import _generator_step
from engine.ops.touch import touched
from engine.rng import generator as G
from engine.rng.fp import fma64
from engine.rng.libm import glibc_vector

DISTRIBUTIONS = "aten/src/ATen/native/Distributions.cpp"
KERNELS = "aten/src/ATen/native/cpu/DistributionTemplates.h"
MULTINOMIAL_KERNEL_SRC = "aten/src/ATen/native/cpu/MultinomialKernel.cpp"

EXPONENTIAL_KERNEL = step("exponential_kernel", Layer.RNG, source=KERNELS)
#: cauchy_stub: no AVX512 build in torch 2.13's x86 wheel (its slot is in .bss)
CAUCHY_STUB = DispatchStub("cauchy_stub", avx512=False,
                           source="aten/src/ATen/native/cpu/DistributionKernels.cpp")
RANDOM_KERNEL = step("random_kernel", Layer.RNG, source=KERNELS)
GEOMETRIC_KERNEL = step("geometric_kernel", Layer.RNG, source=KERNELS)
CAUCHY_KERNEL = step("cauchy_kernel", Layer.RNG, source=KERNELS)
#: where torch's argmax_out / topk_out write straight into multinomial's result
MULTINOMIAL_OUT = step("multinomial_out", Layer.KERNEL, source=DISTRIBUTIONS)
MULTINOMIAL_KERNEL = step("multinomial_with_replacement_apply", Layer.RNG,
                          source=MULTINOMIAL_KERNEL_SRC)

_MKL = ("exponential_ on an Intel CPU runs MKL's vdRngExponential stream (torch's x86 "
        "wheels), which tidx does not replay")


def _num(x: float) -> str:
    return f"{float(x):g}"      # a C++ ostream's double


def _uniform53(gen, n: int) -> np.ndarray:
    """uniform_real_distribution<double>(0, 1): 53 bits of random64() each."""
    return (gen.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53


def _to_dtype(values: np.ndarray, dtype: D.dtype) -> np.ndarray:
    """static_cast<scalar_t>(double): c10::Half is made from a float."""
    if dtype is D.float16:
        return values.astype(np.float32).astype(np.float16)
    return values.astype(dtype.np)


@declare("exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) -> "
         "Tensor(a!)", variants="method", native="at::native::exponential_",
         source=DISTRIBUTIONS, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("exponential_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def exponential_(self, lambd=1.0, *, generator=None):
    check(lambd > 0.0, RuntimeError,
          f"exponential_ expects lambda > 0.0, but found lambda={_num(lambd)}")
    if self.numel() == 0:
        return self
    if self.device_type != "cpu":
        raise Refused(f"exponential_ on a {self.device_type} tensor is not modelled by tidx "
                      "yet (the CPU's is)")
    assert_no_internal_overlap(self)        # TensorIterator::borrowing_nullary_op
    check(self.dtype.is_floating_point, RuntimeError,
          "Exponential distribution is a continuous probability distribution. dtype must be "
          f"a floating point but you specified {D.cpp_name(self.dtype)}")
    machine = C.machine()
    if machine.x86 and machine.vendor in ("intel", ""):
        raise Refused(_MKL if machine.vendor else
                      "this CPU's vendor is unknown, and torch's exponential_ depends on it "
                      "(MKL's generator on Intel): not modelled here")
    dispatched(self.dtype)
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary("exponential_", n, 40)
    with span(EXPONENTIAL_KERNEL, numel=n, lambd=lambd,
              note=Note("random.exponential_kernel", lambd=_num(lambd))) as s:
        order = serial_order(self.view.sizes,
                             [(self.view.sizes, self.view.strides, self.dtype.itemsize)])
        u = _uniform53(gen, n)
        # transformation::exponential: static_cast<T>(-1.0) / lambda * at::log1p(-val)
        values = (-1.0 / float(lambd)) * glibc_vector("log1p")(-u)
        drawn = np.empty(n, dtype=np.float64)
        drawn[np.asarray(order, dtype=np.int64)] = values
        self.array(write=True)[...] = _to_dtype(drawn, self.dtype).reshape(self.view.sizes)
        s.set(written=touched(self))
        s.set_result(self)
    return self


def _serial_draws(self, what: str, spec, note: Note, transform) -> None:
    """cpu_serial_kernel over a nullary iterator: one uniform_real_distribution<double>
    draw (53 bits of random64()) per element in memory order, transformed in double,
    then cast to the dtype."""
    if self.device_type != "cpu":
        raise Refused(f"{what} on a {self.device_type} tensor is not modelled by tidx yet "
                      "(the CPU's is)")
    assert_no_internal_overlap(self)        # TensorIterator::borrowing_nullary_op
    dispatched(self.dtype)
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary(what, n, 40)
    with span(spec, numel=n, note=note) as s:
        order = serial_order(self.view.sizes,
                             [(self.view.sizes, self.view.strides, self.dtype.itemsize)])
        values = transform(_uniform53(gen, n))
        drawn = np.empty(n, dtype=np.float64)
        drawn[np.asarray(order, dtype=np.int64)] = values
        self.array(write=True)[...] = _to_dtype(drawn, self.dtype).reshape(self.view.sizes)
        s.set(written=touched(self))
        s.set_result(self)


def _libm_map(fn, x: np.ndarray) -> np.ndarray:
    """glibc's function of each element (CPython's math module calls libm's)."""
    return np.fromiter(map(fn, x.tolist()), dtype=np.float64, count=x.size)


def _geometric(p: float):
    def transform(u: np.ndarray) -> np.ndarray:
        # transformation::geometric: ceil(log(u) / log1p(-p)), in double
        with np.errstate(divide="ignore"):
            logs = np.where(u > 0, _libm_map(lambda v: math.log(v) if v > 0 else -math.inf, u),
                            -math.inf)
        return np.ceil(logs / math.log1p(-p))
    return transform


@declare("geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::geometric_", source=DISTRIBUTIONS,
         meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("geometric_cpu", "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"))
def geometric_(self, p, *, generator=None):
    check(0 < p < 1, RuntimeError, f"geometric_ expects p to be in (0, 1), but got p={_num(p)}")
    if self.numel() == 0:
        return self
    _serial_draws(self, "geometric_", GEOMETRIC_KERNEL, Note("random.geometric_kernel", p=_num(p)),
                  _geometric(float(p)))
    return self


@declare("cauchy_(Tensor(a!) self, float median=0, float sigma=1, *, Generator? generator=None) "
         "-> Tensor(a!)", variants="method", native="at::native::cauchy_", source=DISTRIBUTIONS,
         meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("cauchy_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    check(sigma > 0.0, RuntimeError,
          f"cauchy_ expects sigma > 0.0, but found sigma={_num(sigma)}")
    check(self.dtype.is_floating_point, RuntimeError,
          "Cauchy distribution is a continuous probability distribution. dtype must be a "
          f"floating point but you specified {D.type_meta_name(self.dtype)}")
    if self.numel() == 0:
        return self

    fused = CAUCHY_STUB.build().fma

    def transform(u: np.ndarray) -> np.ndarray:
        # transformation::cauchy<double>: median + sigma * tan(pi * (u - 0.5)), glibc's
        # tan; GCC fuses the multiply-add in the AVX2 build
        t = _libm_map(math.tan, math.pi * (u - 0.5))
        if fused:
            return fma64(np.full_like(t, float(sigma)), t, np.full_like(t, float(median)))
        return float(median) + float(sigma) * t
    CAUCHY_STUB.call(self.dtype, self.dtype.itemsize)
    _serial_draws(self, "cauchy_", CAUCHY_KERNEL, Note("random.cauchy_kernel", median=_num(median),
                                        sigma=_num(sigma)), transform)
    return self


#: uniform_int's modulus per dtype (TransformationHelper.h): max + 1 for integers,
#: 2**digits + 1 for floating types (every integer a float holds exactly, both ends)
def _random_modulus(dtype: D.dtype) -> int:
    if dtype is D.bool:
        return 2
    if dtype.is_floating_point:
        return (1 << {D.float16: 11, D.float32: 24, D.float64: 53}[dtype]) + 1
    return int(np.iinfo(dtype.np).max) + 1


@declare("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::random_", source=DISTRIBUTIONS,
         at_dispatch=AT_DISPATCH("random_kernel_cpu",
                                 "AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool)"))
def random_(self, *, generator=None):
    if self.numel() == 0:
        return self
    if self.device_type != "cpu":
        raise Refused(f"random_() on a {self.device_type} tensor is not modelled by tidx yet "
                      "(the CPU's is)")
    assert_no_internal_overlap(self)        # TensorIterator::borrowing_nullary_op
    dispatched(self.dtype)
    gen = G.default_generator()
    _generator_step(gen)
    n = self.numel()
    check_temporary("random_", n, 40)
    wide = self.dtype in (D.int64, D.float64)
    modulus = _random_modulus(self.dtype)
    with span(RANDOM_KERNEL, numel=n, note=Note("random.random_kernel",
                                                draw="random64()" if wide else "random()",
                                                modulus=modulus)) as s:
        order = serial_order(self.view.sizes,
                             [(self.view.sizes, self.view.strides, self.dtype.itemsize)])
        words = gen.random64(n) if wide else gen.random(n).astype(np.uint64)
        values = words % np.uint64(modulus)       # uniform_int: val % modulus
        drawn = np.empty(n, dtype=np.uint64)
        drawn[np.asarray(order, dtype=np.int64)] = values
        if self.dtype is D.float16:
            out = drawn.astype(np.float32).astype(np.float16)
        else:
            out = drawn.astype(self.dtype.np)
        self.array(write=True)[...] = out.reshape(self.view.sizes)
        s.set(written=touched(self))
        s.set_result(self)
    return self


def _multinomial_out(self, n_sample: int, replacement: bool, result):
    """multinomial_out (Distributions.cpp): the checks, the result resized, the kernel."""
    check(self.dim() in (1, 2), RuntimeError, "prob_dist must be 1 or 2 dim")
    check(self.dtype.is_floating_point, RuntimeError,
          "multinomial only supports floating-point dtypes for input, got: "
          f"{D.cpp_name(self.dtype)}")
    check(result.dtype is D.int64, RuntimeError,
          f"multinomial expects Long tensor out, got: {D.cpp_name(result.dtype)}")
    check(n_sample > 0, RuntimeError, "cannot sample n_sample <= 0 samples")
    n_categories = self.view.sizes[-1]
    check(replacement or n_sample <= n_categories, RuntimeError,
          "cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    check(n_categories <= 1 << 24, RuntimeError, "number of categories cannot exceed 2^24")
    shape = [n_sample] if self.dim() == 1 else [self.view.sizes[0], n_sample]
    aten.resize_.default(result, shape)
    if result.numel() == 0:
        return result
    if not replacement or n_sample == 1:
        return _multinomial_by_exponentials(self, n_sample, result)
    if self.device_type != "cpu":
        raise Refused(f"multinomial on a {self.device_type} tensor is not modelled by tidx "
                      "yet (the CPU's is)")
    dispatched(self.dtype)
    acc = D.float32 if self.dtype is D.float16 else self.dtype
    aten.empty.memory_format([n_categories], dtype=acc, device=self.device_type)   # cum_dist
    gen = G.default_generator()
    _generator_step(gen)
    rows = self.array().reshape(-1, n_categories).astype(acc.np)
    check_temporary("multinomial", rows.size + result.numel(), 16)
    with span(MULTINOMIAL_KERNEL, note=Note("random.multinomial", n=n_sample,
                                            categories=n_categories)) as s:
        out = result.array(write=True).reshape(len(rows), n_sample)
        for i, row in enumerate(rows):
            # each entry checked in turn: >= 0 first (a NaN fails it), then finite
            negative, infinite = ~(row >= 0), ~np.isfinite(row)
            bad = np.flatnonzero(negative | infinite)
            if bad.size:
                check(not negative[bad[0]], RuntimeError, "invalid multinomial distribution "
                      "(encountering probability entry < 0)")
                check(False, RuntimeError, "invalid multinomial distribution "
                      "(encountering probability entry = infinity or NaN)")
            # the running sum, one addition after another in the accumulation type
            cum = np.add.accumulate(row)
            total = cum[-1]
            check(bool(total > 0), RuntimeError,
                  "invalid multinomial distribution (sum of probabilities <= 0)")
            cum = cum / total
            cum[-1] = 1
            u = _uniform53(gen, n_sample)
            # the first slot whose cumulative probability is not below the draw
            out[i] = np.searchsorted(cum.astype(np.float64), u, side="left")
        s.set(read=touched(self), written=touched(result))
        s.set_result(result)
    return result


def _multinomial_by_exponentials(self, n_sample: int, result):
    """multinomial_out's path without replacement (or for one sample): the distribution
    checked on the tensors, then the Gumbel trick in its exponential form -- ``q`` drawn
    from Exp(1) (exponential_, bit for bit), ``self / q`` written over ``q``, and the
    ``n_sample`` largest taken (argmax for one, else topk)."""
    low, high = aten.aminmax.default(self)
    valid = aten.bitwise_and.Tensor(aten.ge.Scalar(low, 0), aten.lt.Scalar(high, math.inf))
    aten._assert_async.msg(valid, "probability tensor contains either `inf`, `nan` or "
                                  "element < 0")
    if self.dim() == 1:
        zero_prob = aten.eq.Scalar(aten.sum.default(self), 0)
    else:
        zero_prob = aten.any.default(aten.eq.Scalar(aten.sum.dim_IntList(self, [1]), 0))
    aten._assert_async.msg(aten.bitwise_not.default(zero_prob),
                           "invalid multinomial distribution (sum of probabilities <= 0)")
    q = aten.exponential_.default(aten.empty_like.default(self), 1.0)
    aten.div.out(self, q, out=q)
    # argmax_out / topk_out write straight into ``result`` (and ``vals``) in torch; tidx
    # has no argmax.out / topk.values yet, so the functional kernel runs (the same
    # aten::argmax / aten::topk, its outputs unrecorded as a structured kernel's are) and
    # its indices are moved into ``result``
    if n_sample == 1:
        indices = aten.argmax.default(q, -1, True)
    else:
        vals = aten.empty.memory_format(list(result.view.sizes), dtype=self.dtype,
                                        device=self.device_type)
        values, indices = aten.topk.default(q, n_sample)
    with span(MULTINOMIAL_OUT) as s:
        written = [touched(result)]
        if n_sample != 1:
            vals.array(write=True)[...] = values.array()
            written.append(touched(vals))
        result.array(write=True)[...] = indices.array()
        s.set(read=touched(indices), written=written)
        s.set_result(result)
    return result


@declare("multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, "
         "Generator? generator=None) -> Tensor", variants="method, function",
         native="at::native::multinomial", source=DISTRIBUTIONS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("multinomial_with_replacement",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def multinomial(self, num_samples: int, replacement: bool = False, *, generator=None):
    result = aten.empty.memory_format([0], dtype=D.int64, device=self.device_type)
    return _multinomial_out(self, num_samples, replacement, result)


@declare("multinomial.out(Tensor self, SymInt num_samples, bool replacement=False, *, "
         "Generator? generator=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::multinomial_out", source=DISTRIBUTIONS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("multinomial_with_replacement",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def multinomial_out(self, num_samples: int, replacement: bool = False, *, generator=None,
                    out):
    check(out.device_type == self.device_type, RuntimeError,
          "multinomial arguments must have the same device")
    return _multinomial_out(self, num_samples, replacement, out)
