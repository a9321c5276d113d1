"""Diagonals: the diagonal view, its copy, diag, diag_embed, diagflat and fill_diagonal_.

Mirrors aten/src/ATen/native/TensorShape.cpp (diagonal, diag_embed, diagflat, and diag:
1-D goes to diag_embed, 2-D to diagonal_copy) and Fill.cpp (fill_diagonal_).  ``diagonal`` copies nothing: it is one as_strided whose last dim
steps stride[dim1] + stride[dim2] at once; the stride arithmetic is
engine/core/diagonal.py.
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import diagonal as G
from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops.pointwise import resize_output

SHAPE = "aten/src/ATen/native/TensorShape.cpp"
FILL = "aten/src/ATen/native/Fill.cpp"
#: torchgen writes the *_copy kernels of view ops from this template
VIEW_COPY = "aten/src/ATen/templates/CompositeViewCopyKernels.cpp"


def _identical(dim1: int, dim2: int, dim1_arg: int, dim2_arg: int) -> None:
    check(dim1 != dim2, RuntimeError,
          f"diagonal dimensions cannot be identical {dim1_arg}, {dim2_arg}")


DIAGONAL_GEOMETRY = step("diagonal geometry", Layer.KERNEL, source=SHAPE)


@declare("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)",
         variants="function, method", native="at::native::diagonal", source=SHAPE)
def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1):
    ndim = self.dim()
    d1, d2 = S.maybe_wrap_dim(dim1, ndim), S.maybe_wrap_dim(dim2, ndim)
    _identical(d1, d2, dim1, dim2)
    v = self.view
    geo = G.diagonal_geometry(v.sizes, v.strides, v.offset, offset, d1, d2)
    with span(DIAGONAL_GEOMETRY,
              note=lambda: Note("diagonal.geometry", dim1=d1, dim2=d2,
                                stride1=v.strides[d1], stride2=v.strides[d2], step=geo.step,
                                size=geo.diag_size),
              dim1=d1, dim2=d2, offset=offset,
              stride=lambda: f"{v.strides[d1]} + {v.strides[d2]} = {geo.step}",
              storage_offset=lambda: _offset_arith(v, offset, d1, d2, geo)):
        pass
    return aten.as_strided.default(self, geo.sizes, geo.strides, geo.offset)


def _offset_arith(v, k: int, d1: int, d2: int, geo: G.DiagonalGeometry) -> str:
    """The storage offset's sum as the learner would write it."""
    if geo.diag_size == 0 or k == 0:
        return f"{v.offset} (unchanged)"
    if k > 0:
        return f"{v.offset} + {k} * {v.strides[d2]} = {geo.offset}"
    return f"{v.offset} + {-k} * {v.strides[d1]} = {geo.offset}"


DIAGONAL_COPY = step("diagonal_copy", Layer.KERNEL, source=VIEW_COPY, note="diagonal.copy")


@declare("diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor",
         native="at::compositeexplicitautogradnonfunctional::diagonal_copy", source=VIEW_COPY,
         meta=META_PYTHON)
def diagonal_copy(self, offset: int = 0, dim1: int = 0, dim2: int = 1):
    # the generated view_copy kernel: the view, then a contiguous clone of it
    view = aten.diagonal.default(self, offset, dim1, dim2)
    with span(DIAGONAL_COPY):
        pass
    return aten.clone.default(view, memory_format="contiguous_format")


DIAG_2_D = step("diag: 2-D", Layer.KERNEL, source=SHAPE, note="diag.copy")
DIAG_1_D = step("diag: 1-D", Layer.KERNEL, source=SHAPE, note="diag.embed")


@declare("diag(Tensor self, int diagonal=0) -> Tensor", variants="method, function",
         kind=COMPOSITE, native="at::native::diag", source=SHAPE)
def diag(self, diagonal: int = 0):
    ndim = self.dim()
    check(ndim in (1, 2), RuntimeError, f"diag(): Supports 1D or 2D tensors. Got {ndim}D")
    if ndim == 1:
        with span(DIAG_1_D):
            pass
        return aten.diag_embed.default(self, diagonal, -2, -1)
    with span(DIAG_2_D):
        pass
    return aten.diagonal_copy.default(self, diagonal, 0, 1)


DIAG_EMBED_SIZES = step("diag_embed sizes", Layer.KERNEL, source=SHAPE)


@declare("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
         variants="function, method", native="at::native::diag_embed",
         source=SHAPE,
         meta=META_PYTHON)
