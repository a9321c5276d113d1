"""engine/ops/stl.py's std::sort, std::partial_sort and std::nth_element, compiled.

The order an unstable sort leaves equal elements in is decided by every comparison and
move the algorithm makes, one after another: it cannot be computed by whole-array numpy
operations, and a Python loop costs a microsecond or so per step (``torch.rand(10**6)
.sort()`` took over four seconds).  ``stl.wat`` is the same libstdc++ code in
WebAssembly, which wasmtime (a dependency of tidx already, for SVG without ``dot`` and
randperm's shuffle) compiles to machine code: the same comparisons and moves, so the
same tie order, about a hundred times faster.  :mod:`engine.ops.stl` stays the readable
version; ``tests/ops/test_stl_compiled.py`` holds the two equal, and both to torch.

Each row is laid out as 64-bit elements ``key << 32 | position``: the comparator's key
(32 bits in the values' order: equal values have equal keys, and ``less`` is an unsigned
comparison of keys) and the element's position along the dim, which rides along with
every move and is what the caller reads back.  This is an implementation detail of the emulation, not a step of
torch's: traces show the kernel torch runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from engine.rng import wasm

_WAT = Path(__file__).with_name("stl.wat")

#: Elements one call lays out at most: i64 each, and every byte address (8 i) stays an
#: i32 the module's signed arithmetic on positions never overflows.
MAX_ELEMENTS = 1 << 28

#: A key and a position each take 32 bits (unsigned).
MAX_KEY = (1 << 32) - 1


def _module() -> Any | None:
    return wasm.compiled(_WAT)


def available() -> bool:
    """Whether the compiled module can run here (compiles it once per process)."""
    return _module() is not None


def _run(keys: np.ndarray, width: int, call: str, *args: int) -> np.ndarray:
    """Lay out ``keys`` (rows of n keys below 2^32) as packed elements, run the export
    ``call`` and return the first ``width`` positions of each row."""
    rows, n = keys.shape
    total = rows * n
    assert 0 < total <= MAX_ELEMENTS, "rows too large for the module"
    assert int(keys.max(initial=0)) <= MAX_KEY, "keys must fit in 32 bits"
    module = _module()
    assert module is not None, "check available() first"
    store, exports = wasm.instance(module)
    try:
        memory = wasm.grow_to(store, exports["memory"], 8 * total)
        packed = memory[:8 * total].view(np.uint64).reshape(rows, n)
        np.left_shift(keys.astype(np.uint64, copy=False), np.uint64(32), out=packed)
        np.bitwise_or(packed, np.arange(n, dtype=np.uint64), out=packed)
        exports[call](store, *args)
        out = np.empty((rows, width), dtype=np.int64)
        np.bitwise_and(packed[:, :width], np.uint64(MAX_KEY), out=out.view(np.uint64))
        return out
    finally:
        store.close()


def sort_rows(keys: np.ndarray) -> np.ndarray:
    """``std::sort`` of each row by key: the positions in the order it leaves them.

    >>> sort_rows(np.array([[1, 0] * 10])).tolist()[0][:4]     # not 0, 2, 4, 6
    [1, 19, 17, 15]
    """
    rows, n = keys.shape
    return _run(keys, n, "sort_rows", rows, n)


def sort_depth(keys: np.ndarray, depth: int) -> np.ndarray:
    """``std::sort`` of one row with the introsort's depth limit given (the heapsort
    fallback reached at will, for the tests)."""
    n = keys.shape[-1]
    return _run(keys.reshape(1, n), n, "sort_depth", 0, n, depth)[0]


def topk_rows(keys: np.ndarray, k: int, partial: bool, sorted_: bool) -> np.ndarray:
    """topk_impl_loop's queue, each row: the first ``k`` positions ``std::partial_sort``
    (``partial``) or ``std::nth_element`` and, when ``sorted_``, ``std::sort`` of the
    first k - 1 leave (k >= 1)."""
    rows, n = keys.shape
    return _run(keys, k, "topk_rows", rows, n, k, int(partial), int(sorted_))
