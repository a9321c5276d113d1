"""Inputs that drive libstdc++'s introsort and introselect to their depth limit.

McIlroy's adversary ("A Killer Adversary for Quicksort", 1999) runs the algorithm on
items whose values are decided as it compares them: every item starts as "gas" (above
every decided value); when two gas items meet, one is frozen to the next decided
value, the one that looks like the pivot.  Quicksort then keeps splitting off a few
items per partition, so introsort reaches its depth limit and falls back to heapsort
(``std::__partial_sort``), introselect to ``std::__heap_select``.

The adversary stops there: the items still gas all become one value above the rest.
No comparison made so far compared two of them, so the real algorithm on these values
takes the same steps up to the fallback and then heapsorts a run full of ties, whose
order only an exact replay of the heap gets right.
"""

from __future__ import annotations

from engine.ops import stl


class _Fallback(Exception):
    pass


def killer(n: int, select_k: int | None = None) -> list[int]:
    """Values of length ``n`` on which ``std::sort`` (or ``std::nth_element`` with
    nth = ``select_k``) reaches its depth limit with a run of ties still unsorted."""
    gas = n
    val = [gas] * n
    solid = 0
    candidate = 0

    def less(x: int, y: int) -> bool:
        nonlocal solid, candidate
        if val[x] == gas and val[y] == gas:
            val[x if x == candidate else y] = solid
            solid += 1
        if val[x] == gas:
            candidate = x
        elif val[y] == gas:
            candidate = y
        return val[x] < val[y]

    def stop(*args: object) -> None:
        raise _Fallback

    name = "partial_sort" if select_k is None else "_heap_select"
    real = getattr(stl, name)
    setattr(stl, name, stop)
    try:
        items = list(range(n))
        if select_k is None:
            stl.sort(items, 0, n, less)
        else:
            stl.nth_element(items, 0, select_k, n, less)
    except _Fallback:
        pass
    finally:
        setattr(stl, name, real)
    return val
