"""engine.rng against real torch 2.13: every value bit for bit.

torch is the oracle.  The default capability of this machine (AVX2 or
AVX512, which run the same AVX2 kernels) is compared in process; the
DEFAULT kernels are compared against a torch subprocess started with
``ATEN_CPU_CAPABILITY=default``.  ``TIDX_RNG_EXHAUSTIVE=1`` widens the
building-block checks to all 2^24 inputs the float32 kernels can see.
"""

from __future__ import annotations

import math
import os
import pickle
import struct
import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import avx2_reference
from conftest import examples
from engine.rng import distributions as rng
from engine.rng import fp as rng_fp
from engine.rng import libm as rng_libm
from engine.rng import normal_fill as rng_normal

pytestmark = pytest.mark.torch

SEEDS = st.one_of(st.integers(-2 ** 63, 2 ** 64 - 1), st.integers(0, 1000))
SIZES = st.one_of(st.integers(0, 40), st.integers(0, 3000),
                  st.sampled_from([16, 17, 31, 32, 33, 48, 1000, 4095]))
DTYPES = st.sampled_from([(np.float32, torch.float32),
                          (np.float64, torch.float64)])
# Finite, moderate parameters (torch requires std >= 0).
MEANS = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
STDS = st.floats(0.0, 1e3, allow_nan=False, allow_infinity=False)
# TIDX_RNG_EXAMPLES=N runs N examples per main property (default 120; TIDX_LONG=1
# multiplies it like every example count).
EXAMPLES = examples(int(os.environ.get("TIDX_RNG_EXAMPLES", "120")))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def same_bits(ours: np.ndarray, theirs: torch.Tensor | np.ndarray) -> bool:
    """Equal dtype, shape and bytes (so -0.0 != 0.0 and NaNs compare)."""
    t = theirs.numpy() if isinstance(theirs, torch.Tensor) else theirs
    return (ours.dtype == t.dtype and ours.shape == t.shape
            and ours.tobytes() == t.tobytes())


def assert_bits(ours: np.ndarray, theirs: torch.Tensor) -> None:
    """Equal raw bits (``view(int)``) and signs, naming the first element that differs."""
    itype = {torch.float32: torch.int32, torch.float64: torch.int64}[theirs.dtype]
    want = theirs.contiguous().view(itype).numpy()
    got = ours.view(want.dtype)
    assert got.shape == want.shape
    differ = np.flatnonzero(got != want)
    assert differ.size == 0, (
        f"{differ.size} of {got.size} differ; first at {differ[0]}: "
        f"tidx {ours[differ[0]]!r} ({got[differ[0]]:#x}), "
        f"torch {theirs.reshape(-1)[differ[0]].item()!r} ({want[differ[0]]:#x})")
    assert np.array_equal(np.signbit(ours), torch.signbit(theirs).numpy())


def torch_state(g: torch.Generator | None = None) -> dict[str, object]:
    """Decode ``get_rng_state()`` (CPUGeneratorImplState, 5056 bytes)."""
    raw = (g.get_state() if g is not None else torch.get_rng_state()).numpy()
    b = raw.tobytes()
    seed, left, _seeded, nxt = struct.unpack_from("<QiiQ", b, 0)
    words = np.frombuffer(b, dtype="<u8", count=624, offset=24)
    normal_y = struct.unpack_from("<d", b, 5024)[0]
    normal_valid = struct.unpack_from("<i", b, 5040)[0]
    return {"seed": seed, "left": left, "next": nxt,
            "state": words.astype(np.uint32),
            "normal": normal_y if normal_valid else None}


def assert_same_state(gen: rng.CPUGenerator) -> None:
    ts = torch_state()
    key, pos = gen.get_state()
    assert gen.initial_seed() == ts["seed"] == torch.initial_seed()
    assert pos == 625 - ts["left"]
    assert np.array_equal(key, ts["state"])
    ours = gen.next_double_normal_sample
    theirs = ts["normal"]
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert struct.pack("<d", ours) == struct.pack("<d", theirs)


