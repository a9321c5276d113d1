"""softmax and log_softmax (engine/ops/softmax.py) against torch 2.13: call forms, dtype=,
dims, integer and bool inputs (torch's NotImplementedError), 0-dim and empty tensors,
strided inputs (the kernel's contiguous copy), the aten operators torch.profiler records
(softmax -> [to] -> _softmax -> [contiguous]), and values within the bound the kernel's
note states (docs/fidelity-math.md) under every CPU capability this machine runs, torch
in a worker per capability."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import softmax_cases
from conftest import examples, require_torch
from engine.interpreter import session, verify
from engine.ops.softmax import LOG_SOFTMAX_EPS, SOFTMAX_ULPS
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

#: values whose softmax every exp gives exactly (equal elements: exp(0) = 1, then 1/n)
X = "x = torch.full((2, 4), 3.)"
I = "i = torch.tensor([[1, 2], [3, 4]])"


@pytest.mark.parametrize("statements", [
    [X, "y = torch.softmax(x, 1)"], [X, "y = x.softmax(dim=-1)"],
    [X, "y = torch.softmax(x, 0)"], [X, "y = x.t().softmax(1)"],
    [X, "y = torch.softmax(x, 1, torch.float64)"], [X, "y = x.softmax(1, dtype=torch.float32)"],
    [X, "y = torch.log_softmax(x * 0, 1)"], [X, "y = (x * 0).log_softmax(0)"],
    [X, "y = torch.softmax(x[:, :0], 1)"], ["y = torch.softmax(torch.tensor(2.), 0)"],
    ["y = torch.log_softmax(torch.tensor(2.), -1)"],
    # errors, word for word, at the step that raises them
    [X, "y = torch.softmax(x, 2)"], [X, "y = x.log_softmax(-3)"],
    [I, "y = torch.softmax(i, 1)"], [I, "y = torch.softmax(i, 0)"],
    [I, "y = i.log_softmax(1)"], [I, "y = i.log_softmax(0)"],
    ["b = torch.tensor([True, False])", "y = torch.softmax(b, 0)"],
    [X, "y = torch.softmax(x, 1, torch.int64)"],
    [X, "y = torch.softmax(x)"],
    # an integer input with dtype=: cast first, then softmax
    [I, "y = torch.softmax(i * 0, 1, dtype=torch.float32)"],
    # infinities and NaN go through as torch's kernel takes them
    ["y = torch.softmax(torch.tensor([float('inf'), 1.]), 0)"],
    ["y = torch.softmax(torch.tensor([float('-inf'), float('-inf')]), 0)"],
    ["y = torch.log_softmax(torch.tensor([float('nan'), 1.]), 0)"],
])
def test_softmax_is_torchs(statements):
    assert_like_torch(statements)


def test_float16_is_refused_in_one_line():
    from engine.core.errors import Refused
    with pytest.raises(Refused, match="float16") as exc:
        session.run("x = torch.ones(3, dtype=torch.half); y = x.softmax(0)")
    assert "\n" not in str(exc.value)


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3), data=st.data(),
       op=st.sampled_from(["softmax", "log_softmax"]),
       dtype=st.sampled_from(["float32", "float64"]))
def test_verify_compares_within_the_stated_bound(shape, data, op, dtype):
    """--verify accepts tidx's values against torch's within the note's bound (and only
    within it: tests/interpreter's verify tests hold that), for any shape and dim."""
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    seed = data.draw(st.integers(0, 2**16))
    values = (np.random.default_rng(seed).standard_normal(int(np.prod(shape))) * 5)
    text = (f"x = torch.tensor({values.tolist()}, dtype=torch.{dtype}).reshape({shape})\n"
            f"y = torch.{op}(x, {dim})")
    doc = session.run(text)
    rows = verify.verify(text, doc)
    assert all(row.ok for row in rows), [r.details for r in rows]


# -- every CPU capability: within the bound, and the order replayed -------------------------
RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


def _ulps(a: np.ndarray, b: np.ndarray) -> int:
    ints = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    lo = np.iinfo(ints).min

    def ordinal(x):
        i = x.view(ints).astype(np.int64)
        return np.where(i < 0, lo - i, i)
    return int(np.abs(ordinal(a) - ordinal(b)).max()) if a.size else 0


CASES = [(op, dtype, shape, dim, scale, layout, seed)
         for op in ("softmax", "log_softmax")
         for dtype in ("float32", "float64")
         for shape, dim, layout, seed in (((300, 7), 1, "contiguous", 1),
                                          ((64, 33), 1, "contiguous", 2),
                                          ((33, 64), 0, "contiguous", 3),
                                          ((5, 1000), 1, "contiguous", 4),
                                          ((1000, 5), 0, "contiguous", 5),
                                          ((40, 17), 1, "transposed", 6),
                                          ((4, 9, 11), 1, "contiguous", 7))
         for scale in (1.0, 30.0)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}-d{c[3]}-{c[5]}-x{c[4]}")
def test_within_the_stated_bound_under_every_capability(workers, case):
    """Rows shorter and longer than a vector (7, 33, 1000 elements: the lanes' tail),
    the last dim and another one (the two loops), a transposed input (contiguous()):
    every element within 7 ulp for softmax, within 3 eps max(1, |y|) for log_softmax."""
    op, dtype = case[0], case[1]
    np_type = np.dtype(dtype)
    for cap, worker in workers.items():
        theirs = worker.call("softmax_cases", "run", case)
        ours = under_capability(cap, softmax_cases.run, engine, case)
        assert ours[:2] == theirs[:2]
        a, b = np.array(ours[2], np_type), np.array(theirs[2], np_type)
        if op == "softmax":
            assert _ulps(a, b) <= SOFTMAX_ULPS, (cap, case, _ulps(a, b))
        else:
            eps = np.finfo(np_type).eps
            assert np.all(np.abs(a - b) <= LOG_SOFTMAX_EPS * eps * np.maximum(1, np.abs(b))), \
                (cap, case, float(np.abs(a - b).max()))


def test_the_kernel_states_whose_exp_and_how_far():
    doc = session.run("x = torch.tensor([0.5, 2.0]); y = torch.softmax(x, 0); "
                      "z = x.log_softmax(0)")
    notes = {e["note_id"]: e for s in doc["statements"] for e in _walk(s["events"])
             if e.get("note_id") in ("math.within_ulps", "softmax.log_bound")}
    assert notes["math.within_ulps"]["note_args"]["ulps"] == SOFTMAX_ULPS
    assert "Sleef" in notes["math.within_ulps"]["note_args"]["library"]
    assert notes["softmax.log_bound"]["note_args"]["eps"] == LOG_SOFTMAX_EPS


def test_replaying_the_sum_order_keeps_a_long_dim_within_the_bound():
    """Along a dim other than the last, torch adds a 4,099-element column one element at
    a time; numpy's pairwise sum of it is dozens of ulp away.  The bound holds because
    tidx replays the order, not by luck."""
    torch = require_torch()
    values = np.random.default_rng(0).standard_normal((4099, 4)) * 10
    theirs = torch.softmax(torch.tensor(values), 0).numpy()
    ours = np.array(engine.softmax(engine.tensor(values.tolist(), dtype=engine.float64), 0)
                    .tolist())
    assert _ulps(ours, theirs) <= SOFTMAX_ULPS
    e = np.exp(values - values.max(0, keepdims=True))
    pairwise = np.ascontiguousarray(e.T).sum(1)     # numpy's pairwise sum of each column
    assert _ulps(e / pairwise, theirs) > 3 * SOFTMAX_ULPS


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children") or [])
