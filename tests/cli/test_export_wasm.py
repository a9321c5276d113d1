"""The in-process WebAssembly Graphviz, the SVG renderer without the ``dot`` program
(issue 24): a page that makes it trap is refused in one line, after one retry on a
fresh instance, and the renders after it work; hostile text reaches it as data."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from conftest import cli_run
from tracer.render import export, wasm_graphviz

BIG = "; ".join(["t[rows, cols] = 10", "t[1, 2] = 3", "y = t[1:, ::2]", "b[idx_0, idx_1]",
                 "torch.randn(3, 4)"] * 2)          # 200 steps, about 43 MiB to lay out
#: Below what BIG needs, above what one small statement needs (3 MiB).
SMALL_CAP = 16 << 20


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    """A PATH without Graphviz's programs, as on a fresh machine after pip install."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert not export.has_dot()


@pytest.fixture
def instances(monkeypatch):
    """How many WebAssembly instances the renders made."""
    backend = wasm_graphviz._backend()
    made = []
    real = type(backend)._create_session

    def create(self, *args):
        made.append(1)
        return real(self, *args)
    monkeypatch.setattr(type(backend), "_create_session", create)
    return made


def _svg(path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return root


def _diagram(html: str) -> str:
    """The stepper page's diagram: inline, or deflated once it is large
    (tracer/render/svg_compact.py), inflated here as the page's script does."""
    import base64
    import re
    import zlib

    packed = re.search(r'<figure class="diagram" data-deflated="([^"]*)"', html)
    if packed:
        return zlib.decompress(base64.b64decode(packed.group(1)), -15).decode()
    return html[html.index('<figure class="diagram">') + len('<figure class="diagram">'):]


def test_a_page_that_traps_is_one_line_and_the_next_renders_work(no_dot, instances,
                                                                 monkeypatch, tmp_path):
    monkeypatch.setattr(wasm_graphviz, "MEMORY", SMALL_CAP)
    page = tmp_path / "big.html"
    res = cli_run("export", BIG, "--full", "-o", str(page), "--seed", "0")
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert "\n" not in line and "too big for the in-process Graphviz" in line
    assert "apt-get install graphviz" in line and not page.exists()
    assert len(instances) == 2                  # the render, and one retry afresh
    # the same process renders on: a small page within the cap, twice ...
    for k in (1, 2):
        res = cli_run("export", "t[1, 2] = 3", "-o", str(tmp_path / f"small{k}.svg"),
                      "--aspect", "free")
        assert res.exit_code == 0, res.output
        assert "copy_" in ET.tostring(_svg(tmp_path / f"small{k}.svg"), encoding="unicode")
    # ... and the big page once memory allows it
    monkeypatch.setattr(wasm_graphviz, "MEMORY", 1 << 30)
    res = cli_run("export", BIG, "--full", "-o", str(page), "--seed", "0")
    assert res.exit_code == 0, res.output
    assert _diagram(page.read_text(encoding="utf-8")).startswith("<svg")
    assert len(instances) == 5                  # one each: nothing reused


def test_hostile_text_reaches_the_in_process_graphviz_as_data(no_dot, tmp_path):
    """A NUL ended the C string the WebAssembly Graphviz reads (the rest of the page
    was lost), and a printed tag became attributes, as with dot."""
    from test_export_safety import CONTROL, DOT_LINK, _svg_safe, _words

    from tracer.render.visible import visible

    source = tmp_path / "lesson.py"
    source.write_text(f"print({DOT_LINK!r})\nprint({CONTROL!r})\nt[0, 0] = 7\n",
                      encoding="utf-8")
    res = cli_run("export", "-f", str(source), "-o", str(tmp_path / "l.html"), "--full")
    assert res.exit_code == 0, res.output
    page = (tmp_path / "l.html").read_text(encoding="utf-8")
    svg = tmp_path / "diagram.svg"
    svg.write_text(page[page.index("<svg"):page.index("</svg>") + 6], encoding="utf-8")
    drawn = _words(_svg_safe(svg))
    for line in [DOT_LINK, *visible(CONTROL).split("\n")]:
        assert _words([line]) in drawn, line
    assert ">>> t[0, 0] = 7" in drawn            # the page goes on after the NUL
