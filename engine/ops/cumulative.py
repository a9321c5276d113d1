"""Cumulative sums, products, maxima and minima: cumsum, cumprod (and their in-place
forms), cummax and cummin (aten/src/ATen/native/ReduceOps.cpp,
cpu/ReduceOpsKernel.cpp).

``cumsum_cpu_kernel`` walks each row along the dim serially, adding into an accumulator
of ``at::acc_type<scalar_t, /*is_cuda=*/false>`` -- double for float and double, float
for half, int64 for every integer -- and stores each running sum rounded (or wrapped)
to the result's dtype.  One accumulator, one order: numpy's ``cumsum`` in the
accumulator's dtype (a strict left-to-right loop) gives the same bits.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched
from engine.rng.fp import fma64

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"
KERNELS = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp"


def acc_dtype(dtype: D.dtype) -> np.dtype:
    """at::acc_type<scalar_t, false> on the CPU.

    >>> acc_dtype(D.float32), acc_dtype(D.float16), acc_dtype(D.uint8)
    (dtype('float64'), dtype('float32'), dtype('int64'))
    """
    if dtype is D.float16:
        return np.dtype(np.float32)
    if dtype.is_complex:        # CPU_ACC_TYPE(c10::complex<float>, c10::complex<double>)
        return np.dtype(np.complex128)
    return np.dtype(np.float64 if dtype.is_floating_point else np.int64)


def _out_dtype(self, dtype: D.dtype | None) -> D.dtype:
    """meta_func_cum_ops: dtype=, else int64 for integers and bools, else self's."""
    if dtype is not None:
        return dtype
    return self.dtype if self.dtype.is_floating_point or self.dtype.is_complex else D.int64


CUMSUM_CPU_KERNEL = step("cumsum_cpu_kernel", Layer.KERNEL, source=KERNELS)
CUMPROD_CPU_KERNEL = step("cumprod_cpu_kernel", Layer.KERNEL, source=KERNELS)


def _cum(self, dim: int, result, product: bool = False) -> None:
    """impl_func_cum_ops: a 0-dim input is copied (fill_), an empty one zeroes the
    result (cumprod's too: the same helper), else the kernel runs on the input cast to
    the result's dtype (``to``)."""
    if self.dim() == 0:
        aten.fill_.Tensor(result, self)
        return
    if self.numel() == 0:
        aten.zero_.default(result)
        return
    dim = S.maybe_wrap_dim(dim, self.dim())
    src = aten.to.dtype(self, result.dtype)
    name = "cumprod" if product else "cumsum"
    dispatched(result.dtype)
    acc = acc_dtype(result.dtype)
    spec = CUMPROD_CPU_KERNEL if product else CUMSUM_CPU_KERNEL
    with span(spec, note=lambda: (Note("cumprod.kernel", dim=dim, acc=str(acc)) if product
                                  else Note("cumsum.kernel", dim=dim, acc=str(acc))),
              dim=dim, acc=str(acc)) as s:
        if not self.is_meta:
            # the input in the accumulation dtype, its sums, and their cast to the result
            check_temporary(name, self.numel(), 2 * np.dtype(acc).itemsize
                            + result.dtype.itemsize)
            values = src.array().astype(acc)
            with np.errstate(over="ignore", invalid="ignore"):
                # one accumulator, left to right: numpy's accumulate is that loop
                if product and acc.kind == "c":
                    sums = complex_cumprod(values, dim, current().cpu.name in ("AVX2",
                                                                             "AVX512"))
                else:
                    run = np.cumprod if product else np.cumsum
                    sums = run(values, axis=dim, dtype=acc)
                if not product:
                    # the accumulator starts at 0 (cpu_cum_base_kernel's init_val) and
                    # numpy's cumsum starts at the first element: 0 + -0.0 is +0.0, and
                    # no later running sum can be -0.0, so adding 0 everywhere is torch's
                    sums = sums + acc.type(0)
                result.array(write=True)[...] = sums.astype(result.dtype.np)
            s.set(read=touched(src), written=touched(result))
        s.set_result(result)


def complex_cumprod(values: np.ndarray, dim: int, fused: bool) -> np.ndarray:
    """cpu_cum_base_kernel's ``cum_number *= x`` in c10::complex<double> (CPU_ACC_TYPE of
    both complex dtypes), one step along ``dim`` at a time: c10/util/complex.h's operator*=
    ``real = a*c - b*d; imag = a*d + b*c``.  The AVX2 and AVX512 builds let GCC contract
    each into one fused multiply-add, ``fma(a, c, -(b*d))`` and ``fma(a, d, b*c)``; the
    DEFAULT build rounds every product (measured against torch 2.13 under all three, the
    other three fusions ruled out)."""
    moved = np.moveaxis(values, dim, 0)
    out = np.empty_like(moved)
    reals, imags = moved.real, moved.imag
    acc_re = np.ones(moved.shape[1:], np.float64)
    acc_im = np.zeros(moved.shape[1:], np.float64)
    for k in range(moved.shape[0]):
        c, d = reals[k], imags[k]
        if fused:
            re = fma64(acc_re, c, -(acc_im * d))
            im = fma64(acc_re, d, acc_im * c)
        else:
            re = acc_re * c - acc_im * d
            im = acc_re * d + acc_im * c
        acc_re, acc_im = np.asarray(re, np.float64), np.asarray(im, np.float64)
        out.real[k], out.imag[k] = acc_re, acc_im
    return np.moveaxis(out, 0, dim)


