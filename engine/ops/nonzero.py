"""nonzero: the coordinates of the non-zero elements, one row each, in row-major order
(aten/src/ATen/native/TensorAdvancedIndexing.cpp, ``nonzero_out_cpu``).

torch counts first (pass 1), then ``resize_output`` allocates ``count x ndim`` longs,
``as_strided_`` lays them out column-major (gh-46224), and pass 2 writes the
coordinates.  tidx keeps that order, so the memory limit stops a result too large
*before* any coordinate is made.  Both passes scan an expanded tensor through its
distinct elements only: a dim of stride 0 repeats what its index 0 holds, so counting
and listing cost what the storage holds, not what the view pretends to (a
``(10**6, 10**6)`` expansion of one element is counted in one step).
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory.resize import resize_native
from engine.memory.allocator import check_temporary
from engine.ops.touch import touched

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"


def compact(values: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The distinct elements: every broadcast dim (stride 0, size > 1) cut to size 1;
    and the list of those dims.  Reductions whose order does not matter (counts,
    integer sums) run over these and multiply by how often each repeats."""
    broadcast = [d for d, (n, st) in enumerate(zip(values.shape, values.strides))
                 if st == 0 and n > 1]
    index = tuple(slice(0, 1) if d in broadcast else slice(None) for d in range(values.ndim))
    return values[index], broadcast


def count_nonzero(values: np.ndarray) -> int:
    """Pass 1: how many elements are non-zero.

    >>> count_nonzero(np.broadcast_to(np.array([0, 3]), (10**9, 2)))
    1000000000
    """
    distinct, broadcast = compact(values)
    return int(np.count_nonzero(distinct)) * repeats(values, broadcast)


def repeats(values: np.ndarray, broadcast: list[int]) -> int:
    """How often each distinct element appears in the view."""
    n = 1
    for d in broadcast:
        n *= values.shape[d]
    return n


def nonzero_coords(values: np.ndarray) -> np.ndarray:
    """Pass 2: the coordinates, ``count x ndim``, in row-major order (np.argwhere's),
    built dim by dim from the prefixes that still lead to a non-zero element, so the
    work is the number of coordinates plus the distinct elements.

    >>> nonzero_coords(np.broadcast_to(np.array([[0], [5]]), (2, 3))).tolist()
    [[1, 0], [1, 1], [1, 2]]
    """
    distinct, broadcast = compact(values)
    mask = distinct != 0
    ndim = values.ndim
    if ndim == 0:
        return np.zeros((1 if mask else 0, 0), dtype=np.int64)
    # below[d]: does the sub-array at a prefix of d+1 compact indices hold a non-zero?
    below = [mask.any(axis=tuple(range(d + 1, ndim))) if d + 1 < ndim else mask
             for d in range(ndim)]
    coords = np.zeros((1, 0), dtype=np.int64)       # prefixes, in the view's indices
    compact_at = np.zeros((1, 0), dtype=np.int64)   # the same prefixes, in compact indices
    for d in range(ndim):
        n = values.shape[d]
        if d in broadcast:
            # every index along d leads where index 0 does, if index 0 leads anywhere
            zero = np.zeros(len(compact_at), dtype=np.int64)
            keep = below[d][tuple(compact_at.T) + (zero,)]
            coords, compact_at = coords[keep], compact_at[keep]
            coords = np.hstack([np.repeat(coords, n, axis=0),
                                np.tile(np.arange(n, dtype=np.int64), len(coords))[:, None]])
            compact_at = np.hstack([np.repeat(compact_at, n, axis=0),
                                    np.zeros((len(compact_at) * n, 1), dtype=np.int64)])
            continue
        hits = below[d][tuple(compact_at.T)] if d else below[d][None, :]
        rows, idx = np.nonzero(hits.reshape(len(compact_at), n))
        coords = np.hstack([coords[rows], idx[:, None].astype(np.int64)])
        compact_at = np.hstack([compact_at[rows], idx[:, None].astype(np.int64)])
    return coords


NONZERO_OUT_CPU = step("nonzero_out_cpu", Layer.KERNEL, source=ADV, note="nonzero.kernel")


@declare("nonzero(Tensor self) -> Tensor", variants="method, function",
         native="at::native::nonzero_cpu", source=ADV,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def nonzero(self):
    with span(NONZERO_OUT_CPU) as s:
        values = None if self.is_meta else self.array()
        n = 0 if values is None else count_nonzero(values)
        ndim = self.dim()
        out = aten.empty.memory_format((0,), dtype=D.int64, device=self.device_type)
        # resize_output allocates count x ndim (the memory limit is checked here), then
        # as_strided_ lays the result out column-major
        resize_native(out, (n, ndim))
        out = aten.as_strided_.default(out, (n, ndim), (1, n), None)
        if n:
            # the coordinates are built a prefix of dims at a time: the prefixes, their
            # compact twins and hstack's copies of both, each as big as the result
            check_temporary("nonzero", n, 8 * max(ndim, 1), copies=4)
            out.array(write=True)[...] = nonzero_coords(values)
        if values is not None:
            s.set(read=touched(self), written=touched(out))
        s.set_result(out)
    return out
