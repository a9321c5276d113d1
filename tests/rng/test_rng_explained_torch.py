"""The first random number of a kernel, worked out in the trace, against real torch 2.13.

For every path a random factory takes (normal_'s serial Box-Muller and its vectorised
normal_fill, float and double; the generator's cached normal; uniform_; random_/randint
with random() and random64(); randperm), the trace's "first element" step must hold
torch's own first number, and the words it records must give that number again by the
formula its notes state, recomputed here from the recorded words alone.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples, require_torch
from engine.interpreter.session import run
from tracer import values as V
from tracer.events import walk

pytestmark = pytest.mark.torch

SEEDS = [0, 1, 42, 2**40 + 7]


def _first(doc: dict, statement: int = -1) -> dict:
    """The statement's "first element" step, as a dict of its children by name."""
    found = [ev for _, ev in walk(doc["statements"][statement]["events"])
             if ev["name"] == "first element"]
    assert len(found) == 1, [ev["name"] for _, ev in walk(doc["statements"][statement]["events"])]
    step = found[0]
    parts = {child["name"]: child for child in step["children"]}
    parts["(step)"] = step
    return parts


def _arg(ev: dict, key: str):
    return V.plain(ev["args"][key])


def _result(ev: dict):
    return V.plain(ev["result"])


def _torch_storage(torch, code: str, seed: int, name: str) -> list:
    """Run ``code`` in real torch after manual_seed(seed): ``name``'s storage, in order."""
    torch.manual_seed(seed)
    scope = {"torch": torch}
    exec(code, scope)   # the test's own statements, not user input
    t = scope[name]
    return torch.empty(0, dtype=t.dtype).set_(t.untyped_storage()).tolist()


def _stream(seed: int, n: int) -> list[int]:
    """mt19937's first ``n`` words after torch.manual_seed(seed), from numpy's own
    MT19937 (legacy seeding is init_genrand, as torch's; only the low 32 bits count)."""
    rs = np.random.RandomState(seed & 0xFFFFFFFF)
    return [int(w) for w in rs._bit_generator.random_raw(n)]


def _u24(w: int) -> float:
    return float(np.float32(w & 0xFFFFFF) * np.float32(2.0 ** -24))


def _u53(hi: int, lo: int) -> float:
    return ((hi << 32 | lo) & ((1 << 53) - 1)) * 2.0 ** -53


SERIAL = ["x = torch.randn(3, 4)", "x = torch.randn(1)", "x = torch.randn(15)",
          "x = torch.randn(2, 3, dtype=torch.float64)"]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("code", SERIAL)
def test_serial_box_muller_to_the_element(code, seed):
    torch = require_torch()
    doc = run(code, seed=seed)
    parts = _first(doc)
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    w = _result(parts["mt19937"])
    assert w == _stream(seed, 4)
    u1, u2 = _u53(w[0], w[1]), _u53(w[2], w[3])
    assert _result(parts["uniform_real_distribution<double>"]) == (u1, u2)
    z = math.sqrt(-2.0 * math.log1p(-u2)) * math.cos(2.0 * math.pi * u1)
    dtype = np.float64 if "float64" in code else np.float32
    assert float(dtype(z)) == expected
    assert "sqrt(-2 ln(1 - u2))" in parts["normal_distribution<double>"]["note"]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("code", ["x = torch.randn(16)", "x = torch.randn(3, 7)",
                                  "x = torch.randn(100)"])
def test_normal_fill_float_to_the_element(code, seed):
    torch = require_torch()
    doc = run(code, seed=seed)
    parts = _first(doc)
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    w0, w8 = _result(parts["mt19937"])
    # the words are numbers 0 and 8 of the stream: data[0] and data[8] of the first block
    stream = _stream(seed, 9)
    assert (w0, w8) == (stream[0], stream[8])
    d0, d8 = _u24(w0), _u24(w8)
    z = math.sqrt(-2.0 * math.log(1.0 - d0)) * math.cos(2.0 * math.pi * d8)
    # avx_mathfun's log and sincos are float approximations: a few float32 ulps
    assert z == pytest.approx(expected, rel=2e-6, abs=2e-6)
    (kernel,) = [k for k in parts if k.startswith("normal_fill_16")]
    # the note names the functions that computed ln and cos in this build
    how = parts[kernel]["note_args"]["how"]
    assert how == {"normal_fill_16_AVX2": "log256_ps, sincos256_ps (avx_mathfun)",
                   "normal_fill_16<float>": "logf, sincosf"}[kernel]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("code", ["x = torch.randn(16, dtype=torch.float64)",
                                  "x = torch.randn(40, dtype=torch.float64)"])
def test_normal_fill_double_to_the_element(code, seed):
    torch = require_torch()
    doc = run(code, seed=seed)
    parts = _first(doc)
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    w = _result(parts["mt19937"])
    stream = _stream(seed, 18)
    assert w == stream[0:2] + stream[16:18]
    d0, d8 = _u53(w[0], w[1]), _u53(w[2], w[3])
    z = math.sqrt(-2.0 * math.log(1.0 - d0)) * math.cos(2.0 * math.pi * d8)
    assert z == expected


