"""Slide-ready exports (issue 15): nothing cut, the storage picture in every image,
1920-pixel PNGs, one page or file per statement, all or nothing, progress on a
terminal only.  Files are read back: SVG text through an XML parser, PNG pixels and
sizes through Pillow, PDF pages through the file's own page tree."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from conftest import cli_run, require_dot, require_torch
from engine.interpreter import lessons, session
from tracer import i18n
from tracer import lecture as L
from tracer.document import Document, walk
from tracer.render import diagram, export, pdfjoin, progress, storage
from tracer.render import format as F

VIEWS = "y = t[1:, ::2]; y[0, 1] = 0"      # the example: eleven values were cut


def svg_text(svg: bytes) -> str:
    """Every text of an SVG in document order, one space between, spaces collapsed:
    a label wrapped onto several lines reads as it was written."""
    root = ET.fromstring(svg)
    texts = [el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text")]
    return squash(" ".join(texts))


def squash(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


def trace_texts(doc: Document) -> list[str]:
    """What the trace says a step is: its name, its key values, its result, its error."""
    found = []
    for st in doc.statements:
        for _, ev in walk(st.events):
            found.append(ev.name)
            if diagram.details(ev, whole=True):
                found.append(diagram.details(ev, whole=True))
            if ev.result is not None:
                found.append(F.value(ev.result, whole=True))
            if ev.error is not None:
                found.append(ev.error.message)
        if st.error is not None:
            found.append(f"{st.error.type}: {st.error.message}")
    return found


@pytest.mark.dot
@pytest.mark.parametrize("statement", [VIEWS, "t[rows, cols] = 10", "t[0:2] = torch.tensor([7, 8, 9])",
                                       "x = torch.randn(3, 4)"])
@pytest.mark.parametrize("lecture", [False, True], ids=["full", "lecture"])
def test_no_value_is_cut_every_step_and_value_is_in_the_svg(statement, lecture):
    """The full diagram (--full) and the lecture view's (the default): every step it
    shows is there with every value, none cut."""
    require_dot()
    doc = session.run_document(statement, seed=0)
    for part in export.statements(doc):
        text = svg_text(export.content(part, "svg", lecture=lecture))
        assert "…" not in text and "..." not in text
        for wanted in trace_texts(L.fold(part) if lecture else part):
            assert squash(wanted) in text, wanted


def test_no_value_is_cut_in_the_in_process_svg_either(monkeypatch, tmp_path):
    """Without the dot program (the WebAssembly Graphviz) the same labels are drawn."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    doc = session.run_document(VIEWS)
    part = export.statements(doc)[1]
    text = svg_text(export.content(part, "svg"))
    assert "…" not in text
    assert all(squash(w) in text for w in trace_texts(part))


def test_the_svg_carries_the_storage_picture_values_marks_views_and_legend(tmp_path):
    doc = session.run_document("y = t[1:, ::2]; y[0, 1] = 0")
    page = export.statements(doc)[1]
    (p,) = storage.collect(doc.statements[1], doc.statements[0])
    pictures = [storage.collect(doc.statements[1], doc.statements[0])]
    text = svg_text(export.content(page, "svg", pictures=pictures))
    assert f"storage {p['storage']}: 9 x i64 (72 bytes)" in text
    # the cells in storage order, each value once (the written one is 0 now)
    assert "offset 0 1 2 3 4 5 6 7 8 1 2 3 4 5 0 7 8 9" in text
    # every view by the picture's name, the base said so, with the indices it selects
    assert [g["name"] for g in p["grids"]][:2] == ["t", "y"] and p["base"] == "t"
    assert "t (base) 0,0 0,1 0,2 1,0 1,1 1,2 2,0 2,1 2,2" in text
    assert "y 0,0 0,1 1,0 1,1" in text
    # what changed (the old value comes from the statement before), the worked offset
    assert "changed: offset 5: 6 -> 0" in text
    assert "y[0, 1] -> offset 3 + 0*3 + 1*2 = 5 holds 0" in text
    # each view's own grid, and a legend entry for every mark the model uses
    assert "y: i64[2, 2] strides (3, 2) offset 3 4 0 7 9" in text
    for mark in p["legend"]:
        assert squash(i18n.text(mark["text_id"], "en")) in text
    # the written element is drawn red in the row and in the grids, the others white
    svg = export.content(page, "svg", pictures=pictures).decode()
    cells = re.findall(r'<polygon fill="([^"]+)" stroke="#8a8a8a"[^>]*/>\s*<text[^>]*>([^<]*)</text>',
                       svg)
    row = [(fill, value) for fill, value in cells if value.strip().isdigit()][:9]
    assert [v for _, v in row] == ["1", "2", "3", "4", "5", "0", "7", "8", "9"]
    assert [fill for fill, _ in row] == ["white"] * 5 + ["#c62828"] + ["white"] * 3
    assert sum(1 for fill, v in cells if fill == "#c62828" and v == "0") >= 3


