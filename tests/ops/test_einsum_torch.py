"""torch.einsum and torch.tensordot (engine/ops/einsum.py, engine/ops/tensordot.py,
engine/binding/contraction.py) compared with torch 2.13: the aten operators
torch.profiler records under aten::einsum (permute, unsqueeze, diagonal/movedim for a
repeated label, sum for a dim one operand alone has, mul or sumproduct_pair's
permute/reshape/bmm/view), the result's layout and values, and einsum's errors word for
word -- every wrong equation its parser rejects, in the order it rejects them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

A = "a = torch.arange(6.).reshape(2, 3); "
V = "v = torch.arange(3.); "
B3 = "b = torch.arange(24.).reshape(2, 3, 4); c = torch.arange(40.).reshape(2, 4, 5); "


@pytest.mark.parametrize("statements", [
    A + "y = torch.einsum('ij->ji', a)",
    A + "y = torch.einsum('ij,jk->ik', a, a.T)",
    A + "y = torch.einsum('ij,jk', a, a.T)",
    A + "y = torch.einsum('ij,kj', torch.ones(4, 3), a)",
    A + "y = torch.einsum('ij->', a)",
    A + "y = torch.einsum('ij->j', a)",
    A + "y = torch.einsum('ij->i', a)",
    A + "y = torch.einsum('ij', a)",
    A + "y = torch.einsum('ji', a)",
    A + "y = torch.einsum('i j -> j i', a)",
    A + "y = torch.einsum('ij,ij->ij', a, a)",
    A + "y = torch.einsum('ij,ij->', a, a)",
    A + "y = torch.einsum('bi,bj->bij', a, a)",
    A + "y = torch.einsum('ij,kl->', a, torch.ones(2, 2))",
    A + "y = torch.einsum('ij,jk->ik', a, torch.ones(1, 2))",
    A + "y = torch.einsum('ij,jk,kl->il', a, a.T, a)",
    A + "y = torch.einsum('ij,jk', [a, a.T])",
    A + "y = torch.einsum('ij', [a])",
    V + "y = torch.einsum('i,i->', v, v)",
    V + "y = torch.einsum('i,i', v, v)",
    V + "y = torch.einsum('i,j->ij', v, torch.arange(2.))",
    V + "y = torch.einsum('i,i,i->', v, v, v)",
    V + "y = torch.einsum('i,i,i->i', v, v, v)",
    "y = torch.einsum('ii->i', torch.arange(9.).reshape(3, 3))",
    "y = torch.einsum('ii', torch.arange(9.).reshape(3, 3))",
    "y = torch.einsum('iji->j', torch.arange(18.).reshape(3, 2, 3))",
    "y = torch.einsum('->', torch.tensor(3.))",
    B3 + "y = torch.einsum('bij,bjk->bik', b, c)",
    B3 + "y = torch.einsum('bij,bjk->bki', b, c)",
    B3 + "y = torch.einsum('bij,bjk->kb', b, c)",
    B3 + "y = torch.einsum('...ij,...jk->...ik', b, c)",
    B3 + "y = torch.einsum('...ij,...jk', b, c)",
    B3 + "y = torch.einsum('bij,bjk->...', b, c)",
    B3 + "y = torch.einsum('b...,b...->b', b, b)",
    B3 + "y = torch.einsum('...j,j->...', b, torch.arange(4.))",
    B3 + "y = torch.einsum('i...->...', b)",
    B3 + "y = torch.einsum('...ij->...ji', b)",
    "y = torch.einsum('...i,...i->...', torch.ones(2, 1, 3), torch.ones(4, 3))",
    "y = torch.einsum('bhqd,bhkd->bhqk', torch.ones(2, 2, 3, 4), torch.ones(2, 2, 5, 4))",
    A + "y = torch.einsum('ij,jk->ik', a.long(), a.T.long())",
    A + "y = torch.einsum('ij,jk->ik', a.int(), a.T.int())",
    A + "y = torch.einsum('ij,jk->ik', a.double(), a.T.double())",
    A + "y = torch.einsum('ij,ij->ij', a.bool(), a.bool())",
    A + "y = torch.einsum('ij', a.bool())",
    A + "y = torch.einsum('ij,jk->ik', a[:, ::2], a.T[::2])",
    A + "y = torch.einsum(a, [0, 1], [1])",
    A + "y = torch.einsum(a, [0, 1], a, [0, 1], [0])",
    A + "y = torch.einsum(a, [..., 1], [1])",
    A + "y = torch.einsum(a, [0, 1])",
    # errors: Python's, the binding's, then the parser's in its order
    A + "y = torch.einsum('ij')",
    A + "y = torch.einsum('ij', 3)",
    A + "y = torch.einsum('ij', a, 3)",
    A + "y = torch.einsum(3, a)",
    A + "y = torch.einsum('ij', a, path=[0])",
    A + "y = torch.einsum(a, [0, 60])",
    A + "y = torch.einsum(a, 5)",
    A + "y = torch.einsum(a, [0, 1], a, None)",
    A + "y = torch.einsum('ij->k', a)",
    A + "y = torch.einsum('ij->ii', a)",
    A + "y = torch.einsum('ij->iJ', a)",
    A + "y = torch.einsum('i.j', a)",
    A + "y = torch.einsum('i..', a)",
    A + "y = torch.einsum('......', a)",
    A + "y = torch.einsum('...i...', a)",
    A + "y = torch.einsum('ij,', a)",
    A + "y = torch.einsum('ij', a, a)",
    A + "y = torch.einsum('i1', a)",
    A + "y = torch.einsum('ij->1', a)",
    A + "y = torch.einsum('ijk', a)",
    A + "y = torch.einsum('i', a)",
    A + "y = torch.einsum('', a)",
    A + "y = torch.einsum('...ijk', a)",
    A + "y = torch.einsum('ij,jk', a, a)",
    A + "y = torch.einsum('ii', a)",
    A + "y = torch.einsum('ij->......', a)",
    A + "y = torch.einsum('ij->..', a)",
    A + "y = torch.einsum('ij->.', a)",
    A + "y = torch.einsum('ij-->ij', a)",
    A + "y = torch.einsum('ij->ij->', a)",
    A + "y = torch.einsum('ij,jk->ik', a, torch.ones(4, 2))",
    A + "y = torch.einsum('ij,jk->ik', a.long(), a.T)",
    A + "y = torch.einsum('ij,ij->', a, a.long())",
    A + "y = torch.einsum('ij,jk', a.bool(), a.T.bool())",
    "y = torch.einsum('...i,...i', torch.ones(2, 3), torch.ones(4, 3))",
])
def test_einsum_like_torch(statements):
    assert_like_torch(statements)



@st.composite
def _einsum_calls(draw) -> str:
    """An einsum that torch computes or rejects: 1-3 operands over the labels i, j, k, l
    (a size each, 1 sometimes to broadcast), repeated labels, an ellipsis over broadcast
    batch dims, explicit or implicit output, int64 / float32 / float64 operands, some
    of them transposed views."""
    labels = "ijkl"
    size = {c: draw(st.sampled_from([1, 2, 3])) for c in labels}
    dtype = draw(st.sampled_from(["torch.float32", "torch.int64", "torch.float64"]))
    n = draw(st.integers(1, 3))
    ell = draw(st.integers(0, 2))
    batch = [draw(st.sampled_from([1, 2])) for _ in range(ell)]
    setup, specs, names = [], [], []
    for i in range(n):
        subs = draw(st.lists(st.sampled_from(labels), min_size=0, max_size=3))
        if draw(st.booleans()) and draw(st.booleans()):
            subs.append(subs[0] if subs else "i")              # a repeated label
        shape = [size[c] for c in subs]
        spec = "".join(subs)
        if ell and draw(st.booleans()):
            k = draw(st.integers(0, ell))
            lead = [draw(st.sampled_from([1, b])) for b in batch[ell - k:]]
            shape = lead + shape
            spec = "..." + spec
        numel = 1
        for d in shape:
            numel *= d
        make = f"(torch.arange({numel}) % 5 - 2).to({dtype}).reshape({shape})"
        if len(shape) >= 2 and draw(st.booleans()):
            # the same values seen through a transposed view
            rev = shape[::-1]
            make = (f"(torch.arange({numel}) % 5 - 2).to({dtype}).reshape({rev})"
                    f".permute({list(range(len(shape)))[::-1]})")
        setup.append(f"x{i} = {make}")
        specs.append(spec)
        names.append(f"x{i}")
    equation = ",".join(specs)
    if draw(st.booleans()):
        used = sorted({c for sp in specs for c in sp if c != "."})
        out = draw(st.permutations(used))
        out = out[:draw(st.integers(0, len(out)))]
        rhs = "".join(out)
        if any("..." in sp for sp in specs) and draw(st.booleans()):
            cut = draw(st.integers(0, len(rhs)))
            rhs = rhs[:cut] + "..." + rhs[cut:]
        equation += "->" + rhs
    return "; ".join(setup + [f"y = torch.einsum({equation!r}, {', '.join(names)})"])


@settings(max_examples=examples(150), deadline=None)
@given(_einsum_calls())
def test_einsum_property_like_torch(program):
    """Random equations: the profiler's tree, layout, values (integers, and floats whose
    sums are exact) and errors are torch's."""
    assert_like_torch(program)


