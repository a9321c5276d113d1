"""New shapes over the same elements: unflatten, ravel, view_as, view(dtype), expand_as,
broadcast_to and broadcast_tensors (aten/src/ATen/native/TensorShape.cpp,
aten/src/ATen/ExpandUtils.cpp).

All but view(dtype) are CompositeImplicitAutograd: they work out a shape and call view,
expand, reshape or unsqueeze, whose stride arithmetic is shown there; view(dtype)
rescales the geometry itself (engine/core/shape_math.py) and builds the new TensorImpl
directly, as view_dtype does.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, StepSpec, step

from engine.core import dtypes as D
from engine.core import shape_math as M
from engine.core import view as S
from engine.core.errors import Refused, check, is_torch_error, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.core.view import View
from engine.dispatch.declarations import COMPOSITE, declare
from engine.dispatch.aten import aten

SHAPE = "aten/src/ATen/native/TensorShape.cpp"
EXPAND_UTILS = "aten/src/ATen/ExpandUtils.cpp"


def _step(spec: StepSpec, note, source: str | None = None, **args):
    return span(spec, source=source, note=note, **args)


# -- unflatten, ravel, view_as -------------------------------------------------------------
UNFLATTEN_THE_NEW_SHAPE = step("unflatten: the new shape", Layer.KERNEL, source=SHAPE)


@declare("unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::unflatten_symint",
         source=SHAPE)
def unflatten(self, dim: int, sizes: Sequence[int]):
    """unflatten_impl: dim's size is split into ``sizes`` (one -1 inferred), then view."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    check(len(sizes) > 0, RuntimeError, "unflatten: sizes must be non-empty")
    if self.dim() == 0:
        # sym_size(dim) of a 0-dim tensor throws inside unflatten's try
        raise Refused(_UNEXPECTED)
    size = self.view.sizes[dim]
    try:
        inferred = S.infer_size(tuple(sizes), size)
    except RuntimeError as exc:
        if not is_torch_error(exc):
            raise
        # handle_unflatten_exception: only infer_size's "is invalid for input of size"
        # gets a message of its own; any other carries torch's C++ backtrace
        if "is invalid for input of size" not in str(exc):
            raise Refused(_UNEXPECTED) from None
        raise torch_error(RuntimeError, f"unflatten: Provided sizes {S.fmt_sizes(sizes)} don't "
                                        f"multiply up to the size of dim {dim} ({size}) in the "
                                        f"input tensor") from None
    shape = list(self.view.sizes[:dim]) + list(inferred) + list(self.view.sizes[dim + 1:])
    with _step(UNFLATTEN_THE_NEW_SHAPE, Note("reshaping.unflatten", dim=dim, size=size,
                                                  sizes=list(inferred)), shape=shape):
        pass
    return aten.view.default(self, shape)


_UNEXPECTED = ("unflatten: torch's message for this error ('unflatten got an unexpected "
               "error') carries a C++ backtrace, which tidx cannot reproduce")


RAVEL = step("ravel", Layer.KERNEL, source=SHAPE)


@declare("ravel(Tensor(a) self) -> Tensor(a)", variants="function, method", kind=COMPOSITE,
         native="at::native::ravel", source=SHAPE)
def ravel(self):
    """``self.contiguous().view(-1)``: a copy only when self is not contiguous
    (TensorBase::contiguous returns self without dispatching otherwise)."""
    contiguous = self if self.is_contiguous() else \
        aten.contiguous.default(self, memory_format="contiguous_format")
    with _step(RAVEL, "reshaping.ravel" if contiguous is self else "reshaping.ravel_copy"):
        pass
    return aten.view.default(contiguous, (-1,))


@declare("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", variants="method",
         kind=COMPOSITE, native="at::native::view_as", source=SHAPE)
def view_as(self, other):
    return aten.view.default(self, other.view.sizes)


VIEW_DTYPE_GEOMETRY = step("view_dtype geometry", Layer.KERNEL, source=SHAPE)


