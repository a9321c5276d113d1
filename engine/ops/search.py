"""Searching sorted sequences: searchsorted and bucketize (aten/src/ATen/native/
Bucketization.cpp, BucketizationUtils.h); and membership: isin (TensorCompare.cpp).

Both allocate an empty long (or int, ``out_int32``) result, check the arguments
(``searchsorted_pre_check``), resize the result to the values' shape, and then, for
every value, binary-search its row of the boundaries: the whole 1-D boundary tensor, or
the row of an N-D one whose leading dims match the value's.  Boundaries and values must
be contiguous and of one dtype for the kernel, so a non-contiguous one is copied
(``contiguous``) and a different dtype is cast (``to``) to the two's result type first.
The search is written without ``std::lower_bound`` (its comparator would need a strict
weak order): ``left`` moves right while ``!(mid >= value)``, ``right`` while
``!(mid > value)``, so a NaN value lands after every boundary.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.ops.pointwise import Wrapped, resize_output, result_type
from engine.ops.scalar import scalar_tensor_static, scalar_type
from engine.ops.sorting import refuse_meta
from engine.memory.allocator import check_temporary
from engine.ops.touch import touched

BUCKET = "aten/src/ATen/native/Bucketization.cpp"
UTILS = "aten/src/ATen/native/BucketizationUtils.h"


def bounds(boundaries: np.ndarray, values: np.ndarray, rows: np.ndarray, right: bool
           ) -> np.ndarray:
    """cus_lower_bound / cus_upper_bound for every value at once: ``boundaries`` is one
    row per search space, ``rows`` says which row each value searches.

    >>> bounds(np.array([[1, 3, 3, 5]]), np.array([3, 6, 0]), np.zeros(3, int), False).tolist()
    [1, 4, 0]
    >>> bounds(np.array([[1.0, 3.0]]), np.array([3.0, np.nan]), np.zeros(2, int), True).tolist()
    [2, 2]
    """
    n = boundaries.shape[-1]
    start = np.zeros(values.shape, dtype=np.int64)
    end = np.full(values.shape, n, dtype=np.int64)
    with np.errstate(invalid="ignore"):
        while True:
            active = start < end
            if not active.any():
                return start
            mid = start + ((end - start) >> 1)
            mid_val = boundaries[rows, np.minimum(mid, n - 1)]
            go_right = ~(mid_val > values) if right else ~(mid_val >= values)
            start = np.where(active & go_right, mid + 1, start)
            end = np.where(active & ~go_right, mid, end)


def _pre_check(boundaries, values, result, out_int32: bool, right: bool, side: str | None,
               sorter) -> None:
    """searchsorted_pre_check, in torch's order and words."""
    if side is not None:
        check(side in ("left", "right"), RuntimeError,
              f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        check(not right or side == "right", RuntimeError,
              "torch.searchsorted(): side and right can't be set to opposites, got side of "
              f"{side} while right was True")
    check(boundaries.device_type == values.device_type, RuntimeError,
          "torch.searchsorted(): boundaries and input value tensors should have same device "
          f"type, but got boundaries tensor device type {boundaries.device_type} and input "
          f"value tensor device type {values.device_type}")
    if sorter is not None:
        check(sorter.device_type == boundaries.device_type, RuntimeError,
              "torch.searchsorted(): sorter and boundary tensors should have same device "
              f"type, but got sorter tensor device type {sorter.device_type} and input value "
              f"tensor device type {boundaries.device_type}")
        check(sorter.view.sizes == boundaries.view.sizes, RuntimeError,
              "torch.searchsorted(): boundary and sorter must have the same size, but got "
              f"boundary tensor {S.fmt_sizes(boundaries.view.sizes)}and got sorter tensor "
              f"{S.fmt_sizes(sorter.view.sizes)}")
        check(sorter.dtype is D.int64, RuntimeError,
              "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
              f"{D.cpp_name(sorter.dtype)}")
        # the range check reads sorter.aminmax() and two item()s: aminmax is not modelled
        raise Refused("searchsorted(sorter=...) is not modelled: torch checks the sorter's "
                      "range with aten::aminmax, which tidx does not run yet")
    check(values.dim() > 0 or (values.numel() == 1 and boundaries.dim() == 1), RuntimeError,
          "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
          f"dimension is 1, but we got boundaries tensor dim({boundaries.dim()}) and input "
          f"value's dim({values.dim()}) numel({values.numel()})")
    check(boundaries.dim() != 0, RuntimeError,
          "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
          "dimension")
    matched = (boundaries.dim() == values.dim()
               and boundaries.view.sizes[:-1] == values.view.sizes[:-1])
    check(boundaries.dim() == 1 or matched, RuntimeError,
          "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
          "dimensions of boundaries tensor and input value tensor must match, but we got "
          f"boundaries tensor {S.fmt_sizes(boundaries.view.sizes)} and input value tensor "
          f"{S.fmt_sizes(values.view.sizes)}")
    dtype = result.dtype
    check((dtype is D.int64 and not out_int32) or (dtype is D.int32 and out_int32),
          RuntimeError, "torch.searchsorted(): output tensor's dtype is wrong, it can only be "
          "Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got "
          f"output tensor's dtype {D.cpp_name(dtype)} and out_int32 flag is "
          f"{'True' if out_int32 else 'False'}")


RESULT_TYPE = step("result_type", Layer.KERNEL, source=UTILS, lecture=Lecture.HIDDEN)


def _trim(values, boundaries, values_wrapped: Any):
    """searchsorted_maybe_trim_input_tensors: contiguous copies, then both cast to their
    result type (the values take part as a wrapped number when they came as a Python
    number)."""
    trimmed_in = values if values.is_contiguous() else aten.contiguous.default(values)
    trimmed_bd = (boundaries if boundaries.is_contiguous()
                  else aten.contiguous.default(boundaries))
    if values.dtype is not boundaries.dtype:
        common = result_type([boundaries, values_wrapped if values_wrapped is not None
                              else values])
        with span(RESULT_TYPE, note=Note("searchsorted.common_dtype", dtype=str(common))):
            pass
        if common is not values.dtype:
            trimmed_in = aten.to.dtype(trimmed_in, common)
        if common is not boundaries.dtype:
            trimmed_bd = aten.to.dtype(trimmed_bd, common)
    return trimmed_in, trimmed_bd


SEARCHSORTED_CPU_CONTIGUOUS = step("searchsorted_cpu_contiguous", Layer.KERNEL, source=BUCKET)


def _searchsorted_out(boundaries, values, out_int32: bool, right: bool, side: str | None,
                      sorter, result, values_wrapped: Any = None):
    """searchsorted_out_cpu."""
    _pre_check(boundaries, values, result, out_int32, right, side, sorter)
    resize_output(result, values.view.sizes, S.contiguous_strides(values.view.sizes))
    is_right = side == "right" if side is not None else right
    if values.numel() == 0:
        return result
    if not result.is_contiguous():
        # a non-contiguous out= tensor: the answer goes to a contiguous copy, copied back
        aten.copy_.default(result, _searchsorted_into(boundaries, values, is_right,
                                                      aten.contiguous.default(result),
                                                      values_wrapped))
        return result
    return _searchsorted_into(boundaries, values, is_right, result, values_wrapped)


def _searchsorted_into(boundaries, values, is_right: bool, result, values_wrapped: Any):
    """searchsorted_out_cpu's dispatch into a contiguous result (after the inputs' trim)."""
    if (boundaries.is_contiguous() and values.is_contiguous()
            and boundaries.dtype is values.dtype):
        final_in, final_bd = values, boundaries
    else:
        final_in, final_bd = _trim(values, boundaries, values_wrapped)
    dispatched(final_in.dtype)
    idim_bd = final_bd.view.sizes[-1]
    idim_in = final_in.view.sizes[-1] if final_in.dim() else 1
    with span(SEARCHSORTED_CPU_CONTIGUOUS,
              note=Note("searchsorted.right" if is_right else "searchsorted.left",
                        n=idim_bd)) as s:
        # the values flattened, each one's row of boundaries, the positions and their cast
        check_temporary("searchsorted", final_in.numel(), final_in.dtype.itemsize + 32)
        vals = final_in.array().reshape(-1)
        if idim_bd == 0:
            pos = np.zeros(vals.shape, dtype=np.int64)      # nothing to pass
        else:
            bd = final_bd.array().reshape(-1, idim_bd)
            rows = (np.zeros(vals.shape, dtype=np.int64) if final_bd.dim() == 1
                    else np.arange(vals.size, dtype=np.int64) // idim_in)
            pos = bounds(bd, vals, rows, is_right)
        result.array(write=True)[...] = pos.reshape(result.view.sizes).astype(result.dtype.np)
        # every value, and (a binary search) only some boundaries: which, the trace
        # does not model; the boundaries are named read whole
        s.set(read=[touched(final_in), touched(final_bd)], written=touched(result))
        s.set_result(result)
    return result


def _empty_result(out_int32: bool, device: str):
    return aten.empty.memory_format((0,), dtype=D.int32 if out_int32 else D.int64,
                                    device=device, memory_format="contiguous_format")


def scalar_values(value: Any, device: str):
    """searchsorted_scalar_tensor: the Python number as a 0-dim wrapped-number tensor
    (made directly, no operator)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        raise Refused("a Python int from 2**63 is a uint64 Scalar in torch; tidx has no "
                      "uint64 tensors")
    return scalar_tensor_static(value, scalar_type(value), device), Wrapped(value)


#: searchsorted_out_cpu's AT_DISPATCH (Bucketization.cpp), which bucketize runs too
_SEARCHSORTED_CPU = AT_DISPATCH("searchsorted_out_cpu",
                                "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)")


@declare("searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
         native="at::native::searchsorted_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=_SEARCHSORTED_CPU)
def searchsorted(sorted_sequence, self, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter=None):
    refuse_meta("searchsorted", sorted_sequence)
    refuse_meta("searchsorted", self)
    result = _empty_result(out_int32, self.device_type)
    return _searchsorted_out(sorted_sequence, self, out_int32, right, side, sorter, result)


@declare("searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
         native="at::native::searchsorted_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=_SEARCHSORTED_CPU)
def searchsorted_scalar(sorted_sequence, self, *, out_int32: bool = False, right: bool = False,
                        side: str | None = None, sorter=None):
    refuse_meta("searchsorted", sorted_sequence)
    values, wrapped = scalar_values(self, sorted_sequence.device_type)
    result = _empty_result(out_int32, values.device_type)
    return _searchsorted_out(sorted_sequence, values, out_int32, right, side, sorter, result,
                             wrapped)


@declare("searchsorted.Tensor_out(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::searchsorted_out_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, at_dispatch=_SEARCHSORTED_CPU)
def searchsorted_out(sorted_sequence, self, *, out_int32: bool = False, right: bool = False,
                     side: str | None = None, sorter=None, out):
    refuse_meta("searchsorted", sorted_sequence)
    refuse_meta("searchsorted", self)
    return _searchsorted_out(sorted_sequence, self, out_int32, right, side, sorter, out)


@declare("searchsorted.Scalar_out(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::searchsorted_out_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, at_dispatch=_SEARCHSORTED_CPU)
def searchsorted_scalar_out(sorted_sequence, self, *, out_int32: bool = False,
                            right: bool = False, side: str | None = None, sorter=None, out):
    refuse_meta("searchsorted", sorted_sequence)
    values, wrapped = scalar_values(self, sorted_sequence.device_type)
    return _searchsorted_out(sorted_sequence, values, out_int32, right, side, sorter, out,
                             wrapped)


def _bucketize(values, boundaries, out_int32: bool, right: bool, wrapped: Any = None,
               out=None):
    """bucketize_cpu -> bucketize_out_cpu: searchsorted over 1-D boundaries."""
    refuse_meta("bucketize", values)
    refuse_meta("bucketize", boundaries)
    result = _empty_result(out_int32, values.device_type) if out is None else out
    if boundaries.dim() != 1:
        raise torch_error(RuntimeError, "boundaries tensor must be 1 dimension, but got "
                                        f"dim({boundaries.dim()})")
    return _searchsorted_out(boundaries, values, out_int32, right, None, None, result, wrapped)


@declare("bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
         native="at::native::bucketize_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=_SEARCHSORTED_CPU)
def bucketize(self, boundaries, *, out_int32: bool = False, right: bool = False):
    return _bucketize(self, boundaries, out_int32, right)


@declare("bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
         native="at::native::bucketize_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=_SEARCHSORTED_CPU)
def bucketize_scalar(self, boundaries, *, out_int32: bool = False, right: bool = False):
    values, wrapped = scalar_values(self, boundaries.device_type)
    return _bucketize(values, boundaries, out_int32, right, wrapped)


@declare("bucketize.Tensor_out(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::bucketize_out_cpu", source=BUCKET, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, at_dispatch=_SEARCHSORTED_CPU)
def bucketize_out(self, boundaries, *, out_int32: bool = False, right: bool = False, out):
    return _bucketize(self, boundaries, out_int32, right, out=out)


# -- isin (aten/src/ATen/native/TensorCompare.cpp, cpu/TensorCompareKernel.cpp) ----------

COMPARE = "aten/src/ATen/native/TensorCompare.cpp"


def _isin_dtype_check(dtype: D.dtype) -> None:
    """check_for_unsupported_isin_dtype: the sort-based path has no bool."""
    check(dtype is not D.bool, RuntimeError,
          f"Unsupported input type encountered for isin(): {D.cpp_name(dtype)}")


def default_path(n_elements: int, n_test: int) -> bool:
    """numpy's heuristic, as isin_Tensor_Tensor_out computes it: compare every element
    with every test element when there are fewer than ``10 * n_elements ** 0.145`` test
    elements, else sort.

    >>> default_path(5, 11), default_path(5, 12), default_path(1, 9), default_path(1, 10)
    (True, False, True, False)
    """
    return n_test < int(10.0 * float(n_elements) ** 0.145)


ISIN_DEFAULT_KERNEL_CPU = step("isin_default_kernel_cpu", Layer.KERNEL,
                               source="aten/src/ATen/native/cpu/TensorCompareKernel.cpp")


def _isin_impl(elements, test_elements, assume_unique: bool, invert: bool, out,
               elements_wrapped: Any = None) -> None:
    """isin_Tensor_Tensor_out's impl: the default path (isin_default_kernel_cpu)."""
    if elements.numel() == 0:
        return
    if not default_path(elements.numel(), test_elements.numel()):
        raise Refused("isin() with this many test elements takes torch's sort-based path "
                      "(isin_sorting: _unique, cat, sort, index_copy_), which tidx does not "
                      "model yet; the default path runs when test_elements has fewer than "
                      f"{int(10.0 * float(elements.numel()) ** 0.145)} elements")
    aten.fill_.Scalar(out, invert)
    common = result_type([elements_wrapped if elements_wrapped is not None else elements,
                          test_elements])
    promoted = aten.to.dtype(elements, common)
    flat = aten.view.default(aten.to.dtype(test_elements, common), [-1])
    with span(ISIN_DEFAULT_KERNEL_CPU,
              note=Note("isin.default", n=flat.numel(), invert=invert)) as s:
        # every element against every test element at once, as one bool array
        check_temporary("isin", elements.numel(), flat.numel() + 2)
        test = flat.array()
        values = promoted.array()
        found = (values[..., None] == test).any(axis=-1) if test.size else \
            np.zeros(values.shape, dtype=bool)
        out.array(write=True)[...] = found != invert
        s.set(read=[touched(promoted), touched(flat)], written=touched(out))
        s.set_result(out)


@declare("isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
         native="at::native::isin_Tensor_Tensor_out (structured)", source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False):
    return _isin_tt(elements, test_elements, assume_unique, invert, None)


def _isin_out(sizes, device: str, out):
    """The structured wrapper's set_output: a new bool tensor, or the out= tensor checked
    (its dtype) and resized."""
    if out is None:
        return memory.empty_generic(sizes, D.bool, device)
    check(out.dtype is D.bool, RuntimeError, "Expected out tensor to have dtype bool, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    resize_output(out, tuple(sizes), S.contiguous_strides(tuple(sizes)))
    return out


def _isin_tt(elements, test_elements, assume_unique: bool, invert: bool, out):
    refuse_meta("isin", elements)
    _isin_dtype_check(elements.dtype)
    _isin_dtype_check(test_elements.dtype)
    result = _isin_out(elements.view.sizes, elements.device_type, out)
    _isin_impl(elements, test_elements, assume_unique, invert, result)
    return result


@declare("isin.Tensor_Tensor_out(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::isin_Tensor_Tensor_out (structured)", source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def isin_out(elements, test_elements, *, assume_unique: bool = False, invert: bool = False,
             out):
    return _isin_tt(elements, test_elements, assume_unique, invert, out)


ISIN_EQ_NE = step("isin: eq / ne", Layer.KERNEL, source=COMPARE)


@declare("isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) -> Tensor",
         native="at::native::isin_Tensor_Scalar_out (structured)", source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def isin_tensor_scalar(elements, test_element, *, assume_unique: bool = False,
                       invert: bool = False):
    return _isin_ts(elements, test_element, invert, None)


@declare("isin.Tensor_Scalar_out(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::isin_Tensor_Scalar_out (structured)", source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def isin_tensor_scalar_out(elements, test_element, *, assume_unique: bool = False,
                           invert: bool = False, out):
    return _isin_ts(elements, test_element, invert, out)


def _isin_ts(elements, test_element, invert: bool, result):
    refuse_meta("isin", elements)
    _isin_dtype_check(elements.dtype)
    _isin_dtype_check(scalar_type(test_element))
    out = _isin_out(elements.view.sizes, elements.device_type, result)
    # isin_Tensor_Scalar_out redispatches to eq_out / ne_out into out; tidx runs the
    # functional eq / ne (the same operator, the same casts) and writes its values into out
    with span(ISIN_EQ_NE, note=Note("isin.scalar", op="ne" if invert else "eq")) as s:
        found = (aten.ne.Scalar if invert else aten.eq.Scalar)(elements, test_element)
        if out.numel():
            out.array(write=True)[...] = found.array()
            s.set(read=touched(found), written=touched(out))
        s.set_result(out)
    return out


@declare("isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
         native="at::native::isin_Scalar_Tensor_out (structured)", source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def isin_scalar_tensor(element, test_elements, *, assume_unique: bool = False,
                       invert: bool = False):
    return _isin_st(element, test_elements, assume_unique, invert, None)


@declare("isin.Scalar_Tensor_out(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::isin_Scalar_Tensor_out (structured)", source=COMPARE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def isin_scalar_tensor_out(element, test_elements, *, assume_unique: bool = False,
                           invert: bool = False, out):
    return _isin_st(element, test_elements, assume_unique, invert, out)


def _isin_st(element, test_elements, assume_unique: bool, invert: bool, result):
    refuse_meta("isin", test_elements)
    _isin_dtype_check(scalar_type(element))
    _isin_dtype_check(test_elements.dtype)
    out = _isin_out((), test_elements.device_type, result)
    # the number becomes a wrapped 0-dim tensor and the Tensor_Tensor impl runs on it
    elements, wrapped = scalar_values(element, test_elements.device_type)
    _isin_impl(elements, test_elements, assume_unique, invert, out, wrapped)
    return out

