"""The storage picture as HTML: what :class:`tracer.render.storage.StoragePicture`
draws in the terminal, for a page, a notebook cell or a stepper's step.

It draws the plain dict of :func:`tracer.render.storage.picture` (one storage, its
cells, the elements read or written, the views over it), and the stepper's key
``earlier`` (elements an earlier step of the statement wrote), when present.  Every
cell carries ``data-offset`` and its value as text, so a test (or a script) reads the
picture as a person does.  Styles are scoped to ``.tidx`` like :mod:`tracer.render.html`'s.
"""

from __future__ import annotations

import itertools
from html import escape
from typing import Any

from tracer import i18n
from tracer import values as V
from tracer.render import storage as RS

#: Cells per row: a 64-element storage wraps to four rows, readable from the back of a room.
PER_ROW = 16

CSS = """.tidx figure.storage { margin: 0.6em 0 1em; }
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
.tidx ul.geometry { list-style: none; padding: 0; margin: 0.2em 0; color: #555;
                    font-size: 0.85em; }
"""


def _where(view: dict[str, Any]) -> dict[int, list[str]]:
    """Offset -> the multi-indices of ``view`` that address it (an expanded view has
    several for one element)."""
    where: dict[int, list[str]] = {}
    for index, off in itertools.islice(RS._offsets(view), RS.MAX_CELLS * 4):
        where.setdefault(off, []).append(",".join(map(str, index)) if index else "()")
    return where


def _index_cell(indices: list[str] | None) -> str:
    if not indices:
        return "<td></td>"
    more = f"<sup>+{len(indices) - 1}</sup>" if len(indices) > 1 else ""
    return f'<td title="{escape(" ".join(indices))}">{escape(indices[0])}{more}</td>'


def _legend(p: dict[str, Any], lang: str) -> str:
    kinds = set(p["touched"].values())
    items = [k for k in ("written", "read") if k in kinds]
    if set(p.get("earlier") or {}) - set(p["touched"]):
        items.append("earlier")
    parts = [f'<span class="item"><span class="swatch {k}"></span>'
             f"{escape(i18n.both(_LEGEND[k], lang))}</span>" for k in items]
    if any(len(ix) > 1 for view in p["views"] for ix in _where(view).values()):
        parts.append(f'<span class="item"><sup>+n</sup> '
                     f'{escape(i18n.both("ui.stepper.legend.more", lang))}</span>')
    return f'<div class="legend">{"".join(parts)}</div>' if parts else ""


_LEGEND = {"written": "ui.stepper.legend.written", "read": "ui.stepper.legend.read",
           "earlier": "ui.stepper.legend.earlier"}


def render(p: dict[str, Any], *, lang: str = "en") -> str:
    """One storage picture as a ``<figure class="storage">``."""
    shown, english = i18n.pair("ui.storage.title", lang, storage=p["storage"], size=p["size"],
                               dtype=p["dtype"], nbytes=p["nbytes"])
    title = escape(shown) + (f' <span class="en">{escape(english)}</span>'
                             if shown != english else "")
    n = min(p["size"], RS.MAX_CELLS)
    earlier = p.get("earlier") or {}
    views = [(V.shown(t), _where(t)) for t in p["views"]]
    offset = escape(i18n.both("ui.storage.offset", lang))
    out = [f'<figure class="storage" data-storage="{escape(p["storage"])}">',
           f"<figcaption>{title}</figcaption>", _legend(p, lang)]
    for first in range(0, n, PER_ROW):
        chunk = range(first, min(n, first + PER_ROW))
        out.append('<table class="grid"><tr class="offsets">'
                   f"<th>{offset}</th>" + "".join(f"<td>{o}</td>" for o in chunk) + "</tr>")
        cells = []
        for o in chunk:
            value = p["cells"].get(o)
            mark = p["touched"].get(o) or ("earlier" if o in earlier else "")
            classes = " ".join(c for c in ("cell", mark, "unset" if value is None else "") if c)
            cells.append(f'<td class="{classes}" data-offset="{o}">'
                         f"{escape(RS._cell(value))}</td>")
        out.append("<tr><th></th>" + "".join(cells) + "</tr>")
        for name, where in views:
            out.append(f'<tr class="view"><th>{escape(name)}</th>' +
                       "".join(_index_cell(where.get(o)) for o in chunk) + "</tr>")
        out.append("</table>")
    if p["size"] > n:
        out.append(f'<p class="legend">{escape(i18n.both("ui.storage.more", lang, count=p["size"] - n))}</p>')
    if p["views"]:
        out.append('<ul class="geometry">' + "".join(
            f"<li><b>{escape(V.shown(t))}</b>: {escape(t['dtype'])}{escape(str(list(t['shape'])))} "
            f"{escape(RS._geometry(t, lang))}</li>" for t in p["views"]) + "</ul>")
    out.append("</figure>")
    return "".join(out)


def render_all(pictures: list[dict[str, Any]], *, lang: str = "en") -> str:
    """Every picture of a statement (or a step), or nothing when it touched no storage."""
    return "".join(render(p, lang=lang) for p in pictures)
