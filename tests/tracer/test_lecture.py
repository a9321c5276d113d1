"""The lecture view (tracer.lecture + the brief tree): the steps the seeds teach, one line
each, the rest folded and counted; golden files for every seed's statements."""

from __future__ import annotations

import pytest

from conftest import cli_run, golden
from engine.interpreter import session
from tracer import lecture as L
from tracer.document import Document, walk

#: The seeds' own statements: seed 001's two assignments and its view, seed 002's
#: factory, seed 003's index_select, seed 004's masks, fancy indexing and gather, and an
#: error (the step that raised stays visible).
SEED_STATEMENTS = {
    "seed001_basic": "t[1, 2] = 3",
    "seed001_advanced": "t[rows, cols] = 10",
    "seed001_view": "y = t[1:, ::2]; y[0, 1] = 0",
    "seed002_randn": "x = torch.randn(3, 4)",
    "seed002_meta": "torch.zeros(2, 3, device='meta')",
    "seed003_index_select": "y = pypto.index_select(x, 0, indices)",
    "seed004_mask": "y = a[index_2, 1]",
    "seed004_fancy": "y = b[idx_0, idx_1]",
    "seed004_gather": "y = torch.gather(t, 1, torch.tensor([[0], [1], [2]]))",
    "seed004_mask_write": "t[t > 4] = 0",
    "error_index": "t[5]",
}

#: The seeds' lesson files (samples/), each drawn whole in the lecture view.
SEED_LESSONS = ["seed_001_indexing", "seed_002_randn", "seed_003_pypto_index_select",
                "seed_004_gather_as_fancy_indexing", "seed_004_masks_and_fancy"]


def _lines(*args: str) -> list[str]:
    res = cli_run(*args)
    assert res.exit_code in (0, 1), res.output
    return res.output.splitlines()


def _steps(lines: list[str]) -> list[str]:
    """The lines that begin a step (a tree branch), not those a long step wraps onto."""
    return [line for line in lines if "── " in line]


def test_at_80_columns_the_offsets_and_written_elements_wrap_instead_of_being_cut():
    """Issue #28: through a pipe (80 columns) the lecture cut ``offsets=…`` and
    ``written=s$3 elements […``, the very values it exists to show."""
    lines = _lines("explain", "t[rows, cols] = 10", "--width", "80")
    text = " ".join(line.strip(" │└├─") for line in lines)
    assert not any("…" in line for line in lines)
    assert all(len(line) <= 80 for line in lines)
    assert "written=s$0 elements [1, 7]" in text
    assert "0 + 2*3 + 1*1 = 7]" in text


@pytest.mark.parametrize("name", SEED_STATEMENTS)
def test_lecture_view_of_the_seeds_statements_golden(name):
    res = cli_run("explain", SEED_STATEMENTS[name], "--seed", "0", "--width", "100")
    golden(f"lecture_{name}.txt", res.output)


@pytest.mark.parametrize("lesson", SEED_LESSONS)
def test_lecture_view_of_the_seed_lessons_golden(lesson):
    res = cli_run("lesson", lesson, "--seed", "0", "--width", "100")
    assert res.exit_code == 0, res.output
    golden(f"lecture_lesson_{lesson}.txt", res.output)


def test_advanced_assignment_fits_a_slide_and_keeps_the_lesson():
    lines = _lines("explain", "t[rows, cols] = 10", "--width", "100")
    # at most 15 steps; a long line wraps under its step (issue #28), never cut
    assert len(_steps(lines)) <= 15 and len(lines) <= 60, len(lines)
    assert all(len(line) <= 100 for line in lines)
    assert not any("…" in line for line in lines)
    text = "\n".join(lines)
    for step in ("TensorIndex", "handleDimInMultiDimIndexing", "recordTensorIndex",
                 "dispatch_index_put_", "aten::index_put_", "cpu_index_put_kernel",
                 "valueToTensor"):
        assert step in text, step
    # one line per step: no note, no source path
    assert "TensorIndexing.h" not in text and "outIndices for the advanced" not in text


