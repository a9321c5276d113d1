"""Text and coordinates for drawings whose every node is pinned (``neato -n``), and
the Digraph every drawing is made on.

The sequence diagram and the storage picture place each node themselves, in points,
with plain (not HTML-like) labels: the in-process WebAssembly Graphviz, which renders
SVG when the ``dot`` program is missing, has no HTML-like labels (it is built without
an XML parser), and pinned plain nodes look the same in every Graphviz.

User text is data in the DOT source: :class:`Digraph` escapes every attribute value
it is given (labels, tooltips, URLs, comments), so no printed string becomes
Graphviz markup, an attribute or a link.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import graphviz

from tracer.render.visible import one_line, visible

MONO = "Courier"        # fixed width: label widths are known without measuring fonts
SANS = "Helvetica"
ADVANCE = 0.63          # Courier is 0.6 em; the fonts that stand in for it measure up to 0.62
LEADING = 1.2           # Graphviz's line height, in ems


def fmt(v: float) -> str:
    """Coordinates with two decimals at most, so the DOT source is stable text."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def pos(x: float, y: float) -> str:
    return f"{fmt(x)},{fmt(y)}!"


class Html(str):
    """An HTML-like label tidx built itself, its text escaped where it was made (the
    call tree's storage table): the one kind of value :class:`Digraph` passes to
    Graphviz as markup."""

    __slots__ = ()


class Text(str):
    """A value already written as DOT text by :func:`plain` (its ``\\l`` line ends are
    Graphviz's, its user text escaped)."""

    __slots__ = ()


def dot_text(text: str) -> str:
    r"""User text as a DOT string shows it: :func:`~tracer.render.visible.visible` on
    one line, its backslashes literal (``\N``, ``\l`` are Graphviz's escapes) and its
    ``&`` literal (Graphviz reads ``&lt;`` in a label as ``<``).

    >>> print(dot_text('a\\N & "q"\x00'))
    a\\N &amp; "q"\\x00
    """
    return visible(text, newlines=False).replace("\\", "\\\\").replace("&", "&amp;")


def plain(*lines: str, left: bool = False) -> Text:
    """A plain label: user text escaped, several lines (or, with ``left``, every line)
    left-justified."""
    if len(lines) == 1 and not left:
        return Text(dot_text(lines[0]))
    return Text("".join(dot_text(line) + r"\l" for line in lines))


#: Node names are tidx's own (``l12``, ``s0_1_n3``), never user text.
_NAME = re.compile(r"^[A-Za-z0-9_]+$")


def _value(value: str) -> str:
    """An attribute value as Graphviz must read it: an :class:`Html` label as markup,
    a :class:`Text` as written, anything else as escaped text.  (The graphviz package
    passes any str that looks like ``<...>`` raw, as an HTML-like ID: a printed
    ``<a> URL="javascript:..." tooltip=<b>`` would be attributes and a link.)"""
    if isinstance(value, Html):
        return str(value)
    if isinstance(value, Text):
        return graphviz.nohtml(str(value))
    return graphviz.nohtml(dot_text(str(value)))


