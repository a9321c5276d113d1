"""Graphviz diagrams of a trace: the sequence diagram and the call tree.

Pure functions from the trace document to a :class:`graphviz.Digraph` (tidx's
escaping one, :class:`tracer.render.pinned.Digraph`); rendering to
SVG/PNG/PDF is :mod:`tracer.export`'s business.

The sequence diagram places every node itself (``neato`` with pinned ``pos`` in
points): a sequence diagram is a table of lifelines and time rows, and letting a
layout engine guess it gives crossing arrows on the first nested call.  Pinned
coordinates render the same with the ``dot`` program and with the in-process
WebAssembly Graphviz, and stay legible from 5 to 200 steps.

Both drawings are slides: no label is cut (long ones wrap onto more lines, within a
fixed width so a PNG scaled to a projector keeps its text large), and each statement
carries its storage picture (:mod:`tracer.render.storage_dot`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


from tracer import i18n
from tracer.document import Document, Event, Statement
from tracer.graph import Graph
from tracer.render import diagram, storage
from tracer.render import format as F
from tracer.render import pinned as P
from tracer.render import graph_dot as GD
from tracer.render.graph import graph_lines
from tracer.render import storage_dot as SD
from tracer.render.diagram import COLORS, Row, Sequence
from tracer.render.pinned import MONO, SANS
from tracer.events import LAYERS, source_url

INK = "#333333"
ERROR = "#c62828"

# Geometry, in points (72 per inch).
LANE_GAP = 150          # between lifelines (less when many lifelines must fit MAX_WIDTH)
ROW_H = 30              # one call or return with a one-line label
BAR_W = 8               # activation bar width
NEST = 5                # a nested bar on the same lifeline moves right by this
USER_X = -80            # where the statement's first call comes from
#: A slide page is tracer.render.slides.PAGE_W points wide, drawn 1920 pixels wide:
#: the smallest text, 15 pt, is 24 pixels tall on a 1080-pixel slide (labels wrap
#: rather than widen the drawing).
NAME_PT, DETAIL_PT = 16, 15
#: The drawing's widest: a slide page's width less its margins, so no page is scaled
#: down (the lifelines move closer when there are many of them).
MAX_WIDTH = 1150
#: Labels wrap rather than run further right than this past the last lifeline: the
#: drawing keeps one width whatever its values, so a slide can show it large.
LABEL_ROOM = 280
MIN_RIGHT = 640         # labels may always run this far right
BESIDE_MIN = 28         # fewer characters of room beside a step's name: values go under it
PICTURE_GAP = 26        # between a statement's last row and its storage picture
FOOTER_ROWS = 24        # a diagram of more rows repeats the lifelines' titles under them
FOOTER_H = 36           # the room those titles take

_fmt, _pos, _plain = P.fmt, P.pos, P.plain


class _Canvas:
    """The Digraph plus the few drawing moves a sequence diagram needs."""

    def __init__(self, title: str) -> None:
        self.g = P.Digraph("tidx", engine="neato", comment=title)
        self.g.attr("graph", layout="neato", inputscale="72", splines="false",
                    outputorder="edgesfirst", bgcolor="white", pad="0.3")
        self.g.attr("node", fontname=MONO, fontsize=str(NAME_PT), label="")
        self.g.attr("edge", color=INK, arrowsize="0.75", penwidth="1")
        self._n = 0

    def point(self, x: float, y: float, visible: bool = False) -> str:
        self._n += 1
        name = f"p{self._n}"
        if visible:  # UML's "found message": a filled dot where the call comes from
            self.g.node(name, shape="point", width="0.08", color=INK, pos=_pos(x, y))
        else:
            self.g.node(name, shape="point", width="0.01", style="invis", pos=_pos(x, y))
        return name

    def line(self, points: list[tuple[float, float]], *, dashed: bool = False,
             color: str = INK, head: bool = True, first_visible: bool = False) -> None:
        names = [self.point(x, y, visible=first_visible and i == 0)
                 for i, (x, y) in enumerate(points)]
        style = "dashed" if dashed else "solid"
        for i, (a, b) in enumerate(zip(names, names[1:])):
            last = i == len(names) - 2
            self.g.edge(a, b, style=style, color=color,
                        arrowhead=("vee" if dashed else "normal") if head and last else "none")

    def label(self, lab: "_Label", top: float, color: str, *, bold: bool = True,
              note: str | None = None, url: str | None = None) -> None:
        """A wrapped label whose first line is at ``top``: the name (bold, the layer's
        ink), then grey values beside it or under it.

        Two nodes, since a plain label has one font; Courier's fixed advance tells
        where the name ends.
        """
        attrs: dict[str, Any] = {"tooltip": note or " ".join(lab.name)}
        if url:
            attrs.update(URL=url, target="_blank")
        common: dict[str, Any] = dict(shape="plaintext", margin="0", style="filled",
                                      fillcolor="#ffffffe0")
        name_h = NAME_LINE * len(lab.name)
        width = max(P.width(line, NAME_PT) for line in lab.name)
        self._n += 1
        self.g.node(f"l{self._n}", fontname=MONO + ("-Bold" if bold else ""), fontcolor=color,
                    **P.text_node(lab.left, top - (name_h - NAME_LINE) / 2, lab.name, NAME_PT),
                    **common, **attrs)
        if lab.detail:
            if lab.beside:
                left, block_top = lab.left + width + P.width("   ", DETAIL_PT), top + NAME_LINE / 2
            else:
                left, block_top = lab.left + P.width("  ", DETAIL_PT), top + NAME_LINE / 2 - name_h
            self._n += 1
            self.g.node(f"l{self._n}", fontsize=str(DETAIL_PT), fontcolor="#555555",
                        **P.text_node(left, block_top - DETAIL_LINE * len(lab.detail) / 2,
                                      lab.detail, DETAIL_PT),
                        **common, **attrs)


NAME_LINE = P.LEADING * NAME_PT
DETAIL_LINE = P.LEADING * DETAIL_PT


@dataclass(slots=True)
class _Label:
    """A row's text, wrapped to the room it has: never cut."""

    left: float
    name: list[str]
    detail: list[str]
    beside: bool

    @property
    def extra(self) -> float:
        """How much taller than one line the label is."""
        name_h = NAME_LINE * len(self.name)
        detail_h = DETAIL_LINE * len(self.detail)
        total = max(name_h, detail_h) if self.beside else name_h + detail_h
        return total - NAME_LINE


