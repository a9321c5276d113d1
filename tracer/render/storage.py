"""The storage picture: a storage's elements as a grid, the ones a statement read or
wrote highlighted, and under it every view of that storage the statement made, its
multi-index written at the element it addresses.

That picture is the lesson of ``t[1:, ::2]`` (a view picks elements, nothing moves)
and of ``t[rows, cols] = 10`` (the kernel writes elements 1 and 7).  It is built
from the trace document alone: kernels record the elements they touch, and every
tensor summary carries its storage, sizes, strides and offset.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from tracer import values as V
from tracer.events import walk
from tracer import i18n

MAX_CELLS = 64      # a larger storage is cut (its values are not recorded anyway)
MAX_VIEWS = 6
MAX_STORAGES = 3
TOUCH_STYLE = {"written": "bold white on red", "read": "bold black on cyan"}
TOUCH_MARK = {"written": "W", "read": "R"}
TOUCH_LABEL = {"written": "ui.storage.written", "read": "ui.storage.read"}


def touched(ev: dict[str, Any], marks: dict[str, dict[int, str]]) -> None:
    """Add the elements step ``ev`` read or wrote to ``marks`` (storage -> offset ->
    "written"|"read"); written wins over read: the write is what the statement did."""
    for key, val in (ev.get("args") or {}).items():
        if V.kind(val) == "elements":
            where = marks.setdefault(val["storage"], {})
            for off in val.get("offsets", []):
                where[off] = "written" if key == "written" else where.get(off, "read")


def _itemsize(dtype: str) -> int:
    bits = re.search(r"\d+", dtype)
    return max(1, int(bits.group()) // 8) if bits else 1


def _offsets(t: dict[str, Any]):
    """(multi-index, storage offset) of every element of a view, in row-major order.

    Lazy (an odometer, not itertools.product, which would first build a tuple of
    every index of each dim: seconds for a 10M-element view of which a few are drawn).

    >>> [off for _, off in _offsets({"shape": [2, 2], "strides": [1, 2], "offset": 3})]
    [3, 5, 4, 6]
    >>> list(_offsets({"shape": [], "strides": [], "offset": 7}))
    [((), 7)]
    """
    shape, strides = t["shape"], t["strides"]
    if 0 in shape:
        return
    index = [0] * len(shape)
    while True:
        yield tuple(index), t["offset"] + sum(i * s for i, s in zip(index, strides))
        d = len(shape) - 1
        while d >= 0:
            index[d] += 1
            if index[d] < shape[d]:
                break
            index[d] = 0
            d -= 1
        if d < 0:
            return


def _flat(values: Any):
    if isinstance(values, list):
        for v in values:
            yield from _flat(v)
    else:
        yield values


def collect(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The storages a statement touched, bound or returned, as plain data.

    Each: ``{"storage", "dtype", "size", "cells": {offset: value}, "touched":
    {offset: "written"|"read"}, "views": [tensor summary, ...]}``.
    """
    after: list[dict[str, Any]] = []
    for name, b in (st.get("bindings") or {}).items():
        if b and V.is_tensor(b["summary"]):
            # a bound view is called by the name it is bound to (y, not t$1)
            t = b["summary"]
            after.append(t if V.name(t) else V.with_name(t, name))
        elif b:  # a tuple of tensors, say: each keeps its label
            after += V.tensors(b["summary"])
    if st.get("result"):
        after += V.tensors(st["result"]["summary"])
    during: list[dict[str, Any]] = []
    marks: dict[str, dict[int, str]] = {}
    for _, ev in walk(st.get("events", [])):
        touched(ev, marks)
        for val in (ev.get("args") or {}).values():
            during += V.tensors(val)
        during += V.tensors(ev.get("result"))
    wanted = [t["storage"] for t in after] + list(marks)
    storages = list(dict.fromkeys(wanted))[:MAX_STORAGES]
    return [picture(s, after, during, marks.get(s, {})) for s in storages]


