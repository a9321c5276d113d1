"""One memory budget per run (issue #24): what a run holds and what it is about to take
are counted against one limit, and a run is refused in one line (exit 2) before it
passes it.

Each finding of the issue is run as a user runs it: ``cli.py explain`` in a child
process with its address space capped (``RLIMIT_AS``) and a time limit, so a regression
fails the test instead of taking the machine down.  The child's peak resident memory
comes from ``os.wait4`` (its own ``ru_maxrss``) and must stay within what an idle run
takes plus the budget.  Property tests draw programs that build big things (views of
10**8 elements, factories near the limit, lists of lists, long strings) and check that
each one runs or is refused, never ends in an internal error, and never goes above its
budget: in a child (peak RSS) and in-process (tracemalloc's peak, which sees every numpy
array and Python object the run makes).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.interpreter.session import Session

ROOT = Path(__file__).resolve().parents[2]
MiB = 1 << 20
#: The child's address space: far above any budget used here, far below the machine's.
ADDRESS_SPACE = 3 << 30
#: What a run may take besides its budget: the interpreter, numpy, the trace and its
#: document, allocator slack.
SLACK = 48 * MiB


def run_cli(*args: str, stdin: str | None = None, timeout: float = 120.0) -> tuple[int, int, str]:
    """``cli.py ARGS`` in a child under ADDRESS_SPACE: (exit code, peak RSS in bytes,
    what it wrote to stderr).  A child past ``timeout`` is killed (the test then fails on
    its exit code)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    with tempfile.TemporaryFile() as err, \
            open(stdin if stdin is not None else os.devnull, "rb") as inp:
        child = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args], cwd=ROOT,
                                 stdin=inp, stdout=subprocess.DEVNULL, stderr=err,
                                 preexec_fn=limit, env={**os.environ, "NO_COLOR": "1"})
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                child.kill()
                _, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.02)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024, text


@pytest.fixture(scope="module")
def idle_rss() -> int:
    """What a run of nothing much takes (the interpreter, numpy, the CLI)."""
    code, rss, err = run_cli("explain", "--format", "json", "t")
    assert code == 0, err
    return rss


