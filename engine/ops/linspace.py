"""linspace, logspace and range (aten/src/ATen/native/TensorFactories.cpp,
RangeFactories.cpp, cpu/RangeFactoriesKernel.cpp).

Each factory is ``empty({steps})`` followed by its ``_out`` kernel, as in C++.  The values
are computed the way the compiled kernels compute them, so they agree bit for bit:

* linspace (cpu/RangeFactoriesKernel.cpp, ``linspace_kernel``): ``step = (end - start) /
  (steps - 1)`` in the output type (double for integer outputs); the first half of the
  elements is ``start + step * i``, the second half ``end - step * (steps - i - 1)``, so
  both ends are exact.  The AVX2 build contracts those to fused multiply-adds; float16
  goes through c10::Half's operators, which round to half after every operation.
* logspace (RangeFactories.cpp, ``logspace_out``): the same two halves in double, then
  ``std::pow(base, x)`` and a cast to the output type.  That file is compiled once,
  without FMA.
* range (RangeFactories.cpp, ``range_out``): ``size = (end - start) / step + 1`` in the
  accumulate type, values ``start + i * step`` in the accumulate type.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import OpOverloadPacket, aten
from engine.core.dispatch_stub import DispatchStub
from engine.memory.allocator import check_temporary
from engine.ops.factories import options
from engine.ops.ranges import acc_type, wrap64
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import touched
from engine.rng.fp import fma32, fma64
from engine.rng.libm import pow_scalar_base

FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"
RANGE = "aten/src/ATen/native/RangeFactories.cpp"
RANGE_KERNEL = "aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp"
#: linspace's stub: no AVX512 build in torch 2.13's wheel (an AVX512 CPU runs AVX2's)
LINSPACE_STUB = DispatchStub("linspace_stub", avx512=False, source=RANGE_KERNEL)
_INT64_MIN = -(2**63)
#: elements tidx computes at a time (its own working arrays, not torch's chunks)
_CHUNK = 1 << 20


def _not_complex(*values: Any) -> None:
    if any(isinstance(v, complex) for v in values):
        raise Refused("complex start/end (a complex result) is not modelled by tidx")


def _cast_double(values: np.ndarray, dtype: D.dtype) -> np.ndarray:
    """``static_cast<scalar_t>(double)`` as x86 does it: floats round; integers truncate
    toward zero with cvttsd2si (int64 for int64, int32 for the narrower types, whose low
    bits are kept), which gives the "integer indefinite" value out of range."""
    if dtype.is_floating_point:
        if dtype is D.float16:          # c10::Half(float): through float first
            values = values.astype(np.float32)
        with np.errstate(over="ignore", invalid="ignore"):
            return values.astype(dtype.np)
    bits, lo = (64, _INT64_MIN) if dtype is D.int64 else (32, -(2**31))
    with np.errstate(invalid="ignore"):
        t = np.trunc(values)
        ok = np.isfinite(t) & (t >= lo) & (t < -lo)
        ints = np.where(ok, t, 0).astype(np.int64)
    ints = np.where(ok, ints, lo)
    if bits == 32:
        ints = ints.astype(np.int32).astype(np.int64)
    return ints.astype(dtype.np)


def _f16(x: Any) -> np.ndarray:
    """A float to c10::Half (every Half operator rounds its float result to half)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(x, np.float32).astype(np.float16)


