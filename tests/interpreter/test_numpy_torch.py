"""numpy arrays as values (issue #26): ``import numpy as np``, ``t.numpy()`` and
``torch.from_numpy(a)`` sharing one buffer, ``torch.tensor``/``as_tensor``/``asarray``
copying or not, compared with torch 2.13 and numpy running the same statements: the
arrays (shape, strides in bytes, dtype, values, repr), the tensors, the error (class and
message) and the aten operators torch.profiler records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from engine.core.errors import Refused
from engine.interpreter.session import Session
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

NP = "import numpy as np"

#: (statements, the names compared)
PROGRAMS: list[tuple[list[str], tuple[str, ...]]] = [
    # numpy alone: factories, attributes, views, arithmetic, writes
    ([NP, "y = np.arange(6).reshape(2, 3)", "z = y.strides", "w = y.T.strides"],
     ("y", "z", "w")),
    ([NP, "y = np.zeros((2, 3), dtype=np.float32)", "z = y.dtype", "w = y.shape"],
     ("y", "z", "w")),
    ([NP, "y = np.ones(4)", "z = np.linspace(0, 1, 5)", "w = np.eye(2, dtype=np.int64)"],
     ("y", "z", "w")),
    ([NP, "a = np.arange(6.)", "y = a[::2]", "z = a[1:] * 2 + 1", "w = a.sum()"],
     ("y", "z", "w")),
    ([NP, "y = np.array([[1, 2], [3, 4]])", "y[0] = 5", "z = y[1, 0]", "w = y.ndim"],
     ("y", "z", "w")),
    ([NP, "y = np.array([1.5, 2.5])", "z = np.add(y, y)", "w = np.mean(y)"],
     ("y", "z", "w")),
    ([NP, "y = np.arange(4)", "y += 1", "z = y > 2", "w = -y"], ("y", "z", "w")),
    # from_numpy shares: a write through either side shows through the other
    ([NP, "a = np.arange(6)", "y = torch.from_numpy(a)", "a[0] = 100", "z = a"],
     ("y", "z")),
    ([NP, "a = np.ones((2, 3))", "y = torch.from_numpy(a)", "y[1, 1] = 7", "z = a"],
     ("y", "z")),
    ([NP, "a = np.arange(6)", "y = torch.from_numpy(a)", "a += 1", "z = y.sum()"],
     ("y", "z")),
    ([NP, "a = np.arange(12).reshape(3, 4)", "y = torch.from_numpy(a[:, ::2])",
      "z = y.stride()", "w = y.storage_offset()"], ("y", "z", "w")),
    ([NP, "a = np.arange(12).reshape(3, 4)", "y = torch.from_numpy(a.T)", "z = y.stride()"],
     ("y", "z")),
    ([NP, "a = np.arange(6.)", "y = torch.from_numpy(a[2:])", "y[0] = -1", "z = a"],
     ("y", "z")),
    ([NP, "a = np.array([True, False])", "y = torch.from_numpy(a)"], ("y",)),
    ([NP, "a = np.zeros(3, dtype=np.uint8)", "y = torch.from_numpy(a)", "y += 255"],
     ("y",)),
    ([NP, "a = np.zeros(2, dtype=np.float16)", "y = torch.from_numpy(a)"], ("y",)),
    # t.numpy() shares
    (["x = torch.arange(6)", "y = x.numpy()", "y[1] = 50", "z = x"], ("y", "z")),
    (["x = torch.arange(6.).reshape(2, 3)", "y = x.T.numpy()", "z = y.strides"],
     ("y", "z")),
    (["x = torch.ones(3)", "y = x.numpy()", "x.add_(1)", "z = y"], ("y", "z")),
    (["x = torch.arange(6, dtype=torch.int32)[1:]", "y = x.numpy()", "z = y.dtype"],
     ("y", "z")),
    # torch.tensor copies, as_tensor and asarray share unless a copy is needed; numpy's
    # np.array(t) copies and np.asarray(t) shares (Tensor.__array__ is t.numpy())
    ([NP, "a = np.arange(6)", "y = torch.tensor(a)", "z = torch.as_tensor(a)", "a[0] = 9"],
     ("y", "z")),
    ([NP, "a = np.arange(6.)", "y = torch.as_tensor(a, dtype=torch.float32)", "a[1] = 7",
      "z = torch.asarray(a)", "w = torch.asarray(a, dtype=torch.int32)"], ("y", "z", "w")),
    ([NP, "a = np.arange(3)", "y = torch.asarray(a, copy=False, dtype=torch.float32)"],
     ("y",)),
    ([NP, "x = torch.arange(4)", "y = np.array(x)", "z = np.asarray(x)", "x[0] = 5"],
     ("y", "z")),
    ([NP, "y = torch.as_tensor([1, 2])", "z = torch.as_tensor(y)", "w = torch.as_tensor(y, "
      "dtype=torch.float64)"], ("y", "z", "w")),
    ([NP, "y = torch.tensor(np.array([[1.5, 2], [3, 4]], dtype=np.float32))"], ("y",)),
    # numpy's scalars (a[0]) into torch.tensor: their own dtype, promoted with the rest
    ([NP, "a = np.arange(3)", "f = np.array([1.5, 2.5], dtype=np.float32)",
      "d = np.array([1.5])", "y = torch.tensor(a[1])", "z = torch.tensor([f[0], 1])",
      "w = torch.tensor([1.5, d[0]])"], ("y", "z", "w")),
    ([NP, "a = np.arange(3)", "b = np.array([True])", "y = torch.tensor([a[0], 2.5])",
      "z = torch.tensor(b[0])", "w = torch.tensor([a[0], a[1]])"], ("y", "z", "w")),
    # a numpy integer indexes a tensor as an int does (THPUtils_checkLong)
    ([NP, "a = np.arange(3)", "x = torch.arange(9).reshape(3, 3)", "y = x[a[1]]",
      "z = x[a[1], a[2]]", "x[a[0]] = 7", "w = x"], ("y", "z", "w")),
    # a numpy array indexes a tensor as a sequence does (indexing_tensor_from_data: a
    # mask stays a mask, anything else becomes long)
    ([NP, "x = torch.arange(6.)", "a = np.arange(6)", "y = x[a > 2]", "z = x[a[::2]]",
      "w = x[a.astype(np.int32)[:2]]"], ("y", "z", "w")),
    ([NP, "x = torch.arange(6.)", "y = x[np.array(1)]", "z = x[np.array([0.5])]"],
     ("y", "z")),
    # Python's builtins and `in` over an array's rows; the legacy constructors keep the
    # array's bytes when its dtype is the type's
    ([NP, "a = np.arange(4.)", "y = max(a)", "z = sorted(a - 2)", "w = (2 in a, 9 in a)"],
     ("y", "z", "w")),
    ([NP, "a = np.arange(3, dtype=np.float32)", "y = torch.Tensor(a)", "a[0] = 9",
      "z = torch.FloatTensor(np.arange(3))", "w = torch.LongTensor(a)"], ("y", "z", "w")),
    # torch's errors, word for word
    ([NP, "a = np.arange(6)", "y = torch.from_numpy(a[::-1])"], ("y",)),
    ([NP, "y = torch.from_numpy([1, 2])"], ("y",)),
    ([NP, "y = torch.from_numpy(np.arange(3), np.arange(3))"], ("y",)),
    (["x = torch.ones(2, requires_grad=True)", "y = x.numpy()"], ("y",)),
    (["x = torch.ones(2, device='meta')", "y = x.numpy()"], ("y",)),
    (["x = torch.ones(2, requires_grad=True)", "with torch.no_grad():\n    y = x.numpy()",
      "z = x.detach().numpy()"], ("y", "z")),
    (["y = torch.ones(2).numpy(1)"], ("y",)),
    (["y = torch.ones(2).numpy(force=True)"], ("y",)),
    # numpy's errors
    ([NP, "y = np.ones(3) + np.ones(2)"], ("y",)),
    ([NP, "y = np.arange(3)", "y[5] = 1"], ("y",)),
    ([NP, "y = np.zeros(-1)"], ("y",)),
    ([NP, "y = np.zeros('a')"], ("y",)),
    ([NP, "y = np.zeros(2.5)"], ("y",)),
    ([NP, "y = np.arange(1, 2, 0)"], ("y",)),
    ([NP, "y = np.arange(6).reshape(4, 2)"], ("y",)),
    ([NP, "y = np.arange(6).sum(axis=3)"], ("y",)),
    ([NP, "y = np.ones((2, 3)) @ np.ones((2, 3))"], ("y",)),
    ([NP, "y = np.array([1, 2])", "z = y[0]", "w = z + 1"], ("y", "z", "w")),
    ([NP, "y = np.float32", "z = np.dtype('int16')", "w = np.arange(3, dtype=y).dtype"],
     ("y", "z", "w")),
    ([NP, "y = np.arange(4.).reshape(2, 2)", "z = len(y)", "w = list(y[0])"],
     ("y", "z", "w")),
]


@pytest.mark.parametrize("program, names", PROGRAMS,
                         ids=[" ; ".join(p)[:80] for p, _ in PROGRAMS])
def test_numpy_programs_run_as_in_torch_and_numpy(program, names):
    assert_like_torch(program, names=names)


DTYPES = ["float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8",
          "bool_"]


@st.composite
def _arrays(draw):
    """A numpy program: an array of some dtype and shape, maybe a strided, reversed or
    transposed view of it."""
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    n = 1
    for s in shape:
        n *= s
    view = draw(st.sampled_from(["", "[::2]", "[1:]", "[::-1]", ".T", "[..., ::2]"]))
    return (f"a = (np.arange({n}) % 7).astype(np.{dtype}).reshape({tuple(shape)})"
            f"{view}")


@settings(max_examples=examples(40), deadline=None)
@given(_arrays(), st.sampled_from(["torch.from_numpy(a)", "torch.tensor(a)",
                                   "torch.as_tensor(a)", "torch.asarray(a)",
                                   "torch.as_tensor(a, dtype=torch.float32)",
                                   "torch.asarray(a, copy=True)",
                                   "torch.tensor(a, dtype=torch.int16)"]))
def test_arrays_of_every_dtype_and_layout_become_tensors_as_in_torch(array, make):
    assert_like_torch([NP, array, f"y = {make}", "z = a"], names=("y", "z"))


@settings(max_examples=examples(40), deadline=None)
@given(_arrays(), st.sampled_from([
    "a + 1", "a * a", "-a", "a.T * 2", "a.sum()", "np.sum(a, axis=0)", "a.reshape(-1)",
    "a.copy()", "np.ascontiguousarray(a.T)", "a[..., ::-1] + 0", "a.astype(np.float32)",
    "a.mean()", "a > 3", "np.transpose(a)", "a.ravel()", "a.max()", "a.tolist()",
    "a.flatten()", "np.zeros_like(a)", "a @ a.T", "a[0]", "a[a > 2]"]))
def test_numpy_operations_give_numpys_values_and_layouts(array, op):
    """Over every dtype and layout: numpy's values, dtype, shape, strides and errors."""
    assert_like_torch([NP, array, f"y = {op}", "z = a"], names=("y", "z"))


