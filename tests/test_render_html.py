"""The self-contained HTML page, and what a person sees when a browser opens it."""

from __future__ import annotations

import re

import pytest

from conftest import require_chromium, screenshot
from engine.interpreter import session
from tracer.render import export
from tracer.render import html as render_html

# goldens must not depend on which test seeded the engine's generator first

SVG = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg width="10pt"><text>x</text></svg>\n'


def test_page_is_self_contained_with_the_svg_inline():
    page = render_html.render(session.run("t[1, 2] = 3"), SVG)
    assert page.startswith("<!DOCTYPE html>")
    assert '<figure class="diagram"><svg width="10pt">' in page and "<?xml" not in page
    assert not re.search(r'<(script|link)\b|\ssrc="', page)


def test_page_has_every_step_with_note_value_and_source_link():
    doc = session.run("t[rows, cols] = 10")
    page = render_html.render(doc, SVG)
    from tracer import events
    steps = sum(1 for st in doc["statements"] for _ in events.walk(st["events"]))
    assert steps > 40 and page.count('<div class="step">') == steps
    assert "a tensor index does not touch the tensor now" in page
    assert "written=s$1 elements [1, 7]" in page
    assert 'href="https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/' \
           'TensorIndexing.h"' in page
    assert "t = tensor([[ 1, 10,  3]," in page


def test_user_text_is_escaped():
    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["source"] = "<script>alert(1)</script>"
    page = render_html.render(doc, SVG)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_fragment_styles_apply_only_inside_the_tidx_block():
    frag = render_html.fragment(session.run("t[1, 2] = 3"), None)
    css = re.search(r"<style>(.*?)</style>", frag, re.S).group(1)
    rules = [r.strip() for r in re.findall(r"([^{}]+)\{", css)]
    assert rules and all(sel.strip().startswith(".tidx") for r in rules for sel in r.split(","))
    assert "<figure" not in frag


@pytest.mark.chromium
def test_chromium_shows_the_diagram_on_the_page(tmp_path):
    require_chromium()
    from PIL import Image

    page = tmp_path / "page.html"
    page.write_bytes(export.content(session.run("t[rows, cols] = 10"), "html"))
    png = screenshot(page, tmp_path / "page.png", width=1280, height=900)
    image = Image.open(png).convert("RGB")
    pixels = list(image.crop((0, 0, 1280, 300)).get_flattened_data())

    def count(hex_color: str) -> int:
        rgb = tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
        return sum(1 for p in pixels if all(abs(a - b) <= 6 for a, b in zip(p, rgb)))

    # the lifeline title boxes of the diagram, each in its layer's colour, near the top
    for fill in ("#fff1bf", "#cdf0f4", "#d6e2fb", "#d7f0d5", "#f9d6d2"):
        assert count(fill) > 300, fill
