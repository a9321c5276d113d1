"""View operators: new sizes/strides/offset over the same storage, no bytes copied.

Mirrors aten/src/ATen/native/TensorShape.cpp (select, slice, unsqueeze, expand,
view, reshape, alias) and as_strided_tensorimpl.  Most views end in a call to
``as_strided``, which is why torch.profiler shows ``aten::select`` with an
``aten::as_strided`` inside.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, StepSpec, inlined, part_of, step, symbol

from engine.core import dtypes as D
from engine.core import shape_math
from engine.core import view as S
from engine.core.tensor_impl import storage_out_of_bounds
from engine.core.view import View
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, VIEW, declare, not_modelled
from engine.dispatch.aten import aten
from engine.core.errors import check, torch_error

SHAPE = "aten/src/ATen/native/TensorShape.cpp"
INT64_MAX = 2**63 - 1


def _geometry(spec: StepSpec, note: Any, **args: Any) -> AbstractContextManager[Any]:
    return span(spec, note=note, **args)


SET_STRIDED = step("setStrided", Layer.MEMORY, source=SHAPE, note="as_strided.setStrided",
                   libtorch=inlined("at::native::setStrided<int64_t>",
                                    "at::native::as_strided_tensorimpl"))


def set_strided(self, size: Sequence[int], stride: Sequence[int], offset: int) -> View:
    """setStrided (aten/src/ATen/native/TensorShape.cpp), in torch 2.13's order (as the
    errors it raises show): the lengths, no negative stride, the offset,
    checkInBoundsForStorage, then set_sizes_and_strides (whose numel must not overflow).
    Returns the geometry to set."""
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    with span(SET_STRIDED, sizes=list(size), strides=list(stride), offset=offset):
        check(len(size) == len(stride), RuntimeError, "mismatch in length of strides and shape")
        check(all(s >= 0 for s in stride), RuntimeError,
              "as_strided: Negative strides are not supported at the moment, got strides: "
              + S.fmt_sizes(stride))
        # a negative offset is refused before the bounds are computed (where it would
        # wrap around as a size_t)
        check(offset >= 0, RuntimeError, f"Tensor: invalid storage offset {offset}")
        itemsize = self.dtype.itemsize
        # checkInBoundsForStorage: a view with no elements fits any storage
        if S.compute_storage_nbytes(size, stride, itemsize):
            need = S.compute_storage_nbytes(size, stride, itemsize, offset)
            if need > self.storage.nbytes:
                raise storage_out_of_bounds(size, stride, offset, itemsize, need,
                                            self.storage.nbytes)
        S.safe_compute_numel(size)
        return View(size, stride, offset)


@declare("as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
         variants="function, method", native="at::native::as_strided_tensorimpl", source=SHAPE)
def as_strided(self, size: Sequence[int], stride: Sequence[int],
               storage_offset: int | None = None):
    offset = self.view.offset if storage_offset is None else int(storage_offset)
    return self.with_view(set_strided(self, size, stride, offset))


@declare("as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)",
         variants="function, method", native="at::native::as_strided__symint", source=SHAPE, takes_complex=True)
def as_strided_(self, size: Sequence[int], stride: Sequence[int],
                storage_offset: int | None = None):
    """The same checks, on self's own geometry: the storage is never grown here."""
    offset = self.view.offset if storage_offset is None else int(storage_offset)
    self.view = set_strided(self, size, stride, offset)
    return self


def as_strided_call(self, sizes: Sequence[int], strides: Sequence[int], offset: int | None):
    """``self.as_strided(sizes, strides, offset)`` from C++ with IntArrayRefs:
    c10::fromIntArrayRefSlow checks each is a representable SymInt first."""
    S.check_symint_array(sizes)
    S.check_symint_array(strides)
    return aten.as_strided.default(self, sizes, strides, offset)


SELECT_GEOMETRY = step("select geometry", Layer.KERNEL, source=SHAPE,
                       libtorch=part_of("at::native::select_symint"))


@declare("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)",
         variants="function, method", native="at::native::select_symint",
         source=SHAPE)
def select(self, dim: int, index: int):
    ndim = self.dim()
    if ndim == 0:
        raise torch_error(IndexError, "select() cannot be applied to a 0-dim tensor.")
    dim = S.maybe_wrap_dim(dim, ndim)
    size = self.view.sizes[dim]
    if size <= -1 - index or size <= index:
        raise torch_error(IndexError, f"select(): index {index} out of range for tensor of "
                                      f"size {S.fmt_sizes(self.view.sizes)} at dimension {dim}")
    if index < 0:
        index += size
    strides = self.view.strides
    offset = self.view.offset + index * strides[dim]
    with _geometry(SELECT_GEOMETRY,
                   lambda: Note("select.geometry", dim=dim, index=index, stride=strides[dim],
                                moved=index * strides[dim]),
                   dim=dim, index=index, offset=lambda: f"{self.view.offset} + {index} * "
                                                        f"{strides[dim]} = {offset}"):
        new = self.view.select(dim, index)
    return aten.as_strided.default(self, new.sizes, new.strides, new.offset)


