"""std, var, std_mean, var_mean: the variance and its square root, replayed in torch's
order; and trace, diff, nansum and nanmean (aten/src/ATen/native/ReduceOps.cpp std_var_out, std_var_mean_out, std_var_all_cpu;
cpu/ReduceOpsKernel.cpp std_var_kernel_impl; SharedReduceOps.h WelfordOps).

torch takes one of two roads, and each gives its own last bits:

* **a float or double tensor reduced to one element** (``x.std()``, or over every dim):
  ``std_var_all_cpu`` -- the mean (``self.mean().item<double>()``, torch's cascade sum),
  then ``(x - mean)^2`` summed in double, element by element in the iterator's order,
  each call of the 2-d loop into its own ``local_sum`` and each thread's calls into its
  ``thread_sum``, the threads' sums added in thread order (``parallel_reduce``); the
  result ``sum / max(0, n - correction)``, its sqrt for std, rounded to float;
* **anything else** (a dim reduction with several outputs, float16, std_mean/var_mean):
  Welford's update per output element, in double, over the reduced elements in the
  iterator's order: ``delta = x - mean; mean += delta / n; m2 += delta * (x - mean)``.
  Every step rounds on its own under every CPU capability (measured: GCC fuses no
  multiply-add here, though ReduceOpsKernel.cpp's AVX2/AVX512 builds may use FMA).  A
  reduction of 32768 or more elements per output is split between threads and the
  partial results combined; tidx refuses those.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory.allocator import check_temporary
from engine.memory.resize import resize_native
from engine.ops import sum_kernel
from engine.ops.parallel import GRAIN_SIZE, chunks
from engine.ops.pointwise import resize_output, warn_resized
from engine.ops.reduce import dim_mask, reduced_shape, review
from engine.ops.touch import touched

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"
KERNELS = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp"

STD_VAR_ALL_CPU = step("std_var_all_cpu", Layer.KERNEL, source=REDUCE)
STD_VAR_KERNEL = step("std_var_kernel_impl", Layer.KERNEL, source=KERNELS)
DOF_WARNING = step("TORCH_WARN", Layer.KERNEL, source=REDUCE)

#: Above this many 2-d loop calls tidx does not replay std_var_all_cpu's local sums.
MAX_CALLS = 1 << 16


# -- the iterator's order ------------------------------------------------------------------
def _order(sizes: Sequence[int], strides: Sequence[int]) -> list[int]:
    """TensorIterator::reorder_dimensions for one input: the tensor's dims innermost
    first (smaller stride inner; an equal stride puts the smaller size inner; a
    broadcast dim keeps its place)."""
    nd = len(sizes)
    rev = list(range(nd))        # reversed dims: rev i is tensor dim nd - 1 - i
    st = [strides[nd - 1 - i] for i in rev]
    sz = [sizes[nd - 1 - i] for i in rev]

    def should_swap(d0: int, d1: int) -> int:
        s0, s1 = st[d0], st[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if sz[d0] > sz[d1] else 0

    return [nd - 1 - d for d in S.sort_dims(rev, should_swap)]


def _coalesced(sizes: Sequence[int], strides: Sequence[int], inner_first: list[int]
               ) -> list[int]:
    """coalesce_dimensions over the reordered dims: the shape the 2-d loop is called on."""
    shape = [sizes[d] for d in inner_first]
    stride = [strides[d] for d in inner_first]
    if not shape:
        return []
    prev = 0
    for d in range(1, len(shape)):
        if shape[prev] == 1 or shape[d] == 1 or shape[prev] * stride[prev] == stride[d]:
            if shape[prev] == 1:
                stride[prev] = stride[d]
            shape[prev] *= shape[d]
        else:
            prev += 1
            shape[prev], stride[prev] = shape[d], stride[d]
    return shape[:prev + 1]


def _calls(shape: list[int], begin: int, end: int) -> list[tuple[int, int]]:
    """at::internal::serial_for_each over [begin, end): the ranges of the iteration order
    each call of the 2-d loop covers (DimCounter::max_2d_step)."""
    if len(shape) <= 1:
        return [(begin, end)]
    out, offset = [], begin
    while offset < end:
        rest, values = offset, []
        for n in shape:
            values.append(rest % n)
            rest //= n
        step0 = min(shape[0] - values[0], end - offset)
        step1 = 1
        if step0 == shape[0]:
            step1 = min(shape[1] - values[1], (end - offset) // shape[0])
        out.append((offset, offset + step0 * step1))
        offset += step0 * step1
        if len(out) > MAX_CALLS:
            raise Refused(f"std/var of a tensor whose layout splits it into more than "
                          f"{MAX_CALLS} loop calls: tidx does not replay that many local sums")
    return out


def _in_order(x: np.ndarray, inner_first: list[int]) -> np.ndarray:
    return np.transpose(x, inner_first[::-1]).reshape(-1) if x.ndim else x.reshape(-1)


# -- the whole tensor in double (std_var_all_cpu) --------------------------------------------
def _std_var_all(self, correction: float, take_sqrt: bool) -> float:
    # self.mean().item<double>(): torch's mean (its cascade sum), read back as a double
    mean = aten.item.default(aten.mean.default(self))
    with span(STD_VAR_ALL_CPU, note=Note("statistics.all_cpu", mean=float(mean))) as s:
        n = self.numel()
        check_temporary("std_var_all_cpu", n, 8, copies=3)
        order = _order(self.view.sizes, self.view.strides)
        shape = _coalesced(self.view.sizes, self.view.strides, order)
        dx = _in_order(self.array(), order).astype(np.float64) - np.float64(mean)
        sq = dx * dx
        pieces = [(0, n)] if n <= GRAIN_SIZE else chunks(n)
        total = 0.0
        for begin, end in pieces:
            thread_sum = 0.0
            for a, b in _calls(shape, begin, end):
                thread_sum += float(np.cumsum(sq[a:b])[-1]) if b > a else 0.0
            total += thread_sum
        with np.errstate(divide="ignore", invalid="ignore"):
            var = np.float64(total) / np.float64(max(0.0, n - correction))
        value = float(np.sqrt(var) if take_sqrt else var)
        if self.dtype is D.float32:
            with np.errstate(over="ignore"):
                value = float(np.float32(value))
        s.set(read=touched(self))
    return value


# -- Welford (std_var_kernel_impl) ------------------------------------------------------------
def _welford(x: np.ndarray, correction: float, take_sqrt: bool):
    """WelfordOps over the last axis of ``x`` (every output's reduced elements in the
    iterator's order), in double: (the variance or std, the mean) per output."""
    count = x.shape[-1]
    mean = np.zeros(x.shape[:-1], np.float64)
    m2 = np.zeros(x.shape[:-1], np.float64)
    for k in range(count):
        data = x[..., k].astype(np.float64)
        delta = data - mean
        mean = mean + delta / np.float64(k + 1)
        new_delta = data - mean
        m2 = m2 + delta * new_delta
    divisor = np.float64(count - correction if count > correction else 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / divisor
        result = np.sqrt(var) if take_sqrt else var
    return result, mean


def reduced_in_order(self, mask: list[bool]) -> np.ndarray:
    """The input with its kept dims first (in tensor order) and its reduced elements
    along one last axis, in the order the reduction iterator visits them."""
    sizes, strides = self.view.sizes, self.view.strides
    kept = [d for d in range(self.dim()) if not mask[d]]
    reduced = [d for d in range(self.dim()) if mask[d]]
    inner = _order([sizes[d] for d in reduced], [strides[d] for d in reduced])
    reduced_outer_first = [reduced[i] for i in inner[::-1]]
    x = np.transpose(self.array(), kept + reduced_outer_first) if self.dim() else \
        self.array().reshape(1)
    return x.reshape([sizes[d] for d in kept] + [-1])


def _store(result, values: np.ndarray) -> None:
    dt = result.dtype.np
    with np.errstate(over="ignore"):
        # the double result converted to scalar_t (Half through float, as c10::Half takes it)
        v = values.astype(np.float32).astype(dt) if dt == np.float16 else values.astype(dt)
    result.array(write=True)[...] = v.reshape(result.view.sizes)


def _std_var_kernel(self, mask, results: list, correction: float, take_sqrt: bool) -> None:
    n = self.numel() // max(1, results[0].numel())
    if n >= GRAIN_SIZE and current().cpu.threads > 1:
        raise Refused(f"std/var over {n} elements per output: torch splits them between "
                      "threads and combines the Welford partial results, which tidx does "
                      "not replay (below 32768 elements per output it does)")
    with span(STD_VAR_KERNEL, note="statistics.welford") as s:
        check_temporary("std_var_kernel", self.numel(), 8, copies=4)
        value, mean = _welford(reduced_in_order(self, mask), correction, take_sqrt)
        _store(results[0], value)
        if len(results) > 1:
            _store(results[1], mean)
        s.set(read=touched(self), written=[touched(r) for r in results])


# -- std_var_out / std_var_mean_out -------------------------------------------------------------
def _correction(correction: Any, unbiased: bool | None = None) -> float:
    if correction is None:
        return 1.0 if unbiased is None or unbiased else 0.0
    return float(correction)


def _dof_warning(name: str, self, results: list, correction: float) -> None:
    """The warning when the divisor is not positive (torch's TORCH_WARN)."""
    per_output = self.numel() // max(1, results[0].numel())
    if self.numel() and per_output - correction <= 0:
        with span(DOF_WARNING, note=Note("statistics.dof", op=name), category="UserWarning"):
            pass


def _empty_results(self, count: int) -> list:
    """``at::empty({0}, options_to_value_type(self.options()))``: each result is made
    before any check, as std/var/std_mean/var_mean make theirs."""
    return [aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
            for _ in range(count)]


def _outputs(self, dim, keepdim: bool, results: list, given: bool) -> list[bool]:
    """make_reduction's dims and resize_reduction_result: a fresh result is resized
    natively (no operator); an out= one as resize_output does, with its warning."""
    mask = dim_mask(self, dim)
    shape = reduced_shape(self.view.sizes, mask, keepdim)
    for r in results:
        if not given:
            resize_native(r, shape)
            continue
        if r.dtype is not self.dtype:
            raise Refused("std/var(..., out=) with another dtype than the input's is not "
                          "modelled by tidx")
        resize_output(r, shape, S.contiguous_strides(shape))
    return mask


def std_var_out(name: str, self, dim, correction: Any, keepdim: bool, take_sqrt: bool,
                out=None):
    results = _empty_results(self, 1) if out is None else [out]
    check(self.dtype.is_floating_point, RuntimeError,
          "std and var only support floating point and complex dtypes")
    corr = _correction(correction)
    mask = _outputs(self, dim, keepdim, results, out is not None)
    viewed = review(results[0], self.dim(), mask, keepdim)
    result = results[0]
    _dof_warning(name, self, results, corr)
    if self.numel() == 0:
        return aten.fill_.Scalar(result, math.nan)
    if self.dtype is not D.float16 and viewed.numel() == 1:
        return aten.fill_.Scalar(result, _std_var_all(self, corr, take_sqrt))
    _std_var_kernel(self, mask, results, corr, take_sqrt)
    return result


def std_var_mean_out(name: str, self, dim, correction: Any, keepdim: bool, take_sqrt: bool):
    results = _empty_results(self, 2)
    check(self.dtype.is_floating_point, RuntimeError,
          f"{name} only support floating point and complex dtypes")
    corr = _correction(correction)
    mask = _outputs(self, dim, keepdim, results, False)
    for r in results:
        review(r, self.dim(), mask, keepdim)
    _dof_warning(name.replace("_mean", ""), self, results, corr)
    if self.numel() == 0:
        for r in results:
            aten.fill_.Scalar(r, math.nan)
    else:
        _std_var_kernel(self, mask, results, corr, take_sqrt)
    return results[0], results[1]


# -- the declarations ----------------------------------------------------------------------------
def _family(name: str, take_sqrt: bool) -> None:
    def functional(self, dim=None, *, correction=None, keepdim=False):
        return std_var_out(name, self, dim, correction, keepdim, take_sqrt)
    declare(f"{name}.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
            "bool keepdim=False) -> Tensor", variants="function, method",
            native=f"at::native::{name}", source=REDUCE, meta=META_PYTHON)(functional)

    def out_form(self, dim=None, *, correction=None, keepdim=False, out):
        return std_var_out(name, self, dim, correction, keepdim, take_sqrt, out=out)
    declare(f"{name}.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
            "bool keepdim=False, Tensor(a!) out) -> Tensor(a!)",
            native=f"at::native::{name}_out", source=REDUCE,
            meta=META_PYTHON)(out_form)

    # CompositeImplicitAutograd: the unbiased forms call the correction kernel directly
    # (torch.profiler records one aten::std)
    def unbiased_all(self, unbiased=True):
        return std_var_out(name, self, None, _correction(None, unbiased), False, take_sqrt)
    declare(f"{name}(Tensor self, bool unbiased=True) -> Tensor", variants="function, method",
            kind=COMPOSITE, native=f"at::native::{name}", source=REDUCE,
            autograd_as=f"{name}.correction")(unbiased_all)

    def unbiased_dim(self, dim, unbiased=True, keepdim=False):
        return std_var_out(name, self, dim, _correction(None, unbiased), keepdim, take_sqrt)
    declare(f"{name}.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) "
            "-> Tensor", variants="function, method", kind=COMPOSITE,
            native=f"at::native::{name}", source=REDUCE,
            autograd_as=f"{name}.correction")(unbiased_dim)

    def unbiased_out(self, dim, unbiased=True, keepdim=False, *, out):
        return std_var_out(name, self, dim, _correction(None, unbiased), keepdim, take_sqrt,
                           out=out)
    declare(f"{name}.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, "
            "Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
            native=f"at::native::{name}_out", source=REDUCE)(unbiased_out)

    mean_name = f"{name}_mean"

    def with_mean(self, dim=None, *, correction=None, keepdim=False):
        return std_var_mean_out(mean_name, self, dim, correction, keepdim, take_sqrt)
    declare(f"{mean_name}.correction(Tensor self, int[1]? dim=None, *, Scalar? "
            "correction=None, bool keepdim=False) -> (Tensor, Tensor)", variants="function",
            native=f"at::native::{mean_name}", source=REDUCE,
            meta=META_PYTHON)(with_mean)

    def with_mean_all(self, unbiased=True):
        return std_var_mean_out(mean_name, self, None, _correction(None, unbiased), False,
                                take_sqrt)
    declare(f"{mean_name}(Tensor self, bool unbiased=True) -> (Tensor, Tensor)",
            variants="function", kind=COMPOSITE, native=f"at::native::{mean_name}",
            source=REDUCE, autograd_as=f"{mean_name}.correction")(with_mean_all)

    def with_mean_dim(self, dim, unbiased=True, keepdim=False):
        return std_var_mean_out(mean_name, self, dim, _correction(None, unbiased), keepdim,
                                take_sqrt)
    declare(f"{mean_name}.dim(Tensor self, int[1]? dim, bool unbiased=True, "
            "bool keepdim=False) -> (Tensor, Tensor)", variants="function", kind=COMPOSITE,
            native=f"at::native::{mean_name}", source=REDUCE,
            autograd_as=f"{mean_name}.correction")(with_mean_dim)


_family("std", True)
_family("var", False)


# -- trace: the diagonal's sum (ReduceOps.cpp trace_cpu) ---------------------------------------
TRACE_CPU = step("trace_cpu", Layer.KERNEL, source=REDUCE)


@declare("trace(Tensor self) -> Tensor", variants="method, function",
         native="at::native::trace_cpu", source=REDUCE, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("trace", "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(kHalf)"))
def trace(self):
    # get_dtype_from_self(promote_integers): every integer (and bool) sums into an int64
    dtype = self.dtype if self.dtype.is_floating_point else D.int64
    result = aten.empty.memory_format([], dtype=dtype, device=self.device_type)
    # its AT_DISPATCH "trace" has no bool case; then the matrix check
    dispatched(self.dtype)
    check(self.dim() == 2, RuntimeError,
          f"trace: expected a matrix, but got tensor with dim {self.dim()}")
    with span(TRACE_CPU, note="statistics.trace") as s:
        if not self.is_meta:
            # acc_type<scalar_t, false>: double for float, float for Half, int64 for integers;
            # sum += t[i * (stride0 + stride1)] one diagonal element at a time
            acc = np.float32 if self.dtype is D.float16 else (
                np.float64 if self.dtype.is_floating_point else np.int64)
            diag = np.diagonal(self.array()).astype(acc)
            with np.errstate(over="ignore", invalid="ignore"):
                total = np.cumsum(diag, dtype=acc)[-1] if diag.size else acc(0)
                result.array(write=True)[...] = np.asarray(total).astype(dtype.np)
            s.set(read=touched(self), written=touched(result))
        s.set_result(result)
    return result


# -- diff: narrow, narrow, subtract, n times (ReduceOps.cpp diff_helper) -----------------------
@declare("diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) "
         "-> Tensor", variants="function, method", kind=COMPOSITE, native="at::native::diff",
         source=REDUCE)
def diff(self, n=1, dim=-1, prepend=None, append=None):
    _diff_check(self, n, dim, prepend, append)
    if n == 0:
        result = aten.zeros_like.default(self)
        aten.copy_.default(result, self)
        return result
    return _diff(_prepend_append(self, dim, prepend, append), n, dim, None)


@declare("diff.out(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, "
         "*, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE, native="at::native::diff_out",
         source=REDUCE)
def diff_out(self, n=1, dim=-1, prepend=None, append=None, *, out):
    """diff_out: diff_out_helper over self (with prepend/append cat-ed on, unless n is 0):
    n = 0 resizes the out= tensor (resize_output_check's warning, ``resize_``), checks its
    dtype and copies self; else the last subtraction (or xor) writes the out= tensor."""
    _diff_check(self, n, dim, prepend, append)
    if n == 0:
        if out.view.sizes != self.view.sizes:
            if out.numel() != 0:
                warn_resized(out, self.view.sizes)
            aten.resize_.default(out, list(self.view.sizes))
        check(out.dtype is self.dtype, RuntimeError,
              f"expected scalar_type {D.cpp_name(self.dtype)} but found "
              f"{D.cpp_name(out.dtype)}")
        return aten.copy_.default(out, self)
    return _diff(_prepend_append(self, dim, prepend, append), n, dim, out)


def _diff_check(self, n, dim, prepend, append) -> None:
    check(self.dim() >= 1, RuntimeError, "diff expects input to be at least one-dimensional")
    check(n >= 0, RuntimeError, f"order must be non-negative but got {n}")
    for other in (prepend, append):
        if other is None:
            continue
        wrapped = S.maybe_wrap_dim(dim, self.dim())
        check(other.dim() == self.dim(), RuntimeError,
              "diff expects prepend or append to be the same dimension as input")
        for i in range(other.dim()):
            if i != wrapped:
                check(other.view.sizes[i] == self.view.sizes[i], RuntimeError,
                      "diff expects the shape of tensor to prepend or append to match that "
                      "of input except along the differencing dimension; input.size("
                      f"{i}) = {self.view.sizes[i]}, but got tensor.size({i}) = "
                      f"{other.view.sizes[i]}")


def _prepend_append(self, dim, prepend, append):
    """prepend_append_on_dim: one cat of what is given."""
    if prepend is None and append is None:
        return self
    return aten.cat.default([t for t in (prepend, self, append) if t is not None], dim)


def _diff(self, n: int, dim, out):
    """diff_helper: narrow, narrow, subtract (xor for bools), min(n, size) times; the last
    into ``out`` when given (diff_out_helper)."""
    d = S.maybe_wrap_dim(dim, self.dim())
    out_len = self.view.sizes[d] - 1
    result = self
    times = min(n, self.view.sizes[d])
    for i in range(times):
        later = aten.narrow.default(result, dim, 1, out_len)
        earlier = aten.narrow.default(result, dim, 0, out_len)
        last = out is not None and i == times - 1
        if self.dtype is D.bool:
            result = (aten.logical_xor.out(later, earlier, out=out) if last
                      else aten.logical_xor.default(later, earlier))
        else:
            result = (aten.sub.out(later, earlier, out=out) if last
                      else aten.sub.Tensor(later, earlier))
        out_len -= 1
    return result


# -- nansum: the cascade sum with each NaN loaded as 0 (SumKernel.cpp NanSumLoadPolicy) --------
CASCADE_NANSUM = step("cascade_sum<ignore_nan>", Layer.KERNEL,
                      source="aten/src/ATen/native/cpu/SumKernel.cpp")


@declare("nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) "
         "-> Tensor", variants="function, method", native="at::native::nansum",
         source=REDUCE, meta=META_PYTHON, device_check=CHECK_WRAPPER, takes_complex=True,
         # nansum_kernel_impl (cpu/SumKernel.cpp), reached through nansum_out
         at_dispatch=AT_DISPATCH("nansum_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"))
def nansum(self, dim=None, keepdim=False, *, dtype=None):
    out_dtype = dtype if dtype is not None else (
        self.dtype if self.dtype.is_floating_point else D.int64)
    mask = dim_mask(self, dim)
    # create_reduction_result: at::empty of the reduced shape
    result = aten.empty.memory_format(list(reduced_shape(self.view.sizes, mask, keepdim)),
                                      dtype=out_dtype, device=self.device_type)
    return _nansum_out(self, dim, keepdim, out_dtype, result)


@declare("nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, "
         "Tensor(a!) out) -> Tensor(a!)", native="at::native::nansum_out", source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         # nansum_kernel_impl (cpu/SumKernel.cpp)
         at_dispatch=AT_DISPATCH("nansum_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)"),
         takes_complex=True)
def nansum_out(self, dim=None, keepdim=False, *, dtype=None, out):
    return _nansum_out(self, dim, keepdim, dtype, out, dispatch=True)


def _nansum_out(self, dim, keepdim: bool, dtype, result, dispatch: bool = False):
    """nansum_out: no complex input on the CPU; an integer self is sum_out's; else
    make_reduction into ``result`` in the dtype= it must have or its own (resize_output),
    then the loop."""
    check(not self.dtype.is_complex or self.device_type != "cpu", RuntimeError,
          "nansum on CPU does not support complex inputs")
    if self.dtype.is_complex:
        raise Refused(f"nansum of a complex tensor on the {self.device_type} device is not "
                      "modelled")
    if not self.dtype.is_floating_point:
        # an integer has no NaN: nansum_out is sum_out
        return aten.sum.IntList_out(self, dim, keepdim, dtype=dtype, out=result)
    out_dtype = dtype if dtype is not None else result.dtype
    mask = dim_mask(self, dim)
    check(result.dtype is out_dtype, RuntimeError,
          f"nansum: provided dtype must match dtype of result. Got "
          f"{D.cpp_name(result.dtype)} and {D.cpp_name(out_dtype)}.")
    shape = reduced_shape(self.view.sizes, mask, keepdim)
    resize_output(result, shape, S.contiguous_strides(shape))
    viewed = review(result, self.dim(), mask, keepdim)
    src = self if self.dtype is out_dtype else aten.to.dtype(self, out_dtype)
    if self.numel() == 0:
        return aten.zero_.default(result)
    if dispatch or out_dtype.is_complex:
        # an out= tensor of an integer dtype (or a complex dtype=) reaches the float-only
        # kernel
        dispatched(out_dtype)
    aten.fill_.Scalar(result, 0)
    if self.numel() >= GRAIN_SIZE and viewed.numel() == 1 and current().cpu.threads > 1:
        raise Refused("nansum of 32768 or more elements into one: torch's two-pass "
                      "reduction is not modelled by tidx for nansum")
    with span(CASCADE_NANSUM, note="statistics.nansum") as s:
        if not src.is_meta:
            sum_kernel.check_replay("nansum()", src.numel(), src.dtype.itemsize)
            elements = src.elements()
            clean = np.where(np.isnan(elements), elements.dtype.type(0), elements)
            out_strides = [0 if (o == 1 and n != 1) else st for n, o, st in
                           zip(src.view.sizes, viewed.view.sizes, viewed.view.strides)]
            sum_kernel.cascade_sum(clean, src.view.offset, result.elements(write=True),
                                   result.view.offset, src.view.sizes, src.view.strides,
                                   out_strides, src.dtype.np)
            s.set(read=touched(src), written=touched(result))
        s.set_result(result)
    return result




# -- nanmean: nansum over the count of non-NaN elements (ReduceOps.cpp nanmean) -----------------
@declare("nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) "
         "-> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::nanmean", source=REDUCE)
def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    check(self.dtype.is_floating_point or self.dtype.is_complex, RuntimeError,
          "nanmean(): expected input to have floating point or complex dtype but got "
          f"{D.cpp_name(self.dtype)}")
    # at::native::isnan(self.detach()).logical_not_().sum(dim, keepdim): isnan is called
    # natively (no operator of its own), as self != self
    detached = aten.detach.default(self)
    factor = aten.sum.dim_IntList(aten.logical_not_.default(aten.ne.Tensor(detached, detached)),
                                  dim, keepdim)
    return aten.div.Tensor(aten.nansum.default(self, dim, keepdim, dtype=dtype), factor)


@declare("nanmean.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? "
         "dtype=None, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::nanmean_out", source=REDUCE)
def nanmean_out(self, dim=None, keepdim=False, *, dtype=None, out):
    """nanmean_out: its own integer check first, then ``isnan(self).logical_not_().sum``
    (isnan natively, as self != self: no detach here), nansum_out into the out= tensor
    (an operator: at::nansum_out) and ``div_`` by the count."""
    check(self.dtype.is_floating_point or self.dtype.is_complex, RuntimeError,
          "nanmean(): integral types and 'Bool' are not supported for nanmean, even for "
          "empty tensors.")
    factor = aten.sum.dim_IntList(aten.logical_not_.default(aten.ne.Tensor(self, self)),
                                  dim, keepdim)
    return aten.div_.Tensor(aten.nansum.out(self, dim, keepdim, dtype=dtype, out=out), factor)