def picture(storage: str, after: list[dict[str, Any]], during: list[dict[str, Any]],
             touched: dict[int, str]) -> dict[str, Any]:
    mine = [t for t in after + during if t["storage"] == storage and t["device"] != "meta"]
    dtype = mine[0]["dtype"] if mine else "?"
    nbytes = mine[0]["nbytes"] if mine else 0
    cells: dict[int, Any] = {}
    # values after the statement first, then the newest recorded ones: never a stale value
    # (an older record of a view already seen sets no cell: skip it, big traces have many)
    seen: set[tuple] = set()
    for t in after + during[::-1]:
        if t["storage"] != storage or "values" not in t:
            continue
        view = (tuple(t["shape"]), tuple(t["strides"]), t["offset"])
        if view in seen:
            continue
        seen.add(view)
        for (_, off), v in zip(_offsets(t), _flat(t["values"])):
            cells.setdefault(off, v)
    # one record per tensor, its last: a tensor whose geometry changed in place (arange's
    # empty({0}) resized, resize_, squeeze_, as_strided_) is drawn as it is now
    latest: dict[str, dict[str, Any]] = {}
    for t in during + after:
        if t["storage"] == storage:
            latest.pop(t["label"], None)
            latest[t["label"]] = t
    views: dict[tuple, dict[str, Any]] = {}
    for t in latest.values():
        key = (tuple(t["shape"]), tuple(t["strides"]), t["offset"])
        if key not in views or (V.name(t) and not V.name(views[key])):
            views[key] = t
    # the user's names first, then the views the steps made, in the order they were made
    ordered = sorted(views.values(), key=V.order)
    return {"storage": storage, "dtype": dtype, "nbytes": nbytes,
            "size": nbytes // _itemsize(dtype) if nbytes else 0,
            "cells": cells, "touched": touched, "views": ordered[:MAX_VIEWS]}


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, float):
        return f"{v:.4g}"
    return "·" if v is None else str(v)


def _geometry(t: dict[str, Any], lang: str) -> str:
    """``sizes (3, 3) strides (3, 1) offset 0`` in ``lang``: Python's tuple spelling."""
    strides = ", ".join(map(str, t["strides"])) + ("," if len(t["strides"]) == 1 else "")
    sizes = ", ".join(map(str, t["shape"])) + ("," if len(t["shape"]) == 1 else "")
    return i18n.text("ui.storage.geometry", lang, sizes=sizes, strides=strides,
                     offset=t["offset"])


class StoragePicture:
    """A rich renderable: wraps the grid to the console's width (narrow terminals).
    ``lang`` (``"zh"``) labels it in that language beside the English."""

    def __init__(self, picture: dict[str, Any], *, lang: str = "en") -> None:
        self.p = picture
        self.lang = lang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        p, lang = self.p, self.lang
        n = min(p["size"], MAX_CELLS)
        offset = i18n.both("ui.storage.offset", lang)
        labels: list[tuple[str, dict[int, str]]] = []
        for t in p["views"]:
            where: dict[int, str] = {}
            for index, off in itertools.islice(_offsets(t), MAX_CELLS * 4):
                text = ",".join(map(str, index)) if index else "()"
                where[off] = where[off] + "*" if off in where else text
            labels.append((V.shown(t), where))
        texts = {off: _cell(p["cells"].get(off)) for off in range(n)}
        width = max([len(texts[o]) for o in texts] + [len(str(n - 1)), 3] +
                    [len(w) for _, where in labels for w in where.values()]) + 2
        head = max([len(name) for name, _ in labels] + [cell_len(offset)]) + 2
        per_line = max(1, (options.max_width - head - 1) // (width + 1))
        shown, english = i18n.pair("ui.storage.title", lang, storage=p["storage"],
                                   size=p["size"], dtype=p["dtype"], nbytes=p["nbytes"])
        title = Text(shown, style="bold")
        if shown != english:
            title.append(f"  {english}", style="dim")
        for kind in ("written", "read"):
            if kind in p["touched"].values():
                title.append("   ")
                title.append(f" {TOUCH_MARK[kind]} ", style=TOUCH_STYLE[kind])
                title.append(f" {i18n.both(TOUCH_LABEL[kind], lang)}")
        yield title
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
                    TOUCH_MARK.get(p["touched"].get(o, ""), "").center(width) for o in chunk))
            for name, where in labels:
                yield Text(name.ljust(head) + " " + " ".join(
                    where.get(o, "").center(width) for o in chunk), style="cyan")
        if p["size"] > n:
            shown, more = i18n.pair("ui.storage.more", lang, count=p["size"] - n)
            yield Text(f"{' ' * head} {shown}" + (f"  ({more})" if shown != more else ""),
                       style="dim")
        for t in p["views"]:
            yield Text(f"  {V.shown(t)}: {t['dtype']}{list(t['shape'])} "
                       f"{_geometry(t, lang)}", style="dim")
