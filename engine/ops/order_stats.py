"""Order statistics: median, nanmedian and mode (aten/src/ATen/native/Sorting.cpp
median_impl and median_with_indices_impl; TensorCompare.cpp mode / mode_out and
cpu/TensorCompareKernel.cpp mode_kernel_impl).

Which element a learner gets back when values tie is decided by the C++:

* ``median(dim)`` / ``nanmedian(dim)`` run ``std::nth_element`` over the row's indices with
  the comparator ``ip[i] < ip[j] || (ip[i] == ip[j] && i < j)``: a total order, so the
  answer is the ``(n - 1) / 2``-th of the row stably sorted (ties: the earlier index
  first; -0.0 equals 0.0).  ``median`` returns the first NaN of a row that has one;
  ``nanmedian`` counts NaNs above every number and takes the ``(n - nans - 1) / 2``-th
  (C++'s division: 0 when every element is NaN, where the comparator orders nothing and
  the index is wherever nth_element's partitioning leaves it: replayed by
  :func:`engine.ops.stl.nth_element`).
* ``median()`` / ``nanmedian()`` of a whole tensor run ``std::nth_element`` on a clone of
  the values: only which zero (-0.0 or 0.0) ends at the middle depends on the algorithm,
  and it is replayed then.
* ``mode(dim)`` runs ``std::sort`` (introsort, not stable) over (value, index) pairs
  compared by value, then takes the first run of the greatest length: the smallest of the
  most frequent values, and the index of the last element of its run in the order the
  sort left (replayed by :func:`engine.ops.sorting.sort_rows`).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.memory.allocator import check_temporary
from engine.ops import stl
from engine.ops.pointwise import resize_output
from engine.ops.reduce import zero_numel_check_dims
from engine.ops.sorting import PYTHON_MAX, order_keys, sort_rows, work_bytes
from engine.ops.touch import touched

SORTING = "aten/src/ATen/native/Sorting.cpp"
COMPARE = "aten/src/ATen/native/TensorCompare.cpp"
COMPARE_KERNEL = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp"

_ALL_AND_HALF = "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"

MEDIAN_ALL = step("median_impl", Layer.KERNEL, source=SORTING)
MEDIAN_DIM = step("median_with_indices_impl", Layer.KERNEL, source=SORTING)
MODE_KERNEL = step("mode_kernel_impl", Layer.KERNEL, source=COMPARE_KERNEL)


def _python_bound(n: int, what: str) -> None:
    if n > PYTHON_MAX:
        raise Refused(f"{what} of {n} elements: tidx replays libstdc++'s nth_element in "
                      f"Python, on at most {PYTHON_MAX}")


def _cpp_half(m: int) -> int:
    """(m - 1) / 2 in C++'s division (it truncates: 0 for m == 0)."""
    return (m - 1) // 2 if m > 0 else 0


# -- the whole tensor: median_impl --------------------------------------------------------
def _median_all(self, ignore_nan: bool):
    name = "nanmedian" if ignore_nan else "median"
    if self.numel() == 0:
        # an empty input: a NaN made in the default dtype, then converted to the input's
        # (at::full({}, NaN).to(self.dtype()); an integer gets the cast's bits)
        nan = aten.full.default([], float("nan"), device=self.device_type)
        return aten.to.dtype(nan, self.dtype)
    clone = aten.clone.default(self)
    out = aten.empty.memory_format([], dtype=self.dtype, device=self.device_type)
    dispatched(self.dtype)
    n = self.numel()
    with span(MEDIAN_ALL, note=Note("order.median_all", name=name, n=n)) as s:
        check_temporary(name, n, 2 * self.dtype.itemsize)
        values = clone.array().reshape(-1)
        isnan = np.isnan(values) if values.dtype.kind == "f" else np.zeros(n, bool)
        nans = int(isnan.sum())
        if nans and not ignore_nan:
            value = values.dtype.type(np.nan)
        else:
            m = n - nans if ignore_nan else n
            k = _cpp_half(m)
            finite = np.sort(values[~isnan]) if nans else np.sort(values)
            if m == 0:
                value = values[0]                      # every element is NaN
            else:
                value = finite[k]
                if value == 0 and values.dtype.kind == "f" and \
                        len(set(np.signbit(values[values == 0]).tolist())) == 2:
                    value = _nth_zero(values, k, ignore_nan)
        out.array(write=True)[...] = value
        s.set(read=touched(self), written=touched(out))
        s.set_result(out)
    return out


