"""Text from values as Python makes it: ``format(v, spec)``, ``str(v)``, ``repr(v)`` and
f-strings (``f"{x:.2f} {t!r}"``).

A tensor formats through torch's own ``Tensor.__format__`` (torch/_tensor.py): a 0-d
tensor as its number (``self.detach().item().__format__(spec)``: aten::detach and
aten::item run and are traced), any other with an empty spec as its ``str``, with a spec
torch's TypeError.  Everything else is CPython's ``format`` over the plain values a
statement holds; a function prints as Python prints it, without the address that changes
every run.  A spec's widths and precisions are bounded (``f"{x:>999999999}"`` would build
a gigabyte) and the text is asked of the run's memory budget before it is built.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from engine.core.context import current
from engine.core.errors import Refused, torch_error, tp_name
from engine.interpreter import python_memory as M
from engine.interpreter.iterables import one_argument, python_call
from engine.interpreter.pyclasses import callable_repr

#: The widest field or longest precision a format spec may ask for.
MAX_WIDTH = 10_000
_NUMBERS = re.compile(r"\d+")


class Formatter:
    """Formatting over one namespace's tensor type."""

    def __init__(self, tensor: type) -> None:
        self.tensor = tensor

    def is_tensor(self, value: Any) -> bool:
        return isinstance(value, self.tensor)

    def repr_(self, value: Any) -> str:
        if callable(value) and not self.is_tensor(value):
            return callable_repr(value, self.is_tensor)
        current().budget.build(M.text_bytes(value), "a repr")
        return repr(value)              # a tensor's repr asks the budget for itself

    def str_(self, value: Any) -> str:
        if callable(value) and not self.is_tensor(value):
            return callable_repr(value, self.is_tensor)
        current().budget.build(M.text_bytes(value), "a str")
        return str(value)

    def format(self, value: Any, spec: str) -> str:
        if not isinstance(spec, str):
            raise torch_error(TypeError, f"format() argument 2 must be str, not "
                                         f"{tp_name(spec)}")
        # by digits first: int() of a 5,000-digit run is Python's own ValueError
        widths = [int(n) if len(n.lstrip("0")) <= 6 else MAX_WIDTH + 1
                  for n in _NUMBERS.findall(spec)]
        if widths and max(widths) > MAX_WIDTH:
            raise Refused(f"a format spec asking for {max(widths)} characters is more than "
                          f"tidx builds ({MAX_WIDTH})")
        if self.is_tensor(value):
            # torch/_tensor.py Tensor.__format__
            if value.dim() == 0 and not value.is_meta:
                value = value.detach().item()
            elif spec:
                raise torch_error(TypeError, "unsupported format string passed to "
                                             "Tensor.__format__")
            else:
                return str(value)
        if callable(value):
            if spec:
                raise torch_error(TypeError, f"unsupported format string passed to "
                                             f"{tp_name(value)}.__format__")
            return callable_repr(value, self.is_tensor)
        if not isinstance(value, (bool, int, float, complex, str)) and spec:
            raise torch_error(TypeError, f"unsupported format string passed to "
                                         f"{tp_name(value)}.__format__")
        current().budget.build(M.text_bytes(value) + M.str_bytes(max(widths, default=0)),
                               "a formatted value")
        return python_call(format, value, spec)

    def builtins(self) -> dict[str, Callable[..., Any]]:
        """``format``, ``str`` and ``repr`` as statements call them."""
        def format_(*args: Any, **kwargs: Any) -> str:
            if kwargs:
                raise torch_error(TypeError, "format() takes no keyword arguments")
            if not 1 <= len(args) <= 2:
                least = "least 1 argument" if not args else "most 2 arguments"
                raise torch_error(TypeError, f"format expected at {least}, got {len(args)}")
            return self.format(args[0], args[1] if len(args) > 1 else "")

        def str_(*args: Any, **kwargs: Any) -> str:
            if kwargs or len(args) > 1:     # str(b, encoding): bytes are not modelled
                raise Refused("str() takes one argument in tidx")
            return self.str_(args[0]) if args else ""

        def repr_(*args: Any, **kwargs: Any) -> str:
            return self.repr_(one_argument("repr", args, kwargs))

        return {"format": format_, "str": str_, "repr": repr_}


def converted(formatter: Formatter, value: Any, conversion: int) -> Any:
    """An f-string field's ``!s``/``!r``/``!a`` (ast's -1 for none)."""
    if conversion == ord("s"):
        return formatter.str_(value)
    if conversion == ord("r"):
        return formatter.repr_(value)
    if conversion == ord("a"):
        # ascii(): the repr with what is not ASCII escaped as \x, \u, \U
        return formatter.repr_(value).encode("ascii", "backslashreplace").decode()
    return value
