"""Every command costs linearly in the length of the program: work counted, never timed.

The work is the number of function calls (Python and builtin) a command makes, counted by
cProfile: deterministic, unlike time.  A program eight times longer must make at most
about eight times the calls; a command that looks back over every earlier statement or
step at each one (as ``tidx step`` did) makes 30 times as many, and one that re-reads
the whole text for each statement (as parsing did) 11 times.
``benchmarks/bench_growth.py`` prints the timed ratios.
"""

from __future__ import annotations

import cProfile
import pstats

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
    "explain-json": ["explain", "--format", "json"],
    "explain-mermaid": ["explain", "--format", "mermaid"],
    "explain-markdown": ["explain", "--format", "markdown"],
    "export-dot": ["export", "-o", "{out}.gv"],   # the svg/png/pdf source, before Graphviz
    "export-html": ["export", "-o", "{out}.html"],
    "export-json": ["export", "-o", "{out}.json"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_is_linear(command, tmp_path):
    def make(n):
        path = tmp_path / f"program_{n}.py"
        path.write_text("\n".join([PROGRAM] * n), encoding="utf-8")
        args = [a.format(out=tmp_path / f"out_{n}") for a in COMMANDS[command]]
        args[1:1] = ["-f", str(path), "--seed", "0"]

        def run():
            res = CliRunner().invoke(cli.main, args, env={"NO_COLOR": "1"})
            assert res.exit_code == 0, res.output
        return run

    assert growth(make) <= LIMIT


def test_compare_is_linear():
    def make(n):
        text = "\n".join([PROGRAM] * n)

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

    flat = render_step.steps(session.run("\n".join([PROGRAM] * FACTOR), seed=0))
    kernels = [k for k, item in enumerate(flat)
               if item["event"] and item["event"]["name"] == "cpu_index_put_kernel"]
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
