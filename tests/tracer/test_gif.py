"""The GIF animation of the storage picture (``tidx export ... -o t.gif``), read back
with Pillow: one frame per step, 1920 px wide, the cells the statement writes changing
at the step that writes them, the written value on the last frame."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from PIL import Image

from conftest import cli_run
from engine.interpreter import session
from tracer import lecture as L
from tracer.render import gif as render_gif
from tracer.render import step as render_step

WRITE = "t[rows, cols] = 10"


@pytest.fixture(scope="module")
def written() -> tuple[dict, Image.Image]:
    doc = session.run_document(WRITE)
    return doc, Image.open(io.BytesIO(render_gif.render(doc)))


def _frame(image: Image.Image, k: int) -> np.ndarray:
    image.seek(k)
    return np.asarray(image.convert("RGB"), dtype=int)


def _red_boxes(rgb: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The boxes filled with the "changed in this step" red, as (x0, y0, x1, y1), left to
    right (the legend's swatch, small, left out)."""
    red = (np.abs(rgb - np.array(render_gif.WRITTEN_RGB)).sum(axis=2) < 40)
    row = int(np.argmax(red.sum(axis=1)))
    boxes = []
    xs = np.flatnonzero(red[row])
    runs = np.split(xs, np.flatnonzero(np.diff(xs) > 1) + 1) if len(xs) else []
    for run in runs:
        if run[-1] - run[0] <= 40:
            continue
        column = red[:, int(run[len(run) // 2])]
        y0 = y1 = row
        while y0 > 0 and column[y0 - 1]:
            y0 -= 1
        while y1 < len(column) and column[y1]:
            y1 += 1
        boxes.append((int(run[0]), y0, int(run[-1]) + 1, y1))
    return boxes


def test_one_frame_per_step_1920_pixels_wide(written):
    doc, image = written
    assert image.format == "GIF"
    assert image.n_frames == len(render_step.steps(doc)) == 48
    assert image.size[0] == 1920
    image.seek(0)
    assert image.info["duration"] == render_gif.FRAME_MS
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == render_gif.LAST_FRAME_MS


@pytest.mark.parametrize("statement", ["x = torch.randn(3, 4)", "y = t[1:, ::2]; y[0, 1] = 0",
                                       "t[5]", "t.stride(); t[0, 0] = 1"])
def test_frame_count_is_the_step_count_of_every_statement(statement):
    doc = session.run_document(statement, seed=0)
    image = Image.open(io.BytesIO(render_gif.render(doc, width=640)))
    assert image.n_frames == len(render_step.steps(doc)) == len(render_gif.frames(doc))
    assert image.size[0] == 640


def test_the_frames_differ_where_the_write_happens(written):
    _, image = written
    last, before = _frame(image, image.n_frames - 1), _frame(image, image.n_frames - 2)
    boxes = _red_boxes(last)
    assert len(boxes) == 2, boxes                     # elements 1 and 7 of t's storage
    assert _red_boxes(before) == []                   # nothing written before the kernel
    (ax0, ay0, ax1, ay1), (bx0, _, bx1, _) = boxes
    cell = ax1 - ax0
    assert 5.5 < (bx0 - ax0) / cell < 6.5            # offsets 1 and 7: six cells apart
    for x0, y0, x1, y1 in boxes:
        assert (last[y0:y1, x0:x1] != before[y0:y1, x0:x1]).any()
    # element 0, one cell to the left of element 1, is the same in both frames
    left = (ax0 - cell, ay0, ax0, ay1)
    assert (last[left[1]:left[3], left[0] + 3:left[2] - 3] ==
            before[left[1]:left[3], left[0] + 3:left[2] - 3]).all()


def test_the_last_frame_shows_the_written_value(written):
    doc, image = written
    last = _frame(image, image.n_frames - 1)
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = _red_boxes(last)
    inner = lambda rgb, x0, y0, x1, y1: rgb[y0 + 4:y1 - 4, x0 + 4:x1 - 4]  # noqa: E731
    # the two written cells hold the same value, drawn the same ...
    assert (inner(last, ax0, ay0, ax1, ay1) == inner(last, bx0, by0, bx0 + ax1 - ax0,
                                                     by1)).all()
    # ... with ink on the red (the digits), and that value is 10: writing 11 instead
    # draws other pixels in the same cell
    cell = inner(last, ax0, ay0, ax1, ay1)
    assert (np.abs(cell - np.array(render_gif.WRITTEN_RGB)).sum(axis=2) > 100).sum() > 50
    other = Image.open(io.BytesIO(render_gif.render(session.run_document("t[rows, cols] = 11"))))
    theirs = _frame(other, other.n_frames - 1)
    assert _red_boxes(theirs)[0] == (ax0, ay0, ax1, ay1)
    assert (inner(theirs, ax0, ay0, ax1, ay1) != cell).any()
    # the frames' own data agree: the kernel wrote 10 at offsets 1 and 7
    frame = render_gif.frames(doc)[-1]["pictures"][0]
    assert frame["cells"] == {0: 1, 1: 10, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 10, 8: 9}
    assert frame["now"] == {1: "written", 7: "written"}
    # before it, aten::index_put_ (whose kernel writes) frames the cells it will write
    put = next(f for f in render_gif.frames(doc) if f["event"].name == "aten::index_put_")
    assert put["pictures"][0]["soon"] == {1: "written", 7: "written"}
    assert put["pictures"][0]["now"] == {}
    # the legend names the marks the animation uses, and only those (the write is the
    # last step: no frame shows a cell changed earlier)
    assert render_gif.frames(doc)[-1]["legend"] == ["written", "soon"]


def test_the_state_is_the_state_at_each_step():
    frames = render_gif.frames(session.run_document("x = torch.randn(3, 4)", seed=0))
    names = [f["event"].name for f in frames]
    pictures = [f["pictures"][0] for f in frames]
    empty, kernel = names.index("aten::empty"), names.index("normal_kernel")
    # no storage before empty allocates it; allocated but not set until normal_ fills it
    assert not pictures[0]["exists"] and not pictures[empty]["exists"]
    made = next(k for k, p in enumerate(pictures) if p["exists"])
    assert empty < made < kernel
    assert pictures[kernel - 1]["cells"] == {}                  # nothing recorded yet
    assert sorted(pictures[kernel]["cells"]) == list(range(12))
    assert set(pictures[kernel]["now"]) == set(range(12))          # every cell changes
    assert pictures[-1]["cells"] == pictures[kernel]["cells"]
    assert [v["name"] for v in pictures[-1]["views"]] == ["x"]
    assert frames[0]["legend"] == ["written", "soon", "earlier", "absent", "unknown"]


def test_a_later_statement_keeps_the_values_an_earlier_one_showed():
    frames = render_gif.frames(session.run_document("y = t[1:, ::2]; y[0, 1] = 0"))
    last = frames[-1]["pictures"][0]
    assert last["cells"] == {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 0, 6: 7, 7: 8, 8: 9}
    assert last["now"] == {5: "written"}


def test_an_error_is_on_the_last_frame_with_its_explanation():
    frames = render_gif.frames(session.run_document("t[5]"))
    assert frames[-1]["error"].message == \
        "index 5 is out of bounds for dimension 0 with size 3"
    assert frames[-1]["context"]["source"] == "t[5]"


def test_export_writes_a_gif_from_its_suffix(tmp_path):
    out = tmp_path / "t.gif"
    res = cli_run("export", WRITE, "-o", str(out), "--full")
    assert res.exit_code == 0, res.output
    image = Image.open(out)
    assert image.format == "GIF" and image.n_frames == 48 and image.size[0] == 1920
    # by default one frame per step of the lecture view, as the tree shows them
    lecture = tmp_path / "lecture.gif"
    assert cli_run("export", WRITE, "-o", str(lecture)).exit_code == 0
    shown, _ = L.counts(L.fold(session.run_document(WRITE)))
    assert Image.open(lecture).n_frames == shown


def test_export_of_an_error_still_writes_the_gif_and_exits_1(tmp_path):
    out = tmp_path / "e.gif"
    res = cli_run("export", "t[5]", "-o", str(out))
    assert res.exit_code == 1
    assert Image.open(out).n_frames == 4


def test_without_pillow_the_export_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)   # import PIL fails
    out = tmp_path / "t.gif"
    res = cli_run("export", WRITE, "-o", str(out))
    assert res.exit_code == 2
    assert "GIF export needs Pillow" in res.output and "Traceback" not in res.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_without_dejavu_pillows_own_font_draws_the_same_frames(monkeypatch):
    monkeypatch.setattr(render_gif, "MONO_FONTS", ())
    monkeypatch.setattr(render_gif, "BOLD_FONTS", ())
    image = Image.open(io.BytesIO(render_gif.render(session.run_document(WRITE))))
    assert image.n_frames == 48 and image.size[0] == 1920
    assert len(_red_boxes(_frame(image, 47))) == 2


def test_chinese_labels_need_a_cjk_font(monkeypatch):
    """DejaVu has no CJK glyphs: without a CJK font the frames keep English labels, never
    empty boxes."""
    monkeypatch.setattr(render_gif, "CJK_FONTS", ())
    doc = session.run_document(WRITE)
    assert render_gif.render(doc, lang="zh") == render_gif.render(doc, lang="en")


@pytest.mark.parametrize("statements", [
    "y = t[1:, ::2]; y[0, 1] = 0; t[5]",
    "x = torch.randn(3, 4); x[x > 0] = 0; b[idx_0, idx_1]",
    "z = torch.zeros(100); z[3] = 1; a, c = torch.arange(6).chunk(2); print(a)",
])
def test_each_frame_repaints_only_what_changed_and_shows_what_a_whole_frame_does(
        statements, monkeypatch):
    """A frame stores only the rows whose drawing changed since the frame before,
    painted from scratch; read back (a viewer lays each over the last) every frame
    is pixel for pixel the frame painted whole, and they store fewer rows."""
    doc = session.run_document(statements, seed=0)
    rows: list[int] = []
    real = render_gif._changed

    def spy(*args, **kwargs):
        top, bottom = real(*args, **kwargs)
        rows.append(bottom - top)
        return top, bottom

    monkeypatch.setattr(render_gif, "_changed", spy)
    ours = Image.open(io.BytesIO(render_gif.render(doc, width=480)))
    monkeypatch.setattr(render_gif, "_changed", lambda before, now, items, height, whole:
                        (0, height))
    whole = Image.open(io.BytesIO(render_gif.render(doc, width=480)))
    assert ours.n_frames == whole.n_frames == len(rows)
    for k in range(ours.n_frames):
        assert (_frame(ours, k) == _frame(whole, k)).all(), k
    height = ours.size[1]
    assert rows[0] == height and sum(rows[1:]) < 0.8 * height * (len(rows) - 1)


def test_a_long_statement_makes_frames_a_gif_can_hold():
    """A statement of thousands of characters wraps onto at most MOST_LINES lines
    (the last ends in '…'), measured by halving, not character by character."""
    text = "y = t[[" + ", ".join(["0"] * 3000) + "]]"
    doc = session.run_document(text)
    image = Image.open(io.BytesIO(render_gif.render(doc, width=640)))
    assert image.size[1] < 2000
