"""The HTML stepper's size: a 32-statement lesson's page under 1 MB (it was 2.5 MB, 1.7 MB
of it the sequence diagram's SVG), its bytes per statement not growing with the lesson,
and nothing lost on the way: the compacted diagram draws the same marks and texts, the
deflated one is drawn in a real Chromium, and every step's panel holds what it held.
(Sizes are counted, never timed; benchmarks/bench_export.py prints them.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import require_chromium
from engine.core.errors import Refused
from engine.interpreter import lessons as L
from engine.interpreter import session
from tracer import lecture as LT
from tracer.document import Document
from tracer.render import dot as render_dot
from tracer.render import export, stepper, svg_compact

#: lessons whose statements, one after the other, make the long lesson
LESSONS = ("seed_004_masks_and_fancy", "seed_001_indexing", "seed_002_randn",
           "views_and_copies", "joining_and_splitting")


def lesson(n: int) -> str:
    """The seeds' lessons one after the other, cut after their ``n``-th statement."""
    nodes = []
    for name in LESSONS:
        text = L.load(name).text
        nodes += [ast.get_source_segment(text, node) for node in ast.parse(text).body]

    def count(k: int) -> int:
        try:
            return len(session.run("\n".join(nodes[:k]), seed=0)["statements"])
        except Refused:         # `import torch` alone: no statement
            return 0

    low, high = 1, len(nodes)   # the fewest nodes holding n statements
    assert count(high) >= n, f"the lessons hold fewer than {n} statements"
    while low < high:
        mid = (low + high) // 2
        low, high = (low, mid) if count(mid) >= n else (mid + 1, high)
    return "\n".join(nodes[:low])


@pytest.fixture(scope="module")
def pages() -> dict[int, tuple[Document, bytes]]:
    out = {}
    for n in (8, 32):
        doc = session.run_document(lesson(n), seed=0)
        assert len(doc.statements) == n
        out[n] = doc, export.content(doc, "html", lecture=True)
    return out


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_a_32_statement_lesson_is_under_1_mb_and_grows_linearly(pages):
    small, large = len(pages[8][1]), len(pages[32][1])
    assert large <= 1_000_000, large
    # bytes per statement do not grow with the lesson
    assert large / 32 <= 1.1 * small / 8, (small, large)


def _marks(svg: str) -> dict[str, list]:
    """What a diagram draws, coordinates aside: each element kind's count, every text,
    link and tooltip in order, and every coordinate."""
    numbers = [float(x) for attr in re.findall(r' (?:points|d|x|y|cx|cy|rx|ry)="([^"]*)"', svg)
               for x in re.findall(r"-?\d+(?:\.\d+)?", attr)]
    return {"elements": sorted(re.findall(r"<(path|polygon|polyline|ellipse|text|a)\b", svg)),
            "texts": re.findall(r"<text[^>]*>([^<]*)</text>", svg),
            "links": re.findall(r'xlink:(?:href|title)="([^"]*)"', svg),
            "numbers": numbers}


def test_the_compacted_diagram_draws_the_same(pages):
    doc = pages[8][0]
    svg = export.render_image(render_dot.render(LT.fold(doc), "sequence"), "svg").decode()
    svg = svg[svg.index("<svg"):]
    small = svg_compact.compact(svg)
    before, after = _marks(svg), _marks(small)
    assert len(small) < 0.8 * len(svg)
    for key in ("elements", "texts", "links"):
        assert after[key] == before[key], key
    assert len(after["numbers"]) == len(before["numbers"])
    assert all(abs(a - b) < 0.1 for a, b in zip(after["numbers"], before["numbers"]))
    # the texts without a font family of their own inherit the one they had
    common = re.search(r'<svg font-family="([^"]*)"', small).group(1)
    assert len(re.findall(r"<text\b", svg)) == \
        len(re.findall(r"<text\b[^>]*font-family", small)) + \
        svg.count(f'font-family="{common}"')


@pytest.mark.chromium
def test_chromium_draws_the_deflated_diagram_and_every_panel_whole(tmp_path, pages):
    from cdp import Browser

    doc, html = pages[32]
    assert b'data-deflated="' in html
    page = tmp_path / "lesson.html"
    page.write_bytes(html)
    svg = export.render_image(render_dot.render(LT.fold(doc), "sequence"), "svg").decode()
    texts = _marks(svg)["texts"]
    flat = stepper.frames(doc, lecture=True)
    with Browser(require_chromium(), 1366, 768) as browser:
        browser.open(page.as_uri())
        drawn = browser.js("""new Promise(done => {
            const poll = () => {
              const svg = document.querySelector('figure.diagram svg');
              if (svg) { done(Array.from(svg.querySelectorAll('text'), t => t.textContent)); }
              else { setTimeout(poll, 20); }
            };
            poll();
        })""")
        # as inline SVG text, &amp; and the like are the characters they stand for
        unescaped = browser.js("(texts => texts.map(t => { const e = document.createElement("
                               "'textarea'); e.innerHTML = t; return e.value; }))("
                               f"{texts!r})")
        assert drawn == unescaped
        assert browser.js("document.querySelector('figure.diagram[data-deflated]')") is None
        assert browser.console_errors() == []
        # each step's panel, put together from the parts steps share, is the panel
        # a page without them would show
        for k in sorted({0, 1, len(flat) // 3, len(flat) // 2, len(flat) - 1}):
            browser.open(page.as_uri() + f"#step={k + 1}")
            shown = browser.js("document.getElementById('tidx-panel').innerHTML")
            whole = stepper.panel(flat[k], doc)
            assert browser.js(f"(() => {{ const d = document.createElement('div');"
                              f" d.innerHTML = {whole!r}; return d.innerHTML; }})()") == shown, k