@pytest.mark.parametrize("seed", SEEDS)
def test_the_cached_normal_needs_no_words(seed):
    torch = require_torch()
    code = "a = torch.randn(3); x = torch.randn(2)"
    doc = run(code, seed=seed)
    first = _first(doc, 0)
    parts = _first(doc, 1)
    assert "mt19937" not in parts
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    # randn(3) used two pairs; the cached number is the sine of its second pair (words
    # 4 to 7 of the stream)
    assert _result(first["mt19937"]) == _stream(seed, 4)
    w = _stream(seed, 8)[4:]
    u1, u2 = _u53(w[0], w[1]), _u53(w[2], w[3])
    sine = math.sqrt(-2.0 * math.log1p(-u2)) * math.sin(2.0 * math.pi * u1)
    cached = _result(parts["next_double_normal_sample"])
    assert cached == sine
    assert float(np.float32(cached)) == expected


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("code, double", [
    ("x = torch.rand(3)", False), ("x = torch.rand(2, 2, dtype=torch.float64)", True),
    ("x = torch.empty(5).uniform_(-2, 5)", False),
    ("x = torch.empty(3, dtype=torch.float64).uniform_(1.5, 2.5)", True)])
def test_uniform_to_the_element(code, double, seed):
    torch = require_torch()
    doc = run(code, seed=seed)
    parts = _first(doc)
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    w = _result(parts["mt19937"])
    assert w == _stream(seed, len(w))
    u = _u53(*w) if double else _u24(w[0])
    low, high = 0.0, 1.0
    if "uniform_" in code:
        low, high = map(float, code.partition("uniform_(")[2].rstrip(")").split(","))
    x = u * (high - low) + low
    assert x == pytest.approx(expected, rel=1e-6 if not double else 1e-15)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("code, low, high", [
    ("x = torch.randint(0, 10, (4,))", 0, 10),
    ("x = torch.randint(-5, 2**40, (3,))", -5, 2**40),
    ("x = torch.randint(3, 9, (2, 2), dtype=torch.float32)", 3, 9)])
def test_randint_word_and_modulo(code, low, high, seed):
    torch = require_torch()
    doc = run(code, seed=seed)
    parts = _first(doc)
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    w = _result(parts["mt19937"])
    assert w == _stream(seed, len(w))
    val = w[0] << 32 | w[1] if high - low >= 2**28 else w[0]
    assert len(w) == (2 if high - low >= 2**28 else 1)
    assert val % (high - low) + low == expected


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", [2, 7, 1000])
def test_randperm_first_swap(n, seed):
    torch = require_torch()
    code = f"x = torch.randperm({n})"
    doc = run(code, seed=seed)
    parts = _first(doc)
    expected = _torch_storage(torch, code, seed, "x")[0]
    assert V.plain(parts["(step)"]["result"]) == expected
    (w,) = _result(parts["mt19937"])
    assert w == _stream(seed, 1)[0]
    assert w % n == expected


def test_a_non_contiguous_tensor_starts_at_its_lowest_address():
    torch = require_torch()
    code = "x = torch.zeros(4, 5); y = x[:, 1:].normal_(3, 2)"
    doc = run(code, seed=7)
    parts = _first(doc)
    offset = parts["(step)"]["note_args"]["offset"]
    assert offset == 1
    expected = _torch_storage(torch, code, 7, "x")[offset]
    assert V.plain(parts["(step)"]["result"]) == expected
    assert _result(parts["transformation::normal"]) == expected


def test_no_explanation_without_random_numbers():
    for code in ("x = torch.randn(0)", "x = torch.randperm(1)", "x = torch.rand(2, 0)"):
        doc = run(code, seed=0)
        assert not [ev for _, ev in walk(doc["statements"][0]["events"])
                    if ev["name"] == "first element"], code


@st.composite
def _factories(draw) -> str:
    """A random factory call (or an in-place sampler on a strided view), any path."""
    n = draw(st.integers(1, 40))
    dtype = draw(st.sampled_from(["torch.float32", "torch.float64"]))
    kind = draw(st.sampled_from(["randn", "rand", "randint", "randperm", "normal_view",
                                 "uniform_view"]))
    if kind in ("randn", "rand"):
        return f"x = torch.{kind}({n}, dtype={dtype})"
    if kind == "randint":
        low = draw(st.integers(-2**40, 2**40))
        high = low + draw(st.sampled_from([1, 2, 7, 2**28 - 1, 2**28, 2**33]))
        return f"x = torch.randint({low}, {high}, ({n},))"
    if kind == "randperm":
        return f"x = torch.randperm({max(n, 2)})"   # randperm(1) draws nothing
    step = draw(st.integers(1, 3))
    start = draw(st.integers(0, 2))
    call = ("normal_(0.5, 2.0)" if kind == "normal_view" else "uniform_(-3.0, 4.0)")
    return f"x = torch.zeros({n + 3}, dtype={dtype}); y = x[{start}::{step}].{call}"


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(code=_factories(), seed=st.integers(0, 2**63 - 1))
def test_any_factory_first_element_is_torchs(code, seed):
    torch = require_torch()
    doc = run(code, seed=seed)
    parts = _first(doc)
    offset = parts["(step)"]["note_args"]["offset"]
    assert V.plain(parts["(step)"]["result"]) == _torch_storage(torch, code, seed, "x")[offset]
    if "mt19937" in parts:
        words = _result(parts["mt19937"])
        stream = _stream(seed, 18)
        assert set(words) <= set(stream)
