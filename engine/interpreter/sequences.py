"""Python's two sequence operators as statements use them: ``[1] * k`` and ``prefix +
[3]`` (lists, tuples and torch.Size), bounded and in the run's memory budget."""

from __future__ import annotations

from typing import Any

from engine.core.context import current
from engine.core.device import Size
from engine.core.errors import Refused, torch_error, tp_name
from engine.interpreter import python_memory as M


#: Longest list ``[1] * n`` or ``a + b`` may build (shapes and index lists are short).
MAX_SEQUENCE = 10_000


def sequence_op(op: str, left: Any, right: Any, size: type = Size) -> Any:
    """``[1] * k`` and ``prefix + [3]``, as arange_at_dim in seed 004 writes them."""
    if op == "Add":
        if isinstance(left, size) or (isinstance(right, size) and isinstance(left, tuple)):
            result = left + right       # torch.Size's own concatenation (and its errors)
        elif not isinstance(left, (list, tuple)):
            # int + tuple: the int has no __add__ for it, the tuple no __radd__
            raise torch_error(TypeError, f"unsupported operand type(s) for +: "
                                         f"'{tp_name(left)}' and '{tp_name(right)}'")
        elif type(left) is not type(right):
            raise torch_error(TypeError, f"can only concatenate {tp_name(left)} (not "
                                         f"\"{tp_name(right)}\") to {tp_name(left)}")
        else:
            current().budget.build(M.list_bytes(len(left) + len(right)),
                                   f"a {tp_name(left)} of {len(left) + len(right)} items")
            result = left + right   # type: ignore[operator]  # one type, checked above
    else:
        seq, n = (left, right) if isinstance(left, (list, tuple)) else (right, left)
        if not isinstance(n, int):      # bools are ints here, as in Python: [1] * True
            raise torch_error(TypeError, f"can't multiply sequence by non-int of type "
                                         f"'{tp_name(n)}'")
        if len(seq) * max(n, 0) > MAX_SEQUENCE:
            raise Refused(f"a list of {len(seq) * n} elements is longer than tidx builds "
                          f"({MAX_SEQUENCE})")
        current().budget.build(M.list_bytes(len(seq) * max(n, 0)),
                               f"a {tp_name(seq)} of {len(seq) * max(n, 0)} items")
        result = seq * n
    if len(result) > MAX_SEQUENCE:
        raise Refused(f"a list of {len(result)} elements is longer than tidx builds "
                      f"({MAX_SEQUENCE})")
    return result



def unpack_items(items: list[Any], n: int, star: int | None) -> list[Any]:
    """Python's UNPACK_SEQUENCE (``star`` None) or UNPACK_EX into ``n`` targets, the
    starred one at ``star`` taking a list; CPython's errors."""
    if star is None:
        if len(items) < n:
            raise torch_error(ValueError, f"not enough values to unpack (expected {n}, "
                                          f"got {len(items)})")
        if len(items) > n:
            raise torch_error(ValueError, f"too many values to unpack (expected {n})")
        return items
    if len(items) < n - 1:
        raise torch_error(ValueError, f"not enough values to unpack (expected at least "
                                      f"{n - 1}, got {len(items)})")
    tail = n - 1 - star
    return items[:star] + [items[star:len(items) - tail]] + items[len(items) - tail:]


#: The attributes a statement may assign (``x.requires_grad = True``); any other
#: attribute target is refused before anything runs (statements.py).
SETTABLE = frozenset({"requires_grad"})


def setattr_checked(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value`` for a settable attribute: a tensor's own setter (traced, with
    torch's errors); on any other value CPython's AttributeError."""
    assert name in SETTABLE, name
    if not hasattr(type(obj), name):
        raise torch_error(AttributeError, f"'{tp_name(obj)}' object has no attribute "
                                          f"'{name}'")
    setattr(obj, name, value)
