"""Gather-style operators: index_select, gather, scatter(_), scatter_add, take,
masked_fill, masked_select and where(condition).

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp and ScatterGatherChecks.h
(the checks and their messages) and the CPU kernels' semantics.  Seed 004 writes
gather and scatter as fancy indexing with arange tensors; the kernels here compute
exactly that: the coordinates of every index element, with the ``dim`` coordinate
replaced by the index value.
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span

from engine.core import dtypes as D
from engine.memory import empty as memory
from engine.core import view as S
from engine.dispatch.declarations import (COMPOSITE, FUNCTIONAL, INPLACE, OUT, OUT_NOT_MODELLED,
                                          VIEW, declare, not_modelled)
from engine.dispatch.dispatcher import call
from engine.core.errors import check, torch_error
from engine.memory.resize import resize_native
from engine.ops import overlap
from engine.ops.views import expand_outplace

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
CHECKS = "aten/src/ATen/native/ScatterGatherChecks.h"


def _coords(index_shape: tuple[int, ...], dim: int, index_values: np.ndarray) -> tuple:
    """Seed 004's identity: arange along every dim but ``dim``, the index along ``dim``."""
    grids = list(np.indices(index_shape, sparse=True)) if index_shape else []
    grids[dim] = index_values
    return tuple(grids)


def _check_indexarray_range(idx, size: int) -> None:
    """check_indexarray_range: the fast paths' bounds check, in its own words."""
    bad = idx[(idx < 0) | (idx >= size)] if idx is not None else ()
    if len(bad):
        raise torch_error(RuntimeError, "INDICES element is out of DATA bounds, "
                          f"id={int(bad[0])} axis_dim={size}")


@declare("index_select(Tensor self, int dim, Tensor index) -> Tensor", variants="method, function",
         kind=FUNCTIONAL, native="at::native::index_select_cpu_",
         source=ADV)
def index_select(self, dim: int, index):
    # index_select_cpu_ allocates an empty result; index_select_out_cpu_ checks, resizes it
    # and copies slices along dim
    result = call("aten::empty.memory_format", (0,), dtype=self.dtype, device=self.device_type)
    dim = S.maybe_wrap_dim(dim, self.dim())
    numel = index.numel()
    if index.dim() > 1:
        raise torch_error(IndexError, "index_select(): Index is supposed to be a vector")
    check(not (self.dim() == 0 and numel != 1), RuntimeError,
          f"index_select(): Index to scalar can have only 1 value, got {numel} value(s)")
    check(index.dtype in (D.int64, D.int32), RuntimeError,
          "index_select(): Expected dtype int32 or int64 for index")
    sizes = list(self.view.sizes)
    if self.dim() > 0:
        sizes[dim] = numel
    resize_native(result, sizes)
    # TensorBase::contiguous: an operator only for a strided index
    index = index if index.is_contiguous() else call("aten::contiguous", index)
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
            with span("index_select_out_cpu_dim1_", "kernel", source=ADV,
                      note="index_select.dim1"):
                src = self if self.is_contiguous() else call("aten::contiguous", self)
                _check_indexarray_range(idx, size)
        else:
            # one slice per index: self.select(dim, 0), result.select(dim, 0), copied by
            # TensorIterator at self_i * stride(dim)
            with span("index_select slices", "kernel", source=ADV, note="index_select.rows"):
                call("aten::select.int", self, dim, 0)
                call("aten::select.int", result, dim, 0)
    with span("index_select kernel", "kernel", source=ADV,
              note="index_select.kernel", dim=dim,
              index=index) as s:
        if not self.is_meta:
            bound = size if self.dim() > 1 else self.numel()
            if ((idx < 0) | (idx >= bound)).any():
                raise torch_error(IndexError, "index out of range in self")
            values = src.array() if self.dim() else src.array().reshape(1)
            # index along dim in place (np.take would first copy all of an expanded src)
            out = values[(slice(None),) * dim + (idx,)]
            result.array(write=True)[...] = out.reshape(result.view.sizes)
        s.set_result(result)
    return result


