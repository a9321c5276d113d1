"""The matmul family (engine/ops/matmul.py): mm, bmm, mv (addmv_), dot, matmul and the
``@`` operator, compared with torch 2.13 -- the aten operators torch.profiler records
(addmm_impl_cpu_'s resolve_conj and clone per operand, _matmul_impl's reshape / expand /
_unsafe_view), errors word for word, values (bit for bit for integers and for floats whose
sums are exact; within the stated bound, with the note, for the rest)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.interpreter import session
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

A = "a = torch.arange(6.).reshape(2, 3); "
B = "b = torch.arange(12.).reshape(3, 4); "
V = "v = torch.arange(3.); "


@pytest.mark.parametrize("statements", [
    # mm: addmm_impl_cpu_ takes each operand as it is, transposed, or cloned
    A + B + "y = torch.mm(a, b)",
    A + B + "y = a.mm(b)",
    A + "c = torch.arange(12.).reshape(4, 3); y = torch.mm(a, c.t())",
    A + "n = torch.arange(24.).reshape(3, 8)[:, ::2]; y = torch.mm(a, n)",
    A + B + "y = torch.mm(a.t().contiguous().t(), b)",
    A + B + "y = torch.mm(a.long(), b.long())",
    A + B + "y = torch.mm(a.int() * 1000, b.int() * 100000)",
    A + B + "y = torch.mm(a.to(torch.int8) * 50, b.to(torch.int8) * 9)",
    A + B + "o = torch.empty(0); y = torch.mm(a, b, out=o)",
    A + B + "o = torch.empty(3); y = torch.mm(a, b, out=o)",
    A + B + "o = torch.empty(0, dtype=torch.float64); y = torch.mm(a, b, out=o)",
    A + "y = torch.mm(a, a)",
    A + "y = torch.mm(a, torch.ones(3, 4, dtype=torch.long))",
    A + V + "y = torch.mm(v, a)",
    A + V + "y = torch.mm(a, v)",
    A + B + "y = torch.mm(a.bool(), b.bool())",
    "y = torch.ones(0, 3) @ torch.ones(3, 4)",
    "y = torch.ones(2, 0) @ torch.ones(0, 4)",
    # mv: empty + addmv_
    A + V + "y = torch.mv(a, v)",
    A + V + "y = torch.mv(a.t().contiguous().t(), v)",
    A + V + "y = torch.mv(a.long(), v.long())",
    A + "y = torch.mv(a, torch.ones(4))",
    A + V + "y = torch.mv(v, v)",
    A + "y = torch.mv(a, a)",
    A + V + "y = torch.mv(a, v.long())",
    "y = torch.mv(torch.ones(2, 0), torch.ones(0))",
    # dot: empty + fill_
    V + "y = torch.dot(v, v)",
    V + "y = torch.dot(v.long() - 7, v.long() * 3)",
    V + "y = v.dot(v)",
    A + "y = torch.dot(a, a)",
    A + V + "y = torch.dot(v, a)",
    V + "y = torch.dot(v, torch.ones(4))",
    V + "y = torch.dot(v, v.long())",
    V + "y = torch.dot(v.bool(), v.bool())",
    "y = torch.dot(torch.ones(0), torch.ones(0))",
    # bmm
    "x = torch.arange(30.).reshape(5, 2, 3); w = torch.arange(60.).reshape(5, 3, 4); "
    "y = torch.bmm(x, w)",
    "x = torch.arange(30).reshape(5, 2, 3); y = torch.bmm(x, x.transpose(1, 2))",
    "x = torch.ones(5, 2, 3); y = torch.bmm(x, x)",
    "x = torch.ones(5, 2, 3); y = torch.bmm(x, torch.ones(4, 3, 4))",
    "x = torch.ones(2, 3); y = torch.bmm(x, x)",
    "x = torch.ones(5, 2, 3); y = torch.bmm(x, torch.ones(5, 3, 4, dtype=torch.long))",
    "y = torch.bmm(torch.ones(2, 3, 0), torch.ones(2, 0, 4))",
    "x = torch.ones(2, 2, 3).bool(); y = torch.bmm(x, x.transpose(1, 2))",
    A + V + "y = torch.mv(a.bool(), v.bool())",
    # matmul and @
    V + "y = v @ v",
    A + V + "y = a @ v",
    A + "u = torch.arange(2.); y = u @ a",
    A + B + "y = a @ b",
    A + "y = torch.matmul(a, a)",
    A + "y = a.matmul(a.T)",
    "y = torch.ones(()) @ torch.ones(2, 3)",
    A + B + "x = a.clone(); x @= b; y = x",
    A + "y = 2 @ a",
    A + "y = a @ [1., 2., 3.]",
    "x = torch.arange(30.).reshape(5, 2, 3); y = x @ torch.arange(3.)",
    "x = torch.arange(30.).reshape(5, 2, 3); y = x @ torch.arange(12.).reshape(3, 4)",
    "x = torch.arange(30.).reshape(5, 2, 3); y = x.transpose(1, 2) @ torch.ones(2, 4)",
    "x = torch.arange(30.).reshape(5, 2, 3); y = torch.ones(4, 2) @ x",
    "x = torch.arange(30.).reshape(5, 2, 3); y = torch.ones(2) @ x",
    "x = torch.ones(2, 5, 2, 3); y = x @ torch.ones(5, 3, 4)",
    "x = torch.ones(2, 1, 2, 3); y = x @ torch.ones(3, 3, 4)",
    "x = torch.ones(2, 5, 2, 3); y = x @ torch.ones(4, 3, 4)",
    "x = torch.ones(5, 2, 3); y = x @ torch.ones(5, 2, 3)",
])
def test_matmul_family_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


def _ints(shape):
    return st.lists(st.integers(-4, 4), min_size=int(np.prod(shape)),
                    max_size=int(np.prod(shape)))


@st.composite
def _operands(draw):
    """Two shapes of ranks 1..4 that matmul accepts (their batch dims broadcast)."""
    r1, r2 = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    n, k, p = (draw(st.integers(0, 3)) for _ in range(3))
    batch = [draw(st.integers(1, 3)) for _ in range(max(r1, r2) - 2)]
    def batch_of(r):
        dims = batch[len(batch) - max(r - 2, 0):]
        return [d if draw(st.booleans()) else 1 for d in dims]
    s1 = [k] if r1 == 1 else batch_of(r1) + [n, k]
    s2 = [k] if r2 == 1 else batch_of(r2) + [k, p]
    return s1, s2, draw(st.sampled_from(["torch.float32", "torch.float64", "torch.int64"])), \
        draw(st.booleans())


@given(case=_operands())
@settings(max_examples=examples(60), deadline=None)
def test_every_rank_pair_gives_torchs_tree_and_values(case):
    """Ranks 1..4 x 1..4: the aten tree, shape, strides and values of ``x @ y``, the
    left operand transposed or not (small integers: every order is exact)."""
    s1, s2, dtype, transposed = case
    def make(name, shape, flip):
        n = int(np.prod(shape))
        if flip and len(shape) >= 2:
            t = list(shape[:-2]) + [shape[-1], shape[-2]]
            return (f"{name} = (torch.arange({n}) % 7 - 3).to({dtype}).reshape({t})"
                    f".transpose(-1, -2)")
        return f"{name} = (torch.arange({n}) % 5 - 2).to({dtype}).reshape({list(shape)})"
    assert_like_torch([make("x", s1, transposed), make("w", s2, False), "y = x @ w"],
                      names=("y",))


def _run(text: str):
    """The evaluator after ``text``, and the recorded trace's JSON text."""
    import json
    from engine.interpreter.evaluator import Evaluator
    from engine.interpreter.statements import parse
    from tracer import record
    ev, traces = Evaluator(), []
    for stmt in parse(text):
        with record() as tr:
            ev.run(stmt)
        traces.append(json.dumps(tr.to_dict()))
    return ev, "".join(traces)