# --------------------------------------------------------------------------
# engine and seeding
# --------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 5, 2 ** 32 + 5, 2 ** 63 - 1, 2 ** 64 - 1,
                                  -1, -2 ** 63, 67280421310721])
def test_seed_and_state(seed: int) -> None:
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    assert_same_state(gen)
    torch.randint(0, 100, (700,))          # crosses a state regeneration
    rng.randint(gen, 700, 0, 100)
    assert_same_state(gen)


def test_numpy_regeneration_matches_bitgen() -> None:
    a, b = rng.CPUGenerator(1234), rng.CPUGenerator(1234)
    b.use_numpy_bitgen = False
    for n in (1, 623, 624, 625, 3000, 7):
        assert np.array_equal(a.random(n), b.random(n))
    assert np.array_equal(a.random64(1000), b.random64(1000))
    (ka, pa), (kb, pb) = a.get_state(), b.get_state()
    assert np.array_equal(ka, kb) and pa == pb
    # and the pure numpy path keeps torch's stream for the distributions
    torch.manual_seed(1234)
    c = rng.CPUGenerator(1234)
    c.use_numpy_bitgen = False
    assert same_bits(rng.normal(c, 1000, np.float32)[0], torch.randn(1000))
    assert same_bits(rng.uniform(c, 77, np.float64),
                     torch.rand(77, dtype=torch.float64))
    assert_same_state(c)


def test_random64_layout() -> None:
    a, b = rng.CPUGenerator(9), rng.CPUGenerator(9)
    w = a.random(6).astype(np.uint64)
    assert np.array_equal(b.random64(3), (w[0::2] << np.uint64(32)) | w[1::2])


# --------------------------------------------------------------------------
# property tests against torch (default capability, in process)
# --------------------------------------------------------------------------

@SETTINGS
@given(seed=SEEDS, n=SIZES, dt=DTYPES)
def test_rand_randn(seed: int, n: int, dt: tuple) -> None:
    np_dt, t_dt = dt
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    assert same_bits(rng.uniform(gen, n, np_dt), torch.rand(n, dtype=t_dt))
    values, _ = rng.normal(gen, n, np_dt)
    assert same_bits(values, torch.randn(n, dtype=t_dt))
    assert_same_state(gen)


@SETTINGS
@given(seed=SEEDS, n=SIZES, dt=DTYPES, mean=MEANS, std=STDS,
       low=MEANS, width=st.floats(1e-3, 1e4))
def test_normal_uniform_params(seed: int, n: int, dt: tuple, mean: float,
                               std: float, low: float, width: float) -> None:
    np_dt, t_dt = dt
    high = low + width
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    values, _ = rng.normal(gen, n, np_dt, mean, std)
    assert same_bits(values, torch.empty(n, dtype=t_dt).normal_(mean, std))
    assert same_bits(rng.uniform(gen, n, np_dt, low, high),
                     torch.empty(n, dtype=t_dt).uniform_(low, high))
    assert_same_state(gen)


@SETTINGS
@given(seed=SEEDS, n=st.integers(0, 2000),
       low=st.integers(-2 ** 62, 2 ** 62), width=st.one_of(
           st.integers(1, 300), st.integers(1, 2 ** 28 + 5),
           st.integers(2 ** 28 - 3, 2 ** 62)))
def test_randint(seed: int, n: int, low: int, width: int) -> None:
    width = min(width, 2 ** 63 - 1 - low)      # high must fit in int64
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    assert same_bits(rng.randint(gen, n, low, low + width),
                     torch.randint(low, low + width, (n,)))
    assert_same_state(gen)


@settings(max_examples=examples(60), deadline=None)
@given(seed=SEEDS, n=st.integers(0, 3000))
def test_randperm(seed: int, n: int) -> None:
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    assert same_bits(rng.randperm(gen, n), torch.randperm(n))
    assert_same_state(gen)


