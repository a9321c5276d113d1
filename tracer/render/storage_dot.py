"""The storage picture drawn with Graphviz: the terminal's picture
(:mod:`tracer.render.storage`) for the SVG, PNG and PDF exports, from the same model
(:func:`tracer.picture.picture`), so every drawing shows the same facts.

One picture: the storage's elements in a row of boxes (written red, read cyan), under
it each view's index at the elements it selects (the base named so), what the
statement changed and one element's offset worked out, each view's own grid, and a
legend of every mark drawn.  :func:`draw` places pinned nodes on the sequence
diagram's canvas under the statement: plain labels and pinned positions, because the
in-process WebAssembly Graphviz that renders SVG without the ``dot`` program has no
HTML-like labels (see :mod:`tracer.render.pinned`).  :func:`table` is the same picture
as one HTML-like table for the call tree, which ``dot`` lays out itself.
"""

from __future__ import annotations

import html
import io
from typing import Any

from rich.console import Console

from tracer import i18n
from tracer import values as V
from tracer.picture import MAX_CELLS, arithmetic_terms, index_text, selected_labels
from tracer.render import format as F
from tracer.render import pinned as P
from tracer.render import storage
from tracer.render.pinned import MONO
from tracer.render.visible import visible

# larger than the diagram's text: the picture is what a class looks at
# (and no text under 15 pt: 24 pixels on a 1080-pixel slide, see tracer.render.slides)
VALUE_PT, SMALL_PT, TITLE_PT = 17, 15, 18
CELL_H, VIEW_H = 36, 27           # an element's box, a view's box under it
TITLE_H, OFFSET_H, TEXT_H = 32, 20, 21
GAP = 8                           # between parts of a picture and between pictures
#: At most this many elements on one line of boxes; more wrap onto the next line.
PER_LINE = 16
FILL = {"written": ("#c62828", "white"), "read": ("#b2ebf2", "#004d55")}
VIEW_FILL, VIEW_INK = "#e8eefc", "#1f4fbf"
GRID = "#8a8a8a"
#: How each legend mark is drawn: (its box's text, fill, ink); the model says which.
MARK_BOX = {"written": ("W", *FILL["written"]), "read": ("R", *FILL["read"]),
            "selected": ("i,j", VIEW_FILL, VIEW_INK), "repeated": ("+n", VIEW_FILL, VIEW_INK),
            "unrecorded": ("·", "white", "#9e9e9e")}


def _cell(v: Any, known: bool = True) -> str:
    """An element as torch prints it (1.5410, True), or ``·`` when the trace has no value
    for it."""
    if not known or v is None:
        return "·"
    return str(v) if isinstance(v, bool) else F.number(v)


def _view_rows(p: dict[str, Any], lang: str = "en") -> list[tuple[str, dict[int, str]]]:
    """Each view's name (the base's marked so) and its indices per storage offset."""
    base = p.get("base")
    return [(g["name"] + (f" ({i18n.text('ui.picture.base', lang)})"
                          if base is not None and i == 0 else ""), selected_labels(g, " +"))
            for i, g in enumerate(p.get("grids", []))]