def _gather_shape_check(self, dim: int, index, src=None, what: str = "gather") -> None:
    """gather_shape_check / scatter_shape_check (ScatterGatherChecks.h)."""
    self_dims = max(self.dim(), 1)
    index_dims = max(index.dim(), 1)
    check(index_dims == self_dims, RuntimeError,
          "Index tensor must have the same number of dimensions as "
          f"{'input' if what == 'gather' else 'self'} tensor")
    for d in range(self_dims):
        if d == dim:
            continue
        isz = index.view.sizes[d] if index.dim() else 1
        ssz = self.view.sizes[d] if self.dim() else 1
        check(isz <= ssz, RuntimeError,
              f"Size does not match at dimension {d} expected index "
              f"{S.fmt_sizes(index.view.sizes)} to be no larger than self "
              f"{S.fmt_sizes(self.view.sizes)} apart from dimension {dim}")
    if src is not None and src.dim():
        for d in range(self_dims):
            check((index.view.sizes[d] if index.dim() else 1) <= src.view.sizes[d], RuntimeError,
                  f"Expected index {S.fmt_sizes(index.view.sizes)} to be no larger than src "
                  f"{S.fmt_sizes(src.view.sizes)} apart from dimension {dim}")


def _index_values(self, dim: int, index) -> np.ndarray:
    values = index.array().astype(np.int64)
    size = self.view.sizes[dim] if self.dim() else 1
    bad = (values < -size) | (values >= size)
    if bad.any():
        first = int(values[bad].reshape(-1)[0])
        raise torch_error(RuntimeError, f"index {first} is out of bounds for dimension {dim} "
                                        f"with size {size}")
    return np.where(values < 0, values + size, values)


@declare("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
         variants="method, function", kind=FUNCTIONAL,
         native="at::native::gather_out (structured)", source=ADV)
def gather(self, dim: int, index, *, sparse_grad: bool = False):
    dim = S.maybe_wrap_dim(dim, self.dim())
    check(index.dtype in (D.int64, D.int32), RuntimeError,
          "gather(): Expected dtype int32/int64 for index")
    if index.numel():
        _gather_shape_check(self, dim, index)
    out = memory.empty_generic(index.view.sizes, self.dtype, self.device_type)
    call("aten::to.dtype", index, D.int64)
    with span("gather_kernel", "kernel", source="aten/src/ATen/native/cpu/ScatterGatherKernel.cpp",
              note="gather.kernel", dim=dim) as s:
        if not self.is_meta and index.numel():
            values = _index_values(self, dim, index)
            out.array(write=True)[...] = self.array()[_coords(index.view.sizes, dim, values)]
        s.set_result(out)
    return out


def _scatter_into(self, dim: int, index, src, reduce_add: bool) -> None:
    call("aten::to.dtype", index, D.int64)
    with span("scatter_kernel", "kernel", source="aten/src/ATen/native/cpu/ScatterGatherKernel.cpp",
              note="scatter_add.kernel" if reduce_add else "scatter.kernel", dim=dim) as s:
        if not self.is_meta and index.numel():
            values = _index_values(self, dim, index)
            coords = _coords(index.view.sizes, dim, values)
            if isinstance(src, (int, float, bool)):
                vals = np.broadcast_to(np.asarray(src).astype(self.dtype.np), index.view.sizes)
            else:
                vals = src.array()[tuple(slice(0, n) for n in index.view.sizes)]
            arr = self.array(write=True)
            if reduce_add:
                np.add.at(arr, coords, vals)
            else:
                arr[coords] = vals
        s.set_result(self)


def _scatter_checks(self, dim: int, index, src) -> int:
    dim = S.maybe_wrap_dim(dim, self.dim())
    check(index.dtype is D.int64, RuntimeError,
          "scatter(): Expected dtype int64 for index")
    if not isinstance(src, (int, float, bool)):
        check(src.dtype is self.dtype, RuntimeError,
              "scatter(): Expected self.dtype to be equal to src.dtype")
    if index.numel():
        _gather_shape_check(self, dim, index, None if isinstance(src, (int, float, bool))
                            else src, what="scatter")
    return dim


