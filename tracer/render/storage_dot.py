"""The storage picture drawn with Graphviz: the same picture as the terminal's
(:mod:`tracer.render.storage`), for the SVG, PNG and PDF exports.

It draws the plain picture model of :func:`tracer.render.storage.collect` with
pinned nodes (one box per element, one per element a view selects) on the sequence
diagram's canvas, under the statement it belongs to: plain labels and pinned
positions, because the in-process WebAssembly Graphviz that renders SVG without the
``dot`` program has no HTML-like labels (see :mod:`tracer.render.pinned`).
"""

from __future__ import annotations

import html
import io
import itertools
from typing import Any

import graphviz
from rich.console import Console

from tracer import i18n
from tracer import values as V
from tracer.render import format as F
from tracer.render import pinned as P
from tracer.render import storage
from tracer.render.pinned import MONO

# larger than the diagram's text: the picture is what a class looks at
VALUE_PT, SMALL_PT, TITLE_PT = 14, 11, 15
CELL_H, VIEW_H = 30, 22           # an element's box, a view's box under it
TITLE_H, OFFSET_H, TEXT_H = 28, 16, 17
GAP = 8                           # between parts of a picture and between pictures
#: At most this many elements on one line of boxes; more wrap onto the next line.
PER_LINE = 16
FILL = {"written": ("#c62828", "white"), "read": ("#b2ebf2", "#004d55")}
VIEW_FILL, VIEW_INK = "#e8eefc", "#1f4fbf"
GRID = "#8a8a8a"


def _cell(v: Any) -> str:
    """An element as torch prints it (1.5410, True), or ``·`` when the trace has no value
    for it: an image has the room the terminal's narrow cells lack."""
    if v is None:
        return "·"
    return str(v) if isinstance(v, bool) else F.number(v)


def _views(p: dict[str, Any]) -> list[tuple[str, dict[int, str]]]:
    """Each view's name and, per storage offset it selects, its index there (with
    ``+k`` when k more of its indices address the same element, as expand makes)."""
    rows = []
    for t in p["views"]:
        first: dict[int, str] = {}
        more: dict[int, int] = {}
        for index, off in itertools.islice(storage._offsets(t), storage.MAX_CELLS * 4):
            if off in first:
                more[off] = more.get(off, 0) + 1
            else:
                first[off] = ",".join(map(str, index)) if index else "()"
        rows.append((V.shown(t), {off: text + (f" +{more[off]}" if off in more else "")
                                  for off, text in first.items()}))
    return rows


def _layout(p: dict[str, Any]) -> dict[str, Any]:
    """Sizes of one picture: element box width, name column, lines of boxes."""
    n = min(p["size"], storage.MAX_CELLS)
    views = _views(p)
    texts = {off: _cell(p["cells"].get(off)) for off in range(n)}
    chars = max([len(t) for t in texts.values()] + [len(str(max(n - 1, 0))), 3] +
                [len(w) for _, where in views for w in where.values()])
    cell_w = P.width("x", VALUE_PT) * chars + 10
    head = max([P.width(name, VALUE_PT) for name, _ in views] +
               [P.width("offset", SMALL_PT)]) + 12
    chunks = [range(a, min(n, a + PER_LINE)) for a in range(0, n, PER_LINE)]
    return {"n": n, "views": views, "texts": texts, "cell_w": cell_w, "head": head,
            "chunks": chunks}


