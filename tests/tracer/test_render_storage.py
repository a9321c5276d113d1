"""The storage picture: which elements a statement touched, and how each view maps them."""

from __future__ import annotations


import pytest
from rich.console import Console

from conftest import golden
from engine.interpreter import session
from tracer import values as V
from tracer.render import storage as render_storage

# goldens must not depend on which test seeded the engine's generator first


def pictures(statement: str, index: int = 0):
    return render_storage.collect(session.run_document(statement, seed=0).statements[index])


def text(statement: str, width: int = 100, index: int | None = 0) -> str:
    """The pictures of statement ``index`` (every statement's, each under its source,
    when None) drawn at ``width`` columns without colour."""
    console = Console(width=width, no_color=True, color_system=None, record=True,
                      file=open("/dev/null", "w"), highlight=False)
    sts = session.run_document(statement, seed=0).statements
    for i, st in enumerate(sts):
        if index is not None and i != index:
            continue
        if index is None:
            console.print(f">>> {st.source}", markup=False)
        for p in render_storage.collect(st, sts[i - 1] if i else None):
            console.print(render_storage.StoragePicture(p))
    return console.export_text()


def test_advanced_assignment_marks_the_two_written_elements():
    (p,) = pictures("t[rows, cols] = 10")
    assert p["touched"] == {1: "written", 7: "written"}
    assert [p["cells"][o] for o in range(9)] == [1, 10, 3, 4, 5, 6, 7, 10, 9]
    assert V.shown(p["views"][0]) == "t" and V.name(p["views"][0]) == "t"


def test_a_view_shows_which_elements_it_addresses():
    (p,) = pictures("y = t[1:, ::2]")
    geometry = [(V.shown(v), v["shape"], v["strides"], v["offset"]) for v in p["views"]]
    assert geometry == [("t", [3, 3], [3, 1], 0), ("y", [2, 2], [3, 2], 3),
                        ("t[1:]", [2, 3], [3, 1], 3)]


def test_a_tensor_reshaped_in_place_is_drawn_once_as_it_is_now():
    """arange allocates empty({0}) and resizes it; max(dim) unsqueeze_s then squeeze_s its
    results: each tensor is one row, in its final geometry (not one row per state)."""
    (p,) = pictures("y = torch.arange(6)[1:]")
    geometry = [(V.shown(v), v["shape"]) for v in p["views"]]
    # the base first (arange's own tensor, which nothing names), then the user's view
    # (called by the text that made it: issue #28)
    assert geometry == [("torch.arange(6)", [6]), ("y", [5])] \
        and p["base"] == "torch.arange(6)"
    values, indices, source = pictures("v, i = t.max(dim=1)")
    assert [(V.shown(x), x["shape"]) for x in values["views"] + indices["views"]] == \
        [("v", [3]), ("i", [3])]
    # and t, every element of which the kernel read (issue #28: inputs are drawn)
    assert [V.shown(x) for x in source["views"]] == ["t"]
    assert source["touched"] == {off: "read" for off in range(9)}


def test_fancy_indexing_reads_from_the_source_and_writes_a_new_storage():
    """The source's elements are read; the result's new storage is written whole (the
    index kernel names no elements: the replay sees the values appear in it)."""
    result, source = pictures("b[idx_0, idx_1]")
    assert source["touched"] == {1: "read", 2: "read", 3: "read", 4: "read"}
    assert result["touched"] == {0: "written", 1: "written", 2: "written", 3: "written"}
    assert not any(c["old_known"] for c in result["changes"])


def test_storage_picture_golden():
    golden("storage_view.txt", text("y = t[1:, ::2]"))


def test_narrow_terminals_wrap_the_grid():
    narrow = text("torch.randn(3, 4)", width=40)
    assert max(len(line) for line in narrow.splitlines()) <= 40
    assert "-0.2934" in narrow and "0.182" in narrow


def test_marks_show_touched_elements_without_colour():
    lines = text("t[rows, cols] = 10").splitlines()
    marks = next(line for line in lines if line.strip().startswith("W"))
    assert marks.split() == ["W", "W"]


# -- the seeds' statements, as a class sees them (read each golden file: it is a claim) ---


SEEDS = {"storage_basic_assignment.txt": "t[1, 2] = 3",
         "storage_advanced_assignment.txt": "t[rows, cols] = 10",
         "storage_view_then_write.txt": "y = t[1:, ::2]; y[0, 1] = 0",
         "storage_randn.txt": "x = torch.randn(3, 4)",
         "storage_mask.txt": "a[index_0]"}


@pytest.mark.parametrize("name", SEEDS)
def test_seed_statements_golden(name):
    golden(name, text(SEEDS[name], index=None))


@pytest.mark.parametrize("statement", SEEDS.values())
def test_a_picture_fits_a_100_column_slide_and_explains_every_mark(statement):
    drawn = text(statement, index=None)
    assert max(len(line) for line in drawn.splitlines()) <= 100
    # no unexplained star (the old mark of a repeated element): "*" only multiplies, in
    # the offset arithmetic
    assert all("->" in line or "stride0" in line for line in drawn.splitlines()
               if "*" in line)
    for mark, meaning in (("W [v]", "written"), ("R (v)", "read"), ("+n", "a stride 0")):
        assert (mark in drawn) == (meaning in drawn)
    assert "legend:" in drawn


def test_the_base_of_a_view_and_the_users_names_are_drawn():
    drawn = text("y = t[1:, ::2]; y[0, 1] = 0", index=1)
    lines = drawn.splitlines()
    assert any(line.startswith("t (base)") for line in lines)
    assert any(line.startswith("y ") for line in lines)
    assert "changed: offset 5: 6 -> 0" in drawn
    assert "y[0, 1] -> offset 3 + 0*3 + 1*2 = 5" in drawn


def test_chinese_labels_keep_the_english_beside_them():
    console = Console(width=100, no_color=True, color_system=None, record=True,
                      file=open("/dev/null", "w"), highlight=False)
    (p,) = pictures("t[1, 2] = 3")
    console.print(render_storage.StoragePicture(p, lang="zh"))
    drawn = console.export_text()
    assert "图例 (legend)" in drawn and "改变 (changed)" in drawn
    assert "偏移 5: 6 -> 3" in drawn


def test_a_filled_fresh_storage_is_one_line_of_offsets_not_a_list_of_unknowns():
    """randn's kernel fills an empty storage: no old value to show, so the change is
    the offsets written, in runs (the new values are in the row and the grid)."""
    from tracer import timeline as TL

    items = TL.timeline(session.run_document("x = torch.randn(3, 4)", seed=0))
    kernel = next(i for i in items if i["event"].name == "normal_kernel")
    console = Console(width=100, no_color=True, color_system=None, record=True,
                      file=open("/dev/null", "w"), highlight=False)
    console.print(render_storage.StoragePicture(kernel["after"][0]))
    drawn = console.export_text()
    assert "changed: 12 written where no value was recorded before, at offsets 0-11" in drawn
    assert "not recorded ->" not in drawn
    assert "[ 1.5410] [-0.2934]" in drawn