def _cum_out(self, dim: int, dtype, out, product: bool) -> None:
    """meta_func_cum_ops with an out= tensor: the result's dtype is ``dtype`` or else the
    out= tensor's own (no promotion to long), checked, then the out= tensor resized to
    self's shape (untouched when it has it), and impl_func_cum_ops into it."""
    S.maybe_wrap_dim(dim, self.dim())
    want = dtype if dtype is not None else out.dtype
    check(out.dtype is want, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(want)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    resize_output(out, tuple(self.view.sizes), tuple(S.contiguous_strides(self.view.sizes)))
    _cum(self, dim, out, product=product)


#: cumsum_cpu_kernel's (cpu/ReduceOpsKernel.cpp)
_CUMSUM_CPU = AT_DISPATCH("cumsum_out_cpu",
                          "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)")
_CUMPROD_CPU = AT_DISPATCH("cumprod_out_cpu",
                           "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)")


@declare("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
         variants="function, method",
         native="at::native::cumsum_out (structured)", source=REDUCE,
         meta=META_PYTHON, at_dispatch=_CUMSUM_CPU, takes_complex=True)
def cumsum(self, dim: int, *, dtype=None):
    S.maybe_wrap_dim(dim, self.dim())
    result = memory.empty_generic(self.view.sizes, _out_dtype(self, dtype), self.device_type)
    _cum(self, dim, result)
    return result


@declare("cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
         variants="method", native="at::native::cumsum_out (structured)",
         source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER, at_dispatch=_CUMSUM_CPU,
         takes_complex=True)
def cumsum_(self, dim: int, *, dtype=None):
    S.maybe_wrap_dim(dim, self.dim())
    # the structured in-place form: the output is self, so its dtype must be the result's
    out_dtype = dtype if dtype is not None else self.dtype
    check(out_dtype is self.dtype, RuntimeError,
          f"Bad in-place call: input tensor dtype {D.type_meta_name(self.dtype)} and output "
          f"tensor dtype {D.type_meta_name(out_dtype)} should match")
    _cum(self, dim, self)
    return self


@declare("cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::cumsum_out (structured)", source=REDUCE,
         meta=META_PYTHON, at_dispatch=_CUMSUM_CPU, takes_complex=True)
def cumsum_out(self, dim: int, *, dtype=None, out):
    _cum_out(self, dim, dtype, out, product=False)
    return out


# -- cumprod: the running product, in the same accumulator ----------------------------------------
@declare("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
         variants="function, method",
         native="at::native::cumprod_out (structured)", source=REDUCE,
         meta=META_PYTHON, at_dispatch=_CUMPROD_CPU, takes_complex=True)
def cumprod(self, dim: int, *, dtype=None):
    S.maybe_wrap_dim(dim, self.dim())
    result = memory.empty_generic(self.view.sizes, _out_dtype(self, dtype), self.device_type)
    _cum(self, dim, result, product=True)
    return result


@declare("cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
         variants="method", native="at::native::cumprod_out (structured)",
         source=REDUCE, meta=META_PYTHON, device_check=CHECK_WRAPPER, at_dispatch=_CUMPROD_CPU,
         takes_complex=True)
def cumprod_(self, dim: int, *, dtype=None):
    S.maybe_wrap_dim(dim, self.dim())
    out_dtype = dtype if dtype is not None else self.dtype
    check(out_dtype is self.dtype, RuntimeError,
          f"Bad in-place call: input tensor dtype {D.type_meta_name(self.dtype)} and output "
          f"tensor dtype {D.type_meta_name(out_dtype)} should match")
    _cum(self, dim, self, product=True)
    return self


@declare("cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::cumprod_out (structured)", source=REDUCE,
         meta=META_PYTHON, at_dispatch=_CUMPROD_CPU, takes_complex=True)
def cumprod_out(self, dim: int, *, dtype=None, out):
    _cum_out(self, dim, dtype, out, product=True)
    return out


# -- cummax: the running maximum and where it was found -----------------------------------------
CUMMAX_CPU_KERNEL = step("cummax_helper_cpu", Layer.KERNEL, source=REDUCE)
CUMMIN_CPU_KERNEL = step("cummin_helper_cpu", Layer.KERNEL, source=REDUCE)


def _same_type(out, self) -> None:
    """check_scalar_type_device_layout_equal (ReduceOps.cpp): the dtype's check."""
    if out.dtype is not self.dtype:
        raise torch_error(RuntimeError, f"expected scalar_type {D.cpp_name(self.dtype)} but "
                                        f"found {D.cpp_name(out.dtype)}")


def _cummax_cummin(self, values, indices, dim: int, biggest: bool) -> None:
    # AT_DISPATCH_ALL_TYPES_AND3(Bool, Half, BFloat16): every tidx dtype
    spec = CUMMAX_CPU_KERNEL if biggest else CUMMIN_CPU_KERNEL
    with span(spec, note=lambda: (Note("cummax.kernel", dim=dim) if biggest
                                  else Note("cummin.kernel", dim=dim)), dim=dim) as s:
        if not self.is_meta:
            check_temporary("cummax" if biggest else "cummin", self.numel(), 3 * 8)
            x = np.moveaxis(self.array(), dim, -1)
            steps = np.arange(x.shape[-1])
            # cummax_cummin_helper: element i takes over when it is NaN, or when the
            # extreme so far is not NaN and i is >= it (<= for cummin; a tie moves the
            # index to i)
            running = np.maximum.accumulate if biggest else np.minimum.accumulate
            with np.errstate(invalid="ignore"):
                nan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
                seen = np.logical_or.accumulate(nan, axis=-1)
                before = np.concatenate([np.zeros(x.shape[:-1] + (1,), bool),
                                         seen[..., :-1]], axis=-1)
                takes = nan | (~before & (x == running(x, axis=-1)))
            idx = np.maximum.accumulate(np.where(takes, steps, 0), axis=-1)
            values.array(write=True)[...] = np.moveaxis(
                np.take_along_axis(x, idx, axis=-1), -1, dim)
            indices.array(write=True)[...] = np.moveaxis(idx, -1, dim)
            s.set(read=touched(self), written=[touched(values), touched(indices)])


@declare("_cummax_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()",
         native="at::native::cummax_helper_cpu", source=REDUCE, device_check=CHECK_WRAPPER)
def _cummax_helper(self, values, indices, dim: int):
    _cummax_cummin(self, values, indices, dim, biggest=True)


@declare("_cummin_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()",
         native="at::native::cummin_helper_cpu", source=REDUCE, device_check=CHECK_WRAPPER)
def _cummin_helper(self, values, indices, dim: int):
    _cummax_cummin(self, values, indices, dim, biggest=False)


def _extreme_out(self, dim: int, values, indices, helper):
    """cummax_out / cummin_out (ReduceOps.cpp): the outputs' dtypes checked, resized, a
    0-d input copied (its index 0), else the helper's walk."""
    _same_type(values, self)
    long = aten.empty.memory_format([0], dtype=D.int64, device=self.device_type)
    _same_type(indices, long)
    shape = self.view.sizes
    resize_output(values, shape, S.contiguous_strides(shape))
    resize_output(indices, shape, S.contiguous_strides(shape))
    if self.dim() == 0:
        aten.fill_.Tensor(values, self)
        aten.fill_.Scalar(indices, 0)
    elif self.numel() != 0:
        helper(self, values, indices, S.maybe_wrap_dim(dim, self.dim()))
    return values, indices


def _extreme(self, out):
    """cummax / cummin (CompositeExplicitAutograd): the two outputs, then the out= overload."""
    values = aten.empty.memory_format(list(self.view.sizes), dtype=self.dtype,
                                      device=self.device_type)
    indices = aten.empty.memory_format(list(self.view.sizes), dtype=D.int64,
                                       device=self.device_type)
    return out(values, indices)


@declare("cummax.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> "
         "(Tensor(a!) values, Tensor(b!) indices)", native="at::native::cummax_out",
         source=REDUCE, meta=META_PYTHON)
def cummax_out(self, dim: int, *, values, indices):
    return _extreme_out(self, dim, values, indices, aten._cummax_helper.default)


@declare("cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)",
         variants="function, method", native="at::native::cummax", source=REDUCE,
         meta=META_PYTHON)
def cummax(self, dim: int):
    return _extreme(self, lambda v, i: aten.cummax.out(self, dim, values=v, indices=i))


@declare("cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> "
         "(Tensor(a!) values, Tensor(b!) indices)", native="at::native::cummin_out",
         source=REDUCE, meta=META_PYTHON)
def cummin_out(self, dim: int, *, values, indices):
    return _extreme_out(self, dim, values, indices, aten._cummin_helper.default)


@declare("cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)",
         variants="function, method", native="at::native::cummin", source=REDUCE,
         meta=META_PYTHON)
def cummin(self, dim: int):
    return _extreme(self, lambda v, i: aten.cummin.out(self, dim, values=v, indices=i))
