"""out= for diff, nanmean, take_along_dim, slice_scatter, nonzero_static, isin,
searchsorted and bucketize (issue #26), compared with torch 2.13: values, dtypes, the out=
tensor's shape and strides after the call, torch's errors word for word, the resize
warning and the operator tree.

Each runs the path its C++ takes with an out= tensor: ``diff_out`` subtracts into it the
last time (or, for n = 0, resizes it, checks its dtype and copies self); ``nanmean_out``
checks integers its own way, then ``nansum_out`` into it and ``div_``.
"""

from __future__ import annotations

import pytest

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