def test_floats_mkl_sums_carry_the_bound_note_and_lie_within_it():
    """A float product whose sums round: tidx's value is labelled with the bound, and
    torch's value lies within it."""
    from conftest import require_torch
    torch = require_torch()
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((4, 7)).astype(np.float32), rng.standard_normal((7, 3))
    b = b.astype(np.float32)
    statement = f"a = torch.tensor({a.tolist()}); b = torch.tensor({b.tolist()}); y = a @ b"
    ev, trace = _run(statement.replace("; ", "\n"))
    ours = np.array(ev.names["y"].tolist(), dtype=np.float32)
    theirs = (torch.tensor(a) @ torch.tensor(b)).numpy()
    k, u = 7, 2.0 ** -24
    bound = 2 * (k * u / (1 - k * u)) * (np.abs(a).astype(np.float64) @ np.abs(b))
    assert np.all(np.abs(ours.astype(np.float64) - theirs) <= bound)
    assert '"matmul.bound"' in trace and '"matmul.exact"' not in trace
    assert '"matmul.exact"' in _run("y = torch.ones(2, 3) @ torch.ones(3, 2)")[1]


def test_small_bmm_is_baddbmm_cpu_kernels_order_bit_for_bit():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    w = rng.standard_normal((3, 5, 2)).astype(np.float32)
    assert_like_torch([f"x = torch.tensor({x.tolist()})", f"w = torch.tensor({w.tolist()})",
                       "y = torch.bmm(x, w)"], names=("y",))


