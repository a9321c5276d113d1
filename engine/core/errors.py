"""PyTorch's errors, raised with PyTorch's classes and messages.

PyTorch raises built-in classes (``IndexError``, ``RuntimeError`` ...) from C++
``TORCH_CHECK`` macros (c10/util/Exception.h).  tidx raises the same classes,
marked so the evaluator can tell a PyTorch error (exit 1, shown in the trace)
from a refusal of tidx's own (exit 2) or a bug in tidx.
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """Input tidx will not run: unsupported syntax, a name outside the allow-list,
    a statement above the memory limit.  Never a PyTorch error."""


def torch_error(cls: type[BaseException], message: str) -> BaseException:
    """Build a PyTorch-raised exception (same class and message as torch)."""
    exc = cls(message)
    exc._tidx_torch = True  # type: ignore[attr-defined]
    return exc


def as_torch_error(exc: BaseException) -> BaseException:
    """Mark an exception Python itself raised as the statement's own (``print('\\ud800')``
    fails to encode in real Python too)."""
    exc._tidx_torch = True  # type: ignore[attr-defined]
    return exc


def is_torch_error(exc: BaseException) -> bool:
    return bool(getattr(exc, "_tidx_torch", False))


def check(cond: bool, cls: type[BaseException], message: str) -> None:
    """TORCH_CHECK / TORCH_CHECK_INDEX / TORCH_CHECK_VALUE."""
    if not cond:
        raise torch_error(cls, message)


def tp_name(obj: Any) -> str:
    """``Py_TYPE(obj)->tp_name``, as PyTorch's and Python's messages name a type: torch's
    name for the engine's classes (their ``__tp_name__``: ``Tensor``, ``torch.dtype``,
    ``torch.Size``...), the type's own for the rest (``list``, ``numpy.float64``).

    >>> import numpy as np
    >>> tp_name([1]), tp_name(None), tp_name(np.float64(1)), tp_name(float)
    ('list', 'NoneType', 'numpy.float64', 'type')
    """
    cls = type(obj)
    name = cls.__dict__.get("__tp_name__")
    if name is not None:
        return name
    if cls.__flags__ & (1 << 9):          # Py_TPFLAGS_HEAPTYPE: tp_name is the bare name
        return cls.__name__
    module = cls.__module__               # a static type: tp_name is "module.name"
    return cls.__name__ if module == "builtins" else f"{module}.{cls.__name__}"


def unknown_name(owner: str, attr: str, known: Any, what: str) -> str:
    """One line for a name tidx does not run: the closest names it does (a typo is the
    common case), and how many it has, not the whole list of hundreds."""
    import difflib      # here: only a misspelt name needs it (~4 ms of a cold start)
    close = difflib.get_close_matches(attr, sorted(known), n=3, cutoff=0.75)
    hint = f"did you mean {' or '.join(f'{owner}.{c}' for c in close)}? " if close else ""
    return f"{owner}.{attr} is not available in tidx ({hint}tidx runs {len(known)} {what})"
