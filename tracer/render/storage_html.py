"""The storage picture as HTML: what :class:`tracer.render.storage.StoragePicture`
draws in the terminal, for a page, a notebook cell or a stepper's step.

It draws the plain dict of :func:`tracer.picture.picture` (one storage, its cells, the
elements read or written, the views over it and their grids, what changed, one offset
worked out, the legend), and the stepper's key ``earlier`` (elements an earlier step of
the statement wrote), when present.  Every
cell carries ``data-offset`` and its value as text, so a test (or a script) reads the
picture as a person does.  Styles are scoped to ``.tidx`` like :mod:`tracer.render.html`'s.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len

from tracer import i18n
from tracer.picture import selected
from tracer.render import format as F
from tracer.render.html import escape
from tracer.render import storage as RS

#: Cells per row at most: a 64-element storage of small numbers wraps to four rows.
PER_ROW = 16
#: How many ems a picture's row may take: the picture's column of a 1920-pixel stepper
#: (and a notebook cell) is about 42 wide.
ROW_EMS = 41


def per_row(texts: list[str], n: int | None = None, head: str = "") -> int:
    """Cells per row for cells showing ``texts`` after a column of names as wide as
    ``head``: as many as fit in :data:`ROW_EMS` (wide floats get fewer), so a row is
    never wider than the picture; with ``n`` cells in all, spread evenly over the rows
    they need (6 + 6, not 9 + 3).

    >>> per_row(["1", "10"], head="t"), per_row(["-0.2934"], head="t"), per_row(["1"], n=12)
    (10, 7, 6)
    """
    widest = max([len(t) for t in texts] + [1])
    # min-width 2.6em or the text, 0.7em of padding, the border and the gap
    cell = max(2.6, 0.62 * widest) + 1.0
    # a CJK character is two cells wide, as wide as two Latin ones here
    room = ROW_EMS - (0.62 * cell_len(head) + 1.2 if head else 0)
    most = max(4, min(PER_ROW, int(room / cell + 1e-9)))
    if n is None or n <= most:
        return most if n is None else max(n, 1)
    rows = -(-n // most)
    return -(-n // rows)


CSS = """.tidx figure.storage { margin: 0.6em 0 1em; overflow-x: auto; }
.tidx figure.storage figcaption { font-weight: bold; margin-bottom: 0.3em; }
.tidx table.grid { border-collapse: separate; border-spacing: 3px; margin: 0.2em 0 0.6em; }
.tidx table.grid th { font-weight: normal; text-align: right; padding-right: 0.6em;
                      color: #555; white-space: nowrap; }
.tidx table.grid td { text-align: center; min-width: 2.6em; padding: 0.15em 0.35em; }
.tidx table.grid tr.offsets td { color: #888; font-size: 0.8em; }
.tidx table.grid td.cell { border: 2px solid #456; border-radius: 4px; background: #fff;
                           font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
                           font-weight: bold; }
.tidx table.grid td.cell.unset { color: #aaa; font-weight: normal; }
.tidx table.grid td.cell.written { background: #d32f2f; color: #fff; border-color: #8e0000; }
.tidx table.grid td.cell.read { background: #4dd0e1; color: #000; border-color: #00838f; }
.tidx table.grid td.cell.earlier { background: #ffcdd2; }
.tidx table.grid tr.view td { color: #00695c; font-size: 0.85em; white-space: nowrap;
                              font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.tidx table.grid tr.view th { color: #00695c; font-weight: bold; }
.tidx table.grid sup { color: #c62828; }
.tidx .legend { font-size: 0.85em; color: #444; margin: 0.2em 0; }
.tidx .legend .item { display: inline-block; margin-right: 1.5em; }
.tidx .legend .swatch { display: inline-block; width: 1em; height: 1em; vertical-align: -0.15em;
                        border: 1px solid #456; border-radius: 2px; margin-right: 0.3em; }
.tidx .legend .swatch.written { background: #d32f2f; }
.tidx .legend .swatch.read { background: #4dd0e1; }
.tidx .legend .swatch.earlier { background: #ffcdd2; }
.tidx .grids { display: flex; flex-wrap: wrap; gap: 0.4em 2em; margin-top: 0.4em; }
.tidx .view-grid .head { color: #00695c; }
.tidx .view-grid .geo { color: #555; font-size: 0.8em; }
.tidx p.changes, .tidx p.arithmetic { margin: 0.3em 0; font-size: 0.9em; }
.tidx p.arithmetic { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
"""


def _index_cell(indices: list[str] | None) -> str:
    if not indices:
        return "<td></td>"
    more = f"<sup>+{len(indices) - 1}</sup>" if len(indices) > 1 else ""
    return f'<td title="{escape(" ".join(indices))}">{escape(indices[0])}{more}</td>'


#: how the legend shows a mark the model names (the others: the model's own symbol)
_SYMBOLS = {"written": '<span class="swatch written"></span>',
            "read": '<span class="swatch read"></span>', "repeated": "<sup>+n</sup> "}


def _legend(p: dict[str, Any], lang: str) -> str:
    """Every mark the picture draws, with what it means: the model's legend, and the
    stepper's cells an earlier step of the statement wrote."""
    parts = []
    for m in p.get("legend", []):
        symbol = _SYMBOLS.get(m["key"]) or f"<b>{escape(m['symbol'])}</b> "
        parts.append(f'<span class="item">{symbol}'
                     f'{escape(i18n.text(m["text_id"], lang))}</span>')
    if set(p.get("earlier") or {}) - set(p["touched"]):
        parts.append('<span class="item"><span class="swatch earlier"></span>'
                     f'{escape(i18n.both("ui.stepper.legend.earlier", lang))}</span>')
    return f'<div class="legend">{"".join(parts)}</div>' if parts else ""


def render(p: dict[str, Any], *, lang: str = "en") -> str:
    """One storage picture as a ``<figure class="storage">``: its title, the legend,
    the storage row (offsets, cells, under them each view's indices), what changed,
    one element's offset worked out, and each view's own grid."""
    shown, english = i18n.pair("ui.storage.title", lang, storage=p["storage"], size=p["size"],
                               dtype=p["dtype"], nbytes=p["nbytes"])
    shown, english = shown + F.on_device(p, lang), english + F.on_device(p)
    title = escape(shown) + (f' <span class="en">{escape(english)}</span>'
                             if shown != english else "")
    n = min(p["size"], RS.MAX_CELLS)
    earlier = p.get("earlier") or {}
    base = i18n.both("ui.picture.base", lang)
    views = [(g["name"] + (f" ({base})" if p.get("base") and i == 0 else ""), selected(g))
             for i, g in enumerate(p.get("grids", []))]
    offset = escape(i18n.both("ui.storage.offset", lang))
    out = [f'<figure class="storage" data-storage="{escape(p["storage"])}">',
           f"<figcaption>{title}</figcaption>", _legend(p, lang)]
    texts = [RS._cell(p["cells"].get(o), o in p["cells"]) for o in range(n)]
    step = per_row(texts + [i for _, where in views for ix in where.values() for i in ix], n,
                   head=max([name for name, _ in views] + [offset], key=len))
    for first in range(0, n, step):
        chunk = range(first, min(n, first + step))
        out.append('<table class="grid"><tr class="offsets">'
                   f"<th>{offset}</th>" + "".join(f"<td>{o}</td>" for o in chunk) + "</tr>")
        cells = []
        for o in chunk:
            known = o in p["cells"]
            mark = p["touched"].get(o) or ("earlier" if o in earlier else "")
            classes = " ".join(c for c in ("cell", mark, "" if known else "unset") if c)
            cells.append(f'<td class="{classes}" data-offset="{o}">'
                         f"{escape(RS._cell(p['cells'].get(o), known))}</td>")
        out.append("<tr><th></th>" + "".join(cells) + "</tr>")
        for name, where in views:
            if any(o in where for o in chunk):   # a view with no element here: no row
                out.append(f'<tr class="view"><th>{escape(name)}</th>' +
                           "".join(_index_cell(where.get(o)) for o in chunk) + "</tr>")
        out.append("</table>")
    if p["size"] > n:
        more = i18n.both("ui.storage.more", lang, count=p["size"] - n)
        out.append(f'<p class="legend">{escape(more)}</p>')
    if p.get("more_views"):
        more = i18n.both("ui.picture.more_views", lang, count=p["more_views"])
        out.append(f'<p class="legend">{escape(more)}</p>')
    out.append(_facts(p, lang))
    if p.get("grids"):
        out.append(_grids(p, lang))
    out.append("</figure>")
    return "".join(out)


def _facts(p: dict[str, Any], lang: str) -> str:
    """What changed (old -> new) and one element's offset worked out, when the picture
    model gives them (``changes``, ``arithmetic``)."""
    out = []
    changes = p.get("changes") or []
    if changes:
        # as the terminal says it: a few old -> new, the others counted; the elements a
        # fresh storage got (no old value) as their offsets, in runs
        unknown = i18n.text("ui.picture.unknown", lang)
        known = [c for c in changes if c["old_known"]]
        parts = [i18n.text("ui.picture.change", lang, offset=c["offset"],
                           old=RS._cell(c["old"]),
                           new=RS._cell(c["new"]) if c["new_known"] else unknown)
                 for c in known[:RS.MAX_CHANGES]]
        if len(known) > RS.MAX_CHANGES:
            parts.append(i18n.text("ui.picture.more_changes", lang,
                                   count=len(known) - RS.MAX_CHANGES))
        fresh = [c["offset"] for c in changes if not c["old_known"]]
        if fresh:
            parts.append(i18n.text("ui.picture.fresh", lang, count=len(fresh),
                                   offsets=RS._runs(fresh)))
        out.append(f'<p class="changes"><b>{escape(i18n.both("ui.picture.changed", lang))}:'
                   f'</b> {escape("; ".join(parts))}</p>')
    a = p.get("arithmetic")
    if a:
        index = "[" + (", ".join(map(str, a["index"])) if a["index"] else "()") + "]"
        terms = " + ".join([str(a["offset"])] + [f"{i}*{st}" for i, st in
                                                 zip(a["index"], a["strides"])])
        line = f"{a['view']}{index} → " + i18n.text("ui.picture.arithmetic", lang,
                                                    terms=terms, result=a["result"])
        if a.get("known"):
            line += "   " + i18n.text("ui.picture.holds", lang, value=RS._cell(a["value"]))
        out.append(f'<p class="arithmetic">{escape(line)}</p>')
    return "".join(out)


def _grid_cell(c: dict[str, Any]) -> str:
    classes = " ".join(x for x in ("cell", c["mark"] or "", "" if c["known"] else "unset") if x)
    return f'<td class="{classes}">{escape(RS._cell(c["value"], c["known"]))}</td>'


def _grids(p: dict[str, Any], lang: str) -> str:
    """Each view's own logical grid (the picture model's ``grids``), side by side: the
    elements the view selects, as the user indexes them, marked as in the storage row.
    A row longer than fits (a 1-d view of 64 elements) goes on over several lines."""
    out = ['<div class="grids">']
    for i, g in enumerate(p["grids"]):
        name = g["name"] + (f" ({i18n.both('ui.picture.base', lang)})"
                            if p.get("base") and i == 0 else "")
        strides = ", ".join(map(str, g["strides"])) + ("," if len(g["strides"]) == 1 else "")
        cells = [c for r in g["rows"] for c in r["cells"]]
        step = per_row([RS._cell(c["value"], c["known"]) for c in cells],
                       max([len(r["cells"]) for r in g["rows"]] + [1]))
        rows = "".join("<tr>" + "".join(_grid_cell(c) for c in r["cells"][at:at + step])
                       + "</tr>" for r in g["rows"] for at in range(0, len(r["cells"]), step))
        geometry = i18n.text("ui.picture.strides", lang, strides=strides, offset=g["offset"])
        more = (f'<p class="legend">{escape(i18n.both("ui.storage.more", lang, count=g["more"]))}'
                "</p>" if g.get("more") else "")
        out.append(f'<div class="view-grid"><div class="head"><b>{escape(name)}</b>: '
                   f'{escape(g["dtype"])}{escape(str(g["shape"]))}</div><div class="geo">'
                   f'{escape(geometry)}</div><table class="grid">{rows}</table>{more}</div>')
    out.append("</div>")
    return "".join(out)


def render_all(pictures: list[dict[str, Any]], *, lang: str = "en") -> str:
    """Every picture of a statement (or a step), or nothing when it touched no storage."""
    return "".join(render(p, lang=lang) for p in pictures)
