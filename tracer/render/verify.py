"""The --verify table: per statement, what tidx and real PyTorch agree on.

A pure function from plain rows (``{"source", "results": {check: True|False|None},
"details": [...]}``) to a rich renderable.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tracer import i18n

#: Each check of ``engine.interpreter.verify.CHECKS``, as a label id.
CHECK_LABELS = {"values": "ui.verify.values", "shape": "ui.verify.shape",
                "strides": "ui.verify.strides", "offset": "ui.verify.offset",
                "dtype": "ui.verify.dtype", "error": "ui.verify.error",
                "aten ops": "ui.verify.aten_ops"}
#: A check's outcome: its label (None: not checked, a dash) and style.
MARK = {True: ("ui.verify.match", "green"), False: ("ui.verify.differ", "bold red"),
        None: (None, "dim")}


def _two(id: str | None, lang: str, fallback: str = "") -> str:
    """A header: the label in ``lang`` over its English (the English alone when the two
    are the same; ``fallback`` for a check no table names)."""
    if id is None:
        return fallback
    shown, english = i18n.pair(id, lang)
    return english if shown == english else f"{shown}\n{english}"


def _mark(id: str | None, lang: str) -> str:
    """A cell: the outcome in ``lang`` then in English (``一致 match``), or a dash."""
    if id is None:
        return "-"
    shown, english = i18n.pair(id, lang)
    return english if shown == english else f"{shown} {english}"


def render(rows: list[dict[str, Any]], checks: tuple[str, ...], torch_version: str, *,
           lang: str = "en", capability: str = "?") -> RenderableType:
    shown, title = i18n.pair("ui.verify.title", lang, version=torch_version,
                             capability=capability)
    table = Table(title=shown if shown == title else f"{shown}  ({title})",
                  title_justify="left")
    table.add_column(_two("ui.verify.statement", lang), overflow="fold")
    for check in checks:
        table.add_column(_two(CHECK_LABELS.get(check), lang, check), justify="center")
    for row in rows:
        cells = []
        for check in checks:
            mark, style = MARK[row["results"].get(check)]
            cells.append(Text(_mark(mark, lang), style=style))
        table.add_row(Text(row["source"]), *cells)
    parts: list[RenderableType] = [table]
    for row in rows:
        for said in row.get("said") or []:
            # what the row's checks mean (a CUDA statement compared on the CPU)
            shown, english = i18n.pair(said["id"], lang, **said.get("args", {}))
            line = Text(f"  {row['source']}: {shown}", style="yellow")
            if shown != english:
                line.append(f"  {english}", style="dim")
            parts.append(line)
        for detail in row["details"]:
            parts.append(Text(f"  {row['source']}: {detail}", style="red"))
    agree = all(v is not False for row in rows for v in row["results"].values())
    compared = [row for row in rows if row.get("compared", True)]
    verdicts: list[tuple[str, dict[str, Any], str]] = []
    if compared:
        verdicts.append(("ui.verify.agree" if agree else "ui.verify.disagree", {},
                         "green" if agree else "bold red"))
    if len(compared) < len(rows):
        verdicts.append(("ui.verify.not_compared", {"count": len(rows) - len(compared)},
                         "yellow"))
    for id, args, style in verdicts:
        shown, verdict = i18n.pair(id, lang, **args)
        line = Text(shown, style=style)
        if shown != verdict:
            line.append(f"  {verdict}", style="dim")
        parts.append(line)
    return Group(*parts)