SLICE_GEOMETRY = step("slice geometry", Layer.KERNEL, source=SHAPE)


@declare("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)",
         variants="function, method", native="at::native::slice", source=SHAPE)
def slice_(self, dim: int = 0, start: int | None = None, end: int | None = None,
           step: int = 1):
    ndim = self.dim()
    if ndim == 0:
        raise torch_error(IndexError, "slice() cannot be applied to a 0-dim tensor.")
    dim = S.maybe_wrap_dim(dim, ndim)
    check(step > 0, RuntimeError, "slice step must be positive")
    start_val, end_val = S.slice_bounds(self.view.sizes[dim], start, end)
    length = end_val - start_val
    with _geometry(SLICE_GEOMETRY,
                   lambda: Note("slice.geometry", dim=dim, start=start_val, end=end_val,
                                length=length, step=step),
                   dim=dim, start=start_val, end=end_val, step=step):
        new = self.view.slice(dim, start_val, end_val, step)
    return as_strided_call(self, new.sizes, new.strides, new.offset)


INFER_UNSQUEEZE_GEOMETRY = step("inferUnsqueezeGeometry", Layer.KERNEL, source=SHAPE)


@declare("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", variants="function, method",
         native="at::native::unsqueeze", source=SHAPE)
def unsqueeze(self, dim: int):
    dim = S.maybe_wrap_dim(dim, self.dim() + 1)
    # inferUnsqueezeGeometry: the new dim's stride is size*stride of the dim it precedes.
    new_stride = S.unsqueeze_stride(self.view.sizes, self.view.strides, dim)
    with _geometry(INFER_UNSQUEEZE_GEOMETRY,
                   lambda: Note("unsqueeze.geometry", dim=dim, stride=new_stride), dim=dim):
        new = self.view.unsqueeze(dim)
    return aten.as_strided.default(self, new.sizes, new.strides, None)


INFER_EXPAND_GEOMETRY = step("inferExpandGeometry", Layer.KERNEL, source=SHAPE)


@declare("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
         variants="method", native="at::native::expand", source=SHAPE)
def expand(self, size: Sequence[int], *, implicit: bool = False):
    with _geometry(INFER_EXPAND_GEOMETRY, "expand.geometry", size=list(size)) as s:
        if self.dim() == 0:
            # inferExpandGeometryImpl's fast path: a 0-dim tensor takes the sizes as given
            # (a -1 included: setStrided's numel check then refuses it), all strides 0
            new = View(size, (0,) * len(size), self.view.offset)
        else:
            new = self.view.expand(size, D.tensor_to_string(self.dtype, self.device_type))
        s.set(strides=list(new.strides))
    return aten.as_strided.default(self, new.sizes, new.strides, None)


COMPUTE_STRIDE = step("computeStride", Layer.KERNEL, source=SHAPE,
                      libtorch=symbol("at::detail::computeStride"), lecture=Lecture.HIDDEN)


@declare("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", variants="method",
         native="at::native::view", source=SHAPE)
def view(self, size: Sequence[int]):
    shape = S.infer_size(tuple(size), self.numel())
    strides = S.compute_view_strides(self.view.sizes, self.view.strides, shape)
    if strides is None:
        raise torch_error(RuntimeError, "view size is not compatible with input tensor's size "
                          "and stride (at least one dimension spans across two contiguous "
                          "subspaces). Use .reshape(...) instead.")
    with _geometry(COMPUTE_STRIDE, "view.computeStride",
                   shape=list(shape), strides=list(strides)):
        # alias_with_sizes_and_strides: a TensorImpl built directly, no as_strided call
        return self.with_view(self.view.restrided(shape, strides))


RESHAPE_SYMINT = step("reshape_symint", Layer.KERNEL, source=SHAPE,
                      libtorch=part_of("at::native::reshape_symint"), lecture=Lecture.HIDDEN)


@declare("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", variants="function, method",
         kind=COMPOSITE, native="at::native::reshape_symint", source=SHAPE)
