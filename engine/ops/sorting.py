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
  elements: the tie order it leaves is replayed exactly by :mod:`engine.ops.stl`, or by
  its compiled twin :mod:`engine.ops.stl_compiled` when the rows with ties are long.  A
  1-D integer tensor of at least GRAIN_SIZE elements sorted ascending goes to fbgemm's
  radix sort instead, which is stable.
* An input whose ``dim`` has stride 0 (an expanded tensor) is already sorted: only the
  indices are written (gh-91420).

Every slice gets one key per element (:func:`order_keys`: equal values, equal keys), so
the C++ comparators become comparisons of 32-bit integers.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops import stl, stl_compiled
from engine.ops.parallel import GRAIN_SIZE
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched

SORTING = "aten/src/ATen/native/Sorting.cpp"
KERNEL = "aten/src/ATen/native/cpu/SortingKernel.cpp"
TOPK = "aten/src/ATen/native/TopKImpl.h"


def refuse_meta(name: str, t) -> None:
    """torch runs these on the meta device through Python meta registrations
    (torch/_meta_registrations.py: empty_like, new_empty ...), not the C++ path."""
    if t.is_meta:
        raise Refused(f"{name}() on the meta device is not modelled: torch runs a Python "
                      "meta registration (torch/_meta_registrations.py) there")


def ranks(rows: np.ndarray) -> np.ndarray:
    """Each element's rank among the distinct values of its row (the last axis), as the
    sorting comparators see them: -0.0 equals 0.0, NaN equals NaN and is above every
    number.  Dense: a row of n values ranks 0..n-1 exactly when it has no ties.

    >>> ranks(np.array([2.0, float("nan"), -0.0, 0.0, 1.0, float("nan")])).tolist()
    [2, 3, 0, 0, 1, 3]
    >>> ranks(np.array([[3, 1, 3], [0, 5, 4]])).tolist()
    [[1, 0, 1], [0, 2, 1]]
    """
    if rows.size == 0:
        return np.zeros(rows.shape, dtype=np.int64)
    if rows.dtype.kind == "f":
        rows = rows + rows.dtype.type(0)          # -0.0 + 0.0 is 0.0
    # numpy sorts NaNs last, as the comparators do; any order of equal values will do
    order = np.argsort(rows, axis=-1)
    ordered = np.take_along_axis(rows, order, axis=-1)
    new = np.zeros(rows.shape, dtype=bool)
    np.not_equal(ordered[..., 1:], ordered[..., :-1], out=new[..., 1:])
    if rows.dtype.kind == "f":
        nan = np.isnan(ordered)
        new[..., 1:] &= ~(nan[..., 1:] & nan[..., :-1])
        del nan
    del ordered
    dense = np.cumsum(new, axis=-1)
    del new
    out = np.empty_like(dense)
    np.put_along_axis(out, order, dense, axis=-1)
    return out


#: The largest key: keys are 32-bit, beside a 32-bit position (see _stable_order).
TOP = (1 << 32) - 1


def order_keys(rows: np.ndarray) -> np.ndarray:
    """Keys (uint64, below 2^32) in the comparators' order of each row's values: equal
    keys for equal values (-0.0 and 0.0, every NaN), NaN's above every number.  Values
    of 32 bits or fewer map in one pass to an order-preserving 32-bit pattern (a float's
    sign bit flipped, or all its bits for a negative one); wider ones are ranked.

    >>> order_keys(np.array([1.5, -0.0, float("nan"), 0.0, -2.0, float("-nan")],
    ...                     np.float32)).tolist()
    [3217031168, 2147483648, 4294967295, 2147483648, 1073741823, 4294967295]
    >>> order_keys(np.array([-3, 0, 2], np.int8)).tolist()
    [2147483645, 2147483648, 2147483650]
    """
    kind = rows.dtype.kind
    if rows.dtype.itemsize > 4:
        return ranks(rows).view(np.uint64)
    if kind in "bu":
        return rows.astype(np.uint64)
    if kind == "i":
        return (rows.astype(np.int64) + (1 << 31)).view(np.uint64)
    assert kind == "f", f"no order keys for {rows.dtype}"
    with np.errstate(invalid="ignore"):
        values = rows.astype(np.float32) + np.float32(0)  # exact for Half; -0.0 + 0.0 is 0.0
    nan = np.isnan(values)
    bits = values.view(np.uint32)                         # values' own copy: changed in place
    flip = bits >> np.uint32(31)                          # negative: flip every bit,
    flip *= np.uint32(0x7FFFFFFF)                         # else the sign bit only
    flip |= np.uint32(1 << 31)
    bits ^= flip
    del flip
    bits[nan] = TOP
    return bits.astype(np.uint64)


