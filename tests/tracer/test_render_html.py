"""The self-contained HTML page, and what a person sees when a browser opens it."""

from __future__ import annotations

import re

import pytest

from conftest import require_chromium
from engine.interpreter import session
from tracer.document import Document, walk as typed_walk
from tracer.render import export
from tracer.render import html as render_html

# goldens must not depend on which test seeded the engine's generator first

SVG = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg width="10pt"><text>x</text></svg>\n'


def test_page_is_self_contained_with_the_svg_inline():
    page = render_html.render(session.run_document("t[1, 2] = 3"), SVG)
    assert page.startswith("<!DOCTYPE html>")
    assert '<figure class="diagram"><svg width="10pt">' in page and "<?xml" not in page
    assert not re.search(r'<(script|link)\b|\ssrc="', page)


def test_page_has_every_step_with_note_value_and_source_link():
    doc = session.run_document("t[rows, cols] = 10")
    page = render_html.render(doc, SVG)
    steps = sum(1 for st in doc.statements for _ in typed_walk(st.events))
    assert steps > 40 and page.count('<div class="step">') == steps
    assert "a tensor index does not touch the tensor now" in page
    assert re.search(r"written=s\$\d+ elements \[1, 7\]", page)
    assert 'href="https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/' \
           'TensorIndexing.h"' in page
    assert "t = tensor([[ 1, 10,  3]," in page


def test_user_text_is_escaped():
    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["source"] = "<script>alert(1)</script>"
    page = render_html.render(Document.from_json(doc), SVG)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_fragment_styles_apply_only_inside_the_tidx_block():
    frag = render_html.fragment(session.run_document("t[1, 2] = 3"), None)
    css = re.search(r"<style>(.*?)</style>", frag, re.S).group(1)
    rules = [r.strip() for r in re.findall(r"([^{}]+)\{", css)]
    assert rules and all(sel.strip().startswith(".tidx") for r in rules for sel in r.split(","))
    assert "<figure" not in frag


@pytest.mark.chromium
def test_chromium_shows_the_diagram_on_the_page(tmp_path):
    from PIL import Image

    from cdp import Browser

    page = tmp_path / "page.html"
    page.write_bytes(export.content(session.run_document("t[rows, cols] = 10"), "html"))
    with Browser(require_chromium(), width=1280, height=900) as browser:
        browser.open(page.as_uri())
        # the stepper comes first: scroll to the diagram and look at it alone
        box = browser.js("""(() => { const f = document.querySelector('figure.diagram');
            f.scrollIntoView(); const r = f.getBoundingClientRect();
            return [r.left, r.top, r.right, Math.min(r.bottom, 900)]; })()""")
        browser.screenshot(str(tmp_path / "page.png"))
    image = Image.open(tmp_path / "page.png").convert("RGB")
    pixels = list(image.crop(tuple(int(v) for v in box)).get_flattened_data())

    def count(hex_color: str) -> int:
        rgb = tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
        return sum(1 for p in pixels if all(abs(a - b) <= 6 for a, b in zip(p, rgb)))

    # the lifeline title boxes of the diagram, each in its layer's colour, near the top
    for fill in ("#fff1bf", "#cdf0f4", "#d6e2fb", "#d7f0d5", "#f9d6d2"):
        assert count(fill) > 300, fill


# -- the interactive stepper (tidx export ... -o lesson.html) ------------------------------
from tracer.events import walk  # noqa: E402
from tracer.render import stepper  # noqa: E402


def test_the_stepper_page_holds_everything_inline():
    page = stepper.render(session.run_document("t[1, 2] = 3"), SVG)
    assert page.startswith("<!DOCTYPE html>")
    assert '<figure class="diagram"><svg width="10pt">' in page
    # one inline script, no file or address it would load: no src=, no <link>, no url()
    assert page.count("<script>") == 1 and not re.search(
        r'<link\b|<\w+\b[^>]*\ssrc=|url\(|@import', page)
    # the only addresses are the PyTorch source links a reader may follow
    for address in re.findall(r'https?://[^"\s<]+', page):
        assert address.startswith("https://github.com/pytorch/pytorch/blob/v2.13.0/"), address