def _nth_zero(values: np.ndarray, k: int, ignore_nan: bool):
    """Which zero std::nth_element leaves at ``k`` when -0.0 and 0.0 both compare equal
    there: its partitioning, replayed."""
    _python_bound(values.size, "median")
    a = values.tolist()
    if ignore_nan:
        def less(x, y):
            return x < y or (y != y and x == x)
    else:
        def less(x, y):
            return x < y
    stl.nth_element(a, 0, k, len(a), less)
    return values.dtype.type(a[k])


@declare("median(Tensor self) -> Tensor", variants="function, method",
         native="at::native::median_cpu", source=SORTING, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("median_cpu", _ALL_AND_HALF))
def median(self):
    return _median_all(self, ignore_nan=False)


@declare("nanmedian(Tensor self) -> Tensor", variants="function, method",
         native="at::native::nanmedian_cpu", source=SORTING, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("median_cpu", _ALL_AND_HALF))
def nanmedian(self):
    return _median_all(self, ignore_nan=True)


# -- along a dim: median_with_indices_impl -------------------------------------------------
def _check_outputs(values, indices, self) -> None:
    """checkScalarType / checkSameType (aten/src/ATen/TensorUtils.cpp) as median's
    argument list names them."""
    if indices.dtype is not D.int64:
        raise torch_error(RuntimeError, "Expected tensor for argument #1 'indices' to have "
                          "scalar type Long; but got " + D.legacy_type_name(indices.dtype) +
                          " instead (while checking arguments for median)")
    if values.dtype is not self.dtype:
        raise torch_error(RuntimeError, "Expected tensor for 'values' to have the same type "
                          "as tensor for argument #2 'self'; but type " +
                          D.legacy_type_name(values.dtype) + " does not equal " +
                          D.legacy_type_name(self.dtype) +
                          " (while checking arguments for median)")


