"""Graphviz diagrams of a trace: the sequence diagram and the call tree.

Pure functions from the trace document to a :class:`graphviz.Digraph`; rendering to
SVG/PNG/PDF is :mod:`tracer.export`'s business.

The sequence diagram places every node itself (``neato`` with pinned ``pos`` in
points): a sequence diagram is a table of lifelines and time rows, and letting a
layout engine guess it gives crossing arrows on the first nested call.  Pinned
coordinates render the same with the ``dot`` program and with the in-process
WebAssembly Graphviz, and stay legible from 5 to 200 steps.
"""

from __future__ import annotations

from typing import Any

import graphviz

from tracer.render import diagram
from tracer.render import format as F
from tracer.render.diagram import COLORS, Row, Sequence
from tracer.events import LAYERS, source_url

INK = "#333333"
ERROR = "#c62828"
MONO = "Courier"        # fixed width: label widths are known without measuring fonts
SANS = "Helvetica"

# Geometry, in points (72 per inch).
LANE_GAP = 175          # between lifelines
ROW_H = 20              # one call or return
BAR_W = 8               # activation bar width
NEST = 5                # a nested bar on the same lifeline moves right by this
USER_X = -80            # where the statement's first call comes from
NAME_PT, DETAIL_PT = 10, 9


def _fmt(v: float) -> str:
    """Coordinates with two decimals at most, so the DOT source is stable text."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _pos(x: float, y: float) -> str:
    return f"{_fmt(x)},{_fmt(y)}!"


def _plain(*lines: str) -> str:
    """A plain (not HTML) label: user text escaped, lines left-justified.

    The WebAssembly Graphviz has no HTML-like labels (it is built without an XML
    parser), so every label is plain text.
    """
    if len(lines) == 1:
        return graphviz.escape(lines[0])
    return graphviz.nohtml("".join(graphviz.escape(line) + r"\l" for line in lines))


class _Canvas:
    """The Digraph plus the few drawing moves a sequence diagram needs."""

    def __init__(self, title: str) -> None:
        self.g = graphviz.Digraph("tidx", engine="neato", comment=title)
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

    def label(self, left: float, y: float, name: str, detail: str, color: str, *,
              bold: bool = True, note: str | None = None, url: str | None = None) -> None:
        """Text starting at ``left``: the name (bold, the layer's ink), then grey values.

        Two nodes side by side, since a plain label has one font; Courier's fixed
        advance tells where the name ends.
        """
        attrs: dict[str, str] = {"tooltip": note or name}
        if url:
            attrs.update(URL=url, target="_blank")
        common = dict(shape="plaintext", margin="0", height="0.16", style="filled",
                      fillcolor="#ffffffe0")
        width = 0.6 * NAME_PT * len(name)
        self._n += 1
        self.g.node(f"l{self._n}", _plain(name), fontname=MONO + ("-Bold" if bold else ""),
                    fontcolor=color, pos=_pos(left + width / 2, y), **common, **attrs)
        if detail:
            left += width + 0.6 * DETAIL_PT * 3
            self._n += 1
            self.g.node(f"l{self._n}", _plain(detail), fontsize=str(DETAIL_PT),
                        fontcolor="#555555",
                        pos=_pos(left + 0.6 * DETAIL_PT * len(detail) / 2, y), **common, **attrs)


def sequence(doc: dict[str, Any]) -> graphviz.Digraph:
    """The sequence diagram: a lifeline per layer, calls and returns in time order."""
    seq = diagram.build(doc)
    canvas = _Canvas(f"tidx sequence diagram: {_sources(doc)}")
    lane_x = {lane: i * LANE_GAP for i, lane in enumerate(seq.lanes)}
    bottom = -ROW_H * len(seq.rows)
    _lifelines(canvas, seq, lane_x, bottom)
    for act in seq.activations:
        fill, ink = COLORS[act.lane]
        x = lane_x[act.lane] + act.level * NEST
        top, low = _row_y(act.start) + 3, _row_y(act.end) - 6
        canvas.g.node(f"bar{act.start}", shape="box", fixedsize="true",
                      width=_fmt(BAR_W / 72), height=_fmt((top - low) / 72),
                      style="filled", fillcolor=fill, color=ERROR if act.error else ink,
                      penwidth="0.8", pos=_pos(x, (top + low) / 2))
    right = max(lane_x.values(), default=0) + 60
    for i, row in enumerate(seq.rows):
        _row(canvas, row, _row_y(i), lane_x, right, first=i == 0)
    return canvas.g


#: Graphviz reads at most 16384 bytes of one line or quoted string (2.43's lexer); a
#: longer comment line silently ends the file: dot exits 0 having drawn nothing.
COMMENT_CHARS = 2000


def _sources(doc: dict[str, Any]) -> str:
    """The statements on one line (a DOT comment ends at a newline, so none may be left),
    at most COMMENT_CHARS of them, then how many statements there are."""
    text = " ".join("; ".join(st.get("source") or "" for st in doc["statements"]).split())
    if len(text) <= COMMENT_CHARS:
        return text
    return f"{text[:COMMENT_CHARS]}... ({len(doc['statements'])} statements)"


def _row_y(i: int) -> float:
    return -ROW_H * i


def _lifelines(canvas: _Canvas, seq: Sequence, lane_x: dict[str, float],
               bottom: float) -> None:
    footer = len(seq.rows) > 24  # repeat the titles under a long diagram
    for lane in seq.lanes:
        fill, ink = COLORS[lane]
        title = LAYERS[lane]
        box = dict(shape="box", style="rounded,filled", fillcolor=fill, color=ink,
                   fontname=SANS + "-Bold", fontsize="12", fontcolor=ink, height="0.36",
                   width=_fmt(max(1.2, 0.1 * len(title) + 0.3)), fixedsize="true")
        canvas.g.node(f"head_{lane}", _plain(title), pos=_pos(lane_x[lane], 34), **box)
        if footer:
            canvas.g.node(f"foot_{lane}", _plain(title),
                          pos=_pos(lane_x[lane], bottom - 14), **box)
            end = f"foot_{lane}"
        else:
            end = canvas.point(lane_x[lane], bottom + ROW_H / 2)
        canvas.g.edge(f"head_{lane}", end, style="dashed", color="#a0a0a0", arrowhead="none",
                      penwidth="0.8")


def _row(canvas: _Canvas, row: Row, y: float, lane_x: dict[str, float], right: float,
         first: bool) -> None:
    if row.kind == "statement":
        if not first:
            canvas.line([(USER_X - 10, y + 14), (right, y + 14)], dashed=True,
                        color="#c0c0c0", head=False)
        canvas.label(USER_X - 10, y + 2, row.name, "", INK)
        return
    if row.kind == "value":  # the statement's value, as Python prints it
        canvas.label(USER_X - 10, y + 2, row.name, "", INK, bold=False)
        return
    color = ERROR if row.error else INK
    xs = USER_X if row.src is None else lane_x[row.src] + row.src_level * NEST
    xd = USER_X if row.dst is None else lane_x[row.dst] + row.dst_level * NEST
    half = BAR_W / 2
    if row.src is not None and row.src == row.dst:
        # a call (or a failing return) on the same lifeline: UML's self-message hook
        out = max(xs, xd) + half + 14
        rise = 7 if row.kind == "call" else -7
        start_y, end_y = (y + rise, y) if row.kind == "call" else (y, y + rise)
        canvas.line([(xs + half, start_y), (out, start_y), (out, end_y), (xd + half, end_y)],
                    dashed=row.kind == "return", color=color)
        left, label_y = out + 5, y + (4 if row.kind == "call" else -3)
    else:
        rightward = xd > xs
        start = xs if row.src is None else xs + (half if rightward else -half)
        end = xd if row.dst is None else xd + (-half if rightward else half)
        canvas.line([(start, y), (end, y)], dashed=row.kind == "return", color=color,
                    first_visible=row.src is None)
        left, label_y = min(start, end) + 6, y + 7
    if row.kind == "call":
        ink = COLORS[row.dst][1] if row.dst else INK
        canvas.label(left, label_y, row.name, row.detail, ink, note=row.note, url=row.url)
    elif row.name:
        canvas.label(left, label_y, row.name, "", color, bold=False)


def calls(doc: dict[str, Any]) -> graphviz.Digraph:
    """The nested call graph as a tree, read left to right, children in call order."""
    g = graphviz.Digraph("tidx", engine="dot", comment=f"tidx call tree: {_sources(doc)}")
    g.attr("graph", rankdir="LR", ordering="out", nodesep="0.12", ranksep="0.3",
           bgcolor="white", pad="0.3")
    g.attr("node", shape="box", style="rounded,filled", fontname=MONO,
           fontsize=str(DETAIL_PT), margin="0.08,0.04", height="0.3")
    g.attr("edge", color="#8a8a8a", arrowsize="0.6")
    count = 0

    def add(ev: dict[str, Any], parent: str) -> None:
        nonlocal count
        count += 1
        name = f"e{count}"
        fill, ink = COLORS.get(ev["layer"], ("#eeeeee", INK))
        lines = [diagram.clip(ev["name"], 48)]
        detail = diagram.details(ev)
        if detail:
            lines.append(diagram.clip(detail, 44))
        result = diagram.result_text(ev.get("result"))
        if result:
            lines.append("→ " + diagram.clip(result, 44))
        if ev.get("error"):
            err = ev["error"]
            lines.append(diagram.clip(f"raises {err['type']}: {err['message']}", 60))
        attrs = {"tooltip": ev.get("note") or ev["name"]}
        url = source_url(ev.get("source"))
        if url:
            attrs.update(URL=url, target="_blank")
        g.node(name, _plain(*lines) if len(lines) > 1 else _plain(lines[0]), fillcolor=fill,
               color=ERROR if ev.get("error") else ink, fontcolor=ink, **attrs)
        g.edge(parent, name)
        for child in ev.get("children", []):
            add(child, name)

    for i, st in enumerate(doc["statements"]):
        root = f"s{i}"
        title = [diagram.statement_title(st)] + [diagram.clip(v) for v in F.value_lines(st)]
        g.node(root, _plain(*title), shape="plaintext", style="", fontsize="12",
               fontname=MONO)
        for ev in st.get("events", []):
            add(ev, root)
    return g


DIAGRAMS = {"sequence": sequence, "calls": calls}


def render(doc: dict[str, Any], diagram_kind: str = "sequence") -> graphviz.Digraph:
    """The chosen diagram of the document."""
    return DIAGRAMS[diagram_kind](doc)
