"""Graphviz diagrams: golden DOT source (no binary needed), and real renders with dot."""

from __future__ import annotations

import re
import subprocess

import pytest

from conftest import golden, require_dot
from engine.interpreter import session
from tracer.document import Document
from tracer.render import dot as render_dot

# goldens must not depend on which test seeded the engine's generator first

CASES = {"basic": "t[1, 2] = 3", "advanced": "t[rows, cols] = 10",
         "randn": "torch.randn(3, 4)"}


def source(statement: str, kind: str = "sequence") -> str:
    doc = session.run_document(statement, seed=0)
    return render_dot.render(doc, kind).source


@pytest.mark.parametrize("name", CASES)
def test_sequence_diagram_golden(name):
    golden(f"sequence_{name}.gv", source(CASES[name]))


@pytest.mark.parametrize("name", CASES)
def test_call_tree_golden(name):
    golden(f"calls_{name}.gv", source(CASES[name], "calls"))


def test_sequence_diagram_pins_every_node_so_any_graphviz_draws_the_same():
    text = source("t[1, 2] = 3")
    assert "layout=neato" in text and "inputscale=72" in text
    nodes = [(n, a) for n, a in re.findall(r"^\t(\w+) \[(.*)\]$", text, flags=re.M)
             if n not in ("graph", "node", "edge")]
    assert len(nodes) > 50 and all(re.search(r'pos="[-\d.]+,[-\d.]+!"', a) for _, a in nodes)


def test_one_lifeline_per_layer_touched_with_its_title():
    text = source("torch.randn(3, 4)")
    for lane in ("Python", "C++ binding", "Dispatcher", "Kernel", "Memory", "RNG"):
        assert re.search(f'label="?{re.escape(lane)}"? ', text), lane
    assert "TensorIndexing" not in text  # randn never indexes


@pytest.mark.parametrize("kind", ["sequence", "calls"])
def test_user_text_cannot_break_out_of_a_label_or_the_comment(kind):
    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["source"] = 'x"] evil [label="<b>\\\nrankdir=TB'
    text = render_dot.render(Document.from_json(doc), kind).source
    # the statement's text, escaped, whole (the sequence diagram left-justifies it: \l)
    assert re.search(r'>>> x\\"\] evil \[label=\\"<b>\\\\ rankdir=TB(\\l)?"', text)
    assert not any(line.startswith("rankdir") for line in text.splitlines())


def test_returns_are_dashed_and_calls_solid():
    text = source("t[rows, cols] = 10")
    assert "style=dashed" in text and "style=solid" in text


@pytest.mark.dot
@pytest.mark.parametrize("kind", ["sequence", "calls"])
def test_dot_renders_both_diagrams_as_svg_and_png(kind):
    require_dot()
    graph = render_dot.render(session.run_document("t[rows, cols] = 10"), kind)
    svg = graph.pipe(format="svg").decode()
    assert "<svg" in svg and "aten::index_put_" in svg
    assert graph.pipe(format="png")[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.dot
def test_the_dot_program_draws_a_saved_dot_file_with_its_pinned_layout(tmp_path):
    dot = require_dot()
    path = tmp_path / "t.gv"
    path.write_text(source("t[1, 2] = 3"))
    out = subprocess.run([dot, "-Tsvg", str(path)], capture_output=True, check=True).stdout
    assert b"THPVariable_setitem" in out