def _wrapped(left: float, name: str, detail: str, right: float) -> _Label:
    room = max(right - left, 120.0)
    names = P.wrap(name, room / P.width("x", NAME_PT))
    if not detail:
        return _Label(left, names, [], False)
    beside = room - max(P.width(line, NAME_PT) for line in names) - P.width("   ", DETAIL_PT)
    if beside / P.width("x", DETAIL_PT) >= BESIDE_MIN:
        return _Label(left, names, P.wrap(detail, beside / P.width("x", DETAIL_PT)), True)
    under = room - P.width("  ", DETAIL_PT)
    return _Label(left, names, P.wrap(detail, under / P.width("x", DETAIL_PT)), False)


def sequence(doc: Document, *, pictures: list[list[dict[str, Any]]] | None = None,
             prev: Statement | None = None, lang: str = "en") -> P.Digraph:
    """The sequence diagram: a lifeline per layer, calls and returns in time order;
    under each statement's rows, the storage pictures of what it touched: ``pictures``
    (one list per statement, made from the unfiltered run, as the tree's are), else
    made from ``doc`` (``prev``: the statement before its first)."""
    seq = diagram.build(doc, full=True, lang=lang)
    canvas = _Canvas(f"tidx sequence diagram: {_sources(doc)}")
    gap = min(LANE_GAP, (MAX_WIDTH - LABEL_ROOM + USER_X - 10) / max(len(seq.lanes) - 1, 1))
    lane_x = {lane: i * gap for i, lane in enumerate(seq.lanes)}
    # a diagram of few lifelines (--ops, --layers) still gives its labels a line's room
    right = max(max(lane_x.values(), default=0) + LABEL_ROOM, MIN_RIGHT)
    labels = [_row_label(row, lane_x, right) for row in seq.rows]
    statements = [i for i, row in enumerate(seq.rows) if row.kind == "statement"]
    drawn = pictures if pictures is not None else collect(doc, prev)
    room = right - (USER_X - 10)
    # rows top to bottom; each statement's pictures below its last row
    ys: list[float] = []
    blocks: list[tuple[int, int, float]] = []   # (first row, last row, picture top)
    cursor = 0.0
    for k, first in enumerate(statements):
        last = statements[k + 1] - 1 if k + 1 < len(statements) else len(seq.rows) - 1
        if k:
            cursor -= PICTURE_GAP / 2
        for i in range(first, last + 1):
            ys.append(cursor - labels[i].extra)
            cursor = ys[-1] - ROW_H
        top = cursor - PICTURE_GAP / 2
        if k == len(statements) - 1 and len(seq.rows) > FOOTER_ROWS:
            top -= FOOTER_H      # the lifelines' titles again, under the last row
        blocks.append((first, last, top))
        height = SD.height(drawn[k], room, lang) if k < len(drawn) else 0.0
        height += GD.height(_graph(doc, k), room, lang)
        cursor = top - height - (PICTURE_GAP / 2 if height else 0)
    _lifelines(canvas, seq, lane_x, ys, blocks, lang)
    for act in seq.activations:
        fill, ink = COLORS[act.lane]
        x = lane_x[act.lane] + act.level * NEST
        top, low = ys[act.start] + 3, ys[act.end] - 6
        canvas.g.node(f"bar{act.start}", shape="box", fixedsize="true",
                      width=_fmt(BAR_W / 72), height=_fmt((top - low) / 72),
                      style="filled", fillcolor=fill, color=ERROR if act.error else ink,
                      penwidth="0.8", pos=_pos(x, (top + low) / 2), spans=True)
    edge = max(lane_x.values(), default=0) + 60
    for i, row in enumerate(seq.rows):
        _row(canvas, row, labels[i], ys[i], lane_x, edge, first=i == 0)
    for k, (_, _, top) in enumerate(blocks):
        low = top
        if k < len(drawn) and drawn[k]:
            low = SD.draw(canvas.g, drawn[k], USER_X - 10, top, room, prefix=f"s{k}_",
                          lang=lang)
            canvas.g.units.append((top, low))   # a slide keeps it on one page
        graph = _graph(doc, k)
        if graph is not None:
            # the autograd graph the statement's tensors hang from, under its pictures
            # (as the terminal draws it), kept on one page too
            end = GD.draw(SD.Pen(canvas.g, f"s{k}_g"), graph, USER_X - 10, low, room, lang)
            canvas.g.units.append((low, end))
    return canvas.g


