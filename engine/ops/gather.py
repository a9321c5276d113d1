"""Gather-style operators: index_select, gather, take, masked_fill, masked_select and
where(condition), and the index walk scatter's kernels share (engine/ops/scatter.py).

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp and ScatterGatherChecks.h
(the checks and their messages) and the CPU kernels' semantics.  Seed 004 writes
gather and scatter as fancy indexing with arange tensors; the kernels here compute
exactly that: the coordinates of every index element, with the ``dim`` coordinate
replaced by the index value.
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.memory import empty as memory
from engine.core import view as S
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.core.errors import Refused, check, torch_error
from engine.ops.index_ops import set_out
from engine.ops.split import check_pieces
from engine.ops import overlap
from engine.ops.views import expand_outplace
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import layout, resize_output
from engine.ops.touch import along, at, touched
from engine.ops.touch import where as where_set

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
CHECKS = "aten/src/ATen/native/ScatterGatherChecks.h"


def _coords(index_shape: tuple[int, ...], dim: int, index_values: np.ndarray) -> tuple:
    """Seed 004's identity: arange along every dim but ``dim``, the index along ``dim``.
    A 0-dim index is one position, as the kernel sees it (ensure_nonempty_vec): the
    coordinates address :func:`nonempty` arrays."""
    shape = index_shape or (1,)
    grids = list(np.indices(shape, sparse=True))
    grids[dim] = index_values.reshape(shape)
    return tuple(grids)


def nonempty(array: np.ndarray) -> np.ndarray:
    """A 0-dim array as the one-element 1-dim array cpu_scatter_gather_base_kernel
    restrides it to (ensure_nonempty_vec); a view, so writes land in the tensor."""
    return array.reshape(1) if array.ndim == 0 else array


def src_window(src, index) -> np.ndarray:
    """The part of src the kernel reads: index's shape from src's origin (a 0-dim index
    or src counted as one element along one dim)."""
    return nonempty(src.array())[tuple(slice(0, n) for n in index.view.sizes or (1,))]


def _check_indexarray_range(idx, size: int) -> None:
    """check_indexarray_range: the fast paths' bounds check, in its own words."""
    bad = idx[(idx < 0) | (idx >= size)] if idx is not None else np.empty(0, np.int64)
    if len(bad):
        raise torch_error(RuntimeError, "INDICES element is out of DATA bounds, "
                          f"id={int(bad[0])} axis_dim={size}")


INDEX_SELECT_KERNEL = step("index_select kernel", Layer.KERNEL, source=ADV,
                           note="index_select.kernel")
INDEX_SELECT_OUT_CPU_DIM1 = step("index_select_out_cpu_dim1_", Layer.KERNEL, source=ADV,
                                 note="index_select.dim1")
INDEX_SELECT_SLICES = step("index_select slices", Layer.KERNEL, source=ADV,
                           note="index_select.rows")


@declare("index_select(Tensor self, int dim, Tensor index) -> Tensor", variants="method, function",
         native="at::native::index_select_cpu_", source=ADV, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, takes_complex=True)
def index_select(self, dim: int, index):
    # index_select_cpu_ allocates an empty result; index_select_out_cpu_ checks, resizes it
    # and copies slices along dim
    result = aten.empty.memory_format((0,), dtype=self.dtype, device=self.device_type)
    return _index_select_out(self, dim, index, result)


@declare("index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::index_select_out_cpu_", source=ADV, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, takes_complex=True)
def index_select_out(self, dim: int, index, *, out):
    return _index_select_out(self, dim, index, out)


