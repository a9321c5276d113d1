"""The test harness itself: the oracle's one assertion sees every difference it promises
to see (values bit for bit, dtype, shape, strides, offset, error class and message, a
refusal, the operator tree), the call-form helper calls each form as torch defines it,
and tests/conftest.py marks a test by what it reaches.

Each difference is made on purpose by a program that does one thing in tidx and another
in torch; the harness must fail on it, and pass when both do the same.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conftest
import engine
from conftest import examples, require_torch
from oracle import FORMS, assert_like_torch, call, forms, outcome, summary
from torch_worker import TorchWorker


def _differs(ours, theirs):
    """A program that runs ``ours(lib)`` in tidx and ``theirs(lib)`` in torch."""
    return lambda lib: (ours if lib is engine else theirs)(lib)


def _error(cls, message):
    def raise_it(lib):
        raise cls(message)
    return raise_it


SAME = lambda lib: lib.arange(6).reshape(2, 3).t()  # noqa: E731


@pytest.mark.parametrize("what, ours, theirs", [
    ("values", lambda lib: lib.tensor([1, 2]), lambda lib: lib.tensor([1, 3])),
    ("-0.0 is not 0.0", lambda lib: lib.tensor([-0.0]), lambda lib: lib.tensor([0.0])),
    ("a float32's last bit", lambda lib: lib.tensor([0.1], dtype=lib.float32),
     lambda lib: lib.tensor([0.1], dtype=lib.float32).nextafter(lib.tensor([1.0]))),
    ("dtype", lambda lib: lib.zeros(2, dtype=lib.int32), lambda lib: lib.zeros(2, dtype=lib.int64)),
    ("shape", lambda lib: lib.zeros(2, 1), lambda lib: lib.zeros(2)),
    ("strides", SAME, lambda lib: SAME(lib).contiguous()),
    ("offset", lambda lib: lib.arange(3)[1:], lambda lib: lib.arange(3)[1:].clone()),
    ("error class", _error(ValueError, "no"), _error(TypeError, "no")),
    ("error message", _error(IndexError, "index 5 is out of bounds"),
     _error(IndexError, "index 5 is out of range")),
    ("an error where torch computes", _error(RuntimeError, "x"), SAME),
    ("a number's type", lambda lib: 1, lambda lib: True),
    ("a tuple's length", lambda lib: (lib.zeros(1),), lambda lib: (lib.zeros(1), 1)),
    ("a tuple's type", lambda lib: (2,), lambda lib: lib.Size([2])),
])
def test_every_difference_fails(what, ours, theirs):
    with pytest.raises(AssertionError):
        assert_like_torch(_differs(ours, theirs))


def test_the_same_result_passes_and_nan_equals_nan():
    assert_like_torch(SAME)
    assert_like_torch(lambda lib: lib.tensor([float("nan"), 1.5]) / lib.tensor([1.0, 3.0]))
    assert_like_torch(lambda lib: lib.tensor([[1, 2]]).max(1))     # return_types.max
    assert_like_torch(lambda lib, n: lib.zeros(n).shape, 3)
    assert_like_torch(lambda lib: lib.zeros(2).view(3))            # the same error


def test_a_refusal_passes_only_where_allowed():
    def refuse(lib):
        raise engine.Refused("tidx does not run this")
    program = _differs(refuse, SAME)
    with pytest.raises(AssertionError):
        assert_like_torch(program)
    assert_like_torch(program, refused=True)
    with pytest.raises(AssertionError):                     # torch raised: no excuse
        assert_like_torch(_differs(refuse, _error(RuntimeError, "x")), refused=True)
    assert_like_torch(program, refused=lambda ours, theirs: theirs[0] == "ok")
    with pytest.raises(AssertionError):
        assert_like_torch(program, refused=lambda ours, theirs: "tidx" not in ours[1])


def test_statements_compare_the_operator_tree_error_and_names():
    assert_like_torch(["y = t[1:, ::2]"])
    assert_like_torch(["t[rows, cols] = 10"], names=["t"])
    assert_like_torch(["y = torch.empty(3)"], uninitialised=["y"])
    # a different program on one side: the operator tree differs (and so does y)
    from oracle import compare
    torch = require_torch()
    ours, theirs = compare(torch, ["y = t[1]"], ["y"])
    assert ours.ops == theirs.ops and ours.tensors == theirs.tensors
    ours2, _ = compare(torch, ["y = t.select(0, 1).clone()"], ["y"])
    assert ours2.ops != theirs.ops


def test_summary_keeps_what_torch_shows():
    torch = require_torch()
    for lib in (engine, torch):
        s = summary(lib.arange(6).reshape(2, 3)[:, 1:])
        assert s == ("tensor", [[1, 2], [4, 5]], [2, 2], [3, 1], 1, "torch.int64", "cpu")
        assert summary(lib.zeros(2, device="meta"))[1] is None
    assert outcome(engine, lambda lib: lib.zeros(2).view(3))[0] == "error"


UNARY = ["abs", "neg", "sign", "reciprocal", "logical_not", "bitwise_not"]
OUT_MODELLED = ["abs", "logical_not"]     # tidx refuses the other out= forms for now


@settings(max_examples=examples(40), deadline=None)
@given(st.one_of(st.tuples(st.sampled_from(UNARY), forms("function", "method", "inplace")),
                 st.tuples(st.sampled_from(OUT_MODELLED), forms("out"))),
       st.sampled_from(["float32", "float64", "int64", "bool"]))
def test_call_forms_agree_with_torch(name_form, dtype):
    """The property helper over call forms, on a few unary operators and dtypes."""
    name, form = name_form
    assert_like_torch(lambda lib: call(lib, form, name,
                                       lib.tensor([-1.5, 0.0, 2.25]).to(getattr(lib, dtype))))


def test_call_checks_what_each_form_returns():
    class Liar:
        """A library and tensor whose in-place and out= forms return a new tensor."""
        dtype = device = None

        def abs_(self):
            return Liar()

        @staticmethod
        def empty(*args, **kwargs):
            return Liar()

        @staticmethod
        def abs(t, out=None):
            return Liar()

    for form in ("inplace", "out"):
        with pytest.raises(AssertionError, match="returned another tensor"):
            call(Liar, form, "abs", Liar())
    assert set(FORMS) == {"function", "method", "inplace", "out"}
    with pytest.raises(AssertionError):
        forms("varargs")


# -- markers by what a test reaches ----------------------------------------------------------

class _Item:
    def __init__(self, obj):
        self.obj = obj
        self._fixtureinfo = None


def _uses_dot():
    return conftest.require_dot()


def _helper_that_compares():
    assert_like_torch(["y = t[1]"])


def _plain():
    return engine.zeros(2)


def _worker():
    return TorchWorker(None)


def _child():
    import subprocess
    subprocess.run(["true"])


def _counted():
    import tracemalloc
    tracemalloc.start()


@settings(max_examples=1)
@given(st.integers())
def _property_with_torch(n):
    require_torch()


def test_a_test_is_marked_by_what_it_reaches():
    assert conftest.needs(_Item(_uses_dot)) == {"dot"}
    assert conftest.needs(_Item(_helper_that_compares)) == {"torch"}   # through oracle.py
    assert conftest.needs(_Item(_plain)) == set()
    assert conftest.needs(_Item(_property_with_torch)) == {"torch"}     # inside @given
    assert conftest.needs(_Item(_worker)) == {"kernel", "subprocess"}
    assert conftest.needs(_Item(lambda: conftest.screenshot(None, None))) == {"browser"}
    assert conftest.needs(_Item(_child)) == {"subprocess"}
    assert conftest.needs(_Item(_counted)) == {"profiled"}


def test_the_fast_tier_leaves_out_what_needs_an_outside_program(request):
    """Collected with the rest: this test is fast, the gdb and CPU-capability ones are not."""
    assert request.node.get_closest_marker("fast") is not None
    items = request.session.items
    for item in items:
        names = {m.name for m in item.iter_markers()}
        if names & (conftest.NOT_FAST | {"chromium"}):
            assert "fast" not in names, item.nodeid


# -- the move into wings (tests/tools/move_to_wings.py) ---------------------------------------

def _move_to_wings():
    import importlib.util

    path = conftest.TESTS / "tools" / "move_to_wings.py"
    spec = importlib.util.spec_from_file_location("move_to_wings", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_test_file_is_in_its_wing_and_only_the_suite_s_own_stay_at_the_root():
    """The tests are in wings (tests/ops, tests/cli ...): a new test file at tests/'s root
    belongs in one (add it to move_to_wings.WINGS and run the tool), unless it tests the
    suite itself (STAY)."""
    tool = _move_to_wings()
    moves, unplaced = tool.plan()
    names = [name for wing in tool.WINGS.values() for name in wing]
    assert len(names) == len(set(names)) and not set(names) & set(tool.STAY)
    assert moves == {} and unplaced == []
    present = {p.name for p in conftest.TESTS.glob("test_*.py")}
    assert present == {f"test_{n}.py" for n in tool.STAY}
    wings = {p.parent.name for p in conftest.TESTS.glob("*/test_*.py")}
    assert wings == set(tool.WINGS)


@pytest.mark.parametrize("before, after", [
    ("ROOT = Path(__file__).resolve().parent.parent\n",
     "ROOT = Path(__file__).resolve().parents[2]\n"),
    ("S = Path(__file__).parent.parent / 'samples'", "S = Path(__file__).parents[2] / 'samples'"),
    ('GOLDEN = Path(__file__).parent / "golden"', 'GOLDEN = Path(__file__).parents[1] / "golden"'),
    ("sys.path.insert(0, str(Path(__file__).resolve().parent))",
     "sys.path.insert(0, str(Path(__file__).resolve().parents[1]))"),
    ("x = Path(torch.__file__).parent / 'lib'", "x = Path(torch.__file__).parent / 'lib'"),
])
def test_a_moved_file_s_own_paths_gain_one_level(before, after):
    import re

    text = before
    for pattern, replacement in _move_to_wings().ONE_LEVEL_DOWN:
        text = re.sub(pattern, replacement, text)
    assert text == after
