"""out= for diff, nanmean, take_along_dim, slice_scatter, nonzero_static, isin,
searchsorted and bucketize (issue #26), compared with torch 2.13: values, dtypes, the out=
tensor's shape and strides after the call, torch's errors word for word, the resize
warning and the operator tree.

Each runs the path its C++ takes with an out= tensor: ``diff_out`` subtracts into it the
last time (or, for n = 0, resizes it, checks its dtype and copies self); ``nanmean_out``
checks integers its own way, then ``nansum_out`` into it and ``div_``.
``take_along_dim_out`` gathers into the out= tensor, ``nonzero_static_out_cpu`` checks,
resizes and fills it.  An out= tensor over the input's own memory, which gather_out's
overlap checks cannot rule out, is read and written one element at a time in the
kernel's order, as torch's loop does (a drawn test below).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

#: ``q`` is the out= tensor; ``w = q`` runs only when the call returned, so an out= tensor
#: an error left uninitialised is not compared
NAMES = ("y", "w")

DIFF_NANMEAN = [
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0)', 'y = torch.diff(x, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(5)', 'y = torch.diff(x, n=2, dim=0, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0)', 'y = torch.diff(x, prepend=x[:, :1], out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0)', 'y = torch.diff(x, append=x, dim=0, n=3, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0, dtype=torch.float64)', 'y = torch.diff(x, out=q)', 'w = q'],
    ['x = torch.tensor([[1, 4, 9], [16, 25, 3]])', 'q = torch.empty(0)', 'y = torch.diff(x, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.diff(x, out=q)'],
    ['x = torch.tensor([[True, False, True], [False, False, True]])', 'q = torch.empty(0, dtype=torch.bool)', 'y = torch.diff(x, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(5)', 'y = torch.diff(x, n=0, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0, dtype=torch.float64)', 'y = torch.diff(x, n=0, out=q)'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'q = torch.empty(0)', 'y = torch.diff(x, n=5, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'y = torch.diff(x, out=x[:, :2])', 'w = x'],
    ['x = torch.tensor(3.)', 'y = torch.diff(x, out=torch.empty(0))'],
    ["x = torch.tensor([[1., 4., 9.], [16., 25., float('nan')]])", 'q = torch.empty(0)', 'y = torch.nanmean(x, out=q)', 'w = q'],
    ["x = torch.tensor([[1., 4., 9.], [16., 25., float('nan')]])", 'q = torch.empty(4)', 'y = torch.nanmean(x, 1, out=q)', 'w = q'],
    ["x = torch.tensor([[1., 4., 9.], [16., 25., float('nan')]])", 'q = torch.empty(0, dtype=torch.float64)', 'y = torch.nanmean(x, out=q)', 'w = q'],
    ["x = torch.tensor([[1., 4., 9.], [16., 25., float('nan')]])", 'q = torch.empty(0, dtype=torch.float64)', 'y = torch.nanmean(x, 0, True, dtype=torch.float64, out=q)', 'w = q'],
    ["x = torch.tensor([[1., 4., 9.], [16., 25., float('nan')]])", 'q = torch.empty(0)', 'y = torch.nanmean(x, dtype=torch.float64, out=q)'],
    ['x = torch.tensor([[1, 4]])', 'y = torch.nanmean(x, out=torch.empty(0, dtype=torch.long))'],
    ["x = torch.tensor([[1., 4., 9.], [16., 25., float('nan')]])", 'q = torch.empty(0, dtype=torch.long)', 'y = torch.nanmean(x, out=q)'],
    ['x = torch.zeros(0, 3)', 'q = torch.empty(0)', 'y = torch.nanmean(x, 0, out=q)', 'w = q'],
]


@pytest.mark.parametrize("program", DIFF_NANMEAN)
def test_diff_and_nanmean_out_are_torchs(program):
    assert_like_torch(program, names=NAMES)


TAKE_NONZERO_GATHER = [
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', 'q = torch.empty(0)', 'y = torch.take_along_dim(x, i, 1, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, -1, 2]])', 'q = torch.empty(7)', 'y = torch.take_along_dim(x, i, 0, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([5, 0, 2])', 'q = torch.empty(0)', 'y = torch.take_along_dim(x, i, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', 'q = torch.empty(0, dtype=torch.float64)', 'y = torch.take_along_dim(x, i, 1, out=q)'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', 'y = torch.take_along_dim(x, i, 1, out=x[:, :2])'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', "q = torch.empty(0, device='meta')", 'y = torch.take_along_dim(x, i, 1, out=q)'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', 'q = torch.empty(2, 2).t()', 'y = torch.take_along_dim(x, i, 1, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.nonzero_static(x, size=6, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(5, dtype=torch.long)', 'y = torch.nonzero_static(x, size=2, fill_value=7, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(0)', 'y = torch.nonzero_static(x, size=2, out=q)'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.nonzero_static(x, size=-1, out=q)'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.nonzero_static(x, size=0, out=q)', 'w = q'],
    ['x = torch.tensor(3.)', 'q = torch.empty(0, dtype=torch.long)', 'y = torch.nonzero_static(x, size=2, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(3, 2, dtype=torch.long).t().t()', 'y = torch.nonzero_static(x, size=3, out=q)', 'w = q'],
    ['x = torch.tensor([[1., 0., 9.], [0., 25., 3.]])', 'q = torch.empty(2, 3, dtype=torch.long).t()', 'y = torch.nonzero_static(x, size=3, out=q)', 'w = q'],
    ['x = torch.tensor([[1, 0, 9], [0, 25, 3]])', 'y = torch.nonzero_static(x, size=3, out=x)'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', 'y = torch.gather(x, 1, i, out=x[:, :2])', 'z = x'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[1, 0, 1], [0, 1, 0]])', 'y = torch.gather(x, 0, i, out=x)', 'z = x'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[1, 2], [0, 0]])', 'y = torch.gather(x, 1, i, out=x[:, 1:])', 'z = x'],
    ['x = torch.arange(24.).reshape(2, 3, 4)', 'i = torch.tensor([[[3, 0, 1]], [[2, 2, 0]]])', 'y = torch.gather(x, 2, i, out=x[:, :1, 1:])', 'z = x'],
    ['x = torch.arange(24.).reshape(2, 3, 4)', 'i = torch.tensor([[[1, 0], [2, 1]], [[0, 0], [1, 2]]])', 'y = torch.gather(x, 1, i, out=x[:, 1:, :2])', 'z = x'],
    ['x = torch.tensor([[1., 4., 9.], [16., 25., 3.]])', 'i = torch.tensor([[0, 2], [1, 0]])', 'y = torch.take_along_dim(x, i, 1, out=x[:, :2])', 'z = x'],
]


@pytest.mark.parametrize("program", TAKE_NONZERO_GATHER)
def test_take_along_dim_nonzero_static_and_gather_out_are_torchs(program):
    assert_like_torch(program, names=("y", "w", "z"))


@pytest.mark.slow
@settings(max_examples=examples(60), deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data(),
       seed=st.integers(0, 2**16))
def test_drawn_gather_into_its_own_input_is_torchs(shape, data, seed):
    """gather with an out= tensor that is a slice of the input: each element read after
    the earlier ones were written, in the kernel's order."""
    rng = np.random.default_rng(seed)
    ndim = len(shape)
    dim = data.draw(st.integers(0, ndim - 1))
    index_shape = [data.draw(st.integers(1, n)) for n in shape]
    index = rng.integers(0, shape[dim], index_shape)
    starts = [data.draw(st.integers(0, n - k)) for n, k in zip(shape, index_shape)]
    window = ", ".join(f"{a}:{a + k}" for a, k in zip(starts, index_shape))
    assert_like_torch([f"x = torch.arange({int(np.prod(shape))}.).reshape({shape})",
                       f"i = torch.tensor({index.tolist()})",
                       f"y = torch.gather(x, {dim}, i, out=x[{window}])", "z = x"],
                      names=("y", "z"))
