"""The matmul family's out= forms (engine/ops/matmul.py, engine/ops/bmm.py) compared with
torch 2.13: mm, bmm, mv (mv_out's fresh self for addmv), dot and vdot (resize_output to
0-dim, the dtype check, fill_ with the product), outer and ger (mul's out=), matmul
(_matmul_impl's out= branches: dot_out, mv_out, mm_out then squeeze_, the folded mm/mv
into a reshaped out, bmm into a reshaped out, copied back when the reshape copied), and
the errors and resize warnings' conditions as torch meets them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

A = "a = torch.arange(6.).reshape(2, 3); "
V = "v = torch.arange(3.); w = torch.arange(2.); "


@pytest.mark.parametrize("statements", [
    # mv.out: addmv.out into out (its own self) or with a fresh self
    A + V + "o = torch.empty(0); y = torch.mv(a, v, out=o)",
    A + V + "o = torch.empty(2); y = torch.mv(a, v, out=o)",
    A + V + "o = torch.empty(1); y = torch.mv(a, v, out=o)",
    A + V + "o = torch.empty(5); y = torch.mv(a, v, out=o)",
    A + V + "o = torch.empty(2, 1); y = torch.mv(a, v, out=o)",
    A + V + "o = torch.empty(1); y = torch.mv(a[:1], v, out=o)",
    A + V + "o = torch.empty(0, dtype=torch.long); y = torch.mv(a.long(), v.long(), out=o)",
    # dot.out, vdot.out
    V + "o = torch.empty(0); y = torch.dot(v, v, out=o)",
    V + "o = torch.empty(3); y = torch.dot(v, v, out=o)",
    V + "o = torch.empty(()); y = torch.dot(v, v, out=o)",
    V + "o = torch.empty(0, dtype=torch.long); y = torch.dot(v.long(), v.long(), out=o)",
    V + "o = torch.empty(0); y = torch.vdot(v, v, out=o)",
    # outer.out, ger.out: mul's out=
    V + "o = torch.empty(0); y = torch.outer(v, w, out=o)",
    V + "o = torch.empty(3, 2); y = torch.outer(v, w, out=o)",
    V + "o = torch.empty(2, 3).t(); y = torch.outer(v, w, out=o)",
    V + "o = torch.empty(4); y = torch.outer(v, w, out=o)",
    V + "o = torch.empty(0); y = torch.ger(v, w, out=o)",
    V + "y = torch.ger(v, w)",
    # mm.out, bmm.out
    A + "o = torch.empty(0); y = torch.mm(a, a.T, out=o)",
    A + "o = torch.empty(2, 2).t(); y = torch.mm(a, a.T, out=o)",
    "b = torch.ones(2, 3, 4); c = torch.ones(2, 4, 5); o = torch.empty(0); "
    "y = torch.bmm(b, c, out=o)",
    # matmul.out: every branch of _matmul_impl
    A + V + "o = torch.empty(0); y = torch.matmul(v, v, out=o)",
    A + V + "o = torch.empty(0); y = torch.matmul(a, v, out=o)",
    A + V + "o = torch.empty(0); y = torch.matmul(w, a, out=o)",
    A + V + "o = torch.empty(0); y = torch.matmul(v, a.T, out=o)",
    A + V + "o = torch.empty(0); y = torch.matmul(a, a.T, out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(b, torch.ones(4, 5), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(b, torch.ones(4), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(6, 5).t(); "
    "y = torch.matmul(b, torch.ones(4, 5), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(torch.ones(5, 3), b, out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(torch.ones(3), b, out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(b, torch.ones(2, 4, 5), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(b.transpose(0, 1), torch.ones(4, 5), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(5, 3, 2).transpose(0, 2); "
    "y = torch.matmul(b, torch.ones(2, 4, 5), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.matmul(b, torch.ones(1, 4, 5), out=o)",
    A + "o = torch.empty(0); y = a.matmul(a.T)",
])
def test_out_forms_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"))


@pytest.mark.parametrize("statements", [
    A + V + "o = torch.empty(0); y = torch.mv(a, w, out=o)",
    A + V + "o = torch.empty(0); y = torch.mv(v, v, out=o)",
    A + V + "o = torch.empty(0, dtype=torch.float64); y = torch.mv(a, v, out=o)",
    V + "o = torch.empty(0, dtype=torch.long); y = torch.dot(v, v, out=o)",
    V + "o = torch.empty(3, dtype=torch.long); y = torch.dot(v, v, out=o)",
    V + "o = torch.empty(0, dtype=torch.int32); y = torch.vdot(v, v, out=o)",
    V + "o = torch.empty(0, dtype=torch.long); y = torch.outer(v, w, out=o)",
    A + V + "o = torch.empty(0); y = torch.outer(a, w, out=o)",
    "b = torch.ones(2, 3, 4); c = torch.ones(2, 4, 5); o = torch.empty(0, dtype=torch.long); "
    "y = torch.bmm(b, c, out=o)",
    A + V + "o = torch.empty(0, dtype=torch.float64); y = torch.matmul(a, a.T, out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(3, 2).t(); "
    "y = torch.matmul(b, torch.ones(4), out=o)",
    "b = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0, dtype=torch.long); "
    "y = torch.matmul(b, torch.ones(2, 4, 5), out=o)",
    A + V + "o = torch.empty(0); y = torch.matmul(torch.tensor(2.), v, out=o)",
    # mv_out's check of self.size(0) on a 0-dim self
    V + "o = torch.empty(0); y = torch.mv(torch.tensor(2.), v, out=o)",
])
def test_out_errors_like_torch(statements):
    """The errors, after whatever resize came first: the out= tensor's shape and strides
    are torch's, its bytes fresh memory in both."""
    assert_like_torch(statements, names=("y", "o"), uninitialised=("o",))