def diag_embed(self, offset: int = 0, dim1: int = -2, dim2: int = -1):
    if self.is_meta:
        # torch registers a Python meta kernel (torch/_refs: arange, eq, where ...)
        raise Refused("diag_embed on the meta device runs a Python decomposition "
                      "(torch/_refs) that tidx does not model yet")
    ndim = self.dim() + 1
    d1, d2 = S.maybe_wrap_dim(dim1, ndim), S.maybe_wrap_dim(dim2, ndim)
    _identical(d1, d2, dim1, dim2)
    last = S.maybe_wrap_dim(-1, self.dim())  # self.size(-1)
    sizes = G.embed_sizes(self.view.sizes, offset, d1, d2)
    with span(DIAG_EMBED_SIZES,
              note=Note("diag_embed.sizes", n=self.view.sizes[last], k=abs(offset),
                        length=sizes[d1], dim1=min(d1, d2), dim2=max(d1, d2)),
              sizes=list(sizes)):
        pass
    result = aten.zeros.default(sizes, dtype=self.dtype, device=self.device_type)
    diag_view = aten.diagonal.default(result, offset, d1, d2)
    aten.copy_.default(diag_view, self)
    return result


DIAGFLAT = step("diagflat", Layer.KERNEL, source=SHAPE, note="diagflat.flatten")


@declare("diagflat(Tensor self, int offset=0) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::diagflat", source=SHAPE)
def diagflat(self, offset: int = 0):
    # self.contiguous().view(-1).diag(offset): Tensor::contiguous skips the call when
    # self is contiguous already
    flat = self if self.is_contiguous() else aten.contiguous.default(self)
    with span(DIAGFLAT, numel=self.numel()):
        pass
    return aten.diag.default(aten.view.default(flat, (-1,)), offset)


FILL_DIAGONAL_GEOMETRY = step("fill_diagonal_ geometry", Layer.KERNEL, source=FILL)
FILL_DIAGONAL_WRAP = step("fill_diagonal_ wrap", Layer.KERNEL, source=FILL)


@declare("fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)",
         variants="method", kind=COMPOSITE, native="at::native::fill_diagonal_", source=FILL)
def fill_diagonal_(self, fill_value: Any, wrap: bool = False):
    ndim = self.dim()
    check(ndim >= 2, RuntimeError, "dimensions must larger than 1")
    sizes, strides, offset = self.view.sizes, self.view.strides, self.view.offset
    height, width = sizes[0], sizes[1]
    if ndim > 2 and any(s != height for s in sizes[1:]):
        raise torch_error(RuntimeError, "all dimensions of input must be of equal length")
    size = min(height, width)
    step = G.fill_diagonal_step(strides)
    with span(FILL_DIAGONAL_GEOMETRY,
              note=Note("fill_diagonal.geometry", size=size, step=step,
                        strides=" + ".join(str(s) for s in strides)),
              size=size, stride=step, offset=offset):
        pass
    main = aten.as_strided.default(self, (size,), (step,), offset)
    aten.fill_.Scalar(main, fill_value)
    if wrap and ndim == 2 and height > width + 1:
        wsize = G.wrap_size(self.numel(), width, size)
        woffset = offset + strides[0] * (width + 1)
        with span(FILL_DIAGONAL_WRAP,
                  note=Note("fill_diagonal.wrap", rows=width + 1, size=wsize,
                            offset=woffset),
                  size=wsize, offset=woffset):
            pass
        wrapped = aten.as_strided.default(self, (wsize,), (step,), woffset)
        aten.fill_.Scalar(wrapped, fill_value)
    return self


# -- out= forms ---------------------------------------------------------------------------
@declare("diagonal_copy.out(Tensor self, int offset=0, int dim1=0, int dim2=1, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::compositeexplicitautograd::diagonal_copy_out", source=VIEW_COPY,
         meta=META_PYTHON)
def diagonal_copy_out(self, offset: int = 0, dim1: int = 0, dim2: int = 1, *, out):
    # the generated out= kernel: the functional op, then resize_out_helper (resize_output)
    # and copy_arg (the dtype check, copy_)
    tmp = aten.diagonal_copy.default(self, offset, dim1, dim2)
    resize_output(out, tmp.view.sizes, S.contiguous_strides(tmp.view.sizes))
    check(out.dtype is tmp.dtype, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(tmp.dtype)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    return aten.copy_.default(out, tmp)


@declare("diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::diag_out", source=SHAPE)
def diag_out(self, diagonal: int = 0, *, out):
    ndim = self.dim()
    # diag_out's own check (diag's says "diag(): ...")
    check(ndim in (1, 2), RuntimeError, f"Supports 1D or 2D tensors. Got {ndim}D")
    if ndim == 1:
        # at::diag_embed_out: an autogenerated out= overload tidx does not declare
        raise Refused("torch.diag(..., out=) of a 1-D tensor (diag_embed's out=) is not "
                      "modelled yet")
    with span(DIAG_2_D):
        pass
    return aten.diagonal_copy.out(self, diagonal, 0, 1, out=out)
