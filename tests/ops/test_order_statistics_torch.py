"""median, nanmedian and mode (engine/ops/order_stats.py) compared with torch 2.13: values
and indices bit for bit (which of tied elements is returned: median's earlier index,
nanmedian's index over a row of NaNs where nth_element's partitioning leaves it, mode's
index where std::sort's introsort leaves the run's last element; which zero, -0.0 or 0.0,
a whole-tensor median returns), layouts, the out= forms, errors word for word, and the
aten operators torch.profiler records (median > empty, empty, median > unsqueeze ...,
transpose_ and contiguous when the reduced dim is not contiguous; mode's unsqueeze_ and
squeeze_)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

NAN = "float('nan')"
T = f"t = torch.tensor([[3., 1., 2., 1.], [5., 5., 4., 4.], [{NAN}, 1., {NAN}, 0.]]); "


@pytest.mark.parametrize("statements", [
    T + "y = t.median()",
    T + "y = t[:2].median()",
    T + "y = t.nanmedian()",
    T + "r = t.median(1); y = r.values; z = r.indices",
    T + "r = t.nanmedian(1); y = r.values; z = r.indices",
    T + "r = torch.median(t, 0, keepdim=True); y = r.values; z = r.indices",
    T + "r = torch.nanmedian(t, dim=0); y = r[0]; z = r[1]",
    T + "r = t.t().median(1); y = r.values; z = r.indices",
    T + "r = t.median(-1, True); y = r.values; z = r.indices",
    T + "y = torch.empty(0); z = torch.empty(0, dtype=torch.long); "
        "r = torch.median(t, 1, out=(y, z))",
    T + "y = torch.empty(5); z = torch.empty(5, dtype=torch.long); "
        "r = torch.nanmedian(t, 0, out=(y, z))",
    T + "r = t.mode(1); y = r.values; z = r.indices",
    T + "r = t.mode(); y = r.values; z = r.indices",
    T + "r = torch.mode(t, 0, keepdim=True); y = r.values; z = r.indices",
    T + "y = torch.empty(5); z = torch.empty(5, dtype=torch.long); "
        "r = torch.mode(t, 1, out=(y, z))",
    "t = torch.tensor(3.5); r = t.median(0); y = r.values; z = r.indices",
    "t = torch.tensor(3.5); r = t.mode(); y = r.values; z = r.indices",
    "t = torch.tensor(3.5); y = t.median()",
    "t = torch.zeros(0); y = t.median()",
    "t = torch.zeros(0, dtype=torch.int8); y = t.nanmedian()",
    "t = torch.zeros(0, 3); r = t.median(1); y = r.values; z = r.indices",
    "t = torch.zeros(0, 3); r = t.mode(1, keepdim=True); y = r.values; z = r.indices",
    f"t = torch.tensor([{NAN}] * 7); r = t.nanmedian(0); y = r.values; z = r.indices",
    f"t = torch.tensor([{NAN}] * 30); r = t.nanmedian(0); y = r.values; z = r.indices",
    f"t = torch.tensor([{NAN}] * 3); y = t.nanmedian()",
    "t = torch.tensor([-0., 0., -0., 0., 0.]); y = t.median()",
    "t = torch.tensor([0., -0., 0., -0., -0.]); y = t.median()",
    "t = torch.tensor([0., -0., 0., -0., -0.] * 5); y = t.nanmedian()",
    "t = torch.tensor([0., -0., 0., -0.]); r = t.mode(); y = r.values; z = r.indices",
    f"t = torch.tensor([{NAN}, 1., {NAN}, 1.]); r = t.mode(); y = r.values; z = r.indices",
    "t = torch.tensor([True, False, True]); r = t.mode(); y = r.values; z = r.indices",
    "t = torch.tensor([3, 1, 2], dtype=torch.int8); y = t.median()",
    "t = torch.tensor([1., 2.], dtype=torch.half); r = t.median(0); y = r.values; z = r.indices",
    # errors
    "t = torch.tensor([True]); y = t.median()",
    "t = torch.tensor([True]); r = t.median(0)",
    "t = torch.tensor([True]); r = t.nanmedian(0)",
    "t = torch.zeros(0, 3); r = t.median(0)",
    "t = torch.zeros(0, 3); r = t.mode(0)",
    "t = torch.zeros(0); r = t.mode()",
    "t = torch.tensor([1., 2.]); r = t.median(2)",
    "t = torch.tensor([1., 2.]); r = t.mode(2)",
    "t = torch.tensor([1., 2.]); r = t.median(0, out=(torch.empty(0), torch.empty(0)))",
    "t = torch.tensor([1., 2.]); r = torch.median(t, 0, out=(torch.empty(0), "
    "torch.empty(0, dtype=torch.int)))",
    "t = torch.tensor([1., 2.]); r = torch.median(t, 0, out=(torch.empty(0, "
    "dtype=torch.double), torch.empty(0, dtype=torch.long)))",
    "t = torch.tensor([1., 2.]); r = torch.mode(t, 0, out=(torch.empty(0, "
    "dtype=torch.double), torch.empty(0, dtype=torch.long)))",
    "t = torch.tensor([1., 2.]); r = torch.mode(t, 0, out=(torch.empty(0), "
    "torch.empty(0, dtype=torch.int)))",
    "t = torch.tensor([1., 2.]); y = torch.median(t, out=torch.empty(0))",
])
def test_order_statistics_are_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "z"))


def test_the_namedtuples_are_torchs():
    assert_like_torch(lambda lib: repr(lib.median(lib.tensor([1, 3, 2]), 0)))
    assert_like_torch(lambda lib: repr(lib.tensor([1., 3.]).mode()))
    assert_like_torch(lambda lib: repr(lib.nanmedian(
        lib.tensor([1., 3.]), 0, out=(lib.empty(0), lib.empty(0, dtype=lib.long)))))


VALUES = [0.0, -0.0, 1.0, 2.0, -3.0, float("nan"), float("inf"), 2.0, 1.0]


@given(dtype=st.sampled_from(["float32", "float64", "float16", "int64", "uint8", "int16"]),
       rows=st.integers(1, 4), values=st.lists(st.sampled_from(VALUES), min_size=1,
                                               max_size=40),
       dim=st.integers(-2, 1), keepdim=st.booleans(), strided=st.booleans(),
       op=st.sampled_from(["median", "nanmedian", "mode"]), out=st.booleans())
@settings(max_examples=examples(120), deadline=None)
def test_ties_nans_and_layouts_give_torchs_bits(dtype, rows, values, dim, keepdim, strided,
                                                op, out):
    def program(lib):
        cols = -(-len(values) // rows)
        data = (values * rows * cols)[:rows * cols]
        t = lib.tensor(data, dtype=lib.float64).reshape(rows, cols)
        t = t.to(getattr(lib, dtype)) if dtype.startswith("float") else \
            t.nan_to_num(7.0).abs().to(getattr(lib, dtype))
        if strided:
            t = t.t()
        if out:
            o = (lib.empty(0, dtype=t.dtype), lib.empty(0, dtype=lib.long))
            return tuple(getattr(lib, op)(t, dim, keepdim, out=o))
        return tuple(getattr(t, op)(dim, keepdim))
    assert_like_torch(program)


@given(values=st.lists(st.sampled_from(VALUES), min_size=1, max_size=60),
       dtype=st.sampled_from(["float32", "float64", "float16"]),
       op=st.sampled_from(["median", "nanmedian"]))
@settings(max_examples=examples(80), deadline=None)
def test_whole_tensor_medians_give_torchs_bits(values, dtype, op):
    assert_like_torch(lambda lib: getattr(lib.tensor(values, dtype=getattr(lib, dtype)), op)())


@given(n=st.integers(1, 300), distinct=st.integers(1, 6))
@settings(max_examples=examples(40), deadline=None)
def test_mode_of_long_rows_with_ties_follows_the_introsort(n, distinct):
    """Past 16 elements std::sort is not stable: the mode's index is where its
    partitioning leaves the run's last element."""
    assert_like_torch(lambda lib: tuple(
        (lib.arange(n * 7) % distinct).reshape(7, n).mode(1)))
