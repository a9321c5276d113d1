"""A markdown page of a trace: the mermaid diagram, then every step as a nested list.

GitHub, GitLab and most notebook viewers draw the ```` ```mermaid ```` block, and the
list reads anywhere.  User text is data: step names, values and statements sit in
code spans on one line (a newline would end a heading or a list item and start a
block of markdown), notes and messages are escaped so that brackets, stars and
entities in them stay text, what a statement printed sits in a fence longer than any
run of backticks in it, and control and bidirectional characters are shown as escapes
(:mod:`tracer.render.visible`).
"""

from __future__ import annotations

import re
from typing import Any

from tracer.document import Document, Event
from tracer.render import format as F
from tracer.render import mermaid as render_mermaid
from tracer import allocated, i18n
from tracer.events import source_url
from tracer.render.visible import one_line, visible


def _code(text: str) -> str:
    """A code span on one line that survives backticks inside the text.

    >>> _code("a`b"), _code("two\\nlines")
    ('``a`b``', '`two lines`')
    """
    text = visible(text).replace("\n", " ")
    fence = "`" * (_longest_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _longest_run(text: str) -> int:
    return max((len(m) for m in re.findall(r"`+", text)), default=0)


def _fence(lines: list[str], info: str) -> list[str]:
    """A fenced block of ``lines``, its fence longer than any run of backticks in them
    (a printed line of three backticks would otherwise close it)."""
    fence = "`" * max(3, max((_longest_run(line) for line in lines), default=0) + 1)
    return [fence + info, *lines, fence]


def _text(text: str) -> str:
    """Plain text on one line with markdown's active characters escaped.

    >>> _text("[x](javascript:alert(1)) &lt; *b*")
    '\\\\[x\\\\](javascript:alert(1)) \\\\&lt; \\\\*b\\\\*'
    """
    return re.sub(r"([\\`*_\[\]<>#|&~!])", r"\\\1", one_line(text))


def _note(ev: Event, lang: str) -> str:
    """A step's note in italics, in ``lang``; its English after it in brackets when
    different."""
    note = ev.note or ""
    shown = i18n.note(ev, lang) or note
    return f"*{_text(shown)}*" + (f" ({_text(note)})" if shown != note else "")


def _step(ev: Event, depth: int, lines: list[str], lang: str = "en",
          context: dict[str, Any] | None = None) -> None:
    pad = "  " * depth
    layer = i18n.layer(ev.layer.value, lang)
    head = f"{pad}- **{layer}** {_code(ev.name)}"
    values = [f"{k}={v}" for k, v in F.args(ev, skip=("keys",))]
    if values:
        head += " " + _code("  ".join(values))
    if ev.result is not None:
        head += " → " + _code(F.value(ev.result))
    lines.append(head)
    if ev.error is not None:
        err = ev.error
        raises = i18n.both("ui.raises", lang)
        lines.append(f"{pad}  **{raises} {_text(err.type)}:** {_text(err.message)}")
        why = i18n.explain_error(err.message, lang, context or {"type": err.type})
        if why:
            lines.append(f"{pad}  → {_text(why)}")
    tail = []
    if ev.note:
        tail.append(_note(ev, lang))
    if ev.source:
        tail.append(f"[{_text(ev.source)}]({source_url(ev.source)})")
    if tail:
        lines.append(f"{pad}  " + " — ".join(tail))
    for child in ev.children:
        _step(child, depth + 1, lines, lang, context)


def render(doc: Document, diagram_kind: str = "sequence", *, lang: str = "en") -> str:
    """The page: title, diagram, then per statement its steps and its outcome; ``lang``
    (``"zh"``) adds the translation of every note and heading."""
    sources = [st.source or "" for st in doc.statements]
    lines = [f"# tidx: {_code('; '.join(sources))}", "",
             *_fence(render_mermaid.render(doc, diagram_kind).rstrip("\n").split("\n"),
                     "mermaid"), ""]
    for st in doc.statements:
        lines += [f"## {_code('>>> ' + (st.source or ''))}", ""]
        defaults = st.session.defaults if st.session is not None else {}
        for name, d in defaults.items():
            lines.append(f"{i18n.both('ui.default_name', lang)} "
                         f"{_code(name + ' = ' + d.source)} ({_text(i18n.origin(d, lang))}).")
        if defaults:
            lines.append("")
        # where an error happened (the statement names the tensor), for the line explaining it
        context = i18n.error_context(st) if st.error is not None else None
        for ev in st.events:
            _step(ev, 0, lines, lang, context)
        lines.append("")
        outcome_lines = F.outcome(st)
        if outcome_lines:
            lines += [*_fence([visible(line) for line in outcome_lines], "text"), ""]
        if st.session is not None and st.session.graph is not None:
            from tracer.render.graph import graph_lines
            lines += [*_fence([visible(line) for line in graph_lines(st.session.graph, lang)],
                              "text"), ""]
        why = (i18n.explain_error(st.error.message, lang, context)
               if st.error is not None else None)
        if why:
            lines += [f"→ {_text(why)}", ""]
    run = doc.run
    if run is not None and run.seed is not None:
        shown, seed = i18n.pair("ui.page.random_seed", lang, seed=run.seed)
        lines += [shown + (f" ({seed})" if shown != seed else ""), ""]
    if run is not None:
        shown, english = allocated.line(run.allocated, lang), allocated.line(run.allocated)
        lines += [shown + (f" ({english})" if shown != english else ""), ""]
    return "\n".join(lines)