def _graph(doc: Document, k: int) -> Graph | None:
    """The autograd graph recorded after statement ``k`` (None without one)."""
    st = doc.statements[k] if k < len(doc.statements) else None
    return st.session.graph if st is not None and st.session is not None else None


#: Graphviz reads at most 16384 bytes of one line or quoted string (2.43's lexer); a
#: longer comment line silently ends the file: dot exits 0 having drawn nothing.
COMMENT_CHARS = 2000


def _sources(doc: Document) -> str:
    """The statements on one line (a DOT comment ends at a newline, so none may be left),
    at most COMMENT_CHARS of them, then how many statements there are."""
    text = " ".join("; ".join(st.source or "" for st in doc.statements).split())
    if len(text) <= COMMENT_CHARS:
        return text
    return f"{text[:COMMENT_CHARS]}... ({len(doc.statements)} statements)"


def _lifelines(canvas: _Canvas, seq: Sequence, lane_x: Mapping[str, float], ys: list[float],
               blocks: list[tuple[int, int, float]], lang: str = "en") -> None:
    """A dashed lifeline per layer through each statement's rows, broken where a
    storage picture is drawn; the titles repeated under a long diagram."""
    footer = len(seq.rows) > FOOTER_ROWS
    for lane in seq.lanes:
        fill, ink = COLORS[lane]
        # the label alone in the chosen language (a lifeline's box has no room for both)
        title = i18n.text(f"ui.layer.{lane}", lang) if lang != "en" else LAYERS[lane]
        box: dict[str, Any] = dict(shape="box", style="rounded,filled", fillcolor=fill, color=ink,
                   fontname=SANS + "-Bold", fontsize=str(DETAIL_PT), fontcolor=ink,
                   height="0.42", width=_fmt(max(1.2, 0.13 * P.columns(title) + 0.3)),
                   fixedsize="true")
        canvas.g.node(f"head_{lane}", _plain(title), pos=_pos(lane_x[lane], 34), **box)
        # a slide page after the first draws the titles again at its top
        canvas.g.header.append((f"head_{lane}", _plain(title), lane_x[lane], box))
        for k, (first, last, _) in enumerate(blocks):
            start = f"head_{lane}" if k == 0 else canvas.point(lane_x[lane], ys[first] + 14)
            bottom = ys[last] - ROW_H / 2
            if footer and k == len(blocks) - 1:
                canvas.g.node(f"foot_{lane}", _plain(title),
                              pos=_pos(lane_x[lane], bottom - FOOTER_H / 2), **box)
                canvas.g.footer = bottom - FOOTER_H / 2
                end = f"foot_{lane}"
            else:
                end = canvas.point(lane_x[lane], bottom)
            canvas.g.edge(start, end, style="dashed", color="#a0a0a0", arrowhead="none",
                          penwidth="0.8")