def test_half_values_are_refused_in_one_line():
    with pytest.raises(Refused, match="float16"):
        session.run("y = torch.ones(2, 3).half() @ torch.ones(3, 2).half()")


def test_verify_compares_mkl_sums_within_the_stated_bound():
    """--verify: a float product MKL sums in another order matches within the bound the
    step states, and the row says so; a value outside it would still be a mismatch."""
    from engine.interpreter import verify
    text = "a = torch.randn(8, 50)\ny = a @ a.T"
    rows = verify.verify(text, session.run(text, seed=3))
    row = rows[-1]
    assert row.results["values"] is True, row.details
    said = [s["id"] for s in row.said]
    assert said == ["ui.verify.blas_bound"]
    assert verify._within([[1.0, 2.0]], [[1.0, 2.0 + 1e-6]], 2e-6)
    assert not verify._within([[1.0, 2.0]], [[1.0, 2.0 + 1e-5]], 2e-6)


@pytest.mark.parametrize("statements", [
    V + "w = torch.arange(4) - 2; y = torch.outer(v, w)",
    V + "y = v.outer(v.long())",
    V + "y = torch.ger(v, v)",
    V + "y = torch.outer(v[::2], v)",
    A + V + "y = torch.outer(a, v)",
    A + V + "y = torch.outer(v, a)",
    V + "y = torch.vdot(v, v)",
    V + "y = torch.vdot(v.long(), v.long() - 1)",
    V + "y = torch.vdot(v, v.long())",
    A + "y = torch.vdot(a, a)",
    V + "y = torch.vdot(v, torch.ones(4))",
])
def test_outer_ger_vdot_are_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


def test_the_matmul_lesson_agrees_with_torch_on_every_check():
    from engine.interpreter import lessons, verify
    text = lessons.load("matmul_transposes").text
    rows = verify.verify(text, session.run(text))
    assert rows and all(row.compared and row.ok for row in rows), [r.details for r in rows if not r.ok]
    assert any("x.T @ y" in row.source for row in rows)


_LAYOUTS = ["contiguous", "transposed", "column-strided", "row-strided"]
_DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.int8",
           "torch.uint8", "torch.bool", "torch.float16"]


def _matrix(name: str, rows: int, cols: int, layout: str, dtype: str) -> str:
    """A rows x cols operand of small integers in one of four layouts."""
    n = rows * cols
    base = f"(torch.arange({{n}}) % 7 - 3).to({dtype})"
    if layout == "transposed":
        return f"{name} = {base.format(n=n)}.reshape({cols}, {rows}).T"
    if layout == "column-strided":
        return f"{name} = {base.format(n=2 * n)}.reshape({rows}, {2 * cols})[:, ::2]"
    if layout == "row-strided":
        return f"{name} = {base.format(n=2 * n)}.reshape({2 * rows}, {cols})[::2]"
    return f"{name} = {base.format(n=n)}.reshape({rows}, {cols})"


