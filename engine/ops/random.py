"""Random factories and in-place samplers: randn, rand, randint, randperm, normal_,
uniform_, random_ and their *_like forms.

Mirrors aten/src/ATen/native/TensorFactories.cpp (each factory is ``empty`` plus
an in-place sampler), Distributions.cpp (argument checks) and
native/cpu/DistributionTemplates.h (the CPU kernels).  The numbers come from
:mod:`engine.rng.distributions`, bit for bit those of torch's CPU generator.
"""

from __future__ import annotations

import math

from collections.abc import Sequence

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, inlined, part_of, step, symbol

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.view import contiguous_strides
from engine.rng import explain as X
from engine.rng import generator as G
from engine.rng.stubs import NORMAL_STUB, UNIFORM_STUB
from engine.core.errors import Refused
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, INPLACE, META_PYTHON, OUT,
    OUT_NOT_MODELLED, declare, not_modelled)
from engine.dispatch.aten import aten, prims
from engine.memory.allocator import check_limit
from engine.ops import cuda_kernels
from engine.ops.factories import options
from engine.core.errors import check, torch_error
from engine.ops.touch import storage_offsets, touched
from engine.memory.allocator import check_temporary

FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"
DISTRIBUTIONS = "aten/src/ATen/native/Distributions.cpp"
KERNELS = "aten/src/ATen/native/cpu/DistributionTemplates.h"
DISTRIBUTIONS_H = "aten/src/ATen/native/DistributionTemplates.h"



def _num(x: float) -> str:
    """How a C++ ostream prints a double by default (6 significant digits, like %g).

    >>> _num(-1.0), _num(-0.001953125), _num(1e-05)
    ('-1', '-0.00195312', '1e-05')
    """
    return f"{float(x):g}"


CPUGENERATOR_IMPL = step("CPUGeneratorImpl", Layer.RNG, source=G.SOURCE, note="random.generator",
                         libtorch=symbol("at::detail::getDefaultCPUGenerator"))


def _generator_step(gen) -> None:
    with span(CPUGENERATOR_IMPL, seed=gen.initial_seed(), engine="mt19937"):
        pass


def _check_draw(what: str, t) -> None:
    """A sampler draws every element's number into a numpy array (the generator's words
    and the transformed values) before it writes them; a strided tensor also needs its
    storage offsets, their order and a reordered copy (_write_memory_order)."""
    check_temporary(what, t.numel(), 16 if t.is_contiguous() else 48)


def _write_memory_order(t, values: np.ndarray) -> None:
    """Store values in the order the CPU kernel walks memory (ascending addresses)."""
    if t.is_contiguous():
        t.array(write=True)[...] = values.reshape(t.view.sizes)
        return
    order = np.argsort(storage_offsets(t.view.sizes, t.view.strides, t.view.offset), kind="stable")
    flat = np.empty(values.shape, dtype=values.dtype)
    flat[order] = values
    t.array(write=True)[...] = flat.reshape(t.view.sizes)


#: a random operator on the Meta device (``normal_ (Meta)``): no numbers drawn
RANDOM_META = step("<op> (Meta)", Layer.KERNEL, source=DISTRIBUTIONS, note="random.meta")


def _meta(self, what: str) -> bool:
    if not self.is_meta:
        return False
    with span(RANDOM_META, called=f"{what} (Meta)"):
        pass
    return True


# -- in-place samplers ---------------------------------------------------------------
NORMAL_KERNEL = step("normal_kernel", Layer.RNG, source=KERNELS, note="random.normal_kernel",
                     libtorch=inlined("at::native::templates::cpu::normal_kernel",
                                      "at::native::(anonymous namespace)::normal_kernel"))


@declare("normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::normal_", source=DISTRIBUTIONS, meta=META_PYTHON,
         # the CPU's and the CUDA kernel's (cpu/ and cuda/DistributionTemplates.h)
         at_dispatch=(AT_DISPATCH("normal_kernel_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"),
                      AT_DISPATCH("normal_kernel_cuda", "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)")),
         takes_complex=True)
def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None):
    check_normal_std(std)
    if _meta(self, "normal_"):
        return self
    return normal_impl_(self, mean, std)