def _row_label(row: Row, lane_x: Mapping[str, float], right: float) -> _Label:
    """Where the row's text starts (as :func:`_row` draws it), wrapped to ``right``."""
    if row.kind in ("statement", "value"):
        return _wrapped(USER_X - 10, row.name, "", right)
    xs, xd = _ends(row, lane_x)
    if row.src is not None and row.src == row.dst:
        left = max(xs, xd) + BAR_W / 2 + 14 + 5
    else:
        left = min(xs, xd) + 6
    return _wrapped(left, row.name, row.detail if row.kind == "call" else "", right)


def _ends(row: Row, lane_x: Mapping[str, float]) -> tuple[float, float]:
    xs = USER_X if row.src is None else lane_x[row.src] + row.src_level * NEST
    xd = USER_X if row.dst is None else lane_x[row.dst] + row.dst_level * NEST
    return xs, xd


def _row(canvas: _Canvas, row: Row, lab: _Label, y: float, lane_x: Mapping[str, float],
         right: float, first: bool) -> None:
    top = y + lab.extra
    if row.kind == "statement":
        if not first:
            canvas.line([(USER_X - 10, top + 14), (right, top + 14)], dashed=True,
                        color="#c0c0c0", head=False)
        canvas.label(lab, top + 2, INK)
        return
    if row.kind == "value":  # the statement's value, as Python prints it (or its error)
        canvas.label(lab, top + 2, ERROR if row.error else INK, bold=row.error)
        return
    color = ERROR if row.error else INK
    xs, xd = _ends(row, lane_x)
    half = BAR_W / 2
    if row.src is not None and row.src == row.dst:
        # a call (or a failing return) on the same lifeline: UML's self-message hook
        out = max(xs, xd) + half + 14
        rise = 7 if row.kind == "call" else -7
        start_y, end_y = (y + rise, y) if row.kind == "call" else (y, y + rise)
        canvas.line([(xs + half, start_y), (out, start_y), (out, end_y), (xd + half, end_y)],
                    dashed=row.kind == "return", color=color)
        label_top = top + (4 if row.kind == "call" else -3)
    else:
        rightward = xd > xs
        start = xs if row.src is None else xs + (half if rightward else -half)
        end = xd if row.dst is None else xd + (-half if rightward else half)
        canvas.line([(start, y), (end, y)], dashed=row.kind == "return", color=color,
                    first_visible=row.src is None)
        label_top = top + 9
    if row.kind == "call":
        ink = COLORS[row.dst][1] if row.dst else INK
        canvas.label(lab, label_top, ink, note=row.note, url=row.url)
    elif row.name:
        canvas.label(lab, label_top, color, bold=False)


