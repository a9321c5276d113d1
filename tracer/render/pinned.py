"""Text and coordinates for drawings whose every node is pinned (``neato -n``).

The sequence diagram and the storage picture place each node themselves, in points,
with plain (not HTML-like) labels: the in-process WebAssembly Graphviz, which renders
SVG when the ``dot`` program is missing, has no HTML-like labels (it is built without
an XML parser), and pinned plain nodes look the same in every Graphviz.
"""

from __future__ import annotations

import re

import graphviz

MONO = "Courier"        # fixed width: label widths are known without measuring fonts
SANS = "Helvetica"
ADVANCE = 0.63          # Courier is 0.6 em; the fonts that stand in for it measure up to 0.62
LEADING = 1.2           # Graphviz's line height, in ems


def fmt(v: float) -> str:
    """Coordinates with two decimals at most, so the DOT source is stable text."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def pos(x: float, y: float) -> str:
    return f"{fmt(x)},{fmt(y)}!"


def plain(*lines: str, left: bool = False) -> str:
    """A plain label: user text escaped, several lines (or, with ``left``, every line)
    left-justified."""
    if len(lines) == 1 and not left:
        return graphviz.escape(lines[0])
    return graphviz.nohtml("".join(graphviz.escape(line) + r"\l" for line in lines))


def text_node(left_x: float, y: float, lines: list[str], pt: float) -> dict[str, str]:
    """The attributes that pin a plain-text node's left edge at ``left_x`` (centred on
    ``y``): its width is fixed to Courier's estimate and its lines are left-justified
    in it, so the text starts at ``left_x`` whichever monospace font draws it (the
    font that stands in for Courier is often narrower than 0.6 em)."""
    w = max(width(line, pt) for line in lines)
    return {"label": plain(*lines, left=True), "width": fmt(w / 72), "fixedsize": "true",
            "height": fmt(LEADING * pt * len(lines) / 72), "pos": pos(left_x + w / 2, y)}


def width(text: str, pt: float) -> float:
    """The width in points of ``text`` in Courier at ``pt``."""
    return ADVANCE * pt * len(text)


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
    if "\n" in text:
        return [line for part in text.split("\n") for line in wrap(part, chars)]
    limit = max(int(chars), 1)
    lines: list[str] = []
    # the separators are kept inside a line (key values are two spaces apart) and
    # dropped where the line breaks
    indent = text[: len(text) - len(text.lstrip(" "))]   # a printed tensor's alignment
    line = indent
    for word, gap in _words(text):
        if line.strip() and len(line) + len(word) > limit:
            lines.append(line.rstrip())
            line = ""
        line += word + gap
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def _words(text: str):
    for m in re.finditer(r"(\S+)(\s*)", text):
        yield m.group(1), m.group(2)
    if not text.strip():
        yield "", ""
