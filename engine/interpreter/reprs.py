"""What a trace document keeps of a value's repr: Python's, up to a bound.

The document holds each binding's and result's repr (``"tensor([[ 1, 10,  3], ...])"``)
for every view to print.  torch summarises a tensor of more than 1,000 elements, but
only along dimensions longer than 6: ``torch.zeros([2] * 22)`` prints all of its
4,194,304 elements, 88 MB, and a list of such tensors more.  A repr longer than
:data:`MAX_REPR` characters is kept up to there (whole lines) with a last line saying
that the rest was left out, and it is made only up to there: the elements past it are
never formatted.
"""

from __future__ import annotations

from typing import Any

from engine.binding.methods import repr_within as tensor_repr
from engine.binding.return_types import StructSeq
from engine.binding.tensor import is_tensor
from engine.binding.tensor_str import is_cut
from engine.interpreter.pyclasses import callable_repr

#: Characters of a repr a document keeps (125 lines of 80: every repr a lesson prints
#: of a tensor torch summarises, up to three dimensions of any size, is whole).
MAX_REPR = 10_000


def bounded(value: Any, limit: int = MAX_REPR) -> str:
    """``repr(value)``, or its first ``limit`` characters (whole lines) and a line
    saying the rest was left out.

    >>> bounded([1, (2,), {"a": None}])
    "[1, (2,), {'a': None}]"
    >>> text = bounded(list(range(10_000)), limit=30)
    >>> text.splitlines()
    ['[0, 1, 2, 3, 4, 5, 6, 7, 8, 9', '... (the rest of its repr left out)']
    """
    text, state = _bounded(value, limit, set())
    if state == CUT:
        return f"{text}\n... (the rest of its repr left out)"
    return text      # whole, or a tensor's own first lines and what it left out


def bounded_text(text: str, limit: int = MAX_REPR) -> str:
    """A printed line as :func:`bounded` keeps a repr: ``print(torch.zeros([2] * 22))``
    printed 88 MB into the document."""
    if len(text) <= limit:
        return text
    end = text.rfind("\n", 0, limit)
    return f"{text[:end if end > 0 else limit]}\n... (the rest of what it printed left out)"


WHOLE, CUT, SAID = "whole", "cut", "said"


def _bounded(value: Any, limit: int, active: set[int]) -> tuple[str, str]:
    """The repr up to ``limit`` characters, and :data:`WHOLE`, :data:`CUT` or
    :data:`SAID` (cut, and a tensor's repr said so).  Containers are Python's
    (``list_repr``, ``tuple_repr``, ``dict_repr``, structseq.cpp's
    ``returned_structseq_repr``), a list inside itself ``[...]`` as Python prints it."""
    if is_tensor(value):
        text = tensor_repr(value, limit)
        return text, SAID if is_cut(text) else WHOLE
    parts = _parts(value)
    if parts is None:
        # a function bound to a name (tensor = torch.tensor): Python's repr, no address
        text = callable_repr(value, is_tensor) if callable(value) else repr(value)
        return (text, WHOLE) if len(text) <= limit else (text[:limit], CUT)
    opening, items, sep, closing, recursive = parts
    if id(value) in active:
        return recursive, WHOLE
    active.add(id(value))
    try:
        out, used = [opening], len(opening)
        for k, (prefix, item) in enumerate(items):
            head = (sep if k else "") + prefix
            if used + len(head) > limit:
                return "".join(out), CUT
            text, state = _bounded(item, limit - used - len(head), active)
            out.append(head + text)
            used += len(head) + len(text)
            if state != WHOLE:
                return "".join(out), state
        out.append(closing)
        return "".join(out), WHOLE if used + len(closing) <= limit else CUT
    finally:
        active.discard(id(value))


def _parts(value: Any) -> tuple[str, list[tuple[str, Any]], str, str, str] | None:
    """How Python prints a container: opening, (prefix, item) pairs, separator,
    closing, and what it prints for the container inside itself; None for others."""
    if isinstance(value, StructSeq):
        return (f"torch.return_types.{type(value).__name__}(\n",
                [(f"{f}=", v) for f, v in zip(value._fields, value)], ",\n", ")", "(...)")
    if type(value) is list:
        return "[", [("", v) for v in value], ", ", "]", "[...]"
    if type(value) is tuple:
        return "(", [("", v) for v in value], ", ", ",)" if len(value) == 1 else ")", "(...)"
    if type(value) is dict:
        return "{", [(f"{k!r}: ", v) for k, v in value.items()], ", ", "}", "{...}"
    return None