def _index_select_out(self, dim: int, index, result):
    """index_select_out_cpu_: the checks, the out= tensor's dtype and overlaps, its resize
    (resize_output), then the copy along dim."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    numel = index.numel()
    if index.dim() > 1:
        raise torch_error(IndexError, "index_select(): Index is supposed to be a vector")
    check(not (self.dim() == 0 and numel != 1), RuntimeError,
          f"index_select(): Index to scalar can have only 1 value, got {numel} value(s)")
    check(index.dtype in (D.int64, D.int32), RuntimeError,
          "index_select(): Expected dtype int32 or int64 for index")
    check(self.dtype is result.dtype, RuntimeError,
          "index_select(): self and result must have the same scalar type")
    overlap.assert_no_internal_overlap(result)
    overlap.assert_no_overlap(result, self)
    overlap.assert_no_overlap(result, index)
    sizes = list(self.view.sizes)
    if self.dim() > 0:
        sizes[dim] = numel
    resize_output(result, tuple(sizes), S.contiguous_strides(tuple(sizes)))
    # TensorBase::contiguous: an operator only for a strided index
    index = index if index.is_contiguous() else aten.contiguous.default(index)
    idx = None if index.is_meta else index.array().reshape(-1).astype(np.int64)
    size = self.view.sizes[dim] if self.dim() else 1
    src = self
    if self.dim() > 1:
        if numel == 0:
            return result
        if self.numel() == 0:
            check(size > 0, RuntimeError,
                  "index_select(): self indexing axis dim should be positive")
            _check_indexarray_range(idx, size)
            return result
        if dim == 1 and result.is_contiguous():
            # index_select_out_cpu_dim1_: memcpy of blocks from a contiguous self
            with span(INDEX_SELECT_OUT_CPU_DIM1):
                src = self if self.is_contiguous() else aten.contiguous.default(self)
                _check_indexarray_range(idx, size)
        else:
            # one slice per index: self.select(dim, 0), result.select(dim, 0), copied by
            # TensorIterator at self_i * stride(dim)
            with span(INDEX_SELECT_SLICES):
                aten.select.int(self, dim, 0)
                aten.select.int(result, dim, 0)
    with span(INDEX_SELECT_KERNEL, dim=dim, index=index) as s:
        if not self.is_meta:
            bound = size if self.dim() > 1 else self.numel()
            # the bounds masks, and the rows gathered before they are copied into result
            check_temporary("index_select", result.numel(), 11 + self.dtype.itemsize)
            if idx is not None and ((idx < 0) | (idx >= bound)).any():
                raise torch_error(IndexError, "index out of range in self")
            values = src.array() if self.dim() else src.array().reshape(1)
            # index along dim in place (np.take would first copy all of an expanded src)
            assert idx is not None          # not meta: the index has its values
            out = values[(slice(None),) * dim + (idx,)]
            result.array(write=True)[...] = out.reshape(result.view.sizes)
            # the slices of self along dim the index names, the index, the whole result
            s.set(read=lambda: along(src, dim, idx) if self.dim() else touched(src),
                  read_index=touched(index), written=touched(result))
        s.set_result(result)
    return result


def _nonempty_size(t, d: int) -> int:
    """ensure_nonempty_size: a 0-dim tensor has size 1 along its one pretend dim."""
    return t.view.sizes[S.maybe_wrap_dim(d, t.dim())] if t.dim() else 1


def _gather_shape_check(self, dim: int, index) -> None:
    """gather_shape_check (ScatterGatherChecks.h): as many dims as self, and no larger
    than self off ``dim``."""
    self_dims = max(self.dim(), 1)
    check(self_dims == max(index.dim(), 1), RuntimeError,
          "Index tensor must have the same number of dimensions as input tensor")
    for d in range(self_dims):
        check(d == dim or _nonempty_size(index, d) <= _nonempty_size(self, d), RuntimeError,
              f"Size does not match at dimension {d} expected index "
              f"{S.fmt_sizes(index.view.sizes)} to be no larger than self "
              f"{S.fmt_sizes(self.view.sizes)} apart from dimension {dim}")


def _scatter_shape_check(self, dim: int, index, src=None) -> None:
    """scatter_shape_check (ScatterGatherChecks.h), in its order: index as many dims as
    self; its sizes within self's off ``dim`` and within src's everywhere (src's sizes read
    along self's dims, so a src with fewer dims raises size()'s own IndexError there);
    then src as many dims as index; one message for both size checks."""
    if not index.numel():
        return
    self_dims = max(self.dim(), 1)
    check(self_dims == max(index.dim(), 1), RuntimeError,
          "Index tensor must have the same number of dimensions as self tensor")
    wrong = any(d != dim and _nonempty_size(index, d) > _nonempty_size(self, d)
                for d in range(self_dims))
    if not wrong and src is not None:
        # any() stops at the first larger size, as the C++ loop breaks
        wrong = any(_nonempty_size(index, d) > _nonempty_size(src, d) for d in range(self_dims))
    message = (f"Expected index {S.fmt_sizes(index.view.sizes)} to be no larger than self "
               f"{S.fmt_sizes(self.view.sizes)} apart from dimension {dim}")
    if src is not None:
        check(max(src.dim(), 1) == max(index.dim(), 1), RuntimeError,
              "Index tensor must have the same number of dimensions as src tensor")
        message += f" and to be no larger size than src {S.fmt_sizes(src.view.sizes)}"
    check(not wrong, RuntimeError, message)


def scatter_index(self, dim: int, index, src=None):
    """The index values as cpu_scatter_gather_base_kernel meets them: an outer loop over
    index's other dims, an inner loop along ``dim``, each value checked (0 <= v < size:
    no negative indices) before it is used.  Returns the values (a bad one read as 0),
    the mask of positions handled before the first bad one (None when all are good) and
    the error to raise after them."""
    # the index in int64, its bounds masks, the kernel's order of them when one is bad,
    # and the coordinates and values numpy gathers or scatters at
    check_temporary("gather/scatter's index", index.numel(),
                    40 + 8 * max(index.dim(), 1) + 2 * self.dtype.itemsize)
    values = nonempty(index.array().astype(np.int64))
    size = self.view.sizes[dim] if self.dim() else 1
    bad = (values < 0) | (values >= size)
    if not bad.any():
        return values, None, None
    perm = _kernel_order(self, dim, index, src)
    in_order = np.transpose(bad, perm).reshape(-1)
    first = int(np.argmax(in_order))
    value = int(np.transpose(values, perm).reshape(-1)[first])
    reached = (np.arange(in_order.size) < first).reshape([values.shape[d] for d in perm])
    reached = np.transpose(reached, np.argsort(perm))
    error = torch_error(RuntimeError, f"index {value} is out of bounds for dimension {dim} "
                                      f"with size {size}")
    return np.where(bad, 0, values), reached, error


def _kernel_order(self, dim: int, index, src) -> list[int]:
    """The order cpu_scatter_gather_base_kernel visits index positions in, as index axes
    outermost first.  For the last dim the loop along dim is innermost; otherwise the
    loop along dim sits outside the iterator's inner loop, which is the innermost of
    index's other dims coalesced (TensorIterator::coalesce_dimensions: every operand
    steps through them as through one dim).  Assumes the operands' dims are not
    reordered (row-major-like strides)."""
    others = [d for d in range(index.dim()) if d != dim]
    if dim == index.dim() - 1:
        return others + [dim]
    operands = [t for t in (self, index, src) if t is not None and hasattr(t, "view")]
    live = [d for d in others if index.view.sizes[d] != 1]
    block: list[int] = []
    for d in reversed(live):
        if not block:
            block = [d]
            continue
        span_ = int(np.prod([index.view.sizes[b] for b in block]))
        if all(t.view.strides[block[-1]] * span_ == t.view.strides[d] for t in operands):
            block.insert(0, d)
        else:
            break
    outer = [d for d in others if d not in block]
    return outer + [dim] + block


def _index_values(self, dim: int, index) -> np.ndarray:
    values, _, error = scatter_index(self, dim, index)
    if error is not None:
        raise error
    return values


def scatter_apply(target: np.ndarray, coords: tuple, vals: np.ndarray, reached, apply) -> None:
    """Run ``apply(target, coords, vals)`` on every index position, or, when the kernel
    stopped at a bad index, on the positions it handled before it."""
    if reached is None:
        apply(target, coords, vals)
        return
    if not reached.any():
        return
    full = np.broadcast_arrays(*coords, vals) if coords else [vals]
    picked = [a[reached] for a in full]
    apply(target, tuple(picked[:-1]), picked[-1])


GATHER_KERNEL = step("gather_kernel", Layer.KERNEL,
                     source="aten/src/ATen/native/cpu/ScatterGatherKernel.cpp",
                     note="gather.kernel")


@declare("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
         variants="method, function",
         native="at::native::gather_out (structured)", source=ADV,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def gather(self, dim: int, index, *, sparse_grad: bool = False):
    return _gather(self, dim, index, None)


@declare("gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, "
         "Tensor(a!) out) -> Tensor(a!)",
         native="at::native::gather_out (structured)", source=ADV,
         device_check=CHECK_WRAPPER)
def gather_out(self, dim: int, index, *, sparse_grad: bool = False, out):
    return _gather(self, dim, index, out)


def _gather(self, dim: int, index, result):
    """TORCH_META_FUNC(gather) and gather_out: an out= tensor is checked and resized by
    set_output (the structured wrapper's dtype check, resize_output's warning), then may
    not overlap self or the index, before the index's own checks."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    if result is not None:
        set_out(result, index.view.sizes, self.dtype, self.device_type)
        overlap.assert_no_internal_overlap(result)
        overlap.assert_no_overlap(result, self)
        overlap.assert_no_partial_overlap(result, index)
    # scatter_gather_dtype_check: an empty index may have any dtype
    # (on meta, torch's Python meta function adds what it got)
    check(index.dtype in (D.int64, D.int32) or not index.numel(), RuntimeError,
          "gather(): Expected dtype int32/int64 for index" +
          (f", but got torch.{index.dtype.name}" if self.is_meta or index.is_meta else ""))
    if index.numel():
        _gather_shape_check(self, dim, index)
    out = memory.empty_generic(index.view.sizes, self.dtype, self.device_type) \
        if result is None else result
    if index.numel():
        # gather_out returns before gather_stub (and its index.to(kLong)) on an empty index
        aten.to.dtype(index, D.int64)
    with span(GATHER_KERNEL, dim=dim) as s:
        if not self.is_meta and index.numel():
            values = _index_values(self, dim, index)
            coords = _coords(index.view.sizes, dim, values)
            if out.storage is self.storage:
                _gather_in_order(self, dim, index, out, coords)
            else:
                nonempty(out.array(write=True))[...] = nonempty(self.array())[coords]
            # seed 004: self at the index's coordinates, every index element, all of out
            s.set(read=lambda: at(self, coords), read_index=touched(index), written=touched(out))
        s.set_result(out)
    return out


