"""Ordering along a dim: sort, argsort, msort and topk (aten/src/ATen/native/Sorting.cpp,
TensorCompare.cpp's neighbours, cpu/SortingKernel.cpp, TopKImpl.h).

``sort`` is a structured kernel: its meta function wraps ``dim`` and allocates values and
indices with the input's strides (dense strides in the same dim order when the input
overlaps or has holes, gh-65863); the impl copies the input into values, writes
0..n-1 along ``dim`` into indices (``_fill_indices``: an ``arange`` restrided by
``as_strided`` and broadcast by ``copy_``), then sorts each slice's (value, index) pairs
together.  Which comparator decides the order is what a learner asks about:

* NaN is greater than every number (ascending puts NaNs last, descending first), and
  NaNs are equal to each other; -0.0 and 0.0 are equal.
* ``stable=True`` runs ``std::stable_sort``: ties keep their order.  ``stable=False``
  (the default) runs ``std::sort``, an introsort that is *not* stable on more than 16
  elements: the tie order it leaves is replayed exactly by :mod:`engine.ops.stl`.  A
  1-D integer tensor of at least GRAIN_SIZE elements sorted ascending goes to fbgemm's
  radix sort instead, which is stable.
* An input whose ``dim`` has stride 0 (an expanded tensor) is already sorted: only the
  indices are written (gh-91420).

Every slice is ranked once (equal keys get equal ranks), so the C++ comparators become
integer comparisons of ranks.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.declarations import (COMPOSITE, FUNCTIONAL, OUT, OUT_NOT_MODELLED, declare,
                                          not_modelled)
from engine.dispatch.dispatcher import call
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops import stl
from engine.ops.parallel import GRAIN_SIZE

SORTING = "aten/src/ATen/native/Sorting.cpp"
KERNEL = "aten/src/ATen/native/cpu/SortingKernel.cpp"
TOPK = "aten/src/ATen/native/TopKImpl.h"
#: What sorting holds per element besides its result: the rows' copy, their ranks
#: (np.unique's sorted copy, order and inverse), the order and the gathered values,
#: and a row's (rank, index) pairs when the STL's order is replayed.
SORT_TEMPORARY_BYTES = 48 + 130


def refuse_meta(name: str, t) -> None:
    """torch runs these on the meta device through Python meta registrations
    (torch/_meta_registrations.py: empty_like, new_empty ...), not the C++ path."""
    if t.is_meta:
        raise Refused(f"{name}() on the meta device is not modelled: torch runs a Python "
                      "meta registration (torch/_meta_registrations.py) there")


def ranks(values: np.ndarray) -> np.ndarray:
    """Each element's rank among the distinct keys, as the sorting comparators see them:
    -0.0 equals 0.0, NaN equals NaN and is above every number.

    >>> ranks(np.array([2.0, float("nan"), -0.0, 0.0, 1.0])).tolist()
    [2, 3, 0, 0, 1]
    """
    flat = values.reshape(-1)
    if flat.dtype.kind == "f":
        flat = flat + flat.dtype.type(0)          # -0.0 + 0.0 is 0.0
    if flat.size == 0:
        return np.zeros(values.shape, dtype=np.int64)
    return np.unique(flat, return_inverse=True, equal_nan=True)[1].reshape(values.shape)


def _less(descending: bool):
    """KeyValueCompAsc / KeyValueCompDesc on ranks (pairs are (rank, index))."""
    if descending:
        return lambda x, y: x[0] > y[0]
    return lambda x, y: x[0] < y[0]


def sort_rows(rank_rows: np.ndarray, descending: bool, stable: bool) -> np.ndarray:
    """The permutation each row's sort leaves, one row of indices per slice.

    >>> sort_rows(np.array([[1, 0, 1]]), False, True).tolist()
    [[1, 0, 2]]
    """
    keys = -rank_rows if descending else rank_rows
    order = np.argsort(keys, axis=-1, kind="stable")
    if stable or rank_rows.shape[-1] <= stl.THRESHOLD:
        # std::sort on 16 or fewer elements is one insertion sort: stable too
        return order
    ordered = np.take_along_axis(keys, order, axis=-1)
    ties = (np.diff(ordered, axis=-1) == 0).any(axis=-1)
    less = _less(descending)
    for row in np.nonzero(ties)[0]:
        pairs = [(int(r), j) for j, r in enumerate(rank_rows[row])]
        stl.sort(pairs, 0, len(pairs), less)
        order[row] = [j for _, j in pairs]
    return order


def _rows(arr: np.ndarray, dim: int) -> np.ndarray:
    """The slices along ``dim`` as rows (a copy), outer dims in row-major order."""
    return np.moveaxis(arr, dim, -1).reshape(-1, arr.shape[dim])


def _put_rows(arr: np.ndarray, dim: int, rows: np.ndarray) -> None:
    np.moveaxis(arr, dim, -1)[...] = rows.reshape(np.moveaxis(arr, dim, -1).shape)


def _fill_indices(indices, dim: int) -> None:
    """SortingUtils.h _fill_indices: arange(size) laid along ``dim`` with as_strided
    (stride 1 there, 0 elsewhere) and broadcast into indices by copy_."""
    ndim, n = indices.dim(), indices.view.sizes[dim]
    sizes, strides = [1] * ndim, [0] * ndim
    sizes[dim], strides[dim] = n, 1
    with span("_fill_indices", "kernel", source="aten/src/ATen/native/SortingUtils.h",
              note=Note("sort.fill_indices", dim=dim, n=n)):
        idx = call("aten::arange", n, dtype=D.int64, device=indices.device_type)
        call("aten::copy_", indices, call("aten::as_strided", idx, sizes, strides, None))


def _sort_stable(self, stable, dim: int, descending: bool):
    """sort.values_stable's meta function and sort_stable_out (Sorting.cpp)."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    refuse_meta("sort", self)
    sizes = self.view.sizes
    dense = self.view.is_non_overlapping_and_dense
    strides = self.view.strides if dense else S.infer_dense_strides(sizes, self.view.strides)
    with span("sort meta: outputs", "kernel", source=SORTING,
              note=Note("sort.outputs_like_input" if dense else "sort.outputs_dense",
                        strides=list(strides))) as s:
        values = memory.empty_strided_generic(sizes, strides, self.dtype, self.device_type)
        indices = memory.empty_strided_generic(sizes, strides, D.int64, self.device_type)
        s.set_result((values, indices))
    call("aten::copy_", values, self)
    if self.dim() == 0:
        call("aten::zero_", indices)
        return values, indices
    _fill_indices(indices, dim)
    if self.view.strides[dim] == 0:
        with span("sort_kernel: stride 0", "kernel", source=KERNEL,
                  note=Note("sort.stride0", dim=dim)):
            pass
        return values, indices
    stable = bool(stable)
    radix = (not stable and self.dim() == 1 and not descending and self.numel() >= GRAIN_SIZE
             and D.is_integral(self.dtype, include_bool=False))
    note = ("sort.radix" if radix else "sort.stable_sort" if stable else "sort.introsort")
    with span("sort_kernel", "kernel", source=KERNEL,
              note=Note(note, dim=dim, descending=descending),
              dim=dim, descending=descending, stable=stable) as s:
        if self.numel():
            check_temporary("sort", self.numel(), SORT_TEMPORARY_BYTES + 4 * self.dtype.itemsize)
            vals = values.array(write=True)
            rows = _rows(vals, dim)
            order = sort_rows(ranks(rows), descending, stable or radix)
            _put_rows(vals, dim, np.take_along_axis(rows, order, axis=-1))
            _put_rows(indices.array(write=True), dim, order)
        s.set_result((values, indices))
    return values, indices


