"""lerp, hypot, atan2 (engine/ops/math_binary.py) against torch 2.13: call forms, dtypes,
errors word for word and the aten operators torch.profiler records; lerp and float hypot
bit for bit under every CPU capability this machine runs (lerp fuses its multiply-add in
the AVX2/AVX512 builds only), atan2 and double hypot within the bound their note states."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from engine.interpreter import session
from oracle import assert_like_torch, call, forms
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

A = "a = torch.tensor([[1.5, -2., 0.1], [3., 1e30, -0.]])"
B = "b = torch.tensor([[0.5, 4., -0.3], [-3., 1e-30, 0.]])"
W = "w = torch.tensor([[0.25, 0.5, 0.75], [-1., 2., 0.49]])"


@pytest.mark.parametrize("statements", [
    [A, B, "y = torch.lerp(a, b, 0.3)"], [A, B, "y = a.lerp(b, 0.7)"],
    [A, B, W, "y = torch.lerp(a, b, w)"], [A, B, W, "y = a.lerp_(b, w)"],
    [A, B, "y = a.lerp_(b, 0.5)"], [A, B, "o = torch.empty(0)", "y = torch.lerp(a, b, 2., out=o)"],
    [A, B, W, "y = torch.lerp(a.t(), b.t(), w[0:1].t())"], [A, B, "y = torch.lerp(a, b[0], 0.1)"],
    [A, B, "y = torch.lerp(a.half(), b.half(), 0.3)"],
    [A, B, "y = torch.lerp(a.double(), b.double(), 1 / 3)"],
    [A, B, "y = torch.lerp(a, b.double(), 0.3)"], [A, B, W, "y = torch.lerp(a, b, w.double())"],
    ["i = torch.tensor([1, 2])", "y = torch.lerp(i, i, 0.5)"],
    ["i = torch.tensor([1, 2])", "y = torch.lerp(i, i, i)"],
    [A, B, "y = torch.hypot(a, b)"], [A, B, "y = a.hypot_(b)"], [A, B, "y = a.half().hypot(b.half())"],
    [A, B, "o = torch.empty(0)", "y = torch.hypot(a, b, out=o)"],
    ["i = torch.tensor([3, 4])", "y = torch.hypot(i, i)"], [A, "y = torch.hypot(a, 2.)"],
    [A, B, "y = torch.atan2(a * 0, b)"], [A, "y = torch.atan2(a * 0, a * 0 - 1)"],
    ["i = torch.tensor([0, 1])", "y = torch.atan2(i * 0, i)"],
    [A, B, "o = torch.empty(0, dtype=torch.long)", "y = torch.atan2(a, b, out=o)"],
])
def test_binary_math_is_torchs(statements):
    assert_like_torch(statements)


@given(form=forms(), dtype=st.sampled_from(["float32", "float64", "float16"]),
       tensor_weight=st.booleans(), n=st.integers(1, 40), seed=st.integers(0, 2**16))
@settings(max_examples=examples(80), deadline=None)
def test_lerp_gives_torchs_bits(form, dtype, tensor_weight, n, seed):
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n) for _ in range(2))
    w = rng.uniform(-0.5, 1.5, n)

    def program(lib):
        t = lib.tensor(a.tolist(), dtype=getattr(lib, dtype))
        e = lib.tensor(b.tolist(), dtype=getattr(lib, dtype))
        weight = lib.tensor(w.tolist(), dtype=getattr(lib, dtype)) if tensor_weight \
            else float(w[0])
        return call(lib, form, "lerp", t, e, weight)
    assert_like_torch(program)


RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


def run(torch, case: tuple) -> list:
    op, dtype, n, seed = case
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n) for _ in range(2))
    t = torch.tensor(a.tolist(), dtype=getattr(torch, dtype))
    e = torch.tensor(b.tolist(), dtype=getattr(torch, dtype))
    if op == "lerp":
        w = torch.tensor(rng.uniform(-0.5, 1.5, n).tolist(), dtype=getattr(torch, dtype))
        r = torch.lerp(t, e, w)
    elif op == "lerp_scalar":
        r = torch.lerp(t, e, 0.3)
    else:
        r = getattr(torch, op)(t, e)
    return [float.hex(float(v)) for v in r.tolist()]


def _tidx(case: tuple, capability: str) -> list:
    return under_capability(capability, run, engine, case)


def _ulps(a: list, b: list, dtype: str) -> int:
    f, i = {"float16": (np.float16, np.int16), "float32": (np.float32, np.int32),
            "float64": (np.float64, np.int64)}[dtype]
    x = np.array([float.fromhex(v) for v in a], f).view(i).astype(np.int64)
    y = np.array([float.fromhex(v) for v in b], f).view(i).astype(np.int64)
    return int(np.abs(x - y).max()) if len(a) else 0


@pytest.mark.parametrize("case", [(op, dtype, n, seed) for op in ("lerp", "lerp_scalar",
                                                                  "hypot", "atan2")
                                  for dtype in ("float32", "float64", "float16")
                                  for n, seed in ((37, 1), (5000, 2))], ids=str)
def test_bits_or_bound_under_every_capability(workers, case):
    op, dtype = case[0], case[1]
    bound = {"atan2": {"float32": 4, "float64": 2, "float16": 2},
             "hypot": {"float32": 0, "float64": 2, "float16": 0}}.get(op, {}).get(dtype, 0)
    for cap, worker in workers.items():
        ours, theirs = _tidx(case, cap), worker.call("ops.test_math_binary", "run", case)
        if bound == 0:
            assert ours == theirs, cap
        else:
            assert _ulps(ours, theirs, dtype) <= bound, cap


def test_the_fused_multiply_add_follows_the_capability():
    notes = {}
    for cap in ("default", "avx2"):
        doc = session.run("a = torch.ones(2); y = torch.lerp(a, a * 3, 0.3)", cpu_capability=cap)
        found = [e for s in doc["statements"] for e in _walk(s["events"])
                 if e.get("note_id") == "math.lerp"]
        notes[cap] = found[0]["note_args"]["fused"]
    assert notes == {"default": False, "avx2": True}


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children", []))
