"""Python's builtins over iterables: ``max``, ``min``, ``sum``, ``sorted``, ``zip``,
``enumerate``, and ``round``.

Each takes the items first, bounded (at most :data:`MAX_ITEMS`, in the run's memory
budget; a tensor's items through its own ``__iter__``, i.e. ``unbind``, traced), and then
lets CPython's own builtin do the work over them: its comparisons are the items' own
special methods (two tensors compare through ``Tensor.__gt__`` and the truth of that,
``Tensor.__bool__``, traced, with torch's "Boolean value of Tensor with more than one
value is ambiguous" where it applies), its errors its own words.  A TypeError CPython
raises itself (``max(1, 'a')``) becomes the statement's error (exit 1, as under real
PyTorch); one raised deeper, inside tidx, stays an internal error.
"""

from __future__ import annotations

import builtins as py
from typing import Any, Callable

import numpy as np

from engine.binding.ndarray import NDArray
from engine.core.context import current
from engine.core.errors import Refused, is_torch_error, torch_error, tp_name
from engine.interpreter import python_memory as M
from engine.interpreter.pyclasses import Enumerate, OneShot, Zip

#: The most items these builtins take from one iterable (as ``list(...)`` builds).
MAX_ITEMS = 10_000
NAMES = ("max", "min", "sum", "sorted", "zip", "enumerate", "round")


def items_of(x: Any, tensor: Any, size: Any) -> list[Any] | None:
    """The items ``iter(x)`` gives, bounded; None when ``x`` is not iterable."""
    if isinstance(x, OneShot):
        return x.take()
    if isinstance(x, tensor):
        return list(iter(x))        # Tensor.__iter__: unbind(0), traced; 0-d: torch's error
    if isinstance(x, (NDArray, np.ndarray)):    # numpy's rows (tidx's, or numpy's own
        if not x.shape:                         # under --verify)
            raise torch_error(TypeError, "iteration over a 0-d array")
        if len(x) > MAX_ITEMS:
            raise Refused(f"iterating over {len(x)} items is more than tidx does "
                          f"({MAX_ITEMS})")
        current().budget.build(M.list_bytes(len(x)), f"the {len(x)} rows of an array")
        return list(x)
    if not isinstance(x, (list, tuple, range, size, str)):
        return None
    if len(x) > MAX_ITEMS:
        raise Refused(f"iterating over {len(x)} items is more than tidx does ({MAX_ITEMS})")
    current().budget.build(M.items_bytes(x), f"the {len(x)} items of a {tp_name(x)}")
    return list(x)