def reshape(self, shape: Sequence[int]):
    if self.is_contiguous():
        with _geometry(RESHAPE_SYMINT, "reshape.view",
                       shape=list(shape)):
            pass
        return aten.view.default(self, tuple(shape))
    target = S.infer_size(tuple(shape), self.numel())
    strides = S.compute_view_strides(self.view.sizes, self.view.strides, target)
    if strides is not None:
        with _geometry(RESHAPE_SYMINT, "reshape.alias", shape=list(target),
                       strides=list(strides)):
            pass
        return aten._reshape_alias.default(self, target, strides)
    with _geometry(RESHAPE_SYMINT, "reshape.copy", shape=list(target)):
        pass
    return aten._unsafe_view.default(
        aten.clone.default(self, memory_format="contiguous_format"), target)


@declare("reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", variants="method",
         kind=COMPOSITE, native="at::native::reshape_as", source=SHAPE)
def reshape_as(self, other):
    """``self.reshape_symint(other.sym_sizes())`` (PutBackward0's source gradient calls it)."""
    return aten.reshape.default(self, list(other.view.sizes))


@declare("_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)",
         variants="function, method", native="at::native::_reshape_alias",
         source=SHAPE)
def _reshape_alias(self, size: Sequence[int], stride: Sequence[int]):
    # alias_with_sizes_and_strides: a TensorImpl built directly, no as_strided call
    return self.with_view(self.view.restrided(size, stride))


# kind: _unsafe_view makes a view although its schema returns a plain Tensor
@declare("_unsafe_view(Tensor self, SymInt[] size) -> Tensor", kind=VIEW,
         native="at::native::_unsafe_view", source=SHAPE,
         meta=META_PYTHON)
def _unsafe_view(self, size: Sequence[int]):
    shape = S.infer_size(tuple(size), self.numel())
    strides = S.compute_view_strides(self.view.sizes, self.view.strides, shape)
    if strides is None:  # pragma: no cover - callers pass contiguous tensors
        raise torch_error(RuntimeError, "view size is not compatible")
    return self.with_view(self.view.restrided(shape, strides))


@declare("alias(Tensor(a) self) -> Tensor(a)", variants="method, function",
         native="at::native::alias", source=SHAPE)
def alias(self):
    return self.with_view(self.view)


TRANSPOSE_GEOMETRY = step("transpose geometry", Layer.KERNEL, source=SHAPE)


@declare("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
         variants="function, method", native="at::native::transpose", source=SHAPE)
def transpose(self, dim0: int, dim1: int):
    ndim = self.dim()
    dim0, dim1 = S.maybe_wrap_dim(dim0, ndim), S.maybe_wrap_dim(dim1, ndim)
    if dim0 == dim1:
        return aten.alias.default(self)
    with _geometry(TRANSPOSE_GEOMETRY,
                   lambda: Note("transpose.geometry", dim0=dim0, dim1=dim1),
                   dim0=dim0, dim1=dim1):
        new = self.view.transpose(dim0, dim1)
    return aten.as_strided.default(self, new.sizes, new.strides, None)


@declare("t(Tensor(a) self) -> Tensor(a)", variants="function, method",
         native="at::native::t", source=SHAPE)
def t(self):
    if self.dim() > 2:
        raise torch_error(RuntimeError, f"t() expects a tensor with <= 2 dimensions, but self "
                                        f"is {self.dim()}D")
    return aten.transpose.int(self, 0, 0 if self.dim() < 2 else 1)


INFER_SQUEEZE_GEOMETRY = step("inferSqueezeGeometry", Layer.KERNEL, source=SHAPE)


def _squeeze(self, dims: list[int], dim_arg):
    """inferSqueezeGeometry: drop the listed dims that have size 1."""
    sizes = self.view.sizes
    keep = [i for i in range(len(sizes)) if i not in dims or sizes[i] != 1]
    with _geometry(INFER_SQUEEZE_GEOMETRY, "squeeze.geometry",
                   dim=dim_arg):
        pass
    new = self.view.permute(keep)  # the dims of size 1 left out
    return aten.as_strided.default(self, new.sizes, new.strides, None)


@declare("squeeze(Tensor(a) self) -> Tensor(a)", variants="function, method",
         native="at::native::squeeze", source=SHAPE)
def squeeze(self):
    return _squeeze(self, list(range(self.dim())), None)


@declare("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", variants="function, method",
         native="at::native::squeeze", source=SHAPE)
def squeeze_dim(self, dim: int):
    return _squeeze(self, [S.maybe_wrap_dim(dim, self.dim())], dim)


@declare("squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", variants="function, method",
         native="at::native::squeeze", source=SHAPE)
def squeeze_dims(self, dim: Sequence[int]):
    # dim_list_to_bitset: each dim wrapped, none twice
    S.dim_list_to_bitset(dim, self.dim())
    return _squeeze(self, [S.maybe_wrap_dim(d, self.dim()) for d in dim], list(dim))


@declare("narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::narrow_symint",
         source=SHAPE)
