"""The *_scatter operators: a copy of self with src written into one view of it.

Mirrors aten/src/ATen/native/TensorShape.cpp (select_scatter, slice_scatter,
diagonal_scatter, as_strided_scatter and clone_preserve_strides).  Each is the
functional twin of a view plus copy_: the output keeps self's sizes, strides and
storage offset (Note [*_scatter ops preserve strides]), because the whole storage
under self is cloned, then the view is taken of the clone and src copied into it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import view as S
from engine.core import dtypes as D
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.declarations import META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops.overlap import MemOverlap, has_internal_overlap
from engine.ops.pointwise import resize_output

SHAPE = "aten/src/ATen/native/TensorShape.cpp"
VIEW_COPY = "aten/src/ATen/templates/CompositeViewCopyKernels.cpp"


CLONE_PRESERVE_STRIDES = step("clone_preserve_strides", Layer.KERNEL, source=SHAPE)


def clone_preserve_strides(self):
    """A clone with self's geometry: the whole storage cloned as one flat run, then
    restrided as self is.  A self with internal overlap (an expand) cannot keep its
    strides (copy_ would write one element twice): a plain clone."""
    if has_internal_overlap(self) is MemOverlap.YES:
        with span(CLONE_PRESERVE_STRIDES, note="view_scatter.clone_overlap"):
            pass
        return aten.clone.default(self)
    numel = self.storage.nbytes // self.dtype.itemsize
    v = self.view
    with span(CLONE_PRESERVE_STRIDES,
              note=Note("view_scatter.clone_storage", numel=numel), numel=numel):
        pass
    full = aten.as_strided.default(self, (numel,), (1,), 0)
    clone = aten.clone.default(full)
    return aten.as_strided.default(clone, v.sizes, v.strides, v.offset)


def _meta_refused(self, name: str) -> None:
    if self.is_meta:
        # torch registers a Python meta kernel for it (torch/_meta_registrations.py)
        raise Refused(f"{name} on the meta device runs a Python meta function "
                      "(torch/_meta_registrations.py) that tidx does not model yet")


WRITE_SRC_INTO_THE_VIEW = step("write src into the view", Layer.KERNEL, source=SHAPE,
                               note="view_scatter.copy")


def _write(output, part, src):
    """The check every *_scatter makes before it copies src into the view."""
    if part.view.sizes != src.view.sizes:
        raise torch_error(RuntimeError, f"expected src to have a size equal to the slice of "
                                        f"self. src size = {S.fmt_sizes(src.view.sizes)}, "
                                        f"slice size = {S.fmt_sizes(part.view.sizes)}")
    with span(WRITE_SRC_INTO_THE_VIEW):
        pass
    aten.copy_.default(part, src)
    return output


@declare("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor",
         variants="function, method", native="at::native::select_scatter_symint",
         source=SHAPE,
         meta=META_PYTHON)
def select_scatter(self, src, dim: int, index: int):
    _meta_refused(self, "select_scatter")
    output = clone_preserve_strides(self)
    return _write(output, aten.select.int(output, dim, index), src)


@declare("slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor",
         variants="function, method", native="at::native::slice_scatter", source=SHAPE,
         meta=META_PYTHON)
def slice_scatter(self, src, dim: int = 0, start: int | None = None, end: int | None = None,
                  step: int = 1):
    _meta_refused(self, "slice_scatter")
    output = clone_preserve_strides(self)
    return _write(output, aten.slice.Tensor(output, dim, start, end, step), src)


@declare("diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor",
         variants="function, method", native="at::native::diagonal_scatter", source=SHAPE,
         meta=META_PYTHON)
def diagonal_scatter(self, src, offset: int = 0, dim1: int = 0, dim2: int = 1):
    _meta_refused(self, "diagonal_scatter")
    output = clone_preserve_strides(self)
    return _write(output, aten.diagonal.default(output, offset, dim1, dim2), src)


@declare("as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor",
         variants="function, method", native="at::native::as_strided_scatter_symint", source=SHAPE)
def as_strided_scatter(self, src, size: Sequence[int], stride: Sequence[int],
                       storage_offset: int | None = None):
    output = clone_preserve_strides(self)
    part = aten.as_strided.default(output, tuple(size), tuple(stride), storage_offset)
    return _write(output, part, src)


# -- slice_scatter.out ---------------------------------------------------------------------
# (slice_scatter is tagged view_copy, so its autogenerated out= gets a Python binding)
@declare("slice_scatter.out(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::compositeexplicitautograd::slice_scatter_out", source=VIEW_COPY,
         meta=META_PYTHON)
def slice_scatter_out(self, src, dim: int = 0, start=None, end=None, step: int = 1, *, out):
    # the generated out= kernel: the functional op, then resize_out_helper (resize_output)
    # and copy_arg (the dtype check, copy_)
    tmp = aten.slice_scatter.default(self, src, dim, start, end, step)
    resize_output(out, tmp.view.sizes, S.contiguous_strides(tmp.view.sizes))
    check(out.dtype is tmp.dtype, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(tmp.dtype)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    return aten.copy_.default(out, tmp)
