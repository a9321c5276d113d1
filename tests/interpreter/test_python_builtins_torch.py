"""The builtins a tutorial cell uses (issue #26): max, min, sum, sorted, zip, enumerate,
round, type, isinstance, id, and names bound to functions — compared with CPython 3.11 and
torch 2.13 running the same program: what it prints, the error (class and message) and,
through the oracle, the aten operators the profiler records."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from engine.core.errors import Refused
from engine.interpreter.session import Session
from oracle import assert_like_torch, torch_scope

pytestmark = pytest.mark.torch


def tidx_printed(program: str) -> tuple[list[str], tuple[str, str] | None]:
    doc = Session().run(program)
    printed = "\n".join(text for s in doc["statements"] for text in s["printed"])
    printed = printed.splitlines()
    errors = [s["error"] for s in doc["statements"] if s["error"]]
    error = (errors[0]["type"], errors[0]["message"]) if errors else None
    return printed, error


def torch_printed(program: str) -> tuple[list[str], tuple[str, str] | None]:
    """The test's own program under real Python and torch (exec of test text only)."""
    ns = torch_scope(require_torch())
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out):
        try:
            exec(program, ns)
        except Exception as exc:  # noqa: BLE001 - the error is the outcome
            error = (type(exc).__name__, str(exc))
    return out.getvalue().splitlines(), error


def assert_prints_like_python(program: str) -> None:
    assert tidx_printed(program) == torch_printed(program)


PROGRAMS = [
    "print(max(3, 4), min(5, 2, 7), max([1.5, -2]), min((4, 3)), max(range(5)))",
    "print(max([3, 1, 2], key=abs), min([-3, 1], key=abs), max([], default=7))",
    "print(sum([1, 2, 3]), sum([1.5, 2], 10), sum(range(4), start=1), sum([[1], [2]], []))",
    "print(sorted([3, 1, 2]), sorted('cab'), sorted([3, -4, 1], key=abs, reverse=True))",
    "print(list(zip([1, 2, 3], 'ab')), list(enumerate([5, 6], 1)), list(enumerate('xy')))",
    "print(round(2.567, 2), round(2.5), round(3.5), round(7), round(1234, -2), round(-0.5))",
    "print(type(3), type(2.0), type(True), type('s'), type(None), type([]), type(()))",
    "print(type(t), type(t.shape), type(t.dtype), type(range(2)), type(int), type(len))",
    "print(type(t) == torch.Tensor, type(3) is int, type(3) == float, type(t) is not int)",
    "print(isinstance(t, torch.Tensor), isinstance(True, int), isinstance(3, (float, int)))",
    "print(isinstance(3.0, int), isinstance(t, (list, tuple)), isinstance(t.shape, tuple))",
    "print(id(t) == id(t), id(t) == id(t.view(9)), id(3) == id(3))",
    "print(int, float, bool, list, tuple, range, type, len, print, max)",
    "z = zip([1], [2])\nprint(list(z), list(z))",
    "e = enumerate([3])\na = list(e)\nprint(a, tuple(e))",
    "print(type(3)('4') + 1, sum([t[0], t[1]]).tolist())",
    "sum = 3\nmax = 4\nprint(sum + max)",
    "tensor = torch.tensor\nx = tensor([1, 2])\nprint(x, type(tensor))",
    "s = t.sum\nprint(s(), s(0))",
    "ones = torch.ones\nprint(type(ones), ones(2))",
    # Python's and torch's errors, word for word
    "max()", "max(3)", "max([])", "min([], key=abs)", "max(1, 2, default=3)",
    "max([1, 2], foo=1)", "max(1, 'a')", "sum()", "sum(['a'], '')", "sum([1], 2, 3)",
    "sum([1, 'a'])", "sorted()", "sorted(3)", "sorted([1, 'a'])", "sorted([1], cmp=1)",
    "zip(1)", "zip([1], 2)", "list(zip([1], [2, 3], strict=True))", "enumerate()",
    "enumerate(3)", "enumerate([1], 1.5)", "round()", "round(t)", "round(None)",
    "round('a')", "round(1, 2, 3)", "round(2.5, 'a')", "isinstance(3)",
    "isinstance(3, 4)", "isinstance(3, t)", "id()", "id(1, 2)", "len(zip([1]))",
    "len(int)", "max(t)", "min(torch.tensor([[1, 2], [3, 4]]))", "sorted(t)",
    "max(torch.tensor(3))", "sum([1], x=1)", "zip([1], x=1)", "round(1, x=2)",
    "sum(start=1)", "round(ndigits=2)", "enumerate(x=1)", "enumerate([1], 2, 3)",
    "min(key=abs)", "sorted([1], 2)",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_prints_and_raises_as_python_and_torch_do(program):
    assert_prints_like_python(program)


@pytest.mark.parametrize("program", [
    "y = max(x)", "y = min([x[0], x[2], x[1]])", "y = sum(x)", "y = sum([x, x], x)",
    "y = sorted(x)[0]", "y = max(x, key=lambda_free_abs)" if False else "y = max(x[0], x[1])",
    "a, b = zip(x, x)\ny = a[1]", "i, y = list(enumerate(x))[2]",
    "y = min(torch.tensor([[1., 2.], [3., 4.]]))",
    "y = max(torch.tensor([[1., 2.], [3., 4.]]).unbind(1), key=torch.sum)",
])
def test_over_tensors_the_same_aten_ops_as_torch(program):
    """max over a tensor's rows is Tensor.__iter__ (unbind), then Tensor.__gt__ and
    Tensor.__bool__ on each pair: the profiler's ops, in torch's order."""
    assert_like_torch(["x = torch.tensor([3., 1., 2.])", *program.split("\n")])


NUMBERS = st.one_of(st.integers(-5, 5), st.floats(-4, 4, allow_nan=False).map(
    lambda f: round(f, 2)), st.booleans())


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(NUMBERS, max_size=5), st.sampled_from(
    ["max({})", "min({})", "sum({})", "sorted({})", "max({}, default=0)", "sum({}, 1.5)",
     "list(zip({0}, {0}))", "list(enumerate({}, 2))", "sorted({}, reverse=True)",
     "max(*{})", "min(*{}, key=abs)", "round(sum({}), 1)", "[type(v) for v in {}]",
     "[isinstance(v, int) for v in {}]", "max({}, key=round)", "sum({}, [])"]))
