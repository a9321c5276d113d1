"""for, while and if statements (issue #26): what they print and raise, and the aten
operators their passes run, compared with CPython 3.11 and torch 2.13; the bound on
iterations; how the trace records each pass."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.core.work_budget import MAX_ITERATIONS
from engine.interpreter.session import Session, run
from oracle import assert_like_torch
from test_python_builtins_torch import assert_prints_like_python

pytestmark = pytest.mark.torch

LOOPS = [
    "for i in range(3):\n    print(i)",
    "for i in [4, 5]:\n    print(i * 2)\nprint(i)",
    "for row in t:\n    print(row.sum())",
    "for a, b in zip([1, 2], 'xy'):\n    print(a, b)",
    "for i, row in enumerate(t):\n    print(i, row[i])",
    "n = 0\nwhile n < 3:\n    n += 1\nprint(n)",
    "for i in range(5):\n    if i == 1:\n        continue\n    if i == 3:\n        break\n"
    "    print(i)\nelse:\n    print('no break')",
    "for i in range(2):\n    pass\nelse:\n    print('done', i)",
    "for i in []:\n    print(i)\nelse:\n    print('empty')",
    "x = 5\nif x > 3:\n    print('big')\nelif x > 1:\n    print('mid')\nelse:\n    print('small')",
    "x = 2\nif x > 3:\n    print('big')\nelif x > 1:\n    print('mid')",
    "for i in range(2):\n    for j in range(2):\n        if j > i:\n            break\n        print(i, j)",
    "s = torch.zeros(3)\nfor i in range(3):\n    s[i] = i * 2\nprint(s)",
    "x = torch.tensor([3., 1.])\nwhile x.sum() > 1:\n    x = x / 2\nprint(x)",
    "for v in torch.tensor(3):\n    print(v)",
    "for v in 3:\n    print(v)",
    "for i in range(3):\n    print(t[i, 5])",
    "if t:\n    print(1)",
    "for c in 'ab':\n    print(c)",
    "total = 0\nfor row in t:\n    for v in row:\n        total += v\nprint(total)",
]


@pytest.mark.parametrize("program", LOOPS)
def test_loops_print_and_raise_as_python_and_torch(program):
    assert_prints_like_python(program)


@pytest.mark.parametrize("program", [
    "y = torch.zeros(2)\nfor row in x:\n    y += row",
    "y = x[0]\nfor i in range(2):\n    y = y * 2",
    "y = x.clone()\nwhile y.sum() > 2:\n    y = y - 1",
    "y = torch.ones(1)\nif x.sum() > 3:\n    y = x[1]\nelse:\n    y = x[0]",
    "y = torch.zeros(2)\nfor i, row in enumerate(x):\n    y[i] = row.max()",
])
def test_loops_run_torchs_aten_ops(program):
    """Iterating a tensor is one unbind; each pass's body and each test's __bool__ are
    the ops torch's profiler records, in order."""
    assert_like_torch(["x = torch.tensor([[1., 2.], [3., 4.]])", program])


BODY = st.sampled_from(["s = s + {v}", "s = s * 2", "s[0] = {v}", "print(s)",
                        "s = s[1:] if len(s) > 1 else s", "s += {v}",
                        "print({v} + 1)", "s = s.flip(0)"])


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4),
       st.sampled_from(["range(3)", "x", "[1, 2]", "list(x)", "range(0)"]),
       st.lists(BODY, min_size=1, max_size=3))
def test_generated_loops_as_torch(values, iterable, body):
    """A loop over a range, a list or a tensor, with arithmetic and indexing in its
    body: printed output and errors as torch's, ops as its profiler's."""
    lines = ["for v in " + iterable + ":"] + ["    " + b.format(v="v") for b in body]
    program = "\n".join(lines)
    setup = f"x = torch.tensor({values})\ns = x.clone()"
    assert_prints_like_python(setup + "\n" + program)
    # torch's repr of a tensor runs ops of its own that tidx's does not record (s, and v
    # when the loop walks a tensor's rows): a body that prints is compared by its output
    if not any(b.startswith("print(") for b in body):
        assert_like_torch(setup.split("\n") + [program], names=("s",))