@settings(max_examples=examples(60), deadline=None)
@given(seed=SEEDS, ops=st.lists(st.tuples(
    st.sampled_from(["randn", "rand", "normal", "randint"]),
    st.integers(0, 40), DTYPES), min_size=1, max_size=8))
def test_state_carries_over(seed: int, ops: list) -> None:
    """Mixed sequences: the stream and the cached double normal carry on."""
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    for op, n, (np_dt, t_dt) in ops:
        if op == "randn":
            assert same_bits(rng.normal(gen, n, np_dt)[0],
                             torch.randn(n, dtype=t_dt))
        elif op == "normal":
            assert same_bits(rng.normal(gen, n, np_dt, 2.5, 0.3)[0],
                             torch.empty(n, dtype=t_dt).normal_(2.5, 0.3))
        elif op == "rand":
            assert same_bits(rng.uniform(gen, n, np_dt),
                             torch.rand(n, dtype=t_dt))
        else:
            assert same_bits(rng.randint(gen, n, -3, 9),
                             torch.randint(-3, 9, (n,)))
        assert_same_state(gen)


# Tiny standard deviations and zero or tiny means: the values are zeros of
# either sign and subnormals, which only the exact fma's last step decides.
TINY_STDS = st.one_of(
    st.sampled_from([5e-324, 1e-323, 1.5e-323, 2.5e-323, 1e-320, 2.0 ** -1022,
                     1e-300, 2.0 ** -149, 1e-45, 2.0 ** -140, 1e-40, 2.0 ** -126]),
    st.floats(5e-324, 1e-300),             # float64 subnormal and tiny normal
    st.floats(2.0 ** -149, 2.0 ** -126))   # float32's subnormal range
TINY_MEANS = st.one_of(
    st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, 2.0 ** -149,
                     -(2.0 ** -149), 1e-45, -1e-45]),
    st.floats(-1e-300, 1e-300), st.floats(-(2.0 ** -126), 2.0 ** -126))
TINY_SIZES = st.one_of(st.integers(1, 15), st.integers(16, 70),
                       st.sampled_from([16, 17, 31, 32, 33, 1000]))


@SETTINGS
@given(seed=SEEDS, dt=DTYPES, calls=st.lists(
    st.tuples(TINY_SIZES, TINY_MEANS, TINY_STDS, st.booleans()),
    min_size=1, max_size=3))
def test_normal_tiny_std_bits(seed: int, dt: tuple, calls: list) -> None:
    """normal_(mean, std) with std from 5e-324 to 1e-300 (and float32 subnormal
    stds), means +-0.0 and tiny: serial (numel < 16 or strided) and normal_fill
    paths, raw bits and signs of zeros equal torch's; consecutive calls carry the
    cached normal."""
    np_dt, t_dt = dt
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    for n, mean, std, contiguous in calls:
        base = torch.empty(n if contiguous else 2 * n, dtype=t_dt)
        view = base if contiguous else base[::2]
        view.normal_(mean, std)
        ours, variant = rng.normal(gen, n, np_dt, mean, std,
                                   contiguous=contiguous)
        assert ("serial" in variant) == (n < 16 or not contiguous)
        assert_bits(ours, view)
        assert_same_state(gen)


#: torch's kernels were built with FMA (AVX2, AVX512), not the DEFAULT build
#: (ATEN_CPU_CAPABILITY=default): tidx reads the same variable, so both sides agree
FUSED = torch.backends.cpu.get_cpu_capability() != "DEFAULT"


def test_normal_tiny_std_signed_zero() -> None:
    """The reported case: torch's AVX2 build gives [0., -0.] (-0.3 * 5e-324 rounds to -0.0
    in one fused multiply-add), its DEFAULT build [0., 0.]."""
    torch.manual_seed(0)
    want = torch.empty(2).normal_(0, 5e-324)
    assert torch.signbit(want).tolist() == [False, FUSED]
    ours, _ = rng.normal(rng.CPUGenerator(0), 2, np.float32, 0.0, 5e-324)
    assert_bits(ours, want)