#: the most elements tidx gathers one at a time (an out= tensor over self's memory)
MAX_IN_ORDER = 1 << 16


def _gather_in_order(self, dim: int, index, out, coords) -> None:
    """An out= tensor over self's memory (gather_out's overlap checks let a partial
    overlap they cannot prove through): the kernel reads and writes one element at a time
    in its loop's order, so a later element may read what an earlier one wrote."""
    if index.numel() > MAX_IN_ORDER:
        raise Refused(f"gather into an out= tensor that shares self's memory, over more than "
                      f"{MAX_IN_ORDER} elements: tidx replays that loop one element at a "
                      "time")
    source, target = nonempty(self.array()), nonempty(out.array(write=True))
    perm = _kernel_order(self, dim, index, None)
    shape = index.view.sizes or (1,)
    full = [np.broadcast_to(c, shape) for c in coords]
    for flat in range(int(np.prod(shape))):
        position = np.unravel_index(flat, [shape[d] for d in perm])
        at_index = tuple(position[perm.index(d)] for d in range(len(shape)))
        target[at_index] = source[tuple(int(c[at_index]) for c in full)]


TAKE_KERNEL = step("take_kernel", Layer.KERNEL, source="aten/src/ATen/native/cpu/IndexKernel.cpp",
                   note="take.kernel")