@declare("scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
         variants="method", kind=INPLACE, native="at::native::scatter_ (structured)",
         source=ADV)
@declare("scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
         variants="method", kind=INPLACE, native="at::native::scatter_ (structured)",
         source=ADV)
def scatter_(self, dim: int, index, src):
    dim = _scatter_checks(self, dim, index, src)
    _scatter_overlap("scatter_", self, index, src)
    _scatter_into(self, dim, index, src, reduce_add=False)
    return self


def _scatter_overlap(what: str, self, index, src) -> None:
    """scatter_meta_impl, when the output is given (the in-place forms): it must not
    overlap itself, the index or the source."""
    others = [index] + ([] if isinstance(src, (int, float, bool)) else [src])
    overlap.check(what, self, full=others)


def _scatter_out_of_place(self, dim: int, index, src, reduce_add: bool):
    """scatter / scatter_add: a fresh output (structured set_output), self copied in."""
    dim = _scatter_checks(self, dim, index, src)
    out = memory.empty_generic(self.view.sizes, self.dtype, self.device_type)
    call("aten::copy_", out, self)
    _scatter_into(out, dim, index, src, reduce_add=reduce_add)
    return out


@declare("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
         variants="function, method", kind=FUNCTIONAL,
         native="at::native::scatter (structured)", source=ADV)
@declare("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
         variants="function, method", kind=FUNCTIONAL,
         native="at::native::scatter (structured)", source=ADV)
def scatter(self, dim: int, index, src):
    return _scatter_out_of_place(self, dim, index, src, reduce_add=False)


@declare("scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
         variants="method", kind=INPLACE, native="at::native::scatter_add_ (structured)",
         source=ADV)
def scatter_add_(self, dim: int, index, src):
    dim = _scatter_checks(self, dim, index, src)
    _scatter_overlap("scatter_add_", self, index, src)
    _scatter_into(self, dim, index, src, reduce_add=True)
    return self


@declare("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
         variants="function, method", kind=FUNCTIONAL,
         native="at::native::scatter_add (structured)", source=ADV)
def scatter_add(self, dim: int, index, src):
    return _scatter_out_of_place(self, dim, index, src, reduce_add=True)


@declare("take(Tensor self, Tensor index) -> Tensor", variants="method, function",
         kind=FUNCTIONAL, native="at::native::take", source=ADV)
def take(self, index):
    check(index.dtype is D.int64, RuntimeError,
          f"take(): Expected a long tensor for index, but got {D.cpp_name(index.dtype)}")
    out = call("aten::empty.memory_format", index.view.sizes, dtype=self.dtype, device=self.device_type)
    with span("take_kernel", "kernel", source="aten/src/ATen/native/cpu/IndexKernel.cpp",
              note="take.kernel"
              ) as s:
        if not self.is_meta and index.numel():
            n = self.numel()
            idx = index.array().astype(np.int64)
            bad = (idx < -n) | (idx >= n)
            if bad.any():
                first = int(idx[bad].reshape(-1)[0])
                raise torch_error(IndexError, f"out of range: tried to access index {first} on "
                                              f"a tensor of {n} elements.")
            flat = self.array().reshape(-1)
            out.array(write=True)[...] = flat[np.where(idx < 0, idx + n, idx)]
        s.set_result(out)
    return out


@declare("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
         variants="function, method", kind=FUNCTIONAL, native="at::native::masked_fill",
         source=ADV)
def masked_fill(self, mask, value):
    # the result has the broadcast shape of mask and self; the fill reads the mask as given
    _, expanded = expand_outplace(mask, self)
    out = call("aten::clone", expanded, memory_format="contiguous_format")
    return call("aten::masked_fill_.Scalar", out, mask, value)


@declare("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
         variants="function, method", kind=FUNCTIONAL, native="at::native::masked_fill",
         source=ADV)