@settings(max_examples=examples(30), deadline=None)
@given(st.sampled_from(["torch.int64", "torch.float32", "torch.float64", "torch.uint8",
                        "torch.bool", "torch.int16"]),
       st.sampled_from(["", ".T", "[1:]", "[:, ::2]"]))
def test_tensors_become_arrays_over_their_bytes_as_in_torch(dtype, view):
    assert_like_torch([f"x = torch.arange(12).reshape(3, 4).to({dtype}){view}",
                       "y = x.numpy()", "z = y.strides", "w = x"], names=("y", "z", "w"))


@pytest.mark.parametrize("statement", [
    "np.zeros(10**12)",
    # each refusal takes the memory-limit explanation's ~0.8 s: one stays in the fast tier
    *(pytest.param(s, marks=pytest.mark.slow) for s in (
        "np.ones((10**6, 10**6))", "np.arange(10**12)", "np.linspace(0, 1, 10**12)",
        "np.eye(10**7)"))])
def test_an_array_past_the_budget_is_refused_before_numpy_makes_it(statement):
    with pytest.raises(Refused, match="memory limit"):
        Session().run(f"{NP}\n{statement}")


def test_np_random_is_refused_in_one_line():
    with pytest.raises(Refused, match="np.random is not modelled") as info:
        Session().run(f"{NP}\nnp.random.rand(3)")
    assert "\n" not in str(info.value)