class Digraph(graphviz.Digraph):
    """A :class:`graphviz.Digraph` whose every attribute value is data: escaped as
    :func:`_value` says (labels, tooltips, URLs and graph attributes alike), its
    comment on one visible line (a ``//`` comment ends at a newline), its node names
    tidx's own."""

    def __init__(self, name: str, *, comment: str | None = None, **kwargs: Any) -> None:
        super().__init__(name, comment=one_line(comment) if comment else None, **kwargs)
        #: Where each pinned node is, in points: (left, bottom, right, top, spans); a
        #: node that ``spans`` (an activation bar) may be cut between two slide pages,
        #: the others may not (tracer.render.slides reads these to place page breaks).
        self.boxes: list[tuple[float, float, float, float, bool]] = []
        #: (top, bottom) of blocks kept on one page when they fit (a storage picture).
        self.units: list[tuple[float, float]] = []
        #: Which line of ``body`` draws each pinned node (its name -> (line, box)), and
        #: each edge (line, tail, head): a slide page leaves out what it does not show.
        self.lines: dict[str, tuple[int, tuple[float, float, float, float, bool]]] = {}
        self.links: list[tuple[int, str, str]] = []
        #: Nodes each slide page after the first repeats at its top (the lifelines'
        #: titles): (name, label, x, attributes).
        self.header: list[tuple[str, str, float, dict[str, str]]] = []
        #: Where the drawing repeats those titles under its last row, if it does.
        self.footer: float | None = None

    def node(self, name: str, label: str | None = None, _attributes: Any = None, *,
             spans: bool = False, **attrs: str) -> None:
        assert _NAME.match(name) and _attributes is None, name
        if attrs.get("pos"):
            x, y = (float(v) for v in attrs["pos"].rstrip("!").split(","))
            w, h = (72 * float(attrs.get(k) or 0.01) / 2 for k in ("width", "height"))
            self.boxes.append((x - w, y - h, x + w, y + h, spans))
            self.lines[name] = (len(self.body), self.boxes[-1])
        super().node(name, None if label is None else _value(label),
                     **{k: _value(v) for k, v in attrs.items() if v is not None})

    def edge(self, tail_name: str, head_name: str, label: str | None = None,
             _attributes: Any = None, **attrs: str) -> None:
        assert _NAME.match(tail_name) and _NAME.match(head_name) and _attributes is None
        self.links.append((len(self.body), tail_name, head_name))
        super().edge(tail_name, head_name, None if label is None else _value(label),
                     **{k: _value(v) for k, v in attrs.items() if v is not None})

    def attr(self, kw: str | None = None, _attributes: Any = None, **attrs: str) -> None:
        assert _attributes is None
        super().attr(kw, **{k: _value(v) for k, v in attrs.items() if v is not None})

    def copy(self) -> "Digraph":
        new = super().copy()
        new.boxes, new.units = list(self.boxes), list(self.units)
        new.lines, new.links = dict(self.lines), list(self.links)
        new.header, new.footer = list(self.header), self.footer
        return new


def text_node(left_x: float, y: float, lines: list[str], pt: float) -> dict[str, Any]:
    """The attributes that pin a plain-text node's left edge at ``left_x`` (centred on
    ``y``): its width is fixed to Courier's estimate and its lines are left-justified
    in it, so the text starts at ``left_x`` whichever monospace font draws it (the
    font that stands in for Courier is often narrower than 0.6 em)."""
    lines = [visible(line, newlines=False) for line in lines]   # measured as drawn
    w = max(width(line, pt) for line in lines)
    return {"label": plain(*lines, left=True), "width": fmt(w / 72), "fixedsize": "true",
            "height": fmt(LEADING * pt * len(lines) / 72), "pos": pos(left_x + w / 2, y)}


def width(text: str, pt: float) -> float:
    """The width in points of ``text`` in Courier at ``pt`` (a CJK character, which a
    CJK font draws about 1 em wide, counts as two of Courier's 0.6 em columns).

    >>> width("ab", 10), width("索引", 10)
    (12.6, 25.2)
    """
    return ADVANCE * pt * columns(text)


def columns(text: str) -> int:
    """How many monospace columns ``text`` takes: two for a wide (CJK) character."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, chars: float) -> list[str]:
    """``text`` in lines of at most ``chars`` characters, broken only at spaces, so
    nothing is cut and the lines joined by spaces read as the text did; a word longer
    than a line keeps its own line whole.

    >>> wrap("dim=0  start=1  stop=9223372036854775807  step=1", 24)
    ['dim=0  start=1', 'stop=9223372036854775807', 'step=1']
    >>> wrap("short", 3)
    ['short']
    >>> wrap("tensor([[1, 2],\\n        [3, 4]])", 40)   # its own line breaks are kept
    ['tensor([[1, 2],', '        [3, 4]])']
    """
    text = visible(text)            # measured as drawn: an escape is several characters
    if "\n" in text:
        return [line for part in text.split("\n") for line in wrap(part, chars)]
    limit = max(int(chars), 1)
    lines: list[str] = []
    # the separators are kept inside a line (key values are two spaces apart) and
    # dropped where the line breaks
    indent = text[: len(text) - len(text.lstrip(" "))]   # a printed tensor's alignment
    line = indent
    for word, gap in _words(text):
        if line.strip() and columns(line) + columns(word) > limit:
            lines.append(line.rstrip())
            line = ""
        line += word + gap
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def _words(text: str):
    # a line may also break between two CJK characters (Chinese has no spaces)
    for m in re.finditer(r"(\S+)(\s*)", text):
        word, gap = m.group(1), m.group(2)
        if word.isascii():
            yield word, gap
            continue
        parts = re.findall(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef][，。；：、）」]?|"
                           r"[^\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+", word)
        for part in parts[:-1]:
            yield part, ""
        yield parts[-1], gap
    if not text.strip():
        yield "", ""