def test_every_step_is_a_frame_and_a_clickable_line_in_call_order():
    doc = session.run_document("t[1, 2] = 3; x = t")
    flat = stepper.frames(doc)
    page = stepper.render(doc, None)
    walked = [ev for st in doc.statements for _, ev in typed_walk(st.events)]
    assert [f["event"] for f in flat[:-1]] == walked
    # x = t records no step: one frame, its heading is its line in the list
    assert flat[-1]["event"] is None and flat[-1]["outcome"][0] == "x = tensor([[1, 2, 3],"
    assert page.count('<template class="tidx-frame"') == len(flat)
    numbers = [int(n) for n in re.findall(r'data-step="(\d+)"', page)]
    assert numbers == list(range(len(flat)))
    assert f'<b id="tidx-pos" aria-live="polite">1 / {len(flat)}</b>' in page
    # the path of calls above the kernel that writes, outermost first
    kernel = next(f for f in flat if f["event"] and f["event"].name == "copy_kernel")
    assert [p.name for p in kernel["path"]] == [
        "Tensor.__setitem__", "THPVariable_setitem", "copy_to", "aten::copy_"]


def test_the_picture_at_each_step_is_the_state_then():
    flat = stepper.frames(session.run_document("t[1, 2] = 3"))
    names = [f["event"].name for f in flat]

    def cell(k: int) -> tuple:
        (picture,) = flat[k]["pictures"]
        return picture["cells"][5], picture["touched"].get(5), picture["earlier"].get(5)

    copy, kernel = names.index("aten::copy_"), names.index("copy_kernel")
    assert all(cell(k) == (6, None, None) for k in range(kernel))
    assert cell(kernel) == (3, "written", None)
    assert flat[copy]["pictures"][0]["cells"] == {o: o + 1 for o in range(9)}


def test_a_later_statement_starts_from_what_the_earlier_left():
    flat = stepper.frames(session.run_document("t[0, 0] = 7; t[2, 2] = 8"))
    second = next(k for k, f in enumerate(flat) if f["statement"] == 1)
    cells = flat[second]["pictures"][0]["cells"]
    assert cells[0] == 7 and cells[8] == 9
    assert flat[-1]["pictures"][0]["cells"][8] == 8


def test_identical_pictures_are_written_once_and_the_file_grows_linearly():
    def size(times: int) -> int:
        page = stepper.render(session.run_document("; ".join(["t[1, 2] = 3"] * times)),
                              None)
        pictures = re.findall(r'<template id="tidx-pic-\d+">(.*?)</template>', page, re.S)
        assert len(pictures) == len(set(pictures))
        return len(page)

    # each statement adds the same bytes (its pictures named alike are written once:
    # `t[1]` and `t[1, 2]` in every statement, tracer/temporaries.py)
    four, eight, sixteen = size(4), size(8), size(16)
    assert 1.9 < (sixteen - eight) / (eight - four) < 2.1   # twice the lesson, twice the bytes


def test_the_stepper_escapes_user_text():
    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["source"] = "<script>alert(1)</script>"
    page = stepper.render(Document.from_json(doc), SVG)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_stepper_speaks_chinese_beside_english():
    page = stepper.render(session.run_document("t[5]"), None, lang="zh")
    assert 'lang="zh"' in page and "下一步 (Next)" in page and "全部步骤 (Every step)" in page
    # PyTorch's message verbatim, with the explanation under it
    assert "IndexError: index 5 is out of bounds for dimension 0 with size 3" in page


