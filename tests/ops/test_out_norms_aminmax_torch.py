"""out= for the linalg norms, torch.norm and aminmax (issue #26), compared with torch 2.13:
values, dtypes, the out= tensors' shapes and strides after the call, torch's errors word for
word (the structured wrapper's dtype check, the composites' own after their value is
computed, checkSameDevice), the resize warning and the operator tree.

``linalg_vector_norm.out`` and ``aminmax.out`` are structured: the meta's checks, then each
out= tensor's dtype and resize (min before max), then the kernel into it.
``linalg_matrix_norm.out`` and ``linalg_norm.out`` (both string forms too) are composites:
the functional value first, then its dtype against the out= tensor's, resize_output and
``copy_``.  ``torch.norm(..., out=)`` hands out= on to the function it calls.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

NAMES = ("y", "z", "q")

NORMS = [
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', 'y = torch.linalg.vector_norm(x, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(5)', 'y = torch.linalg.vector_norm(x, dim=1, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'y = torch.linalg.vector_norm(x, out=torch.empty(0, dtype=torch.float64))'],
    ['x = torch.arange(6.).reshape(2, 3)', 'y = torch.linalg.vector_norm(x, dtype=torch.float64, out=torch.empty(0))'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0, dtype=torch.float64)', 'y = torch.linalg.vector_norm(x, 1, 0, dtype=torch.float64, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(3,2).t()[0]', 'y = torch.linalg.vector_norm(x, dim=1, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(3, 2).t()', "y = torch.linalg.vector_norm(x.t().reshape(3, 2).t(), float('inf'), dim=(), keepdim=True, out=o)", 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'y = torch.linalg.vector_norm(x, dim=1, out=x[:, 0])', 'z = x'],
    ['x = torch.zeros(2, 1)', 'o = torch.empty(0)', 'y = torch.linalg.vector_norm(x, dim=1, out=o)', 'z = o'],
    ['x = torch.zeros(2, 0)', 'o = torch.empty(0)', 'y = torch.linalg.vector_norm(x, 0, dim=1, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', 'y = torch.linalg.matrix_norm(x, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(7)', 'y = torch.linalg.matrix_norm(x, 1, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'y = torch.linalg.matrix_norm(x, 1, out=torch.empty(3, dtype=torch.float64))'],
    ['x = torch.arange(6.).reshape(2, 3)', "y = torch.linalg.matrix_norm(x, float('inf'), out=torch.empty(0, dtype=torch.long))"],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', 'y = torch.linalg.norm(x, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', "y = torch.linalg.norm(x, 'fro', out=o)", 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'y = torch.linalg.norm(x, 1, out=torch.empty(0, dtype=torch.float64))'],
    ['x = torch.arange(6.).reshape(2, 3)', 'y = torch.linalg.norm(x, dim=1, out=torch.empty(0, dtype=torch.int32))'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(2)', 'y = torch.linalg.norm(x, 3, dim=1, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', 'y = torch.norm(x, out=o)', 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', "y = torch.norm(x, p='fro', dim=(0, 1), out=o)", 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', "y = torch.linalg.matrix_norm(x, 'fro', out=o)", 'z = o'],
    ['x = torch.arange(6.).reshape(2, 3)', "y = torch.linalg.matrix_norm(x, 'fro', out=torch.empty(0, device='meta'))"],
    ['x = torch.arange(6).reshape(2, 3)', 'y = torch.linalg.vector_norm(x, out=torch.empty(0))'],
    ['x = torch.arange(6.).reshape(2, 3).requires_grad_()', 'y = torch.linalg.vector_norm(x, out=torch.empty(0))'],
    ['x = torch.arange(6.).reshape(2, 3).requires_grad_()', 'y = torch.linalg.matrix_norm(x, out=torch.empty(0))'],
    ['x = torch.arange(6.).reshape(2, 3)', 'o = torch.empty(0)', 'y = torch.norm(x, 1, dim=1, out=o)', 'z = o'],
]

AMINMAX = [
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(0)', 'q = torch.empty(0)', 'y = torch.aminmax(x, out=(p, q))', 'z = p'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(0)', 'q = torch.empty(5)', 'y = torch.aminmax(x, dim=1, out=(p, q))', 'z = q'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(0)', 'q = torch.empty(0)', 'y = torch.aminmax(x, dim=0, keepdim=True, out=(p, q))', 'z = q'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(0, dtype=torch.float64)', 'q = torch.empty(0)', 'y = torch.aminmax(x, out=(p, q))'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(0)', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.aminmax(x, dim=1, out=(p, q))'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(3, 2).t()[0]', 'q = torch.empty(2)', 'y = torch.aminmax(x, dim=1, out=(p, q))', 'z = p'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(4, 2).t()[0, :3]', 'q = torch.empty(3)', 'y = torch.aminmax(x, dim=0, out=(p, q))', 'z = p'],
    ['x = torch.tensor(7.)', 'p = torch.empty(2)', 'q = torch.empty(0)', 'y = torch.aminmax(x, dim=0, out=(p, q))', 'z = p'],
    ['x = torch.tensor([[3, 1, 2], [0, 5, 4]])', 'p = torch.empty(0, dtype=torch.long)', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.aminmax(x, dim=-1, out=(p, q))', 'z = p'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'y = torch.aminmax(x, out=(x[0], x[1]))', 'z = x'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])', 'p = torch.empty(0)', 'y = torch.aminmax(x, out=(p, p))', 'z = p'],
    ['x = torch.zeros(0, 3)', 'p = torch.empty(0)', 'q = torch.empty(0)', 'y = torch.aminmax(x, dim=1, out=(p, q))', 'z = p'],
    ['x = torch.zeros(0, 3)', 'p = torch.empty(0)', 'q = torch.empty(0)', 'y = torch.aminmax(x, out=(p, q))'],
    ['x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)', 'p = torch.empty(0)', 'q = torch.empty(0)', 'y = torch.aminmax(x, out=(p, q))'],
]


#: found by the property test below: empty tensors' norms (a reduction over size-1 dims
#: takes |x| however many rows there are; the largest of no column sums is 0)
EMPTY = [
    ['x = torch.zeros(0, 0)', 'y = torch.linalg.matrix_norm(x, 1)'],
    ['x = torch.zeros(0, 0)', 'y = torch.linalg.norm(x, 1)'],
    ['x = torch.zeros(0, 3)', 'y = torch.linalg.matrix_norm(x, 1)'],
    ['x = torch.zeros(3, 0)', 'y = torch.linalg.matrix_norm(x, 1)'],
    ['x = torch.zeros(3, 0)', "y = torch.linalg.matrix_norm(x, float('inf'))"],
    ['x = torch.zeros(0, 1)', 'q = torch.empty(0)', 'y = torch.linalg.vector_norm(x, 2, dim=1, out=q)', 'w = q'],
    ['x = torch.zeros(0, 1)', 'y = torch.linalg.vector_norm(x, 2, dim=1)'],
    ['x = torch.zeros(0, 1)', 'y = torch.linalg.vector_norm(x, 2, dim=0)'],
    ['x = torch.zeros(0, 1, 1)', 'y = torch.linalg.vector_norm(x, 0, dim=(1, 2))'],
    ['x = torch.zeros(2, 1, 1)', 'y = torch.linalg.vector_norm(x, 0, dim=(1, 2))'],
    ['x = torch.tensor(3.)', 'y = torch.linalg.vector_norm(x, 0)'],
    ['x = torch.tensor(-3.)', 'y = torch.linalg.vector_norm(x)'],
    ['x = torch.zeros(1, 0)', "y = torch.linalg.vector_norm(x, float('inf'), dim=0)"],
    ['x = torch.zeros(1, 0)', "y = torch.linalg.vector_norm(x, float('inf'), dim=1)"],
    ['x = torch.zeros(3, 0)', 'y = torch.linalg.matrix_norm(x, -1)'],
    ['x = torch.zeros(3, 0)', "y = torch.linalg.matrix_norm(x, float('-inf'), keepdim=True)"],
    ['x = torch.zeros(2, 3, 0)', 'y = torch.linalg.matrix_norm(x, 1, keepdim=True)'],
    ['x = torch.zeros(2, 0, 3)', "y = torch.linalg.matrix_norm(x, float('inf'), dim=(0, 1))"],
    ['x = torch.zeros(2, 0, 3, dtype=torch.float64)', 'y = torch.linalg.matrix_norm(x, 1, dim=(-1, 1))'],
]


@pytest.mark.parametrize("program", NORMS + EMPTY)
def test_norm_out_forms_are_torchs(program):
    assert_like_torch(program, names=NAMES)


@pytest.mark.parametrize("program", AMINMAX)
def test_aminmax_out_is_torchs(program):
    assert_like_torch(program, names=NAMES, uninitialised=("p",))


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=3), data=st.data(),
       dtype=st.sampled_from(["float32", "float64"]),
       out=st.sampled_from(["torch.empty(0)", "torch.empty(5)", "torch.empty(0, dtype=torch.float64)",
                            "torch.empty(4, 3).t()[0]", "torch.empty(2, 2)"]),
       which=st.sampled_from(["vector_norm", "norm", "aminmax"]), seed=st.integers(0, 2**16))
def test_drawn_out_forms_are_torchs(shape, data, dtype, out, which, seed):
    values = (np.random.default_rng(seed).standard_normal(int(np.prod(shape))) * 3).round(2)
    ndim = len(shape)
    dim = data.draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1)))
    keepdim = data.draw(st.booleans())
    make = f"x = torch.tensor({values.tolist()}, dtype=torch.{dtype}).reshape({shape})"
    if which == "aminmax":
        call = (f"q = {out}; p = torch.empty(0, dtype=torch.{dtype}); "
                f"y = torch.aminmax(x, dim={dim}, keepdim={keepdim}, out=(p, q))")
        # an out= tensor is compared once the call wrote it (z, w): after an error it
        # holds the uninitialised memory it was made with
        assert_like_torch([make, *call.split("; "), "z = p", "w = q"], names=("y", "z", "w"),
                          uninitialised=("p", "q"))
        return
    # (ord 2 of a matrix needs the singular values, which tidx refuses to compute)
    matrix = which == "norm" and dim is None and ndim == 2
    ord_ = data.draw(st.sampled_from([1, "float('inf')", "-float('inf')"] if matrix else
                                     [2, 1, 0, 3.5, "float('inf')", "-float('inf')"]))
    fn = "torch.linalg.vector_norm" if which == "vector_norm" else "torch.linalg.norm"
    dims = "" if dim is None and which == "norm" else f", dim={dim}"
    assert_like_torch([make, f"q = {out}", f"y = {fn}(x, {ord_}{dims}, keepdim={keepdim}, out=q)",
                       "w = q"], names=("y", "w"), uninitialised=("q",))
