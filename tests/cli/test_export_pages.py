"""Slide pages (issue 28): PNG, PDF and SVG exports are 16:9 pages by default, one
size across a lesson, every text at least 24 pixels high on a 1080-pixel slide, a
tall diagram split over pages (never through a label), the storage picture on a
page of its own when it does not fit under the diagram; ``--aspect`` for 4:3, A4
and free.  ``--lang`` reaches the images, and the error's page explains the error.
Every file is read from outside: PNG sizes through Pillow, PDF page boxes from the
file, SVG viewBoxes and font sizes through an XML parser."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from conftest import cli_run, require_dot
from engine.interpreter import session
from tracer import i18n
from tracer.events import LAYERS
from tracer.render import dot as render_dot
from tracer.render import export, slides

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: bytes) -> list[tuple[str, float]]:
    """Each text of an SVG with its font size, in points of the viewBox."""
    root = ET.fromstring(svg)
    return [(el.text or "", float(el.get("font-size"))) for el in root.iter(f"{SVG}text")]


def view_box(svg: bytes) -> tuple[float, float]:
    box = [float(v) for v in ET.fromstring(svg).get("viewBox").split()]
    return box[2], box[3]


def squash(text: str) -> str:
    return "".join(text.replace("\xa0", " ").split())


def pdf_boxes(pdf: bytes) -> list[tuple[float, ...]]:
    """Every page's MediaBox, read from the file's page objects."""
    return [tuple(float(v) for v in m.groups())
            for m in re.finditer(rb"/Type\s*/Page\b(?!s).*?/MediaBox\s*\[\s*([\d.]+)\s+"
                                 rb"([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", pdf, re.S)]


@pytest.mark.dot
@pytest.mark.parametrize("aspect, size", [(None, (1920, 1080)), ("4:3", (1920, 1440)),
                                          ("a4", (1920, 1358))])
def test_every_png_page_has_the_slide_s_shape(tmp_path, aspect, size):
    """t[rows, cols] = 10 was one 1920x2499 portrait image: now slides, several."""
    require_dot()
    from PIL import Image

    out = tmp_path / "p.png"
    res = cli_run("export", "t[rows, cols] = 10", "-o", str(out),
                  *(("--aspect", aspect) if aspect else ()))
    assert res.exit_code == 0, res.output
    pages = sorted(tmp_path.glob("p-*.png"))
    assert len(pages) >= 2 and not out.exists()
    assert {Image.open(p).size for p in pages} == {size}
    assert f"wrote {len(pages)} files, one per page" in res.output


@pytest.mark.dot
def test_a_lesson_pdf_has_one_page_size_and_every_statement(tmp_path):
    """One lesson PDF mixed pages from 282x182 pt to 1083x2380 pt."""
    require_dot()
    out = tmp_path / "l.pdf"
    res = cli_run("export", "-f", "samples/views_and_copies.py", "-o", str(out))
    assert res.exit_code == 0, res.output
    boxes = pdf_boxes(out.read_bytes())
    statements = len(session.run(open("samples/views_and_copies.py").read())["statements"])
    assert len(boxes) >= statements
    assert set(boxes) == {(0.0, 0.0, 1200.0, 675.0)}
    free = tmp_path / "free.pdf"
    assert cli_run("export", "-f", "samples/views_and_copies.py", "-o", str(free),
                   "--aspect", "free").exit_code == 0
    assert len(set(pdf_boxes(free.read_bytes()))) > 1     # as large as each drawing


def _svg_pages(statement: str, lang: str = "en", aspect: str = "16:9") -> list[bytes]:
    doc = session.run_document(statement, seed=0)
    files, _ = export.render_all(doc, "x.svg", "svg", lang=lang, lecture=True,
                                 aspect=aspect)
    return [data for _, data in files]


@pytest.mark.dot
@pytest.mark.parametrize("statement", ["t[rows, cols] = 10", "x = torch.randn(3, 4)",
                                       "y = t[1:, ::2]; y[0, 1] = 0", "t[5]"])
def test_no_text_is_under_24_pixels_on_a_1080_pixel_slide(statement):
    require_dot()
    for svg in _svg_pages(statement):
        width, height = view_box(svg)
        assert (width, height) == slides.page_size("16:9")
        smallest = min(size for _, size in texts(svg)) * 1080 / height
        assert smallest >= slides.MIN_TEXT_PX


@pytest.mark.dot
@pytest.mark.parametrize("statement", ["t[rows, cols] = 10", "c = t[torch.tensor([1, 2])]"])
def test_the_pages_together_show_every_label_once_and_cut_none(statement):
    """Split over pages, the diagram keeps every step and value (read in order), and
    a page shows only its own rows: no label is drawn twice."""
    require_dot()
    doc = session.run_document(statement, seed=0)
    # the whole drawing, its pictures from the whole run as an export's are
    drawing = export.content(doc, "svg", lecture=True, pictures=render_dot.collect(doc))
    titles = set(LAYERS.values())   # the lifelines' titles: at the top of every page
    whole = [squash(t) for t, _ in texts(drawing) if t not in titles]
    pages = _svg_pages(statement)
    paged = [squash(t) for svg in pages for t, _ in texts(svg) if t not in titles]
    assert sorted(paged) == sorted(whole)
    assert len(pages) >= 2
    for svg in pages:
        shown = {t for t, _ in texts(svg)}
        assert {"Python", "C++ binding", "Dispatcher"} <= shown


@pytest.mark.dot
def test_the_storage_picture_is_kept_whole_on_one_page():
    """t[rows, cols] = 10: the picture does not fit under the diagram's last rows, so
    it starts a page: its title, cells, grids and legend on that page."""
    require_dot()
    pages = [" ".join(t for t, _ in texts(svg)) for svg in _svg_pages("t[rows, cols] = 10")]
    legend = i18n.text("ui.picture.mark.written", "en")
    holding = [k for k, text in enumerate(pages) if "storage s$" in text]
    assert len(holding) == 1
    page = pages[holding[0]]
    assert "changed: offset 1: 2 -> 10; offset 7: 8 -> 10" in page and legend in page
    assert "t: i64[3, 3]" in page and "strides (3, 1) offset 0" in page


def test_page_breaks_fall_between_rows_and_keep_a_unit_whole():
    boxes = [(0, y - 8, 100, y + 8, False) for y in range(0, -1000, -40)]
    boxes.append((0, -990, 8, 10, True))               # an activation bar: may be cut
    for top, bottom in slides.bands(boxes, [], 300):
        assert top - bottom <= 300
        # no row crosses a break: each is wholly above or below it
        assert all(b[1] >= bottom or b[3] <= bottom for b in boxes if not b[4])
    unit = (-380, -620)                                  # rows -400 .. -600 kept together
    breaks = [b for _, b in slides.bands(boxes, [unit], 300)]
    assert not any(unit[1] < b < unit[0] for b in breaks)


@pytest.mark.dot
def test_lang_zh_puts_chinese_into_the_images_and_the_explanation_on_the_error_s_page():
    require_dot()
    en = " ".join(t for svg in _svg_pages("t[5]") for t, _ in texts(svg))
    zh = " ".join(t for svg in _svg_pages("t[5]", "zh") for t, _ in texts(svg))
    message = "IndexError: index 5 is out of bounds for dimension 0 with size 3"
    st = session.run_document("t[5]").statements[0]
    assert st.error is not None
    for text, lang in ((en, "en"), (zh, "zh")):
        assert message in text                           # PyTorch's words, untranslated
        why = i18n.explain_error(st.error.message, lang, i18n.error_context(st))
        assert squash(why) in squash(text)
    assert i18n.text("ui.layer.binding", "zh") in zh and "C++ binding" not in zh
    # the storage picture's words too
    picture = " ".join(t for svg in _svg_pages("t[1, 2] = 3", "zh") for t, _ in texts(svg))
    assert i18n.text("ui.storage.offset", "zh") in picture
    assert re.search(r"[\u4e00-\u9fff]", picture)


@pytest.mark.dot
def test_a_cjk_font_draws_the_chinese_of_a_png(tmp_path):
    """fontconfig has a font for Chinese (.ci/run installs fonts-noto-cjk), so the PNG
    draws glyphs, not empty boxes: the Chinese explanation inks pixels."""
    require_dot()
    import subprocess

    from PIL import Image, ImageChops

    fonts = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout
    assert fonts.strip(), "no font for Chinese: apt-get install fonts-noto-cjk"
    out = tmp_path / "zh.png"
    assert cli_run("export", "t[5]", "-o", str(out), "--lang", "zh").exit_code == 1
    en = tmp_path / "en.png"
    assert cli_run("export", "t[5]", "-o", str(en)).exit_code == 1
    diff = ImageChops.difference(Image.open(out).convert("L"), Image.open(en).convert("L"))
    assert diff.getbbox() is not None


def test_the_free_aspect_keeps_one_page_per_statement():
    doc = session.run_document("y = t[1:, ::2]; y[0, 1] = 0")
    graph = export._graph(export.statements(doc)[1], "svg", "sequence", lang="en",
                          pictures=None, lecture=True)
    assert slides.pages(graph, "free") == [graph]
    assert len(slides.pages(graph, "16:9")) >= 2


@pytest.mark.dot
def test_pages_go_to_dot_in_batches_not_one_process_a_page(monkeypatch):
    """Fast exports (issue 28): a dot process costs its start, fonts and cairo set-up;
    a lesson's pages are drawn BATCH to a process.  Counted, not timed."""
    require_dot()
    import graphviz

    real, calls = graphviz.pipe, []

    def pipe(engine, fmt, data, **kwargs):
        calls.append(data.count(b"digraph tidx {"))
        return real(engine, fmt, data, **kwargs)
    monkeypatch.setattr(graphviz, "pipe", pipe)
    doc = session.run_document(open("samples/views_and_copies.py").read(), seed=0)
    files, pages = export.render_all(doc, "l.png", "png", lecture=True, aspect="16:9")
    assert len(files) == pages == sum(calls) > export.BATCH
    # every process but the last draws a whole batch: processes grow with pages / BATCH
    # (two run at once: in any order)
    calls.sort(reverse=True)
    assert all(n >= export.BATCH for n in calls[:-1]) and 0 < calls[-1]
    assert len(calls) <= pages // export.BATCH + 1 < len(doc.statements)


def test_the_call_tree_of_a_storage_longer_than_its_picture_is_drawn(tmp_path):
    # the call tree's HTML-like storage table said "(N more)" with a name it did not
    # have (an internal error, exit 3) once a storage outgrew its drawn cells
    require_dot()
    from click.testing import CliRunner

    import cli
    out = tmp_path / "calls.svg"
    res = CliRunner().invoke(cli.main, ["export", "x = torch.arange(300)", "--diagram",
                                        "calls", "-o", str(out)])
    assert res.exit_code == 0, res.output
    pages = [out] if out.exists() else sorted(tmp_path.glob("calls-*.svg"))
    assert "more" in "".join(p.read_text() for p in pages)