@declare("sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         variants="method, function", kind=FUNCTIONAL,
         native="at::native::sort_stable_out (structured)", source=SORTING)
def sort_stable(self, *, stable, dim: int = -1, descending: bool = False):
    return _sort_stable(self, stable, dim, descending)


@declare("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         variants="method, function", kind=FUNCTIONAL, native="at::native::sort", source=SORTING)
def sort(self, dim: int = -1, descending: bool = False):
    # CompositeExplicitAutograd's sort is sort.stable with stable=False; torch.profiler
    # records one aten::sort for it, so the stable kernel runs here without a second
    # dispatch
    return _sort_stable(self, False, dim, descending)


not_modelled(
    "sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    "sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    kind=OUT, reason=OUT_NOT_MODELLED)


@declare("argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor",
         variants="method, function", kind=COMPOSITE, native="at::native::argsort",
         source=SORTING)
def argsort(self, dim: int = -1, descending: bool = False):
    return call("aten::sort", self, dim, descending)[1]


@declare("argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
         variants="method, function", kind=COMPOSITE, native="at::native::argsort_stable",
         source=SORTING)
def argsort_stable(self, *, stable: bool, dim: int = -1, descending: bool = False):
    return call("aten::sort.stable", self, stable=stable, dim=dim, descending=descending)[1]


not_modelled(
    "argsort.stable_out(Tensor self, *, bool stable, int dim=-1, bool descending=False, Tensor(a!) out) -> Tensor(a!)",
    kind=COMPOSITE, reason=OUT_NOT_MODELLED)


@declare("msort(Tensor self) -> Tensor", variants="method, function", kind=COMPOSITE,
         native="at::native::msort", source=SORTING)
def msort(self):
    return call("aten::sort", self, 0, False)[0]


not_modelled("msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
             reason=OUT_NOT_MODELLED)


# -- topk -------------------------------------------------------------------------------

def topk_rows(rank_rows: np.ndarray, k: int, largest: bool, sorted_: bool) -> np.ndarray:
    """topk_impl_loop's queue, row by row: the first k (rank, index) pairs it leaves.

    >>> topk_rows(np.array([[0, 2, 1, 2]]), 2, True, True).tolist()
    [[1, 3]]
    """
    n = rank_rows.shape[-1]
    less = _less(largest)
    out = np.empty((rank_rows.shape[0], k), dtype=np.int64)
    for row in range(rank_rows.shape[0]):
        queue = [(int(r), j) for j, r in enumerate(rank_rows[row])]
        if k * 64 <= n:
            stl.partial_sort(queue, 0, k, n, less)
        else:
            stl.nth_element(queue, 0, k - 1, n, less)
            if sorted_:
                stl.sort(queue, 0, k - 1, less)
        out[row] = [j for _, j in queue[:k]]
    return out


@declare("topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
         variants="method, function", kind=FUNCTIONAL,
         native="at::native::topk_out_cpu (structured)", source=SORTING)
def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    # meta::topk
    dim = S.maybe_wrap_dim(dim, self.dim())
    size = self.view.sizes[dim] if self.dim() else 1
    check(0 <= k <= size, RuntimeError, "selected index k out of range")
    refuse_meta("topk", self)
    check(self.dtype is not D.bool, RuntimeError, "topk does not support bool dtypes on CPU")
    sizes = list(self.view.sizes)
    if sizes:
        sizes[dim] = k
    values = memory.empty_generic(sizes, self.dtype, self.device_type)
    indices = memory.empty_generic(sizes, D.int64, self.device_type)
    if self.dim() == 0:
        call("aten::copy_", values, self)
        call("aten::zero_", indices)
        return values, indices
    n = self.view.sizes[dim]
    partial = k * 64 <= n
    note = "topk.partial_sort" if partial else ("topk.nth_element_sorted" if sorted
                                                else "topk.nth_element")
    with span("topk_kernel", "kernel", source=TOPK,
              note=Note(note, k=k, n=n, largest=largest),
              k=k, dim=dim, largest=largest, sorted=sorted) as s:
        if k and values.numel():
            check_temporary("topk", self.numel(), SORT_TEMPORARY_BYTES + 4 * self.dtype.itemsize)
            rows = _rows(self.array(), dim)
            order = topk_rows(ranks(rows), k, largest, sorted)
            _put_rows(values.array(write=True), dim, np.take_along_axis(rows, order, axis=-1))
            _put_rows(indices.array(write=True), dim, order)
        s.set_result((values, indices))
    return values, indices


not_modelled(
    "topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
    kind=OUT, reason=OUT_NOT_MODELLED)
