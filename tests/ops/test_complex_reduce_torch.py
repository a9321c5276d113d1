"""sum, mean and cumsum of complex64/complex128 tensors against torch 2.13: values bit for
bit (a c10::complex adds its two parts each in IEEE, so SumKernel.cpp's cascade over
Vectorized<c10::complex<T>> -- 4 complex64 or 2 complex128 to a 32-byte vector, in the
DEFAULT and the AVX2 build alike -- replays exactly; cumsum accumulates in
complex<double>), dtypes, errors word for word and the aten operators torch.profiler
records; the cascade's bits under every CPU capability this machine runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from engine.core.errors import Refused
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

Z = "z = torch.tensor([[1 + 2j, 3 - 1e-7j, -0.5j], [5j, 6e7, -2.25 + 1e-5j]])"


@pytest.mark.fast
@pytest.mark.parametrize("statements", [
    [Z, "y = z.sum()"], [Z, "y = torch.sum(z, 0)"], [Z, "y = z.sum(1, keepdim=True)"],
    [Z, "y = z.sum((0, 1))"], [Z, "y = z.t().sum(0)"], [Z, "y = z[:, ::2].sum()"],
    [Z, "y = z.sum(dtype=torch.complex128)"], [Z, "y = z.double().sum(1)"],
    [Z, "y = z.sum(dtype=torch.float32)"], [Z, "y = z.sum(dtype=torch.int64)"],
    ["y = torch.arange(5).sum(dtype=torch.complex64)"],
    ["y = torch.ones(3, 2).sum(0, dtype=torch.complex128)"],
    ["y = torch.zeros(0, 3, dtype=torch.complex64).sum(0)"],
    ["y = torch.tensor(2 - 3j).sum()"],
    [Z, "y = z.mean()"], [Z, "y = z.mean(0)"], [Z, "y = torch.mean(z, 1, keepdim=True)"],
    [Z, "y = z.t().mean(1)"], [Z, "y = z.mean(dtype=torch.complex128)"],
    [Z, "y = z.mean(dtype=torch.float64)"], [Z, "y = z.mean(dtype=torch.int64)"],
    ["y = torch.arange(4.).mean(dtype=torch.complex64)"],
    ["y = torch.arange(4).mean(dtype=torch.complex64)"],
    ["y = torch.zeros(0, dtype=torch.complex64).mean()"],
    ["y = torch.tensor([complex(float('inf'), 1), 2j]).mean()"],
    ["y = torch.tensor([complex(float('nan'), 1), 2j, 1]).sum()"],
    [Z, "y = z.cumsum(1)"], [Z, "y = torch.cumsum(z, 0)"], [Z, "y = z.t().cumsum(-1)"],
    [Z, "y = z.cumsum(1, dtype=torch.complex128)"], [Z, "y = z.cumsum_(0)"],
    [Z, "y = z.cumsum_(0, dtype=torch.complex128)"],
    [Z, "o = torch.empty(0, dtype=torch.complex64)", "y = torch.cumsum(z, 1, out=o)"],
    [Z, "o = torch.empty(0)", "y = torch.cumsum(z, 1, out=o)"],
    ["y = torch.arange(4).cumsum(0, dtype=torch.complex64)"],
    ["y = torch.tensor(1 + 1j).cumsum(0)"],
    # the conjugate bit resolved by the fallback (a clone), sum and mean recorded again
    [Z, "y = z.conj().sum()"], [Z, "y = z.conj().mean()"], [Z, "y = z.conj().sum(0)"],
    [Z, "y = z.conj().mean(1)"], [Z, "y = z.conj().sum(dtype=torch.complex128)"],
    [Z, "y = z.conj().cumsum(1)"], [Z, "y = z.conj().angle()"],
    # the accumulator starts at +0: a leading -0.0 comes out +0.0 (floats as complex)
    ["y = torch.tensor([-0.0, 1.]).cumsum(0)"], ["y = torch.tensor([-0.0]).cumsum(0)"],
])
def test_complex_reductions_are_torchs(statements):
    assert_like_torch(statements)


def _literal(values: np.ndarray) -> str:
    return "[" + ", ".join(f"complex({float(v.real)!r}, {float(v.imag)!r})"
                           for v in values.reshape(-1)) + "]"


@pytest.mark.fast
@settings(max_examples=examples(60), deadline=None)
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3), double=st.booleans(),
       seed=st.integers(0, 2**32 - 1), dims=st.sets(st.integers(-3, 2), max_size=2),
       keepdim=st.booleans(), view=st.sampled_from(["z", "z.transpose(0, -1)", "z.flip(0)",
                                                     "z[::2]", "z[..., 1:]"]),
       op=st.sampled_from(["sum", "mean", "cumsum", "prod", "cumprod", "prod_all"]))
def test_any_complex_reduction_is_torchs(shape, double, seed, dims, keepdim, view, op):
    """Every shape, dim, view and both dtypes: bits, layout and errors (a dim out of range,
    a repeated one) as torch's."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    values = rng.standard_normal(n) * 10.0 ** rng.integers(-4, 8, n) \
        + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-4, 8, n)
    dtype = "torch.complex128" if double else "torch.complex64"
    make = f"z = torch.tensor({_literal(values)}, dtype={dtype}).view({tuple(shape)})"
    if op in ("cumsum", "cumprod"):
        call = f"y = ({view}).{op}({min(dims) if dims else 0})"
    elif op == "prod":
        call = f"y = ({view}).prod({min(dims) if dims else 0}, keepdim={keepdim})"
    elif op == "prod_all":
        call = f"y = ({view}).prod()"
    else:
        call = f"y = ({view}).{op}({tuple(sorted(dims))}, keepdim={keepdim})"
    try:
        assert_like_torch([make, call])
    except Refused as refusal:
        # the one complex64 prod tidx refuses under an FMA build: several rows of a
        # tensor that is not one contiguous run into one value (engine/ops/complex_product.py)
        assert "not one contiguous run" in str(refusal) and not double, refusal
        assume(False)


RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


def run(torch, case: tuple) -> list:
    """A complex sum whose order matters: magnitudes across 12 decades, so every
    regrouping of the cascade's partial sums changes the last bits."""
    dtype, shape, dim, layout, seed = case
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    re = rng.standard_normal(n) * 10.0 ** rng.integers(-4, 8, n)
    im = rng.standard_normal(n) * 10.0 ** rng.integers(-4, 8, n)
    real = torch.float64 if dtype == "complex128" else torch.float32
    t = torch.view_as_complex(torch.tensor(np.stack([re, im], 1).tolist(), dtype=real))
    t = t.view(shape)
    if layout == "t":
        t = t.t()
    elif layout == "step":
        t = t[:, ::2]
    r = t.sum() if dim is None else t.sum(dim)
    r = torch.view_as_real(r.reshape(-1)).reshape(-1)
    return [float.hex(float(v)) for v in r.tolist()]


CASES = [(dtype, shape, dim, layout, seed)
         for dtype in ("complex64", "complex128")
         for shape, dim, layout, seed in (((3, 37), None, "", 1), ((37, 3), 0, "", 2),
                                          ((9, 70), 1, "t", 3), ((20, 50), 0, "step", 4),
                                          ((200, 300), None, "", 5), ((300, 200), 1, "t", 6),
                                          ((1, 70001), None, "", 7), ((70001, 1), 0, "", 8))]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=str)
def test_complex_sum_bits_under_every_capability(workers, case):
    """Both sides under each capability: the cascade's lanes, its 2-d blocks and, past
    GRAIN_SIZE, the threads' two-pass split, as torch's."""
    for cap, worker in workers.items():
        ours = under_capability(cap, run, engine, case)
        assert ours == worker.call("ops.test_complex_reduce_torch", "run", case), cap


