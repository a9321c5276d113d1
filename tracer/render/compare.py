"""``tidx compare A B``: two statements side by side, and where their paths part.

Rows for what each made (view or copy, value, shape, strides, storage offset, dtype,
bytes allocated), the storage picture of each last statement beside the other's (one
under the other when the two do not fit the width), then the steps where the paths part.
A pure function from two trace documents to a rich renderable.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tracer import allocated
from tracer import values as V
from tracer.document import Document, op_tree, walk
from tracer.render import format as F
from tracer.render.storage import StoragePicture, collect
from tracer import i18n

#: Columns between the two storage pictures when they stand side by side.
GAP = 3


def _two(shown: str, english: str) -> str:
    """A table cell: the text in the chosen language over its English (the English
    alone when the two are the same)."""
    return english if shown == english else f"{shown}\n{english}"


def _heading(id: str, lang: str) -> str:
    return _two(*i18n.pair(id, lang))


def _steps(doc: Document) -> list[str]:
    """Every step, in call order, as ``layer name`` (``op`` for operators)."""
    return [f"{ev.layer.value:<10} {ev.name}" for st in doc.statements
            for _, ev in walk(st.events)]


def _allocated(doc: Document, lang: str) -> str:
    """The run's recorded allocations, ``64 bytes in 2 blocks`` (none: not recorded)."""
    return i18n.text("ui.compare.none", lang) if doc.run is None else \
        allocated.amount(doc.run.allocated, lang)


def results(doc: Document) -> list[tuple[str, dict[str, Any]]]:
    """The tensors the last statement made, by name (``(result)`` for an expression's
    value), as recorded summaries; a statement that made none gives the tensors it wrote
    into (``t`` after ``t[1, 2] = 3``)."""
    last = doc.statements[-1]
    if last.error is not None or last.session is None:
        return []
    facts = last.session
    names = list(facts.shares_storage_with) or list(facts.written)
    out = []
    for name in names:
        entry = facts.result if name == "(result)" else last.bindings.get(name)
        if entry is not None and V.is_tensor(entry.summary):
            out.append((name, entry.summary))
    return out


def _tuple(items: list[int]) -> str:
    return V.text(V.sequence("tuple", [V.integer(i) for i in items]))


def _facts(doc: Document, lang: str) -> dict[str, str]:
    """Each result's shape, strides, offset and dtype as Python prints them
    (``y.shape``, ``y.stride()``, ``y.storage_offset()``, ``y.dtype``), one line per
    result, named when there are several."""
    found = results(doc)
    lines: dict[str, list[str]] = {"shape": [], "strides": [], "offset": [], "dtype": []}
    for name, t in found:
        facts = {"shape": V.text(V.size(t["shape"])), "strides": _tuple(t["strides"]),
                 "offset": str(t["offset"]),
                 "dtype": V.text(V.dtype(V.DTYPES.get(t["dtype"], t["dtype"]), t["dtype"]))}
        shown = i18n.text("ui.compare.the_result", lang) if name == "(result)" else name
        for key, text in facts.items():
            lines[key].append(f"{shown}: {text}" if len(found) > 1 else text)
    none = i18n.text("ui.compare.none", lang)
    return {key: "\n".join(texts) or none for key, texts in lines.items()}


def _kind(doc: Document, lang: str) -> str:
    """What the last statement made, in ``lang``: an error, a view of what, or a copy."""
    last = doc.statements[-1]
    if last.error is not None:
        return i18n.text("ui.compare.raises", lang, error=last.error.type)
    facts = last.session
    sharing = facts.shares_storage_with if facts is not None else {}
    more = facts.shares_storage_more if facts is not None else {}
    written = facts.written if facts is not None else ()
    if not sharing and written:   # t[1, 2] = 3: no new tensor, t's own storage changed
        return "; ".join(i18n.text("ui.compare.in_place", lang, name=n) for n in written)
    if not sharing:
        return i18n.text("ui.compare.no_tensor", lang)
    parts = []
    for name, others in sharing.items():
        label = i18n.text("ui.compare.the_result", lang) if name == "(result)" else name
        listed = ", ".join(others)
        if more.get(name):   # a storage many names share: those recorded, and a count
            listed = i18n.text("ui.compare.others_more", lang, names=listed,
                               count=more[name])
        parts.append(i18n.text("ui.compare.view_of", lang, name=label, others=listed)
                     if others or more.get(name) else
                     i18n.text("ui.compare.copy", lang, name=label))
    return "; ".join(parts)


def _kind_cell(doc: Document, lang: str) -> str:
    return _two(_kind(doc, lang), _kind(doc, "en"))