@declare("take(Tensor self, Tensor index) -> Tensor", variants="method, function",
         native="at::native::take", source=ADV, meta=META_PYTHON, device_check=CHECK_WRAPPER)
def take(self, index):
    return _take(self, index, None)


@declare("take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::take_out", source=ADV, meta=META_PYTHON, device_check=CHECK_WRAPPER)
def take_out(self, index, *, out):
    return _take(self, index, out)


def _take(self, index, given):
    """take (at::empty of the index's shape) and take_out: the dtype checks, the empty
    self's, the overlaps, then the out= tensor resized by its TensorIterator."""
    check(index.dtype is D.int64, RuntimeError,
          f"take(): Expected a long tensor for index, but got {D.cpp_name(index.dtype)}")
    if given is None:
        out = aten.empty.memory_format(index.view.sizes, dtype=self.dtype,
                                       device=self.device_type)
    else:
        check(self.dtype is given.dtype, RuntimeError,
              f"take(): self and out expected to have the same dtype, but got self.dtype = "
              f"{D.cpp_name(self.dtype)} and out.dtype = {D.cpp_name(given.dtype)}")
        out = given
    # take_out's index check, before its kernel looks at a value
    check(not (self.numel() == 0 and index.numel() != 0), IndexError,
          "take(): tried to take from an empty tensor")
    if given is not None:
        overlap.assert_no_internal_overlap(out)
        overlap.assert_no_overlap(out, index)
        overlap.assert_no_overlap(out, self)
        resize_output(out, index.view.sizes, layout(index.view.sizes, [index]))
    with span(TAKE_KERNEL
              ) as s:
        if not self.is_meta and index.numel():
            n = self.numel()
            check_temporary("take", index.numel(), 24 + self.dtype.itemsize)
            idx = index.array().astype(np.int64)
            bad = (idx < -n) | (idx >= n)
            if bad.any():
                first = int(idx[bad].reshape(-1)[0])
                raise torch_error(IndexError, f"out of range: tried to access index {first} on "
                                              f"a tensor of {n} elements.")
            flat = self.array().reshape(-1)
            linear = np.where(idx < 0, idx + n, idx)
            out.array(write=True)[...] = flat[linear]
            # self's elements at the linear (row-major) positions, the index, all of out
            s.set(read=lambda: at(self, np.unravel_index(linear, self.view.sizes))
                  if self.dim() else touched(self), read_index=touched(index), written=touched(out))
        s.set_result(out)
    return out