@settings(max_examples=examples(150), deadline=None)
@given(st.text(alphabet="ij.,->kA1 ", max_size=9), st.integers(1, 3))
def test_einsum_wrong_equations_like_torch(equation, n):
    """Equations from an alphabet of labels, dots, commas, arrows, a digit and a space:
    the parser's errors (or results) are torch's, word for word."""
    operands = ", ".join(["torch.ones(2, 3)"] * n)
    assert_like_torch(f"y = torch.einsum({equation!r}, {operands})")


T = "a = torch.arange(24.).reshape(2, 3, 4); b = torch.arange(60.).reshape(3, 4, 5); "


@pytest.mark.parametrize("statements", [
    T + "y = torch.tensordot(a, b)",
    T + "y = torch.tensordot(a, b, 2)",
    T + "y = torch.tensordot(a, b.permute(1, 0, 2), dims=1)",
    T + "y = torch.tensordot(a, b, 0)",
    T + "y = torch.tensordot(a, b, True)",
    T + "y = torch.tensordot(a, b, ([1, 2], [0, 1]))",
    T + "y = torch.tensordot(a, b, [[2, 1], [1, 0]])",
    T + "y = torch.tensordot(a, b, ([-1], [1]))",
    T + "y = torch.tensordot(a.long(), b.long(), ([1], [0]))",
    T + "y = torch.tensordot(a, torch.ones(1, 5), ([2], [0]))",
    T + "y = torch.tensordot(a[:, :1], b, ([1], [0]))",
    T + "y = torch.tensordot(a.transpose(0, 2), b, ([1], [0]))",
    T + "o = torch.empty(0); y = torch.tensordot(a, b, out=o)",
    T + "o = torch.empty(3); y = torch.tensordot(a, b, out=o)",
    T + "o = torch.empty(2, 5); y = torch.tensordot(a, b, out=o)",
    T + "o = torch.empty(0, dtype=torch.long); y = torch.tensordot(a, b, out=o)",
    # errors
    T + "y = torch.tensordot(a, b, 3)",
    T + "y = torch.tensordot(a, b, -1)",
    T + "y = torch.tensordot(a, b, 4)",
    T + "y = torch.tensordot(a, b, (1, 2, 3))",
    T + "y = torch.tensordot(a, b, [1])",
    T + "y = torch.tensordot(a, b, 'x')",
    T + "y = torch.tensordot(a, b, 2.0)",
    T + "y = torch.tensordot(a, b, ([1], [0, 1]))",
    T + "y = torch.tensordot(a, b, ([0], [0]))",
    T + "y = torch.tensordot(a, b, ([1, 1], [0, 0]))",
    T + "y = torch.tensordot(a, b, ([5], [0]))",
    T + "y = torch.tensordot(a, b.long(), ([1], [0]))",
    T + "y = torch.tensordot(a, 3)",
])
def test_tensordot_like_torch(statements):
    assert_like_torch(statements)


