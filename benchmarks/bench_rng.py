"""Time tidx's RNG emulation against torch (not a test).

Prints, for float32 ``randn(10_000_000)`` and ``rand(10_000_000)``, the best
of several runs for torch and for :mod:`engine.rng`, and the ratio
tidx / torch.  Run from the repository root::

    python3 benchmarks/bench_rng.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from engine import rng  # noqa: E402

N = 10_000_000
REPEAT = 5


def best_pair(t_fn: Callable[[], object], m_fn: Callable[[], object]
              ) -> tuple[float, float]:
    """Best wall times of torch and tidx, runs alternated (fair under load)."""
    t_fn()
    m_fn()
    t_times, m_times = [], []
    for _ in range(REPEAT):
        for fn, times in ((t_fn, t_times), (m_fn, m_times)):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return min(t_times), min(m_times)


def main() -> None:
    gen = rng.CPUGenerator(0)
    torch.manual_seed(0)
    cases = {
        "randn(10_000_000) float32": (
            lambda: torch.randn(N),
            lambda: rng.normal(gen, N, np.float32, 0.0, 1.0)),
        "rand(10_000_000) float32": (
            lambda: torch.rand(N),
            lambda: rng.uniform(gen, N, np.float32, 0.0, 1.0)),
    }
    print(f"torch {torch.__version__}, capability "
          f"{torch.backends.cpu.get_cpu_capability()}, threads "
          f"{torch.get_num_threads()}; tidx capability {rng.cpu_capability()}")
    print(f"{'case':28s} {'torch [ms]':>11s} {'tidx [ms]':>10s} {'ratio':>6s}")
    for name, (t_fn, m_fn) in cases.items():
        t, m = best_pair(t_fn, m_fn)
        print(f"{name:28s} {t * 1e3:11.1f} {m * 1e3:10.1f} {m / t:6.2f}")


if __name__ == "__main__":
    main()