def test_builtins_over_lists_of_numbers_as_python(values, form):
    assert_prints_like_python(f"print({form.format(values)})")


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4), st.integers(1, 3),
       st.sampled_from(["max(x)", "min(x)", "sum(x)", "sorted(x)", "list(zip(x, x))",
                        "max(list(x))", "sum(x, x[0])", "list(enumerate(x))"]))
def test_builtins_over_tensors_as_torch(values, columns, form):
    """Rows of a 1-d or a 2-d tensor: 2-d rows compare to torch's ambiguous-bool error."""
    data = [values] if columns == 1 else [values] * columns
    x = f"torch.tensor({data})" if columns > 1 else f"torch.tensor({values})"
    assert_prints_like_python(f"x = {x}\nprint({form})")


@pytest.mark.parametrize("program", [
    "type(t).__subclasses__()", "type(t).__mro__", "id.__self__", "max.__globals__",
    "type(3).mro()", "type(3).real", "int.__base__", "torch.Tensor.__new__(3)",
    "torch.FloatTensor.__mro__", "torch.Size.__base__",
    "type(len)(3)", "int.foo", "type('A', (), {})", "type(max)(1)",
    "max(zip([1], [2])).__class__", "z = zip([1])\nz.items", "type(type(3))(5)",
])
def test_no_escape_through_classes_or_functions(program):
    """The classes type() gives and the builtins are stand-ins: no attribute resolves,
    only the builtin classes can be called (one refusal line, exit 2 in the CLI)."""
    with pytest.raises(Refused):
        Session().run(program)


