"""Which zero max(), min() and aminmax() of a whole tensor keep when +0.0 and -0.0 tie
(engine/ops/reduce_all.py: reduce_all's vector folds, the AVX2 float build's shuffles),
compared with torch 2.13 under every capability this machine runs, both sides under
each: once refused, now replayed."""

from __future__ import annotations

import pytest

import engine
import zero_sign_cases
from torch_worker import capability_workers, runnable, under_capability

pytestmark = pytest.mark.torch

RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


#: lengths around the vector widths (8 floats, 4 doubles) and their tails
CASES = [(dtype, n, seed) for dtype in ("float32", "float64")
         for n in (1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 33, 64, 70)
         for seed in (1, 2, 3, 4)]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_zero_kept_is_torchs_under_every_capability(workers, case):
    for cap, worker in workers.items():
        theirs = worker.call("zero_sign_cases", "run", case)
        ours = under_capability(cap, zero_sign_cases.run, engine, case)
        assert ours == theirs, cap


@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_past_one_grain_the_threads_results_fold_into_the_first_element(workers, dtype):
    for seed in (5, 6, 7):
        case = (dtype, 70_001, seed)
        for cap, worker in workers.items():
            theirs = worker.call("zero_sign_cases", "run", case)
            ours = under_capability(cap, zero_sign_cases.run, engine, case)
            assert ours == theirs, (cap, seed)
