"""The simulated CUDA generator (engine/rng/philox.py): Philox4x32-10 against Random123's
known answers and against torch's own at::philox_engine (compiled from the header the
torch 2.13 wheel installs: torch does not expose it in Python), the generator's offset
arithmetic, the launch's thread mapping, curand's uniform transform, and the normals a
real GPU printed."""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import UNDER_CI, examples, require_torch
from engine.rng import philox as P
from tracer import i18n, record, walk
from tracer.document import Event
from tracer.i18n import en_cuda

U32 = st.integers(0, 2**32 - 1)
U64 = st.integers(0, 2**64 - 1)


# -- Philox4x32-10 ------------------------------------------------------------------------
#: Random123's kat_vectors (the file distributed with Random123 1.09), the philox4x32 10
#: lines: counter words, key words, expected output words.
KAT = [
    ("00000000 00000000 00000000 00000000", "00000000 00000000",
     "6627e8d5 e169c58d bc57ac4c 9b00dbd8"),
    ("ffffffff ffffffff ffffffff ffffffff", "ffffffff ffffffff",
     "408f276d 41c83b0e a20bc7c6 6d5451fd"),
    ("243f6a88 85a308d3 13198a2e 03707344", "a4093822 299f31d0",
     "d16cfe09 94fdcceb 5001e420 24126ea1"),
]


def _words(text: str) -> list[int]:
    return [int(w, 16) for w in text.split()]


@pytest.mark.parametrize("ctr, key, expected", KAT)
def test_random123_known_answers(ctr, key, expected):
    assert P.philox4x32_10(_words(ctr), _words(key)).tolist() == _words(expected)


def test_the_constants_are_pytorchs():
    """aten/src/ATen/core/PhiloxRNGEngine.h, as the torch 2.13 wheel installs it."""
    torch = require_torch()
    header = (Path(torch.__file__).parent / "include/ATen/core/PhiloxRNGEngine.h").read_text()
    found = dict(re.findall(r"static constexpr uint32_t (kPhilox\w+) = (0x[0-9A-F]+);", header))
    assert {k: int(v, 16) for k, v in found.items()} == {
        "kPhilox10A": P.K_PHILOX_10A, "kPhilox10B": P.K_PHILOX_10B,
        "kPhiloxSA": P.K_PHILOX_SA, "kPhiloxSB": P.K_PHILOX_SB}


@pytest.fixture(scope="module")
def torch_philox_engine(tmp_path_factory) -> Path:
    """A program printing at::philox_engine(seed, subsequence, offset)'s next words,
    built from the torch 2.13 wheel's PhiloxRNGEngine.h (torch's CPU Philox engine has no
    Python binding)."""
    torch = require_torch()
    compiler = shutil.which("g++")
    if compiler is None:
        if UNDER_CI:
            pytest.fail("g++ is required under CI to build torch's PhiloxRNGEngine.h")
        pytest.skip("g++ is not installed")
    folder = tmp_path_factory.mktemp("philox")
    source = folder / "engine.cpp"
    source.write_text(
        "#include <ATen/core/PhiloxRNGEngine.h>\n#include <cstdio>\n#include <cstdlib>\n"
        "int main(int argc, char** argv) {\n"
        "  at::philox_engine e(strtoull(argv[1], 0, 10), strtoull(argv[2], 0, 10),\n"
        "                      strtoull(argv[3], 0, 10));\n"
        "  for (int i = 0, n = atoi(argv[4]); i < n; i++) printf(\"%u\\n\", e());\n}\n")
    program = folder / "engine"
    include = Path(torch.__file__).parent / "include"
    subprocess.run([compiler, "-std=c++17", "-O1", f"-I{include}", str(source), "-o",
                    str(program)], check=True, capture_output=True, timeout=300)
    return program


def _torch_words(program: Path, seed: int, subsequence: int, offset: int, n: int):
    out = subprocess.run([str(program), str(seed), str(subsequence), str(offset), str(n)],
                         check=True, capture_output=True, text=True, timeout=60).stdout
    return [int(w) for w in out.split()]


@pytest.mark.parametrize("seed, subsequence, offset", [
    (0, 0, 0), (67280421310721, 0, 0), (2**64 - 1, 2**64 - 1, 2**64 - 1),
    (1, 2**32 - 1, 2**32 - 1), (12345, 7, 2**64 - 2), (2**63, 2**40, 2**33 + 5)])