def _nan_from(fused: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Where the emulated fma gives NaN, the NaN the hardware gives: the NaN operand it
    propagates (its sign kept, also under the fnmadd's negation), or the default NaN of
    an invalid operation (inf * 0, inf - inf) -- as the separate multiply and add do."""
    fused = np.asarray(fused).copy()
    nan = np.isnan(fused)
    fused[nan] = np.asarray(plain)[nan]
    return fused


def linspace_values(start: Any, end: Any, steps: int, dtype: D.dtype, begin: int = 0,
                    stop: int | None = None) -> np.ndarray:
    """linspace_kernel's values ``[begin, stop)`` of ``steps >= 2`` (each value depends
    on its index alone, so any chunking -- at::parallel_for's, or ours -- gives the same).

    >>> linspace_values(0, 1, 5, D.float32).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> linspace_values(0, 10, 4, D.int64).tolist()     # 10/3 = 3.33...: truncated
    [0, 3, 6, 10]
    """
    idx = np.arange(begin, steps if stop is None else stop, dtype=np.int64)
    halfway = steps // 2
    first, back = idx[idx < halfway], (steps - idx[idx >= halfway] - 1)
    fused = LINSPACE_STUB.build().fma
    if dtype is D.float16:
        s, e = _f16(np.float32(start)), _f16(np.float32(end))
        step = _f16(_f16(np.float32(e) - np.float32(s)).astype(np.float32)
                    / _f16(np.float32(steps - 1)).astype(np.float32))
        f32 = np.float32

        def times(k: np.ndarray) -> np.ndarray:     # Half * int64_t: the int made Half
            return _f16(f32(step) * _f16(k.astype(np.float32)).astype(f32))
        lo = _f16(f32(s) + times(first).astype(f32))
        hi = _f16(f32(e) - times(back).astype(f32))
        return np.concatenate([lo, hi])
    if dtype.is_floating_point:
        t = dtype.np.type
        s, e = t(start), t(end)
        with np.errstate(over="ignore", invalid="ignore"):
            step = t((e - s) / t(steps - 1))
            lo = s + step * first.astype(t)
            hi = e - step * back.astype(t)
            if fused:
                fma = fma32 if dtype is D.float32 else fma64
                lo = _nan_from(fma(np.full(len(first), step, t), first.astype(t),
                                   np.full(len(first), s, t)), lo)
                hi = _nan_from(fma(np.full(len(back), -step, t), back.astype(t),
                                   np.full(len(back), e, t)), hi)
        return np.concatenate([np.asarray(lo, t), np.asarray(hi, t)])
    # integral: start and end are scalar_t, the step and the arithmetic double
    ds, de = float(start), float(end)
    with np.errstate(over="ignore", invalid="ignore"):
        dstep = (de - ds) / float(steps - 1)
        if fused:
            lo = fma64(np.full(len(first), dstep), first.astype(np.float64),
                       np.full(len(first), ds))
            hi = fma64(np.full(len(back), -dstep), back.astype(np.float64),
                       np.full(len(back), de))
        else:
            lo = ds + dstep * first.astype(np.float64)
            hi = de - dstep * back.astype(np.float64)
    return _cast_double(np.concatenate([np.asarray(lo, np.float64),
                                        np.asarray(hi, np.float64)]), dtype)


def _check_steps(steps: int) -> None:
    check(steps >= 0, RuntimeError, "number of steps must be non-negative")


#: linspace's and logspace's ``empty({steps})`` (``linspace: empty({steps})``)
FACTORY_EMPTY = step("<linspace|logspace>: empty({steps})", Layer.KERNEL, source=FACTORIES)


def _start_factory(name: str, steps: int, start: Any, end: Any, dtype: D.dtype | None,
                   device: str | None):
    """The composite factory's prologue: the steps check, the options
    (linspace_logspace_infer_options), then ``empty({steps})``."""
    _check_steps(steps)
    _not_complex(start, end)
    dtype, device = options(dtype, device)
    with span(FACTORY_EMPTY, called=f"{name}: empty({{steps}})",
              note=Note("linspace.factory", op=name, steps=steps, dtype=str(dtype))):
        pass
    return aten.empty.memory_format((steps,), dtype=dtype, device=device), device


def _prepare_out(result, steps: int):
    """``_out``'s common start: the steps check and resize_ to ``{steps}``."""
    _check_steps(steps)
    if result.numel() != steps:
        aten.resize_.default(result, (steps,))


def _write(result, values: Callable[[int, int], np.ndarray]) -> None:
    """``r = result.contiguous()``, the kernel into r, then ``result.copy_(r)`` if r is a
    copy (only an ``out=`` tensor can be non-contiguous).  ``values(begin, end)`` gives
    the elements of a chunk: tidx fills in chunks so its working arrays stay small."""
    r = result if result.is_contiguous() else aten.contiguous.default(result)
    # one chunk's index, products and casts at a time
    check_temporary("the values of a range", min(r.numel(), _CHUNK), 40)
    flat = r.array(write=True).reshape(-1)
    with np.errstate(all="ignore"):     # inf and NaN arise as in C++, silently
        for begin in range(0, flat.size, _CHUNK):
            end = min(begin + _CHUNK, flat.size)
            flat[begin:end] = values(begin, end)
    if r is not result:
        aten.copy_.default(result, r)


# -- linspace ------------------------------------------------------------------------------
@declare("linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::linspace", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.linspace")
def linspace(start: Any, end: Any, steps: int, *, dtype: D.dtype | None = None, layout=None,
             device: str | None = None, pin_memory=None):
    result, device = _start_factory("linspace", steps, start, end, dtype, device)
    if device == "meta":
        # torch's Meta kernel of linspace stops at the empty tensor
        return result
    return aten.linspace.out(start, end, steps, out=result)


LINSPACE_KERNEL = step("linspace_kernel", Layer.KERNEL, source=RANGE_KERNEL)


@declare("linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::linspace_out", source=RANGE, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         # RangeFactoriesKernel.cpp's linspace_kernel
         at_dispatch=AT_DISPATCH("linspace_cpu",
                                 "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16)"))
def linspace_out(start: Any, end: Any, steps: int, *, out):
    result = out
    _prepare_out(result, steps)
    if result.is_meta or steps == 0:
        return result
    if steps == 1:
        return aten.fill_.Scalar(result, start)
    dispatched(result.dtype)
    _not_complex(start, end)
    dtype = result.dtype
    with span(LINSPACE_KERNEL,
              note=lambda: Note("linspace.kernel", steps=steps, halfway=steps // 2,
                                step_type="double" if not dtype.is_floating_point
                                else D.cpp_name(dtype)),
              start=start, end=end, steps=steps) as s:
        s.set(capability=LINSPACE_STUB.call(dtype, dtype.itemsize).describe())
        xstart, xend = to_dtype_scalar(start, dtype), to_dtype_scalar(end, dtype)
        _write(result, lambda b, e: linspace_values(xstart, xend, steps, dtype, b, e))
        s.set(written=touched(result))
        s.set_result(result)
    return result


def _items(op: str, start, end) -> tuple[Any, Any]:
    """The Tensor overloads: 0-dim tensors only, then item() of each."""
    s = e = None
    if start is not None and end is not None:
        check(start.dim() == 0 and end.dim() == 0, RuntimeError,
              f"{op} only supports 0-dimensional start and end tensors, but got start with "
              f"{start.dim()} dimension(s) and end with {end.dim()} dimension(s).")
    elif start is not None:
        check(start.dim() == 0, RuntimeError,
              f"{op} only supports 0-dimensional start and end tensors, but got start with "
              f"{start.dim()} dimension(s).")
    else:
        check(end.dim() == 0, RuntimeError,
              f"{op} only supports 0-dimensional start and end tensors, but got end with "
              f"{end.dim()} dimension(s).")
    if start is not None:
        s = aten.item.default(start)
    if end is not None:
        e = aten.item.default(end)
    return s, e


def _tensor_overloads(op: str, extra: str, packet: Callable[[], OpOverloadPacket]) -> None:
    """The Tensor_Tensor / Tensor_Scalar / Scalar_Tensor overloads of linspace or
    logspace (TensorFactories.cpp): check the dims, item(), then the Scalar overload."""
    opts = ("*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
            "bool? pin_memory=None) -> Tensor")
    for overload, (ts, te) in {"Tensor_Tensor": (True, True), "Tensor_Scalar": (True, False),
                               "Scalar_Tensor": (False, True)}.items():
        args = (f"{'Tensor' if ts else 'Scalar'} start, {'Tensor' if te else 'Scalar'} end, "
                f"int steps{extra}")

        def kernel(start, end, steps, *rest, dtype=None, layout=None, device=None,
                   pin_memory=None, _ts=ts, _te=te):
            if device == "meta":
                # the Meta kernel is torch/_refs' decomposition: its own dim check, the
                # steps check, then the empty result (no item())
                check(all(t.dim() == 0 for t in (start if _ts else None,
                                                   end if _te else None) if t is not None),
                      RuntimeError, "linspace only supports 0-dimensional start and end "
                                    "tensors")     # logspace's decomposition calls linspace
                _check_steps(steps)
                return aten.empty.memory_format((steps,),
                                                dtype=options(dtype, device)[0], device=device)
            s, e = _items(op, start if _ts else None, end if _te else None)
            return packet().default(s if _ts else start, e if _te else end, steps, *rest,
                                    dtype=dtype, device=device)

        def out_kernel(start, end, steps, *rest, out, _ts=ts, _te=te):
            if out.is_meta:
                raise Refused(f"{op}(): out= a meta tensor with tensor start/end runs torch's "
                              f"Python decomposition, which tidx does not model")
            s, e = _items(op, start if _ts else None, end if _te else None)
            return packet().out(s if _ts else start, e if _te else end, steps, *rest,
                                out=out)

        declare(f"{op}.{overload}({args}, {opts}",
                native=f"at::native::{op}", source=FACTORIES,
                category_override="factory", meta=META_PYTHON)(kernel)
        declare(f"{op}.{overload}_out({args}, *, Tensor(a!) out) -> Tensor(a!)",
                native=f"at::native::{op}_out", source=RANGE,
                category_override="factory", meta=META_PYTHON)(out_kernel)


_tensor_overloads("linspace", "", lambda: aten.linspace)


# -- logspace ------------------------------------------------------------------------------
@declare("logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::logspace", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.logspace")
def logspace(start: Any, end: Any, steps: int, base: float = 10.0, *,
             dtype: D.dtype | None = None, layout=None, device: str | None = None,
             pin_memory=None):
    result, device = _start_factory("logspace", steps, start, end, dtype, device)
    if device == "meta":
        return result
    return aten.logspace.out(start, end, steps, base, out=result)


def logspace_values(start: Any, end: Any, steps: int, base: float, dtype: D.dtype,
                    begin: int = 0, stop: int | None = None) -> np.ndarray:
    """logspace_out's loop (``steps >= 2``): ``step = double(end - start) / (steps - 1)``
    with the difference taken in the output type, the two halves in double (no FMA: this
    file is not built per CPU capability), ``std::pow`` and a cast.

    >>> logspace_values(0, 2, 3, 10.0, D.float32).tolist()
    [1.0, 10.0, 100.0]
    """
    s: float
    e: float
    if dtype.is_floating_point:
        if dtype is D.float16:
            hs, he = _f16(np.float32(start)), _f16(np.float32(end))
            diff = float(_f16(np.float32(he) - np.float32(hs)))
            s, e = float(hs), float(he)
        else:
            ts, te = dtype.np.type(start), dtype.np.type(end)
            with np.errstate(over="ignore", invalid="ignore"):
                diff = float(dtype.np.type(te - ts))
            s, e = float(ts), float(te)
    elif dtype is D.int64:
        s, e = int(start), int(end)
        diff = float((e - s + 2**63) % 2**64 - 2**63)      # int64 arithmetic wraps
    else:
        s, e = int(start), int(end)         # promoted to int: exact
        diff = float(e - s)
    idx = np.arange(begin, steps if stop is None else stop, dtype=np.int64)
    halfway = steps // 2
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        step = diff / float(steps - 1)
        x = np.concatenate([float(s) + step * idx[idx < halfway].astype(np.float64),
                            float(e) - step * (steps - idx[idx >= halfway] - 1)
                            .astype(np.float64)])
        values = pow_scalar_base(base, x)
    return _cast_double(values, dtype)


LOGSPACE_LOOP = step("logspace loop", Layer.KERNEL, source=RANGE)


@declare("logspace.out(Scalar start, Scalar end, int steps, float base=10.0, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::logspace_out", source=RANGE, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         # RangeFactories.cpp's logspace_out
         at_dispatch=AT_DISPATCH("logspace_cpu",
                                 "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16)"))
def logspace_out(start: Any, end: Any, steps: int, base: float = 10.0, *, out):
    result = out
    _prepare_out(result, steps)
    if result.is_meta or steps == 0:
        return result
    _not_complex(start, end)
    if steps == 1:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            first = float(pow_scalar_base(base, np.float64(float(start))))
        return aten.fill_.Scalar(result, first)
    dispatched(result.dtype)
    dtype = result.dtype
    with span(LOGSPACE_LOOP,
              note=lambda: Note("logspace.kernel", steps=steps, base=base),
              start=start, end=end, steps=steps, base=base) as s:
        xstart, xend = to_dtype_scalar(start, dtype), to_dtype_scalar(end, dtype)
        _write(result, lambda b, e: logspace_values(xstart, xend, steps, base, dtype, b, e))
        s.set(written=touched(result))
        s.set_result(result)
    return result


_tensor_overloads("logspace", ", float base=10.0", lambda: aten.logspace)


# -- range ---------------------------------------------------------------------------------
def _range(start: Any, end: Any, step: Any, dtype: D.dtype | None, device: str | None):
    dtype, device = options(dtype, device)
    result = aten.empty.memory_format((0,), dtype=dtype, device=device)
    return aten.range.out(start, end, step, out=result)


@declare("range.step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::range", source=FACTORIES)
def range_step(start: Any, end: Any, step: Any = 1, *, dtype: D.dtype | None = None,
               layout=None, device: str | None = None, pin_memory=None):
    return _range(start, end, step, dtype, device)


@declare("range(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::range", source=FACTORIES)
def range_(start: Any, end: Any, *, dtype: D.dtype | None = None, layout=None,
           device: str | None = None, pin_memory=None):
    return _range(start, end, 1, dtype, device)


def _range_size(xstart: Any, xend: Any, xstep: Any, acc: D.dtype) -> int:
    """``static_cast<int64_t>(((xend - xstart) / xstep) + 1)`` in the accumulate type."""
    if acc is D.int64:
        diff = (xend - xstart + 2**63) % 2**64 - 2**63
        q = abs(diff) // abs(xstep) * (1 if (diff < 0) == (xstep < 0) else -1)  # C++ division
        return (q + 1 + 2**63) % 2**64 - 2**63
    t = acc.np.type
    with np.errstate(over="ignore", invalid="ignore"):
        size = float((t(xend) - t(xstart)) / t(xstep) + t(1))
    if not (-(2.0**63) <= size < 2.0**63):
        return _INT64_MIN                   # cvttsd2si: out of range is INT64_MIN
    return int(size)


def _range_values(xstart: Any, xstep: Any, begin: int, end: int, acc: D.dtype,
                  dtype: D.dtype) -> np.ndarray:
    """range_out's loop over ``[begin, end)``: ``xstart + i * xstep`` in the accumulate
    type (int64 wraps; float for float16; double otherwise), cast to the dtype."""
    idx = np.arange(begin, end, dtype=np.int64)
    if acc is D.int64:
        return (np.int64(xstart) + idx * np.int64(xstep)).astype(dtype.np)
    t = acc.np.type
    return (t(xstart) + idx.astype(t) * t(xstep)).astype(dtype.np)


RANGE_SIZE = step("range size", Layer.KERNEL, source=RANGE, note="range.size")
RANGE_LOOP = step("range loop", Layer.KERNEL, source=RANGE, note="range.kernel")


@declare("range.out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::range_out", source=RANGE, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("range_cpu", "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"))
def range_out(start: Any, end: Any, step: Any = 1, *, out):
    result = out
    dtype = result.dtype
    dispatched(dtype)
    acc = acc_type(dtype)
    xstart, xend, xstep = (to_dtype_scalar(v, acc) for v in (start, end, step))
    with span(RANGE_SIZE, start=xstart, end=xend, step=xstep) as s:
        # arange_check_bounds (RangeUtils.h): the checks are made in double
        dstart, dend, dstep = float(start), float(end), float(step)
        check(dstep > 0 or dstep < 0, RuntimeError, "step must be nonzero")
        check(math.isfinite(dstart) and math.isfinite(dend), RuntimeError,
              f"unsupported range: {dstart:g} -> {dend:g}")
        check((dstep > 0 and dend >= dstart) or (dstep < 0 and dend <= dstart), RuntimeError,
              "upper bound and lower bound inconsistent with step sign")
        if acc is D.int64 and xstep == 0:
            raise Refused("torch 2.13 crashes (SIGFPE, an integer division by zero) when "
                          "range's step truncates to 0 in an integer dtype")
        if acc is D.int64 and xstep == -1 and wrap64(xend - xstart) == _INT64_MIN:
            raise Refused("torch 2.13 crashes (SIGFPE, INT64_MIN / -1 overflows) on this "
                          "integer range")
        size = _range_size(xstart, xend, xstep, acc)
        s.set_result(size)
    if result.numel() != size:
        # resize_({size}): an IntArrayRef, made SymInts (fromIntArrayRefSlow checks them)
        S.check_symint_array((size,))
        aten.resize_.default(result, (size,))
    if result.is_meta:
        return result
    with span(RANGE_LOOP, numel=size) as s:
        _write(result, lambda b, e: _range_values(xstart, xstep, b, e, acc, dtype))
        s.set(written=touched(result))
        s.set_result(result)
    return result