def masked_fill_tensor(self, mask, value):
    _, expanded = expand_outplace(mask, self)
    out = call("aten::clone", expanded, memory_format="contiguous_format")
    return call("aten::masked_fill_.Tensor", out, mask, value)


@declare("where(Tensor condition) -> Tensor[]", kind=COMPOSITE, native="at::native::where",
         source=ADV)
def where(condition):
    return call("aten::nonzero_numpy", condition)


@declare("nonzero_numpy(Tensor self) -> Tensor[]", variants="method, function", kind=COMPOSITE,
         native="at::native::nonzero_numpy", source=ADV)
def nonzero_numpy(self):
    nz = call("aten::nonzero", self)
    return call("aten::unbind.int", nz, 1)


@declare("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", variants="function, method",
         kind=VIEW, native="at::native::unbind",
         source="aten/src/ATen/native/TensorShape.cpp")
def unbind(self, dim: int = 0):
    dim = S.maybe_wrap_dim(dim, self.dim())
    return tuple(call("aten::select.int", self, dim, i) for i in range(self.view.sizes[dim]))


@declare("masked_select(Tensor self, Tensor mask) -> Tensor", variants="method, function",
         kind=FUNCTIONAL, native="at::native::masked_select_cpu",
          source=ADV)
def masked_select(self, mask):
    result = call("aten::empty.memory_format", (0,), dtype=self.dtype, device=self.device_type)
    check(mask.dtype is D.bool, RuntimeError, "masked_select: expected BoolTensor for mask")
    m, src = expand_outplace(mask, self)
    shape = src.view.sizes
    numel = call("aten::item", call("aten::sum", m))
    resize_native(result, (numel,))
    if numel == 0:
        return result
    call("aten::as_strided", result, shape, (0,) * len(shape), None)
    serial = self.numel() < 32768 and src.is_contiguous() and m.is_contiguous()
    if not serial:
        with span("masked_select: prefix sum", "kernel", source=ADV,
                  note="masked_select.prefix_sum"):
            mask_long = call("aten::empty.memory_format", shape, dtype=D.int64, device=self.device_type)
            call("aten::copy_", mask_long, m)
            call("aten::empty.memory_format", shape, dtype=D.int64, device=self.device_type)
    with span("masked_select_kernel", "kernel", source="aten/src/ATen/native/cpu/IndexKernel.cpp",
              note="masked_select.kernel", serial=serial) as s:
        if not self.is_meta:
            result.array(write=True)[...] = src.array()[m.array()]
        s.set_result(result)
    return result


# -- overloads torch binds in Python that tidx does not model -----------------------------
not_modelled("scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> "
             "Tensor",
             "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, "
             "str reduce) -> Tensor",
             variants="function, method", reason="scatter(..., reduce=) is not modelled yet")
not_modelled("scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, "
             "str reduce) -> Tensor(a!)",
             "scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, "
             "str reduce) -> Tensor(a!)",
             variants="method", kind=INPLACE, reason="scatter_(..., reduce=) is not modelled yet")
not_modelled("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
             variants="function, method",
             reason="torch.where(condition, x, y) is not modelled yet; torch.where(condition) "
                    "is")
not_modelled("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor",
             variants="function, method", kind=COMPOSITE,
             reason="torch.where(condition, x, y) is not modelled yet; torch.where(condition) "
                    "is")
not_modelled("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor",
             "where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor",
             kind=COMPOSITE,
             reason="torch.where(condition, x, y) is not modelled yet; torch.where(condition) "
                    "is")
not_modelled(
    "gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) "
    "-> Tensor(a!)",
    "index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
    "take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
    "masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)",
    "scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, "
    "Tensor(a!) out) -> Tensor(a!)",
    "scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, "
    "Tensor(a!) out) -> Tensor(a!)",
    "scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    "where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> "
    "Tensor(a!)",
    kind=OUT, reason=OUT_NOT_MODELLED)
