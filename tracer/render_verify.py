"""The --verify table: per statement, what tidx and real PyTorch agree on.

A pure function from plain rows (``{"source", "results": {check: True|False|None},
"details": [...]}``) to a rich renderable.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

MARK = {True: ("match", "green"), False: ("DIFFER", "bold red"), None: ("-", "dim")}


def render(rows: list[dict[str, Any]], checks: tuple[str, ...], torch_version: str
           ) -> RenderableType:
    table = Table(title=f"tidx against PyTorch {torch_version}", title_justify="left")
    table.add_column("statement", overflow="fold")
    for check in checks:
        table.add_column(check, justify="center")
    for row in rows:
        cells = []
        for check in checks:
            label, style = MARK[row["results"].get(check)]
            cells.append(Text(label, style=style))
        table.add_row(Text(row["source"]), *cells)
    parts: list[RenderableType] = [table]
    for row in rows:
        for detail in row["details"]:
            parts.append(Text(f"  {row['source']}: {detail}", style="red"))
    agree = all(v is not False for row in rows for v in row["results"].values())
    parts.append(Text("tidx and PyTorch agree on every check." if agree else
                      "tidx and PyTorch disagree: the trace above is not what PyTorch does "
                      "(a bug in tidx).", style="green" if agree else "bold red"))
    return Group(*parts)
