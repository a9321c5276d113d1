"""arange, eye, scalar_tensor and resize_ (aten/src/ATen/native/RangeFactories.cpp,
TensorFactories.cpp, Resize.cpp).

arange's values are computed as the CPU kernel computes them
(native/cpu/RangeFactoriesKernel.cpp): in the accumulate type (double for
float32), ``start + step * i`` per vector of 2 x Vectorized::size() elements
with the elements of a vector as ``base + k * step`` (contracted to fused
multiply-adds in the AVX2 build), and the scalar tail as ``start + step * i``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.memory import empty as memory
from engine.core.dispatch_stub import DispatchStub
from engine.ops.parallel import chunks
from engine.rng.fp import fma64, round_to_odd, two_sum
from engine.memory.resize import resize_native
from engine.memory.allocator import check_temporary
from engine.core.errors import Refused
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten, prims
from engine.ops.scalar import SCALAR_FILL
from engine.ops.factories import options
from engine.core.errors import torch_error
from engine.ops.copy import to_dtype_scalar
from engine.ops.touch import touched

RANGE = "aten/src/ATen/native/RangeFactories.cpp"
RANGE_KERNEL = "aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp"
#: arange's stub: no AVX512 build in torch 2.13's wheel (an AVX512 CPU runs AVX2's)
ARANGE_STUB = DispatchStub("arange_stub", avx512=False, source=RANGE_KERNEL)
FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"


@declare("scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::scalar_tensor", source=FACTORIES, meta=META_PYTHON)
def scalar_tensor(value: Any, *, dtype: D.dtype | None = None, layout=None,
                  device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    scalar = to_dtype_scalar(value, dtype)
    result = memory.empty_generic((), dtype, device)
    if device != "meta":
        # the CPU path is scalar_tensor_static: empty_cpu, then scalar_fill writes it
        with span(SCALAR_FILL) as k:
            result.array(write=True)[...] = scalar
            k.set(written=touched(result))
    return result


@declare("resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)",
         variants="method", native="at::native::resize_", source="aten/src/ATen/native/Resize.cpp", takes_complex=True)
def resize_(self, size: Sequence[int], *, memory_format: str | None = None):
    return resize_native(self, size, memory_format)


@declare("resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) "
         "-> Tensor(a!)", variants="function, method",
         native="at::native::resize_as_", source="aten/src/ATen/native/Resize.cpp")
def resize_as_(self, the_template, *, memory_format: str | None = None):
    if memory_format is not None:
        raise Refused("resize_as_ with a memory_format is not modelled yet")
    # self.resize_(the_template.sizes())
    return aten.resize_.default(self, list(the_template.view.sizes))


#: at::acc_type<scalar_t, /*is_cuda=*/false>: what arange_out converts its Scalars to
def acc_type(dtype: D.dtype) -> D.dtype:
    if dtype.is_floating_point:
        return D.float32 if dtype is D.float16 else D.float64
    return D.int64


def wrap64(v: int) -> int:
    """An int as C++'s int64 arithmetic leaves it (two's complement wrap)."""
    return (v + 2**63) % 2**64 - 2**63


def _arange_size(start: Any, end: Any, step: Any, dtype: D.dtype, meta: bool = False) -> int:
    """arange_out's AT_DISPATCH body up to the size: arange_check_bounds in double, then
    compute_arange_size (int64 converts its bounds and counts in int64 arithmetic, which
    wraps; the rest count in double)."""
    if not meta:
        dispatched(dtype)
    dstart, dend, dstep = float(start), float(end), float(step)
    if not (dstep > 0 or dstep < 0):
        raise torch_error(RuntimeError, "step must be nonzero")
    if not (math.isfinite(dstart) and math.isfinite(dend)):
        # C++'s ostream prints the doubles (%g: 1e+12, inf)
        raise torch_error(RuntimeError, f"unsupported range: {dstart:g} -> {dend:g}")
    if not ((dstep > 0 and dend >= dstart) or (dstep < 0 and dend <= dstart)):
        raise torch_error(RuntimeError, "upper bound and lower bound inconsistent with step sign")
    if dtype is D.int64:
        xstart, xend, xstep = (to_dtype_scalar(v, D.int64) for v in (start, end, step))
        if xstep == 0:
            raise torch_error(ValueError, "step must be nonzero")
        sgn = (xstep > 0) - (xstep < 0)
        num = wrap64(xend - xstart + xstep - sgn)
        quotient = abs(num) // abs(xstep) * (1 if (num < 0) == (xstep < 0) else -1)
        size_d = float(wrap64(quotient))
    else:
        quotient = (dend - dstart) / dstep
        size_d = float(math.ceil(quotient)) if math.isfinite(quotient) else quotient
    if not (size_d >= 0 and size_d <= float(2**63 - 1)):
        raise torch_error(RuntimeError, "invalid size, possible overflow?")
    # static_cast<int64_t>(2**63 as a double) is out of range: x86 gives INT64_MIN
    return int(size_d) if size_d < 2**63 else -2**63


def _fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """Correctly rounded float32 ``a*b + c`` (std::fma on floats): the product of two
    floats is exact in double, the sum rounded to odd there, then once to float."""
    p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    return round_to_odd(*two_sum(np.asarray(c, np.float64), p)).astype(np.float32)


def _arange_values(start: Any, step: Any, n: int, dtype: D.dtype) -> np.ndarray:
    """arange_kernel (cpu/RangeFactoriesKernel.cpp): ``start + step * idx`` in the
    accumulate type, each at::parallel_for chunk through cpu_serial_kernel_vec."""
    if not dtype.is_floating_point:
        values = np.int64(int(start)) + np.int64(int(step)) * np.arange(n, dtype=np.int64)
        return values.astype(dtype.np)
    out = np.empty(n, dtype=dtype.np)
    with np.errstate(over="ignore", invalid="ignore"):   # float16 past 65504 is inf, as in C++
        for begin, end in chunks(n):
            out[begin:end] = _arange_chunk(float(start), float(step), begin, end, dtype)
    return out


def _arange_chunk(start: float, step: float, begin: int, end: int, dtype: D.dtype):
    """One chunk: vectorized_loop takes two vectors per iteration from ``begin`` (each
    ``Vectorized<T>::arange(base, step)``, base converted to T first), the scalar loop
    the rest."""
    build = ARANGE_STUB.build()
    fused = build.fma
    half = dtype is D.float16       # acc_type<Half> on the CPU is float, not double
    width = build.lanes(dtype.itemsize)     # Vectorized<T>::size()
    acc = np.float32 if half else np.float64
    start_a, step_a = acc(start), acc(step)

    def madd(a: Any, b: Any, c: Any) -> np.ndarray:
        if half:
            return _fma32(a, b, c) if fused else \
                (np.asarray(a, np.float32) * np.float32(b)).astype(np.float32) + np.float32(c)
        return fma64(a, b, c) if fused else np.asarray(a, np.float64) * b + c

    n = end - begin
    idx = np.arange(begin, end, dtype=np.float64).astype(acc)
    nv = (n // (2 * width)) * (2 * width)
    out = np.empty(n, dtype=dtype.np)
    base = madd(step_a, idx[:nv:width], start_a).astype(dtype.np).astype(acc)
    ks = np.arange(width, dtype=acc)
    lanes = madd(ks[None, :], step_a, base[:, None]).astype(dtype.np)
    lanes[:, 0] = base.astype(dtype.np)    # Vectorized(base, base + step, ...): lane 0 is base
    out[:nv] = lanes.reshape(-1)
    out[nv:] = madd(step_a, idx[nv:], start_a).astype(dtype.np)
    return out


def _arange(start: Any, end: Any, step: Any, dtype: D.dtype | None, device: str | None):
    """at::native::arange's body: empty({0}) then arange_out; with no dtype, integral
    bounds and step give int64, anything else the default dtype."""
    if dtype is None and all(isinstance(v, int) for v in (start, end, step)):
        dtype = D.int64
    dtype, device = options(dtype, device)
    if device == "meta":
        # the Meta kernel of arange is a Python decomposition into prims.iota
        length = _arange_size(start, end, step, dtype, meta=True)   # no dtype dispatch
        return prims.iota.default(length, start=start, step=step, dtype=dtype, device=device,
                                  requires_grad=False)
    result = aten.empty.memory_format((0,), dtype=dtype, device=device)
    return aten.arange.start_out(start, end, step, out=result)


@declare("arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::arange", source=RANGE, meta=META_PYTHON,
         python_note="factory.arange")
def arange(end: Any, *, dtype: D.dtype | None = None, layout=None, device: str | None = None,
           pin_memory=None):
    return _arange(0, end, 1, dtype, device)


@declare("arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::arange", source=RANGE, meta=META_PYTHON)
def arange_start(start: Any, end: Any, *, dtype: D.dtype | None = None, layout=None,
                 device: str | None = None, pin_memory=None):
    return _arange(start, end, 1, dtype, device)


@declare("arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::arange", source=RANGE, meta=META_PYTHON)
def arange_start_step(start: Any, end: Any, step: Any = 1, *, dtype: D.dtype | None = None,
                      layout=None, device: str | None = None, pin_memory=None):
    return _arange(start, end, step, dtype, device)


@declare("prims::iota(SymInt length, *, SymInt start, SymInt step, ScalarType dtype, Device device, bool requires_grad) -> Tensor",
         native="torch._prims.iota (meta)", source="torch/_prims/__init__.py")
def iota(length: int, *, start: Any, step: Any, dtype: D.dtype, device: str,
         requires_grad: bool):
    return aten.empty.memory_format((length,), dtype=dtype, device=device)


ARANGE_SIZE = step("arange size", Layer.KERNEL, source=RANGE, note="arange.size")
ARANGE_KERNEL = step("arange_kernel", Layer.KERNEL, source=RANGE_KERNEL, note="arange.kernel")


@declare("arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::arange_out", source=RANGE, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("arange_cpu", "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"))
def arange_out(start: Any, end: Any, step: Any = 1, *, out):
    result = out
    with span(ARANGE_SIZE, start=start, end=end, step=step) as s:
        n = _arange_size(start, end, step, result.dtype)
        s.set_result(n)
    # result.resize_({size}) only when the numel differs: an IntArrayRef, made SymInts by
    # fromIntArrayRefSlow
    S.check_symint_array((n,))
    if result.numel() != n:
        aten.resize_.default(result, (n,))
    with span(ARANGE_KERNEL, numel=n) as s:
        if result.dtype.is_floating_point:      # integers come out the same in every build
            s.set(capability=ARANGE_STUB.call(result.dtype, result.dtype.itemsize).describe())
        # the kernel converts start and step to the accumulate type (checked)
        acc = acc_type(result.dtype)
        xstart, xstep = to_dtype_scalar(start, acc), to_dtype_scalar(step, acc)
        # the values are made whole (int64 products, or float chunks in their
        # accumulate type and lanes) before they are written
        check_temporary("arange", n, 32)
        result.array(write=True)[...] = _arange_values(xstart, xstep, n, result.dtype)
        s.set(written=touched(result))
        s.set_result(result)
    return result


def _eye(n: int, m: int | None, dtype: D.dtype | None, device: str | None):
    dtype, device = options(dtype, device)
    if device == "meta":
        raise Refused("torch.eye on the meta device runs a Python decomposition tidx does not "
                      "model yet")
    result = aten.empty.memory_format((0,), dtype=dtype, device=device)
    if m is None:
        return aten.eye.out(n, out=result)
    return aten.eye.m_out(n, m, out=result)


@declare("eye(SymInt n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::eye", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.eye")
def eye(n: int, *, dtype: D.dtype | None = None, layout=None, device: str | None = None,
        pin_memory=None):
    return _eye(n, None, dtype, device)


@declare("eye.m(SymInt n, SymInt m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::eye", source=FACTORIES, meta=META_PYTHON)
def eye_m(n: int, m: int, *, dtype: D.dtype | None = None, layout=None, device: str | None = None,
          pin_memory=None):
    return _eye(n, m, dtype, device)


@declare("eye.out(SymInt n, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::eye_out_cpu", source=FACTORIES,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def eye_out_n(n: int, *, out):
    # eye_out_cpu(n, result) calls the (n, m) native directly: no second operator
    return eye_out(n, n, out=out)


EYE_DIAGONAL = step("eye diagonal", Layer.KERNEL, source=FACTORIES, note="eye.diagonal")


@declare("eye.m_out(SymInt n, SymInt m, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::eye_out_cpu", source=FACTORIES,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def eye_out(n: int, m: int, *, out):
    result = out
    if n < 0:
        raise torch_error(RuntimeError, f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise torch_error(RuntimeError, f"m must be greater or equal to 0, got {m}")
    aten.resize_.default(result, (n, m))
    aten.zero_.default(result)
    with span(EYE_DIAGONAL,
              stride=result.view.strides[0] + result.view.strides[1] if n and m else 0) as s:
        k = min(n, m)
        if k:
            arr = result.array(write=True)
            arr[np.arange(k), np.arange(k)] = 1
        s.set_result(result)
    return result



@declare("arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)", native="at::native::arange_out",
         source=RANGE, meta=META_PYTHON)
def arange_end_out(end: Any, *, out):
    # CompositeExplicitAutograd: at::arange_out(result, /*start=*/0, end, /*step=*/1)
    return aten.arange.start_out(0, end, 1, out=out)