def narrow(self, dim: int, start: int, length: int):
    if self.dim() == 0:
        raise torch_error(RuntimeError, "narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise torch_error(RuntimeError, "narrow(): length must be non-negative.")
    dim = S.maybe_wrap_dim(dim, self.dim())
    cur = self.view.sizes[dim]
    if not -cur <= start <= cur:
        raise torch_error(IndexError, f"start out of range (expected to be in range of "
                                      f"[{-cur}, {cur}], but got {start})")
    if start < 0:
        start += cur
    if start > cur - length:
        raise torch_error(RuntimeError, f"start ({start}) + length ({length}) exceeds dimension "
                                        f"size ({cur}).")
    return aten.slice.Tensor(self, dim, start, start + length, 1)


@declare("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::flatten",
         source=SHAPE)
def flatten(self, start_dim: int = 0, end_dim: int = -1):
    # a 0-dim tensor is self.reshape({1}), dispatched (torch.profiler shows aten::reshape);
    # otherwise flatten calls native::reshape directly: no aten::reshape of its own
    if self.dim() == 0:
        return aten.reshape.default(self, (1,))
    start = S.maybe_wrap_dim(start_dim, self.dim())
    end = S.maybe_wrap_dim(end_dim, self.dim())
    if start > end:
        raise torch_error(RuntimeError, "flatten() has invalid args: start_dim cannot come "
                                        "after end_dim")
    if start == end:
        return self
    n = 1
    for s in self.view.sizes[start:end + 1]:
        n *= s
    shape = list(self.view.sizes[:start]) + [n] + list(self.view.sizes[end + 1:])
    return reshape(self, shape)


@declare("permute(Tensor(a) self, int[] dims) -> Tensor(a)", variants="function, method",
         native="at::native::permute", source=SHAPE)
def permute(self, dims):
    check(len(dims) == self.dim(), RuntimeError,
          f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
          f"length of the desired ordering of dimensions i.e. input.dim() = {self.dim()} is "
          f"not equal to len(dims) = {len(dims)}")
    dims = [S.maybe_wrap_dim(d, self.dim()) for d in dims]
    check(len(set(dims)) == len(dims), RuntimeError,
          "permute(): duplicate dims are not allowed.")
    new = self.view.permute(dims)
    return aten.as_strided.default(self, new.sizes, new.strides, None)


# -- overloads torch binds in Python that tidx does not model -----------------------------
not_modelled("narrow.Tensor(Tensor(a) self, int dim, Tensor start, SymInt length) -> Tensor(a)",
             variants="function, method", kind=COMPOSITE,
             reason="narrow with a tensor start is not modelled yet")


def expand_outplace(a, b):
    """at::expand_outplace (ExpandUtils.h): both as they are when their sizes agree, else
    both expanded to infer_size of the two (its error names a and b)."""
    if a.view.sizes == b.view.sizes:
        return a, b
    shape = shape_math.infer_broadcast(a.view.sizes, b.view.sizes)
    return aten.expand.default(a, shape), aten.expand.default(b, shape)


# -- in-place views: a new geometry for self, set with as_strided_ ------------------------
@declare("unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", variants="method",
         native="at::native::unsqueeze_", source=SHAPE, meta=META_PYTHON)
def unsqueeze_(self, dim: int):
    """inferUnsqueezeGeometry, then ``self.as_strided_(sizes, strides)``."""
    new = self.view.unsqueeze(S.maybe_wrap_dim(dim, self.dim() + 1))
    return aten.as_strided_.default(self, new.sizes, new.strides, None)


def _squeeze_(self, dims: Sequence[int]):
    """inferSqueezeGeometry over ``dims`` (only their size-1 ones go), set in place; a
    squeeze that removes nothing still calls as_strided_ with self's own geometry."""
    keep = [i for i in range(self.dim()) if i not in dims or self.view.sizes[i] != 1]
    new = self.view.permute(keep)
    return aten.as_strided_.default(self, new.sizes, new.strides, None)


@declare("squeeze_(Tensor(a!) self) -> Tensor(a!)", variants="method",
         native="at::native::squeeze_", source=SHAPE)
def squeeze_(self):
    return _squeeze_(self, range(self.dim()))


@declare("squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", variants="method",
         native="at::native::squeeze_", source=SHAPE)
def squeeze__dim(self, dim: int):
    return _squeeze_(self, [S.maybe_wrap_dim(dim, self.dim())])


@declare("squeeze_.dims(Tensor(a!) self, int[] dim) -> Tensor(a!)", variants="method",
         native="at::native::squeeze_", source=SHAPE)
def squeeze__dims(self, dim: Sequence[int]):
    S.dim_list_to_bitset(dim, self.dim())
    return _squeeze_(self, [S.maybe_wrap_dim(d, self.dim()) for d in dim])