def _legend(p: dict[str, Any], lay: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The legend's entries that this picture uses: (mark, its fill, its ink, text)."""
    kinds = set(p["touched"].values())
    entries = [(storage.TOUCH_MARK[kind], *FILL[kind],
                i18n.text(f"ui.export.legend.{kind}", "en"))
               for kind in ("written", "read") if kind in kinds]
    if lay["views"]:
        entries.append(("0,1", VIEW_FILL, VIEW_INK, i18n.text("ui.export.legend.view", "en")))
    more = [w for _, where in lay["views"] for w in where.values() if "+" in w]
    if more:
        count = more[0].split("+")[1]
        entries.append((f"+{count}", VIEW_FILL, VIEW_INK,
                        i18n.text("ui.export.legend.more", "en", count=count)))
    if any(t == "·" for t in lay["texts"].values()):
        entries.append(("·", "white", "#9e9e9e", i18n.text("ui.export.legend.unknown", "en")))
    return entries


def _height_one(p: dict[str, Any]) -> float:
    lay = _layout(p)
    chunk_h = OFFSET_H + CELL_H + len(lay["views"]) * (VIEW_H + 2) + GAP
    more = TEXT_H if p["size"] > lay["n"] else 0
    return (TITLE_H + len(lay["chunks"]) * chunk_h + more +
            TEXT_H * len(p["views"]) + (TEXT_H + 2) * len(_legend(p, lay)) + GAP)


def height(pictures: list[dict[str, Any]]) -> float:
    """The height in points that :func:`draw` takes for these pictures."""
    return sum(_height_one(p) + GAP for p in pictures)


class _Pen:
    """Named, pinned nodes on the canvas."""

    def __init__(self, g: graphviz.Digraph, prefix: str) -> None:
        self.g, self.prefix, self.n = g, prefix, 0

    def name(self) -> str:
        self.n += 1
        return f"{self.prefix}n{self.n}"

    def text(self, left: float, y: float, text: str, pt: float, color: str = "#333333",
             bold: bool = False) -> float:
        """Left-aligned text centred on ``y``; returns where it ends."""
        self.g.node(self.name(), shape="plaintext", margin="0",
                    fontname=MONO + ("-Bold" if bold else ""), fontsize=str(pt),
                    fontcolor=color, **P.text_node(left, y, [text], pt))
        return left + P.width(text, pt)

    def box(self, x: float, y: float, w: float, h: float, text: str, fill: str,
            ink: str, pt: float, border: str = GRID, bold: bool = False) -> None:
        self.g.node(self.name(), P.plain(text), shape="box", fixedsize="true",
                    width=P.fmt(w / 72), height=P.fmt(h / 72), style="filled",
                    fillcolor=fill, color=border, penwidth="0.8", margin="0",
                    fontname=MONO + ("-Bold" if bold else ""), fontsize=str(pt),
                    fontcolor=ink, pos=P.pos(x + w / 2, y))


def draw(g: graphviz.Digraph, pictures: list[dict[str, Any]], left: float, top: float,
         prefix: str) -> float:
    """Draw the pictures one under another from (left, top); returns the bottom."""
    y = top
    for k, p in enumerate(pictures):
        y = _draw_one(_Pen(g, f"{prefix}{k}_"), p, left, y) - GAP
    return y


def _draw_one(pen: _Pen, p: dict[str, Any], left: float, top: float) -> float:
    lay = _layout(p)
    cell_w, head = lay["cell_w"], lay["head"]
    y = top - TITLE_H / 2
    end = pen.text(left, y, i18n.text("ui.storage.title", "en", storage=p["storage"],
                                      size=p["size"], dtype=p["dtype"],
                                      nbytes=p["nbytes"]), TITLE_PT, bold=True)
    for kind in ("written", "read"):   # the marks used, named beside the title
        if kind in p["touched"].values():
            fill, ink = FILL[kind]
            pen.box(end + 14, y, 18, 16, storage.TOUCH_MARK[kind], fill, ink, SMALL_PT,
                    border=fill, bold=True)
            end = pen.text(end + 38, y, i18n.text(storage.TOUCH_LABEL[kind], "en"),
                           SMALL_PT + 1)
    y = top - TITLE_H
    x0 = left + head
    for chunk in lay["chunks"]:
        y -= OFFSET_H / 2
        pen.text(left, y, i18n.text("ui.storage.offset", "en"), SMALL_PT, "#777777")
        for i, off in enumerate(chunk):
            label = str(off)
            pen.text(x0 + i * cell_w + (cell_w - P.width(label, SMALL_PT)) / 2, y, label,
                     SMALL_PT, "#777777")
        y -= OFFSET_H / 2 + CELL_H / 2
        for i, off in enumerate(chunk):
            kind = p["touched"].get(off)
            fill, ink = FILL.get(kind, ("white", "#222222"))
            text = lay["texts"][off]
            pen.box(x0 + i * cell_w, y, cell_w, CELL_H, text, fill,
                    "#9e9e9e" if text == "·" else ink, VALUE_PT, bold=kind == "written")
        y -= CELL_H / 2
        for name, where in lay["views"]:
            y -= 2 + VIEW_H / 2
            pen.text(left, y, name, VALUE_PT, VIEW_INK, bold=True)
            for i, off in enumerate(chunk):
                if off in where:
                    pen.box(x0 + i * cell_w + 1, y, cell_w - 2, VIEW_H, where[off], VIEW_FILL,
                            VIEW_INK, SMALL_PT + 1, border="#9fb4e8")
            y -= VIEW_H / 2
        y -= GAP
    if p["size"] > lay["n"]:   # the trace records at most MAX_CELLS elements, as the tree
        y -= TEXT_H / 2
        pen.text(x0, y, i18n.text("ui.storage.more", "en", count=p["size"] - lay["n"]),
                 SMALL_PT + 1, "#777777")
        y -= TEXT_H / 2
    for t in p["views"]:
        y -= TEXT_H / 2
        pen.text(left, y, f"{V.shown(t)}: {t['dtype']}{list(t['shape'])} "
                          f"{storage._geometry(t, 'en')}", SMALL_PT + 1, "#555555")
        y -= TEXT_H / 2
    for mark, fill, ink, text in _legend(p, lay):   # every mark drawn, named
        y -= TEXT_H / 2 + 1
        pen.box(left, y, 34, TEXT_H, mark, fill, ink, SMALL_PT, border=GRID)
        pen.text(left + 42, y, text, SMALL_PT + 1, "#555555")
        y -= TEXT_H / 2 + 1
    return y - GAP


def table(p: dict[str, Any]) -> str:
    """The picture as one Graphviz HTML-like table (for the call tree, whose layout
    places its nodes itself): the same cells, colours, views and legend.  Only the
    ``dot`` program draws it; :func:`text_lines` is the picture for the others."""
    lay = _layout(p)
    e = html.escape
    cols = max(1, min(lay["n"], PER_LINE))
    title = e(i18n.text("ui.storage.title", "en", storage=p["storage"], size=p["size"],
                        dtype=p["dtype"], nbytes=p["nbytes"]))
    out = ['<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4">',
           f'<TR><TD COLSPAN="{cols + 1}" BORDER="0" ALIGN="LEFT"><B>{title}</B></TD></TR>']
    for chunk in lay["chunks"]:
        out.append('<TR><TD BORDER="0"><FONT COLOR="#777777">offset</FONT></TD>' + "".join(
            f'<TD BORDER="0"><FONT COLOR="#777777">{off}</FONT></TD>' for off in chunk) + "</TR>")
        cells = []
        for off in chunk:
            fill, ink = FILL.get(p["touched"].get(off, ""), ("white", "#222222"))
            cells.append(f'<TD BGCOLOR="{fill}"><FONT COLOR="{ink}">'
                         f'{e(lay["texts"][off])}</FONT></TD>')
        out.append('<TR><TD BORDER="0"></TD>' + "".join(cells) + "</TR>")
        for name, where in lay["views"]:
            row = [f'<TD BORDER="0" ALIGN="LEFT"><FONT COLOR="{VIEW_INK}"><B>{e(name)}</B>'
                   "</FONT></TD>"]
            for off in chunk:
                if off in where:
                    row.append(f'<TD BGCOLOR="{VIEW_FILL}"><FONT COLOR="{VIEW_INK}">'
                               f"{e(where[off])}</FONT></TD>")
                else:
                    row.append('<TD BORDER="0"></TD>')
            out.append("<TR>" + "".join(row) + "</TR>")
    notes = []
    if p["size"] > lay["n"]:
        notes.append(i18n.text("ui.storage.more", "en", count=p["size"] - lay["n"]))
    notes += [f"{V.shown(t)}: {t['dtype']}{list(t['shape'])} {storage._geometry(t, 'en')}"
              for t in p["views"]]
    out += [f'<TR><TD COLSPAN="{cols + 1}" BORDER="0" ALIGN="LEFT">'
            f'<FONT COLOR="#555555">{e(note)}</FONT></TD></TR>' for note in notes]
    out += [f'<TR><TD BGCOLOR="{fill}"><FONT COLOR="{ink}">{e(mark)}</FONT></TD>'
            f'<TD COLSPAN="{cols}" BORDER="0" ALIGN="LEFT"><FONT COLOR="#555555">{e(text)}'
            "</FONT></TD></TR>" for mark, fill, ink, text in _legend(p, lay)]
    return "<" + "".join(out) + "</TABLE>>"


def text_lines(p: dict[str, Any]) -> list[str]:
    """The terminal's picture of ``p`` as plain lines (for a Graphviz without HTML-like
    labels: the in-process WebAssembly one)."""
    sink = io.StringIO()
    Console(file=sink, width=120, color_system=None, highlight=False).print(
        storage.StoragePicture(p))
    return [line.rstrip() for line in sink.getvalue().splitlines()]
