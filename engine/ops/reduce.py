"""Reductions: sum, mean, amax/amin, max/min (whole tensor), argmax/argmin, any/all.

Mirrors aten/src/ATen/native/ReduceOps.cpp and ReduceOpsUtils.h (the structured meta
functions: the dims, the result's shape and dtype, the checks), TensorCompare.cpp, and
the CPU kernels of cpu/ReduceOpsKernel.cpp, cpu/SumKernel.cpp (engine/ops/sum_kernel.py)
and cpu/ReduceAllOpsKernel.cpp.  The steps torch.profiler shows are the ones taken
here: the result seen with a 0 stride on every reduced dim (``review_reduce_result``,
an ``as_strided``), the input cast to the reduction's dtype (``to``), the result filled
with the identity (``fill_``) before the loop adds into it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.nonzero import compact, repeats
from engine.ops.parallel import GRAIN_SIZE, num_threads
from engine.ops.pointwise import can_cast, resize_output
from engine.ops import sum_kernel
from engine.ops import sum_kernel as K
from engine.ops.reduce_all import zero_sign
from engine.ops.reduce_loop import MaxLoop, MinLoop
from engine.ops.touch import touched

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"
UTILS = "aten/src/ATen/native/ReduceOpsUtils.h"
SUM_KERNEL = "aten/src/ATen/native/cpu/SumKernel.cpp"
KERNELS = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp"
COMPARE = "aten/src/ATen/native/TensorCompare.cpp"
ALL_KERNEL = "aten/src/ATen/native/cpu/ReduceAllOpsKernel.cpp"

#: Above this many elements tidx does not replay a float sum's additions one block at a
#: time (the numpy gather alone would be gigabytes).
FLOAT_SUM_LIMIT = 1 << 25


# -- the meta functions' shared steps (ReduceOpsUtils.h) -----------------------------------
def dim_mask(self, dim: Sequence[int] | None, allow_empty: bool = False) -> list[bool]:
    """make_dim_mask: no dims (None, or ``[]`` unless allowed) means every dim."""
    nd = self.dim()
    if dim is None or (len(dim) == 0 and not allow_empty):
        return [True] * max(nd, 1)
    for d in dim:       # resize_reduction wraps every dim (maybe_wrap_dims) first
        S.maybe_wrap_dim(d, nd)
    return S.dim_list_to_bitset(dim, nd)[:max(nd, 1)]


def reduced_shape(sizes: Sequence[int], mask: Sequence[bool], keepdim: bool) -> tuple:
    """shape_from_dim_mask: a reduced dim is dropped, or kept as 1 with keepdim."""
    if keepdim:
        return tuple(1 if mask[d] else n for d, n in enumerate(sizes))
    return tuple(n for d, n in enumerate(sizes) if not mask[d])


def _result(self, mask: list[bool], keepdim: bool, dtype: D.dtype):
    """resize_reduction: the structured kernel's output, contiguous (no operator)."""
    return memory.empty_generic(reduced_shape(self.view.sizes, mask, keepdim), dtype,
                                self.device_type)


def review(result, ndim: int, mask: list[bool], keepdim: bool):
    """review_reduce_result: with keepdim the result itself; else an as_strided view with
    a size-1, stride-0 dim put back for every reduced one."""
    if keepdim:
        return result
    sizes, strides = list(result.view.sizes), list(result.view.strides)
    for d in range(ndim):
        if mask[d]:
            sizes.insert(d, 1)
            strides.insert(d, 0)
    return aten.as_strided.default(result, sizes, strides, None)


def _in_dtype(self, dtype: D.dtype):
    """make_reduction: the input cast to the reduction's dtype, if it is not already."""
    return self if self.dtype is dtype else aten.to.dtype(self, dtype)


def _out_strides(self, viewed) -> list[int]:
    """The output's strides as the iterator sees them: 0 where it is broadcast."""
    return [0 if (o == 1 and n != 1) else s for n, o, s in
            zip(self.view.sizes, viewed.view.sizes, viewed.view.strides)]


def _axes(self, mask: list[bool]) -> tuple[int, ...]:
    return tuple(d for d in range(self.dim()) if mask[d])


TWO_PASS_REDUCTION = step("two_pass_reduction", Layer.KERNEL,
                          source="aten/src/ATen/TensorIteratorReduce.cpp")