def _median_rows(rows: np.ndarray, ignore_nan: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each row's median and its index, as median_with_indices_impl's loop picks them."""
    count, n = rows.shape
    isnan = np.isnan(rows) if rows.dtype.kind == "f" else np.zeros(rows.shape, bool)
    nans = isnan.sum(axis=-1)
    # the comparator's total order: by value (NaN above every number), then by index
    order = np.argsort(order_keys(rows), axis=-1, kind="stable")
    if ignore_nan:
        k = np.where(nans < n, (n - nans - 1) // 2, 0)
    else:
        k = np.full(count, (n - 1) // 2)
    index = np.take_along_axis(order, k[:, None], axis=-1)[:, 0]
    if not ignore_nan:
        # std::find_if: the first NaN of the row
        index = np.where(nans > 0, np.argmax(isnan, axis=-1), index)
    else:
        for r in np.flatnonzero(nans == n):
            index[r] = _all_nan_index(n)
    return rows[np.arange(count), index], index


def _all_nan_index(n: int) -> int:
    """nanmedian's nth_element over a row of NaNs: the comparator is false for every pair,
    and the index at position 0 is where the partitioning leaves it."""
    _python_bound(n, "nanmedian")
    a = list(range(n))
    stl.nth_element(a, 0, 0, n, lambda i, j: False)
    return a[0]


def _median_dim_out(self, dim: int, keepdim: bool, values, indices, ignore_nan: bool):
    name = "nanmedian" if ignore_nan else "median"
    dim = S.maybe_wrap_dim(dim, self.dim())
    zero_numel_check_dims(self, [dim], "median()")
    _check_outputs(values, indices, self)
    shape = list(self.view.sizes)
    if self.dim() > 0:
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
    resize_output(values, tuple(shape), S.contiguous_strides(shape))
    resize_output(indices, tuple(shape), S.contiguous_strides(shape))
    # every tensor with the same number of dims for the iterator; the reduced dim
    # made contiguous (stride 1) first
    inp = self if self.dim() > 0 else aten.unsqueeze.default(self, 0)
    vals = values if keepdim and self.dim() > 0 else aten.unsqueeze.default(values, dim)
    inds = indices if keepdim and self.dim() > 0 else aten.unsqueeze.default(indices, dim)
    if inp.view.strides[dim] > 1:
        inp = aten.contiguous.default(aten.squeeze_.dim(aten.transpose_.default(
            aten.unsqueeze.default(inp, -1), dim, -1), dim))
        vals = aten.squeeze_.dim(aten.transpose_.default(
            aten.unsqueeze.default(vals, -1), dim, -1), dim)
        inds = aten.squeeze_.dim(aten.transpose_.default(
            aten.unsqueeze.default(inds, -1), dim, -1), dim)
        dim = inp.dim() - 1
    dispatched(self.dtype)
    n = inp.view.sizes[dim]
    with span(MEDIAN_DIM, note=Note("order.median_dim", name=name, dim=dim, n=n),
              dim=dim) as s:
        if inp.numel():
            check_temporary(name, inp.numel(), work_bytes(1, inp.dtype.itemsize))
            rows = np.moveaxis(inp.array(), dim, -1).reshape(-1, n)
            v, i = _median_rows(rows, ignore_nan)
            vals.array(write=True)[...] = np.moveaxis(
                v.reshape(np.moveaxis(inp.array(), dim, -1).shape[:-1] + (1,)), -1, dim)
            inds.array(write=True)[...] = np.moveaxis(
                i.reshape(np.moveaxis(inp.array(), dim, -1).shape[:-1] + (1,)), -1, dim)
            s.set(read=touched(self), written=[touched(values), touched(indices)])
        s.set_result((values, indices))
    return values, indices


def _median_dim(self, out):
    """median.dim / nanmedian.dim (CompositeExplicitAutograd): two empty outputs, then
    the out= overload through the dispatcher."""
    values = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    indices = aten.empty.memory_format([0], dtype=D.int64, device=self.device_type)
    return out(values, indices)


@declare("median.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, "
         "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::median_out_cpu", source=SORTING, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("median_out", _ALL_AND_HALF))
def median_dim_values(self, dim: int, keepdim: bool = False, *, values, indices):
    return _median_dim_out(self, dim, keepdim, values, indices, ignore_nan=False)


@declare("median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         variants="function, method", native="at::native::median", source=SORTING,
         meta=META_PYTHON)
def median_dim(self, dim: int, keepdim: bool = False):
    return _median_dim(self, lambda v, i: aten.median.dim_values(self, dim, keepdim,
                                                                 values=v, indices=i))


@declare("nanmedian.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, "
         "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::nanmedian_out_cpu", source=SORTING, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("median_out", _ALL_AND_HALF))
def nanmedian_dim_values(self, dim: int, keepdim: bool = False, *, values, indices):
    return _median_dim_out(self, dim, keepdim, values, indices, ignore_nan=True)


@declare("nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         variants="function, method", native="at::native::nanmedian", source=SORTING,
         meta=META_PYTHON)
def nanmedian_dim(self, dim: int, keepdim: bool = False):
    return _median_dim(self, lambda v, i: aten.nanmedian.dim_values(self, dim, keepdim,
                                                                    values=v, indices=i))


# -- mode --------------------------------------------------------------------------------
def _mode_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """mode_kernel_impl per row: std::sort by value, then the first longest run."""
    count, n = rows.shape
    isnan = np.isnan(rows).any(axis=-1) if rows.dtype.kind == "f" else np.zeros(count, bool)
    order = np.empty(rows.shape, np.int64)
    plain = ~isnan
    if plain.any():
        order[plain] = sort_rows(order_keys(rows[plain]), False, False)
    for r in np.flatnonzero(isnan):
        # a NaN compares false both ways: the introsort's own moves, replayed on the values
        _python_bound(n, "mode")
        pairs = [(v, j) for j, v in enumerate(rows[r].tolist())]
        stl.sort(pairs, 0, n, lambda x, y: x[0] < y[0])
        order[r] = [j for _, j in pairs]
    ordered = np.take_along_axis(rows, order, axis=-1)
    with np.errstate(invalid="ignore"):
        end = np.ones(rows.shape, bool)
        end[:, :-1] = ordered[:, :-1] != ordered[:, 1:]
    position = np.arange(n)
    previous = np.maximum.accumulate(np.where(end, position, -1), axis=-1)
    previous = np.concatenate([np.full((count, 1), -1), previous[:, :-1]], axis=-1)
    length = np.where(end, position - previous, 0)
    last = np.argmax(length, axis=-1)                  # the first run of the greatest length
    return ordered[np.arange(count), last], order[np.arange(count), last]


def _mode_out(self, dim: int, keepdim: bool, values, indices):
    """mode_out (TensorCompare.cpp), called directly by mode, not through the dispatcher."""
    if values.dtype is not self.dtype:
        raise torch_error(RuntimeError, f"expected scalar type '{D.cpp_name(self.dtype)}' but "
                          f"got '{D.cpp_name(values.dtype)}' for values output")
    if indices.dtype is not D.int64:
        raise torch_error(RuntimeError, f"expected scalar type 'Long' but got "
                          f"'{D.cpp_name(indices.dtype)}' for indices output")
    dim = S.maybe_wrap_dim(dim, self.dim())
    if self.numel() == 0:
        # get_zero_numel_tensor_size
        zero_numel_check_dims(self, [dim], "mode()")
        shape = list(self.view.sizes)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
        resize_output(values, tuple(shape), S.contiguous_strides(shape))
        resize_output(indices, tuple(shape), S.contiguous_strides(shape))
        return values, indices
    if self.dim() == 0:
        # _dimreduce_return_trivial_no_ident
        aten.fill_.Tensor(aten.resize_.default(values, []), self)
        aten.fill_.Scalar(aten.resize_.default(indices, []), 0)
        return values, indices
    dispatched(self.dtype)
    # compare_base_kernel_core: the outputs unsqueezed at dim, resized to the input's
    # shape with dim 1, filled, squeezed back
    if not keepdim:
        if values.dim() >= dim:
            aten.unsqueeze_.default(values, dim)
        if indices.dim() >= dim:
            aten.unsqueeze_.default(indices, dim)
    shape = list(self.view.sizes)
    shape[dim] = 1
    resize_output(values, tuple(shape), S.contiguous_strides(shape))
    resize_output(indices, tuple(shape), S.contiguous_strides(shape))
    n = self.view.sizes[dim]
    with span(MODE_KERNEL, note=Note("order.mode", dim=dim, n=n), dim=dim) as s:
        check_temporary("mode", self.numel(), work_bytes(1, self.dtype.itemsize))
        moved = np.moveaxis(self.array(), dim, -1)
        v, i = _mode_rows(moved.reshape(-1, n))
        np.moveaxis(values.array(write=True), dim, -1)[...] = v.reshape(moved.shape[:-1] + (1,))
        np.moveaxis(indices.array(write=True), dim, -1)[...] = i.reshape(moved.shape[:-1] + (1,))
        s.set(read=touched(self), written=[touched(values), touched(indices)])
    if not keepdim:
        aten.squeeze_.dim(values, dim)
        aten.squeeze_.dim(indices, dim)
    return values, indices


@declare("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
         variants="function, method", native="at::native::mode", source=COMPARE, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("mode_cpu", "AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool)"))
def mode(self, dim: int = -1, keepdim: bool = False):
    values = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    indices = aten.empty.memory_format([0], dtype=D.int64, device=self.device_type)
    return _mode_out(self, dim, keepdim, values, indices)


@declare("mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, "
         "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::mode_out", source=COMPARE, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("mode_cpu", "AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool)"))
def mode_values(self, dim: int = -1, keepdim: bool = False, *, values, indices):
    return _mode_out(self, dim, keepdim, values, indices)

