"""sort, argsort, topk, unique and randperm at 10**4 .. 10**7 elements: tidx (no recorder)
against numpy and torch.

Not a test: prints the best of a few alternated runs and the ratios tidx / numpy and
tidx / torch (machines are noisy; read the ratios).  The inputs are float32 in [0, 1)
with 24 random bits, as torch.rand makes them, so long ones hold ties (10**6 of them hold
some 30,000 pairs): the unstable sorts and topk take tidx's compiled replay of
libstdc++'s tie order, the stable sort a numpy sort.  numpy's counterparts are its own
algorithms (np.sort, np.argsort, np.argpartition + sort, np.unique, permutation), which
give other tie orders: they are a yardstick, not an oracle.  Run from the repository
root::

    python benchmarks/bench_sort.py [--max 7]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.ops import stl_compiled  # noqa: E402

try:
    import torch
except ImportError:          # the ratio against torch is left out
    torch = None


def best(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Best wall time of each function, run in turns so that noise hits all alike."""
    for fn in fns:
        fn()
    times = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            times[i] = min(times[i], time.perf_counter() - t0)
    return times


def cases(n: int):
    x = np.random.default_rng(n).integers(0, 1 << 24, n).astype(np.float32) * np.float32(2**-24)
    k = 100
    ours = engine.from_numpy(x.copy())
    theirs = torch.from_numpy(x.copy()) if torch else None
    yield ("sort", lambda: ours.sort(), lambda: np.sort(x),
           theirs is not None and (lambda: theirs.sort()))
    yield ("sort(stable=True)", lambda: ours.sort(stable=True),
           lambda: np.sort(x, kind="stable"),
           theirs is not None and (lambda: theirs.sort(stable=True)))
    yield ("argsort(descending)", lambda: ours.argsort(descending=True),
           lambda: np.argsort(-x), theirs is not None and (lambda: theirs.argsort(descending=True)))
    yield (f"topk({k})", lambda: ours.topk(k),
           lambda: np.sort(x[np.argpartition(x, n - k)[n - k:]]),
           theirs is not None and (lambda: theirs.topk(k)))
    yield ("topk(n/2, sorted=False)", lambda: ours.topk(n // 2, sorted=False),
           lambda: np.argpartition(x, n // 2),
           theirs is not None and (lambda: theirs.topk(n // 2, sorted=False)))
    yield ("unique(inverse, counts)",
           lambda: ours.unique(return_inverse=True, return_counts=True),
           lambda: np.unique(x, return_inverse=True, return_counts=True),
           theirs is not None and (lambda: theirs.unique(return_inverse=True,
                                                         return_counts=True)))
    gen = np.random.default_rng(0)
    yield ("randperm", lambda: engine.randperm(n), lambda: gen.permutation(n),
           torch is not None and (lambda: torch.randperm(n)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=7, help="largest size, 10**MAX")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    engine.manual_seed(0)
    if torch is not None:
        torch.manual_seed(0)
    print(f"numpy {np.__version__}, torch {torch.__version__ if torch else 'absent'}"
          f"{f' ({torch.get_num_threads()} threads)' if torch else ''}; tidx's compiled "
          f"replay {'available' if stl_compiled.available() else 'UNAVAILABLE'}; "
          "best of alternated runs")
    print(f"{'case':<25}{'n':>9}{'tidx':>11}{'numpy':>11}{'torch':>11}"
          f"{'/numpy':>8}{'/torch':>8}")
    for e in range(4, args.max + 1):
        n = 10**e
        for name, ours, np_fn, torch_fn in cases(n):
            fns = [ours, np_fn] + ([torch_fn] if torch_fn else [])
            repeat = args.repeat if n < 10**7 else 1
            t, tn, *tt = best(fns, repeat)
            to = tt[0] if tt else float("nan")
            print(f"{name:<25}{n:>9}{t * 1e3:>9.1f}ms{tn * 1e3:>9.1f}ms{to * 1e3:>9.1f}ms"
                  f"{t / tn:>8.1f}{t / to:>8.1f}")


if __name__ == "__main__":
    main()