def test_lecture_steps_are_the_lecture_trees_lines_with_their_own_pictures():
    """The lecture stepper walks the lines the lecture tree shows (a folded run is no
    step: its count is on its caller's line), each with the picture its step has in
    --full, so step N is one step in every view (tracer/numbering.py)."""
    doc = session.run_document("t[rows, cols] = 10")
    every, lecture = stepper.frames(doc), stepper.frames(doc, lecture=True)
    from tracer import lecture as L
    folded = L.fold(doc).statements
    assert [f["event"].name for f in lecture] == [
        ev.name for st in folded for _, ev in typed_walk(st.events) if not L.is_folded(ev)]
    assert [f["folded"] for f in lecture] == [
        sum(c.folded or 0 for c in ev.children)
        for st in folded for _, ev in typed_walk(st.events) if not L.is_folded(ev)]
    assert sum(1 + f["folded"] for f in lecture) == len(every)
    same = {id(f["event"]): f for f in every}
    for f in lecture:
        assert f["pictures"] == same[id(f["event"])]["pictures"], f["event"].name
    # the lecture ends on the kernel's write, as the full trace does
    assert lecture[-1]["pictures"] == every[-1]["pictures"]
    written = {o for o, how in lecture[-1]["pictures"][0]["touched"].items() if how == "written"}
    assert written == {1, 7}


def test_an_in_place_op_without_recorded_writes_does_not_leak_its_result_backwards():
    flat = stepper.frames(session.run_document("t.add_(1)"))
    kernel = next(k for k, f in enumerate(flat) if f["event"].name == "add__kernel")
    # t existed before: drawn from the first step, its old values not recorded (·)
    assert all(f["pictures"][0]["cells"] == {} for f in flat[:kernel])
    (picture,) = flat[kernel]["pictures"]
    assert picture["cells"] == {o: o + 2 for o in range(9)}
    assert set(picture["touched"].values()) == {"written"} and len(picture["touched"]) == 9


def test_a_storage_the_statement_makes_appears_when_it_is_allocated():
    flat = stepper.frames(session.run_document("y = t.t().contiguous()"))
    names = [f["event"].name for f in flat]
    # from the allocator's step that returns its bytes (the StorageImpl follows)
    made = names.index("DefaultCPUAllocator::allocate")
    assert names[made + 1] == "StorageImpl"
    y = flat[-1]["pictures"][0]["storage"]

    def of_y(f):
        return [p for p in f["pictures"] if p["storage"] == y]

    assert all(not of_y(f) for f in flat[:made])
    assert of_y(flat[made])[0]["cells"] == {}          # allocated, not yet written
    assert of_y(flat[-1])[0]["cells"] == dict(enumerate([1, 4, 7, 2, 5, 8, 3, 6, 9]))
    # and t, which the copy kernel reads, is drawn with every element it read marked
    (t,) = [p for p in flat[-1]["pictures"] if p["storage"] != y]
    assert sorted(t["touched"].items()) == [(off, "read") for off in range(9)]


def test_a_view_is_drawn_from_the_step_that_returns_it():
    flat = stepper.frames(session.run_document("t[1, 2] = 3"))

    def labels(k: int) -> list[str]:
        return [v["label"] for v in flat[k]["pictures"][0]["views"]]

    # the first step that returns t$1 (handleDimInMultiDimIndexing: the select of row 1)
    returns = next(k for k, f in enumerate(flat)
                   if (f["event"].result or {}).get("label") == "t$1")
    assert flat[returns]["event"].name == "handleDimInMultiDimIndexing"
    assert "t$1" not in labels(returns - 1) and "t$1" in labels(returns)


def test_every_seed_statement_lines_its_lecture_steps_up_with_its_steps():
    """A lecture step and the steps folded on its line stand for exactly the recorded
    steps: the lecture's frames are the full trace's frames in order, fewer, and the
    folded counts make up the difference."""
    from test_i18n import SEED_STATEMENTS

    for text in SEED_STATEMENTS:
        doc = session.run_document(text, seed=0)
        every, lecture = stepper.frames(doc), stepper.frames(doc, lecture=True)
        order = [id(f["event"]) for f in every]
        places = [order.index(id(f["event"])) for f in lecture]
        assert places == sorted(places) and len(set(places)) == len(places), text
        assert sum(1 + f["folded"] for f in lecture) == len(every), text