def test_an_out_of_another_dtype_through_mul_is_torchs():
    """outer's out= is mul's: TensorIterator's temporary of the result's dtype, resized
    with the out= tensor, then copied into it."""
    assert_like_torch("v = torch.arange(3.); o = torch.empty(0, dtype=torch.float64); "
                      "y = torch.outer(v, v, out=o)", names=("y", "o"))


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(["torch.matmul", "torch.mm", "torch.mv", "torch.dot",
                        "torch.outer"]),
       st.lists(st.integers(1, 3), min_size=1, max_size=4),
       st.lists(st.integers(1, 3), min_size=0, max_size=2),
       st.lists(st.integers(0, 6), min_size=0, max_size=3),
       st.sampled_from(["torch.float32", "torch.int64", "torch.float64"]),
       st.sampled_from(["", ".t()", "[..., :0]"]))
def test_out_property_like_torch(fn, left, right, out_shape, out_dtype, out_layout):
    """An out= tensor of any small shape, dtype and layout for each function: torch's
    result, the out= tensor after it (resized, restrided or not), and torch's errors
    (the out= tensor's bytes are fresh memory when it raised after resizing it)."""
    def make(shape):
        numel = 1
        for d in shape:
            numel *= d
        # nonzero: MKL's sign of a zero sum is its own
        return f"(torch.arange({numel}) % 5 + 1).float().reshape({shape})"
    layout = out_layout if (out_layout != ".t()" or len(out_shape) == 2) else ""
    # b's first dim is a's last (the shapes multiply): a nested operator raising under an
    # out= one of the same name (dot.out's dot) is lost from torch.profiler's record
    right = [left[-1]] + right
    if fn == "torch.dot":
        left, right = left[-1:], left[-1:]
    program = (f"a = {make(left)}; b = {make(right)}; "
               f"o = torch.empty({out_shape}, dtype={out_dtype}){layout}; "
               f"y = {fn}(a, b, out=o)")
    assert_like_torch(program, names=("y", "o"), uninitialised=("o",))
    assert_like_torch(program, names=("y",))


