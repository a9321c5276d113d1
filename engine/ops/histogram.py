"""histc: equal-width bins between min and max, counted in the input's dtype
(aten/src/ATen/native/Histogram.cpp histogram_histc, histogram_histc_out,
histogramdd_prepare_out, histc_select_outer_bin_edges; cpu/HistogramKernel.cpp
histogramdd_out_cpu_template, histogramdd_cpu_contiguous with LINEAR_INTERPOLATION).

``histc`` makes ``hist`` (``at::empty({0})``) and the bin edges (another), reshapes the
input to ``(numel, 1)``, checks the hist's dtype and ``bins > 0``, and takes the range:
``min``/``max`` as given, or the data's ``aminmax`` read back with ``item`` when both are
equal (0 and 0 by default), widened by 1 on each side when still equal; it must be
finite and ``min < max``.  The edges are ``linspace(min, max, bins + 1)`` in the input's
dtype; then the kernel: ``hist.fill_(0)``, the input reshaped again, one histogram per
thread (``at::zeros({num_threads, bins})``), and ``at::parallel_for`` over the elements
with a grain of 200, each element counted in its thread's row:

    if (!(elt >= leftmost_edge && elt <= rightmost_edge)) skip;      // NaN too
    pos = (int64_t)((elt - leftmost_edge) * (num_bin_edges - 1) / (rightmost_edge - leftmost_edge));
    if (pos == num_bin_edges - 1) pos -= 1;                          // the last edge's bin
    hist_local[pos] += 1;

all in ``scalar_t``: float's roundings for float, c10::Half's (each operation rounded to
half, the bin count converted to half first) for half; and the count itself is a
``scalar_t`` (a float count stops at 2^24, a half one at 2048).  Last, the threads' rows
are summed into ``hist`` (``at::sum_out(hist, thread_histograms, 0)``).  tidx replays each
rounding, each thread's share and the sum, so the counts are torch's bit for bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.memory.allocator import check_temporary
from engine.memory.resize import resize_native
from engine.ops.parallel import chunks, num_threads
from engine.ops.touch import touched

HISTOGRAM = "aten/src/ATen/native/Histogram.cpp"
KERNEL = "aten/src/ATen/native/cpu/HistogramKernel.cpp"

#: HistogramKernel.cpp's HISTOGRAM_GRAIN_SIZE (divided by the input's one column)
HISTOGRAM_GRAIN_SIZE = 200

HISTOGRAMDD_CPU = step("histogramdd_cpu_contiguous", Layer.KERNEL, source=KERNEL)


def _cpp_double(value: float) -> str:
    """A double as C++'s ostream prints it (%g; a NaN with its sign, as glibc does)."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:g}"


def _outer_edges(self, min_: Any, max_: Any) -> tuple[float, float]:
    """histc_select_outer_bin_edges."""
    left, right = float(min_), float(max_)
    if left == right and self.numel() > 0:
        low, high = aten.aminmax.default(self)
        left, right = float(aten.item.default(low)), float(aten.item.default(high))
    if left == right:
        left -= 1
        right += 1
    check(not (math.isinf(left) or math.isinf(right) or math.isnan(left)
               or math.isnan(right)), RuntimeError,
          f"torch.histc: range of [{_cpp_double(left)}, {_cpp_double(right)}] is not finite")
    check(left < right, RuntimeError, "torch.histc: max must be larger than min")
    return left, right


def _bins_of(values: np.ndarray, left, right, edges: int, dtype: D.dtype) -> np.ndarray:
    """Each element's bin, -1 for one outside [left, right] (or NaN), in scalar_t."""
    t = dtype.np.type
    with np.errstate(all="ignore"):
        inside = (values >= left) & (values <= right)
        if dtype is D.float16:
            # c10::Half: each operator computes in float and rounds to half; the
            # int64_t bin count is made a Half first (operator*(Half, int64_t))
            diff = (values.astype(np.float32) - np.float32(left)).astype(t)
            scaled = (diff.astype(np.float32) * np.float32(t(edges - 1))).astype(t)
            width = (np.float32(right) - np.float32(left)).astype(t)
            ratio = (scaled.astype(np.float32) / np.float32(width)).astype(t)
        else:
            ratio = (values - left) * t(edges - 1) / (right - left)
        pos = np.where(inside, ratio, 0).astype(np.float64)
        pos = np.trunc(pos).astype(np.int64)          # static_cast<int64_t>
    pos[pos == edges - 1] -= 1                        # the rightmost bin holds its edge
    pos[~inside] = -1
    return pos


