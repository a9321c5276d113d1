"""libstdc++'s sorting algorithms, step for step, as torch's CPU kernels run them.

Which of two equal elements comes first is not the sort's business, but it is what a
learner sees in ``t.sort().indices``: torch's CPU sort (aten/src/ATen/native/cpu/
SortingKernel.cpp) runs ``std::sort`` (introsort: median-of-three quicksort, heapsort
past a depth limit, a final insertion sort over runs of 16) unless ``stable=True``, and
topk (aten/src/ATen/native/TopKImpl.h) runs ``std::partial_sort`` or
``std::nth_element`` then ``std::sort``.  Their tie order is fixed by the algorithm, so
it is replayed here exactly (GCC's bits/stl_algo.h and bits/stl_heap.h, which the
torch wheels are built with).

Each function sorts ``a`` (a Python list) in place between ``first`` and ``last`` with
``less(x, y)``, the comparator the C++ passes.  This is the readable replay, run on short
rows; ``stl.wat`` is the same code compiled (:mod:`engine.ops.stl_compiled`), run on long
ones, and tested to leave the same order.

>>> a = [(1, 0), (0, 1), (1, 2), (0, 3)]
>>> sort(a, 0, 4, lambda x, y: x[0] < y[0]); a
[(0, 1), (0, 3), (1, 0), (1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Less = Callable[[Any, Any], bool]

#: std::__sort's _S_threshold: runs this short are left to the final insertion sort.
THRESHOLD = 16


def lg(n: int) -> int:
    """std::__lg: floor(log2(n))."""
    return n.bit_length() - 1


def sort(a: list, first: int, last: int, less: Less) -> None:
    """std::sort (std::__sort): introsort, then the final insertion sort."""
    if first != last:
        _introsort_loop(a, first, last, lg(last - first) * 2, less)
        _final_insertion_sort(a, first, last, less)


def _introsort_loop(a: list, first: int, last: int, depth: int, less: Less) -> None:
    while last - first > THRESHOLD:
        if depth == 0:
            partial_sort(a, first, last, last, less)     # heapsort
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _move_median_to_first(a: list, result: int, x: int, y: int, z: int, less: Less) -> None:
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            pick = y
        elif less(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif less(a[x], a[z]):
        pick = x
    elif less(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: list, first: int, last: int, pivot: int, less: Less) -> int:
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _unguarded_partition_pivot(a: list, first: int, last: int, less: Less) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _unguarded_linear_insert(a: list, last: int, less: Less) -> None:
    val = a[last]
    nxt = last - 1
    while less(val, a[nxt]):
        a[last] = a[nxt]
        last, nxt = nxt, nxt - 1
    a[last] = val


def insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    """std::__insertion_sort: stable; an element less than the first moves to the front."""
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, less)


def _final_insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    if last - first > THRESHOLD:
        insertion_sort(a, first, first + THRESHOLD, less)
        for i in range(first + THRESHOLD, last):
            _unguarded_linear_insert(a, i, less)
    else:
        insertion_sort(a, first, last, less)


# -- heaps (bits/stl_heap.h) --------------------------------------------------------------

def _push_heap(a: list, first: int, hole: int, top: int, value: Any, less: Less) -> None:
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a: list, first: int, hole: int, length: int, value: Any, less: Less) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length & 1 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, less)


def _make_heap(a: list, first: int, last: int, less: Less) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a: list, first: int, last: int, result: int, less: Less) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a: list, first: int, middle: int, last: int, less: Less) -> None:
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def partial_sort(a: list, first: int, middle: int, last: int, less: Less) -> None:
    """std::partial_sort: the ``middle - first`` least elements, sorted, at the front
    (a heap select, then the heap sorted).

    >>> a = [5, 1, 4, 2, 3]; partial_sort(a, 0, 2, 5, lambda x, y: x < y); a[:2]
    [1, 2]
    """
    _heap_select(a, first, middle, last, less)
    while middle - first > 1:       # std::__sort_heap
        middle -= 1
        _pop_heap(a, first, middle, middle, less)


def nth_element(a: list, first: int, nth: int, last: int, less: Less) -> None:
    """std::nth_element (introselect): the element that belongs at ``nth`` put there,
    smaller ones before it, larger after, neither side sorted.

    >>> a = [5, 1, 4, 2, 3]; nth_element(a, 0, 2, 5, lambda x, y: x < y); a[2]
    3
    """
    if first == last or nth == last:
        return
    depth = lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    insertion_sort(a, first, last, less)