def test_torch_philox_engine_gives_the_same_words(torch_philox_engine, seed, subsequence,
                                                  offset):
    """philox_engine(seed, subsequence, offset) skips ``offset`` 128-bit blocks
    (incr_n): its words are the blocks of counters(subsequence, 4 * offset, draw), the
    carry out of the low 64 bits included."""
    got = _torch_words(torch_philox_engine, seed, subsequence, offset, 12)
    key = (seed & 0xFFFFFFFF, seed >> 32)
    mine = [int(w) for draw in range(3)
            for w in P.philox4x32_10(_counter(subsequence, offset + draw), key)]
    assert got == mine


def _counter(subsequence: int, block: int) -> list[int]:
    """The 128-bit counter of block ``block`` of a subsequence, as four words."""
    value = ((subsequence << 64) + block) % 2**128
    return [(value >> (32 * i)) & 0xFFFFFFFF for i in range(4)]


@given(seed=U64, subsequence=st.integers(0, 2**32), offset=st.integers(0, 2**20),
       draw=st.integers(0, 8))
@settings(max_examples=examples(200), deadline=None)
def test_counters_are_the_subsequence_and_the_offset(seed, subsequence, offset, draw):
    """curand_init(seed, subsequence, offset) then ``draw`` curand4 calls: the counter is
    (subsequence << 64) + offset / 4 + draw (offset a multiple of 4)."""
    got = P.counters(np.array([subsequence], np.uint64), 4 * offset, draw)[0].tolist()
    assert got == _counter(subsequence, offset + draw)


# -- CUDAGeneratorImpl --------------------------------------------------------------------
def test_philox_cuda_state_returns_the_old_offset_and_advances_by_multiples_of_4():
    """CUDAGeneratorState::increase: ``increment = ((increment + 3) / 4) * 4``;
    philox_cuda_state returns the offset from before the call."""
    gen = P.CUDAGenerator(42)
    assert [gen.philox_cuda_state(n) for n in (4, 1, 5, 0, 8)] == \
        [(42, 0), (42, 4), (42, 8), (42, 16), (42, 16)]
    assert gen.philox_offset_per_thread == 24
    gen.set_current_seed(7)
    assert (gen.seed, gen.philox_offset_per_thread) == (7, 0)


@given(st.lists(st.integers(0, 10**6), max_size=20))
@settings(max_examples=examples(100), deadline=None)
def test_offsets_stay_multiples_of_4_and_never_go_back(increments):
    gen = P.CUDAGenerator(0)
    seen = []
    for n in increments:
        _, offset = gen.philox_cuda_state(n)
        assert offset % 4 == 0 and gen.philox_offset_per_thread - offset >= n
        assert gen.philox_offset_per_thread - offset < n + 4
        seen.append(offset)
    assert seen == sorted(seen)


# -- the launch -----------------------------------------------------------------------------
def test_calc_execution_policy():
    """DistributionTemplates.h: 256 threads a block, the grid capped at multiProcessorCount
    x (maxThreadsPerMultiProcessor / 256), counter_offset = ((numel - 1) / (256 x grid x
    unroll) + 1) x 4."""
    assert P.calc_execution_policy(12, 4) == (4, 1, 256)
    assert P.calc_execution_policy(257, 4) == (4, 2, 256)
    cap = 108 * 8 * 256
    assert P.calc_execution_policy(cap * 4, 4) == (4, 864, 256)
    assert P.calc_execution_policy(cap * 4 + 1, 4) == (8, 864, 256)
    small = P.SimulatedGPU("one SM", 1, 1024)
    assert P.calc_execution_policy(5000, 4, small) == (8, 4, 256)


@given(numel=st.integers(1, 5000), grid=st.integers(1, 6), unroll=st.sampled_from([1, 2, 4]))
@settings(max_examples=examples(100), deadline=None)
def test_each_element_has_one_thread_draw_and_component(numel, grid, unroll):
    block = 32
    src = P.element_sources(numel, grid, block, unroll)
    assert len({tuple(s) for s in src.tolist()}) == numel            # one source each
    assert (src[:, 0] < grid * block).all() and (src[:, 2] < unroll).all()
    stride = grid * block
    li = src[:, 0] + stride * (src[:, 1] * unroll + src[:, 2])
    assert li.tolist() == list(range(numel))   # linear_index + blockDim*gridDim*ii