S = ("s = torch.arange(30.).reshape(2, 3, 5); b1 = torch.arange(24.).reshape(2, 3, 4); "
     "b2 = torch.arange(40.).reshape(2, 4, 5); ")
M = "m = torch.arange(15.).reshape(3, 5); "


@pytest.mark.parametrize("statements", [
    S + "y = torch.baddbmm(s, b1, b2)",
    S + "y = torch.baddbmm(s, b1, b2, beta=0)",
    S + "y = torch.baddbmm(s, b1, b2, beta=2, alpha=3)",
    S + "y = torch.baddbmm(s, b1, b2, beta=0.5, alpha=-1.5)",
    S + "y = torch.baddbmm(torch.ones(5), b1, b2, beta=2, alpha=3)",
    S + "y = torch.baddbmm(s[0], b1, b2)",
    S + "y = s.baddbmm(b1, b2)",
    S + "y = s.clone(); y.baddbmm_(b1, b2)",
    S + "y = s.clone(); y.baddbmm_(b1, b2, beta=0, alpha=2)",
    S + "y = s.transpose(1, 2).contiguous().transpose(1, 2); y.baddbmm_(b1, b2)",
    S + "y = torch.ones(5); y.baddbmm_(b1, b2)",
    S + "y = s.long(); y.baddbmm_(b1.long(), b2)",
    S + "o = torch.empty(0); y = torch.baddbmm(s, b1, b2, out=o)",
    S + "o = torch.empty(7); y = torch.baddbmm(s, b1, b2, out=o)",
    S + "o = torch.empty(0, dtype=torch.float64); y = torch.baddbmm(s, b1, b2, out=o)",
    S + "y = torch.baddbmm(s.long(), b1.long(), b2.long())",
    S + "y = torch.baddbmm(s.long(), b1.long(), b2.long(), beta=0.5, alpha=1.5)",
    S + "y = torch.baddbmm(s.int(), b1.int(), b2.int(), beta=-2, alpha=3)",
    S + "y = torch.baddbmm(s, b1.transpose(1, 2).contiguous().transpose(1, 2), b2)",
    S + "y = torch.baddbmm(torch.ones(2, 3, 0), torch.ones(2, 3, 4), torch.ones(2, 4, 0))",
    S + "y = torch.baddbmm(s, torch.ones(2, 3, 0), torch.ones(2, 0, 5), beta=0)",
    S + "y = torch.baddbmm(s.bool(), b1.bool(), b2.bool())",
    "y = torch.baddbmm(torch.ones(2, 20, 20), torch.ones(2, 20, 40)[:, :, ::2], "
    "torch.ones(2, 20, 20))",
    "y = torch.baddbmm(torch.ones(2, 20, 20, dtype=torch.long), torch.ones(2, 20, 20, "
    "dtype=torch.long), torch.ones(2, 20, 20, dtype=torch.long), alpha=2)",
    "y = torch.baddbmm(torch.ones(2, 20, 20), torch.ones(2, 20, 20), torch.ones(2, 20, 20))",
    "y = torch.bmm(torch.ones(2, 20, 40)[:, :, ::2], torch.ones(2, 20, 20))",
    "y = torch.bmm(torch.ones(2, 20, 20, dtype=torch.long), torch.ones(2, 20, 20, "
    "dtype=torch.long))",
    # addbmm: empty, resize_as_, copy_, then addmm_ per batch
    S + M + "y = torch.addbmm(m, b1, b2)",
    S + M + "y = torch.addbmm(m, b1, b2, beta=0)",
    S + M + "y = torch.addbmm(torch.ones(5), b1, b2, beta=2, alpha=3)",
    S + M + "y = m.addbmm(b1, b2)",
    S + M + "y = m.clone(); y.addbmm_(b1, b2)",
    S + M + "y = torch.addbmm(m.long(), b1.long(), b2.long())",
    S + M + "o = torch.empty(0); y = torch.addbmm(m, b1, b2, out=o)",
    S + M + "o = torch.empty(2, 2); y = torch.addbmm(m, b1, b2, out=o)",
    S + M + "y = torch.addbmm(m, torch.ones(0, 3, 4), torch.ones(0, 4, 5), beta=0)",
])
def test_baddbmm_addbmm_like_torch(statements):
    assert_like_torch(statements)