def test_randn_fits_a_slide_and_shows_the_allocation():
    lines = _lines("explain", "x = torch.randn(3, 4)", "--seed", "0", "--width", "100")
    assert len(_steps(lines)) <= 20 and len(lines) <= 40, len(lines)
    assert not any("…" in line for line in lines)
    text = "\n".join(lines)
    for step in ("aten::empty", "computeStorageNbytesContiguous", "nbytes=48",
                 "DefaultCPUAllocator::allocate", "TensorImpl", "generic_set_sizes_contiguous",
                 "aten::normal_", "THPVariable_Wrap"):
        assert step in text, step
    # the storage in two lines: whom it holds, and one element's offset worked out
    assert "storage s$0: 12 x f32 (48 bytes) holds x row by row" in text
    assert "x[2, 3] -> offset 0 + 2*4 + 3*1 = 11" in text


def test_full_is_the_complete_tree_with_notes():
    full = "\n".join(_lines("explain", "t[rows, cols] = 10", "--width", "200", "--full"))
    for step in ("wrapTuple", "count_specified_dimensions", "typeConvertIndices",
                 "check_size_nonnegative", "make_index_put_iterator"):
        assert step in full, step
    assert "outIndices for the advanced-indexing operator" in full


def test_filters_show_the_full_tree_they_select():
    ops = "\n".join(_lines("explain", "t[1, 2] = 3", "--ops", "--width", "200"))
    assert "aten::select" in ops and "applySelect" not in ops
    assert "steps shown" not in ops


def _doc(text: str) -> Document:
    return session.run_document(text, seed=0)


@pytest.mark.parametrize("text", list(SEED_STATEMENTS.values()) + [
    "y = t.sum(0)", "y = torch.cat([t, t])", "y = t.sort(1)", "t.index_put_((rows,), t[0])",
    "z = torch.arange(6).view(2, 3).T.contiguous()"])
def test_folding_loses_no_step_and_keeps_every_taught_step(text):
    doc = _doc(text)
    lec = L.fold(doc)
    total = sum(1 for st in doc.statements for _ in walk(st.events))
    shown, counted = L.counts(lec)
    assert counted == total
    assert shown <= total
    # the shown steps are recorded steps, in the order they were recorded
    recorded = [ev.name for st in doc.statements for _, ev in walk(st.events)]
    kept = [ev.name for st in lec.statements for _, ev in walk(st.events)
            if not L.is_folded(ev)]
    it = iter(recorded)
    assert all(name in it for name in kept)
    # a taught step is shown unless a step above it folds its inside
    for st in lec.statements:
        for _, ev in walk(st.events):
            if L.is_folded(ev):
                assert ev.folded is not None and ev.steps is not None
                assert ev.folded >= len(ev.steps) >= 1


def test_the_step_that_raised_and_its_callers_stay_visible():
    lec = L.fold(_doc("t[5]"))
    names = [ev.name for _, ev in walk(lec.statements[0].events) if not L.is_folded(ev)]
    assert names[:2] == ["Tensor.__getitem__", "THPVariable_getitem"]
    raised = [ev for _, ev in walk(lec.statements[0].events) if ev.error is not None]
    assert raised and raised[-1].error is not None and raised[-1].error.type == "IndexError"


def test_value_to_tensor_folds_its_scalar_and_empty_is_taught_once():
    lec = L.fold(_doc("t[1, 2] = 3; x = torch.zeros(2); y = torch.ones(3)"))
    first, second, third = lec.statements
    vtt = next(ev for _, ev in walk(first.events) if ev.name == "valueToTensor")
    assert [c.folded for c in vtt.children] == [11]
    gens = [ev for st in (second, third) for _, ev in walk(st.events)
            if ev.name == "_empty_generic"]
    # zeros' empty shows the allocation; ones' empty folds it (taught above)
    assert any(c.name == "DefaultCPUAllocator::allocate" for c in gens[0].children)
    assert all(L.is_folded(c) for c in gens[1].children)


def test_lecture_in_chinese_counts_folded_steps():
    out = "\n".join(_lines("explain", "t[rows, cols] = 10", "--lang", "zh", "--width", "120"))
    assert "(内含 11 步)" in out and "步中的" in out
