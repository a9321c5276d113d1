"""How ``repr(tensor)`` prints a tensor, ported to numpy.

This module mirrors ``torch/_tensor_str.py`` of PyTorch 2.13
(https://github.com/pytorch/pytorch/blob/v2.13.0/torch/_tensor_str.py) for
dense, strided, real tensors on the ``cpu`` and ``meta`` devices, with the
default print options.  Function names follow the original (``_Formatter``,
``_vector_str``, ``_tensor_str``, ``get_summarized_data``, ``_str_intern``) so
the two can be read side by side.

Like torch, only the summarized part of a big tensor (the first and last
``edgeitems`` entries along each dimension) is ever converted to Python
scalars and formatted.

>>> import numpy as np
>>> format_tensor(np.array([1.0, 2.5], dtype=np.float32), "float32", (2,))
'tensor([1.0000, 2.5000])'
>>> format_tensor(None, "int64", (3, 4), device="meta")
"tensor(..., device='meta', size=(3, 4), dtype=torch.int64)"
"""

from __future__ import annotations

import math
from typing import Any, Iterator

import numpy as np

from engine.core.context import current
from engine.memory.allocator import check_limit

# torch's default print options (``PRINT_OPTS`` after ``profile="default"``).
PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80

#: Dtypes ``_str_intern`` treats as "default" for non-empty tensors besides the run's
#: default float dtype (``torch.get_default_dtype()``, read when printing: it is per-run
#: state, see engine.core.context); complex ones are not supported.
_ALSO_DEFAULT = frozenset({"int64", "bool"})
_FLOATING = frozenset({"float16", "float32", "float64"})


def shown_elements(shape: tuple[int, ...]) -> int:
    """How many elements ``repr`` formats: all of them up to ``THRESHOLD``, else the
    first and last ``EDGEITEMS`` of every longer dimension (``get_summarized_data``).

    >>> shown_elements((3, 4)), shown_elements((10**10,)), shown_elements((2,) * 22)
    (12, 6, 4194304)
    """
    if math.prod(shape) <= THRESHOLD:
        return math.prod(shape)
    return math.prod(min(n, 2 * EDGEITEMS) for n in shape)


#: At most how many characters one formatted element takes in the text (its widest
#: form, ``-1.0000e+308``-like floats or a 20-digit int, its ", " and its share of the
#: line breaks and indents), and what formatting it holds meanwhile (its Python str
#: and number, its list slot, numpy's copies of the summarized values).
CHARS_PER_ELEMENT = 32
BYTES_PER_ELEMENT = 160


def text_bound(shape: tuple[int, ...]) -> int:
    """At most how many characters ``repr`` of a tensor of ``shape`` has.

    >>> text_bound((3,)) >= len("tensor([1, 2, 3])")
    True
    """
    return 200 + shown_elements(shape) * (CHARS_PER_ELEMENT + len(shape))



def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of ``values`` (no NaN among them), sorted: ``np.unique``
    without its cost (numpy 2 imports ``numpy.ma`` on its first call, ~25 ms of a cold
    explain).

    >>> _sorted_unique(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    ordered = np.sort(values, kind="stable")
    if ordered.size < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]