def python_call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """CPython's builtin; the errors it raises itself are the statement's."""
    try:
        return fn(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        tb = exc.__traceback__
        if is_torch_error(exc) or tb is None or tb.tb_next is not None:
            raise
        raise torch_error(type(exc), str(exc)) from None


def one_argument(name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
    """The one argument of a builtin CPython declares METH_O (len, abs, id, repr), with
    the TypeErrors its call machinery raises otherwise."""
    if kwargs:
        raise torch_error(TypeError, f"{name}() takes no keyword arguments")
    if len(args) != 1:
        raise torch_error(TypeError, f"{name}() takes exactly one argument ({len(args)} "
                                     f"given)")
    return args[0]


def only_keywords(name: str, kwargs: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """A keyword a builtin does not take: CPython's TypeError for the first one."""
    for k in kwargs:
        if k not in allowed:
            raise torch_error(TypeError, f"'{k}' is an invalid keyword argument for {name}()")


def make(tensor: type, size: type, address: Callable[[Any], int]) -> dict[str, Callable]:
    def items(x: Any) -> list[Any]:
        got = items_of(x, tensor, size)
        if got is None:
            raise torch_error(TypeError, f"'{tp_name(x)}' object is not iterable")
        return got

    def extreme(name: str) -> Callable[..., Any]:
        """bltinmodule.c's min_max: one argument is an iterable, more are the items."""
        def pick(*args: Any, **kwargs: Any) -> Any:
            only_keywords(name, kwargs, ("key", "default"))
            if not args:
                raise torch_error(TypeError, f"{name} expected at least 1 argument, got 0")
            if len(args) > 1 and "default" in kwargs:
                raise torch_error(TypeError, f"Cannot specify a default for {name}() with "
                                             f"multiple positional arguments")
            values = items(args[0]) if len(args) == 1 else list(args)
            return python_call(getattr(py, name), values, **kwargs)
        return pick

    def sum_(*args: Any, **kwargs: Any) -> Any:
        only_keywords("sum", kwargs, ("start",))
        if not args:
            raise torch_error(TypeError, "sum() takes at least 1 positional argument (0 "
                                         "given)")
        if len(args) + len(kwargs) > 2:
            raise torch_error(TypeError, f"sum() takes at most 2 arguments "
                                         f"({len(args) + len(kwargs)} given)")
        values = items(args[0])
        start = args[1] if len(args) > 1 else kwargs.get("start", 0)
        if any(isinstance(v, (list, tuple)) for v in [start, *values]):
            # sum(lists, []) concatenates: bounded like [1] * n
            total = sum(len(v) for v in [start, *values] if isinstance(v, (list, tuple)))
            if total > MAX_ITEMS:
                raise Refused(f"a sum of sequences {total} items long is longer than tidx "
                              f"builds ({MAX_ITEMS})")
            current().budget.build(M.list_bytes(total) * max(len(values), 1),
                                   "a sum of sequences")
        return python_call(py.sum, values, start)

    def sorted_(*args: Any, **kwargs: Any) -> list[Any]:
        if len(args) != 1:
            raise torch_error(TypeError, f"sorted expected 1 argument, got {len(args)}")
        only_keywords("sort", kwargs, ("key", "reverse"))
        return python_call(py.sorted, items(args[0]), **kwargs)

    def zip_(*args: Any, **kwargs: Any) -> Zip:
        only_keywords("zip", kwargs, ("strict",))
        columns = []
        for a in args:
            columns.append(items(a))
        rows = python_call(list, py.zip(*columns, **kwargs))    # strict=True: its error
        current().budget.build(M.list_bytes(len(rows)) * (1 + len(columns)), "zip(...)")
        z = Zip(rows, 0)
        z.address = address(z)
        return z

    def enumerate_(*args: Any, **kwargs: Any) -> Enumerate:
        if len(args) + len(kwargs) > 2 or "iterable" in kwargs and args:
            raise torch_error(TypeError, f"enumerate() takes at most 2 arguments "
                                         f"({len(args) + len(kwargs)} given)")
        only_keywords("enumerate", kwargs, ("iterable", "start"))
        if not args and "iterable" not in kwargs:
            raise torch_error(TypeError, "enumerate() missing required argument 'iterable'")
        source = args[0] if args else kwargs["iterable"]
        start = args[1] if len(args) > 1 else kwargs.get("start", 0)
        if not isinstance(start, int):
            raise torch_error(TypeError, f"'{tp_name(start)}' object cannot be interpreted "
                                         f"as an integer")
        rows = list(py.enumerate(items(source), start))
        current().budget.build(M.list_bytes(len(rows)) * 3, "enumerate(...)")
        e = Enumerate(rows, 0)
        e.address = address(e)
        return e

    def round_(*args: Any, **kwargs: Any) -> Any:
        if len(args) + len(kwargs) > 2:
            raise torch_error(TypeError, f"round() takes at most 2 arguments "
                                         f"({len(args) + len(kwargs)} given)")
        only_keywords("round", kwargs, ("ndigits",))
        if not args:
            raise torch_error(TypeError, "round() missing required argument 'number' "
                                         "(pos 1)")
        x = args[0]
        digits = args[1:] or ([kwargs["ndigits"]] if "ndigits" in kwargs else [])
        if isinstance(x, (bool, int, float)):
            if digits and isinstance(digits[0], int) and isinstance(x, int) and \
                    digits[0] < -400:
                digits = [-400]     # the same 0, without a 10**huge CPython would build
            return python_call(py.round, x, *digits)
        # torch.Tensor defines no __round__ (torch/_tensor.py), so CPython says so
        raise torch_error(TypeError, f"type {tp_name(x)} doesn't define __round__ method")

    return {"max": extreme("max"), "min": extreme("min"), "sum": sum_, "sorted": sorted_,
            "zip": zip_, "enumerate": enumerate_, "round": round_}
