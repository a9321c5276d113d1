"""``import math`` (issue #26): CPython's pure functions and constants as a tutorial uses
them (``math.sqrt(d_k)``, ``math.pi``, ``math.prod(t.shape)``), compared with CPython 3.11
and torch 2.13 running the same program: what it prints and the error (class and
message); a tensor argument converts through the traced ``Tensor.__float__``, compared
with torch's profiler; work that would outgrow a lesson is refused in one line."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.interpreter.pymath import MATH
from engine.interpreter.session import Session
from oracle import assert_like_torch
from test_python_builtins_torch import assert_prints_like_python

pytestmark = pytest.mark.torch

PROGRAMS = [
    "import math\nprint(math.pi, math.e, math.tau, math.inf, math.nan)",
    "print(math.sqrt(2), math.exp(1), math.log(8, 2), math.log(10), math.log2(8))",
    "print(math.floor(2.5), math.ceil(-2.5), math.trunc(-2.7), math.fabs(-3))",
    "print(math.prod([1, 2, 3]), math.prod(range(1, 6), start=2), math.fsum([0.1] * 10))",
    "print(math.factorial(20), math.comb(10, 3), math.perm(5), math.gcd(12, 18, 8))",
    "print(math.isclose(1, 1 + 1e-10), math.isclose(1, 1.1, rel_tol=0.2), math.hypot(3, 4))",
    "print(math.isnan(math.nan), math.isinf(-math.inf), math.isfinite(1e308 * 10))",
    "print(math.atan2(1, -1), math.copysign(2, -0.0), math.frexp(8.0), math.modf(-2.5))",
    # (repr(math) is the build's: "(built-in)" on Debian's CPython, a path to a .so on
    # others; tidx says "(built-in)")
    "print(math.sqrt, math.floor, type(math), type(math.sqrt))",
    "print(math.prod(t.shape), math.sqrt(t.numel()), math.dist([0, 0], [3, 4]))",
    "print(math.sqrt(torch.tensor(16.)), math.floor(torch.tensor(2.5)))",
    # CPython's errors, word for word
    "math.sqrt(-1)", "math.log(0)", "math.factorial(-1)", "math.factorial(2.5)",
    "math.exp(1000)", "math.sqrt('a')", "math.comb(3)", "math.log()",
    "math.sqrt(torch.ones(2))", "math.isqrt(-4)", "math.fmod(1, 0)",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_math_prints_as_python(program):
    assert_prints_like_python(program if program.startswith("import") else
                              "import math\n" + program)


def test_math_needs_its_import_as_in_python():
    # an unknown name is refused before anything runs (Python's NameError, in one line)
    with pytest.raises(Refused, match="name 'math' is not defined"):
        Session().run("print(math.pi)")
    assert_prints_like_python("import math\nprint(math.pi)\nmath = 3\nprint(math)")


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(["sqrt", "exp", "log", "log1p", "sin", "tanh", "atan", "erf",
                        "floor", "ceil", "gamma", "degrees"]),
       st.floats(-50, 50, allow_nan=False) | st.integers(-20, 20))
def test_one_number_functions_are_cpython_s(name, x):
    assert_prints_like_python(f"import math\nprint(math.{name}({x!r}))")


def test_a_tensor_argument_is_read_with_item_as_torch_reads_it():
    assert_like_torch(["import math", "y = math.sqrt(torch.tensor(2.))",
                       "z = math.prod(t.shape)"],
                      names=("y", "z"))


@pytest.mark.parametrize("program", [
    "y = math.factorial(10 ** 6)", "y = math.comb(10 ** 9, 5)",
    "y = math.prod([2 ** 60] * 2000)", "y = math.prod(range(10 ** 7))",
    "y = math.lcm(*range(1, 100000))",
])
def test_work_beyond_a_lesson_is_refused_in_one_line(program):
    with pytest.raises(Refused) as exc:
        Session().run("import math\n" + program)
    assert "\n" not in str(exc.value)


def test_only_math_s_own_names_exist():
    """No attribute of CPython's module leaks: no __loader__, no __spec__."""
    with pytest.raises(Refused):
        Session().run("import math\ny = math.__loader__")
    assert set(MATH.functions) <= set(dir(math)) and all(not n.startswith("_") for n in
                                                        MATH.functions)