_WRONG = {
    "s_shape": ("s", "torch.ones(2, 4, 5)"),
    "s_dtype": ("s", "torch.ones(2, 3, 5, dtype=torch.long)"),
    "s_4d": ("s", "torch.ones(1, 2, 3, 5)"),
    "s2_shape": ("s", "torch.ones(4, 5)"),
    "s2_dtype": ("s", "torch.ones(3, 5, dtype=torch.long)"),
    "b1_2d": ("b1", "torch.ones(3, 4)"),
    "b1_1d": ("b1", "torch.ones(4)"),
    "b1_dtype": ("b1", "torch.ones(2, 3, 4, dtype=torch.long)"),
    "b2_2d": ("b2", "torch.ones(4, 5)"),
    "b2_size": ("b2", "torch.ones(2, 3, 5)"),
    "b2_batch": ("b2", "torch.ones(3, 4, 5)"),
    "b2_dtype": ("b2", "torch.ones(2, 4, 5, dtype=torch.long)"),
}


@pytest.mark.parametrize("fn", ["torch.baddbmm", "torch.addbmm", "s.baddbmm_", "s.addbmm_"])
@pytest.mark.parametrize("first", [None, *_WRONG])
@pytest.mark.parametrize("second", list(_WRONG))
def test_baddbmm_addbmm_check_order_like_torch(fn, first, second):
    """Every pair of wrong arguments: the error torch raises first is tidx's."""
    args = {"s": "torch.ones(2, 3, 5)" if "baddbmm" in fn else "torch.ones(3, 5)",
            "b1": "torch.ones(2, 3, 4)", "b2": "torch.ones(2, 4, 5)"}
    for key in (first, second):
        if key is not None:
            args[_WRONG[key][0]] = _WRONG[key][1]
    setup = "; ".join(f"{k} = {v}" for k, v in args.items())
    call = f"y = {fn}(b1, b2)" if fn.startswith("s.") else f"y = {fn}(s, b1, b2)"
    assert_like_torch(f"{setup}; {call}")


