"""Counting: bincount (aten/src/ATen/native/SummaryOps.cpp _bincount_cpu and
_bincount_cpu_template).

bincount counts each non-negative integer of a 1-d tensor into its bin; with weights it
adds each element's weight to its bin instead, one element after another in the input's
order (float weights in float, every other dtype converted to double first, so the sums
round as that loop rounds them).  The number of bins is ``max(input) + 1``, at least
``minlength``; an empty input gives ``minlength`` zero counts (int64, even with weights).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, declare
from engine.memory.allocator import check_limit
from engine.ops.touch import touched

SUMMARY = "aten/src/ATen/native/SummaryOps.cpp"

BINCOUNT_LOOP = step("_bincount_cpu_template", Layer.KERNEL, source=SUMMARY)


def _contiguous(t):
    # Tensor::contiguous(): no operator call when the tensor already is contiguous
    return t if t.view.is_contiguous else aten.contiguous.default(t)


def _read(t) -> int:
    # *t.data_ptr<input_t>(): the element read directly, no operator call
    return int(t.array()[()])


@declare("bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor",
         variants="function, method", native="at::native::_bincount_cpu", source=SUMMARY,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("bincount_cpu", "AT_DISPATCH_INTEGRAL_TYPES"))
def bincount(self, weights=None, minlength: int = 0):
    dispatched(self.dtype)
    # _bincount_cpu_template's arguments, evaluated right to left as GCC does: the
    # weights (as double unless float), then the input
    if weights is not None:
        weights = _contiguous(weights)
        if weights.dtype is not D.float32:
            weights = aten.to.dtype(weights, D.float64)
    self = _contiguous(self)
    check(minlength >= 0, RuntimeError, "minlength should be >= 0")
    if self.dim() == 1 and self.numel() == 0:
        return aten.zeros.default([minlength], dtype=D.int64)
    check(self.dim() == 1 and _read(aten.min.default(self)) >= 0, RuntimeError,
          "bincount only supports 1-d non-negative integral inputs.")
    nbins = max(_read(aten.max.default(self)) + 1, minlength)
    check(weights is None or (weights.dim() == 1 and weights.view.sizes[0] == self.view.sizes[0]),
          RuntimeError, "weights should be 1-d and have the same length as input")
    dtype = D.int64 if weights is None else weights.dtype
    check_limit(nbins * dtype.itemsize, "bincount's bins")
    output = aten.zeros.default([nbins], dtype=dtype)
    with span(BINCOUNT_LOOP, note=Note("counting.bincount", n=self.numel(), nbins=nbins,
                                       weighted=weights is not None)) as s:
        index = self.array().astype(np.int64)
        out = output.array(write=True)
        if weights is None:
            out += np.bincount(index, minlength=nbins)
        else:
            # np.add.at adds one element after another, in the input's order, as the loop does
            np.add.at(out, index, weights.array())
        s.set(read=touched(self), written=touched(output))
        s.set_result(output)
    return output
