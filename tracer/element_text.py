"""How a tensor's elements print in a trace's one-line summaries: torch's formatters
(torch/_tensor_str.py's ``_Formatter``) over the values a summary recorded -- floats with
4 decimals, ``1.`` when all are whole, scientific when far from 1, one width for all; a
complex element as its real and imaginary parts, each formatted as its own column."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any


def _flat(values: Any) -> Iterator[Any]:
    if isinstance(values, list):
        for v in values:
            yield from _flat(v)
    else:
        yield values


def elements_text(values: Any, short: str) -> str:
    """Nested values as torch prints them: floats with 4 decimals (``1.`` when all are
    whole, scientific when far from 1), a common width so columns align; a complex
    element as its real and imaginary parts, each formatted as its own column is
    (torch/_tensor_str.py's two formatters).

    >>> elements_text([[1.0, 2.0], [3.0, 4.0]], "f32"), elements_text([True], "b8")
    ('[[1., 2.], [3., 4.]]', '[True]')
    >>> elements_text([1e-07, 1.0], "f32"), elements_text(["nan", 1.0], "f32")
    ('[1.0000e-07, 1.0000e+00]', '[nan, 1.]')
    >>> elements_text(["(1+2j)", "(3-1.5j)"], "c64")
    '[1.+2.0000j, 3.-1.5000j]'
    """
    if short.startswith("c"):
        numbers = [complex(v) for v in _flat(values)]
        real_fmt, real_width = _float_format([v.real for v in numbers])
        imag_fmt, imag_width = _float_format([v.imag for v in numbers])

        def element(v: Any) -> str:
            z = complex(v)
            imag = (imag_fmt(z.imag).rjust(imag_width) + "j").lstrip()
            return real_fmt(z.real).rjust(real_width) + \
                (imag if imag[0] in "+-" else "+" + imag)

        def nest_complex(v: Any) -> str:
            if isinstance(v, list):
                return "[" + ", ".join(nest_complex(x) for x in v) + "]"
            return element(v)
        return nest_complex(values)
    if not short.startswith("f"):
        fmt: Callable[[Any], str] = str
        width = max((len(fmt(v)) for v in _flat(values)), default=0)
    else:
        fmt, width = _float_format(list(_flat(values)))

    def nest(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(nest(x) for x in v) + "]"
        return fmt(v).rjust(width)
    return nest(values)


def _float_format(flat: list[Any]) -> tuple[Callable[[Any], str], int]:
    """torch's _Formatter over floats (non-finite ones as strings or floats): how each
    is written and the width of the widest finite one."""
    def spelled(v: Any) -> str | None:
        """nan and inf as torch writes them, else None."""
        if isinstance(v, str):
            return v
        return None if math.isfinite(v) else repr(float(v))
    finite = [abs(float(v)) for v in flat if spelled(v) is None]
    nonzero = [v for v in finite if v != 0]
    fmt: Callable[[Any], str]
    if all(v == int(v) for v in finite) and (not finite or max(finite) < 1e8):
        fmt = lambda v: spelled(v) or f"{float(v):.0f}."  # noqa: E731
    elif nonzero and (max(nonzero) >= 1e8 or min(nonzero) < 1e-4):
        fmt = lambda v: spelled(v) or f"{float(v):.4e}"  # noqa: E731
    else:
        fmt = lambda v: spelled(v) or f"{float(v):.4f}"  # noqa: E731
    # torch pads to the widest finite value; nan and inf keep their own width
    width = max((len(fmt(v)) for v in flat if spelled(v) is None), default=0)
    return fmt, width