def check_normal_std(std: float) -> None:
    """CHECK_NORMAL_STD (native/DistributionTemplates.h): NaN fails it too."""
    if not std >= 0.0:
        raise torch_error(RuntimeError, f"normal expects std >= 0.0, but found std {_num(std)}")


def normal_impl_(self, mean: float, std: float):
    """normal_impl_: the CPU normal kernel called directly (torch.normal's overloads call
    it so: no aten::normal_ of their own)."""
    if self.numel() == 0:
        # CHECK_EMPTY_AND_RETURN, before the kernel's dtype dispatch
        return self
    if self.dtype.is_complex:
        # each half a normal of half the variance: the kernel draws into
        # view_as_real(self) with std / sqrt(2) (computed in double)
        if self.device_type == "cuda":
            raise Refused("normal_ of a complex tensor on the simulated GPU is not modelled "
                          "by tidx")
        normal_impl_(aten.view_as_real.default(self), mean, std / math.sqrt(2))
        return self
    if self.device_type == "cuda":
        return cuda_kernels.normal_(self, mean, std)
    dispatched(self.dtype, "normal_kernel_cpu")
    if self.dtype is D.float16:
        raise Refused("normal_ in float16 (its per-element Half path) is not modelled by tidx "
                      "yet; float32 and float64 are")
    rng = G.kernels()
    gen = G.default_generator()
    _generator_step(gen)
    contiguous = self.is_contiguous()
    _check_draw("normal_", self)
    with span(NORMAL_KERNEL, numel=self.numel(), contiguous=contiguous, mean=mean, std=std) as s:
        build = NORMAL_STUB.call(self.dtype, self.dtype.itemsize)
        s.set(capability=build.describe())
        snap = X.snapshot(gen)
        values, variant = rng.normal(gen, self.numel(), self.dtype.np, mean, std,
                                     contiguous=contiguous,
                                     out=self.flat(write=True) if contiguous else None)
        s.set(variant=variant)
        if not contiguous:
            _write_memory_order(self, values)
        avx2 = build.name != "DEFAULT"
        if self.numel() >= 16 and contiguous:
            X.normal_fill(snap, self.dtype.np, mean, std, avx2, _first_offset(self))
        else:
            X.normal_serial(snap, self.dtype.np, mean, std, avx2, _first_offset(self))
        s.set(written=touched(self))     # every element gets a draw; none is read
        s.set_result(self)
    return self


def _first_offset(t) -> int:
    """Where a serial kernel stores its first number: the lowest address of ``t``."""
    if t.is_contiguous():
        return t.view.offset
    return int(storage_offsets(t.view.sizes, t.view.strides, t.view.offset).min())


UNIFORM_KERNEL = step("uniform_kernel", Layer.RNG, source=KERNELS, note="random.uniform_kernel")


