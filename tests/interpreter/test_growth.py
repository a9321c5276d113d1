"""Every command costs linearly in the length of the program: work counted, never timed.

The work is the number of function calls (Python and builtin) a command makes, counted by
cProfile: deterministic, unlike time.  A program eight times longer must make at most
about eight times the calls; a command that looks back over every earlier statement or
step at each one (as ``tidx step`` did) makes 30 times as many, and one that re-reads
the whole text for each statement (as parsing did) 11 times.  Memory is counted too:
the document's JSON size, and tracemalloc's peak while a command runs.

Two lessons: :data:`PROGRAM` (a mix: indexing, a view written through, an error caught)
and :func:`views` (issue 24's ``yN = t[i]``: every statement adds a view of ``t``'s
storage, and each one listed every name on it, 13.3 GiB for 3,000 lines).
``benchmarks/bench_growth.py`` prints the timed ratios.
"""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import tracemalloc

import pytest
from click.testing import CliRunner

import cli
from engine.interpreter import lessons as L
from engine.interpreter import session

FACTOR = 8
#: Linear programs measure 7.4-8.1 here (fixed costs such as click's and the first
#: tensors' make the 1x program relatively dearer); the old quadratic paths 11-31.
LIMIT = 8.6

#: A small lesson of its own: basic and advanced indexing, a view written through,
#: a caught error, a non-tensor result.
PROGRAM = """\
# two applySelect steps and a copy
t[1, 2] = 3
# a view on t's storage, written through
y = t[1:, ::2]
y[0, 1] = 0
# recordTensorIndex, then index_put_
t[rows, cols] = 10
b[idx_0, idx_1]
try:
    t[5]
except IndexError as e:
    print(e)
n = t.stride()
"""


def views(times: int) -> str:
    """Issue 24's lesson: ``y0 = t[0]``, ``y1 = t[1]``, ... (10 lines a time)."""
    return "\n".join(f"y{k} = t[{k % 3}]" for k in range(10 * times))


LESSONS = {"program": lambda n: "\n".join([PROGRAM] * n), "views": views}