#: Elements (over all the rows replayed at once) from which the compiled twin of
#: :mod:`engine.ops.stl` runs: below, the Python replay is as quick as compiling (~20 ms).
COMPILED_MIN = 2048

#: Elements the Python replay takes at most, where wasmtime cannot run (about a
#: microsecond per comparison): above, tidx refuses rather than run for minutes.
PYTHON_MAX = 1 << 17


def _less(x, y) -> bool:
    """KeyValueCompAsc on keys (pairs are (key, index)); KeyValueCompDesc is the same
    comparison on reversed keys (see :func:`_keys`)."""
    return x[0] < y[0]


def _keys(keys: np.ndarray, reverse: bool) -> np.ndarray:
    """The keys the comparator compares, ascending: ``keys``, or for a descending
    comparator (``x > y``) the keys counted down from the top, so that every comparison
    the C++ makes has the same outcome as ``key(x) < key(y)``.  Overwrites ``keys``."""
    if reverse:
        np.subtract(np.uint64(TOP), keys, out=keys)
    return keys


def _replay(keys: np.ndarray, what: str, compiled, python) -> np.ndarray:
    """Run one of libstdc++'s algorithms on each row of ``keys``: compiled when there is
    enough work to pay for compiling, in Python when there is little (or no wasmtime)."""
    rows, n = keys.shape
    if keys.size >= COMPILED_MIN and stl_compiled.available():
        if n > stl_compiled.MAX_ELEMENTS:
            raise Refused(f"{what} along a dim of {n} elements with ties: tidx replays "
                          f"libstdc++'s tie order on at most {stl_compiled.MAX_ELEMENTS}")
        per_call = stl_compiled.MAX_ELEMENTS // n
        if rows <= per_call:
            return compiled(keys)
        return np.concatenate([compiled(keys[start:start + per_call])
                               for start in range(0, rows, per_call)])
    if keys.size > PYTHON_MAX:
        raise Refused(f"{what} of {keys.size} elements with ties needs wasmtime: without it "
                      f"tidx replays libstdc++'s tie order in Python, on at most {PYTHON_MAX}")
    return np.array([python(row) for row in keys.tolist()], dtype=np.int64).reshape(rows, -1)


def _sort_python(row: list) -> list:
    pairs = [(r, j) for j, r in enumerate(row)]
    stl.sort(pairs, 0, len(pairs), _less)
    return [j for _, j in pairs]


