"""Golden tests of the terminal tree: no colour, fixed width, exact text."""

from __future__ import annotations

import os
from pathlib import Path


from rich.console import Console

from engine.interpreter import session
from tracer.render import tree as render_tree

# goldens must not depend on which test seeded the engine's generator first

GOLDEN = Path(__file__).parents[1] / "golden"


def render_text(statement: str, width: int = 160) -> str:
    doc = session.run_document(statement)
    console = Console(width=width, no_color=True, color_system=None, record=True,
                      file=open("/dev/null", "w"), highlight=False)
    console.print(render_tree.render(doc, notes=True, links=False))
    return console.export_text()


def check(name: str, statement: str) -> None:
    text = render_text(statement)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("TIDX_UPDATE_GOLDEN"):  # regenerate, review the diff, commit
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing golden file {path}; run with TIDX_UPDATE_GOLDEN=1"
    assert text == path.read_text()


def test_basic_assignment_golden():
    check("basic_assignment", "t[1, 2] = 3")


def test_advanced_assignment_golden():
    check("advanced_assignment", "t[rows, cols] = 10")


def test_view_getitem_golden():
    check("view_getitem", "y = t[1:, ::2]")


def test_error_golden():
    check("error", "t[0, 5] = 1")
