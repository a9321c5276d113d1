"""Mermaid text: golden source, and escaping of everything a user can type."""

from __future__ import annotations

import re

import pytest

from conftest import golden
from engine.interpreter import session
from tracer.document import Document
from tracer.render import mermaid as render_mermaid

# goldens must not depend on which test seeded the engine's generator first

CASES = {"basic": "t[1, 2] = 3", "advanced": "t[rows, cols] = 10",
         "randn": "torch.randn(3, 4)", "error": "t[0, 5] = 1"}


@pytest.mark.parametrize("name", CASES)
def test_sequence_golden(name):
    golden(f"sequence_{name}.mmd", render_mermaid.sequence(session.run_document(CASES[name], seed=0)))


def test_calls_golden():
    golden("calls_basic.mmd", render_mermaid.calls(session.run_document("t[1, 2] = 3")))


@pytest.mark.parametrize("name", CASES)
def test_every_activation_is_closed_exactly_once(name):
    depth: dict[str, int] = {}
    for line in render_mermaid.sequence(session.run_document(CASES[name], seed=0)).splitlines():
        line = line.strip()
        if "->>+" in line:
            dst = line.split("->>+")[1].split(":")[0]
            depth[dst] = depth.get(dst, 0) + 1
        elif "-->>-" in line or "--x-" in line:
            src = line.split("--")[0]
            depth[src] -= 1
            assert depth[src] >= 0, line
        elif line.startswith("deactivate "):
            lane = line.split()[1]
            depth[lane] -= 1
            assert depth[lane] >= 0, line
    assert all(v == 0 for v in depth.values()), depth


@pytest.mark.parametrize("text", ["a;b", "#x", "<script>", "50% & more", 'say "hi"', "a\nb"])
def test_escape_leaves_no_mermaid_syntax(text):
    out = render_mermaid.escape(text)
    assert out != text
    assert not set(re.sub(r"#\w+;", "", out)) & set(';#<>"\n&%')


def test_statement_text_is_escaped_in_the_diagram():
    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["source"] = "t; %%{init}%% <b>#"
    text = render_mermaid.sequence(Document.from_json(doc))
    assert "Note over you,memory: #gt;#gt;#gt; t#59; #37;#37;{init}#37;#37; #lt;b#gt;#35;" \
        in text


@pytest.mark.parametrize("fmt", ["mermaid", "markdown"])
def test_mermaid_and_markdown_draw_the_lecture_steps_as_the_images_do(fmt):
    # issue 28: images drew the lecture view, mermaid and markdown the whole trace; the
    # same statement now draws the same arrows in each (--full: every step in each)
    from click.testing import CliRunner

    import cli

    def arrows(*extra):
        out = CliRunner().invoke(cli.main, ["explain", "t[1, 2] = 3", "--format", fmt,
                                            *extra]).output
        return [line.strip() for line in out.splitlines() if "->>+" in line]

    def dot_edges(*extra):
        out = CliRunner().invoke(cli.main, ["explain", "t[1, 2] = 3", "--format", "dot",
                                            *extra]).output
        return out.count("steps folded")

    lecture, full = arrows(), arrows("--full")
    assert len(lecture) < len(full)
    assert sum("steps folded" in a for a in lecture) == dot_edges() > 0
    assert not any("steps folded" in a for a in full)