def test_a_statement_that_raised_shows_pytorch_s_message_under_its_rows():
    doc = session.run_document(lessons.load("errors").text)
    page = export.statements(doc)[1]
    text = svg_text(export.content(page, "svg"))
    assert "IndexError: index 5 is out of bounds for dimension 0 with size 3" in text


@pytest.mark.dot
def test_a_png_is_1920_pixels_wide_whatever_the_diagram_and_width_px_changes_it(tmp_path):
    require_dot()
    from PIL import Image

    for statement in ("t[1, 2] = 3", "x = torch.randn(3, 4)", "t[rows, cols] = 10"):
        png = export.content(session.run_document(statement, seed=0), "png",
                             width_px=export.WIDTH_PX)
        assert Image.open(io.BytesIO(png)).size[0] == 1920
    out = tmp_path / "small.png"
    res = cli_run("export", "t[1, 2] = 3", "-o", str(out), "--width-px", "800",
                  "--aspect", "free")
    assert res.exit_code == 0, res.output
    assert Image.open(out).size[0] == 800


@pytest.mark.dot
def test_the_png_shows_the_storage_picture_written_cell_in_red(tmp_path):
    require_dot()
    from PIL import Image

    png = Image.open(io.BytesIO(export.content(session.run_document("t[1, 2] = 3"), "png",
                                               width_px=1920))).convert("RGB")
    red = sum(1 for px in png.get_flattened_data() if px == (198, 40, 40))        # #c62828
    views = sum(1 for px in png.get_flattened_data() if px == (232, 238, 252))    # a view's box
    assert red > 400 and views > 2000     # a cell's box, nine boxes of the view t


@pytest.mark.dot
def test_a_lesson_exports_one_pdf_page_per_statement_errors_included(tmp_path):
    require_dot()
    out = tmp_path / "errors.pdf"
    res = cli_run("export", "-f", "samples/errors.py", "-o", str(out), "--aspect", "free")
    assert res.exit_code == 0, res.output
    pdf = out.read_bytes()
    doc = session.run(lessons.load("errors").text)
    assert pdfjoin.page_count(pdf) == len(doc["statements"]) == 10
    # counted a second way: the page objects themselves
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 10
    assert f"wrote {out} (pdf, 10 pages)" in res.stderr


def test_several_statements_export_one_svg_each_and_say_so(tmp_path):
    out = tmp_path / "views.svg"
    res = cli_run("export", VIEWS, "-o", str(out), "--aspect", "free")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["views-1.svg", "views-2.svg"]
    assert "y = t[1:, ::2]" in svg_text((tmp_path / "views-1.svg").read_bytes())
    second = svg_text((tmp_path / "views-2.svg").read_bytes())
    # a page knows the statement before it: the value its write replaced
    assert "y[0, 1] = 0" in second and "changed: offset 5: 6 -> 0" in second
    assert res.stderr == (f"tidx: wrote 2 files, one per page: {tmp_path}/views-1.svg "
                          f"... {tmp_path}/views-2.svg (svg)\n")


def test_a_single_statement_still_writes_the_one_file_named(tmp_path):
    out = tmp_path / "one.svg"
    res = cli_run("export", "t[1, 2] = 3", "-o", str(out), "--aspect", "free")
    assert res.exit_code == 0 and [p.name for p in tmp_path.iterdir()] == ["one.svg"]