# -- the transforms --------------------------------------------------------------------------
@given(st.lists(U32, min_size=1, max_size=50))
@settings(max_examples=examples(100), deadline=None)
def test_curand_uniform_is_in_0_1_and_exact(xs):
    """_curand_uniform: x * 2^-32 + 2^-33 in float32, in (0, 1]: 2.3283064e-10f is 2^-32,
    so the product is exact and the one rounding is the sum's."""
    assert float(P.CURAND_2POW32_INV) == 2.0**-32
    u = P.curand_uniform(np.array(xs, dtype=np.uint32))
    assert ((u > 0) & (u <= 1)).all()
    for x, got in zip(xs, u.tolist()):
        exact = (Fraction(float(np.float32(x))) + Fraction(1, 2)) * Fraction(1, 2**32)
        assert got == float(np.float32(float(exact)))
    order = np.argsort(xs, kind="stable")
    assert (np.diff(u[order]) >= 0).all()                             # monotone in x


def test_curand_uniform_ends():
    u = P.curand_uniform(np.array([0, 2**32 - 1], dtype=np.uint32)).tolist()
    assert u == [2.0**-33, 1.0]


FINITE = st.floats(-1e6, 1e6, width=32, allow_subnormal=False)


@given(FINITE, FINITE, FINITE)
@settings(max_examples=examples(300), deadline=None)
def test_fma_f32_rounds_once(a, b, c):
    """fma_f32 against the exact product-and-sum rounded to float32 (Fraction)."""
    got = float(P.fma_f32(np.float32(a), np.float32(b), np.float32(c)))
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    assert got == _round_f32(exact)


def _round_f32(x: Fraction) -> float:
    """``x`` rounded to the nearest float32, ties to even, exactly."""
    lo = np.float32(float(x))
    candidates = {float(lo), float(np.nextafter(lo, np.float32(np.inf))),
                  float(np.nextafter(lo, np.float32(-np.inf)))}
    return min(sorted(candidates), key=lambda f: (abs(Fraction(f) - x),
                                                   int(np.float32(f).view(np.uint32)) & 1))


def test_fma_f32_rounds_the_product_and_sum_once():
    """a * b = 1 + 2^-22 + 2^-46; plus c: 1 + 2^-24 + 2^-46, just past the midpoint of
    1 and 1 + 2^-23.  Rounding the product first (mul, then add) lands on the midpoint
    and ties to even, 1.0; fmaf, what nvcc emits, gives 1 + 2^-23."""
    a = b = np.float32(1 + 2**-23)
    c = np.float32(2**-24 - 2**-22)
    assert float(np.float32(a * b) + c) == 1.0
    assert float(P.fma_f32(a, b, c)) == 1 + 2**-23


def test_fma_f32_where_the_float64_sum_is_a_float32_midpoint():
    """(1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is halfway between two float32s; adding 2^-80
    moves the exact sum past it, but the float64 sum rounds back onto the midpoint (then
    float32 would tie to even, down).  TwoSum keeps the 2^-80 and fma_f32 rounds up."""
    a = b = np.float32(1 + 2**-12)
    c = np.float32(2.0**-80)
    assert float(np.float32(np.float64(a) * np.float64(b) + np.float64(c))) == 1 + 2**-11
    assert float(P.fma_f32(a, b, c)) == 1 + 2**-11 + 2**-23
    assert float(P.fma_f32(a, b, -c)) == 1 + 2**-11


# -- what a real GPU printed -----------------------------------------------------------------
#: torch.manual_seed(0), then torch.randn(8, 10), torch.randn(10), torch.randn(8, 10) on
#: a CUDA device, as the C++ test of kapilsh/cuda-mode-lecture printed them (its
#: FusedKernels.ipynb, run on an sm_75 GPU; the program's source is not in the notebook:
#: seed 0 is inferred from its first values, the well-known start of torch.randn on CUDA
#: after torch.manual_seed(0)).  Four decimals, as printed.
GPU_X = """
-0.9247 -0.4253 -2.6438  0.1452 -0.1209 -0.5797 -0.6229 -0.3284 -1.0745 -0.3631
-1.6711  2.2655  0.3117 -0.1842  1.2866  1.1820 -0.1271  1.2169  1.4353  1.0605
-0.4941 -1.4244 -0.7244 -1.2973  0.0697 -0.0074  1.8969  0.6878 -0.0779 -0.8373
 1.3506 -0.2879 -0.5965 -0.3283 -0.9086 -0.8059 -0.7407 -0.0504  0.5435  1.5150
 0.0141  0.4532  1.6349  0.7124 -0.1806  1.0252 -1.4622 -0.7554 -0.1836  0.3824
 0.3918 -0.0830  0.8971 -1.1123  0.1116  0.4863 -0.5499 -0.3231 -0.5469  0.9049
 0.2837  0.1210  0.4730 -1.0823 -0.0334 -0.9734  0.9559 -1.1795 -1.0064  0.1160
 0.6852 -0.4124 -0.6738 -0.5404  0.6898 -1.5517  0.3805 -0.0436  0.3597 -0.5043"""