C = "a = torch.arange(1., 7.).reshape(2, 3); "


@pytest.mark.parametrize("statements", [
    C + "o = torch.empty(0); y = torch.cumprod(a, 1, out=o)",
    C + "o = torch.empty(0); y = torch.cumsum(a, 1, out=o)",
    C + "o = torch.empty(0, dtype=torch.long); y = torch.cumsum(a, 1, out=o)",
    C + "o = torch.empty(0, dtype=torch.long); y = torch.cumprod(a.long(), 0, out=o)",
    C + "o = torch.empty(0, dtype=torch.int32); y = torch.cumsum(a.long(), 0, out=o)",
    C + "o = torch.empty(2, 3).t(); y = torch.cumsum(a, 1, out=o)",
    C + "o = torch.empty(3, 2).t(); y = torch.cumsum(a, 1, out=o)",
    C + "o = torch.empty(7); y = torch.cumprod(a, -1, out=o)",
    "o = torch.empty(0); y = torch.cumsum(torch.tensor(3.), 0, out=o)",
    "o = torch.empty(4); y = torch.cumprod(torch.ones(0, 2), 0, out=o)",
    "torch.manual_seed(0); o = torch.empty(0, dtype=torch.long); y = torch.randperm(6, out=o)",
    "torch.manual_seed(1); o = torch.empty(3); y = torch.randperm(5, out=o)",
    "torch.manual_seed(2); o = torch.empty(5, dtype=torch.int32); y = torch.randperm(5, out=o)",
    "torch.manual_seed(3); o = torch.empty(0, dtype=torch.float16); y = torch.randperm(4000, out=o)",
])
def test_cumulative_and_randperm_out_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"))


@pytest.mark.parametrize("statements", [
    C + "o = torch.empty(0); y = torch.cumsum(a, 2, out=o)",
    C + "o = torch.empty(0, dtype=torch.bool); y = torch.cumprod(a, 0, out=o)",
    # dot.out's nested dot raising: torch.profiler folds it into its parent of one name
    V + "o = torch.empty(0); y = torch.dot(v, w, out=o)",
    V + "o = torch.empty(0); y = torch.dot(v, v.long(), out=o)",
    V + "o = torch.empty(0); y = torch.vdot(v, w, out=o)",
    V + "o = torch.empty(0); y = torch.matmul(v, w, out=o)",
])
def test_cumulative_and_dot_out_errors_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"), uninitialised=("o",))


@pytest.mark.parametrize("statements", [
    "o = torch.empty(0); y = torch.zeros(2, 3, out=o)",
    "o = torch.empty(5); y = torch.zeros(2, 3, out=o)",
    "o = torch.empty(3, 2).t(); y = torch.zeros(2, 3, out=o)",
    "o = torch.empty(0, dtype=torch.long); y = torch.ones(4, out=o)",
    "o = torch.empty(0); y = torch.ones((2, 2), out=o)",
    "o = torch.empty(0); y = torch.full((2, 3), 7., out=o)",
    "o = torch.empty(0, dtype=torch.long); y = torch.full((2,), 3.5, out=o)",
    "o = torch.empty(0, dtype=torch.bool); y = torch.full((2,), 3, out=o)",
])
def test_factory_out_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"))


@pytest.mark.parametrize("statements", [
    "o = torch.empty(0); y = torch.empty(2, 3, out=o)",
    "o = torch.empty(0); y = torch.empty(2, -3, out=o)",
    "o = torch.empty(0); y = torch.empty(2, 3, out=o, memory_format=torch.channels_last)",
])
def test_empty_out_and_factory_out_errors_like_torch(statements):
    """empty's out= is resize_ alone: its bytes are fresh memory in both."""
    assert_like_torch(statements, names=("y", "o"), uninitialised=("y", "o"))