def refusal(err: str) -> str:
    """The refusal: stderr's one line, ``tidx: <why>``."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tidx: "), err
    return lines[0]


def assert_refused(err: str, *words: str) -> str:
    """A budget refusal: one line that says what would be allocated, what the run holds
    and how to raise the limit."""
    line = refusal(err)
    for word in ("refusing to allocate", "this run already holds", "--max-bytes", *words):
        assert word in line, line
    return line


# -- the findings of issue #24, one by one ------------------------------------------------
EXPANDED = "torch.zeros(1).expand(10**10)"


def test_topk_of_a_huge_expanded_view_is_refused_before_it_runs(idle_rss):
    # it reached 5.8 GiB and hung: numpy copied 10**8 elements, then ranked them
    code, rss, err = run_cli("explain", "--max-bytes", "1MiB",
                             "torch.zeros(1).expand(10**8).topk(1)")
    assert code == 2, err
    assert_refused(err, "topk needs a temporary of 100000000 elements")
    assert rss < idle_rss + SLACK


@pytest.mark.parametrize("statement,what", [
    (f"{EXPANDED}.amax()", "amax()"), (f"{EXPANDED}.amin()", "amin()"),
    (f"{EXPANDED}.argmax()", "argmax()"), (f"{EXPANDED}.argmin()", "argmin()"),
    (f"{EXPANDED}.prod()", "prod()"), (f"torch.equal({EXPANDED}, {EXPANDED})", "equal"),
    (f"{EXPANDED}.max(0)", "max()"), ("torch.zeros(1).expand(10**7).sum()", "sum()"),
    (f"{EXPANDED}.double().cumsum(0)", "refusing"),
    (f"torch.zeros(1, 1).expand(10**5, 10**5).argmax(1)", "argmax()"),
    (f"torch.zeros(1, dtype=torch.bool).expand(10**10).any()", "refusing"),
    (f"{EXPANDED}.sort()", "refusing"), (f"{EXPANDED}.unique()", "refusing"),
    (f"{EXPANDED}.tolist()", "tolist() of 10000000000 elements"),
    ("torch.ones(2, dtype=torch.float64).expand(10**5, 2).topk(1, 0)", "topk"),
])
def test_reductions_sorts_and_comparisons_on_huge_views_are_refused(idle_rss, statement, what):
    # amax/argmax/prod/equal of expand(10**10) ended in MemoryError: exit 3
    code, rss, err = run_cli("explain", "--max-bytes", "1MiB", statement)
    assert code == 2, err
    assert_refused(err, what)
    assert rss < idle_rss + SLACK


def test_tensors_alive_together_share_one_budget(idle_rss):
    # each allocation was under the limit alone: 20 of them took 1.3 GiB under 64 MiB
    code, rss, err = run_cli("explain", "--max-bytes", "64MiB",
                             "[torch.ones(2**22) for i in range(20)]")
    assert code == 2, err
    line = assert_refused(err, "16.0 MiB (16777216 bytes)")
    # three tensors (and the comprehension's list and range): a fourth would pass 64 MiB
    assert "already holds 48.0 MiB" in line
    assert rss < idle_rss + 64 * MiB + SLACK
    # a tensor no name keeps gives its bytes back: 64 MiB made five times fits 128 MiB
    program = "; ".join(["x = torch.ones(2**24)"] * 5)
    code, _, err = run_cli("explain", "--max-bytes", "128MiB", "--format", "json", program)
    assert code == 0, err


def test_formatting_a_huge_string_is_refused_before_it_is_built(idle_rss):
    # '%3000000000s' % t built 2.9 GiB under a 1 MiB limit
    code, rss, err = run_cli("explain", "--max-bytes", "1MiB", "'%3000000000s' % t")
    assert code == 2, err
    assert_refused(err, "formatting '%3000000000s' % a tensor")
    assert rss < idle_rss + SLACK


@pytest.mark.parametrize("statement,what", [
    ("[[0] * 10000 for i in range(10000)]", "a list of 10000 items"),
    ("a = [0] * 10000; b = [a * 1 for i in range(10000)]", "a list of 10000 items"),
    ("a = [[0] * 10000 for i in range(50)]; b = [[1] * 10000 for i in range(50)]; "
     "c = [[2] * 10000 for i in range(50)]", "a list of 10000 items"),
    ("print([[t] * 10000] * 100)", "print(...)"),
    ("x = [list(range(10000)) for i in range(100)]", "a list of 10000 items"),
])
def test_python_values_count_in_the_budget(idle_rss, statement, what):
    # 10**8 list slots are 800 MB however the statement builds them
    code, rss, err = run_cli("explain", "--max-bytes", "8MiB", statement)
    assert code == 2, err
    assert_refused(err, what)
    assert rss < idle_rss + 8 * MiB + SLACK


@pytest.mark.parametrize("source", ["-f", "stdin"])
def test_input_is_read_with_its_limit(idle_rss, tmp_path, source):
    # -f /dev/zero read 7.4 GiB before the 100,000-character limit was checked
    args = ("-f", "/dev/zero") if source == "-f" else ("-",)
    code, rss, err = run_cli("explain", *args, stdin="/dev/zero", timeout=60)
    assert code == 2, err
    assert "longer than 100000 characters" in refusal(err)
    assert rss < idle_rss + SLACK
    # a lesson of exactly 100,000 characters still runs
    lesson = tmp_path / "lesson.py"
    text = "t[1, 2] = 3\n"
    lesson.write_text(text + "#" * (100_000 - len(text)), encoding="utf-8")
    args = ("-f", str(lesson)) if source == "-f" else ("-",)
    code, _, err = run_cli("explain", "--format", "json", *args, stdin=str(lesson))
    assert code == 0, err


# -- properties: any program runs or is refused, within its budget --------------------------
DTYPES = ("float32", "int64", "bool", "float64", "float16", "uint8")
VIEWS = ("10**6", "10**7", "10**8")
#: What a statement does with the tensor ``v``; ``{n}`` is a view's logical size.
OPS = (
    "v.sum()", "v.sum(-1)", "v.mean()", "v.amax()", "v.amin(-1)", "v.argmax()",
    "v.argmin(-1)", "v.max()", "v.min(-1)", "v.prod()", "v.any()", "v.all(-1)",
    "v.count_nonzero()", "v.nonzero()", "v.cumsum(-1)", "v.sort()", "v.argsort()",
    "v.topk(1)", "v.unique()", "v.unique_consecutive()", "torch.equal(v, v)", "v == v",
    "v + 1", "v * v", "v.float()", "v.double()", "v.clone()", "v.contiguous()", "v.tolist()",
    "print(v)", "v", "v[v > 0]", "v.flip(-1)", "v.repeat(2)", "torch.cat([v, v])",
    "torch.where(v > 0, v, v)", "v.masked_fill(v > 0, 1)", "v.clamp(0, 1)",
    "torch.isin(v, torch.tensor([1, 2]))", "v.take(torch.tensor([0, -1]))", "v.bool()",
    "v.abs()", "v.eq(0).sum()", "v[torch.zeros(1, dtype=torch.long).expand({n})]",
    "v.index_select(-1, torch.zeros(1, dtype=torch.long).expand({n}))",
    "v.roll(1)", "torch.stack([v, v])", "v.reshape(-1)", "v.tril()",
)
PYTHON = (
    "[torch.ones({k}) for i in range({r})]", "[[0] * {a} for i in range({r})]",
    "'%{w}s' % t", "list(range({a}))", "print([t] * {a})", "y = [[0] * {a}] * {r}",
    "z = [list(range({a})) for i in range({r})]", "[i * 2 for i in range({a})]",
    "torch.tensor([[1.5] * {a}] * {r})", "torch.arange({k} * {r})",
    "torch.rand({k}).sort()", "torch.randn({k}, {r})",
)


@st.composite
def memory_programs(draw) -> str:
    """1-4 statements that make big things: a view of up to 10**8 elements or a tensor
    near the budget, then what a lesson does with it; or Python values."""
    dtype = draw(st.sampled_from(DTYPES))
    n = draw(st.sampled_from(VIEWS))
    base = draw(st.sampled_from([
        f"torch.zeros(1, dtype=torch.{dtype}).expand({n})",
        f"torch.ones(2, 1, dtype=torch.{dtype}).expand(2, {n})",
        f"torch.arange(1000, dtype=torch.{dtype}).expand(10**4, 1000)",
        f"torch.rand({draw(st.sampled_from(['10**5', '10**6', '4 * 10**6']))})",
    ]))
    out = [f"v = {base}"]
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.integers(0, 3)):
            out.append(draw(st.sampled_from(OPS)).format(n=n))
        else:
            out.append(draw(st.sampled_from(PYTHON)).format(
                k=draw(st.sampled_from(["1000", "10**5", "10**6"])),
                r=draw(st.sampled_from(["2", "20", "100"])),
                a=draw(st.sampled_from(["10", "1000", "10000"])),
                w=draw(st.sampled_from(["10", "10**5", "10**8", "3000000000"]))))
    return "\n".join(out)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(memory_programs())
def test_programs_run_or_are_refused_within_their_budget_in_a_child(idle_rss, program):
    budget = 16 * MiB
    code, rss, err = run_cli("explain", "--max-bytes", str(budget), "--format", "json",
                             program)
    assert code in (0, 1, 2), err                     # never an internal error, never killed
    if code == 2:
        refusal(err)
    assert rss < idle_rss + budget + SLACK, (program, rss >> 20)


def _traced_peak(program: str, budget: int) -> tuple[str, int]:
    """Run ``program`` in a Session under ``budget``; its outcome and tracemalloc's
    peak (every numpy array and Python object the run made)."""
    tracemalloc.start()
    try:
        Session(seed=0, max_bytes=budget).run(program)
        outcome = "ran"
    except Refused:
        outcome = "refused"
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return outcome, peak


@pytest.fixture(scope="module")
def warm():
    """Import and compile everything a program may reach before memory is traced."""
    for op in OPS:
        Session(seed=0).run("v = torch.ones(2, 3)\n" + op.format(n=3))


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(memory_programs())
def test_programs_never_take_more_than_their_budget(warm, program):
    budget = 4 * MiB
    _, peak = _traced_peak(program, budget)
    # a kernel's unchecked copy of a 10**6-element view alone is 4 to 8 MiB more
    assert peak < budget + 4 * MiB, (program, peak >> 20)


def test_every_kernel_asks_before_it_copies_a_view(warm):
    """Every operation above on a view of 10**7 elements (40 MB of float32, 80 MB of
    int64, 10 MB of bool) under a 4 MiB budget: refused, or run within the budget.
    Before the budget, reductions, sorts, topk and equal made numpy copies of the view."""
    over = []
    for base in ("torch.zeros(1).expand(10**7)",
                 "torch.zeros(1, 1, dtype=torch.int64).expand(10, 10**6)",
                 "torch.zeros(1, dtype=torch.bool).expand(10**7)"):
        for op in OPS:
            program = f"v = {base}\n{op.format(n=10**7)}"
            _, peak = _traced_peak(program, 4 * MiB)
            if peak >= 8 * MiB:
                over.append((program, peak >> 20))
    assert over == []
