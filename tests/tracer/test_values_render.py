"""Statements whose value is no tensor render in every format as Python prints them.

``t.stride()`` is ``(3, 1)``, ``n = t.shape`` binds ``torch.Size([3, 3])``: every output
mode (the tree, JSON, mermaid, dot, markdown, the exports, ``step``, ``compare``, the
notebook view) must run without a traceback and show exactly what real torch's ``repr``
of the same value is.
"""

from __future__ import annotations

import html
import json

import pytest
from rich.console import Console

from conftest import cli_run, require_torch
from engine.interpreter import session
from oracle import torch_scope
from tracer import values as V
from tracer.render.notebook import TraceView


STATEMENTS = ["t.stride()", "t.shape", "len(t)", "t.dtype", "t.device", "t.is_contiguous()",
              "t.storage_offset()", "t.tolist()", "n = t.shape", "t.shape[0]", "t.size()",
              "t.numel()", "x = (1, 2)", "t.dim()"]


def torch_value(statement: str) -> str:
    """``repr`` of the statement's value in real torch (the tests' own strings)."""
    torch = require_torch()
    ns = torch_scope(torch)
    expr = statement.split(" = ", 1)[1] if " = " in statement else statement
    return repr(eval(expr, ns))  # noqa: S307 - the test's own string, run in real torch


def shown(statement: str, shown_value: str) -> str:
    """The line a renderer should show: the value, or ``n = value`` for an assignment."""
    if " = " in statement:
        return f"{statement.split(' = ')[0]} = {shown_value}"
    return shown_value


def ok(res) -> str:
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    return res.output


@pytest.mark.parametrize("statement", STATEMENTS)
def test_the_document_types_the_value(statement):
    expected = torch_value(statement)
    st = session.run(statement)["statements"][0]
    assert st["error"] is None
    if " = " in statement:
        (entry,) = st["bindings"].values()
    else:
        entry = st["result"]
    assert entry["repr"] == expected
    back = json.loads(json.dumps(entry["summary"]))
    assert V.text(back) == expected


@pytest.mark.parametrize("fmt", ["tree", "json", "mermaid", "dot", "markdown"])
@pytest.mark.parametrize("statement", STATEMENTS)
def test_explain_in_every_format(statement, fmt):
    expected = torch_value(statement)
    out = ok(cli_run("explain", statement, "--format", fmt, "--width", "200"))
    if fmt == "json":
        st = json.loads(out)["statements"][0]
        entry = next(iter(st["bindings"].values())) if " = " in statement else st["result"]
        assert V.text(entry["summary"]) == expected
    else:
        assert shown(statement, expected) in out


@pytest.mark.parametrize("suffix", [".svg", ".html", ".md", ".json", ".mmd"])
@pytest.mark.parametrize("statement", STATEMENTS)
def test_export_in_every_format(statement, suffix, tmp_path):
    expected = torch_value(statement)
    path = tmp_path / f"out{suffix}"
    ok(cli_run("export", statement, "-o", str(path)))
    text = path.read_text(encoding="utf-8")
    if suffix == ".json":
        st = json.loads(text)["statements"][0]
        entry = next(iter(st["bindings"].values())) if " = " in statement else st["result"]
        assert V.text(entry["summary"]) == expected
    else:
        assert shown(statement, expected) in html.unescape(text)


@pytest.mark.parametrize("statement", STATEMENTS)
def test_step_and_compare(statement):
    expected = torch_value(statement)
    assert shown(statement, expected) in ok(cli_run("step", statement, "--width", "200"))
    out = ok(cli_run("compare", statement, "t[0]", "--width", "200"))
    assert shown(statement, expected) in out and "tensor([1, 2, 3])" in out


@pytest.mark.parametrize("statement", STATEMENTS)
def test_notebook_view(statement):
    expected = torch_value(statement)
    view = TraceView(session.run_document(statement))
    assert shown(statement, expected) in html.unescape(view._repr_html_())
    svg = view.svg()
    assert svg is None or shown(statement, expected) in html.unescape(svg)
    console = Console(width=200, record=True, file=open("/dev/null", "w"))
    console.print(view)
    assert shown(statement, expected) in console.export_text()
