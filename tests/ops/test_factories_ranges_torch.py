"""torch.linspace, torch.logspace and torch.range against real torch 2.13: the values bit
for bit, dtype, layout, the errors, and the operator tree.

Hypothesis draws start/end widely (integers, floats, 0-dim tensors of any dtype), steps
(0, 1, negative, large), the dtype (float32/float64/float16/int64/uint8/bool ...), base,
the device, out= tensors, and wrong arguments; tidx and torch must agree exactly.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples, require_torch
from engine.core.context import current
from oracle import assert_like_torch, outcome

pytestmark = pytest.mark.torch

DTYPES = [None, "float32", "float64", "float16", "int64", "uint8", "int32", "int8", "int16",
          "bool"]

#: What tidx refuses to run, by a word of its reason.
REFUSED = ("SIGFPE", "out= a meta tensor", "complex", "memory limit",
           # torch 2.13 runs Python meta functions there (tests/ops/test_meta_python.py)
           "runs a Python meta function", "meta tensor beside a CPU tensor")


@pytest.fixture(autouse=True)
def small_memory_limit():
    """tidx refuses results above 64 MiB here, so a drawn range of billions of elements
    is refused before torch is asked to allocate it."""
    ctx = current()
    saved, ctx.max_bytes = ctx.max_bytes, 1 << 26
    yield
    ctx.max_bytes = saved

numbers = st.one_of(
    st.integers(-300, 300),
    st.integers(-(2**40), 2**40),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-10, 10, allow_nan=False),
    st.sampled_from([0, 1, -1, 0.5, 2.5, 1e30, -1e30, float("inf"), float("nan"), 255, 256,
                     True, 65504.0, 1e5, 2**63 - 1, -(2**63)]))


@st.composite
def endpoint(draw):
    """A Python number, or a tensor of it (0-dim, or 1-dim to be refused)."""
    value = draw(numbers)
    kind = draw(st.sampled_from(["number"] * 4 + ["tensor", "tensor1d"]))
    tdtype = draw(st.sampled_from(["float32", "float64", "int64"]))
    return kind, value, tdtype


@st.composite
def cases(draw):
    op = draw(st.sampled_from(["linspace", "linspace", "logspace", "range"]))
    start, end = draw(endpoint()), draw(endpoint())
    steps = draw(st.one_of(st.integers(0, 6), st.integers(0, 3000), st.integers(-3, -1),
                           st.sampled_from([2.5, "3", None, 70000])))
    dtype = draw(st.sampled_from(DTYPES))
    base = draw(st.one_of(st.sampled_from([None, 2, 10.0, 0.5, -2.0, 0, 1.5, "e"]),
                          st.floats(-20, 20, allow_nan=False)))
    step = draw(st.one_of(st.sampled_from([None, 1, 0, -1, 0.5, -0.25, 3]),
                          st.floats(-50, 50, allow_nan=False)))
    device = draw(st.sampled_from([None, None, None, "meta"]))
    out = draw(st.sampled_from([None, None, None, "empty", "strided", "meta"]))
    keywords = draw(st.booleans())
    return op, start, end, steps, dtype, base, step, device, out, keywords


def _value(lib, endpoint):
    kind, value, tdtype = endpoint
    if kind == "number" or isinstance(value, bool):
        return value
    try:
        t = lib.tensor(value, dtype=getattr(lib, tdtype))
    except Exception:   # noqa: BLE001 - not representable: use the number
        return value
    return t.reshape(1) if kind == "tensor1d" else t


def bits(r):
    """The result's bytes: every bit, a NaN's sign and payload too."""
    return None if str(r.device) == "meta" else r.numpy().tobytes().hex()


def ranged(lib, op, start, end, steps, dtype, base, step, device, out, keywords):
    """The range a case makes (its bits, and its values and layout)."""
    a, b = _value(lib, start), _value(lib, end)
    kwargs = {}
    if dtype is not None:
        kwargs["dtype"] = getattr(lib, dtype)
    if device is not None:
        kwargs["device"] = device
    if out is not None:
        odt = getattr(lib, dtype or "float32")
        kwargs.pop("dtype", None)
        kwargs.pop("device", None)
        kwargs["out"] = (lib.empty(4, dtype=odt) if out == "empty" else
                         lib.empty(12, dtype=odt)[::3] if out == "strided" else
                         lib.empty(2, dtype=odt, device="meta"))
    if op == "range":
        args = [a, b] + ([] if step is None else [step])
        if keywords:
            r = lib.range(start=a, end=b, **({} if step is None else {"step": step}),
                          **kwargs)
        else:
            r = lib.range(*args, **kwargs)
    else:
        fn = getattr(lib, op)
        extra = {} if (op == "linspace" or base is None) else {"base": base}
        if keywords:
            r = fn(start=a, end=b, steps=steps, **extra, **kwargs)
        else:
            r = fn(a, b, steps, *extra.values(), **kwargs)
    return bits(r), r


@settings(max_examples=examples(400), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_ranges_match_torch(case):
    torch = require_torch()
    ours = outcome(engine, ranged, *case)
    if ours[0] == "refused":
        # the forms tidx refuses (torch would crash, or runs a Python decomposition):
        # never asked of torch, which would kill the test process with SIGFPE
        assert any(why in ours[1] for why in REFUSED), ours
        return
    assert ours == outcome(torch, ranged, *case)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["float32", "float64", "float16", "int64", "uint8"]),
       st.floats(-1e4, 1e4, allow_nan=False, width=32),
       st.floats(-1e4, 1e4, allow_nan=False, width=32),
       st.integers(2, 5000))
def test_linspace_bit_exact(dtype, start, end, steps):
    """linspace's two halves, bit for bit, over wide starts, ends and step counts."""
    if dtype == "uint8":
        start, end = abs(start) % 256, abs(end) % 256
    assert_like_torch(ranged, "linspace", ("number", start, ""), ("number", end, ""), steps,
                      dtype, None, None, None, None, False)