class _Formatter:
    """Chooses int/sci/fixed mode and the column width from the (summarized)
    values, then pads every element to that width."""

    def __init__(self, values: np.ndarray, floating: bool) -> None:
        self.floating_dtype = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = values.reshape(-1)
        if not self.floating_dtype:
            # torch formats every element; the width only depends on the set
            # of distinct values, so deduplicate first.
            for value in _sorted_unique(flat).tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            # No valid number: keep int mode and width 1, as torch does.
            return

        # torch converts |values| to double before min/max and the ratio, so
        # float16 cannot overflow; Python floats are doubles.
        abs_vals = np.abs(nonzero_finite).astype(np.float64)
        finite_min = float(abs_vals.min())
        finite_max = float(abs_vals.max())

        # ceil is exact in every float dtype, so comparing in the tensor's own
        # dtype (as torch does) equals comparing in numpy.
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        self.sci_mode = (
            finite_max / finite_min > 1000.0
            or finite_max > 1.0e8
            or finite_min < 1.0e-4
        )

        # torch formats each value via ``Tensor.__format__`` -> ``.item()``,
        # i.e. as a Python float (the exact double of a float16/32 value).
        distinct = _sorted_unique(nonzero_finite).tolist()
        if self.sci_mode:
            widths = (len(f"{v:.{PRECISION}e}") for v in distinct)
        elif self.int_mode:
            # +1 for the trailing "." that marks a float tensor.
            widths = (len(f"{v:.0f}") + 1 for v in distinct)
        else:
            widths = (len(f"{v:.{PRECISION}f}") for v in distinct)
        self.max_width = max(self.max_width, *widths)

    def width(self) -> int:
        return self.max_width

    def format(self, value: Any) -> str:
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{PRECISION}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{PRECISION}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _vector_str(
    values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter
) -> str:
    # length includes the space and comma between elements
    element_length = formatter.width() + 2
    elements_per_line = max(1, math.floor((LINEWIDTH - indent) / element_length))

    if summarize and values.shape[0] > 2 * EDGEITEMS:
        # " ..." is a list element, so it takes a slot on the line and gets
        # joined with ", " like any value (hence ",  ..." in the output).
        data = (
            [formatter.format(v) for v in values[:EDGEITEMS].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in values[-EDGEITEMS:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in values.tolist()]

    lines = [
        ", ".join(data[i : i + elements_per_line])
        for i in range(0, len(data), elements_per_line)
    ]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_pieces(
    values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter
) -> Iterator[str]:
    """``_tensor_str_with_formatter``'s string, in pieces (one vector's line at most),
    so that a reader that needs only the beginning (:func:`format_tensor`'s ``limit``)
    stops early: a (2,) * 22 tensor is 4,194,304 elements that torch prints whole."""
    dim = values.ndim
    if dim == 0:
        yield formatter.format(values.item())
        return
    if dim == 1:
        yield _vector_str(values, indent, summarize, formatter)
        return

    size = values.shape[0]
    if summarize and size > 2 * EDGEITEMS:
        rows = list(range(EDGEITEMS)) + [None] + list(range(size - EDGEITEMS, size))
    else:
        rows = list(range(size))
    # One blank line between 3-D blocks, two between 4-D blocks, ...
    between = "," + "\n" * (dim - 1) + " " * (indent + 1)
    yield "["
    for k, i in enumerate(rows):
        if k:
            yield between
        if i is None:
            yield "..."
        else:
            yield from _tensor_pieces(values[i], indent + 1, summarize, formatter)
    yield "]"


def _tensor_str_with_formatter(
    values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter
) -> str:
    return "".join(_tensor_pieces(values, indent, summarize, formatter))


def get_summarized_data(values: np.ndarray) -> np.ndarray:
    """The elements torch looks at to pick the format of a summarized tensor.

    torch recurses, keeping the first and last ``EDGEITEMS`` rows of every
    dimension longer than ``2 * EDGEITEMS``; the choice per dimension does
    not depend on the other indices, so one ``np.ix_`` does the same (and, as
    torch, a tensor no dimension of which is cut is looked at as it is).
    """
    if values.ndim == 0 or all(n <= 2 * EDGEITEMS for n in values.shape):
        return values
    index = [
        np.r_[0:EDGEITEMS, n - EDGEITEMS : n] if n > 2 * EDGEITEMS else np.arange(n)
        for n in values.shape
    ]
    return values[np.ix_(*index)]


def _distinct(values: np.ndarray) -> np.ndarray:
    """The same elements with every dimension of stride 0 (an ``expand``) taken once:
    the formatter depends only on which values occur, and an expanded tensor of
    millions of elements holds few (torch reshapes, i.e. copies, them all)."""
    if values.ndim == 0 or 0 not in values.strides:
        return values
    return values[tuple(slice(0, 1) if s == 0 and n > 1 else slice(None)
                        for n, s in zip(values.shape, values.strides))]


def _tensor_str(values: np.ndarray, indent: int, floating: bool) -> Iterator[str]:
    if values.size == 0:
        yield "[]"
        return
    summarize = values.size > THRESHOLD
    formatter = _Formatter(
        _distinct(get_summarized_data(values) if summarize else values), floating
    )
    yield from _tensor_pieces(values, indent, summarize, formatter)


def _left_out(shape: tuple[int, ...]) -> str:
    """The line that ends a repr cut at ``format_tensor``'s ``limit``."""
    return f"... (torch.Size({list(shape)}), {math.prod(shape)} {_LEFT_OUT}"


_LEFT_OUT = "elements: the rest of its repr left out)"


def is_cut(text: str) -> bool:
    """Whether ``format_tensor`` cut this repr at its ``limit``."""
    return text.endswith(_LEFT_OUT) and text.rpartition("\n")[2].startswith("... (torch.Size(")


def _within(pieces: Iterator[str], limit: int | None) -> tuple[str, bool]:
    """The pieces joined, and True; or, past ``limit`` characters, the whole lines
    that fit in ``limit`` (the first ``limit`` characters when no line ends there),
    and False."""
    if limit is None:
        return "".join(pieces), True
    taken: list[str] = []
    length = 0
    for piece in pieces:
        taken.append(piece)
        length += len(piece)
        if length > limit:
            text = "".join(taken)
            end = text.rfind("\n", 0, limit)
            return text[:end if end > 0 else limit], False
    return "".join(taken), True


def _add_suffixes(
    tensor_str: str, suffixes: list[str], indent: int, force_newline: bool
) -> str:
    tensor_strs = [tensor_str]
    # Kept verbatim: this is the last line's length + 2 (+1 from the rfind
    # of "\n", +1 explicitly), so suffixes wrap slightly earlier than 80.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        suffix_len = len(suffix)
        if force_newline or last_line_len + suffix_len + 2 > LINEWIDTH:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
            force_newline = False
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += suffix_len + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


def format_tensor(
    values: np.ndarray | None,
    dtype_name: str,
    shape: tuple[int, ...],
    *,
    device: str = "cpu",
    requires_grad: bool = False,
    grad_fn: str | None = None,
    limit: int | None = None,
) -> str:
    """``repr()`` of a plain tensor, as PyTorch 2.13 prints it.

    ``values`` holds the elements in ``shape`` (``None`` for a meta tensor);
    ``dtype_name`` is torch's dtype name without ``torch.``.  With ``limit``, a
    repr longer than ``limit`` characters keeps its first lines (up to ``limit``
    characters) and ends with a line saying what was left out: torch summarises
    only dimensions longer than ``2 * EDGEITEMS``, so ``torch.zeros([2] * 22)``
    prints 88 MB, which a trace document keeps no more than a slide shows it.

    >>> text = format_tensor(np.zeros([2] * 22, dtype=np.float32), "float32", [2] * 22,
    ...                      limit=200)
    >>> text.splitlines()[:2]
    ['tensor([[[[[[[[[[[[[[[[[[[[[[0., 0.],', '                            [0., 0.]],']
    >>> len(text) < 400, text.splitlines()[-1][-48:]
    (True, '4194304 elements: the rest of its repr left out)')
    """
    shape = tuple(int(n) for n in shape)
    prefix = "tensor("
    indent = len(prefix)
    suffixes: list[str] = []
    dtype_suffix = f"dtype=torch.{dtype_name}"
    default = current().default_dtype.name

    # torch prints the device whenever it is not the default device (cpu).
    if device != "cpu":
        suffixes.append(f"device='{device}'")

    if device == "meta" or values is None:
        # Meta tensors have no data; unlike dense ones they show the size
        # always, and the dtype unless it is the default float dtype.
        suffixes.append(f"size={shape}")
        if dtype_name != default:
            suffixes.append(dtype_suffix)
        tensor_str = "..."
    else:
        empty = 0 in shape
        # an empty shape may be past numpy's reach ((2**62, 0)): it needs no array
        values = np.asarray(values) if empty else np.asarray(values).reshape(shape)
        if empty:
            # (0,) prints as "[]" alone, like numpy; other empty shapes carry
            # their size.  No element hints at int64, so only float32 is
            # left implicit.
            if len(shape) != 1:
                suffixes.append(f"size={shape}")
            if dtype_name != default:
                suffixes.append(dtype_suffix)
            tensor_str = "[]"
        else:
            if dtype_name != default and dtype_name not in _ALSO_DEFAULT:
                suffixes.append(dtype_suffix)
            pieces = _tensor_str(values, indent, dtype_name in _FLOATING)
            tensor_str, whole = _within(pieces, limit)
            if not whole:
                return f"{prefix}{tensor_str}\n{_left_out(shape)}"

    # _tensor_str.py: a tensor with a history names its node, a leaf says it requires grad
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")

    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=False)
