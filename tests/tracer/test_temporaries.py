"""Internal temporaries appear only where the lecture shows the step that made them,
named for what they are (issue #28): index_put_'s restriding of t (``t$1 = [1, 1]``,
strides (0,)) was hidden by the terminal but drawn by the images, the HTML stepper and
``compare``; every temporary was ``t$1``, ``t$2`` ... where it is now ``(t > 5)``."""

from __future__ import annotations

import json
import re

import pytest

from conftest import cli_run, require_dot
from engine.interpreter.session import Session
from tracer import lecture, values as V
from tracer.events import walk

STATEMENT = "t[rows, cols] = 10"


@pytest.mark.parametrize("suffix", ["html", "svg"])
def test_exports_draw_no_stride_0_restriding(tmp_path, suffix):
    if suffix == "svg":
        require_dot()
    out = tmp_path / f"lesson.{suffix}"
    res = cli_run("export", STATEMENT, "-o", str(out), "--seed", "0")
    assert res.exit_code == 0, res.output
    # an SVG is slide pages (lesson-1.svg, lesson-2.svg ...) since --aspect 16:9
    pages = [out] if out.exists() else sorted(tmp_path.glob(f"lesson-*.{suffix}"))
    assert pages
    text = "".join(p.read_text(encoding="utf-8") for p in pages)
    assert "storage s$0" in text            # t's storage is drawn ...
    assert "strides (0,)" not in text       # ... without the kernel's stride-0 view


def test_compare_draws_no_stride_0_restriding():
    res = cli_run("compare", STATEMENT, "t[1, 1] = 10", "--width", "100", "--seed", "0")
    assert res.exit_code == 0, res.output
    assert "strides (0,)" not in res.output


# -- temporaries named for what they are (issue #28) ------------------------------------
#: statement -> what its temporaries are called (the text that made them, else what did)
NAMED = {
    "t[t > 5] = 0": ["(t > 5)", "(0 as a tensor)"],
    "t[torch.tensor([0, 2])] += 1": ["torch.tensor([0, 2])", "t[torch.tensor([0, 2])]",
                                     "(1 as a tensor)"],
    "x = t * 2 + 1": ["(t * 2)", "(2 as a tensor)"],
    "t.masked_fill_(t < 0, 0)": ["(t < 0)"],
    "torch.where(t > 0, t, 0)": ["(t > 0)", "torch.where(t > 0, t, 0)"],
    "t[1, 2] = 3": ["t[1]", "t[1, 2]"],
    "t[[0, 2]] = 5": ["([0, 2] as a tensor)"],
    "a[..., 1] = 0": ["a[..., 1]"],
    "b = t > 5; x = t[b] * 2": ["t[b]"],            # `[b]` is rich's markup for bold
}
TENSOR_LABEL = re.compile(r"\bt\$\d")


@pytest.mark.parametrize("statement", NAMED)
def test_the_terminal_calls_temporaries_by_what_they_are(statement):
    for extra in ([], ["--full"]):
        res = cli_run("explain", statement, "--width", "80", *extra)
        assert res.exit_code == 0, res.output
        # a name wrapped at 80 columns joins again (without the tree's rules)
        flat = " ".join(re.sub("[│├└─]", " ", res.output).split())
        for what in NAMED[statement]:
            assert what in flat, (what, extra)
        assert not TENSOR_LABEL.search(res.output), extra


@pytest.mark.parametrize("fmt", ["mermaid", "markdown", "dot"])
def test_text_formats_call_temporaries_by_what_they_are(fmt):
    res = cli_run("explain", "t[t > 5] = 0; x = t * 2 + 1", "--format", fmt)
    assert res.exit_code == 0, res.output
    assert not TENSOR_LABEL.search(res.output)
    # mermaid writes `>` as #gt; (its own escape), markdown and DOT as it is
    assert re.search(r"\(t (>|#gt;) 5\)", res.output) and "(t * 2)" in res.output