def render(a: Document, b: Document, context: int = 3, *, lang: str = "en"
           ) -> RenderableType:
    sa = " ; ".join(st.source or "" for st in a.statements)
    sb = " ; ".join(st.source or "" for st in b.statements)
    table = Table(show_header=True, header_style="bold")
    # the user's text and tidx's values are never rich markup: `t[rows, cols] = 10` is
    # not a style tag, so every cell is a Text
    table.add_column("")
    table.add_column(Text(sa), overflow="fold")
    table.add_column(Text(sb), overflow="fold")
    ops_a = [f"{'  ' * d}{n}" for st in a.statements for d, n in op_tree(st.events)]
    ops_b = [f"{'  ' * d}{n}" for st in b.statements for d, n in op_tree(st.events)]
    none = i18n.text("ui.compare.none", lang)
    row = lambda *cells: table.add_row(*(Text(c) for c in cells))  # noqa: E731
    row(_heading("ui.compare.view_or_copy", lang), _kind_cell(a, lang), _kind_cell(b, lang))
    values_a, values_b = (F.value_lines(d.statements[-1], tensors=True) for d in (a, b))
    if values_a or values_b:  # what Python prints: for t.stride() it is the answer
        row(_heading("ui.compare.value", lang), "\n".join(values_a) or none,
            "\n".join(values_b) or none)
    facts_a, facts_b = _facts(a, lang), _facts(b, lang)
    for key, id in (("shape", "ui.compare.shape"), ("strides", "ui.compare.strides"),
                    ("offset", "ui.compare.offset"), ("dtype", "ui.compare.dtype")):
        row(_heading(id, lang), facts_a[key], facts_b[key])
    row(_heading("ui.compare.bytes_allocated", lang), _allocated(a, lang), _allocated(b, lang))
    row(_heading("ui.compare.steps", lang), str(len(_steps(a))), str(len(_steps(b))))
    row(_heading("ui.compare.aten_operators", lang), "\n".join(ops_a) or none,
        "\n".join(ops_b) or none)
    steps_a, steps_b = _steps(a), _steps(b)
    common = 0
    while common < min(len(steps_a), len(steps_b)) and steps_a[common] == steps_b[common]:
        common += 1
    parts: list[RenderableType] = [table, _Pictures(_pictures(a, "A", sa),
                                                     _pictures(b, "B", sb), lang)]
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


def _pictures(doc: Document, label: str, source: str
              ) -> tuple[Text, list[dict[str, Any]]]:
    """One side's heading (the side and its statement) and its storage pictures."""
    head = Text(f"{label}: ", style="bold cyan" if label == "A" else "bold magenta")
    head.append(source, style="bold")   # the user's text: a Text, never markup
    return head, collect(doc.statements[-1])


#: What stands beside the other side's; the legends go under both.
BODY = tuple(part for part in StoragePicture.PARTS if part != "legend")


class _Pictures:
    """The two sides' storage pictures side by side when each draws in half the width
    exactly as in the whole width (no storage row split, no line wrapped), their legends
    under both; else one under the other at the full width (a picture squeezed beside
    another reads worse than one under the other)."""

    def __init__(self, a: tuple[Text, list[dict[str, Any]]],
                 b: tuple[Text, list[dict[str, Any]]], lang: str) -> None:
        self.sides = (a, b)
        self.lang = lang

    def _side(self, side: tuple[Text, list[dict[str, Any]]],
              parts: tuple[str, ...] = StoragePicture.PARTS) -> Group:
        head, pictures = side
        if not pictures:
            return Group(head, Text(i18n.both("ui.compare.no_storage", self.lang),
                                    style="dim"))
        return Group(head, *(StoragePicture(p, lang=self.lang, parts=parts)
                             for p in pictures))

    @staticmethod
    def _lines(side: Group, console: Console, options: ConsoleOptions, width: int
               ) -> list[str]:
        return ["".join(seg.text for seg in line).rstrip()
                for line in console.render_lines(side, options.update(width=width),
                                                 pad=False)]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        half = (options.max_width - GAP) // 2
        bodies = [self._side(side, BODY) for side in self.sides]
        yield Text("")
        if all(self._lines(body, console, options, half) ==
               self._lines(body, console, options, options.max_width) for body in bodies):
            grid = Table.grid(padding=(0, GAP, 0, 0))
            grid.add_column(width=half)
            grid.add_column(width=half)
            grid.add_row(*bodies)
            yield grid
            # one legend under both: every mark either side drew, once
            pictures = [p for _, side in self.sides for p in side]
            marks = list({m["key"]: m for p in pictures for m in p.get("legend") or []
                          }.values())
            if marks:
                yield StoragePicture({**pictures[0], "legend": marks}, lang=self.lang,
                                     parts=("legend",))
        else:
            yield self._side(self.sides[0])
            yield Text("")
            yield self._side(self.sides[1])
        yield Text("")
