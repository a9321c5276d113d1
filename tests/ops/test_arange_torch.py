"""torch.arange against real torch, bit for bit: every dtype (int64's own size
arithmetic, which wraps; the accumulate type, float for float16), Python ints and
floats as bounds, wrong ones too, and sizes past at::parallel_for's grain, where each
thread's chunk starts its own vectorised loop."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from oracle import assert_like_torch, outcome

pytestmark = pytest.mark.torch

DTYPES = ["int64", "int32", "int16", "uint8", "float16", "float32", "float64", "bool", None]

NUMBERS = st.one_of(
    st.integers(-300, 300), st.floats(-300, 300, allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 0.0, 2**62, 2**63 - 1, 2**63, -2**63, 1e30, float("inf"),
                     -float("inf"), 10**12, 0.5, -0.5]))


def arange(lib, args, dtype):
    kw = {} if dtype is None else {"dtype": getattr(lib, dtype)}
    return lib.arange(*args, **kw)


def check(args, dtype):
    # past tidx's memory limit (arange(10**12)) tidx refuses; torch would allocate
    assume(outcome(engine, arange, args, dtype)[0] != "refused")
    assert_like_torch(arange, args, dtype)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(args=st.lists(NUMBERS, min_size=1, max_size=3), dtype=st.sampled_from(DTYPES))
@example(args=[0, 2.5], dtype="int64")       # int64 converts the bounds first: [0, 1]
@example(args=[0, 2.5], dtype="int32")       # the others count in double: [0, 1, 2]
@example(args=[0, 3, 0.5], dtype="int64")    # a step that truncates to 0: ValueError
@example(args=[2**63 - 1], dtype=None)       # 2**63 as a double, cast to INT64_MIN
@example(args=[-2**63, 2**63 - 1, 2**62], dtype=None)   # the size arithmetic wraps
@example(args=[0, 1e300], dtype="float16")   # the size first, then the float conversion
@example(args=[1e39, 1e40, 1e38], dtype="float16")   # ... after the resize, in the kernel
@example(args=[2.0, 2.0], dtype="bool")      # no arange for bool at all
def test_small_aranges_like_torch(args, dtype):
    check(args, dtype)


@pytest.mark.parametrize("start, step, count, dtype", [
    (0, 1, 70000, "float16"), (0, 0.1, 70000, "float16"), (-3.3, 0.013, 70000, "float32"),
    (0, 0.7, 70000, "float32"), (0, 0.1, 40000, "float64"), (0, 1, 70000, "int32"),
])
def test_aranges_past_the_grain_like_torch(start, step, count, dtype):
    check([start, start + count * step, step], dtype)
