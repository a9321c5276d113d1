"""A trace shows itself in notebooks (SVG/HTML) and rich consoles."""

from __future__ import annotations


from rich.console import Console

import engine
from engine.interpreter import session
from tracer import record
from tracer.render.notebook import TraceView

# goldens must not depend on which test seeded the engine's generator first


def test_a_document_view_has_svg_html_and_rich_forms():
    view = TraceView(session.run("t[1, 2] = 3"))
    assert "<svg" in view._repr_svg_()
    html = view._repr_html_()
    assert html.startswith('<div class="tidx">') and "<svg" in html
    console = Console(width=120, record=True, file=open("/dev/null", "w"))
    console.print(view)
    assert "THPVariable_setitem" in console.export_text()


def test_a_recorded_trace_draws_itself():
    with record() as trace:
        t = engine.tensor([[1, 2, 3], [4, 5, 6]])
        t[1:, ::2]
    assert "aten::slice" in trace._repr_svg_()
    assert "aten::slice" in trace._repr_html_()
    console = Console(width=120, record=True, file=open("/dev/null", "w"))
    console.print(trace)
    assert "applySlice" in console.export_text()


def test_without_any_graphviz_the_html_view_still_lists_the_steps(monkeypatch):
    from tracer.render import export

    def unavailable(graph, fmt):
        raise export.ExportError("no graphviz")
    monkeypatch.setattr(export, "render_image", unavailable)
    view = TraceView(session.run("t[1, 2] = 3"))
    assert view._repr_svg_() is None
    assert "THPVariable_setitem" in view._repr_html_()
