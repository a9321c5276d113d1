"""One self-contained HTML page of a trace: the diagram inline as SVG, every step with
its note and values, and the outcome.  No script, no external file: it opens offline,
attaches to a mail, and prints.

Pure: the caller renders the SVG (:mod:`tracer.export`) and passes it in.
"""

from __future__ import annotations

import html
import re
from typing import Any

from tracer.render import format as F
from tracer.render.diagram import COLORS
from tracer.render.tree import BRIEF_SKIP
from tracer import allocated, i18n
from tracer.document import Document, Event, walk
from tracer.events import PYTORCH_TAG, source_url
from tracer.lecture import is_folded
from tracer.render.visible import visible


def escape(text: str) -> str:
    r"""Text as an HTML page shows it: its markup escaped (quotes too, so it may stand
    in an attribute) and every control or bidirectional character visible
    (:mod:`tracer.render.visible`).  Every page tidx writes (this one, the stepper,
    the storage pictures, a notebook cell) puts its text through here.

    >>> print(escape('<b title="x">\u202eevil</b>'))
    &lt;b title=&quot;x&quot;&gt;\u202eevil&lt;/b&gt;
    """
    return html.escape(visible(text))

# Every rule is scoped to .tidx, so the same styles can sit inside a notebook cell.
_CSS = """.tidx { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial,
        "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif;
        color: #222; }
.tidx h1 { font-size: 1.5em; } .tidx h2 { font-size: 1.15em; margin-top: 2em; }
.tidx code, .tidx pre, .tidx .step { font-family: "DejaVu Sans Mono", Menlo, Consolas,
                                     monospace; font-size: 0.87em; }
.tidx h1 code, .tidx h2 code { font-size: 1em; }
.tidx figure.diagram { margin: 1em 0; overflow-x: auto; border: 1px solid #ddd;
                       border-radius: 6px; padding: 8px; background: #fff; }
.tidx figure.diagram svg { max-width: 100%; height: auto; }
.tidx ul.steps, .tidx ul.steps ul { list-style: none; margin: 0; padding-left: 1.4em;
                                    border-left: 1px dotted #bbb; }
.tidx ul.steps { padding-left: 0; border: none; }
.tidx li { margin: 2px 0; }
.tidx .layer { display: inline-block; min-width: 6.5em; padding: 0 4px; border-radius: 3px;
               font-size: 0.85em; text-align: center; border: 1px solid; }
.tidx .name { font-weight: bold; }
.tidx .fold { color: #777; font-style: italic; }
.tidx .args { color: #555; }
.tidx .note { font-style: italic; color: #666; margin-left: 7.5em; font-size: 0.87em; }
.tidx .note.en, .tidx .en { color: #999; }
.tidx .source { margin-left: 0.6em; font-size: 0.8em; color: #888; }
.tidx .error { color: #c62828; font-weight: bold; }
.tidx pre.outcome { background: #f6f8fa; padding: 0.8em; border-radius: 6px; }
"""


def _layer_css() -> str:
    return "\n".join(f".tidx .layer-{layer} {{ background: {fill}; color: {ink}; border-color: {ink}; }}"
                     for layer, (fill, ink) in COLORS.items())


def _both(shown: str, english: str) -> str:
    """Escaped text in the chosen language, its English after it in a dimmer span when
    the two differ."""
    if shown == english:
        return escape(english)
    return f'{escape(shown)} <span class="en">{escape(english)}</span>'


