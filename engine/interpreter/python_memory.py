"""The bytes of the Python values a statement builds, in the run's one memory budget.

The interpreter builds lists, tuples and strings for the user (``[0] * n``, a
comprehension, ``list(range(n))``, ``'%5s' % t``, ``print(...)``).  Each is estimated
*before* it is built and checked, with everything the run holds, against the run's limit
(:class:`engine.core.budget.MemoryBudget`); what a statement builds is charged until the
statement ends (:meth:`engine.core.budget.MemoryBudget.build`), then what each name
keeps is charged for as long as the name keeps it (:meth:`KeptValues.settle`).  Tensors inside values count
nothing here: their storages are charged by the storages themselves.

The sizes are CPython 3.11's on a 64-bit machine (``sys.getsizeof``): a list is 56 bytes
and 8 per slot, a tuple 40 and 8 per item, a str 49 and 1 per character (ASCII; 4 per
character at most).
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any

from engine.core.context import current
from engine.binding.tensor import Tensor
from engine.binding.tensor_str import text_bound

LIST_BYTES, TUPLE_BYTES, SLOT_BYTES = 56, 40, 8
STR_BYTES = 49
#: a Python int or float that is not a shared small one
NUMBER_BYTES = 32
#: what ``repr`` of anything else a statement can hold takes at most (a dtype, a device,
#: None, a function's name)
OTHER_TEXT = 64


def list_bytes(n: int) -> int:
    """A list of ``n`` items (a comprehension's appends over-allocate by an eighth).

    >>> list_bytes(0) == sys.getsizeof([]), list_bytes(4) >= sys.getsizeof([0] * 4)
    (True, True)
    """
    return LIST_BYTES + SLOT_BYTES * (n + n // 8)


def str_bytes(chars: int, wide: bool = False) -> int:
    """A str of ``chars`` characters, ASCII or (``wide``) up to 4 bytes each.

    >>> str_bytes(3) == sys.getsizeof("abc"), str_bytes(3, wide=True) >= sys.getsizeof("大大大")
    (True, True)
    """
    return STR_BYTES + 27 * wide + chars * (4 if wide else 1)


def items_bytes(value: Any) -> int:
    """``list(value)`` of a list, tuple, str or range: the list, and the numbers a range
    makes and the one-character strings a str splits into.

    >>> items_bytes(range(1000, 1010)) >= sys.getsizeof(list(range(1000, 1010))) + 10 * 28
    True
    """
    made = NUMBER_BYTES if isinstance(value, range) else \
        str_bytes(1) if isinstance(value, str) else 0
    return list_bytes(len(value)) + made * len(value)


def value_bytes(value: Any) -> int:
    """The memory of a value's Python objects, each counted once (``[a] * 3`` holds ``a``
    once); a tensor's storage counts in its own charge, not here.

    >>> value_bytes([0] * 10) == sys.getsizeof([0] * 10) + sys.getsizeof(0)
    True
    """
    seen: set[int] = set()
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if id(v) in seen or v is None or isinstance(v, (bool, Tensor)):
            continue
        seen.add(id(v))
        if isinstance(v, (list, tuple)):
            total += sys.getsizeof(v)
            stack.extend(v)
        elif isinstance(v, (int, float, str)):
            total += sys.getsizeof(v)
    return total


def text_bytes(*values: Any) -> int:
    """An upper bound of the memory of the text ``print(*values)`` (or ``repr`` of one
    value) builds, without building it.  Each object's bound is worked out once, however
    often it repeats (``[a] * 10000`` prints ``a`` 10000 times, but is walked once).

    >>> v = [1, "ab", (2.5, None)]
    >>> text_bytes(v) >= sys.getsizeof(repr(v)), text_bytes("大") >= sys.getsizeof(repr("大"))
    (True, True)
    """
    memo: dict[int, int] = {}
    wide: list[bool] = []
    chars = sum(_text(v, memo, set(), wide) + 1 for v in values)
    return str_bytes(chars, bool(wide))


def _text(v: Any, memo: dict[int, int], open_: set[int], wide: list[bool]) -> int:
    """At most how many characters ``repr(v)`` has (``wide`` gets an entry when they
    may need more than one byte each)."""
    key = id(v)
    if key in memo:
        return memo[key]
    if key in open_:                    # a list that holds itself prints as [...]
        return 5
    if isinstance(v, str):
        if not v.isascii():
            wide.append(True)
        # its quotes, and \x.. for each character that does not print
        n = len(v) + 2 if v.isascii() and v.isprintable() else 4 * len(v) + 2
    elif isinstance(v, bool) or v is None:
        n = 5
    elif isinstance(v, int):
        n = int(v.bit_length() * math.log10(2)) + 3
    elif isinstance(v, float):
        n = 24
    elif isinstance(v, Tensor):
        n = text_bound(v._impl.view.sizes)
    elif isinstance(v, (list, tuple)):
        open_.add(key)
        n = 2 + sum(_text(item, memo, open_, wide) + 2 for item in v) + 16  # torch.Size()
        open_.discard(key)
    else:
        n = OTHER_TEXT
    memo[key] = n
    return n


#: printf-style conversions: ``%[(key)][flags][width][.precision][length]type``
_SPEC = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?([a-zA-Z%])")


def format_bytes(fmt: str, args: Any) -> int:
    """An upper bound of the memory of ``fmt % args``: each conversion takes its width or
    precision, or the text of its argument (a float's ``%f`` has up to 309 digits).

    >>> format_bytes("%3000000000s", 1) > 3_000_000_000
    True
    """
    items = list(args) if isinstance(args, tuple) else [args]
    chars = len(fmt)
    for i, spec in enumerate(_SPEC.finditer(fmt)):
        width, precision, kind = spec.groups()
        if kind == "%":
            continue
        arg = items[i] if i < len(items) else None
        own = _text(arg, {}, set(), []) if kind in "sra" else 330
        chars += max(int(width) if width and width != "*" else 0,
                     int(precision) if precision and precision != "*" else 0) + own
    wide = not fmt.isascii() or any(isinstance(a, str) and not a.isascii() for a in items)
    return str_bytes(chars, wide)


def check_shown(shown: list[tuple[str, Any]]) -> None:
    """A statement's result and the values it bound are shown as their ``repr`` (the
    document's ``repr``): ask the budget for a list's, tuple's or string's text before
    it is built.  A tensor's repr asks for itself when it is made
    (engine/binding/tensor_str.py)."""
    for name, value in shown:
        if isinstance(value, (list, tuple, str)):
            current().budget.check(text_bytes(value), f"showing {name} as text")


def clip(text: str, n: int = 20) -> str:
    """A user's string in a refusal: quoted, and cut if long.

    >>> clip("%3000000000s"), clip("x" * 30)
    ("'%3000000000s'", "'xxxxxxxxxxxxxxxxxxxx...'")
    """
    return repr(text if len(text) <= n else text[:n] + "...")


class KeptValues:
    """What each name of one evaluator keeps in Python values, charged to the run's
    budget for as long as the name keeps it."""

    def __init__(self) -> None:
        self.kept: dict[str, int] = {}

    def settle(self, names: dict[str, Any], assigned: list[str]) -> None:
        """A statement ended: what it built goes back, and each name it assigned is
        charged for what it keeps now (a name rebound to a tensor keeps no Python bytes;
        ``a[0] = [0] * 100`` grows ``a``'s).  The values exist already, counted in the
        statement's scratch until now: nothing new is taken, so nothing is checked."""
        budget = current().budget
        budget.end_statement()
        for name in dict.fromkeys(assigned):
            now = value_bytes(names[name]) if name in names else 0
            budget.charge(now - self.kept.get(name, 0))
            if now:
                self.kept[name] = now
            else:
                self.kept.pop(name, None)