def test_numpy_out_writes_into_the_array_a_tensor_shares():
    """PyTorch's "Tensors" tutorial: np.add(n, 1, out=n) is seen through the tensor."""
    assert_like_torch([NP, "n = np.ones(5)", "t = torch.from_numpy(n)",
                       "y = np.add(n, 1, out=n)", "z = t", "w = y is n"],
                      names=("y", "z", "w"))


VERIFIED = "\n".join([NP, "a = np.arange(6.).reshape(2, 3)", "y = torch.from_numpy(a)",
                      "a[0, 0] = 9", "z = y.numpy()", "w = torch.tensor(a).numpy()"])


def test_verify_compares_arrays_and_their_sharing_with_torch():
    require_torch()
    from engine.interpreter import session, verify

    rows = verify.verify(VERIFIED, session.run(VERIFIED))
    assert rows and all(r.compared and r.ok for r in rows), [r.details for r in rows]
    # the arrays' own checks ran (not only the tensors')
    z = next(r for r in rows if r.source == "z = y.numpy()")
    assert z.results["strides"] is True and z.results["offset"] is True


@pytest.mark.parametrize("field, wrong, check", [
    ("strides", [8, 8], "strides"), ("dtype", "float32", "dtype"),
    ("storage", "s$9", "offset")])