def _step(ev: Event, out: list[str], lang: str = "en",
          numbers: list[int] | None = None, brief: bool = False,
          context: dict[str, Any] | None = None) -> None:
    """One step and its children as nested ``<li>``; with ``numbers`` (a one-item
    counter) each step's line carries ``data-step``, its 0-based number
    (tracer.numbering: what the stepper's list is clicked and highlighted by).  ``brief``: the lecture
    view's line (key values in brief, the note on hover, no link).  ``context``: the
    statement's, for explaining an error in its terms (i18n.error_context)."""
    layer = ev.layer.value
    # a folded run of the lecture is no step of its own (tracer.numbering): its line
    # carries no number
    numbered = numbers is not None and not is_folded(ev)
    attrs = f' data-step="{numbers[0]}"' if numbered and numbers is not None else ""
    if numbered and numbers is not None:
        numbers[0] += 1
    if brief and ev.note:
        attrs += f' title="{escape(i18n.note(ev, lang) or "")}"'
    out.append(f'<li><div class="step"{attrs}>')
    out.append(f'<span class="layer layer-{escape(layer)}">'
               f"{escape(i18n.layer(layer, lang))}</span> ")
    if brief and ev.folded:
        many = "ui.lecture.folded" if ev.folded != 1 else "ui.lecture.folded_one"
        text = i18n.text(many, lang, count=ev.folded, names=", ".join(ev.steps or ()))
        out.append(f'<span class="fold">{escape(text)}</span></div></li>')
        return
    out.append(f'<span class="name">{escape(ev.name)}</span>')
    if brief:
        pairs = F.brief_args(ev, skip=BRIEF_SKIP, first=("written",))
        result = F.brief(ev.result, geometry=True) if ev.result is not None else None
    else:
        pairs = F.args(ev, skip=("keys",))
        result = F.value(ev.result) if ev.result is not None else None
    values = "  ".join(f"{k}={v}" for k, v in pairs)
    if values:
        out.append(f' <span class="args">{escape(values)}</span>')
    if result is not None:
        out.append(f' <span class="result">→ {escape(result)}</span>')
    if brief:
        _end_step(ev, out, lang, numbers, brief, context=context)
        return
    url = source_url(ev.source)
    if url and ev.source:
        out.append(f' <a class="source" href="{escape(url)}">{escape(ev.source)}</a>')
    out.append("</div>")
    if ev.error is not None:
        err = ev.error
        out.append(f'<div class="note error">{escape(i18n.both("ui.raises", lang))} '
                   f"{escape(err.type)}: {escape(err.message)}</div>")
        why = i18n.explain_error(err.message, lang, context or {"type": err.type})
        if why:
            out.append(f'<div class="note error">→ {escape(why)}</div>')
    if ev.note:
        shown = i18n.note(ev, lang) or ev.note
        out.append(f'<div class="note">{escape(shown)}</div>')
        if shown != ev.note:
            out.append(f'<div class="note en">{escape(ev.note)}</div>')
    _end_step(ev, out, lang, numbers, brief, closed=True, context=context)


def _end_step(ev: Event, out: list[str], lang: str, numbers: list[int] | None,
              brief: bool, closed: bool = False, context: dict[str, Any] | None = None
              ) -> None:
    """The end of a step's line (a brief one shows its error on it), then its children."""
    if not closed:
        if ev.error is not None:
            out.append(f' <span class="error">{escape(i18n.both("ui.raises", lang))} '
                       f"{escape(ev.error.type)}</span>")
        out.append("</div>")
    children = ev.children
    if children:
        out.append("<ul>")
        for child in children:
            _step(child, out, lang, numbers, brief, context)
        out.append("</ul>")
    out.append("</li>")


