"""The interactive HTML stepper (``tidx export ... -o lesson.html``): one self-contained
page that walks through the trace a step at a time, for a class.

Prev/Next buttons, the arrow keys (and a presenter's clicker: PageUp/PageDown),
Home/End; ``K / N``; the current step with the path of calls above it, its key
values, note and PyTorch source link; the storage picture as it is at that step
(:mod:`tracer.render.stepper_states`), the elements the step writes in their own
colour.  ``lesson.html#step=5`` opens at step 5, and moving rewrites the fragment,
so a teacher copies the link of a step.  The sequence diagram and every step's line
(numbered, clickable, the current one highlighted) stay on the page, a section per
statement, errors with PyTorch's message.

Pure: everything is computed here, in Python, from the (filtered) trace document;
the page's script only shows what is already in it.  Each step is an inert
``<template>`` (its panel) naming the pictures it shows; a picture is written once
however many steps show it, so the file grows with the steps, not with their square.
No network: the styles, the script and the diagram are inline.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len

from tracer import i18n
from tracer import lecture as L
from tracer import numbering
from tracer.document import Document, Event
from tracer.events import source_url
from tracer.render import format as F
from tracer.render.html import escape
from tracer.render import html as render_html
from tracer.render import stepper_assets as assets
from tracer.render import stepper_states
from tracer.render import storage_html, svg_compact


def _layer(layer: str, lang: str) -> str:
    return (f'<span class="layer layer-{escape(layer)}">'
            f"{escape(i18n.layer(layer, lang))}</span>")


def frames(doc: Document, *, lecture: bool = False) -> list[dict[str, Any]]:
    """Every step as :mod:`tracer.numbering` numbers them (``lecture``: the lecture
    view's steps, else every step), as the list numbers them: ``{"statement": index,
    "event": event or None, "path": [the events above it], "folded": steps folded on
    its line, "outcome": [lines, on a statement's last step], "pictures": [storage
    pictures at that step]}``.  A statement that recorded no step is one frame whose
    ``event`` is None."""
    out: list[dict[str, Any]] = []
    before: dict[tuple[str, int], Any] = {}
    sts = doc.statements
    pictures: list[list[dict[str, Any]]] = []
    index = -1
    for s in numbering.steps(doc, full=not lecture):
        while index < s.statement:      # each statement's pictures, once, in order
            index += 1
            pictures, before = stepper_states.pictures(
                sts[index], before, sts[index - 1] if index else None)
        if out and out[-1]["statement"] != index:
            out[-1]["outcome"] = F.outcome(sts[out[-1]["statement"]])
        out.append({"statement": index, "event": s.event, "path": list(s.path),
                    "folded": s.folded, "outcome": [],
                    "pictures": pictures[s.position or 0]})
    if out:
        out[-1]["outcome"] = F.outcome(sts[out[-1]["statement"]])
    return out


def _translated(shown: str | None, english: str | None, cls: str) -> str:
    if not shown:
        return ""
    html = f'<p class="{cls}">{escape(shown)}</p>'
    if english and english != shown:
        html += f'<p class="{cls} en">{escape(english)}</p>'
    return html


def _shared(html: str, parts: dict[str, str] | None) -> str:
    """``html``, or with ``parts`` (html -> template id, shared by every step of the
    page) a placeholder the page's script replaces with the one template holding it:
    a statement's line, a path of calls and a source link repeat over many steps."""
    if parts is None:
        return html
    ref = parts.setdefault(html, f"tidx-part-{len(parts)}")
    return f'<b data-ref="{ref}"></b>'