def test_verify_sees_an_array_that_differs_from_numpy(field, wrong, check):
    require_torch()
    from engine.interpreter import session, verify

    doc = session.run(VERIFIED)
    st = next(s for s in doc["statements"] if s["source"] == "z = y.numpy()")
    st["bindings"]["z"]["summary"][field] = wrong
    row = next(r for r in verify.verify(VERIFIED, doc) if r.source == "z = y.numpy()")
    assert row.results[check] is False, row.details


def test_the_storage_picture_draws_the_array_and_the_tensor_on_one_storage():
    """t.numpy() of a view: one storage, the tensor t and the array n over it (n's
    geometry in elements, as the picture speaks of every view)."""
    from engine.interpreter import session
    from tracer import picture as P

    doc = session.run_document(f"{NP}\na = np.arange(6)\nt = torch.from_numpy(a)\n"
                               "n = t[1:].numpy()")
    (p,) = P.collect(doc.statements[-1], doc.statements[-2])
    assert p["storage"] == "s$0" and p["size"] == 6
    assert [(v["name"], v["offset"], v["strides"]) for v in p["views"]] == [
        ("t", 0, [1]), ("n", 1, [1])]
    arrays = [b.summary for st in doc.statements for b in st.bindings.values()
              if b.summary["kind"] == "ndarray"]
    assert {a["storage"] for a in arrays} == {"s$0"}     # a and n: the tensor's bytes


def test_the_numpy_sharing_lesson_agrees_with_torch_on_every_check():
    require_torch()
    from engine.interpreter import lessons, session, verify

    text = lessons.load("numpy_sharing").text
    rows = verify.verify(text, session.run(text))
    assert rows and all(row.compared and row.ok for row in rows), [
        r.details for r in rows if not r.ok]
    assert any("torch.from_numpy(a)" in row.source for row in rows)


@pytest.mark.parametrize("fmt, suffix", [("tree", "txt"), ("mermaid", "mmd"), ("dot", "gv"),
                                         ("markdown", "md")])
def test_the_numpy_lesson_renders_arrays_as_numpy_prints_them_golden(fmt, suffix):
    """Arrays in every view: numpy's repr, as data (tree, mermaid, DOT, markdown)."""
    from conftest import cli_run, golden

    args = ["lesson", "numpy_sharing", "--seed", "0", "--width", "100"]
    res = cli_run(*args, *([] if fmt == "tree" else ["--format", fmt]))
    assert res.exit_code == 0, res.output
    assert "a = array([0, 1, 2, 3, 4, 5])" in res.output
    golden(f"lesson_numpy_sharing.{suffix}", res.output)


@pytest.mark.parametrize("statement, code", [
    ("np.zeros(10**12)", 2), ("np.random.rand(3)", 2), ("np.zeros(3, dtype='U9')", 2),
    ("np.zeros(np.arange(3))", 2), ("np.arange(3) + torch.ones(3)", 2),
    ("np.arange(3).tofile('/tmp/x')", 2), ("np.load('/etc/passwd')", 2),
    ("torch.from_numpy(np.arange(3)[::-1])", 1), ("np.ones(2) + np.ones(3)", 1)])
def test_the_command_line_refuses_in_one_line_or_raises_as_torch(statement, code):
    from conftest import cli_run

    res = cli_run("explain", f"{NP}; {statement}")
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output
    last = res.output.strip().splitlines()[-1]
    assert last.startswith("tidx: "), res.output