def calls(fn) -> int:
    """The function calls ``fn()`` makes."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        fn()
    finally:
        profile.disable()
    return pstats.Stats(profile).total_calls


def growth(make) -> float:
    """Calls for the program repeated FACTOR times over calls for it once (after a first
    run, which fills the caches and imports what the command needs)."""
    make(1)()
    return calls(make(FACTOR)) / calls(make(1))


def test_running_and_parsing_are_linear():
    """The engine alone, on lessons (comments and all): parsing once re-split the whole
    text for every statement."""
    text = "\n".join(L.load(name).text for name in ("seed_001_indexing", "views_and_copies"))
    assert growth(lambda n: lambda: session.run("\n".join([text] * n), seed=0)) <= LIMIT


COMMANDS = {
    "step": ["step", "--width", "100"],
    "explain": ["explain", "--width", "100"],
    "explain-full": ["explain", "--full", "--width", "100"],
    "explain-json": ["explain", "--format", "json"],
    "explain-mermaid": ["explain", "--format", "mermaid"],
    "explain-dot": ["explain", "--format", "dot"],
    "explain-markdown": ["explain", "--format", "markdown"],
    "explain-gdb": ["explain", "--format", "gdb"],
    "export-dot": ["export", "-o", "{out}.gv"],   # the svg/png/pdf source, before Graphviz
    "export-html": ["export", "-o", "{out}.html"],
    "export-json": ["export", "-o", "{out}.json"],
}


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_is_linear(command, lesson, tmp_path):
    def make(n):
        path = tmp_path / f"program_{n}.py"
        path.write_text(LESSONS[lesson](n), encoding="utf-8")
        args = [a.format(out=tmp_path / f"out_{n}") for a in COMMANDS[command]]
        args[1:1] = ["-f", str(path), "--seed", "0"]

        def run():
            res = CliRunner().invoke(cli.main, args, env={"NO_COLOR": "1"})
            assert res.exit_code == 0, res.output
        return run

    assert growth(make) <= LIMIT


def test_the_gif_is_linear_and_its_memory_does_not_grow(monkeypatch):
    """The GIF's frames are drawn and written one at a time: its calls grow with the
    steps, its peak memory (beyond the document it reads) not at all; Pillow's save_all
    held every frame (~57 MiB a statement at 1920 pixels).  What the canvas keeps of the
    texts it drew is bounded (by a few MiB, here by less, so that a short lesson
    already fills it)."""
    from tracer.render import gif, gif_canvas

    docs = {n: session.run_document(views(n), seed=0) for n in (1, FACTOR)}

    def make(n):
        return lambda: gif.write(docs[n], io.BytesIO(), width=192, lecture=True)

    assert growth(make) <= LIMIT

    monkeypatch.setattr(gif_canvas, "GLYPH_BYTES", 32 * 1024)
    monkeypatch.setattr(gif_canvas, "KEPT_TEXTS", 64)

    class Sink:
        def write(self, data):
            return len(data)

    peaks = {}
    for n, doc in docs.items():
        tracemalloc.start()
        try:
            gif.write(doc, Sink(), width=192, lecture=True)
            peaks[n] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peaks[FACTOR] <= 1.5 * peaks[1], peaks


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_document_and_its_memory_are_linear(lesson):
    """The document's JSON, and the memory a run takes (tracemalloc's peak), grow with
    the statements: 1,000 ``yN = t[i]`` made 245 MB of JSON, every statement listing
    every name on t's storage."""
    sizes, peaks = {}, {}
    session.run(LESSONS[lesson](1), seed=0)
    for n in (1, FACTOR):
        tracemalloc.start()
        try:
            doc = session.run(LESSONS[lesson](n), seed=0)
            peaks[n] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        sizes[n] = len(json.dumps(doc))
    assert sizes[FACTOR] / sizes[1] <= LIMIT, sizes
    assert peaks[FACTOR] / peaks[1] <= LIMIT, peaks


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_lesson_command_is_linear(lesson, monkeypatch):
    """``tidx lesson NAME`` over a lesson file of the program (the built-in lessons are
    short: the test gives it one of its own)."""
    texts = {n: LESSONS[lesson](n) for n in (1, FACTOR)}

    def make(n):
        monkeypatch.setattr(L, "load", lambda name: L.Lesson(name, "growth", texts[n]))

        def run():
            res = CliRunner().invoke(cli.main, ["lesson", "growth", "--seed", "0",
                                                "--width", "100"], env={"NO_COLOR": "1"})
            assert res.exit_code == 0, res.output
        return run

    assert growth(make) <= LIMIT


@pytest.mark.parametrize("lesson", LESSONS)
def test_compare_is_linear(lesson):
    def make(n):
        text = LESSONS[lesson](n)

        def run():
            res = CliRunner().invoke(cli.main, ["compare", text, text, "--seed", "0"],
                                     env={"NO_COLOR": "1"})
            assert res.exit_code == 0, res.output
        return run

    assert growth(make) <= LIMIT


def test_step_draws_each_step_from_what_it_holds(monkeypatch):
    """Drawing one step of ``tidx step`` looks at that step only, not at every step
    before it: the same kernel step, first and eighth time, scans as many values."""
    from tracer import values as V
    from tracer.render import step as render_step

    flat = render_step.steps(session.run_document("\n".join([PROGRAM] * FACTOR), seed=0))
    kernels = [k for k, item in enumerate(flat)
               if item["event"] and item["event"].name == "cpu_index_put_kernel"]
    assert len(kernels) == FACTOR
    scanned = 0
    real = V.tensors

    def counting(value):
        nonlocal scanned
        scanned += 1
        return real(value)

    monkeypatch.setattr(V, "tensors", counting)
    work = []
    for k in (kernels[0], kernels[-1]):
        scanned = 0
        render_step.render(flat, k)
        work.append(scanned)
    assert work[0] > 0 and work[1] == work[0]
