"""A list's methods as a statement calls them: ``y.append(t[i].sum().item())``, the loops of
Tensor Puzzles and d2l that build a list and stack it.

CPython's own methods run (their results and their errors, shown as Python shows them),
bounded as every sequence a statement builds is: a list never grows past
:data:`engine.interpreter.iterables.MAX_ITEMS` items, an ``extend`` iterates its argument
the way ``list(x)`` would (a tensor through its traced ``__iter__``), and ``sort`` sorts as
``sorted`` does.  A method that changes the list marks the name it was read through as
written (:meth:`Evaluator.call`), so the run's memory budget charges the list's new size.
https://docs.python.org/3/tutorial/datastructures.html#more-on-lists
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core.errors import Refused, torch_error
from engine.interpreter.iterables import MAX_ITEMS, python_call

#: the methods that change the list they are called on
CHANGING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse",
                      "sort"})
#: the methods that only read it
READING = frozenset({"index", "count", "copy"})
METHODS = CHANGING | READING


def method(lst: list, name: str, items: Callable[[Any], list[Any]],
           sort: Callable[..., list[Any]]) -> Callable[..., Any]:
    """``lst.name`` bound, as CPython binds it; ``items`` is ``list(x)`` for extend,
    ``sort`` the builtin ``sorted``."""
    real = getattr(lst, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        if name in ("append", "insert") and len(lst) + 1 > MAX_ITEMS:
            raise Refused(f"a list longer than {MAX_ITEMS} items is more than tidx builds")
        if name == "extend" and len(args) == 1 and not kwargs:
            more = items(args[0])
            if len(lst) + len(more) > MAX_ITEMS:
                raise Refused(f"a list longer than {MAX_ITEMS} items is more than tidx builds")
            return python_call(real, more)
        if name == "sort" and not args:
            ordered = sort(lst, **kwargs)       # sorted's checks, keys and errors
            lst[:] = ordered
            return None
        try:
            return python_call(real, *args, **kwargs)
        except IndexError as exc:               # pop from an empty list
            raise torch_error(IndexError, str(exc)) from None
    call.__name__ = call.__qualname__ = name
    call.__self__ = lst                     # type: ignore[attr-defined]
    return call


def mark_changed(fn: Any, func: Any, assigned: list[str] | None) -> None:
    """After ``name.append(...)`` (and the other CHANGING methods): ``name`` was written
    into, as ``name[0] = v`` writes into it (``func`` is the call's ``ast`` callee)."""
    from engine.interpreter.statements import root_name

    if assigned is not None and isinstance(getattr(fn, "__self__", None), list) and \
            getattr(fn, "__name__", "") in CHANGING:
        root = root_name(func)
        if root is not None:
            assigned.append(root)
