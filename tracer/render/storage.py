"""The storage picture in the terminal: a storage's elements as a row of cells, under
it which element of each view every cell is, what the statement changed, one element's
offset worked out, each view's own grid, and a legend for every mark drawn.

The picture itself (which tensors, which values, which marks) is plain data built by
:mod:`tracer.picture`; this module only draws it, readable on a 100-column slide and
without colour (every highlight also has a mark the legend explains).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from tracer import i18n
from tracer import values as V
from tracer.picture import (MAX_CELLS, MAX_STORAGES, MAX_VIEWS, arithmetic_terms,
                            collect, index_text, picture, selected_labels, touched)
from tracer.render import format as F

#: the model's functions, read here by tree.py, step.py and the tests as before the
#: model moved to tracer.picture
__all__ = ["MAX_CELLS", "MAX_STORAGES", "MAX_VIEWS", "StoragePicture", "collect",
           "picture", "touched"]

TOUCH_STYLE = {"written": "bold white on red", "read": "bold black on cyan"}
TOUCH_MARK = {"written": "W", "read": "R"}
#: how a grid shows a touched element without colour: ``[10]`` written, ``(5)`` read
GRID_MARK = {"written": "[{}]", "read": "({})", None: " {} "}
GAP = 4             # columns between two grids side by side
MAX_CHANGES = 6     # old -> new pairs listed; the others are counted (all are marked W)


def _cell(v: Any, known: bool = True) -> str:
    """An element as torch prints it; ``·`` when the trace did not record it."""
    return F.number(v) if known and v is not None else "·"


def geometry(t: dict[str, Any], lang: str) -> str:
    """``sizes (3, 3) strides (3, 1) offset 0`` in ``lang``: Python's tuple spelling."""
    strides = ", ".join(map(str, t["strides"])) + ("," if len(t["strides"]) == 1 else "")
    sizes = ", ".join(map(str, t["shape"])) + ("," if len(t["shape"]) == 1 else "")
    return i18n.text("ui.storage.geometry", lang, sizes=sizes, strides=strides,
                     offset=t["offset"])


def _with_english(id: str, lang: str, style: str = "", **args: Any) -> Text:
    shown, english = i18n.pair(id, lang, **args)
    out = Text(shown, style=style)
    if shown != english:
        out.append(f"  ({english})", style="dim")
    return out


def grid_lines(g: dict[str, Any], lang: str, base: bool) -> list[Text]:
    """A view's grid as lines: its name and geometry, then its elements row by row
    (the leading indices in front when it has more than two dims), a written element
    as ``[v]``, a read one as ``(v)``."""
    name = g["name"] + (f" ({i18n.both('ui.picture.base', lang)})" if base else "")
    head = Text(f"{name}: {g['dtype']}{list(g['shape'])}", style="bold cyan")
    strides = ", ".join(map(str, g["strides"])) + ("," if len(g["strides"]) == 1 else "")
    lines = [head, Text(i18n.text("ui.picture.strides", lang, strides=strides,
                                  offset=g["offset"]), style="dim")]
    cells = [c for r in g["rows"] for c in r["cells"]]
    width = max([len(_cell(c["value"], c["known"])) for c in cells] + [1])
    lead = len(g["shape"]) > 2
    for r in g["rows"]:
        line = Text(index_text(r["index"])[:-1] + ", :]  " if lead else "")
        for i, c in enumerate(r["cells"]):
            text = GRID_MARK[c["mark"]].format(_cell(c["value"], c["known"]).rjust(width))
            line.append(" " if i else "")       # [10] (5) never run into each other
            line.append(text, style=TOUCH_STYLE.get(c["mark"] or "", ""))
        lines.append(line)
    if g["more"]:
        lines.append(_with_english("ui.storage.more", lang, "dim", count=g["more"]))
    return lines