@declare("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
         variants="function, method", native="at::native::masked_fill",
         source=ADV,
         meta=META_PYTHON)
def masked_fill(self, mask, value):
    # the result has the broadcast shape of mask and self; the fill reads the mask as given
    _, expanded = expand_outplace(mask, self)
    out = aten.clone.default(expanded, memory_format="contiguous_format")
    return aten.masked_fill_.Scalar(out, mask, value)


@declare("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
         variants="function, method", native="at::native::masked_fill",
         source=ADV,
         meta=META_PYTHON)
def masked_fill_tensor(self, mask, value):
    _, expanded = expand_outplace(mask, self)
    out = aten.clone.default(expanded, memory_format="contiguous_format")
    return aten.masked_fill_.Tensor(out, mask, value)


@declare("where(Tensor condition) -> Tensor[]", kind=COMPOSITE, native="at::native::where",
         source=ADV)
def where(condition):
    return aten.nonzero_numpy.default(condition)


@declare("nonzero_numpy(Tensor self) -> Tensor[]", variants="method, function", kind=COMPOSITE,
         native="at::native::nonzero_numpy", source=ADV)
def nonzero_numpy(self):
    # a 0-dim tensor is seen as one element, for compatibility with numpy
    if self.dim() == 0:
        self = aten.unsqueeze.default(self, 0)
    nz = aten.nonzero.default(self)
    return aten.unbind.int(nz, 1)