def _two_pass_reduction(dst) -> None:
    """TensorIteratorBase::parallel_reduce for a one-element output of GRAIN_SIZE or more
    inputs: each thread reduces into its own row of a buffer (made from the identity),
    then the rows are reduced into the result."""
    with span(TWO_PASS_REDUCTION,
              note=Note("sum.two_pass", threads=num_threads()), threads=num_threads()):
        unsqueezed = aten.unsqueeze.default(dst, 0)
        buffer = aten.empty.memory_format((num_threads(),) + unsqueezed.view.sizes[1:],
                                          dtype=dst.dtype, device=dst.device_type)
        aten.copy_.default(buffer, unsqueezed)
        aten.select.int(buffer, 0, 0)


def _parallel(self, viewed) -> None:
    """parallel_reduce's choice, as the operators it runs show it."""
    if self.numel() >= GRAIN_SIZE and num_threads() > 1 and viewed.numel() == 1:
        _two_pass_reduction(viewed)


# -- sum -----------------------------------------------------------------------------------
def _sum_dtype(self, dtype: D.dtype | None) -> D.dtype:
    """get_dtype_from_self with promote_integers: integers and bools sum in int64."""
    if dtype is not None:
        return dtype
    return self.dtype if self.dtype.is_floating_point or self.dtype.is_complex else D.int64


MAKE_REDUCTION = step("make_reduction", Layer.KERNEL, source=UTILS, note="sum.make_reduction")
SUM_KERNEL_INTEGERS = step("sum_kernel (integers)", Layer.KERNEL, source=SUM_KERNEL,
                           note="sum.integer")


def sum_impl(self, dim: Sequence[int] | None, keepdim: bool, dtype: D.dtype | None,
             out=None):
    """sum_out (structured): the result, its iterator, the cascade sum or the integer sum."""
    out_dtype = _sum_dtype(self, dtype) if out is None else out.dtype
    mask = dim_mask(self, dim)
    result = _result(self, mask, keepdim, out_dtype) if out is None else out
    with span(MAKE_REDUCTION):
        viewed = review(result, self.dim(), mask, keepdim)
    src = _in_dtype(self, out_dtype)
    if self.numel() == 0:
        # sum_out: an empty iterator zeroes the result, the kernel never runs
        return aten.zero_.default(result)
    aten.fill_.Scalar(result, 0)
    _parallel(self, viewed)
    if out_dtype.is_floating_point or out_dtype.is_complex:
        _float_sum(src, result, viewed)
        return result
    with span(SUM_KERNEL_INTEGERS) as s:
        if not self.is_meta:
            total = _integer_sum(src.array(), _axes(self, mask), out_dtype)
            result.array(write=True)[...] = total.reshape(result.view.sizes)
            # a reduction loads every input element and stores into every output one
            s.set(read=touched(src), written=touched(result))
        s.set_result(result)
    return result


def _integer_sum(values: np.ndarray, axes: tuple[int, ...], dtype: D.dtype) -> np.ndarray:
    """Integers add in any order to the same bits, wrapping as torch's do (bools with
    dtype=bool: a logical or).  A whole-tensor sum of an expanded view adds its distinct
    elements once, times their repeats."""
    if values.ndim and len(axes) == values.ndim:
        distinct, broadcast = compact(values)
        n = repeats(values, broadcast)
        total = int(distinct.sum(dtype=dtype.np))
        if dtype is D.bool:
            return np.asarray(bool(total))
        return np.asarray(np.int64(S.int64(total * n))).astype(dtype.np)
    return values.sum(axis=axes, dtype=dtype.np)


CASCADE_SUM = step("cascade_sum", Layer.KERNEL, source=SUM_KERNEL)


def _float_sum(src, result, viewed) -> None:
    """cascade_sum over the iterator TensorIterator builds (engine/ops/sum_kernel.py)."""
    with span(CASCADE_SUM,
              note=lambda: Note("sum.cascade", lanes=sum_kernel.SUM_STUB.build().lanes(
                  src.dtype.itemsize), dtype=src.dtype)) as s:
        if not src.is_meta:
            s.set(capability=sum_kernel.SUM_STUB.call(src.dtype, src.dtype.itemsize)
                  .describe())
            if src.numel() > FLOAT_SUM_LIMIT:
                raise Refused(f"a float sum of {src.numel()} elements: tidx replays torch's "
                              f"cascade summation up to {FLOAT_SUM_LIMIT} elements")
            sum_kernel.check_replay("sum()", src.numel(), src.dtype.itemsize)
            out = result.elements(write=True)
            paths = sum_kernel.cascade_sum(
                src.elements(), src.view.offset, out, result.view.offset, src.view.sizes,
                src.view.strides, _out_strides(src, viewed), src.dtype.np)
            s.set(paths=sorted(set(paths)), read=touched(src), written=touched(result))
        s.set_result(result)


