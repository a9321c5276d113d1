"""A list's methods (issue #26): the loops of Tensor Puzzles and d2l that build a list
with ``append`` and stack it -- compared with CPython 3.11 and torch 2.13 running the
same program: what it prints, the error (class and message), and through the oracle the
aten operators; the list stays inside the run's bounds and budget."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.interpreter.iterables import MAX_ITEMS
from engine.interpreter.session import Session
from oracle import assert_like_torch
from test_python_builtins_torch import assert_prints_like_python

pytestmark = pytest.mark.torch

PROGRAMS = [
    "y = []\nfor i in range(3):\n    y.append(i * i)\nprint(y)",
    "y = [3, 1, 2]\ny.sort()\nprint(y)\ny.sort(reverse=True, key=abs)\nprint(y)",
    "y = [1, 2]\ny.extend([3, 4])\ny.extend(range(2))\ny.extend('ab')\nprint(y, len(y))",
    "y = [1, 2, 3]\nprint(y.pop(), y.pop(0), y)",
    "y = [1, 2, 1]\ny.remove(1)\nprint(y, y.index(1), y.count(1), y.copy())",
    "y = [1, 2]\ny.insert(0, 9)\ny.insert(-1, 8)\ny.reverse()\nprint(y)\ny.clear()\nprint(y)",
    "y = [1, 2]\nz = y\nz.append(3)\nprint(y, y is z)",
    "y = [[1], [2]]\ny[0].append(5)\nprint(y)",
    "y = []\nprint(y.append(1))",
    # CPython's errors, word for word
    "y = []\ny.pop()", "y = [1]\ny.remove(5)", "y = [1]\ny.index(7)",
    "y = [1]\ny.append(1, 2)", "y = [1]\ny.append()", "y = [1]\ny.extend(3)",
    "y = [1, 'a']\ny.sort()", "y = [1]\ny.sort(cmp=1)", "y = [1]\ny.pop(5)",
    "y = [1]\ny.insert(1)", "y = [1]\ny.foo()",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_list_methods_print_as_python(program):
    if program.endswith("y.foo()"):
        with pytest.raises(Refused):
            Session().run(program)
        return
    assert_prints_like_python(program)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6),
       st.sampled_from(["append(2)", "extend([1, 2])", "insert(1, 7)", "pop()", "remove(0)",
                        "sort()", "reverse()", "clear()", "index(0)", "count(1)"]))
def test_any_list_method_as_python(values, call):
    assert_prints_like_python(f"y = {values}\nr = y.{call}\nprint(y, r)")


def test_a_list_of_tensors_built_in_a_loop_stacks_as_in_torch():
    """The puzzles' pattern: rows appended one by one, then stacked."""
    assert_like_torch(["rows = []", "for i in range(3):\n    rows.append(t[i] * 2)",
                       "y = torch.stack(rows)", "z = len(rows)"], names=("y", "z"))


def test_extend_iterates_a_tensor_through_its_traced_iter():
    assert_like_torch(["y = []", "y.extend(t[0])", "z = torch.stack(y)"], names=("z",))


def test_a_list_never_grows_past_the_bound():
    with pytest.raises(Refused):
        Session().run(f"y = list(range({MAX_ITEMS}))\ny.append(1)")
    with pytest.raises(Refused):
        Session().run(f"y = list(range({MAX_ITEMS}))\ny.extend([1])")


def test_append_writes_into_the_name_it_was_read_through():
    """The statement records y as written (the budget charges its new size; the views
    say y changed), as y[0] = v does."""
    doc = Session().run("y = [1]\ny.append(2)\ny.count(1)")
    appended, counted = doc["statements"][1], doc["statements"][2]
    assert "y" in appended["bindings"] and "y" not in counted["bindings"]