def test_a_loop_that_never_ends_stops_at_the_bound_in_one_line():
    proc = subprocess.run([sys.executable, "cli.py", "explain", "while True:\n    pass"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == (f"tidx: loops took more than {MAX_ITERATIONS} iterations "
                                   f"in this run; tidx stops there")


def test_nested_loops_share_one_bound():
    with pytest.raises(Refused, match="iterations"):
        Session().run("for i in range(100):\n    for j in range(100):\n        pass")


@pytest.mark.parametrize("program", [
    "break", "continue", "if True:\n    break", "for i in range(2):\n    pass\nelse:\n    break",
    "for t.x in range(2):\n    pass", "for print in range(2):\n    pass",
    "for i in range(2):\n    import os", "while True:\n    x.__class__",
    "async def f():\n    pass", "for i in range(2):\n    print(j)",
    "with x as x.y:\n    pass", "for i in range(3):\n    try:\n        pass\n    except Exception:\n"
    "        pass",
])
def test_control_flow_outside_the_allow_list_is_refused_before_it_runs(program):
    with pytest.raises(Refused):
        Session().run(program)


def test_each_pass_is_recorded_with_its_loop_and_iteration():
    doc = run("for i in range(3):\n    y = t[i]\n    print(y)")
    got = [(s["source"], s.get("loop")) for s in doc["statements"]]
    assert got == [(src, {"line": 1, "iteration": k}) for k in range(3)
                   for src in ("for i in range(3):", "y = t[i]", "print(y)")]
    assert [s["printed"] for s in doc["statements"][2::3]] == [
        ["tensor([1, 2, 3])"], ["tensor([4, 5, 6])"], ["tensor([7, 8, 9])"]]
    assert "loop" not in run("y = t[0]")["statements"][0]


def test_each_cell_of_a_session_has_its_own_iterations():
    """A notebook's cells: the bound is per text run, not for the kernel's life."""
    session = Session()
    for _ in range(3):
        session.run(f"for i in range({MAX_ITERATIONS}):\n    pass")


def test_a_long_body_repeated_stops_at_the_statement_bound():
    """1,000 passes of a 100-statement body would record 100,000 statements."""
    body = "\n".join("    y = 1" for _ in range(100))
    with pytest.raises(Refused, match="statements"):
        Session().run(f"for i in range(1000):\n{body}")


def test_verify_compares_every_pass_of_a_loop():
    """--verify unrolls torch's run as the document unrolls tidx's: each pass's header
    and body statements are compared with their own (it used to stop at the first loop)."""
    proc = subprocess.run([sys.executable, "cli.py", "explain", "--verify",
                           "y = t[0]\nfor i in range(2):\n    y = t[i]\n    if i > 0:\n"
                           "        break\nz = y.sum()"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "agree on every check" in proc.stdout and "not compared" not in proc.stdout
    table = proc.stdout[proc.stdout.index("tidx against PyTorch"):]
    assert table.count("y = t[i]") == 2 and "z = y.sum()" in table


def test_verify_finds_a_wrong_value_inside_a_loop():
    import copy
    from engine.interpreter import session, verify
    from conftest import require_torch

    require_torch()
    text = "y = t[0].clone()\nfor i in range(3):\n    y += t[i]"
    doc = session.run(text)
    assert all(row.ok for row in verify.verify(text, doc))
    wrong = copy.deepcopy(doc)
    last = [s for s in wrong["statements"] if s["source"] == "y += t[i]"][-1]
    last["bindings"]["y"]["summary"]["values"][0] += 1
    rows = verify.verify(text, wrong)
    assert [row.ok for row in rows].count(False) == 1 and not rows[-1].ok


def test_verify_stops_a_loop_where_its_error_stops_it():
    from engine.interpreter import session, verify
    from conftest import require_torch

    require_torch()
    text = "for i in range(5):\n    y = t[i]"
    rows = verify.verify(text, session.run(text))
    # t has 3 rows: passes 0-2 run, the 4th raises the same IndexError in both
    assert all(row.compared and row.ok for row in rows) and rows[-1].source == "y = t[i]"