def _layout(p: dict[str, Any], width: float | None = None, lang: str = "en"
            ) -> dict[str, Any]:
    """Sizes of one picture: element box width, name column, lines of boxes (at most
    PER_LINE elements a line, fewer when ``width`` holds fewer)."""
    n = min(p["size"], MAX_CELLS)
    views = _view_rows(p, lang)
    texts = {off: _cell(p["cells"].get(off), off in p["cells"]) for off in range(n)}
    chars = max([len(t) for t in texts.values()] + [len(str(max(n - 1, 0))), 3] +
                [len(w) for _, where in views for w in where.values()])
    cell_w = P.width("x", VALUE_PT) * chars + 10
    head = max([P.width(name, VALUE_PT) for name, _ in views] +
               [P.width(i18n.text("ui.storage.offset", lang), SMALL_PT)]) + 12
    per_line = PER_LINE if width is None else max(1, min(PER_LINE,
                                                         int((width - head) // cell_w)))
    chunks = [range(a, min(n, a + per_line)) for a in range(0, n, per_line)]
    return {"n": n, "views": views, "texts": texts, "cell_w": cell_w, "head": head,
            "chunks": chunks}


def facts(p: dict[str, Any], lang: str = "en") -> list[str]:
    """What the statement changed, and one element's offset worked out, as lines."""
    out = []
    changes = p.get("changes") or []
    if changes:
        unknown = i18n.text("ui.picture.unknown", lang)
        known = [c for c in changes if c["old_known"]]
        parts = [i18n.text("ui.picture.change", lang, offset=c["offset"], old=_cell(c["old"]),
                           new=_cell(c["new"]) if c["new_known"] else unknown)
                 for c in known]          # an image has the room for every change
        fresh = [c["offset"] for c in changes if not c["old_known"]]
        if fresh:
            parts.append(i18n.text("ui.picture.fresh", lang, count=len(fresh),
                                   offsets=storage._runs(fresh)))
        out.append(i18n.text("ui.picture.changed", lang) + ": " + "; ".join(parts))
    a = p.get("arithmetic")
    if a:
        letters = storage._letters(len(a["index"]))
        formula = " + ".join(["offset"] + [f"{x}*stride{d}" for d, x in enumerate(letters)])
        line = (f"{a['view']}{index_text(a['index'])} -> " +
                i18n.text("ui.picture.arithmetic", lang, terms=arithmetic_terms(a),
                          result=a["result"]))
        if a["known"]:
            line += "   " + i18n.text("ui.picture.holds", lang, value=_cell(a["value"]))
        out.append(f"{line}   ({formula})")
    return out


def _fact_lines(p: dict[str, Any], width: float, lang: str) -> list[str]:
    """:func:`facts` wrapped to the picture's width (nothing cut)."""
    return [w for line in facts(p, lang) for w in P.wrap(line, width / P.width("x", SMALL_PT + 1))]


def _legend(p: dict[str, Any], lang: str = "en") -> list[tuple[str, str, str, str]]:
    """The model's legend (every mark this picture uses): (box text, fill, ink, words)."""
    return [(*MARK_BOX.get(m["key"], (m["symbol"], "white", "#333333")),
             i18n.text(m["text_id"], lang)) for m in p.get("legend") or []]


def _grid_size(g: dict[str, Any]) -> tuple[float, float, float]:
    """A view's grid: (its cell width, its width, its height) in points."""
    cells = [c for r in g["rows"] for c in r["cells"]]
    chars = max([len(_cell(c["value"], c["known"])) for c in cells] + [1])
    cell_w = P.width("x", VALUE_PT) * chars + 12
    lead = P.width(index_text(g["rows"][0]["index"])[:-1] + ", :]", SMALL_PT) + 6 \
        if len(g["shape"]) > 2 and g["rows"] else 0
    across = max([len(r["cells"]) for r in g["rows"]] + [0])
    title = max(P.width(_grid_title(g), SMALL_PT + 2), P.width(_grid_strides(g), SMALL_PT))
    width = max(lead + across * cell_w, title)
    height = 2 * TEXT_H + len(g["rows"]) * CELL_H + (TEXT_H if g["more"] else 0)
    return cell_w, width, height


def _grid_title(g: dict[str, Any]) -> str:
    return f"{g['name']}: {g['dtype']}{list(g['shape'])}"


def _grid_strides(g: dict[str, Any], lang: str = "en") -> str:
    strides = ", ".join(map(str, g["strides"])) + ("," if len(g["strides"]) == 1 else "")
    return i18n.text("ui.picture.strides", lang, strides=strides, offset=g["offset"])


def _bands(grids: list[dict[str, Any]], width: float) -> list[list[dict[str, Any]]]:
    """The grids side by side, as many in a band as fit in ``width``."""
    bands: list[list[dict[str, Any]]] = []
    used = 0.0
    for g in grids:
        w = _grid_size(g)[1] + 3 * GAP
        if not bands or used + w > width:
            bands.append([])
            used = 0.0
        bands[-1].append(g)
        used += w
    return bands


def _height_one(p: dict[str, Any], width: float, lang: str = "en") -> float:
    lay = _layout(p, width, lang)
    chunk_h = OFFSET_H + CELL_H + len(lay["views"]) * (VIEW_H + 2) + GAP
    more = TEXT_H * (bool(p["size"] > lay["n"]) + bool(p.get("more_views")))
    grids = sum(max(_grid_size(g)[2] for g in band) + GAP
                for band in _bands(p.get("grids", []), width))
    return (TITLE_H + len(lay["chunks"]) * chunk_h + more + TEXT_H * len(_fact_lines(p, width, lang)) +
            GAP + grids + (TEXT_H + 2) * len(_legend(p, lang)) + GAP)


def height(pictures: list[dict[str, Any]], width: float, lang: str = "en") -> float:
    """The height in points that :func:`draw` takes for these pictures."""
    return sum(_height_one(p, width, lang) + GAP for p in pictures)


class Pen:
    """Named, pinned nodes on the canvas."""

    def __init__(self, g: P.Digraph, prefix: str) -> None:
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


def draw(g: P.Digraph, pictures: list[dict[str, Any]], left: float, top: float,
         width: float, prefix: str, lang: str = "en") -> float:
    """Draw the pictures one under another from (left, top), their grids side by side
    within ``width``; returns the bottom."""
    y = top
    for k, p in enumerate(pictures):
        y = _draw_one(Pen(g, f"{prefix}{k}_"), p, left, y, width, lang) - GAP
    return y


def _draw_one(pen: Pen, p: dict[str, Any], left: float, top: float, width: float,
              lang: str = "en") -> float:
    lay = _layout(p, width, lang)
    y = _draw_title(pen, p, left, top - TITLE_H / 2, lang) - TITLE_H / 2
    y = _draw_row(pen, p, lay, left, y, lang)
    for line in _fact_lines(p, width, lang):
        y -= TEXT_H / 2
        pen.text(left, y, line, SMALL_PT + 1, "#333333")
        y -= TEXT_H / 2
    y -= GAP
    for band in _bands(p.get("grids", []), width):
        x, low = left, y
        for g in band:
            bottom = _draw_grid(pen, g, x, y, lang)
            low = min(low, bottom)
            x += _grid_size(g)[1] + 3 * GAP
        y = low - GAP
    for mark, fill, ink, text in _legend(p, lang):   # every mark drawn, named
        y -= TEXT_H / 2 + 1
        pen.box(left, y, 34, TEXT_H, mark, fill, ink, SMALL_PT, border=GRID)
        pen.text(left + 42, y, text, SMALL_PT + 1, "#555555")
        y -= TEXT_H / 2 + 1
    return y - GAP


def _draw_title(pen: Pen, p: dict[str, Any], left: float, y: float, lang: str = "en"
                ) -> float:
    end = pen.text(left, y, i18n.text("ui.storage.title", lang, storage=p["storage"],
                                      size=p["size"], dtype=p["dtype"],
                                      nbytes=p["nbytes"]) + F.on_device(p), TITLE_PT, bold=True)
    names = [V.shown(t) for t in p["views"]]
    if names:
        end = pen.text(end + 20, y, i18n.text("ui.picture.views", lang,
                                              names=", ".join(names)), SMALL_PT + 1)
    return y


def _draw_row(pen: Pen, p: dict[str, Any], lay: dict[str, Any], left: float,
              y: float, lang: str = "en") -> float:
    """The storage's elements, each view's indices under the ones it selects."""
    cell_w, x0 = lay["cell_w"], left + lay["head"]
    for chunk in lay["chunks"]:
        y -= OFFSET_H / 2
        pen.text(left, y, i18n.text("ui.storage.offset", lang), SMALL_PT, "#777777")
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
            if not any(off in where for off in chunk):   # none of its elements here
                continue
            y -= 2 + VIEW_H / 2
            pen.text(left, y, name, VALUE_PT, VIEW_INK, bold=True)
            for i, off in enumerate(chunk):
                if off in where:
                    pen.box(x0 + i * cell_w + 1, y, cell_w - 2, VIEW_H, where[off], VIEW_FILL,
                            VIEW_INK, SMALL_PT + 1, border="#9fb4e8")
            y -= VIEW_H / 2
        y -= GAP
    notes = []
    if p["size"] > lay["n"]:   # the trace records at most MAX_CELLS elements, as the tree
        notes.append(i18n.text("ui.storage.more", lang, count=p["size"] - lay["n"]))
    if p.get("more_views"):
        notes.append(i18n.text("ui.picture.more_views", lang, count=p["more_views"]))
    for note in notes:
        y -= TEXT_H / 2
        pen.text(x0, y, note, SMALL_PT + 1, "#777777")
        y -= TEXT_H / 2
    return y


def _draw_grid(pen: Pen, g: dict[str, Any], left: float, top: float, lang: str = "en"
               ) -> float:
    """A view's own grid: its name and geometry, then its elements row by row."""
    cell_w, _, _ = _grid_size(g)
    y = top - TEXT_H / 2
    pen.text(left, y, _grid_title(g), SMALL_PT + 2, VIEW_INK, bold=True)
    y -= TEXT_H
    pen.text(left, y, _grid_strides(g, lang), SMALL_PT, "#555555")
    y -= TEXT_H / 2
    lead = len(g["shape"]) > 2
    for r in g["rows"]:
        y -= CELL_H / 2
        x = left
        if lead:   # the leading indices of a row of a 3-d (or more) view
            x = pen.text(left, y, index_text(r["index"])[:-1] + ", :]", SMALL_PT,
                         "#777777") + 6
        for i, c in enumerate(r["cells"]):
            fill, ink = FILL.get(c["mark"] or "", ("white", "#222222"))
            text = _cell(c["value"], c["known"])
            pen.box(x + i * cell_w, y, cell_w, CELL_H, text, fill,
                    "#9e9e9e" if text == "·" else ink, VALUE_PT, bold=c["mark"] == "written")
        y -= CELL_H / 2
    if g["more"]:
        y -= TEXT_H / 2
        pen.text(left, y, i18n.text("ui.storage.more", lang, count=g["more"]), SMALL_PT,
                 "#777777")
        y -= TEXT_H / 2
    return y


def table(p: dict[str, Any]) -> P.Html:
    """The picture as one Graphviz HTML-like table (for the call tree, whose layout
    places its nodes itself): the same cells, colours, views, facts, grids and legend.
    Only the ``dot`` program draws it; :func:`text_lines` is the picture for others.

    Each part is a table of its own inside a one-column table, so a long line of facts
    never widens the storage's columns."""
    lay = _layout(p)
    e = _escape
    left = 'BORDER="0" ALIGN="LEFT"'
    title = e(i18n.text("ui.storage.title", "en", storage=p["storage"], size=p["size"],
                        dtype=p["dtype"], nbytes=p["nbytes"]) + F.on_device(p))
    parts = [f"<TD {left}><B>{title}</B></TD>"]
    row = ['<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4">']
    for chunk in lay["chunks"]:
        row.append('<TR><TD BORDER="0"><FONT COLOR="#777777">offset</FONT></TD>' + "".join(
            f'<TD BORDER="0"><FONT COLOR="#777777">{off}</FONT></TD>' for off in chunk) + "</TR>")
        cells = []
        for off in chunk:
            fill, ink = FILL.get(p["touched"].get(off, ""), ("white", "#222222"))
            cells.append(f'<TD BGCOLOR="{fill}"><FONT COLOR="{ink}">'
                         f'{e(lay["texts"][off])}</FONT></TD>')
        row.append('<TR><TD BORDER="0"></TD>' + "".join(cells) + "</TR>")
        for name, where in lay["views"]:
            tds = [f'<TD {left}><FONT COLOR="{VIEW_INK}"><B>{e(name)}</B></FONT></TD>']
            tds += [f'<TD BGCOLOR="{VIEW_FILL}"><FONT COLOR="{VIEW_INK}">{e(where[off])}'
                    "</FONT></TD>" if off in where else '<TD BORDER="0"></TD>'
                    for off in chunk]
            row.append("<TR>" + "".join(tds) + "</TR>")
    parts.append(f"<TD {left}>" + "".join(row) + "</TABLE></TD>")
    notes = []
    if p["size"] > lay["n"]:
        notes.append(i18n.text("ui.storage.more", "en", count=p["size"] - lay["n"]))
    if p.get("more_views"):
        notes.append(i18n.text("ui.picture.more_views", "en", count=p["more_views"]))
    parts += [f'<TD {left}><FONT COLOR="#333333">{e(line)}</FONT></TD>'
              for line in notes + facts(p)]
    grids = "".join(f'<TD BORDER="0" VALIGN="TOP">{_grid_table(g)}</TD>'
                    for g in p.get("grids", []))
    if grids:
        parts.append(f'<TD {left}><TABLE BORDER="0" CELLSPACING="8"><TR>{grids}</TR>'
                     "</TABLE></TD>")
    legend = "".join(f'<TR><TD BGCOLOR="{fill}" BORDER="1"><FONT COLOR="{ink}">{e(mark)}'
                     f'</FONT></TD><TD {left}><FONT COLOR="#555555">{e(text)}</FONT></TD></TR>'
                     for mark, fill, ink, text in _legend(p))
    if legend:
        parts.append(f'<TD {left}><TABLE BORDER="0" CELLSPACING="2">{legend}</TABLE></TD>')
    return P.Html('<<TABLE BORDER="0" CELLSPACING="4">' +
                  "".join(f"<TR>{part}</TR>" for part in parts) + "</TABLE>>")


def _escape(text: str) -> str:
    """Text inside the HTML-like table: markup escaped, and visible (no control or
    bidirectional character acts)."""
    return html.escape(visible(text, newlines=False))


def _grid_table(g: dict[str, Any]) -> str:
    e = _escape
    across = max([len(r["cells"]) for r in g["rows"]] + [1])
    rows = [f'<TR><TD COLSPAN="{across}" BORDER="0" ALIGN="LEFT"><FONT COLOR="{VIEW_INK}">'
            f"<B>{e(_grid_title(g))}</B></FONT></TD></TR>",
            f'<TR><TD COLSPAN="{across}" BORDER="0" ALIGN="LEFT"><FONT COLOR="#555555">'
            f"{e(_grid_strides(g))}</FONT></TD></TR>"]
    for r in g["rows"]:
        cells = []
        for c in r["cells"]:
            fill, ink = FILL.get(c["mark"] or "", ("white", "#222222"))
            cells.append(f'<TD BGCOLOR="{fill}"><FONT COLOR="{ink}">'
                         f'{e(_cell(c["value"], c["known"]))}</FONT></TD>')
        rows.append("<TR>" + "".join(cells) + "</TR>")
    if g["more"]:
        rows.append(f'<TR><TD COLSPAN="{across}" BORDER="0">'
                    f'{e(i18n.text("ui.storage.more", "en", count=g["more"]))}</TD></TR>')
    return '<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">' + \
        "".join(rows) + "</TABLE>"


def text_lines(p: dict[str, Any]) -> list[str]:
    """The terminal's picture of ``p`` as plain lines (for a Graphviz without HTML-like
    labels: the in-process WebAssembly one)."""
    sink = io.StringIO()
    Console(file=sink, width=120, color_system=None, highlight=False).print(
        storage.StoragePicture(p))
    return [line.rstrip() for line in sink.getvalue().splitlines()]