@declare("uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::uniform_", source=DISTRIBUTIONS, meta=META_PYTHON,
         # uniform_impl_'s (native/DistributionTemplates.h)
         at_dispatch=AT_DISPATCH("check_uniform_bounds", "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def uniform_(self, low: float = 0.0, high: float = 1.0, *, generator=None):
    if _meta(self, "uniform_"):
        return self
    _check_uniform_bounds(self.dtype, low, high)
    if self.numel() == 0:
        return self     # CHECK_EMPTY_AND_RETURN, after the bounds checks
    if self.device_type == "cuda":
        return cuda_kernels.uniform_(self, low, high)
    if self.dtype is D.float16:
        raise Refused("uniform_ in float16 (its per-element Half path) is not modelled by "
                      "tidx yet; float32 and float64 are")
    rng = G.kernels()
    gen = G.default_generator()
    _generator_step(gen)
    _check_draw("uniform_", self)
    with span(UNIFORM_KERNEL, numel=self.numel(), low=low, high=high) as s:
        build = UNIFORM_STUB.call(self.dtype, self.dtype.itemsize)
        s.set(capability=build.describe())
        contiguous = self.is_contiguous()
        snap = X.snapshot(gen)
        values = rng.uniform(gen, self.numel(), self.dtype.np, low, high,
                             out=self.flat(write=True) if contiguous else None)
        if not contiguous:
            _write_memory_order(self, values)
        X.uniform(snap, self.dtype.np, low, high, build.name != "DEFAULT",
                  _first_offset(self))
        s.set(written=touched(self))
        s.set_result(self)
    return self


def _check_uniform_bounds(dtype: D.dtype, low: float, high: float) -> None:
    """uniform_impl_'s checks inside its "check_uniform_bounds" dispatch
    (native/DistributionTemplates.h): both ends within the dtype's finite range (NaN and
    the infinities are not), from <= to, and to - from itself finite in the dtype."""
    dispatched(dtype)
    info = np.finfo(dtype.np)
    lo, hi = float(info.min), float(info.max)
    for value, what in ((low, "from"), (high, "to")):
        if not lo <= value <= hi:       # CHECK_OUT_OF_BOUNDS
            raise torch_error(RuntimeError,
                              f"{what} is out of bounds for {D.type_meta_name(dtype)}")
    if low > high:
        raise torch_error(RuntimeError, f"uniform_ expects to return a [from, to) range, but "
                                        f"found from={_num(low)} > to={_num(high)}")
    if high - low > hi:
        raise torch_error(RuntimeError, "uniform_ expects to-from <= std::numeric_limits<"
                          f"{D.cpp_name(dtype)}>::max(), but found to={_num(high)} and "
                          f"from={_num(low)} which result in to-from to exceed the limit")


@declare("random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::random_", source=DISTRIBUTIONS)
def random_to(self, high: int, *, generator=None):
    return random_(self, 0, high)


RANDOM_FROM_TO_KERNEL = step("random_from_to_kernel", Layer.RNG, source=KERNELS,
                             note="random.random_from_to_kernel")


@declare("random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)",
         variants="method", native="at::native::random_", source=DISTRIBUTIONS)
def random_(self, low: int, high: int | None, *, generator=None):
    if _meta(self, "random_"):
        return self     # random_meta_: "No error checking yay" (Distributions.cpp)
    if high is None:
        raise Refused("random_(from, None) (up to the dtype's largest value) is not modelled "
                      "by tidx")
    if low >= high:
        raise torch_error(RuntimeError, f"random_ expects 'from' to be less than 'to', but got "
                                        f"from={low} >= to={high}")
    if self.dtype.is_floating_point:
        # random_update_from_to: ends the dtype cannot hold move inwards to ones it can
        low, high = _update_from(low, self.dtype), _update_to(high, self.dtype)
        check(low < high, RuntimeError, "random_ expects 'from' casted to dtype to be less "
              f"than 'to' casted to dtype, but got from={low} >= to={high}")
    _check_from_to_in_range(low, high - 1, self.dtype)
    if self.numel() == 0:
        return self     # CHECK_EMPTY_AND_RETURN, after the bounds checks
    if self.device_type == "cuda":
        return cuda_kernels.uniform_(self, low, high)
    rng = G.kernels()
    gen = G.default_generator()
    _generator_step(gen)
    span_ = high - low
    _check_draw("random_", self)
    with span(RANDOM_FROM_TO_KERNEL, numel=self.numel(), low=low, high=high,
              draw="random64()" if span_ >= 2**28 else "random()") as s:
        snap = X.snapshot(gen)
        values = rng.randint(gen, self.numel(), low, high).astype(self.dtype.np)
        _write_memory_order(self, values)
        X.randint(snap, self.dtype.np, low, high, _first_offset(self))
        s.set(written=touched(self))
        s.set_result(self)
    return self


def _through(value: int, dtype: D.dtype) -> int:
    """static_cast<int64_t>(static_cast<scalar_t>(value)): Half converts through float."""
    wide = np.float64(value) if dtype is D.float64 else np.float32(value)
    with np.errstate(over="ignore"):
        narrow = wide.astype(dtype.np)
    # past the dtype's range the C++ cast is undefined; keep the value (the range check
    # that follows refuses it)
    if not np.isfinite(narrow):
        return value
    # a float past int64's range (2**63 from 2**63 - 9) converts, with x86's cvttss2si /
    # cvttsd2si, to the "integer indefinite" value INT64_MIN
    out = int(narrow)
    return out if -2**63 <= out < 2**63 else -2**63


def _digits(dtype: D.dtype) -> int:
    return np.finfo(dtype.np).nmant + 1


def _update_from(low: int, dtype: D.dtype) -> int:
    """update_from (DistributionTemplates.h): a ``from`` that rounds down moves up to
    the next value the dtype holds."""
    from_plus_1 = _through(low + 1, dtype)
    if from_plus_1 < low:
        n = abs(low + 1).bit_length() - 1
        low = from_plus_1 + (1 << (n - _digits(dtype) + 1))
    return low


def _update_to(high: int, dtype: D.dtype) -> int:
    """update_to: a ``to`` whose predecessor rounds up moves down."""
    to_minus_1 = _through(high - 1, dtype)
    if to_minus_1 >= high:
        n = abs(high - 1).bit_length() - 1
        high = to_minus_1 - (1 << (n - _digits(dtype) + 1))
    return high


TORCH_WARN = step("TORCH_WARN", Layer.KERNEL, source=DISTRIBUTIONS_H)


def _check_from_to_in_range(low: int, to_inc: int, dtype: D.dtype) -> None:
    """check_from_to_in_range (DistributionTemplates.h): both ends inside the dtype's
    range; for floats, a warning past 2**digits, where not every integer exists."""
    name = D.type_meta_name(dtype)
    digits: int | None = None
    if dtype.is_floating_point:
        info = np.finfo(dtype.np)
        lo, hi, digits = float(info.min), float(info.max), info.nmant + 1
    elif dtype is D.bool:
        lo, hi = 0, 1
    else:
        integral = np.iinfo(dtype.np)
        lo, hi = int(integral.min), int(integral.max)
    for value, what in ((low, "from"), (to_inc, "to - 1")):
        if not lo <= value <= hi:
            raise torch_error(RuntimeError, f"{what} is out of bounds for {name}")
    if digits is None:
        return
    for value, what in ((low, "from"), (to_inc, "to - 1")):
        if not -(2 ** digits) <= value <= 2 ** digits:
            with span(TORCH_WARN,
                      note=Note("random.precision_warning", name=what, digits=digits,
                                dtype=name), category="UserWarning", value=value):
                pass


# -- factories -------------------------------------------------------------------------
RANDN_EMPTY_NORMAL = step("randn = empty + normal_", Layer.KERNEL, source=FACTORIES,
                          note="random.randn", libtorch=part_of("at::native::randn"))


@declare("randn.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randn", source=FACTORIES, takes_complex=True)
@declare("randn(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randn", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.randn", takes_complex=True)
def randn(size: Sequence[int], *, generator=None, dtype: D.dtype | None = None, layout=None,
          device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    if device == "meta":
        # The Meta kernel of randn is a Python decomposition into prims; it validates the
        # shape first (utils.validate_shape, a bare torch._check)
        check(all(s >= 0 for s in size), RuntimeError,
              "Expected cond to be True, but got False. (Could this error message be "
              "improved? If so, please report an enhancement request to PyTorch.)")
        return prims.normal.default(size, mean=0.0, std=1.0, dtype=dtype, device=device,
                                    requires_grad=False)
    with span(RANDN_EMPTY_NORMAL):
        pass
    result = aten.empty.memory_format(size, dtype=dtype, device=device)
    return aten.normal_.default(result, 0.0, 1.0)


@declare("prims::normal(SymInt[] shape, *, Scalar mean, Scalar std, ScalarType dtype, Device device, bool requires_grad, Generator? generator=None) -> Tensor",
         native="torch._prims.normal (meta)", source="torch/_prims/__init__.py")
def prims_normal(size: Sequence[int], *, mean: float, std: float, dtype: D.dtype, device: str,
                 requires_grad: bool, generator=None):
    # _normal_meta (torch/_prims): a floating dtype
    check(dtype.is_floating_point, RuntimeError,
          f"expected a floating-point or complex dtype, but got dtype={dtype}")
    return aten.empty_strided.default(size, contiguous_strides(size), dtype=dtype,
                                      device=device)


@declare("rand.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::rand", source=FACTORIES)
@declare("rand(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::rand", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.rand")
def rand(size: Sequence[int], *, generator=None, dtype: D.dtype | None = None, layout=None,
         device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    result = aten.empty.memory_format(size, dtype=dtype, device=device)
    if device == "meta":
        return result
    return aten.uniform_.default(result, 0.0, 1.0)


@declare("randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randint", source=FACTORIES)
@declare("randint.low(SymInt low, SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randint", source=FACTORIES, meta=META_PYTHON)
def randint_low(low: int, high: int, size: Sequence[int], *, generator=None,
                dtype: D.dtype | None = D.int64, layout=None, device: str | None = None,
                pin_memory=None):
    dtype, device = options(dtype, device)
    result = aten.empty.memory_format(size, dtype=dtype, device=device)
    if device == "meta":
        return result
    return aten.random_.from_(result, low, high)


@declare("randint.generator(SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randint", source=FACTORIES)
@declare("randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randint", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.randint")
def randint(high: int, size: Sequence[int], *, generator=None, dtype: D.dtype | None = D.int64,
            layout=None, device: str | None = None, pin_memory=None):
    return randint_low(0, high, size, dtype=dtype, device=device)


@declare("randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randperm", source=FACTORIES)
@declare("randperm(SymInt n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::randperm", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.randperm")
def randperm(n: int, *, generator=None, dtype: D.dtype | None = D.int64, layout=None,
             device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    # at::empty(n, options): an IntArrayRef, made SymInts by fromIntArrayRefSlow
    S.check_symint_array((n,))
    result = aten.empty.memory_format((n,), dtype=dtype, device=device)
    if device == "meta":
        return result
    return aten.randperm.generator_out(n, generator=None, out=result)


RANDPERM_CPU = step("randperm_cpu", Layer.RNG, source=FACTORIES, note="random.randperm")


@declare("randperm.generator_out(SymInt n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::randperm_out_cpu", source=FACTORIES, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("randperm", "AT_DISPATCH_ALL_TYPES_AND(kHalf)"))
def randperm_out(n: int, *, generator, out):
    result = out
    rng = G.kernels()
    # check_supported_max_int_with_precision: the largest value, n - 1, must fit the
    # dtype (scalar_tensor(n > 0 ? n - 1 : n)), and every value up to n must be exact
    aten.scalar_tensor.default(n - 1 if n > 0 else n, dtype=result.dtype,
                               device=result.device_type)
    limits = {"float16": 2049, "float32": 2**24 + 1, "float64": 2**53 + 1}
    if result.dtype.name in limits and n > limits[result.dtype.name]:
        cname = {"float16": "Half", "float32": "Float", "float64": "Double"}[result.dtype.name]
        raise torch_error(RuntimeError, f"n cannot be greater than {limits[result.dtype.name]} "
                                        f"for {cname} type.")
    aten.resize_.default(result, (n,))
    gen = G.default_generator()
    _generator_step(gen)
    dispatched(result.dtype)
    limit = rng.randperm_limit()
    if n > limit:
        raise Refused(f"randperm({n}) is not modelled: tidx shuffles at most {limit} elements"
                      + ("" if limit == rng.RANDPERM_MAX else " without wasmtime (a Python loop)"))
    check_limit(rng.randperm_bytes(n), "randperm's shuffle (r as int32, and the draws)")
    with span(RANDPERM_CPU, n=n) as s:
        snap = X.snapshot(gen) if n < 0xFFFFFFFF // 20 else None   # the small-n path
        aten.resize_.default(result, (n,))
        rng.randperm(gen, n, out=result.array(write=True))
        X.randperm(snap, n)
        s.set(written=touched(result))
        s.set_result(result)
    return result


def _random_like(schema: str, sampler: str, python_note: str | None = None) -> None:
    def kernel(self, *args, generator=None, dtype: D.dtype | None = None, layout=None,
               device: str | None = None, pin_memory=None, memory_format: str | None = None):
        result = aten.empty_like.default(self, dtype=dtype, device=device,
                                         memory_format=memory_format)
        if sampler == "normal_":
            return aten.normal_.default(result, 0.0, 1.0)
        if sampler == "uniform_":
            return aten.uniform_.default(result, 0.0, 1.0)
        low, high = (0, *args) if len(args) == 1 else args
        return aten.random_.from_(result, low, high)
    name = schema.partition("(")[0].partition(".")[0]
    declare(schema, native=f"at::native::{name}", source=FACTORIES,
            python_note=python_note)(kernel)


_LIKE = ("*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
         "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor")
_GEN = "*, Generator? generator, " + _LIKE[3:]
_random_like(f"randn_like(Tensor self, {_LIKE}", "normal_", python_note="factory.randn_like")
_random_like(f"randn_like.generator(Tensor self, {_GEN}", "normal_")
_random_like(f"rand_like(Tensor self, {_LIKE}", "uniform_", python_note="factory.rand_like")
_random_like(f"rand_like.generator(Tensor self, {_GEN}", "uniform_")
_random_like(f"randint_like(Tensor self, SymInt high, {_LIKE}", "random_",
             python_note="factory.randint_like")
_random_like(f"randint_like.generator(Tensor self, SymInt high, {_GEN}", "random_")
_random_like(f"randint_like.low_dtype(Tensor self, SymInt low, SymInt high, {_LIKE}", "random_")
_random_like(f"randint_like.low_generator_dtype(Tensor self, SymInt low, SymInt high, {_GEN}",
             "random_")


# -- overloads torch binds in Python that tidx does not model -----------------------------
not_modelled("randint_like.Tensor(Tensor self, Tensor high, " + _LIKE,
             "randint_like.Tensor_generator(Tensor self, Tensor high, " + _GEN,
             reason="a tensor as randint_like's upper bound is not modelled yet")
# -- out=: the factories' out= forms resize the given tensor, then sample into it
# (TensorFactories.cpp rand_out / randn_out / randint_out: result.resize_(size), then
# uniform_ / normal_ / random_; no resize warning, as resize_ is called directly)
def _sampled_out(schema: str, sample: str, kind: str | None = None,
                 meta: str | None = None) -> None:
    def kernel(*args, generator=None, out):
        *bounds, size = args
        aten.resize_.default(out, list(size))
        if sample == "uniform_":
            return aten.uniform_.default(out, 0.0, 1.0)
        if sample == "normal_":
            return aten.normal_.default(out, 0.0, 1.0)
        low, high = (0, *bounds) if len(bounds) == 1 else bounds
        return aten.random_.from_(out, low, high)
    name = schema.partition("(")[0].partition(".")[0]
    declare(schema, native=f"at::native::{name}_out", source=FACTORIES, meta=meta,
            kind=kind)(kernel)


_sampled_out("rand.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", "uniform_",
             meta=META_PYTHON)
_sampled_out("rand.generator_out(SymInt[] size, *, Generator? generator, Tensor(a!) out) -> "
             "Tensor(a!)", "uniform_", COMPOSITE)
_sampled_out("randn.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)", "normal_", COMPOSITE)
_sampled_out("randn.generator_out(SymInt[] size, *, Generator? generator, Tensor(a!) out) -> "
             "Tensor(a!)", "normal_", COMPOSITE)
_sampled_out("randint.out(SymInt high, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
             "random_", meta=META_PYTHON)
_sampled_out("randint.generator_out(SymInt high, SymInt[] size, *, Generator? generator, "
             "Tensor(a!) out) -> Tensor(a!)", "random_")
_sampled_out("randint.low_out(SymInt low, SymInt high, SymInt[] size, *, Tensor(a!) out) -> "
             "Tensor(a!)", "random_", meta=META_PYTHON)
_sampled_out("randint.low_generator_out(SymInt low, SymInt high, SymInt[] size, *, "
             "Generator? generator, Tensor(a!) out) -> Tensor(a!)", "random_")
@declare("randperm.out(SymInt n, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::randperm_out", source=FACTORIES)
def randperm_plain_out(n: int, *, out):
    # at::randperm_out(result, n, std::nullopt): the generator overload, default generator
    return aten.randperm.generator_out(n, generator=None, out=out)