def _inline_svg(svg: str) -> str:
    """The ``<svg>`` element alone (no XML prolog or doctype, invalid inside HTML)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else escape(svg)


def fragment(doc: Document, svg: str | None, *, lang: str = "en",
             stage: str = "", numbered: bool = False, css: str = "",
             after: list[str] | None = None, brief: bool = False,
             title: str | None = None, figure: str | None = None) -> str:
    """The content of the page as one ``<div class="tidx">`` with its own styles (what a
    notebook cell shows); without ``svg`` the diagram is left out.  ``lang`` (``"zh"``)
    adds the translation of every note and heading.  The stepper puts its ``stage``
    under the title, numbers the steps (``numbered``: ``data-step`` on each step, on
    the heading of a statement that recorded none) and adds its ``css``; ``after``
    holds HTML to put under each statement (a notebook's storage pictures); ``brief``
    writes each step on one line as the lecture view does (for a folded document);
    ``title`` replaces the statements in the heading (a lesson's are in its sections);
    ``figure`` is the diagram's ``<figure>`` as the caller made it, instead of ``svg``'s."""
    sources = "; ".join(st.source or "" for st in doc.statements)
    out = [f'<div class="tidx"><style>{_CSS}{_layer_css()}{css}</style>',
           f"<h1>tidx: <code>{escape(sources)}</code></h1>" if title is None else
           f"<h1>tidx: {escape(title)}</h1>", stage]
    numbers = [0] if numbered else None
    if svg or figure:
        if numbered:
            out.append(f'<h2 class="part">{escape(i18n.both("ui.stepper.diagram", lang))}</h2>')
        out.append(figure or f'<figure class="diagram">{_inline_svg(svg or "")}</figure>')
    if numbered:
        out.append(f'<h2 class="part">{escape(i18n.both("ui.stepper.steps", lang))}</h2>'
                   '<div id="tidx-list" class="steplist">')
    for index, st in enumerate(doc.statements):
        attr = ""
        if numbers is not None and all(is_folded(ev) for _, ev in walk(st.events)):
            attr = f' data-step="{numbers[0]}"'
            numbers[0] += 1
        out.append(f"<h2{attr}><code>&gt;&gt;&gt; {escape(st.source or '')}</code></h2>")
        defaults = st.session.defaults if st.session is not None else {}
        for name, d in defaults.items():
            out.append(f"<p>{escape(i18n.both('ui.default_name', lang))} <code>{escape(name)} = "
                       f"{escape(d.source)}</code> ({escape(i18n.origin(d, lang))}).</p>")
        out.append('<ul class="steps">')
        # where an error happened (the statement names the tensor), for the line explaining it
        context = i18n.error_context(st) if st.error is not None else None
        for ev in st.events:
            _step(ev, out, lang, numbers, brief, context)
        out.append("</ul>")
        outcome = F.outcome(st)
        if outcome:
            out.append(f'<pre class="outcome">{escape(chr(10).join(outcome))}</pre>')
        why = (i18n.explain_error(st.error.message, lang, context)
               if st.error is not None else None)
        if why:
            out.append(f'<p class="error">→ {escape(why)}</p>')
        if after and index < len(after):
            out.append(after[index])
    if numbered:
        out.append("</div>")
    if doc.run is not None and doc.run.seed is not None:
        seed = i18n.pair("ui.page.random_seed", lang, seed=doc.run.seed)
        out.append(f"<p>{_code_spans(_both(*seed))}</p>")
    if doc.run is not None:
        record = doc.run.allocated
        out.append(f"<p>{_both(allocated.line(record, lang), allocated.line(record))}</p>")
    made = i18n.pair("ui.page.made_by", lang, version=doc.tidx, tag=PYTORCH_TAG)
    out.append(f'<p class="source">{_both(*made)}</p></div>')
    return "\n".join(out)


def _code_spans(html: str) -> str:
    """``text`` in backticks as <code> (the seed sentence is shared with markdown).

    >>> _code_spans("use `x` here")
    'use <code>x</code> here'
    """
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", html)


def render(doc: Document, svg: str, *, lang: str = "en") -> str:
    """The self-contained page for a (filtered) document and the SVG of its diagram."""
    sources = "; ".join(st.source or "" for st in doc.statements)
    html_lang = "zh" if lang == "zh" else "en"
    return "\n".join([
        "<!DOCTYPE html>", f'<html lang="{html_lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tidx: {escape(sources)}</title>",
        "<style>body { margin: 2em auto; max-width: 1200px; padding: 0 1em; }</style>",
        "</head><body>",
        fragment(doc, svg, lang=lang), "</body></html>"]) + "\n"
