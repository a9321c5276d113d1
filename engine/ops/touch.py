"""Which storage elements a kernel read or wrote: the cells the picture marks.

Every kernel that reads or writes tensor elements says which, on its kernel step:
``s.set(read=[...], written=[...], read_index=[...])``, each an :class:`Elements` (one
storage) or a list of them (``sort`` writes its values and its indices; ``gather``
reads ``self`` at the gathered offsets, and its index under ``read_index``: a picture
marks an index's elements but does not draw its storage for them alone).
tests/ops/test_kernel_marks.py holds every declared operator to this, against a replay of
its bytes. The trace draws them on the storage grid (``R`` read, ``W`` written) and
the replay of a statement (tracer/replay.py) takes a written element's new value from
the next summary that shows it, so a picture marks exactly the cells torch's kernel
touched (the replay's guess from values that changed is left for the few writes outside
an operator's kernel: torch.tensor's copy of the Python data).

What "read" means follows the C++ loop: a TensorIterator kernel loads every element of
every input (``where`` loads both branches), a reduction every element of its input,
an indexing kernel the index and the elements it addresses; what a kernel only keeps
(``masked_fill_``'s unmasked elements) is neither read nor written.

Bounded like every summary: the offsets are listed only for small sets (at most
:data:`MAX_TOUCHED` elements), otherwise just their count, and they are computed only
while a trace records (pass the elements as a ``lambda`` when building them costs).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: List offsets only up to this many elements.
MAX_TOUCHED = 64


def storage_offsets(sizes: tuple[int, ...], strides: tuple[int, ...], offset: int) -> np.ndarray:
    """Storage element offset of every element of a view, in row-major order.

    >>> storage_offsets((2, 2), (3, 1), 1).tolist()
    [1, 2, 4, 5]
    """
    out = np.full((1,) * len(sizes), offset, dtype=np.int64) if sizes else np.array(offset)
    for d, (size, stride) in enumerate(zip(sizes, strides)):
        shape = [1] * len(sizes)
        shape[d] = size
        out = out + (np.arange(size, dtype=np.int64) * stride).reshape(shape)
    return np.broadcast_to(out, sizes).reshape(-1)


class Elements:
    """Storage elements a kernel read or wrote, as the trace records them.  The offsets
    are computed only when recorded, and only for small sets (``offsets`` is a function
    returning them)."""

    __slots__ = ("storage", "count", "offsets")

    def __init__(self, storage, count: int, offsets) -> None:
        self.storage, self.count, self.offsets = storage, count, offsets

    def __tidx_summary__(self, max_values: int) -> dict:
        """tracer/values.py's ``elements`` shape."""
        out = {"kind": "elements", "storage_serial": self.storage.serial, "count": self.count}
        if self.count <= MAX_TOUCHED:
            out["offsets"] = sorted(set(np.asarray(self.offsets()).reshape(-1).tolist()))
        return out


def touched(t) -> Elements:
    """Every element of view ``t`` (a TensorIterator operand, a reduction's input, a
    fresh output filled whole)."""
    return Elements(t.storage, t.numel(),
                    lambda: storage_offsets(t.view.sizes, t.view.strides, t.view.offset))


def elements(storage, offsets: np.ndarray) -> Elements:
    """Elements of ``storage`` at the given element offsets."""
    return Elements(storage, int(offsets.size), lambda: offsets)


def _strides(t) -> tuple[int, ...]:
    """The strides a kernel indexes ``t`` with: a 0-dim tensor as one element along one
    dim (ensure_nonempty_vec)."""
    return tuple(t.view.strides) if t.dim() else (0,)


def at(t, coords: tuple) -> Elements:
    """The elements of view ``t`` at the multi-indices ``coords`` (one integer array per
    dim of ``t``, broadcast together, as numpy's advanced indexing takes them; a 0-dim
    ``t`` is indexed as one element along one dim): what a gather reads, a scatter
    writes."""
    shapes = [np.shape(c) for c in coords]
    count = int(np.prod(np.broadcast_shapes(*shapes))) if shapes else 1

    def offsets() -> np.ndarray:
        out = np.asarray(t.view.offset, dtype=np.int64)
        for c, stride in zip(coords, _strides(t)):
            out = out + np.asarray(c, dtype=np.int64) * stride
        return out

    return Elements(t.storage, count, offsets)


def along(t, dim: int, index: np.ndarray) -> Elements:
    """The elements of ``t`` whose index along ``dim`` is in ``index`` (every index of the
    other dims): the slices index_select reads and index_add_, index_copy_ and
    index_fill_ write."""
    sizes = tuple(t.view.sizes) or (1,)
    grids: list[Any] = [np.arange(n).reshape([-1 if d == e else 1 for e in range(len(sizes))])
                        for d, n in enumerate(sizes)]
    idx = np.asarray(index, dtype=np.int64).reshape(-1)
    grids[dim] = idx.reshape([-1 if d == dim else 1 for d in range(len(sizes))])
    return at(t, tuple(grids))


def where(t, mask: np.ndarray) -> Elements:
    """The elements of view ``t`` where ``mask`` (a bool array broadcastable to ``t``'s
    sizes) is true: what masked_fill_ writes, masked_select reads."""
    full = np.broadcast_to(np.asarray(mask, dtype=bool), t.view.sizes)
    count = int(np.count_nonzero(full))
    return Elements(t.storage, count, lambda: at(t, np.nonzero(full)).offsets()
                    if t.dim() else np.full(count, t.view.offset))


def first(t, count: int) -> Elements:
    """The first ``count`` elements of ``t`` in row-major order (an output only partly
    filled: nonzero_static's, unique's)."""
    count = max(0, min(count, t.numel()))
    return Elements(t.storage, count, lambda: at(
        t, np.unravel_index(np.arange(count), t.view.sizes)).offsets()
        if t.dim() else np.full(count, t.view.offset))