@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from(["torch.baddbmm", "torch.addbmm", "torch.bmm"]),
       st.integers(0, 3), st.sampled_from([0, 1, 3, 9]), st.sampled_from([0, 1, 4, 9]),
       st.sampled_from([0, 1, 5, 9]),
       st.sampled_from(["torch.float32", "torch.float64", "torch.int64", "torch.int32"]),
       st.sampled_from([0, 1, 2, -1, 0.5]), st.sampled_from([1, 2, -3, 1.5]),
       st.sampled_from(["", ".transpose(-1, -2).contiguous().transpose(-1, -2)",
                        "[..., ::1]"]))
def test_batched_products_property_like_torch(fn, bs, m, k, n, dtype, beta, alpha, layout):
    """bmm, baddbmm and addbmm over batch counts, sizes on both sides of the 400
    multiply-add threshold, dtypes, scalars and operand layouts: the profiler's tree, the
    result and its values (integers exactly; floats hold small nonzero integers, exact in
    any order: MKL's sign of a zero sum -- -0. after 30 -0. terms, 0. after 1 -- is not
    tidx's to replay)."""
    def make(*shape):
        numel = 1
        for d in shape:
            numel *= d
        # no zero among the floats: MKL's sign of a zero sum is its own (-0. or 0.)
        values = "% 7 - 3" if "int" in dtype else "% 7 + 1"
        return f"((torch.arange({numel}) {values}).to({dtype}).reshape{shape}{layout})"
    b1, b2 = make(bs, m, k), make(bs, k, n)
    if fn == "torch.bmm":
        call = f"{fn}({b1}, {b2})"
    else:
        s = make(bs, m, n) if fn == "torch.baddbmm" else make(m, n)
        call = f"{fn}({s}, {b1}, {b2}, beta={beta}, alpha={alpha})"
    try:
        assert_like_torch(f"y = {call}")
    except Refused as exc:
        # integers with a float beta or alpha through addmm_, and beta scaling an empty
        # contraction, are refused in one line
        assert "not modelled" in str(exc)



def test_the_einsum_lesson_agrees_with_torch_on_every_check():
    """samples/einsum_as_bmm.py under --verify: every statement compared with torch, and
    every one agrees."""
    from engine.interpreter import lessons, session, verify
    text = lessons.load("einsum_as_bmm").text
    rows = verify.verify(text, session.run(text))
    assert rows and all(row.compared and row.ok for row in rows), \
        [r.details for r in rows if not r.ok]
    assert any("einsum('ij,jk->ik'" in row.source for row in rows)