def _saturated(counts: np.ndarray, dtype: D.dtype) -> np.ndarray:
    """``hist_local[pos] += 1`` counted in scalar_t: past 2^(mantissa + 1) an added one
    rounds back (ties to even), so the count stops there."""
    limit = {D.float16: 2 ** 11, D.float32: 2 ** 24}.get(dtype)
    return np.minimum(counts, limit) if limit is not None else counts


def _kernel(hist, edges, flat) -> None:
    """histogramdd_out_cpu_template<LINEAR_INTERPOLATION> over ``flat`` (numel, 1)."""
    aten.fill_.Scalar(hist, 0)
    reshaped = aten.reshape.default(flat, [flat.view.sizes[0], 1])
    dispatched(flat.dtype)
    bins = hist.view.sizes[0]
    threads = num_threads()
    thread_histograms = aten.zeros.default([threads, bins], dtype=hist.dtype,
                                           device=hist.device_type)
    with span(HISTOGRAMDD_CPU, note="statistics.histc") as s:
        if not flat.is_meta:
            n = reshaped.view.sizes[0]
            check_temporary("histogram", n, 16)
            edge_values = edges.array()
            left, right = edge_values[0], edge_values[-1]
            pos = _bins_of(reshaped.array().reshape(-1), left, right, bins + 1, flat.dtype)
            rows = thread_histograms.array(write=True)
            # at::parallel_for(0, N, grain): on the caller's thread (tid 0) unless there
            # is more than one grain's work, else one chunk per thread
            pieces = ([(0, n)] if n <= HISTOGRAM_GRAIN_SIZE or threads <= 1
                      else chunks(n, HISTOGRAM_GRAIN_SIZE))
            for tid, (begin, end) in enumerate(pieces):
                piece = pos[begin:end]
                counts = np.bincount(piece[piece >= 0], minlength=bins)
                rows[tid] = _saturated(counts, flat.dtype).astype(rows.dtype)
            s.set(read=touched(reshaped), written=touched(thread_histograms))
        s.set_result(thread_histograms)
    aten.sum.IntList_out(thread_histograms, [0], False, out=hist)


def _histc_out(self, bins: int, min_: Any, max_: Any, hist):
    """histogram_histc_out."""
    edges = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    flat = aten.reshape.default(self, [self.numel(), 1])
    # histogramdd_prepare_out: the hist's dtype, the bin count, both resized
    check(self.dtype is hist.dtype, RuntimeError,
          "torch.histogram: input tensor and hist tensor should have the same dtype, but got "
          f"input {D.type_meta_name(self.dtype)} and hist {D.type_meta_name(hist.dtype)}")
    check(bins > 0, RuntimeError,
          f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    resize_native(edges, (bins + 1,))
    resize_native(hist, (bins,))
    left, right = _outer_edges(self, min_, max_)
    aten.linspace.out(left, right, bins + 1, out=edges)
    _kernel(hist, edges, flat)
    return hist


@declare("histc.out(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, Tensor(a!) out) "
         "-> Tensor(a!)", native="at::native::histogram_histc_out", source=HISTOGRAM,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("histogram_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def histc_out(self, bins=100, min=0, max=0, *, out):  # noqa: A002 - the schema's names
    return _histc_out(self, bins, min, max, out)


@declare("histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
         variants="method, function", native="at::native::histogram_histc", source=HISTOGRAM,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("histogram_cpu",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def histc(self, bins=100, min=0, max=0):  # noqa: A002 - the schema's names
    hist = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    return _histc_out(self, bins, min, max, hist)