@declare("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", variants="method",
         native="at::native::view_dtype", source=SHAPE)
def view_dtype(self, dtype):
    """The same bytes read as another dtype.  Same element size: the same geometry.
    Otherwise the last dim must be the contiguous one, and it holds ratio times more (or
    fewer) elements; every other stride and the offset scale by the ratio."""
    if self.dtype is dtype:
        # view_dtype returns self; ADInplaceOrView's as_view makes it a new tensor
        # (a shallow copy) all the same
        return self.with_view(self.view)
    old, new = self.dtype.itemsize, dtype.itemsize
    what = f"to view {D.cpp_name(self.dtype)} as {D.cpp_name(dtype)} (different element sizes)"
    v, n = self.view, self.dim()
    if old == new:
        geometry = (list(v.sizes), list(v.strides), v.offset)
    else:
        check(n != 0, RuntimeError, f"self.dim() cannot be 0 {what}")
        if old < new:
            # upsizing: the last size and the offset first, then (in
            # compute_strides_for_view_dtype_upsize) the strides
            ratio = new // old
            check(v.sizes[-1] % ratio == 0, RuntimeError,
                  f"self.size(-1) must be divisible by {ratio} {what}, but got {v.sizes[-1]}")
            check(v.offset % ratio == 0, RuntimeError,
                  f"self.storage_offset() must be divisible by {ratio} {what}, but got "
                  f"{v.offset}")
        check(v.strides[-1] == 1, RuntimeError,
              f"self.stride(-1) must be 1 {what}, but got {v.strides[-1]}")
        if old < new:
            for d in range(n - 1):
                check(v.strides[d] % ratio == 0, RuntimeError,
                      f"self.stride({d}) must be divisible by {ratio} {what}, but got "
                      f"{v.strides[d]}")
        geometry = M.view_dtype_geometry(v.sizes, v.strides, v.offset, old, new)
    sizes, strides, offset = geometry
    with _step(VIEW_DTYPE_GEOMETRY,
               Note("reshaping.view_dtype", old=old, new=new, dtype=dtype.name),
               sizes=sizes, strides=strides, offset=offset):
        # a TensorImpl made directly on self's storage (with self's key set): no
        # as_strided call
        result = TensorImpl(self.storage, View(sizes, strides, offset), dtype)
        result.is_inference = self.is_inference
        return result


# -- broadcasting -----------------------------------------------------------------------------
@declare("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", variants="method",
         kind=COMPOSITE, native="at::native::expand_as", source=SHAPE)
def expand_as(self, other):
    return aten.expand.default(self, other.view.sizes)


@declare("broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)",
         variants="function, method", kind=COMPOSITE, native="at::native::broadcast_to_symint",
         source=SHAPE)
def broadcast_to(self, size: Sequence[int]):
    return aten.expand.default(self, tuple(size))


INFER_SIZE_THE_COMMON_SHAPE = step("infer_size: the common shape", Layer.KERNEL, source=SHAPE)


@declare("broadcast_tensors(Tensor[] tensors) -> Tensor[]", kind=COMPOSITE,
         native="at::native::broadcast_tensors", source=SHAPE)
def broadcast_tensors(tensors):
    """expand_outplace(TensorList) (ExpandUtils.h): the shape all of them broadcast to,
    pairwise left to right; a tensor already of that shape is returned as it is."""
    if not tensors:
        return ()
    shape = tensors[0].view.sizes
    for t in tensors[1:]:
        merged = S.broadcast_shapes(shape, t.view.sizes)
        if merged is None:
            raise S.broadcast_error(shape, t.view.sizes)
        shape = merged
    with _step(INFER_SIZE_THE_COMMON_SHAPE, Note("reshaping.broadcast", shape=list(shape)),
               source=EXPAND_UTILS, shape=list(shape)):
        pass
    return tuple(t if t.view.sizes == shape else aten.expand.default(t, shape)
                 for t in tensors)