@pytest.mark.parametrize("suffix", ["html", "svg"])
def test_exports_call_temporaries_by_what_they_are(tmp_path, suffix):
    if suffix == "svg":
        require_dot()
    out = tmp_path / f"lesson.{suffix}"
    res = cli_run("export", "t[t > 5] = 0; x = t * 2 + 1", "-o", str(out), "--seed", "0")
    assert res.exit_code == 0, res.output
    pages = [out] if out.exists() else sorted(tmp_path.glob(f"lesson-*.{suffix}"))
    text = "".join(p.read_text(encoding="utf-8") for p in pages)
    assert "(t &gt; 5)" in text and "(t * 2)" in text      # escaped as text, never markup
    assert not TENSOR_LABEL.search(text)


def test_compare_calls_temporaries_by_what_they_are():
    res = cli_run("compare", "t[t > 5] = 0", "t.masked_fill_(t > 5, 0)", "--width", "100")
    assert res.exit_code == 0, res.output
    assert "(t > 5)" in res.output and not TENSOR_LABEL.search(res.output)


def test_json_keeps_the_label_as_the_key_and_adds_what():
    res = cli_run("explain", "t[t > 5] = 0", "--format", "json")
    doc = json.loads(res.output)
    mask = doc["statements"][0]["events"][0]["result"]
    assert mask["label"] == "t$1" and mask["what"] == "t > 5" and "name" not in mask
    # a reader of a document written before `what` shows the label, as it did
    del mask["what"]
    assert V.shown(mask) == "t$1"


def test_a_user_name_wins_over_the_text_that_made_it():
    doc = Session().run("x = t * 2 + 1")
    inner, outer = (ev["result"] for ev in doc["statements"][0]["events"])
    assert V.shown(inner) == "(t * 2)"
    assert V.shown(outer) == "x" and "what" not in outer


@pytest.mark.parametrize("statement", [*NAMED, "t[rows, cols] = 10",
                                       "t[:, [0, 2]] = t[:, [2, 0]]",
                                       "y = t[1:, ::2]; y[0, 1] = 0"])
def test_the_lecture_shows_a_temporary_only_with_the_step_that_made_it(statement):
    """A temporary the lecture view draws is the result of a step it draws (a step the
    lecture folds takes what it made with it), in the tree and in the storage picture."""
    doc = lecture.fold(Session().run_document(statement))
    for st in doc.statements:
        made, shown = set(), {}

        def walk(events):
            for ev in events:
                made.update(t["label"] for t in V.tensors(ev.result))
                for value in [ev.result, *ev.args.values()]:
                    shown.update((t["label"], V.shown(t)) for t in V.tensors(value)
                                 if not V.name(t))
                walk(ev.children)
        walk(st.events)
        assert set(shown) <= made, {shown[k] for k in set(shown) - made}
        assert all(not TENSOR_LABEL.match(v) for v in shown.values())


def test_long_text_is_cut_and_two_alike_are_told_apart():
    doc = Session().run("x = torch.where(t > 0, t, torch.zeros_like(t)) + 1")
    whats = {t.get("what") for _d, ev in _walk(doc) for t in V.tensors(ev["result"])}
    assert "torch.where(t > 0, t, torch.z..." in whats
    doc = Session().run("t[[0, 2], 1] += 1")     # getitem and setitem each convert the list
    whats = {t.get("what") for _d, ev in _walk(doc) for t in V.tensors(ev["result"])}
    assert {"[0, 2] as a tensor", "[0, 2] as a tensor #2"} <= whats


def _walk(doc):
    for st in doc["statements"]:
        yield from walk(st["events"])


def test_a_storage_only_a_temporary_is_on_is_called_by_it():
    """``written=s$2 of (t > 5) elements [...]``: which storage s$2 is, where it is read
    and written; t's own storage keeps its plain label."""
    res = cli_run("explain", "t[t > 5] = 0", "--width", "200")
    assert res.exit_code == 0, res.output
    assert re.search(r"written=s\$\d+ of \(t > 5\) elements \[0, 1", res.output)
    assert re.search(r"read=s\$\d+ of \(0 as a tensor\) elements \[0\]", res.output)
    assert re.search(r"written=s\$0 elements \[5, 6, 7, 8\]", res.output)