def _stable_order(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's stable order by key, and whether the row holds equal keys.

    Stable by construction: ``key << 32 | position`` sorted (numpy's fast unstable sort
    cannot reorder distinct numbers) reads back the positions in a stable sort's order.

    >>> [x.tolist() for x in _stable_order(np.array([[1, 0, 1], [2, 0, 1]], np.uint64))]
    [[[1, 0, 2], [1, 2, 0]], [True, False]]
    """
    n = keys.shape[-1]
    assert n <= TOP, "positions take 32 bits"
    packed = np.left_shift(keys, np.uint64(32))
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort(axis=-1)
    ordered = packed >> np.uint64(32)
    tied = (ordered[..., 1:] == ordered[..., :-1]).any(axis=-1)
    del ordered
    packed &= np.uint64(TOP)
    return packed.view(np.int64), tied


def sort_rows(keys: np.ndarray, descending: bool, stable: bool) -> np.ndarray:
    """The permutation each row's sort leaves, one row of indices per slice (``keys``
    from :func:`order_keys`, overwritten).

    >>> sort_rows(np.array([[1, 0, 1]], np.uint64), False, True).tolist()
    [[1, 0, 2]]
    >>> sort_rows(np.array([[1, 0] * 10], np.uint64), False, False).tolist()[0][:4]
    [1, 19, 17, 15]
    """
    keys = _keys(keys, descending)
    order, tied = _stable_order(keys)
    # std::sort on 16 or fewer elements is one insertion sort, stable too; and a row
    # without ties comes out the same from every sort
    if not stable and keys.shape[-1] > stl.THRESHOLD and tied.any():
        if tied.all():
            return _replay(keys, "sort", stl_compiled.sort_rows, _sort_python)
        order[tied] = _replay(keys[tied], "sort", stl_compiled.sort_rows, _sort_python)
    return order


def work_bytes(numel: int, itemsize: int) -> int:
    """The most memory sorting ``numel`` elements takes besides its results: the slices
    as rows and the values gathered back (two copies), and at once at most five 64-bit
    arrays (the keys, or the ranks with numpy's order for 64-bit values; the stable
    order and its keys; the compiled replay's layout and its positions)."""
    return numel * (2 * itemsize + 5 * 8)


def _rows(arr: np.ndarray, dim: int) -> np.ndarray:
    """The slices along ``dim`` as rows (a copy), outer dims in row-major order."""
    return np.moveaxis(arr, dim, -1).reshape(-1, arr.shape[dim])


def _put_rows(arr: np.ndarray, dim: int, rows: np.ndarray) -> None:
    np.moveaxis(arr, dim, -1)[...] = rows.reshape(np.moveaxis(arr, dim, -1).shape)


FILL_INDICES = step("_fill_indices", Layer.KERNEL, source="aten/src/ATen/native/SortingUtils.h")


def _fill_indices(indices, dim: int) -> None:
    """SortingUtils.h _fill_indices: arange(size) laid along ``dim`` with as_strided
    (stride 1 there, 0 elsewhere) and broadcast into indices by copy_."""
    ndim, n = indices.dim(), indices.view.sizes[dim]
    sizes, strides = [1] * ndim, [0] * ndim
    sizes[dim], strides[dim] = n, 1
    with span(FILL_INDICES, note=Note("sort.fill_indices", dim=dim, n=n)):
        idx = aten.arange.default(n, dtype=D.int64, device=indices.device_type)
        aten.copy_.default(indices, aten.as_strided.default(idx, sizes, strides, None))


SORT_META_OUTPUTS = step("sort meta: outputs", Layer.KERNEL, source=SORTING)
SORT_KERNEL = step("sort_kernel", Layer.KERNEL, source=KERNEL)
SORT_KERNEL_STRIDE_0 = step("sort_kernel: stride 0", Layer.KERNEL, source=KERNEL)


def set_outputs(outs, sizes, strides, dtype: D.dtype) -> None:
    """The structured out= wrapper's set_output for (values, indices): each out= tensor's
    dtype checked (``dtype``, then Long), then resized -- resize_output's warning when it
    held elements -- and, only if it was resized, given the meta's strides (as_strided_,
    when the meta names some)."""
    for given, want in zip(outs, (dtype, D.int64)):
        check(given.dtype is want, RuntimeError,
              f"Expected out tensor to have dtype {D.type_meta_name(want)}, but got "
              f"{D.type_meta_name(given.dtype)} instead")
        if given.view.sizes != tuple(sizes):
            resize_output(given, tuple(sizes), S.contiguous_strides(tuple(sizes)))
            if strides:     # resize_out: ``if (!strides.empty())`` (a 0-dim has none)
                aten.as_strided_.default(given, list(sizes), list(strides))


def _sort_stable(self, stable, dim: int, descending: bool, outs=None):
    """sort.values_stable's meta function and sort_stable_out (Sorting.cpp), into new
    tensors or the out= tensors ``outs`` (values, indices)."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    refuse_meta("sort", self)
    sizes = self.view.sizes
    dense = self.view.is_non_overlapping_and_dense
    strides = self.view.strides if dense else S.infer_dense_strides(sizes, self.view.strides)
    if outs is not None:
        set_outputs(outs, sizes, strides, self.dtype)
        values, indices = outs
    else:
        with span(SORT_META_OUTPUTS,
                  note=Note("sort.outputs_like_input" if dense else "sort.outputs_dense",
                            strides=list(strides))) as s:
            values = memory.empty_strided_generic(sizes, strides, self.dtype,
                                                  self.device_type)
            indices = memory.empty_strided_generic(sizes, strides, D.int64,
                                                   self.device_type)
            s.set_result((values, indices))
    aten.copy_.default(values, self)
    if self.dim() == 0:
        aten.zero_.default(indices)
        return values, indices
    _fill_indices(indices, dim)
    if self.view.strides[dim] == 0:
        with span(SORT_KERNEL_STRIDE_0, note=Note("sort.stride0", dim=dim)):
            pass
        return values, indices
    stable = bool(stable)
    radix = (not stable and self.dim() == 1 and not descending and self.numel() >= GRAIN_SIZE
             and D.is_integral(self.dtype, include_bool=False))
    note = ("sort.radix" if radix else "sort.stable_sort" if stable else "sort.introsort")
    with span(SORT_KERNEL,
              note=Note(note, dim=dim, descending=descending),
              dim=dim, descending=descending, stable=stable) as s:
        if self.numel():
            check_temporary("sort", self.numel(), work_bytes(1, self.dtype.itemsize))
            vals = values.array(write=True)
            rows = _rows(vals, dim)
            order = sort_rows(order_keys(rows), descending, stable or radix)
            _put_rows(vals, dim, np.take_along_axis(rows, order, axis=-1))
            _put_rows(indices.array(write=True), dim, order)
        s.set_result((values, indices))
    return values, indices


@declare("sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         variants="method, function", native="at::native::sort_stable_out (structured)",
         source=SORTING, meta=META_PYTHON, device_check=CHECK_WRAPPER)
def sort_stable(self, *, stable, dim: int = -1, descending: bool = False):
    return _sort_stable(self, stable, dim, descending)


@declare("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         variants="method, function", native="at::native::sort", source=SORTING,
         meta=META_PYTHON)
def sort(self, dim: int = -1, descending: bool = False):
    # CompositeExplicitAutograd's sort is sort.stable with stable=False; torch.profiler
    # records one aten::sort for it, so the stable kernel runs here without a second
    # dispatch
    return _sort_stable(self, False, dim, descending)


@declare("sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::sort_stable_out (structured)", source=SORTING, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def sort_values_stable(self, *, stable, dim: int = -1, descending: bool = False, values,
                       indices):
    return _sort_stable(self, stable, dim, descending, (values, indices))


@declare("sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::sort_out", source=SORTING, meta=META_PYTHON)
def sort_values(self, dim: int = -1, descending: bool = False, *, values, indices):
    # at::sort_out(values, indices, self, false, dim, descending): one aten::sort in
    # torch.profiler, as the functional form's
    return _sort_stable(self, False, dim, descending, (values, indices))


@declare("argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor",
         variants="method, function", kind=COMPOSITE, native="at::native::argsort",
         source=SORTING)
def argsort(self, dim: int = -1, descending: bool = False):
    return aten.sort.default(self, dim, descending)[1]


@declare("argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
         variants="method, function", kind=COMPOSITE, native="at::native::argsort_stable",
         source=SORTING)
def argsort_stable(self, *, stable: bool, dim: int = -1, descending: bool = False):
    return aten.sort.stable(self, stable=stable, dim=dim, descending=descending)[1]


@declare("argsort.stable_out(Tensor self, *, bool stable, int dim=-1, bool descending=False, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::argsort_stable", source=SORTING)
def argsort_stable_out(self, *, stable: bool, dim: int = -1, descending: bool = False, out):
    # a values tensor of its own (at::empty({0})), then at::sort_outf into it and out
    values = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    aten.sort.values_stable(self, stable=stable, dim=dim, descending=descending,
                            values=values, indices=out)
    return out


@declare("msort(Tensor self) -> Tensor", variants="method, function", kind=COMPOSITE,
         native="at::native::msort", source=SORTING)
def msort(self):
    return aten.sort.default(self, 0, False)[0]


@declare("msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::msort_out", source=SORTING)
def msort_out(self, *, out):
    # an indices tensor of its own, then at::sort_out(values, indices, self, 0, false)
    indices = aten.empty.memory_format([0], dtype=D.int64, device=self.device_type)
    aten.sort.values(self, 0, False, values=out, indices=indices)
    return out


# -- topk -------------------------------------------------------------------------------

def topk_rows(keys: np.ndarray, k: int, largest: bool, sorted_: bool) -> np.ndarray:
    """topk_impl_loop's queue, row by row: the first k (rank, index) pairs it leaves
    (k >= 1): std::partial_sort when k * 64 <= n, else std::nth_element and, when
    sorted, std::sort of the first k - 1.

    >>> topk_rows(np.array([[0, 2, 1, 2]], np.uint64), 2, True, True).tolist()
    [[1, 3]]
    """
    n = keys.shape[-1]
    partial = k * 64 <= n

    def python(row: list) -> list:
        queue = [(r, j) for j, r in enumerate(row)]
        if partial:
            stl.partial_sort(queue, 0, k, n, _less)
        else:
            stl.nth_element(queue, 0, k - 1, n, _less)
            if sorted_:
                stl.sort(queue, 0, k - 1, _less)
        return [j for _, j in queue[:k]]

    def compiled(keys: np.ndarray) -> np.ndarray:
        return stl_compiled.topk_rows(keys, k, partial, sorted_)
    return _replay(_keys(keys, largest), "topk", compiled, python)


TOPK_KERNEL = step("topk_kernel", Layer.KERNEL, source=TOPK)


@declare("topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
         variants="method, function", native="at::native::topk_out_cpu (structured)",
         source=SORTING, meta=META_PYTHON, device_check=CHECK_WRAPPER)
def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    return _topk(self, k, dim, largest, sorted, None)


@declare("topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
         native="at::native::topk_out_cpu (structured)", source=SORTING,
         device_check=CHECK_WRAPPER)
def topk_values(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *,
                values, indices):
    return _topk(self, k, dim, largest, sorted, (values, indices))


def _topk(self, k: int, dim: int, largest: bool, sorted: bool, outs):
    """meta::topk and topk_out_cpu, into new tensors or the out= tensors ``outs``: those
    are resized before the kernel reads self, which may be one of them."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    size = self.view.sizes[dim] if self.dim() else 1
    check(0 <= k <= size, RuntimeError, "selected index k out of range")
    refuse_meta("topk", self)
    check(self.dtype is not D.bool, RuntimeError, "topk does not support bool dtypes on CPU")
    sizes = list(self.view.sizes)
    if sizes:
        sizes[dim] = k
    if outs is None:
        values = memory.empty_generic(sizes, self.dtype, self.device_type)
        indices = memory.empty_generic(sizes, D.int64, self.device_type)
    else:
        set_outputs(outs, sizes, None, self.dtype)
        values, indices = outs
        # topk_out_cpu checks k again, against self as it is now
        size = self.view.sizes[dim] if self.dim() else 1
        check(0 <= k <= size, RuntimeError, "selected index k out of range")
    if self.dim() == 0:
        aten.copy_.default(values, self)
        aten.zero_.default(indices)
        return values, indices
    n = self.view.sizes[dim]
    partial = k * 64 <= n
    note = "topk.partial_sort" if partial else ("topk.nth_element_sorted" if sorted
                                                else "topk.nth_element")
    with span(TOPK_KERNEL,
              note=Note(note, k=k, n=n, largest=largest),
              k=k, dim=dim, largest=largest, sorted=sorted) as s:
        if k and values.numel():
            check_temporary("topk", self.numel(), work_bytes(1, self.dtype.itemsize))
            rows = _rows(self.array(), dim)
            order = topk_rows(order_keys(rows), k, largest, sorted)
            _put_rows(values.array(write=True), dim, np.take_along_axis(rows, order, axis=-1))
            _put_rows(indices.array(write=True), dim, order)
            s.set(read=touched(self), written=[touched(values), touched(indices)])
        s.set_result((values, indices))
    return values, indices

