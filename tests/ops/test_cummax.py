"""torch.cummax (torch.cummax, Tensor.cummax, out=(values, indices)) in
engine/ops/cumulative.py, compared with torch 2.13: the namedtuple's values and indices
bit for bit (ties move the index to the later element, a NaN stays and takes each later
NaN's index), layout, errors word for word, and the aten operators torch.profiler
records (cummax > empty, empty, cummax > empty, _cummax_helper)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

NAN = "float('nan')"
T = f"t = torch.tensor([[1., 3., 3., {NAN}, 2., {NAN}], [0., -1., 5., 5., -0.0, 0.0]]); "


@pytest.mark.parametrize("statements", [
    T + "r = torch.cummax(t, 1); y = r.values; z = r.indices",
    T + "r = t.cummax(0); y = r[0]; z = r[1]",
    T + "r = torch.cummax(t, -1); y = r.values; z = r.indices",
    T + "r = torch.cummax(t.t(), 0); y = r.values; z = r.indices",
    T + "y = torch.empty(0); z = torch.empty(0, dtype=torch.long); "
        "r = torch.cummax(t, 1, out=(y, z))",
    T + "y = torch.empty(2, 6); z = torch.empty(3, dtype=torch.long); "
        "r = torch.cummax(t, 1, out=[y, z])",
    "t = torch.tensor([2, 7, 7, 1, 9], dtype=torch.int8); r = torch.cummax(t, 0); "
    "y = r.values; z = r.indices",
    "t = torch.tensor([[True, False], [False, True]]); r = t.cummax(1); y = r.values; "
    "z = r.indices",
    "t = torch.tensor(3.5); r = torch.cummax(t, 0); y = r.values; z = r.indices",
    "t = torch.zeros(0, 3); r = torch.cummax(t, 1); y = r.values; z = r.indices",
    "t = torch.zeros(0, 3); r = torch.cummax(t, 7); y = r.values; z = r.indices",
    "t = torch.tensor([1., 2.], dtype=torch.half); r = torch.cummax(t, 0); y = r.values; "
    "z = r.indices",
    # errors: the dim, the out= dtypes, the tuple
    T + "r = torch.cummax(t, 2)",
    T + "r = torch.cummax(t)",
    T + "y = torch.empty(0, dtype=torch.float64); z = torch.empty(0, dtype=torch.long); "
        "r = torch.cummax(t, 1, out=(y, z))",
    T + "y = torch.empty(0); z = torch.empty(0, dtype=torch.int32); "
        "r = torch.cummax(t, 1, out=(y, z))",
    T + "y = torch.empty(0); r = torch.cummax(t, 1, out=(y,))",
    T + "y = torch.empty(0); r = torch.cummax(t, 1, out=y)",
])
def test_cummax_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "z"))


def test_the_namedtuple_is_torchs():
    assert_like_torch(lambda lib: repr(lib.cummax(lib.tensor([1, 3, 2]), 0)))
    assert_like_torch(lambda lib: repr(lib.cummax(
        lib.tensor([1., 3.]), 0, out=(lib.empty(0), lib.empty(0, dtype=lib.long)))))


@given(dtype=st.sampled_from(["float32", "float64", "float16", "int64", "uint8", "bool"]),
       rows=st.integers(1, 4), values=st.lists(st.sampled_from(
           [0.0, -0.0, 1.0, 2.0, -3.0, float("nan"), float("inf"), -float("inf"), 2.0]),
           min_size=1, max_size=24),
       dim=st.integers(-2, 1), strided=st.booleans(), out=st.booleans())
@settings(max_examples=examples(80), deadline=None)
def test_ties_nans_and_layouts_give_torchs_bits(dtype, rows, values, dim, strided, out):
    def program(lib):
        cols = -(-len(values) // rows)
        data = (values * rows * cols)[:rows * cols]
        t = lib.tensor(data, dtype=lib.float64).reshape(rows, cols)
        t = t.to(getattr(lib, dtype)) if dtype != "bool" else t != 0
        if strided:
            t = t.t()
        if out:
            o = (lib.empty(0, dtype=t.dtype), lib.empty(0, dtype=lib.long))
            return tuple(lib.cummax(t, dim, out=o))
        return tuple(t.cummax(dim))
    assert_like_torch(program)
