"""A markdown page of a trace: the mermaid diagram, then every step as a nested list.

GitHub, GitLab and most notebook viewers draw the ```` ```mermaid ```` block, and the
list reads anywhere.  Step names and values sit in code spans; notes are escaped so
that brackets and stars in them stay text.
"""

from __future__ import annotations

import re
from typing import Any

from tracer.render import format as F
from tracer.render import mermaid as render_mermaid
from tracer import allocated, i18n
from tracer.events import source_url


def _code(text: str) -> str:
    """A code span that survives backticks inside the text.

    >>> _code("a`b")
    '``a`b``'
    """
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _text(text: str) -> str:
    """Plain text with markdown's active characters escaped."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", " ".join(text.split()))


def _note(ev: dict[str, Any], lang: str) -> str:
    """A step's note in italics, in ``lang``; its English after it in brackets when
    different."""
    note, shown = ev["note"], i18n.note(ev, lang)
    return f"*{_text(shown)}*" + (f" ({_text(note)})" if shown != note else "")


def _step(ev: dict[str, Any], depth: int, lines: list[str], lang: str = "en") -> None:
    pad = "  " * depth
    layer = i18n.layer(ev["layer"], lang)
    head = f"{pad}- **{layer}** {_code(ev['name'])}"
    values = [f"{k}={v}" for k, v in F.args(ev, skip=("keys",))]
    if values:
        head += " " + _code("  ".join(values))
    if ev.get("result") is not None:
        head += " → " + _code(F.value(ev["result"]))
    lines.append(head)
    if ev.get("error"):
        err = ev["error"]
        raises = i18n.both("ui.raises", lang)
        lines.append(f"{pad}  **{raises} {_text(err['type'])}:** {_text(err['message'])}")
        why = i18n.explain_error(err["message"], lang)
        if why:
            lines.append(f"{pad}  → {_text(why)}")
    tail = []
    if ev.get("note"):
        tail.append(_note(ev, lang))
    if ev.get("source"):
        tail.append(f"[{_text(ev['source'])}]({source_url(ev['source'])})")
    if tail:
        lines.append(f"{pad}  " + " — ".join(tail))
    for child in ev.get("children", []):
        _step(child, depth + 1, lines, lang)


def render(doc: dict[str, Any], diagram_kind: str = "sequence", *, lang: str = "en") -> str:
    """The page: title, diagram, then per statement its steps and its outcome; ``lang``
    (``"zh"``) adds the translation of every note and heading."""
    sources = [st.get("source") or "" for st in doc["statements"]]
    lines = [f"# tidx: {_code('; '.join(sources))}", "",
             "```mermaid", render_mermaid.render(doc, diagram_kind).rstrip("\n"), "```", ""]
    for st in doc["statements"]:
        lines += [f"## {_code('>>> ' + (st.get('source') or ''))}", ""]
        for name, d in (st.get("defaults") or {}).items():
            lines.append(f"{i18n.both('ui.default_name', lang)} "
                         f"{_code(name + ' = ' + d['source'])} ({_text(i18n.origin(d, lang))}).")
        if st.get("defaults"):
            lines.append("")
        for ev in st.get("events", []):
            _step(ev, 0, lines, lang)
        lines.append("")
        outcome_lines = F.outcome(st)
        if outcome_lines:
            lines += ["```text", *outcome_lines, "```", ""]
        why = i18n.explain_error(st["error"]["message"], lang) if st.get("error") else None
        if why:
            lines += [f"→ {_text(why)}", ""]
    if doc.get("seed") is not None:
        shown, seed = i18n.pair("ui.page.random_seed", lang, seed=doc["seed"])
        lines += [shown + (f" ({seed})" if shown != seed else ""), ""]
    if doc.get("allocated") is not None:
        shown, english = allocated.line(doc["allocated"], lang), allocated.line(doc["allocated"])
        lines += [shown + (f" ({english})" if shown != english else ""), ""]
    return "\n".join(lines)