@pytest.mark.parametrize("compiled", [True, False])
def test_unit_std_negative_zero_mean(compiled: bool,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """normal_(-0.0, 1.0): fma(n, 1, -0.0) is n itself, -0.0 included.

    Seed 8's 2^24 float32 uniforms hold a 0 at 10770898 (a first half: u1 = 1,
    radius -0) whose partner gives a positive sine: torch's element 10770906 is
    -0.0, where adding +0 (the shortcut for mean 0, std 1) would give +0.0."""
    if not compiled:
        monkeypatch.setattr(rng.rng_wasm, "available", lambda: False)
    n = 1 << 24
    torch.manual_seed(8)
    want = torch.empty(n).normal_(-0.0, 1.0)
    assert torch.signbit(want[10770906])
    ours, _ = rng.normal(rng.CPUGenerator(8), n, np.float32, -0.0, 1.0)
    assert_bits(ours, want)


# --------------------------------------------------------------------------
# explicit cases
# --------------------------------------------------------------------------

EXPLICIT_SIZES = [1, 15, 16, 17, 31, 32, 33, 1000, 10_000, 99_991]


@pytest.mark.parametrize("n", EXPLICIT_SIZES)
@pytest.mark.parametrize("np_dt, t_dt", [(np.float32, torch.float32),
                                          (np.float64, torch.float64)])
def test_explicit_sizes(n: int, np_dt: type, t_dt: torch.dtype) -> None:
    for seed in (0, 2 ** 40 + 3, -7):
        torch.manual_seed(seed)
        gen = rng.CPUGenerator(seed)
        values, variant = rng.normal(gen, n, np_dt)
        assert same_bits(values, torch.randn(n, dtype=t_dt))
        if n < 16:
            assert variant.startswith("serial normal_distribution<double>")
        elif np_dt is np.float32 and FUSED:
            assert variant == "normal_fill + NormalFill16 AVX2 (avx_mathfun)"
        else:
            assert variant == "normal_fill + NormalFill16 generic"
        assert same_bits(rng.normal(gen, n, np_dt, -1.25, 3.7)[0],
                         torch.empty(n, dtype=t_dt).normal_(-1.25, 3.7))
        assert same_bits(rng.uniform(gen, n, np_dt),
                         torch.rand(n, dtype=t_dt))
        assert same_bits(rng.uniform(gen, n, np_dt, -3.5, 11.0),
                         torch.empty(n, dtype=t_dt).uniform_(-3.5, 11.0))
        assert same_bits(rng.randint(gen, n, -10, 2 ** 35),
                         torch.randint(-10, 2 ** 35, (n,)))
        assert_same_state(gen)
    torch.manual_seed(3)
    gen = rng.CPUGenerator(3)
    assert same_bits(rng.randperm(gen, n), torch.randperm(n))


def test_sequence_with_cached_normal() -> None:
    """randn(3), randn(5), rand(20), randn(1): the cached double is used."""
    torch.manual_seed(42)
    gen = rng.CPUGenerator(42)
    for op, n in [("randn", 3), ("randn", 5), ("rand", 20), ("randn", 1),
                  ("randn", 17), ("randn", 1), ("randn", 2)]:
        for np_dt, t_dt in [(np.float32, torch.float32),
                            (np.float64, torch.float64)]:
            if op == "randn":
                ours = rng.normal(gen, n, np_dt)[0]
                theirs = torch.randn(n, dtype=t_dt)
            else:
                ours = rng.uniform(gen, n, np_dt)
                theirs = torch.rand(n, dtype=t_dt)
            assert same_bits(ours, theirs), (op, n, np_dt)
            assert_same_state(gen)
    # an odd count leaves a cached value; manual_seed clears it
    rng.normal(gen, 1, np.float64)
    torch.randn(1, dtype=torch.float64)
    assert gen.next_double_normal_sample is not None
    gen.manual_seed(42)
    torch.manual_seed(42)
    assert gen.next_double_normal_sample is None
    assert_same_state(gen)


@pytest.mark.parametrize("n", [5, 16, 33, 1001])
def test_non_contiguous_normal(n: int) -> None:
    """A strided tensor takes the serial path even for numel >= 16."""
    torch.manual_seed(11)
    gen = rng.CPUGenerator(11)
    for np_dt, t_dt in [(np.float32, torch.float32),
                        (np.float64, torch.float64)]:
        view = torch.empty(2 * n, dtype=t_dt)[::2]
        view.normal_(0.5, 2.0)
        values, variant = rng.normal(gen, n, np_dt, 0.5, 2.0, contiguous=False)
        assert same_bits(values, view.contiguous())
        assert "serial" in variant
        assert_same_state(gen)


@pytest.mark.parametrize("n", [7, 16, 40])
@pytest.mark.parametrize("mean, std", [(-0.0, 0.0), (0.0, 0.0), (-0.0, 1.0),
                                       (1e300, 1e-300), (3.0, 2.0 ** -30)])
def test_signed_zero_and_extreme_params(n: int, mean: float,
                                        std: float) -> None:
    torch.manual_seed(1)
    gen = rng.CPUGenerator(1)
    for np_dt, t_dt in [(np.float32, torch.float32),
                        (np.float64, torch.float64)]:
        assert same_bits(rng.normal(gen, n, np_dt, mean, std)[0],
                         torch.empty(n, dtype=t_dt).normal_(mean, std))
        lo = mean if abs(mean) < 1e30 else -0.0
        assert same_bits(rng.uniform(gen, n, np_dt, lo, lo + 1.0),
                         torch.empty(n, dtype=t_dt).uniform_(lo, lo + 1.0))
    assert_same_state(gen)


def test_uniform_clamps_to_from() -> None:
    """``value == to`` after rounding becomes ``from`` (float32 [100, 101))."""
    torch.manual_seed(0)
    gen = rng.CPUGenerator(0)
    n = 2_000_000
    ours = rng.uniform(gen, n, np.float32, 100.0, 101.0)
    assert same_bits(ours, torch.empty(n).uniform_(100.0, 101.0))
    assert ours.max() < 101.0


def test_large_tensors() -> None:
    """Chunked, prefetching paths (n % 16 != 0)."""
    n = 1_000_003
    torch.manual_seed(77)
    gen = rng.CPUGenerator(77)
    assert same_bits(rng.normal(gen, n, np.float32)[0], torch.randn(n))
    assert same_bits(rng.normal(gen, n, np.float64, 3.0, 0.5)[0],
                     torch.empty(n, dtype=torch.float64).normal_(3.0, 0.5))
    assert same_bits(rng.uniform(gen, n, np.float64),
                     torch.rand(n, dtype=torch.float64))
    assert same_bits(rng.uniform(gen, n, np.float32, -2.0, 3.0),
                     torch.empty(n).uniform_(-2.0, 3.0))
    assert_same_state(gen)


# --------------------------------------------------------------------------
# DEFAULT capability: torch in a subprocess with ATEN_CPU_CAPABILITY=default
# --------------------------------------------------------------------------

_DEFAULT_SCRIPT = r"""
import pickle, sys, torch
cases = pickle.loads(sys.stdin.buffer.read())
out = [torch.backends.cpu.get_cpu_capability()]
for seed, ops in cases:
    torch.manual_seed(seed)
    res = []
    for op, n, dt, a, b in ops:
        dt = getattr(torch, dt)
        if op == "normal":
            res.append(torch.empty(n, dtype=dt).normal_(a, b).numpy())
        elif op == "uniform":
            res.append(torch.empty(n, dtype=dt).uniform_(a, b).numpy())
        else:
            res.append(torch.empty(2 * n, dtype=dt)[::2].normal_(a, b)
                       .contiguous().numpy())
    out.append(res)
sys.stdout.buffer.write(pickle.dumps(out))
"""


def _default_cases() -> list:
    rs = np.random.default_rng(2024)
    cases = []
    for seed in [0, 1, -5, 2 ** 63 + 17, 123456789]:
        ops = []
        for n in [3, 15, 16, 17, 31, 32, 33, 1000, 10_000, 99_991]:
            for dt in ["float32", "float64"]:
                mean = float(rs.normal() * 10)
                std = float(abs(rs.normal()) * 5)
                ops.append(("normal", n, dt, 0.0, 1.0))
                ops.append(("normal", n, dt, mean, std))
                ops.append(("uniform", n, dt, 0.0, 1.0))
                ops.append(("uniform", n, dt, mean - std - 1, mean + std))
        ops.append(("strided", 40, "float32", 1.0, 2.0))
        # zeros of either sign and subnormals (mul then add on DEFAULT)
        for n in [2, 7, 16, 33]:
            for dt in ["float32", "float64"]:
                for mean, std in [(0.0, 5e-324), (-0.0, 1e-300), (0.0, 1e-45),
                                  (-0.0, 1.0), (5e-324, 2.0 ** -149)]:
                    ops.append(("normal", n, dt, mean, std))
                    ops.append(("strided", n, dt, mean, std))
        cases.append((seed, ops))
    # big enough for the chunked, prefetching path
    cases.append((99, [("normal", 300_007, "float32", 0.0, 1.0),
                       ("normal", 300_007, "float64", 1.0, 3.0),
                       ("uniform", 300_007, "float32", -1.0, 5.0),
                       ("uniform", 300_007, "float64", 0.0, 1.0)]))
    return cases


def test_default_capability_subprocess() -> None:
    cases = _default_cases()
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    proc = subprocess.run([sys.executable, "-c", _DEFAULT_SCRIPT],
                          input=pickle.dumps(cases), capture_output=True,
                          env=env, check=True, timeout=300)
    capability, *results = pickle.loads(proc.stdout)
    assert capability == "DEFAULT"
    differs_from_avx2 = 0
    for (seed, ops), expected in zip(cases, results):
        gen = rng.CPUGenerator(seed)
        for (op, n, dt, a, b), want in zip(ops, expected):
            np_dt = np.dtype(dt)
            state = gen.get_state(), gen.next_double_normal_sample
            if op == "uniform":
                got = rng.uniform(gen, n, np_dt, a, b, capability="DEFAULT")
            else:
                got, _ = rng.normal(gen, n, np_dt, a, b,
                                    contiguous=(op == "normal"),
                                    capability="DEFAULT")
            assert same_bits(got, want), (seed, op, n, dt, a, b)
            if op == "normal" and n >= 16 and dt == "float32":
                # The same draws through the AVX2 kernel: must differ
                # somewhere, or this test would not tell the kernels apart.
                other = rng.CPUGenerator(0)
                other._set_state(*state[0])
                differs_from_avx2 += not same_bits(
                    rng.normal(other, n, np_dt, a, b, capability="AVX2")[0],
                    want)
    assert differs_from_avx2 > 0


# --------------------------------------------------------------------------
# building blocks
# --------------------------------------------------------------------------

def _libm_fma() -> object:
    lib = rng_libm._libm()
    assert lib is not None
    return lib.fma


def test_fma64_exact() -> None:
    rs = np.random.default_rng(5)
    n = 20_000
    i, j = rs.integers(0, 50, n), rs.integers(0, 50, n)
    e = rs.integers(-200, 200, n).astype(float)
    a = np.exp2(e) * (1 + i * 2.0 ** -52)
    b = (1 - j * 2.0 ** -52) * rs.choice([1.0, -1.0, 3.0, 0.75], n)
    c = rs.choice([-1.0, 1.0], n) * np.exp2(e + 53 + rs.integers(-3, 3, n)) \
        * (1 + rs.integers(0, 2 ** 52, n) * 2.0 ** -52)
    c[::7] = -(a * b)[::7]
    c[1::7] = rs.standard_normal(n)[1::7]
    # subnormal and near-overflow operands and results, signed zeros
    a[2::7] = rs.standard_normal(n)[2::7] * 2.0 ** -1000
    b[3::7] = rs.standard_normal(n)[3::7] * 2.0 ** 1000
    c[4::7] = rs.choice([0.0, -0.0, 5e-324, -2.2250738585e-313], n)[4::7]
    b[5::7] = rs.choice([0.0, -0.0], n)[5::7]
    fma = _libm_fma()
    want = np.array([fma(x, y, z) for x, y, z in zip(a, b, c)])
    assert np.array_equal(rng_fp.fma64(a, b, c).view(np.int64),
                          want.view(np.int64))


def test_fma64_underflow_keeps_the_sign() -> None:
    """Products that underflow, to zero or to subnormals, plus zeros of either sign
    and tiny addends: the exact value's sign survives the rounding to zero."""
    rs = np.random.default_rng(12)
    n = 20_000
    a = rs.standard_normal(n) * np.exp2(rs.integers(-60, 60, n).astype(float))
    b = rs.choice([5e-324, 1e-323, 2.5e-323, 1e-320, 2.0 ** -1022, 1e-300,
                   2.0 ** -970, 2.0 ** -900], n) * rs.choice([1.0, -1.0], n)
    c = rs.choice([0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310], n)
    c[::5] = -(a * b)[::5]                     # cancellations to (nearly) zero
    fma = _libm_fma()
    want = np.array([fma(x, y, z) for x, y, z in zip(a, b, c)])
    got = rng_fp.fma64(a, b, c)
    assert np.signbit(want).any() and (want == 0).any()
    assert np.array_equal(got.view(np.int64), want.view(np.int64))


FINITE64 = st.floats(allow_nan=False, allow_infinity=False)
FINITE32 = st.floats(allow_nan=False, allow_infinity=False, width=32)


@settings(max_examples=examples(300), deadline=None)
@given(a=FINITE64, b=FINITE64, c=FINITE64)
def test_fma64_matches_libm(a: float, b: float, c: float) -> None:
    """Any finite operands (hypothesis favours zeros, subnormals, extremes)."""
    want = _libm_fma()(a, b, c)
    got = rng_fp.fma64(np.array([a]), np.array([b]), np.array([c]))[0]
    assert struct.pack("<d", got) == struct.pack("<d", want), (a, b, c)


@settings(max_examples=examples(300), deadline=None)
@given(a=FINITE32, b=FINITE32, c=FINITE32)
def test_fma32_matches_libm(a: float, b: float, c: float) -> None:
    want = rng_libm.libm_float_function("fmaf")(a, b, c)
    got = float(rng_fp.fma32(np.float32(a), np.float32(b), np.float32(c)))
    assert struct.pack("<f", got) == struct.pack("<f", want), (a, b, c)


def test_fma32_exact_against_float64_fma() -> None:
    """Near-midpoint cases where float64-then-float32 double-rounds."""
    rs = np.random.default_rng(6)
    n = 20_000
    i, j = rs.integers(0, 50, n), rs.integers(0, 50, n)
    e = rs.integers(-20, 20, n)
    a = (np.exp2(e) * (1 + i * 2.0 ** -23)).astype(np.float32)
    b = (1 - j * 2.0 ** -23).astype(np.float32)
    c = (rs.choice([-1.0, 1.0], n) * np.exp2(e + 24 + rs.integers(0, 2, n))
         * (1 + rs.integers(0, 2 ** 23, n) * 2.0 ** -23)).astype(np.float32)
    fmaf = rng_libm.libm_float_function("fmaf")
    want = np.array([fmaf(x, y, z) for x, y, z in
                     zip(a.tolist(), b.tolist(), c.tolist())], np.float32)
    got = rng_fp.fma32(a, b, c)
    naive = (a.astype(np.float64) * b + c).astype(np.float32)
    assert not same_bits(naive, want)         # the cases are hard ones
    assert same_bits(got, want)


def test_glibc_float_functions_sample() -> None:
    """logf/sinf/cosf copies vs glibc through ctypes on the RNG's inputs.

    Run with TIDX_RNG_EXHAUSTIVE=1 to compare all 2^24 inputs instead.
    """
    full = os.environ.get("TIDX_RNG_EXHAUSTIVE") == "1"
    if full:
        k = np.arange(2 ** 24)
    else:
        k = np.concatenate([np.arange(4096), 2 ** 24 - 1 - np.arange(4096),
                            np.random.default_rng(8).integers(0, 2 ** 24,
                                                              60_000)])
    d = k.astype(np.float32) * np.float32(2.0 ** -24)
    u1 = np.float32(1) - d
    theta = (2.0 * math.pi * d.astype(np.float64)).astype(np.float32)
    logf = rng_libm.libm_float_function("logf")
    sinf = rng_libm.libm_float_function("sinf")
    cosf = rng_libm.libm_float_function("cosf")
    assert rng_libm.float_emulation_matches_libm()
    want_log = np.fromiter(map(logf, u1.tolist()), np.float32, u1.size)
    assert same_bits(rng_libm._emulated_logf(u1), want_log)
    s, c = rng_libm._emulated_sincosf(theta)
    assert same_bits(s, np.fromiter(map(sinf, theta.tolist()), np.float32,
                                    theta.size))
    assert same_bits(c, np.fromiter(map(cosf, theta.tolist()), np.float32,
                                    theta.size))


KERNEL_PARAMS = [(0.0, 1.0), (-0.0, 1.0), (-0.0, 2.0 ** -149), (0.0, 1e-45),
                 (2.0 ** -149, 2.0 ** -140), (-(2.0 ** -149), 1e-40), (-0.0, 5e-324)]


@pytest.mark.parametrize("mean, std", KERNEL_PARAMS)
def test_avx2_fast_kernel_matches_exact_fma_reference(mean: float, std: float) -> None:
    """The fast AVX2 kernel vs the round-to-odd reference emulation, for the
    unit shortcut (mean +-0, std 1) and the general fmadd with tiny parameters.

    Run with TIDX_RNG_EXHAUSTIVE=1 for all 2^24 inputs of each function.
    """
    fill, _ = rng_normal.block_kernel(np.float32, True, mean, std)
    avx2_reference.check_kernel(fill, avx2_reference.inputs(seed=9, spread=90_000),
                                mean, std)


@pytest.mark.parametrize("mean", [0.0, -0.0])
def test_generic_float64_unit_shortcut_is_the_fma(mean: float,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """NormalFill16<double> with std 1 and a zero mean skips the fma: the same bits
    as std::fma (u1 = 1 gives radius -0; -0 + -0 stays -0)."""
    d = np.zeros((64, 16))
    d[:, 8:] = np.linspace(0, 1, 64, endpoint=False)[:, None]
    d[1::2, :8] = np.random.default_rng(13).random((32, 8))
    fast = d.copy()
    rng_normal.block_kernel(np.float64, False, mean, 1.0)[0](fast)
    monkeypatch.setattr(rng_normal, "_fma_f64", rng_fp.fma64)
    exact = d.copy()
    rng_normal.block_kernel(np.float64, False, mean, 1.0)[0](exact)
    assert np.signbit(exact[exact == 0]).any() == bool(np.signbit(mean))
    assert same_bits(fast, exact)


def test_glibc_vector_routes() -> None:
    """The vectorised double functions equal math.* (i.e. glibc)."""
    x = np.random.default_rng(10).random(50_000)
    for name, arg in [("log", 1 - x), ("log1p", -x), ("sin", 2 * math.pi * x),
                      ("cos", 2 * math.pi * x)]:
        fn = getattr(math, name)
        want = np.fromiter(map(fn, arg.tolist()), np.float64, arg.size)
        assert same_bits(rng_libm.glibc_vector(name)(arg), want)
