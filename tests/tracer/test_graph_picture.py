"""The autograd graph picture (issue #27) in every view: the terminal tree, markdown's
text block, JSON (read back the same), the HTML stepper's panel (the running node
marked), mermaid (a note in the sequence diagram, a box in the call tree) and Graphviz
(pinned lines under the storage pictures, a text node in the call tree), rendered to an
image by ``dot``.  Golden files for the exact text; the saved tensor an in-place write
changed is named with the statement that changed it, in red."""

from __future__ import annotations

import io
import json
import subprocess

from rich.console import Console

from conftest import golden, require_dot
from engine.interpreter import session
from tracer.document import Document
from tracer.graph import Graph
from tracer.render import dot as render_dot
from tracer.render import markdown, mermaid
from tracer.render.graph import graph_html, graph_lines, graph_tree

#: a version error in the making: y saved by z's MulBackward0, then written in place
PROGRAM = ("x = torch.ones(3, requires_grad=True)\ny = x * 2\nz = y * y\ny.add_(1)\n"
           "w = z.sum()")


def _doc() -> Document:
    return session.run_document(PROGRAM, seed=0)


def _graph(doc: Document, k: int) -> Graph:
    st = doc.statements[k]
    assert st.session is not None and st.session.graph is not None
    return st.session.graph


def test_the_terminal_tree_and_the_text_lines_name_what_changed_a_saved_tensor():
    graph = _graph(_doc(), 4)
    lines = graph_lines(graph)
    golden("graph_lines.txt", "\n".join(lines) + "\n")
    assert any("now at version 1, changed by `y.add_(1)`: backward will refuse" in line
               for line in lines)
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(graph_tree(graph))
    golden("graph_tree.txt", out.getvalue())


def test_the_record_reads_back_from_json_the_same():
    doc = _doc()
    graph = _graph(doc, 4)
    assert Graph.from_json(json.loads(json.dumps(graph.to_json()))) == graph
    saved = [s for n in graph.nodes for s in n.saved if s.version != s.saved_version]
    assert saved and {s.changed_by for s in saved} == {"y.add_(1)"}
    # the statement before the write: nothing changed yet, nothing named
    assert all(s.changed_by is None for n in _graph(doc, 2).nodes for s in n.saved)


def test_markdown_and_the_stepper_panel():
    doc = _doc()
    text = markdown.render(doc)
    assert "changed by `y.add_(1)`" in text and "SumBackward0  #3" in text
    html = graph_html(_graph(doc, 4), current=1)
    assert '<li class="running"><span class="bold">MulBackward0</span>' in html
    assert "changed by `y.add_(1)`" in html


def test_mermaid_draws_the_graph_in_both_diagrams():
    doc = _doc()
    seq = mermaid.render(doc, "sequence")
    notes = [line for line in seq.splitlines() if "autograd graph" in line]
    # one note per statement with a history (y, z, y.add_, w)
    assert len(notes) == 4
    golden("graph_mermaid_note.txt", notes[-1] + "\n")
    calls = mermaid.render(doc, "calls")
    assert "    s4 -.- g4" in calls and "#160;#160;#160;#160;SumBackward0 #35;3" in calls


def test_graphviz_draws_it_under_the_pictures_and_dot_renders_it():
    dot = require_dot()
    doc = _doc()
    source = render_dot.render(doc, "sequence").source
    assert source.count('"autograd graph (what backward() will walk') == 4
    assert "changed by `y.add_(1)`: backward will refuse" in source
    # the changed saved tensor in red, the node names in the dispatcher's blue
    red = [line for line in source.splitlines() if "changed by" in line]
    assert red and all('fontcolor="#c62828"' in line for line in red)
    calls = render_dot.render(doc, "calls").source
    assert "graph4" in calls and "MulBackward0" in calls
    for text in (source, calls):
        png = subprocess.run([dot, "-Tpng"], input=text.encode(), capture_output=True,
                             check=True).stdout
        assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_backward_pass_calls_each_new_gradient_by_the_node_that_made_it():
    """A gradient a node's formula makes is described by that node (``MulBackward0``,
    ``MulBackward0 #2`` for its second input's), not by its formula's last operator."""
    doc = session.run_document("x = torch.ones(3, requires_grad=True)\n"
                               "y = (x * x).sum()\ny.backward()", seed=0)
    st = doc.statements[2]
    whats = set()

    def walk(ev):
        for t in [ev.result] if isinstance(ev.result, dict) else ev.result or []:
            if isinstance(t, dict) and t.get("kind") == "tensor" and t.get("what"):
                whats.add(t["what"])
        for child in ev.children:
            walk(child)
    for ev in st.events:
        walk(ev)
    assert {"SumBackward0", "MulBackward0", "MulBackward0 #2"} <= whats, whats