@given(m=st.integers(0, 4), k=st.integers(0, 4), n=st.integers(0, 4),
       k2=st.integers(0, 4), layouts=st.tuples(*[st.sampled_from(_LAYOUTS)] * 2),
       dtypes=st.tuples(st.sampled_from(_DTYPES), st.sampled_from(_DTYPES)),
       out=st.sampled_from([None, "torch.zeros(0)", "torch.zeros(3)",
                            "torch.zeros(0, dtype=torch.int64)"]))
@settings(max_examples=examples(80), deadline=None)
def test_mm_over_layouts_dtypes_and_out_is_torchs(m, k, n, k2, layouts, dtypes, out):
    """mm's BLAS casts for every layout of either operand (as is, 'T', cloned), wrong
    dtypes and shapes, and out= (resized with torch's warning, or the dtype refused)."""
    if k2 % 2:
        k2 = k                  # half the draws multiply
    program = [_matrix("p", m, k, layouts[0], dtypes[0]),
               _matrix("q", k2, n, layouts[1], dtypes[1])]
    if out is None:
        program.append("y = torch.mm(p, q)")
    else:
        program += [f"y = {out}", "torch.mm(p, q, out=y)"]
    if dtypes == ("torch.float16", "torch.float16"):
        # torch computes; tidx refuses float16 values in one line (or raises torch's error
        # first, or has nothing to sum)
        try:
            assert_like_torch(program, names=("y",))
        except Refused as exc:
            assert "float16" in str(exc)
        return
    # an out= resized before the dtype error holds fresh memory in both
    fresh = ("y",) if out is not None and dtypes[0] != dtypes[1] else ()
    assert_like_torch(program, names=("y",), uninitialised=fresh)


C = "c = torch.arange(8.).reshape(2, 4); "


@pytest.mark.parametrize("statements", [
    A + B + C + "y = torch.addmm(c, a, b)",
    A + B + "r = torch.arange(4.); y = torch.addmm(r, a, b)",
    A + B + C + "y = torch.addmm(c, a, b, beta=0)",
    A + B + C + "y = torch.addmm(c, a, b, beta=2, alpha=-3)",
    A + B + C + "y = c.addmm(a, b.T.contiguous().T)",
    A + B + C + "y = c.addmm_(a, b)",
    A + B + C + "o = torch.empty(0); y = torch.addmm(c, a, b, out=o)",
    A + B + "y = torch.addmm(torch.ones(3), a, b)",
    A + B + C + "y = torch.addmm(c.long(), a, b)",
    A + B + C + "y = torch.addmm(c, a.long(), b)",
    A + B + C + "y = torch.addmm(c, a, a)",
    A + B + C + "y = torch.addmm(c, a[0], b)",
    A + B + C + "y = torch.addmm(c.long(), a.long(), b.long(), beta=3, alpha=5)",
    "c = torch.ones(2, 4); y = torch.addmm(c, torch.ones(2, 0), torch.ones(0, 4), beta=0)",
])
def test_addmm_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


@pytest.mark.parametrize("statements", [
    "m = torch.tensor([[1, 1], [1, 0]]); y = torch.matrix_power(m, 1)",
    "m = torch.tensor([[1, 1], [1, 0]]); y = torch.matrix_power(m, 2)",
    "m = torch.tensor([[1, 1], [1, 0]]); y = m.matrix_power(3)",
    "m = torch.tensor([[1, 1], [1, 0]]); y = torch.matrix_power(m, 13)",
    "m = torch.tensor([[1., 1], [1, 0]]); y = torch.matrix_power(m.T, 6)",
    "m = torch.ones(2, 2, 2); y = torch.matrix_power(m, 5)",
    "y = torch.matrix_power(torch.ones(2, 3), 2)",
    "y = torch.matrix_power(torch.ones(3), 2)",
])
def test_matrix_power_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))