def test_a_refusal_through_type_is_one_line_exit_2_in_the_cli():
    proc = subprocess.run([sys.executable, "cli.py", "explain", "type(t).mro()"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") <= 1 and "Traceback" not in proc.stderr


def test_id_is_the_same_every_run_and_differs_between_objects():
    program = "x = torch.ones(2)\nv = x.view(2)\nprint(id(x), id(v), id(x))"
    first, again = tidx_printed(program)[0], tidx_printed(program)[0]
    assert first == again
    a, b, c = first[0].split()
    assert a == c != b


def test_a_huge_sum_of_lists_is_refused_not_built():
    with pytest.raises(Refused, match="longer than tidx builds"):
        Session().run("a = [0] * 10000\nb = sum([a] * 100, [])")


def test_a_function_bound_to_a_name_prints_as_python_without_an_address():
    """Python's repr of a builtin has an address that changes every run; tidx leaves it
    out (it once printed its own function's, `<function int at 0x7f...>`)."""
    program = "tensor = torch.tensor\nprint(tensor, len, t.sum, int)"
    ours, theirs = tidx_printed(program)[0], torch_printed(program)[0]
    assert ours == ["<built-in method tensor of type object> <built-in function len> "
                    "<built-in method sum of Tensor object> <class 'int'>"]
    assert [re.sub(" at 0x[0-9a-f]+", "", line) for line in theirs] == ours


FORMS = [
    "x = 3 if True else 2\nprint(x, 1 if 0 else 'a', [i if i % 2 else -i for i in range(4)])",
    "s = torch.tensor(2.5)\nprint(f'{s:.2f} {s!r:>20} {s!s}|{3:{2}}|{len}|{s!a}|{\"é\"!a}')",
    "print(f'{t}', f'{t.shape}', f'{t.dtype}', f'{None}', f'{[1, 2]}', f'{int}')",
    "w = 6\nprint(f'{3.14159:>{w}.{2}f}|{\"ab\":^{w}}|{42:08b}|{1e6:,.1f}|{-1:+}')",
    "print(format(2.5, '.3f'), format(3), format('ab', '>4'), str(t[0]), repr('a'))",
    "print(str(), str(3), str(None), repr([1, 'a']), str(int), repr(len), format(t))",
    "s = torch.tensor(7)\ny = 'big' if s > 3 else 'small'\nprint(y, f'{s:3d}')",
    "print(f'{t:.2f}')", "print(format(t, 'x'))", "format()", "format(1, 2)",
    "format(1, 'q')", "format([1], 'x')", "format(None, '>3')", "repr()",
    "format(1, 2, 3)", "print(f'{torch.tensor([1, 2]):d}')", "y = 1 if t else 0",
    "print(format(torch.tensor(3.5), '.1e'), format(len), f'{max!r}')",
]


@pytest.mark.parametrize("program", FORMS)
def test_conditional_expressions_and_formatting_as_python_and_torch(program):
    assert_prints_like_python(program)


@pytest.mark.parametrize("program", [
    "x = torch.tensor(2.5)\ny = f'{x:.3f}'", "x = torch.tensor(2.5)\ny = format(x, '>9')",
    "x = torch.tensor([1., 2.])\ny = x[0] if x.sum() > 2 else x[1]",
])
def test_formatting_a_tensor_runs_torchs_aten_ops(program):
    """Tensor.__format__ of a 0-d tensor is detach() then item(): the profiler's ops."""
    assert_like_torch(program.split("\n"))


@pytest.mark.parametrize("program", [
    "f'{t.__class__}'", "f'{1:>999999999}'", "f'{1:.{10 ** 6}f}'", "format('a', '99999')",
    "f'{t:{\"x\" * 10}}'" if False else "f'{1:{10 ** 5}}'", "f'{len.__self__}'",
    "str(b'a', 'utf-8')", "x = 1 if t.__len__ else 2", "f'{1:{\"9\" * 5000}}'",
    "format(2, '1' * 5000)",
])
def test_no_escape_or_blow_up_through_formatting(program):
    with pytest.raises(Refused):
        Session().run(program)