@declare("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", variants="function, method",
         native="at::native::unbind", source="aten/src/ATen/native/TensorShape.cpp")
def unbind(self, dim: int = 0):
    dim = S.maybe_wrap_dim(dim, self.dim())
    # a 0-dim tensor wraps dim to 0, which it does not have (torch's own capitalised
    # message, not c10's "dimension specified as ...")
    check(self.dim() > 0, IndexError, f"Dimension specified as {dim} but tensor has no "
                                      "dimensions")
    check_pieces(self.view.sizes[dim], "unbind")
    return tuple(aten.select.int(self, dim, i) for i in range(self.view.sizes[dim]))


MASKED_SELECT_KERNEL = step("masked_select_kernel", Layer.KERNEL,
                            source="aten/src/ATen/native/cpu/IndexKernel.cpp",
                            note="masked_select.kernel")
MASKED_SELECT_PREFIX_SUM = step("masked_select: prefix sum", Layer.KERNEL, source=ADV,
                                note="masked_select.prefix_sum")


@declare("masked_select(Tensor self, Tensor mask) -> Tensor", variants="method, function",
         native="at::native::masked_select_cpu", source=ADV, device_check=CHECK_WRAPPER)
def masked_select(self, mask):
    result = aten.empty.memory_format((0,), dtype=self.dtype, device=self.device_type)
    return _masked_select_out(self, mask, result)


@declare("masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::masked_select_out_cpu", source=ADV, device_check=CHECK_WRAPPER)
def masked_select_out(self, mask, *, out):
    return _masked_select_out(self, mask, out)


def _masked_select_out(self, mask, result):
    """masked_select_out_impl_cpu: the checks, the overlaps, the count of the mask, the
    out= tensor resized to it (resize_output), then the kernel."""
    if result.is_meta and not self.is_meta:
        raise Refused("masked_select(..., out=) into a meta tensor: torch dispatches to the "
                      "Meta key, where masked_select.out has no kernel (its NotImplementedError "
                      "is not modelled)")
    check(mask.dtype is D.bool, RuntimeError, "masked_select: expected BoolTensor for mask")
    check(self.dtype is result.dtype, RuntimeError,
          "masked_select(): self and result must have the same scalar type")
    overlap.assert_no_internal_overlap(result)
    overlap.assert_no_overlap(result, self)
    overlap.assert_no_overlap(result, mask)
    m, src = expand_outplace(mask, self)
    shape = src.view.sizes
    numel = aten.item.default(aten.sum.default(m))
    resize_output(result, (numel,), (1,))
    if numel == 0:
        return result
    aten.as_strided.default(result, shape, (0,) * len(shape), None)
    serial = self.numel() < 32768 and src.is_contiguous() and m.is_contiguous()
    if not serial:
        with span(MASKED_SELECT_PREFIX_SUM):
            mask_long = aten.empty.memory_format(shape, dtype=D.int64, device=self.device_type)
            aten.copy_.default(mask_long, m)
            aten.empty.memory_format(shape, dtype=D.int64, device=self.device_type)
    with span(MASKED_SELECT_KERNEL, serial=serial) as s:
        if not self.is_meta:
            # numpy finds the mask's coordinates, then gathers the values
            check_temporary("masked_select", numel, 8 * max(len(shape), 1) + self.dtype.itemsize)
            result.array(write=True)[...] = src.array()[m.array()]
            # the mask whole (an index), self where it is set, the result whole
            s.set(read=lambda: where_set(src, m.array()), read_index=touched(m),
                  written=touched(result))
        s.set_result(result)
    return result