def calls(doc: Document, *, html: bool = True,
          pictures: list[list[dict[str, Any]]] | None = None,
          prev: Statement | None = None, lang: str = "en") -> P.Digraph:
    """The nested call graph as a tree, read left to right, children in call order;
    after each statement's calls, its storage picture: a coloured HTML-like table, or
    with ``html=False`` (a Graphviz without them) the terminal's picture as text."""
    g = P.Digraph("tidx", engine="dot", comment=f"tidx call tree: {_sources(doc)}")
    g.attr("graph", rankdir="LR", ordering="out", nodesep="0.12", ranksep="0.3",
           bgcolor="white", pad="0.3")
    g.attr("node", shape="box", style="rounded,filled", fontname=MONO,
           fontsize=str(DETAIL_PT), margin="0.08,0.04", height="0.3")
    g.attr("edge", color="#8a8a8a", arrowsize="0.6")
    count = 0

    def add(ev: Event, parent: str) -> None:
        nonlocal count
        count += 1
        name = f"e{count}"
        fill, ink = COLORS.get(ev.layer.value, ("#eeeeee", INK))
        # long values wrap onto more lines of the box: nothing is cut
        lines = P.wrap(ev.name, 48)
        detail = diagram.details(ev, whole=True)
        if detail:
            lines += P.wrap(detail, 44)
        result = diagram.result_text(ev.result, whole=True)
        if result:
            lines += P.wrap("→ " + result, 44)
        if ev.error is not None:
            err = ev.error
            lines += P.wrap(f"raises {err.type}: {err.message}", 60)
        attrs: dict[str, Any] = {"tooltip": ev.note or ev.name}
        url = source_url(ev.source)
        if url:
            attrs.update(URL=url, target="_blank")
        g.node(name, _plain(*lines) if len(lines) > 1 else _plain(lines[0]), fillcolor=fill,
               color=ERROR if ev.error is not None else ink, fontcolor=ink, **attrs)
        g.edge(parent, name)
        for child in ev.children:
            add(child, name)

    drawn = pictures if pictures is not None else collect(doc, prev)
    for i, st in enumerate(doc.statements):
        root = f"s{i}"
        title = [diagram.statement_title(st)] + [w for v in F.value_lines(st)
                                                 for w in P.wrap(v, 84)]
        err = st.error
        if err is not None:  # as Python prints it, even when the step that raised is filtered
            title += P.wrap(f"{err.type}: {err.message}", 84)
            why = i18n.explain_error(err.message, lang, i18n.error_context(st))
            title += P.wrap(why, 84) if why else []
        g.node(root, _plain(*title), shape="plaintext", style="", fontsize="12",
               fontname=MONO)
        for ev in st.events:
            add(ev, root)
        for k, picture in enumerate(drawn[i] if i < len(drawn) else []):
            label = SD.table(picture) if html else _plain(*SD.text_lines(picture))
            # (the call tree's table stays in English: its words are few)
            g.node(f"pic{i}_{k}", label, shape="plaintext", style="", margin="0",
                   fontsize=str(DETAIL_PT + 1))
            g.edge(root, f"pic{i}_{k}", style="dashed", color="#c0c0c0", arrowhead="none")
        graph = _graph(doc, i)
        if graph is not None:
            # the autograd graph, as the terminal's tree lines (indentation kept)
            lines = [line.replace(" ", "\u00a0") for line in graph_lines(graph, lang)]
            g.node(f"graph{i}", _plain(*lines), shape="plaintext", style="", fontname=MONO,
                   fontsize=str(DETAIL_PT), fontcolor=GD.INK["bold"])
            g.edge(root, f"graph{i}", style="dashed", color="#c0c0c0", arrowhead="none")
    return g


DIAGRAMS = {"sequence": sequence, "calls": calls}


def render(doc: Document, diagram_kind: str = "sequence", *,
           html: bool = True, pictures: list[list[dict[str, Any]]] | None = None,
           prev: Statement | None = None, lang: str = "en") -> P.Digraph:
    """The chosen diagram of the document; ``html=False`` for a Graphviz without
    HTML-like labels (only the call tree uses them); ``pictures`` the storage pictures
    of each statement (see :func:`collect`), else made from ``doc`` with ``prev``, the
    statement before its first (one page of a lesson)."""
    if diagram_kind == "calls":
        return calls(doc, html=html, pictures=pictures, prev=prev, lang=lang)
    return DIAGRAMS[diagram_kind](doc, pictures=pictures, prev=prev, lang=lang)


def collect(doc: Document, prev: Statement | None = None
            ) -> list[list[dict[str, Any]]]:
    """Each statement's storage pictures (:func:`tracer.picture.collect`), the
    statement before it giving the values its writes replaced.  From the unfiltered
    run: a filter (--ops, --layers) drops the steps that recorded those values."""
    sts = doc.statements
    before = (prev,) + sts[:-1]
    return [storage.collect(st, b) for st, b in zip(sts, before)]
