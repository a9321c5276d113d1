"""The storage picture: which elements a statement touched, and how each view maps them."""

from __future__ import annotations


from rich.console import Console

from conftest import golden
from engine.interpreter import session
from tracer import values as V
from tracer.render import storage as render_storage

# goldens must not depend on which test seeded the engine's generator first


def pictures(statement: str, index: int = 0):
    return render_storage.collect(session.run(statement, seed=0)["statements"][index])


def text(statement: str, width: int = 100, index: int = 0) -> str:
    console = Console(width=width, no_color=True, color_system=None, record=True,
                      file=open("/dev/null", "w"), highlight=False)
    for p in pictures(statement, index):
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
                        ("t$0", [2, 3], [3, 1], 3)]


def test_a_tensor_reshaped_in_place_is_drawn_once_as_it_is_now():
    """arange allocates empty({0}) and resizes it; max(dim) unsqueeze_s then squeeze_s its
    results: each tensor is one row, in its final geometry (not one row per state)."""
    (p,) = pictures("y = torch.arange(6)[1:]")
    geometry = [(V.shown(v), v["shape"]) for v in p["views"]]
    assert geometry == [("y", [5]), ("t$0", [6])]
    values, indices = pictures("v, i = t.max(dim=1)")
    assert [(V.shown(x), x["shape"]) for x in values["views"] + indices["views"]] == \
        [("v", [3]), ("i", [3])]


def test_fancy_indexing_reads_from_the_source_and_writes_a_new_storage():
    result, source = pictures("b[idx_0, idx_1]")
    assert result["touched"] == {} and source["touched"] == {1: "read", 2: "read", 3: "read",
                                                             4: "read"}


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
