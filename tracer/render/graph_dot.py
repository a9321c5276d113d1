"""The autograd graph (:class:`tracer.graph.Graph`) on the Graphviz sequence diagram's
canvas: the terminal's tree (:func:`tracer.render.graph.rows`, the same model) as pinned
lines of text under a statement's storage pictures -- a node's name in bold, a level
of indentation per edge walked, what it saved in grey, and a saved tensor an in-place
write changed since in red (the backward pass will refuse it).  Plain pinned labels, as
:mod:`tracer.render.storage_dot` draws, so the in-process WebAssembly Graphviz renders it
too."""

from __future__ import annotations

from tracer import i18n
from tracer.graph import Graph
from tracer.render import pinned as P
from tracer.render.graph import rows
from tracer.render.storage_dot import Pen

TITLE_PT, LINE_PT = 18, 16
LINE_H = P.LEADING * LINE_PT + 6
TITLE_H = 32
INDENT = 3                    # characters a level
#: each part's ink by its style in the terminal's drawing
INK = {"bold": "#1f4fbf", "cyan": "#00707c", "dim": "#707070", "bold red": "#c62828",
       "": "#333333"}


def _lines(graph: Graph, width: float, lang: str) -> list[tuple[int, list[tuple[str, str]]]]:
    """The drawing's lines: (indent in characters, parts), a row's parts wrapped onto
    more lines (indented further) where they would pass ``width``."""
    room = width / P.width("x", LINE_PT)
    out: list[tuple[int, list[tuple[str, str]]]] = []
    for row in rows(graph, lang):
        indent = INDENT * row.depth
        line: list[tuple[str, str]] = []
        used = indent
        for text, style in row.parts:
            if line and used + P.columns(text) > room:
                out.append((indent, line))
                indent = INDENT * row.depth + 2 * INDENT
                text, line, used = text.lstrip(), [], indent
            line.append((text, style))
            used += P.columns(text)
        out.append((indent, line))
    return out


def height(graph: Graph | None, width: float, lang: str = "en") -> float:
    """The height in points :func:`draw` takes (0 without a graph)."""
    if graph is None:
        return 0.0
    return TITLE_H + LINE_H * len(_lines(graph, width, lang))


def draw(pen: Pen, graph: Graph, left: float, top: float, width: float,
         lang: str = "en") -> float:
    """Draw the graph from (left, top) within ``width``; returns the bottom."""
    y = top - TITLE_H / 2
    pen.text(left, y, i18n.text("ui.graph.title", lang), TITLE_PT, "#333333", bold=True)
    y -= TITLE_H / 2
    for indent, parts in _lines(graph, width, lang):
        y -= LINE_H / 2
        x = left + P.width(" " * indent, LINE_PT)
        for text, style in parts:
            # (leading spaces as room: a label's own may be dropped)
            x += P.width(text[:len(text) - len(text.lstrip(" "))], LINE_PT)
            if text.strip():
                x = pen.text(x, y, text.lstrip(" "), LINE_PT, INK.get(style, INK[""]),
                             bold=style.startswith("bold"))
        y -= LINE_H / 2
    return y