def test_a_set_of_files_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    real = export.render_images
    calls = []

    def render_images(graphs, fmt, *args, **kwargs):
        calls.append(fmt)
        if len(calls) == 2:
            raise export.ExportError("Graphviz failed: the second statement")
        return real(graphs, fmt, *args, **kwargs)
    monkeypatch.setattr(export, "render_images", render_images)
    monkeypatch.setattr(export, "BATCH", 1)      # a dot process for each statement
    (tmp_path / "views-1.svg").write_text("old")
    with pytest.raises(export.ExportError):
        export.export(session.run_document(VIEWS), str(tmp_path / "views.svg"))
    assert [p.name for p in tmp_path.iterdir()] == ["views-1.svg"]
    assert (tmp_path / "views-1.svg").read_text() == "old"


def test_write_all_replaces_nothing_when_one_file_cannot_be_written(tmp_path):
    (tmp_path / "a.svg").write_text("old")
    with pytest.raises(export.ExportError, match="missing"):
        export.write_all([(tmp_path / "a.svg", b"new"), (tmp_path / "missing" / "b.svg", b"x")])
    assert (tmp_path / "a.svg").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg"]


@pytest.mark.dot
def test_the_pdf_joiner_keeps_every_page_and_a_valid_xref(tmp_path):
    require_dot()
    parts = [export.content(session.run_document(s), "pdf")
             for s in ("t[1, 2] = 3", "t[0, 5] = 1", "x = torch.zeros(2)")]
    joined = pdfjoin.join(parts)
    assert pdfjoin.page_count(joined) == 3
    # every in-use xref entry points at its own object's header
    at = int(re.search(rb"startxref\s+(\d+)", joined).group(1))
    table = joined[at:].split(b"trailer")[0].split(b"\n")[2:]
    for num, entry in enumerate(table):
        if entry.endswith(b"n ") or entry.endswith(b"n"):
            off = int(entry[:10])
            assert joined[off:].startswith(b"%d 0 obj" % num), num
    # the pages keep their drawings: each input's content streams are in the output
    for part in parts:
        streams = re.findall(rb"(?<!end)stream\n(.{40})", part, flags=re.S)
        assert streams and all(s in joined for s in streams)


def test_the_pdf_joiner_refuses_what_it_cannot_read():
    with pytest.raises(pdfjoin.PdfError):
        pdfjoin.join([b"%PDF-1.5\nno xref here", b"%PDF-1.5\n"])


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path):
    out = tmp_path / "lesson.svg"
    res = cli_run("export", VIEWS, "-o", str(out), "--aspect", "free")
    assert res.exit_code == 0
    assert res.stderr.splitlines() == [res.stderr.strip()]    # the one usual line
    assert res.stderr.startswith("tidx: wrote 2 files")


def test_the_progress_bar_draws_on_a_terminal():
    sink = io.StringIO()
    term = Console(file=sink, force_terminal=True, width=80, color_system=None)
    with progress.bar("rendering SVG", 3, on=term) as tick:
        for _ in range(3):
            tick()
    drawn = sink.getvalue()
    assert "rendering SVG" in drawn and "3/3" in drawn


def test_the_progress_bar_is_silent_elsewhere():
    sink = io.StringIO()
    with progress.bar("rendering SVG", 3, on=Console(file=sink)) as tick:
        tick()
    assert sink.getvalue() == ""


@pytest.mark.dot
def test_the_call_tree_carries_the_storage_picture_as_a_coloured_table():
    require_dot()
    doc = session.run_document("t[1, 2] = 3")
    source = export.content(doc, "dot", "calls").decode()
    assert '<TD BGCOLOR="#c62828"><FONT COLOR="white">3</FONT></TD>' in source
    text = svg_text(export.content(doc, "svg", "calls"))
    assert "storage s$0: 9 x i64 (72 bytes)" in text and "1 2 3 4 5 3 7 8 9" in text
    assert "…" not in text and all(squash(w) in text for w in trace_texts(doc))


