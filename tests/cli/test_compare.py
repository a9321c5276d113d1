"""``tidx compare A B``: the rows of each result (shape, strides, storage offset, dtype,
view or copy, bytes allocated) against torch 2.13, the storage pictures side by side or
one under the other, and golden files of the two seed comparisons at 100 columns."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from conftest import cli_run, golden, require_torch
from engine.interpreter.defaults import DEFAULTS
from engine.interpreter.session import run, run_document
from tracer.render import compare

PAIRS = [("y = t[1:3]", "y = t[[1, 2]]"), ("y = t.T", "y = t.T.contiguous()"),
         ("y = t[:, ::2]", "y = t[:, [0, 2]]"), ("y = t[1]", "y = t[1].clone()"),
         ("y = t.view(9)", "y = t.reshape(9)"), ("y = t[None, 1:]", "y = t.unsqueeze(0)"),
         ("y = t.expand(2, 3, 3)", "y = t.repeat(2, 1, 1)"),
         ("y = t.diagonal()", "y = torch.diag(t)"), ("y = t[2:, 1:].float()", "y = t[-1]")]


def _text(a: str, b: str, width: int = 100, lang: str = "en") -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, no_color=True, color_system=None)
    console.print(compare.render(run_document(a, seed=0), run_document(b, seed=0), lang=lang))
    return out.getvalue()


def _row(text: str, heading: str) -> list[str]:
    """The two cells of a table row (its first line), by its heading."""
    line = next(ln for ln in text.splitlines() if ln.startswith(f"│ {heading} "))
    return [cell.strip() for cell in line.split("│")[2:4]]


def _torch_facts(torch, code: str) -> dict:
    scope = {"torch": torch}
    for d in DEFAULTS:
        scope[d.name] = eval(d.source, scope)   # tidx's own default names, not user input
    exec(code, scope)                           # the test's own statements
    y, t = scope["y"], scope["t"]
    return {"shape": str(y.shape), "strides": str(y.stride()),
            "offset": str(y.storage_offset()), "dtype": str(y.dtype),
            "view": y.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()}


@pytest.mark.torch
@pytest.mark.parametrize("a, b", PAIRS)
def test_the_rows_of_each_result_are_torchs(a, b):
    torch = require_torch()
    text = _text(a, b, width=200)
    for side, code in enumerate((a, b)):
        facts = _torch_facts(torch, code)
        (name, summary), = compare.results(run_document(code, seed=0))
        assert name == "y"
        assert (summary["shape"], summary["strides"], summary["offset"]) == (
            list(eval(facts["shape"].replace("torch.Size", ""))),
            list(eval(facts["strides"])), int(facts["offset"]))
        assert _row(text, "shape")[side] == facts["shape"]
        assert _row(text, "strides")[side] == facts["strides"]
        assert _row(text, "storage offset")[side] == facts["offset"]
        assert _row(text, "dtype")[side] == facts["dtype"]
        kind = _row(text, "view or copy")[side]
        assert kind == ("y: view of t" if facts["view"] else "y: a copy (new storage)"), code


@pytest.mark.parametrize("a, b, name", [
    ("y = t[1:3]", "y = t[[1, 2]]", "compare_slice_index.txt"),
    ("y = t.T", "y = t.T.contiguous()", "compare_transpose_contiguous.txt")])
def test_golden_at_100_columns(a, b, name):
    res = cli_run("compare", a, b, "--width", "100", "--seed", "0")
    assert res.exit_code == 0, res.output
    assert max(len(line) for line in res.output.splitlines()) <= 100
    golden(name, res.output)


def test_bytes_allocated_are_the_recorded_ones():
    text = _text("y = t[1:3]", "y = t[[1, 2]]")
    assert _row(text, "bytes allocated") == ["0 bytes in 0 blocks", "64 bytes in 2 blocks"]


def test_pictures_stand_side_by_side_when_they_fit_else_one_under_the_other():
    def heads(text: str) -> list[int]:
        return [i for i, ln in enumerate(text.splitlines()) if ln.startswith(("A: ", "B: "))]
    # at 200 columns two small pictures fit in half the width each: one heading line
    # holds both sides, and one legend under both names every mark either side drew
    wide = _text("y = rows[1:]", "y = rows[[1]]", width=200)
    lines = wide.splitlines()
    (both,) = heads(wide)
    assert "B: y = rows[[1]]" in lines[both]
    legends = [ln for ln in lines if ln.startswith("legend:")]
    assert len(legends) == 1 and "written" in legends[0] and "read" in legends[0]
    # at 100 columns they would be squeezed: B comes under A, each with its legend
    narrow = _text("y = rows[1:]", "y = rows[[1]]")
    a, b = heads(narrow)
    assert b > a + 5 and "B: y = rows[[1]]" in narrow.splitlines()[b]
    assert all(len(ln) <= 100 for ln in narrow.splitlines())


def test_several_results_are_named_and_an_error_has_none():
    text = _text("a, b = t[0], t[1]", "y = t[5]", width=160)
    assert _row(text, "shape") == ["a: torch.Size([3])", "(none)"]
    assert "b: torch.Size([3])" in text
    assert "no storage to draw" in text or "storage s$" in text


def test_a_write_shows_the_tensor_it_wrote_and_user_text_is_not_markup():
    text = _text("t[rows, cols] = 10", "y = t[[0, 2], [1, 1]]", width=160)
    assert _row(text, "strides") == ["(3, 1)", "(1,)"]
    assert "A: t[rows, cols] = 10" in text


def test_chinese_rows():
    text = _text("y = t[0]", "y = t[:, 0]", lang="zh")
    assert "│ 步长 " in text and "│ strides " in text
    assert "0 字节,共 0 块" in text


def test_the_users_tensor_keeps_its_storage_name_on_both_sides():
    """Issue #28: t's storage was s$3 beside `t[rows, cols] = 10` (the index's
    temporaries were seen first) and s$0 beside `y = t[1:, ::2]`: a default name's
    storage is labelled when the name is made, so it is s$0 in both runs."""
    def t_storage(text: str) -> str:
        (st,) = run(text, seed=0)["statements"]
        return st["names"]["t"]["storage"]

    assert t_storage("t[rows, cols] = 10") == t_storage("y = t[1:, ::2]") == "s$0"
    out = cli_run("compare", "t[rows, cols] = 10", "y = t[1:, ::2]", "--width", "100")
    assert "s$3" not in out.output
