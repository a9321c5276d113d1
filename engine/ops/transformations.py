"""Reordering the elements of a tensor: flip, fliplr, flipud, rot90
(aten/src/ATen/native/TensorTransformations.cpp).

``flip`` copies: the output is a new tensor laid out like the input (``empty_like``,
preserve format), and the kernel reads the input from the far end of every flipped
dimension with that dimension's stride negated -- the same TensorIterator trick the C++
plays on its data pointer and strides.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import view as S
from engine.core.errors import check
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops.touch import touched

TRANSFORMATIONS = "aten/src/ATen/native/TensorTransformations.cpp"


FLIP_KERNEL = step("flip_kernel", Layer.KERNEL, source="aten/src/ATen/native/cpu/IndexKernel.cpp")
FLIP_NOTHING_TO_REVERSE = step("flip: nothing to reverse", Layer.KERNEL, source=TRANSFORMATIONS,
                               note="flip.copy")


@declare("flip(Tensor self, int[] dims) -> Tensor", variants="function, method",
         native="at::native::flip", source=TRANSFORMATIONS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, takes_complex=True)
def flip(self, dims: Sequence[int]):
    flipped = S.dim_list_to_bitset(dims, self.dim())
    out = aten.empty_like.default(self, memory_format="preserve_format")
    sizes, strides = self.view.sizes, list(self.view.strides)
    # the dims with work to do: flipped, longer than one element, not broadcast
    work = [d for d in range(self.dim()) if flipped[d] and sizes[d] > 1 and strides[d] != 0]
    if not work or self.numel() <= 1:
        with span(FLIP_NOTHING_TO_REVERSE):
            pass
        return aten.copy_.default(out, self)
    # a dummy input with stride 0 on the flipped dims keeps TensorIterator from
    # coalescing them with their neighbours
    for d in work:
        strides[d] = 0
    aten.as_strided.default(self, sizes, strides, None)
    first = self.view.offset + sum((sizes[d] - 1) * self.view.strides[d] for d in work)
    with span(FLIP_KERNEL,
              note=lambda: Note("flip.kernel", start=first, dims=work),
              dims=work, start=first,
              strides=lambda: [-s if d in work else s
                               for d, s in enumerate(self.view.strides)]) as s:
        if not self.is_meta:
            out.array(write=True)[...] = np.flip(self.array(), axis=tuple(work))
            s.set(read=touched(self), written=touched(out))
        s.set_result(out)
    return out


# -- fliplr, flipud, rot90: flips under other names -----------------------------------------
@declare("fliplr(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::fliplr", source=TRANSFORMATIONS)
def fliplr(self):
    check(self.dim() >= 2, RuntimeError, "Input must be >= 2-d.")
    return aten.flip.default(self, [1])


@declare("flipud(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::flipud", source=TRANSFORMATIONS)
def flipud(self):
    check(self.dim() >= 1, RuntimeError, "Input must be >= 1-d.")
    return aten.flip.default(self, [0])


ROT90_QUARTER_TURNS = step("rot90: quarter turns", Layer.KERNEL, source=TRANSFORMATIONS)


@declare("rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", variants="function, method",
         native="at::native::rot90", source=TRANSFORMATIONS)
def rot90(self, k: int = 1, dims: Sequence[int] = (0, 1)):
    """A quarter turn is a flip of one dim and a transpose_ of the flipped copy (no second
    copy); a half turn flips both dims; a whole turn is a contiguous clone."""
    total = self.dim()
    check(len(dims) == 2, RuntimeError,
          f"expected total rotation dims == 2, but got dims = {len(dims)}")
    check(total >= 2, RuntimeError, f"expected total dims >= 2, but got total dims = {total}")
    d0, d1 = dims
    # the range is checked (maybe_wrap_dim) before the dims are compared, on their values
    # as given
    S.maybe_wrap_dim(d0, total)
    S.maybe_wrap_dim(d1, total)
    check(d0 != d1 and abs(d0 - d1) != total, RuntimeError,
          f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    # C++'s % truncates toward zero: (4 + k % 4) % 4 puts a negative k in 0..3
    turns = (4 + (k % 4 if k >= 0 else -(-k % 4))) % 4
    with span(ROT90_QUARTER_TURNS,
              note=Note("rot90.turns", k=k, turns=turns, dim0=d0, dim1=d1), turns=turns):
        pass
    if turns == 1:
        return aten.transpose_.default(aten.flip.default(self, [d1]), d0, d1)
    if turns == 2:
        return aten.flip.default(self, list(dims))
    if turns == 3:
        return aten.transpose_.default(aten.flip.default(self, [d0]), d0, d1)
    return aten.clone.default(self, memory_format="contiguous_format")


# -- roll: narrow twice, then cat (TensorTransformations.cpp roll / roll_common) ----------------
ROLL_THE_TWO_PIECES = step("roll: the two pieces", Layer.KERNEL, source=TRANSFORMATIONS)


@declare("roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor",
         variants="function, method", native="at::native::roll",
         source=TRANSFORMATIONS,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def roll(self, shifts: Sequence[int], dims: Sequence[int] = ()):
    shifts, dims = tuple(shifts), tuple(dims)
    if len(dims) != 1 or len(shifts) != 1:
        return _roll_common(self, shifts, dims)
    if self.numel() == 0:               # avoids the % 0 below
        return aten.clone.default(self, memory_format="preserve_format")
    dim = S.maybe_wrap_dim(dims[0], self.dim(), wrap_scalar=False)   # self.size(dim)
    size = self.view.sizes[dim]
    # C++'s (size - shift) % size keeps the dividend's sign and roll adds size to a
    # negative start: together, Python's modulo
    start = (size - shifts[0]) % size
    with span(ROLL_THE_TWO_PIECES,
              note=Note("roll.pieces", dim=dim, start=start, size=size),
              dim=dim, start=start):
        pass
    t0 = aten.narrow.default(self, dim, start, size - start)
    t1 = aten.narrow.default(self, dim, 0, start)
    return aten.cat.default([t0, t1], dim)


def _roll_common(self, shifts: tuple[int, ...], dims: tuple[int, ...]):
    """roll_common (TensorTransformations.h): no dims rolls the flattened tensor; several
    roll the first dim, then the rest (one aten::roll each)."""
    check(len(shifts) > 0, RuntimeError, "`shifts` required")
    if not dims and len(shifts) == 1:
        flat = self if self.is_contiguous() else aten.contiguous.default(self)
        flat = aten.view.default(flat, (self.numel(),))
        return aten.view.default(aten.roll.default(flat, shifts, (0,)), self.view.sizes)
    check(len(shifts) == len(dims), RuntimeError,
          f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    first = aten.roll.default(self, shifts[:1], dims[:1])
    return aten.roll.default(first, shifts[1:], dims[1:])