GPU_BIAS = "0.1808 -0.5523 0.9238 -0.7350 1.3800 0.8676 0.1297 -0.9406 0.8109 0.8821"
GPU_Y = """
 2.5441 -0.7163 -0.4934  0.1267  0.1014 -0.4035  0.9023  0.8099 -0.6884  0.1372
 1.0377  0.0925 -0.3752 -0.0908  2.0639 -1.8164 -0.2719  0.2811 -1.0399  0.7765
 0.8814  0.0444 -1.4870  1.1334  1.3268 -1.2616  0.9501 -0.6558  0.9098 -0.6290
-0.6587  2.0811  1.4151 -0.3091 -0.2055  2.0562 -0.0490 -0.6361 -0.5359 -0.1310
-0.2945  1.2275  1.0549  0.3576  1.6378 -0.2310  0.7883 -0.0807 -0.3924  1.2673
 1.0420 -0.4945 -1.1637  1.5740  0.7116  0.6104  1.2852 -0.6533  1.1171 -1.0067
 1.2912  1.6028  0.1332  1.0703 -1.1161 -0.8396 -3.6680  0.8189  0.1255 -0.7691
 0.1552 -0.8782 -0.4734  0.9690 -1.9985  0.1030  0.8580  0.7625 -1.2587 -0.8183"""


def test_three_randn_kernels_give_what_a_real_gpu_printed():
    gen = P.CUDAGenerator(0)
    for printed in (GPU_X, GPU_BIAS, GPU_Y):
        expected = np.array(printed.split(), dtype=np.float64)
        got = P.normal_kernel(gen, expected.size).astype(np.float64)
        assert np.all(np.abs(got - expected) <= 0.00005 + 1e-7), (got, expected)
    assert gen.philox_offset_per_thread == 12      # three launches of 4 each


def test_uniform_kernel_stays_in_from_to():
    gen = P.CUDAGenerator(3)
    u = P.uniform_kernel(gen, 100000, -2.0, 5.0)
    assert u.dtype == np.float32 and ((u >= -2.0) & (u < 5.0)).all()
    assert abs(float(u.mean()) - 1.5) < 0.05
    n = P.normal_kernel(gen, 100000)
    assert abs(float(n.mean())) < 0.02 and abs(float(n.std()) - 1) < 0.02
    # 100000 elements: 391 blocks of 256 threads, one round each: 4 per launch
    assert gen.philox_offset_per_thread == 4 + 4


# -- the steps it records -------------------------------------------------------------------
def test_every_philox_note_is_reached_and_reads_in_every_language():
    from test_i18n import IDENTIFIER

    gen = P.CUDAGenerator(0)
    with record() as tr:
        gen.set_current_seed(0)
        P.normal_kernel(gen, 12)
        P.uniform_kernel(gen, 5)
    top = tr.to_dict()["statements"][0]["events"]
    events = [ev for _, ev in walk(top) if ev.get("note")]
    assert {ev["note_id"] for ev in events} == \
        {id for id in en_cuda.TEXT if id.startswith("cuda.philox.")}
    assert [ev["name"] for ev in top] == [
        "CUDAGeneratorImpl::set_current_seed", "calc_execution_policy",
        "CUDAGeneratorImpl::philox_cuda_state", "distribution_elementwise_grid_stride_kernel",
        "calc_execution_policy", "CUDAGeneratorImpl::philox_cuda_state",
        "distribution_elementwise_grid_stride_kernel"]
    state = top[2]
    assert state["note"].startswith("philox_cuda_state(4): this kernel draws with seed 0 "
                                    "at offset 0; the generator's offset moves to 4")
    assert "simulated values" in top[3]["note"]
    for ev in events:
        assert ev["note"] == i18n.text(ev["note_id"], "en", **ev["note_args"])
        zh = i18n.note(Event.from_json(ev), "zh") or ""
        assert zh != ev["note"] and re.search(r"[\u4e00-\u9fff]", zh)
        assert all(tok in zh for tok in IDENTIFIER.findall(ev["note"])), ev["note_id"]