def _side_by_side(blocks: list[list[Text]], width: int) -> list[Text]:
    """Blocks of lines next to each other, as many per band as fit in ``width``."""
    out: list[Text] = []
    band: list[tuple[list[Text], int]] = []
    used = 0

    def flush() -> None:
        for i in range(max(len(b) for b, _ in band)):
            line = Text("  ")
            for b, w in band:
                part = b[i] if i < len(b) else Text("")
                line.append_text(part)
                line.append(" " * (w - cell_len(part.plain) + GAP))
            line.rstrip()
            out.append(line)

    for block in blocks:
        w = max(cell_len(line.plain) for line in block)
        if band and used + w + GAP > width - 2:
            flush()
            band, used = [], 0
        band.append((block, w))
        used += w + GAP
    if band:
        flush()
    return out


class StoragePicture:
    """A rich renderable of one :func:`tracer.picture.picture` dict: wraps the storage
    row to the console's width.  ``lang`` (``"zh"``) labels it in that language beside
    the English."""

    #: every part, in the order drawn
    PARTS = ("title", "row", "facts", "grids", "legend")

    def __init__(self, picture: dict[str, Any], *, lang: str = "en",
                 parts: tuple[str, ...] = PARTS) -> None:
        self.p = picture
        self.lang = lang
        self.parts = parts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        p, lang, parts = self.p, self.lang, self.parts
        if "title" in parts:
            yield self._title()
        if "row" in parts:
            yield from self._row(options.max_width)
        if "facts" in parts:
            yield from self._facts(options.max_width)
        grids = p.get("grids", [])
        base = p.get("base")
        if "grids" in parts and grids:
            yield from _side_by_side([grid_lines(g, lang, base is not None and i == 0)
                                      for i, g in enumerate(grids)], options.max_width)
        if "legend" in parts:
            yield from self._legend(options.max_width)

    def _title(self) -> Text:
        p, lang = self.p, self.lang
        shown, english = i18n.pair("ui.storage.title", self.lang, storage=p["storage"],
                                   size=p["size"], dtype=p["dtype"], nbytes=p["nbytes"])
        shown, english = shown + F.on_device(p, lang), english + F.on_device(p)
        title = Text(shown, style="bold")
        if shown != english:
            title.append(f"  {english}", style="dim")
        names = [V.shown(t) for t in p["views"]]
        if names:
            title.append("   " + i18n.text("ui.picture.views", lang,
                                           names=", ".join(names)))
        return title

    def _row(self, max_width: int) -> RenderResult:
        p, lang = self.p, self.lang
        n = min(p["size"], MAX_CELLS)
        offset = i18n.both("ui.storage.offset", lang)
        base = p.get("base")
        labels = [(V.shown(t) + (f" ({i18n.both('ui.picture.base', lang)})"
                                 if base is not None and i == 0 else ""), selected_labels(g))
                  for i, (t, g) in enumerate(zip(p["views"], p.get("grids", [])))]
        texts = {off: _cell(p["cells"].get(off), off in p["cells"]) for off in range(n)}
        width = max([len(texts[o]) for o in texts] + [len(str(n - 1)), 3] +
                    [len(w) for _, where in labels for w in where.values()]) + 2
        head = max([cell_len(name) for name, _ in labels] + [cell_len(offset)]) + 2
        per_line = max(1, (max_width - head - 1) // (width + 1))
        if per_line < n and (max_width - head - 1) // width >= n:
            # one space of padding less keeps the storage on one row: one picture
            width -= 1
            per_line = n
        for first in range(0, n, per_line):
            chunk = range(first, min(n, first + per_line))
            yield Text(offset + " " * (head - cell_len(offset)) + " " +
                       " ".join(str(o).center(width) for o in chunk), style="dim")
            yield Text(" " * head + "┌" + "┬".join("─" * width for _ in chunk) + "┐")
            row = Text(" " * head + "│")
            for o in chunk:
                row.append(texts[o].rjust(width - 1) + " ", style=TOUCH_STYLE.get(
                    p["touched"].get(o, ""), ""))
                row.append("│")
            yield row
            yield Text(" " * head + "└" + "┴".join("─" * width for _ in chunk) + "┘")
            if any(o in p["touched"] for o in chunk):
                yield Text(" " * head + " " + " ".join(
                    TOUCH_MARK.get(p["touched"].get(o, ""), "").center(width)
                    for o in chunk).rstrip())
            for name, where in labels:
                if any(o in where for o in chunk):   # a view with no element here: no row
                    yield Text((name + " " * (head - cell_len(name)) + " " + " ".join(
                        where.get(o, "").center(width) for o in chunk)).rstrip(),
                        style="cyan")
        if p["size"] > n:
            yield Text(" " * head + " ").append_text(
                _with_english("ui.storage.more", lang, "dim", count=p["size"] - n))
        if p.get("more_views"):
            yield _with_english("ui.picture.more_views", lang, "dim", count=p["more_views"])

    def _facts(self, width: int) -> RenderResult:
        """What changed, and one element's offset worked out."""
        p, lang = self.p, self.lang
        changes = p.get("changes") or []
        if changes:
            unknown = i18n.text("ui.picture.unknown", lang)
            # old -> new where the old value is known (the lesson of a write), a few; the
            # elements a fresh storage got (no old value) as their offsets, in runs
            known = [c for c in changes if c["old_known"]]
            parts = [i18n.text("ui.picture.change", lang, offset=c["offset"],
                               old=_cell(c["old"]),
                               new=_cell(c["new"]) if c["new_known"] else unknown)
                     for c in known[:MAX_CHANGES]]
            if len(known) > MAX_CHANGES:
                parts.append(i18n.text("ui.picture.more_changes", lang,
                                       count=len(known) - MAX_CHANGES))
            fresh = [c["offset"] for c in changes if not c["old_known"]]
            if fresh:
                parts.append(i18n.text("ui.picture.fresh", lang, count=len(fresh),
                                       offsets=_runs(fresh)))
            line = Text(i18n.both("ui.picture.changed", lang) + ": ", style="bold")
            line.append("; ".join(parts))
            yield line
        a = p.get("arithmetic")
        if a:
            letters = _letters(len(a["index"]))
            formula = " + ".join(["offset"] + [f"{x}*stride{d}" for d, x in
                                               enumerate(letters)])
            line = Text(f"{a['view']}{index_text(a['index'])} -> ", style="bold")
            line.append(i18n.text("ui.picture.arithmetic", lang,
                                  terms=arithmetic_terms(a), result=a["result"]))
            if a["known"]:
                line.append("   " + i18n.text("ui.picture.holds", lang,
                                              value=_cell(a["value"])))
            # the general formula beside it when it fits, else under it: never cut
            if cell_len(line.plain) + len(formula) + 5 <= width:
                line.append(f"   ({formula})", style="dim")
                yield line
            else:
                yield line
                yield Text(f"  ({formula})", style="dim")

    def _legend(self, width: int) -> RenderResult:
        """Every mark drawn, with what it means, an entry never split across lines."""
        lang = self.lang
        legend = self.p.get("legend") or []
        if not legend:
            return
        line = Text(i18n.both("ui.picture.legend", lang) + ":", style="dim")
        for m in legend:
            entry = Text("  ")
            symbol = {"written": " W [v] ", "read": " R (v) "}.get(m["key"], m["symbol"])
            entry.append(symbol, style=TOUCH_STYLE.get(m["key"], "bold"))
            entry.append(" " + i18n.text(m["text_id"], lang), style="dim")
            if cell_len(line.plain) + cell_len(entry.plain) > width and line.plain.strip():
                yield line
                line = Text("       ")
            line.append_text(entry)
        yield line


def _runs(offsets: list[int]) -> str:
    """Offsets as runs: ``0-11``, ``0, 4, 8``, ``1-3, 7``.

    >>> _runs([0, 1, 2, 3]), _runs([0, 4, 8]), _runs([1, 2, 3, 7])
    ('0-3', '0, 4, 8', '1-3, 7')
    """
    out: list[str] = []
    start = prev = offsets[0]
    for off in offsets[1:] + [None]:
        if off is not None and off == prev + 1:
            prev = off
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if off is not None:
            start = prev = off
    return ", ".join(out)


def _letters(n: int) -> list[str]:
    """The index letters of a formula: i, j, k, l ... (i0, i1 ... beyond eight dims)."""
    return list("ijklmnpq"[:n]) if n <= 8 else [f"i{d}" for d in range(n)]