@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["float32", "float64", "float16", "int64", "uint8"]),
       st.floats(-5, 5, allow_nan=False), st.floats(-5, 5, allow_nan=False),
       st.integers(2, 400), st.sampled_from([10.0, 2.0, 2.718281828459045, 0.5, 3.0]))
def test_logspace_bit_exact(dtype, start, end, steps, base):
    assert_like_torch(ranged, "logspace", ("number", start, ""), ("number", end, ""), steps,
                      dtype, base, None, None, None, False)


@pytest.mark.parametrize("statements", [
    ["y = torch.linspace(0, 1, 5)"],
    ["y = torch.linspace(0, 1, 1)"],
    ["y = torch.linspace(0, 1, 0)"],
    ["y = torch.linspace(-1, 1, steps=7, dtype=torch.float64)"],
    ["y = torch.linspace(0, 10, 5, dtype=torch.int64)"],
    ["y = torch.linspace(torch.tensor(0), torch.tensor(1.), 5)"],
    ["y = torch.linspace(torch.tensor(0.5), 2, 3)"],
    ["y = torch.linspace(0, torch.tensor([1.]), 3)"],
    ["y = torch.linspace(0, 1, -1)"],
    ["y = torch.linspace(0, 1, 3, dtype=torch.bool)"],
    ["y = torch.linspace(0, 1, 3, device='meta')"],
    ["o = torch.empty(2)", "y = torch.linspace(0, 1, 5, out=o)"],
    ["o = torch.empty(10)[::2]", "y = torch.linspace(0, 1, 5, out=o)"],
    ["y = torch.logspace(0, 2, 3)"],
    ["y = torch.logspace(0, 2, 1)"],
    ["y = torch.logspace(0, 3, 4, base=2)"],
    ["y = torch.logspace(torch.tensor(0.), 3, 4, 2)"],
    ["y = torch.logspace(0, 1, 3, dtype=torch.bool)"],
    ["s = torch.tensor(3)", "y = torch.linspace(0, 1, s)"],
    ["b = torch.tensor(2.)", "y = torch.logspace(0, 1, 3, base=b)"],
    ["y = torch.range(torch.tensor(1), 3)"],
    ["y = torch.range(0, 3)"],
    ["y = torch.range(0, 5, 2, dtype=torch.int64)"],
    ["y = torch.range(1, 0, -0.25)"],
    ["y = torch.range(0, 3, -1)"],
    ["y = torch.range(0, 3, device='meta')"],
])
def test_ranges_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)