@declare("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", variants="function, method",
         native="at::native::sum", source=REDUCE, meta=META_PYTHON, takes_complex=True,
         conj_records_again=True)
def sum_(self, *, dtype=None):
    return sum_impl(self, None, False, dtype)


@declare("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
         "ScalarType? dtype=None) -> Tensor", variants="function, method",
         native="at::native::sum_out (structured)", source=REDUCE,
         meta=META_PYTHON, takes_complex=True)
def sum_dim(self, dim, keepdim=False, *, dtype=None):
    return sum_impl(self, dim, keepdim, dtype)


@declare("sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, "
         "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::sum_out (structured)", source=REDUCE,
         meta=META_PYTHON, takes_complex=True)
def sum_out(self, dim, keepdim=False, *, dtype=None, out):
    reduction_out(self, dim, keepdim, dtype, out)
    return sum_impl(self, dim, keepdim, None, out=out)


def reduction_out(self, dim, keepdim: bool, dtype: D.dtype | None, out,
                  allow_empty: bool = False) -> None:
    """resize_reduction with an out= tensor: the dims checked, the dtype the out= tensor
    must have (``dtype``, else its own: infer_dtype_from_optional), then the structured
    wrapper's resize_out (its check, and resize_output's warning)."""
    mask = dim_mask(self, dim, allow_empty)
    want = dtype if dtype is not None else out.dtype
    check(out.dtype is want, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(want)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    shape = reduced_shape(self.view.sizes, mask, keepdim)
    resize_output(out, shape, S.contiguous_strides(shape))


# -- mean ----------------------------------------------------------------------------------
def _mean(self, dim: Sequence[int] | None, keepdim: bool, dtype: D.dtype | None, out=None):
    """mean.dim's meta (a float or complex dtype) and mean_out's CPU path: sum, then
    div_ by the number of elements reduced; float16 sums and divides in float32."""
    in_dtype = _sum_dtype(self, dtype)
    if not (in_dtype.is_floating_point or in_dtype.is_complex):
        what, name = ("Optional", dtype) if dtype is not None else ("Input", self.dtype)
        raise torch_error(RuntimeError, "mean(): could not infer output dtype. "
                          f"{what} dtype must be either a floating point or complex dtype. "
                          f"Got: {D.cpp_name(name)}")
    mask = dim_mask(self, dim)
    if out is None:
        result = _result(self, mask, keepdim, in_dtype)
    else:
        reduction_out(self, dim, keepdim, dtype, out)
        result = out
    if dim is None or len(dim) == 0 or self.dim() == 0:
        count = self.numel()
    else:
        count = 1
        for d in dim:
            count *= self.view.sizes[S.maybe_wrap_dim(d, self.dim())]
    half = result.dtype is D.float16
    acc = aten.to.dtype(result, D.float32) if half else result
    aten.sum.IntList_out(self, dim, keepdim, dtype=acc.dtype, out=acc)
    aten.div_.Scalar(acc, count)
    if half:
        aten.copy_.default(result, acc)
    return result


@declare("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", variants="function, method",
         native="at::native::mean", source=REDUCE, meta=META_PYTHON, takes_complex=True,
         conj_records_again=True)
def mean(self, *, dtype=None):
    return _mean(self, None, False, dtype)


@declare("mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
         "-> Tensor", variants="function, method",
         native="at::native::mean_out (structured)", source=REDUCE,
         meta=META_PYTHON, takes_complex=True)
def mean_dim(self, dim, keepdim=False, *, dtype=None):
    return _mean(self, dim, keepdim, dtype)


@declare("mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
         "Tensor(a!) out) -> Tensor(a!)", native="at::native::mean_out (structured)",
         source=REDUCE, meta=META_PYTHON, takes_complex=True)
def mean_out(self, dim, keepdim=False, *, dtype=None, out):
    return _mean(self, dim, keepdim, dtype, out=out)


@declare("mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::mean_dtype_out", source=REDUCE, meta=META_PYTHON)
def mean_dtype_out(self, *, dtype=None, out):
    check(can_cast(self.dtype, out.dtype), RuntimeError,
          f"mean.dtype_out(): input types can't be cast to the desired output type "
          f"{D.cpp_name(out.dtype)}")
    # at::mean_out(result, self, IntArrayRef{}, false, dtype)
    return aten.mean.out(self, [], False, dtype=dtype, out=out)


# -- amax / amin ---------------------------------------------------------------------------
def zero_numel_check_dims(self, dims: Sequence[int], name: str) -> None:
    """zero_numel_check_dims: an empty tensor cannot be reduced over no dim or an empty
    one (there is no identity for max)."""
    if not dims:
        check(self.numel() != 0, RuntimeError,
              f"{name}: Expected reduction dim to be specified for input.numel() == 0. "
              "Specify the reduction dim with the 'dim' argument.")
        return
    for d in dims:
        _zero_numel_check_dim(self, d, name)


def _zero_numel_check_dim(self, d: int, name: str) -> None:
    if self.dim() == 0:
        check(d in (0, -1), IndexError,
              f"{name}: Expected reduction dim -1 or 0 for scalar but got {d}")
        return
    size = self.view.sizes[S.maybe_wrap_dim(d, self.dim())]
    check(size != 0, IndexError, f"{name}: Expected reduction dim {d} to have non-zero size.")


def _extreme(values: np.ndarray, axes: tuple[int, ...], biggest: bool,
             whole: bool = False) -> np.ndarray:
    """max_impl / min_impl for integers, bools and max()/min() of a whole tensor: a NaN
    wins; otherwise the largest (smallest) value.  Which of two equal zeros of opposite
    sign a whole, contiguous tensor's reduce_all_kernel keeps (``whole``: every float
    caller) is replayed in engine/ops/reduce_all.py; the other callers reduce integers
    and bools, which have no signed zeros."""
    fn = np.max if biggest else np.min
    out = np.asarray(fn(values, axis=axes) if values.ndim else values)
    if values.dtype.kind == "f" and values.size:
        zero_max = (out == 0) & ~np.isnan(out)
        if zero_max.any():
            # five bool masks the size of the input, to see which zeros meet
            check_temporary("max()" if biggest else "min()", values.size, 1, copies=5)
            keep = np.expand_dims(out, axes) if axes else out
            hit = (values == 0) & (values == keep)
            signs = np.signbit(values) & hit
            mixed = np.any(signs, axis=axes) & np.any(hit & ~np.signbit(values), axis=axes)
            if np.any(mixed):
                assert whole, "a float reduction over some dims replays its own loop"
                return np.asarray(zero_sign(values.reshape(-1), biggest))
    return out


MAX_VALUES_KERNEL = step("max_values_kernel", Layer.KERNEL, source=KERNELS, note="amax.kernel")
MIN_VALUES_KERNEL = step("min_values_kernel", Layer.KERNEL, source=KERNELS, note="amax.kernel")


def _amax_amin(self, dim: Sequence[int], keepdim: bool, biggest: bool, out=None):
    name = "amax()" if biggest else "amin()"
    if out is not None:
        check(out.dtype is self.dtype, RuntimeError,
              f"Expected the dtype for input and out to match, but got "
              f"{D.cpp_name(self.dtype)} for input's dtype and {D.cpp_name(out.dtype)} for "
              f"out's dtype.")
    if self.numel() == 0:
        zero_numel_check_dims(self, dim, name)
    mask = dim_mask(self, dim)
    if out is None:
        result = _result(self, mask, keepdim, self.dtype)
    else:
        reduction_out(self, dim, keepdim, None, out)
        result = out
    viewed = review(result, self.dim(), mask, keepdim)
    if self.numel() == 0:
        return result
    # binary_kernel_reduce_vec fills the result with the identity (lowest / highest);
    # min_values_kernel_impl takes int64 through binary_kernel_reduce instead (no fill_:
    # Vectorized<int64_t> cannot hold upper_bound<int64_t>(), pytorch#43254)
    if biggest or self.dtype is not D.int64:
        aten.fill_.Scalar(result, _identity(self.dtype, biggest))
        _parallel(self, viewed)
    with span(MAX_VALUES_KERNEL if biggest else MIN_VALUES_KERNEL) as s:
        if not self.is_meta and self.dtype.is_floating_point:
            # binary_kernel_reduce_vec's order decides which zero a tie of +0.0 and -0.0
            # keeps: replayed (engine/ops/reduce_loop.py)
            loop = MaxLoop if biggest else MinLoop
            s.set(capability=loop.stub.call(self.dtype, self.dtype.itemsize).describe())
            K.check_replay(name, self.numel(), self.dtype.itemsize)
            paths = K.parallel_reduce(
                loop, self.elements(), self.view.offset,
                result.elements(write=True), result.view.offset,
                K.geometry(self.view.sizes, self.view.strides, _out_strides(self, viewed)),
                self.dtype.np, _identity(self.dtype, biggest))
            s.set(paths=sorted(set(paths)))
        elif not self.is_meta:
            out = _extreme(self.array(), _axes(self, mask), biggest)
            result.array(write=True)[...] = out.reshape(result.view.sizes)
        if not self.is_meta:
            s.set(read=touched(self), written=touched(result))
        s.set_result(result)
    return result


def _identity(dtype: D.dtype, biggest: bool):
    """upper_bound / lower_bound: -inf / inf for floats, the type's limits otherwise."""
    if dtype is D.bool:
        return not biggest
    if dtype.is_floating_point:
        return float("-inf") if biggest else float("inf")
    info = np.iinfo(dtype.np)
    return int(info.min) if biggest else int(info.max)


@declare("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
         variants="function, method", native="at::native::amax_out (structured)",
         source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def amax(self, dim=(), keepdim=False):
    return _amax_amin(self, dim, keepdim, True)


@declare("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
         variants="function, method", native="at::native::amin_out (structured)",
         source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def amin(self, dim=(), keepdim=False):
    return _amax_amin(self, dim, keepdim, False)


@declare("amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::amax_out (structured)", source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def amax_out(self, dim=(), keepdim=False, *, out):
    return _amax_amin(self, dim, keepdim, True, out)


@declare("amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::amin_out (structured)", source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def amin_out(self, dim=(), keepdim=False, *, out):
    return _amax_amin(self, dim, keepdim, False, out)


# -- argmax / argmin -----------------------------------------------------------------------
ARGMAX_KERNEL = step("argmax_kernel", Layer.KERNEL, source=KERNELS, note="argmax.kernel")
ARGMIN_KERNEL = step("argmin_kernel", Layer.KERNEL, source=KERNELS, note="argmax.kernel")


def _arg(self, dim: int | None, keepdim: bool, biggest: bool, out=None):
    name = "argmax()" if biggest else "argmin()"
    check(self.dtype is not D.bool, RuntimeError, f"{name}: does not support bool input")
    if dim is not None:
        wrapped = S.maybe_wrap_dim(dim, self.dim())
        _zero_numel_check_dim(self, wrapped, name)
    else:
        check(self.numel() != 0, IndexError,
              f"{name}: Expected reduction dim to be specified for input.numel() == 0.")
    mask = dim_mask(self, None if dim is None else [dim])
    if out is None:
        result = _result(self, mask, keepdim, D.int64)
    else:
        reduction_out(self, None if dim is None else [dim], keepdim, D.int64, out)
        result = out
    if dim is not None:
        if (self.view.sizes[wrapped] if self.dim() else 1) == 1 and self.dim():
            return aten.fill_.Scalar(result, 0)
        src, ndim = self, self.dim()
    else:
        src, ndim, keepdim = aten.reshape.default(self, (-1,)), 1, False
        mask = [True]
    review(result, ndim, mask, keepdim)
    if self.numel() == 0:
        return result
    with span(ARGMAX_KERNEL if biggest else ARGMIN_KERNEL) as s:
        if not self.is_meta:
            axis = wrapped if dim is not None else 0
            # numpy's argmax copies the input with the dim moved last
            check_temporary(name, self.numel(), self.dtype.itemsize)
            index = _first_index(src.array(), axis, biggest)
            result.array(write=True)[...] = index.reshape(result.view.sizes)
            s.set(read=touched(src), written=touched(result))
        s.set_result(result)
    return result


def _first_index(values: np.ndarray, axis: int, biggest: bool) -> np.ndarray:
    """ArgMaxOps / ArgMinOps: the first NaN, else the first extreme value (ties go to the
    smaller index) -- numpy's argmax/argmin rule exactly."""
    if values.ndim == 0:
        return np.asarray(0)
    fn = np.argmax if biggest else np.argmin
    return np.asarray(fn(values, axis=axis))


@declare("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
         variants="function, method",
         native="at::native::argmax_out (structured)", source=REDUCE,
         meta=META_PYTHON)
def argmax(self, dim=None, keepdim=False):
    return _arg(self, dim, keepdim, True)


@declare("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
         variants="function, method",
         native="at::native::argmin_out (structured)", source=REDUCE,
         meta=META_PYTHON)
def argmin(self, dim=None, keepdim=False):
    return _arg(self, dim, keepdim, False)


@declare("argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::argmax_out (structured)", source=REDUCE,
         device_check=CHECK_WRAPPER)
def argmax_out(self, dim=None, keepdim=False, *, out):
    return _arg(self, dim, keepdim, True, out)


@declare("argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::argmin_out (structured)", source=REDUCE,
         device_check=CHECK_WRAPPER)
def argmin_out(self, dim=None, keepdim=False, *, out):
    return _arg(self, dim, keepdim, False, out)


# -- any / all -----------------------------------------------------------------------------
AND_KERNEL = step("and_kernel", Layer.KERNEL, source=KERNELS, note="allany.kernel")
OR_KERNEL = step("or_kernel", Layer.KERNEL, source=KERNELS, note="allany.kernel")


def _allany(self, dim: Sequence[int] | None, keepdim: bool, is_all: bool, out=None):
    """allany_meta + allany_impl: a bool result (uint8 stays uint8; an out= tensor, bool or
    uint8, keeps its own); an empty input is the identity, a one-element one a copy, else
    a reduction of the input cast to the result's dtype."""
    if out is None:
        mask = dim_mask(self, dim, allow_empty=True)
        out_dtype = D.uint8 if self.dtype is D.uint8 else D.bool
        result = _result(self, mask, keepdim, out_dtype)
    else:
        # check_result_is_bytebool, before the dims
        check(out.dtype in (D.bool, D.uint8), RuntimeError,
              f"{'all' if is_all else 'any'} only supports bool tensor for result, got: "
              f"{D.cpp_name(out.dtype)}")
        mask = dim_mask(self, dim, allow_empty=True)
        out_dtype = out.dtype
        reduction_out(self, dim, keepdim, None, out, allow_empty=True)
        result = out
    if self.numel() == 0:
        return aten.fill_.Scalar(result, is_all)
    if self.numel() == 1:
        viewed = aten.view_as.default(self, result)
        return aten.copy_.default(result, aten.to.dtype(viewed, D.bool))
    viewed = review(result, self.dim(), mask, keepdim)
    src = _in_dtype(self, out_dtype)
    aten.fill_.Scalar(result, is_all)
    _parallel(self, viewed)
    with span(AND_KERNEL if is_all else OR_KERNEL) as s:
        if not self.is_meta:
            check_temporary("all()" if is_all else "any()", self.numel(), 1)
            values = src.array() != 0
            fn = np.all if is_all else np.any
            out = np.asarray(fn(values, axis=_axes(self, mask)))
            result.array(write=True)[...] = out.astype(out_dtype.np).reshape(result.view.sizes)
        s.set_result(result)
    return result


def _declare_allany(name: str, is_all: bool) -> None:
    @declare(f"{name}(Tensor self) -> Tensor", variants="method, function",
             native=f"at::native::{name}_all_out (structured)", source=REDUCE,
             meta=META_PYTHON)
    def whole(self):
        return _allany(self, None, False, is_all)

    @declare(f"{name}.dim(Tensor self, int dim, bool keepdim=False) -> Tensor",
             variants="function, method",
             native=f"at::native::{name}_out (structured)", source=REDUCE,
             meta=META_PYTHON)
    def one_dim(self, dim, keepdim=False):
        return _allany(self, [dim], keepdim, is_all)

    @declare(f"{name}.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
             variants="function, method",
             native=f"at::native::{name}_dims_out (structured)", source=REDUCE,
             meta=META_PYTHON)
    def dims(self, dim=None, keepdim=False):
        return _allany(self, dim, keepdim, is_all)

    @declare(f"{name}.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
             native=f"at::native::{name}_all_out (structured)", source=REDUCE,
             meta=META_PYTHON)
    def whole_out(self, *, out):
        return _allany(self, None, False, is_all, out)

    @declare(f"{name}.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> "
             "Tensor(a!)", native=f"at::native::{name}_out (structured)", source=REDUCE,
             meta=META_PYTHON)
    def one_dim_out(self, dim, keepdim=False, *, out):
        return _allany(self, [dim], keepdim, is_all, out)

    @declare(f"{name}.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, "
             "Tensor(a!) out) -> Tensor(a!)",
             native=f"at::native::{name}_dims_out (structured)", source=REDUCE,
             meta=META_PYTHON)
    def dims_out(self, dim=None, keepdim=False, *, out):
        return _allany(self, dim, keepdim, is_all, out)


_declare_allany("all", True)
_declare_allany("any", False)
