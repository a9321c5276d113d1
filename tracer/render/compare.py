"""``tidx compare A B``: two statements side by side, and where their paths part.

A pure function from two trace documents to a rich renderable.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tracer import values as V
from tracer.events import op_tree, walk
from tracer.render import format as F
from tracer import i18n


def _two(shown: str, english: str) -> str:
    """A table cell: the text in the chosen language over its English (the English
    alone when the two are the same)."""
    return english if shown == english else f"{shown}\n{english}"


def _heading(id: str, lang: str) -> str:
    return _two(*i18n.pair(id, lang))


def _steps(doc: dict[str, Any]) -> list[str]:
    """Every step, in call order, as ``layer name`` (``op`` for operators)."""
    return [f"{ev['layer']:<10} {ev['name']}" for st in doc["statements"]
            for _, ev in walk(st["events"])]


def _allocated(doc: dict[str, Any]) -> int:
    return sum(V.plain(ev["args"]["nbytes"]) for st in doc["statements"]
               for _, ev in walk(st["events"])
               if ev["name"] == "DefaultCPUAllocator::allocate" and "nbytes" in ev["args"])


def _kind(doc: dict[str, Any], lang: str) -> str:
    """What the last statement made, in ``lang``: an error, a view of what, or a copy."""
    last = doc["statements"][-1]
    if last.get("error"):
        return i18n.text("ui.compare.raises", lang, error=last["error"]["type"])
    sharing = last.get("shares_storage_with") or {}
    written = last.get("written") or []
    if not sharing and written:   # t[1, 2] = 3: no new tensor, t's own storage changed
        return "; ".join(i18n.text("ui.compare.in_place", lang, name=n) for n in written)
    if not sharing:
        return i18n.text("ui.compare.no_tensor", lang)
    parts = []
    for name, others in sharing.items():
        label = i18n.text("ui.compare.the_result", lang) if name == "(result)" else name
        parts.append(i18n.text("ui.compare.view_of", lang, name=label, others=", ".join(others))
                     if others else i18n.text("ui.compare.copy", lang, name=label))
    return "; ".join(parts)


def _kind_cell(doc: dict[str, Any], lang: str) -> str:
    return _two(_kind(doc, lang), _kind(doc, "en"))


def render(a: dict[str, Any], b: dict[str, Any], context: int = 3, *, lang: str = "en"
           ) -> RenderableType:
    sa = " ; ".join(st["source"] for st in a["statements"])
    sb = " ; ".join(st["source"] for st in b["statements"])
    table = Table(show_header=True, header_style="bold")
    # the user's text and tidx's values are never rich markup: `t[rows, cols] = 10` is
    # not a style tag, so every cell is a Text
    table.add_column("")
    table.add_column(Text(sa), overflow="fold")
    table.add_column(Text(sb), overflow="fold")
    ops_a = [f"{'  ' * d}{n}" for st in a["statements"] for d, n in op_tree(st["events"])]
    ops_b = [f"{'  ' * d}{n}" for st in b["statements"] for d, n in op_tree(st["events"])]
    none = i18n.text("ui.compare.none", lang)
    row = lambda *cells: table.add_row(*(Text(c) for c in cells))  # noqa: E731
    row(_heading("ui.compare.view_or_copy", lang), _kind_cell(a, lang), _kind_cell(b, lang))
    values_a, values_b = (F.value_lines(d["statements"][-1], tensors=True) for d in (a, b))
    if values_a or values_b:  # what Python prints: for t.stride() it is the answer
        row(_heading("ui.compare.value", lang), "\n".join(values_a) or none,
            "\n".join(values_b) or none)
    row(_heading("ui.compare.bytes_allocated", lang), str(_allocated(a)), str(_allocated(b)))
    row(_heading("ui.compare.steps", lang), str(len(_steps(a))), str(len(_steps(b))))
    row(_heading("ui.compare.aten_operators", lang), "\n".join(ops_a) or none,
        "\n".join(ops_b) or none)
    steps_a, steps_b = _steps(a), _steps(b)
    common = 0
    while common < min(len(steps_a), len(steps_b)) and steps_a[common] == steps_b[common]:
        common += 1
    parts: list[RenderableType] = [table]
    if steps_a == steps_b:
        parts.append(_line(*i18n.pair("ui.compare.same_steps", lang), "green"))
    else:
        parts.append(_line(*i18n.pair("ui.compare.paths_part", lang, count=common), "bold"))
        for step in steps_a[max(0, common - context):common]:
            parts.append(Text(f"  both  {step}", style="dim"))
        for label, steps in (("A", steps_a), ("B", steps_b)):
            for step in steps[common:common + context]:
                parts.append(Text(f"  {label}     {step}",
                                  style="cyan" if label == "A" else "magenta"))
    return Group(*parts)


def _line(shown: str, english: str, style: str) -> Text:
    """A sentence in the chosen language, its English dimmed after it when different."""
    line = Text(shown, style=style)
    if shown != english:
        line.append(f"  {english}", style="dim")
    return line