def panel(frame: dict[str, Any], doc: Document, *, lang: str = "en",
          parts: dict[str, str] | None = None) -> str:
    """The current step: its statement, the calls above it, what it is and did
    (``parts``: see :func:`_shared`)."""
    st = doc.statements[frame["statement"]]
    total = len(doc.statements)
    where = i18n.both("ui.stepper.statement", lang, number=frame["statement"] + 1, total=total)
    out = [_shared("".join([
        '<div class="where">',
        f'<code class="src">&gt;&gt;&gt; {escape(st.source or "")}</code>',
        f' <span class="count">{escape(where)}</span></div>' if total > 1 else "</div>"]),
        parts)]
    ev: Event | None = frame["event"]
    if ev is None:
        out.append(f'<p class="note">{escape(i18n.both("ui.step.none", lang))}</p>')
    else:
        if frame["path"]:
            out.append(_shared('<ol class="path">' + "".join(
                f"<li>{_layer(p.layer.value, lang)} {escape(p.name)}</li>"
                for p in frame["path"]) + "</ol>", parts))
        out.append(f'<div class="now">{_layer(ev.layer.value, lang)} '
                   f'<span class="name">{escape(ev.name)}</span></div>')
        if frame.get("folded"):     # the lecture's "(+11 steps)" on this step's line
            out.append(f'<p class="folded">'
                       f'{escape(i18n.both("ui.stepper.folded", lang, count=frame["folded"]))}'
                       '</p>')
        rows = [(k, v) for k, v in F.args(ev, skip=("keys",))]
        if ev.result is not None:
            rows.append((i18n.both("ui.stepper.returns", lang), F.value(ev.result)))
        if rows:
            out.append('<table class="values">' + "".join(
                f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
                + "</table>")
        out.append(_translated(i18n.note(ev, lang), ev.note, "note"))
        url = source_url(ev.source)
        if url and ev.source:
            out.append(_shared(f'<p class="source"><a href="{escape(url)}">'
                               f'{escape(ev.source)}</a></p>', parts))
        if ev.error is not None:
            err = ev.error
            out.append(f'<p class="error">{escape(i18n.both("ui.raises", lang))} '
                       f"{escape(err.type)}: {escape(err.message)}</p>")
            why = i18n.explain_error(err.message, lang)
            if why:
                out.append(f'<p class="error">→ {escape(why)}</p>')
    graph = st.session.graph if st.session is not None else None
    if graph is not None:
        # the statement's autograd graph; in a backward pass, the node running now marked
        from tracer.render.graph import graph_html
        out.append(_shared(graph_html(graph, lang, _running(frame)), parts))
    if frame["outcome"]:
        # a tensor's repr keeps its columns: its type shrinks to fit the panel (the
        # stepper's CSS), down to a floor under which its lines wrap
        cols = min(120, max(cell_len(line) for line in frame["outcome"]))
        out.append(f'<div class="outcome"><h3>{escape(i18n.both("ui.stepper.outcome", lang))}'
                   f'</h3><pre style="--cols: {cols}">'
                   f'{escape(chr(10).join(frame["outcome"]))}</pre></div>')
    return "".join(out)


def _running(frame: dict[str, Any]) -> int | None:
    """The sequence number of the node whose evaluate_function this step is in."""
    for ev in [*frame["path"], frame["event"]]:
        if ev is not None and ev.name.startswith("autograd::engine::evaluate_function"):
            seq = ev.args.get("sequence_nr")
            value = seq.get("value") if isinstance(seq, dict) else None
            return value if isinstance(value, int) else None
    return None


def _controls(n: int, lang: str) -> str:
    prev, nxt = i18n.both("ui.stepper.prev", lang), i18n.both("ui.stepper.next", lang)
    return ('<nav class="controls">'
            f'<button type="button" id="tidx-prev" disabled>◀ {escape(prev)}</button>'
            f'<span class="position">{escape(i18n.both("ui.stepper.step", lang))} '
            f'<b id="tidx-pos" aria-live="polite">1 / {n}</b></span>'
            f'<button type="button" id="tidx-next"{" disabled" if n < 2 else ""}>'
            f"{escape(nxt)} ▶</button>"
            f'<span class="keys">{escape(i18n.text("ui.stepper.keys", lang))}</span></nav>')


def stage(doc: Document, *, lang: str = "en", lecture: bool = False) -> str:
    """The stepper itself: controls, the first step drawn (what prints, and what shows
    without a script), and every step and picture as templates."""
    flat = frames(doc, lecture=lecture)
    ids: dict[str, str] = {}   # picture HTML -> its template id: each written once
    templates: list[str] = []
    steps: list[str] = []
    parts: dict[str, str] = {}  # what steps share -> its template id (_shared)
    for frame in flat:
        names = []
        for picture in frame["pictures"]:
            html = storage_html.render(picture, lang=lang)
            if html not in ids:
                ids[html] = f"tidx-pic-{len(ids)}"
                templates.append(f'<template id="{ids[html]}">{html}</template>')
            names.append(ids[html])
        steps.append(f'<template class="tidx-frame" data-pictures="{" ".join(names)}">'
                     f"{panel(frame, doc, lang=lang, parts=parts)}</template>")
    templates += [f'<template id="{ref}">{html}</template>' for html, ref in parts.items()]
    first = flat[0]
    empty = escape(i18n.both("ui.stepper.no_storage", lang))
    pictures = "".join(storage_html.render(p, lang=lang) for p in first["pictures"])
    return "".join([
        '<section class="stepper">', _controls(len(flat), lang),
        '<div class="stage"><div id="tidx-panel" class="panel">',
        panel(first, doc, lang=lang), "</div>",
        '<div class="pictures"><h3>', escape(i18n.both("ui.stepper.storage_now", lang)),
        f'</h3><div id="tidx-pictures" data-empty="{empty}">',
        pictures or f'<p class="empty">{empty}</p>', "</div></div></div>",
        *steps, *templates, "</section>"])


#: The largest diagram (compacted SVG, characters) the page holds as SVG; a larger
#: one (a lesson of a dozen statements and more) is held deflated, a tenth the size.
INLINE_SVG = 256 * 1024


def diagram(svg: str, lang: str = "en") -> str:
    """The diagram's ``<figure>``: Graphviz's SVG compacted (tracer/render/svg_compact.py),
    inline while it is small; else deflated in ``data-deflated``, which the page's
    script inflates in place (a page without script says so where it would be).
    What keeps a 32-statement lesson's page under 1 MB: its diagram is 1.7 MB."""
    start = svg.find("<svg")
    svg = svg_compact.compact(svg[start:] if start >= 0 else svg)
    if start < 0 or len(svg) <= INLINE_SVG:
        return f'<figure class="diagram">{svg if start >= 0 else escape(svg)}</figure>'
    wait = escape(i18n.both("ui.stepper.diagram_script", lang))
    return (f'<figure class="diagram" data-deflated="{svg_compact.deflated(svg)}">'
            f'<p class="empty">{wait}</p></figure>')


def render(typed: Document, svg: str | None, *, lang: str = "en",
           lecture: bool = False) -> str:
    """The self-contained stepper page for a (filtered) document and the SVG of its
    diagram (None leaves the diagram out).  ``lecture``: step through the lecture
    view's steps (:mod:`tracer.lecture`), which the list shows too; the SVG should be
    the diagram of that view."""
    sources = "; ".join(st.source or "" for st in typed.statements)
    html_lang = "zh" if lang == "zh" else "en"
    listed = L.fold(typed) if lecture else typed
    count = len(typed.statements)
    title = i18n.both("ui.stepper.lesson", lang, count=count) if count > 1 else None
    body = render_html.fragment(listed, None, lang=lang, title=title,
                                stage=stage(typed, lang=lang, lecture=lecture),
                                numbered=True, css=storage_html.CSS + assets.CSS,
                                brief=lecture, figure=diagram(svg, lang) if svg else None)
    return "\n".join([
        "<!DOCTYPE html>", f'<html lang="{html_lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tidx: {escape(sources)}</title>",
        f"<style>{assets.PAGE_CSS}</style>",
        "</head><body>", body, f"<script>{assets.JS}</script>", "</body></html>"]) + "\n"