def test_without_dot_the_call_tree_shows_the_picture_as_text(monkeypatch, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    doc = session.run_document("t[1, 2] = 3")
    text = svg_text(export.content(doc, "svg", "calls"))
    assert "storage s$0: 9 x i64 (72 bytes)" in text and "pic0_0" not in text
    assert "│ 1 │ 2 │ 3 │ 4 │ 5 │ 3 │ 7 │ 8 │ 9 │" in text


def test_export_and_verify_draw_their_bars_on_a_terminal(tmp_path, monkeypatch):
    """The command's own bars, on a console that is a terminal: they run, they advance
    to the end, and nothing of them is left on stdout."""
    sink = io.StringIO()
    monkeypatch.setattr(progress, "console", lambda: Console(
        file=sink, force_terminal=True, width=100, color_system=None))
    res = cli_run("export", VIEWS, "-o", str(tmp_path / "v.svg"))
    assert res.exit_code == 0 and res.stdout == ""
    drawn = sink.getvalue()
    assert "running the statements" in drawn and "rendering SVG" in drawn and "2/2" in drawn
    sink.truncate(0)
    res = cli_run("explain", "t[1, 2] = 3", "--verify")
    assert res.exit_code == 0
    assert "running in PyTorch" in sink.getvalue()


def test_the_picture_writes_each_element_as_torch_prints_it():
    torch = require_torch()
    torch.manual_seed(0)
    printed = str(torch.randn(3, 4))           # tensor([[ 1.5410, -0.2934, ...
    doc = session.run_document("x = torch.randn(3, 4)", seed=0)
    text = svg_text(export.content(doc, "svg"))
    cells = text.split("offset 0 1 2 3 4 5 6 7 8 9 10 11 ", 1)[1].split(" ")[:12]
    assert cells[:3] == ["1.5410", "-0.2934", "-2.1788"]
    assert all(cell in printed for cell in cells)
    doc = session.run_document("y = t > 4")
    text = svg_text(export.content(doc, "svg"))
    assert "False False False False True True True True True" in text   # as Python: bools


def test_what_a_lesson_prints_keeps_its_lines_and_alignment():
    doc = session.run_document("t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]); print(t)")
    svg = export.content(export.statements(doc)[1], "svg")
    texts = [(el.text or "").replace("\xa0", " ")
             for el in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    start = texts.index("tensor([[1, 2, 3],")
    assert texts[start:start + 3] == ["tensor([[1, 2, 3],", "        [4, 5, 6],",
                                      "        [7, 8, 9]])"]


def _pdf_drawing(pdf: bytes) -> bytes:
    """The page descriptions of a PDF: its FlateDecode streams, inflated (fonts too)."""
    import zlib

    out = []
    for m in re.finditer(rb"(?<!end)stream\r?\n", pdf):
        try:
            out.append(zlib.decompressobj().decompress(pdf[m.end():]))
        except zlib.error:
            continue
    return b"\n".join(out)


@pytest.mark.dot
def test_every_pdf_page_paints_its_storage_picture(tmp_path):
    """Each page fills the written element red (#c62828) and the view's boxes blue
    (#e8eefc): cairo writes those fills as rg operators in the page's content."""
    require_dot()
    doc = session.run_document("t[1, 2] = 3; t[0, 0] = 5")
    files, pages = export.render_all(doc, str(tmp_path / "x.pdf"), "pdf")
    assert pages == 2
    red, blue = b"0.776471 0.156863 0.156863 rg", b"0.909804 0.933333 0.988235 rg"
    for part in export.statements(doc):
        drawing = _pdf_drawing(export.content(part, "pdf"))
        assert red in drawing and blue in drawing
    joined = _pdf_drawing(files[0][1])
    assert joined.count(red) >= 2 and joined.count(blue) >= 2


def test_a_filtered_export_draws_the_pictures_of_the_whole_run(tmp_path):
    """--ops keeps the aten operators only; the storage picture, as the tree's, still
    comes from every step: the old values the kernel replaced are known."""
    out = tmp_path / "ops.svg"
    res = cli_run("export", "t[rows, cols] = 10", "--ops", "-o", str(out), "--aspect", "free")
    assert res.exit_code == 0, res.output
    text = svg_text(out.read_bytes())
    assert "copy_kernel" not in text and "aten::index_put_" in text
    assert "changed: offset 1: 2 -> 10; offset 7: 8 -> 10" in text