# -- angle -------------------------------------------------------------------------------------
@pytest.mark.fast
@pytest.mark.parametrize("statements", [
    [Z, "y = torch.angle(z)"], [Z, "y = z.angle()"], [Z, "y = z.t().angle()"],
    [Z, "y = z.double().angle()"], [Z, "y = z[:, ::2].angle()"],
    [Z, "o = torch.empty(0)", "y = torch.angle(z, out=o)"],
    [Z, "o = torch.empty(0, dtype=torch.float64)", "y = torch.angle(z, out=o)"],
    [Z, "o = torch.empty(0, dtype=torch.float16)", "y = torch.angle(z, out=o)"],
    [Z, "o = torch.empty(0, dtype=torch.complex64)", "y = torch.angle(z, out=o)"],
    [Z, "o = torch.empty(0, dtype=torch.int64)", "y = torch.angle(z, out=o)"],
    [Z, "o = torch.empty(2, 3)", "y = torch.angle(z, out=o)"],
    ["y = torch.tensor([1., -2, float('nan'), -0.0, 0, float('-inf')]).angle()"],
    ["y = torch.tensor([1., -2, -0.0], dtype=torch.float64).angle()"],
    ["y = torch.tensor([1., -2, -0.0], dtype=torch.float16).angle()"],
    ["y = torch.angle(torch.tensor([1, -2, 0]))"],
    ["y = torch.angle(torch.tensor([1, -2], dtype=torch.int8))"],
    ["y = torch.angle(torch.tensor([True, False]))"],
    ["y = torch.angle(torch.tensor(-3.))"],
    ["o = torch.empty(0, dtype=torch.int64)", "y = torch.angle(torch.tensor([1, -2]), out=o)"],
    ["o = torch.empty(2, dtype=torch.float64)", "y = torch.angle(torch.tensor([1., -2]), out=o)"],
    ["o = torch.empty(2, dtype=torch.complex64)",
     "y = torch.angle(torch.tensor([1., -2]), out=o)"],
    ["y = torch.tensor([complex(0., 0.), complex(-0., 0.), complex(-0., -0.), complex(0., -0.),"
     " complex(float('inf'), float('inf')), complex(float('-inf'), 1),"
     " complex(float('nan'), 1), complex(1, float('nan'))]).angle()"],
    ["y = torch.zeros(0, dtype=torch.complex128).angle()"],
    ["x = torch.ones(3, requires_grad=True)", "y = torch.angle(x)"],
])
def test_angle_is_torchs(statements):
    """Values (the real path bit for bit; the complex ones here are atan2's exactly
    rounded cases), dtypes, the out= casts and errors, and the profiler's tree:
    ``angle > empty, angle.out > empty, angle, real, copy_`` for a complex input."""
    assert_like_torch(statements)


def run_angle(torch, case: tuple) -> list:
    dtype, n, layout, seed = case
    rng = np.random.default_rng(seed)
    re = rng.standard_normal(n) * 10.0 ** rng.uniform(-5, 5, n)
    im = rng.standard_normal(n) * 10.0 ** rng.uniform(-5, 5, n)
    real = torch.float64 if dtype == "complex128" else torch.float32
    t = torch.view_as_complex(torch.tensor(np.stack([re, im], 1).tolist(), dtype=real))
    if layout == "step":
        t = t[::2]
    elif layout == "tail":
        t = t[:7]
    return [float.hex(float(v)) for v in torch.angle(t).tolist()]


def _ulps(a: list, b: list, dtype: str) -> int:
    f, i = (np.float64, np.int64) if dtype == "complex128" else (np.float32, np.int32)
    x = np.array([float.fromhex(v) for v in a], f).view(i).astype(np.int64)
    y = np.array([float.fromhex(v) for v in b], f).view(i).astype(np.int64)
    return int(np.abs(x - y).max()) if len(a) else 0


@pytest.mark.slow
@pytest.mark.parametrize("case", [(dtype, n, layout, seed)
                                  for dtype in ("complex64", "complex128")
                                  for n, layout, seed in ((20000, "", 1), (20000, "step", 2),
                                                          (20, "tail", 3))], ids=str)
def test_complex_angle_within_its_bound_under_every_capability(workers, case):
    """Sleef's atan2 in the body, glibc's in the tail: within the note's 2 ulp."""
    from engine.ops.angle import ULPS

    for cap, worker in workers.items():
        ours = under_capability(cap, run_angle, engine, case)
        theirs = worker.call("ops.test_complex_reduce_torch", "run_angle", case)
        assert _ulps(ours, theirs, case[0]) <= ULPS, cap


def test_the_angle_kernel_says_whose_atan2_and_how_far():
    """The complex kernel step carries math.within_ulps (so --verify compares within 2
    ulp); the real one its own exact note."""
    from engine.interpreter import session

    def notes(text):
        doc = session.run(text)
        return {e.get("note_id") for s in doc["statements"] for e in _walk(s["events"])}
    assert "math.within_ulps" in notes("z = torch.tensor([1 + 2j]); y = z.angle()")
    found = notes("y = torch.tensor([1., -2.]).angle()")
    assert "angle.real" in found and "math.within_ulps" not in found


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children", []))


