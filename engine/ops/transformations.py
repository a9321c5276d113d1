"""Reordering the elements of a tensor: flip (aten/src/ATen/native/TensorTransformations.cpp).

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

from engine.core import view as S
from engine.dispatch.declarations import FUNCTIONAL, declare
from engine.dispatch.dispatcher import call
from engine.ops.touch import touched

TRANSFORMATIONS = "aten/src/ATen/native/TensorTransformations.cpp"


@declare("flip(Tensor self, int[] dims) -> Tensor", variants="function, method",
         kind=FUNCTIONAL, native="at::native::flip", source=TRANSFORMATIONS)
def flip(self, dims: Sequence[int]):
    flipped = S.dim_list_to_bitset(dims, self.dim())
    out = call("aten::empty_like", self, memory_format="preserve_format")
    sizes, strides = self.view.sizes, list(self.view.strides)
    # the dims with work to do: flipped, longer than one element, not broadcast
    work = [d for d in range(self.dim()) if flipped[d] and sizes[d] > 1 and strides[d] != 0]
    if not work or self.numel() <= 1:
        with span("flip: nothing to reverse", "kernel", source=TRANSFORMATIONS,
                  note="flip.copy"):
            pass
        return call("aten::copy_", out, self)
    # a dummy input with stride 0 on the flipped dims keeps TensorIterator from
    # coalescing them with their neighbours
    for d in work:
        strides[d] = 0
    call("aten::as_strided", self, sizes, strides, None)
    first = self.view.offset + sum((sizes[d] - 1) * self.view.strides[d] for d in work)
    with span("flip_kernel", "kernel", source="aten/src/ATen/native/cpu/IndexKernel.cpp",
              note=lambda: Note("flip.kernel", start=first, dims=work),
              dims=work, start=first,
              strides=lambda: [-s if d in work else s
                               for d, s in enumerate(self.view.strides)]) as s:
        if not self.is_meta:
            out.array(write=True)[...] = np.flip(self.array(), axis=tuple(work))
            s.set(read=touched(self), written=touched(out))
        s.set_result(out)
    return out