@pytest.mark.parametrize("statements", [
    "o = torch.empty(3); o.resize_(-2, 3)",
    "o = torch.empty(0); y = torch.zeros(2, -1, out=o)",
])
def test_a_negative_size_to_resize_is_torchs_overflow(statements):
    """A negative size passes as a huge uint64 and fails refresh_numel's overflow check
    (torch's tensor keeps the broken sizes: only the error is compared); it was tidx's
    own error (exit 3) before."""
    assert_like_torch(statements, names=())


AM = "m = torch.arange(12.).reshape(3, 4); x = torch.arange(4.); s = torch.arange(3.); "


@pytest.mark.parametrize("statements", [
    AM + "y = torch.addmv(s, m, x)",
    AM + "y = torch.addmv(s, m, x, beta=2, alpha=-3)",
    AM + "y = torch.addmv(s, m, x, beta=0, alpha=0.5)",
    AM + "y = torch.addmv(torch.ones(1), m, x, beta=2)",
    AM + "y = torch.addmv(torch.tensor(3.), m, x, beta=2)",
    AM + "y = torch.addmv(s, m.t().contiguous().t(), x, alpha=2)",
    AM + "y = torch.addmv(s, m[:, ::2], x[:2], beta=-1)",
    AM + "y = s.clone(); y.addmv_(m, x, beta=3, alpha=2)",
    AM + "y = torch.addmv(s.long(), m.long(), x.long(), beta=2, alpha=3)",
    AM + "y = torch.addmv(s.long(), m.long(), x.long(), beta=0.5, alpha=2.5)",
    AM + "y = torch.addmv(s.int(), m.int(), x.int(), beta=-2)",
    AM + "o = torch.empty(0); y = torch.addmv(s, m, x, beta=2, out=o)",
    AM + "y = torch.addmv(s, torch.ones(3, 0), torch.ones(0), beta=0)",
    AM + "y = torch.addmv(s, m, x.long())",
    AM + "y = torch.addmv(torch.ones(2), m, x)",
    AM + "y = torch.addmv(m, m, x)",
])
def test_addmv_with_beta_and_alpha_like_torch(statements):
    """addmv's beta and alpha: self expanded (expand_size), copied into the result by a
    call torch.profiler does not see, then gemv's y = beta * y + alpha * A x (integers
    exactly, floats here small integers, exact in any order)."""
    assert_like_torch(statements)


P = "a = (torch.arange(9.) % 4 - 1).reshape(3, 3); "


@pytest.mark.parametrize("statements", [
    P + f"o = torch.empty(0); y = torch.matrix_power(a, {n}, out=o)" for n in (1, 2, 3, 4, 5, 6, 8)
] + [
    P + "o = torch.empty(0, dtype=torch.float64); y = torch.matrix_power(a, 1, out=o)",
    P + "o = torch.empty(5); y = torch.matrix_power(a, 5, out=o)",
    P + "o = torch.empty(0, dtype=torch.int32); y = torch.matrix_power(a.long(), 1, out=o)",
    P + "o = torch.empty(0, dtype=torch.long); y = torch.matrix_power(a.long(), 4, out=o)",
    P + "o = torch.empty(0); y = torch.matrix_power(torch.ones(2, 3, 3), 2, out=o)",
])
def test_matrix_power_out_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"))


@pytest.mark.parametrize("statements", [
    P + "o = torch.empty(0, dtype=torch.long); y = torch.matrix_power(a, 2, out=o)",
    P + "o = torch.empty(0, dtype=torch.float64); y = torch.matrix_power(a, 2, out=o)",
    P + "o = torch.empty(0, dtype=torch.bool); y = torch.matrix_power(a.long(), 1, out=o)",
    P + "o = torch.empty(0); y = torch.matrix_power(a[:2], 2, out=o)",
])
def test_matrix_power_out_errors_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"), uninitialised=("o",))