@pytest.mark.fast
@settings(max_examples=examples(40), deadline=None)
@given(values=st.lists(st.one_of(st.floats(allow_nan=True, width=32), st.integers(-5, 5)),
                       min_size=1, max_size=12),
       dtype=st.sampled_from(["float32", "float64", "float16", "int64", "int16", "bool"]),
       view=st.sampled_from(["x", "x[::2]", "x.flip(0)"]))
def test_real_angle_is_torchs(values, dtype, view):
    """0, pi or NaN for every real dtype, an integer or bool one in the default float."""
    literal = "[" + ", ".join(f"float('{float(v)!r}')" for v in values) + "]"
    assert_like_torch([f"x = torch.tensor({literal}).to(torch.{dtype})",
                       f"y = ({view}).angle()"])


# -- prod --------------------------------------------------------------------------------------
W = "w = torch.tensor([[1 + 2j, 3 - 1e-7j, -0.5j], [5j, 6e7, -2.25 + 1e-5j]], dtype=torch.complex128)"


@pytest.mark.fast
@pytest.mark.parametrize("statements", [
    [W, "y = w.prod()"], [W, "y = w.prod(0)"], [W, "y = torch.prod(w, 1, keepdim=True)"],
    [W, "y = w.t().prod(1)"], [W, "y = w.conj().prod()"],
    ["y = torch.zeros(0, dtype=torch.complex128).prod()"],
    ["y = torch.arange(1, 5).prod(dtype=torch.complex128)"],
])
def test_complex128_prod_is_torchs(statements):
    assert_like_torch(statements)


def run_prod(torch, case: tuple) -> list:
    dtype, shape, dim, layout, seed = case
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    mag = rng.uniform(0.5, 2, n)
    phase = rng.uniform(-3, 3, n)
    real = torch.float64 if dtype == "complex128" else torch.float32
    t = torch.view_as_complex(torch.tensor(np.stack([mag * np.cos(phase), mag * np.sin(phase)],
                                                    1).tolist(), dtype=real)).view(shape)
    if layout == "t":
        t = t.t()
    elif layout == "s":                         # strided: basic_loop's path
        t = t[::2]
    r = t.prod() if dim is None else t.prod(dim)
    r = torch.view_as_real(r.reshape(-1)).reshape(-1)
    return [float.hex(float(v)) for v in r.tolist()]


PROD_CASES = [(dtype, shape, dim, layout, seed)
              for dtype in ("complex64", "complex128")
              for shape, dim, layout, seed in (
                  ((17,), None, "", 1), ((39,), None, "", 2), ((16,), None, "", 7),
                  ((64,), None, "", 8), ((7, 37), None, "", 3), ((37, 7), 0, "", 4),
                  ((9, 33), 1, "t", 5), ((33, 20), 0, "", 6), ((5, 48), 1, "", 9),
                  ((48, 5), 0, "t", 10), ((3, 100), 1, "", 11), ((40,), None, "s", 12),
                  ((34, 6), 0, "s", 13))]


@pytest.mark.parametrize("case", [c for c in PROD_CASES if c[4] in (1, 8)] +
                         [pytest.param(c, marks=pytest.mark.slow) for c in PROD_CASES
                          if c[4] not in (1, 8)], ids=str)
def test_complex_prod_bits_under_every_capability(workers, case):
    """Bit for bit under every capability: complex128's fused multiply-adds, and
    complex64's, whose lanes' fold GCC fuses but for its last product (the case that
    was refused until measured)."""
    for cap, worker in workers.items():
        theirs = worker.call("ops.test_complex_reduce_torch", "run_prod", case)
        assert under_capability(cap, run_prod, engine, case) == theirs, cap


def test_complex64_prod_of_rows_into_one_value_refused_under_fma_replayed_in_default(workers):
    """A complex64 prod of a tensor that is not one contiguous run, into one value: its
    rows' roundings under the AVX2 build are unknown to tidx and refused in one line; the
    DEFAULT build's (every product rounded apart) are replayed."""
    from engine.core.errors import Refused

    case = ("complex64", (34, 17), None, "s", 14)
    for cap, worker in workers.items():
        theirs = worker.call("ops.test_complex_reduce_torch", "run_prod", case)
        if cap == "default":
            assert under_capability(cap, run_prod, engine, case) == theirs
        else:
            with pytest.raises(Refused, match="not one contiguous run"):
                under_capability(cap, run_prod, engine, case)
