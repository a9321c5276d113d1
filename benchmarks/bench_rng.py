"""Time tidx's random factories against torch (not a test).

Prints, from one run, the best of several alternated runs of torch and of
tidx and the ratio tidx / torch: float32 ``randn(10_000_000)`` (the whole
tidx factory with no recorder active, then its random kernel alone,
compiled and as the numpy kernel that runs where wasmtime cannot),
``rand(10_000_000)``, ``randperm(1_000_000)``, and the per-call cost of a
small factory.  Run from the repository root::

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

import engine
from engine.core.context import current
from engine.rng import distributions as rng
from engine.rng import wasm as rng_wasm  # noqa: E402

N = 10_000_000
REPEAT = 5


def best_pair(t_fn: Callable[[], object], m_fn: Callable[[], object],
              repeat: int = REPEAT, number: int = 1) -> tuple[float, float]:
    """Best wall times of torch and tidx, runs alternated (fair under load)."""
    t_fn()
    m_fn()
    t_times, m_times = [], []
    for _ in range(repeat):
        for fn, times in ((t_fn, t_times), (m_fn, m_times)):
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            times.append((time.perf_counter() - t0) / number)
    return min(t_times), min(m_times)


def numpy_kernel(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn`` with the compiled kernel switched off (as without wasmtime)."""
    def run() -> object:
        real = rng_wasm.available
        rng_wasm.available = lambda: False
        try:
            return fn()
        finally:
            rng_wasm.available = real
    return run


def main() -> None:
    gen = rng.CPUGenerator(0)
    torch.manual_seed(0)
    cases = {
        "randn(10_000_000) float32": (
            lambda: torch.randn(N), lambda: engine.randn(N), 1),
        "  kernel only, compiled": (
            lambda: torch.randn(N),
            lambda: rng.normal(gen, N, np.float32, 0.0, 1.0), 1),
        "  kernel only, numpy": (
            lambda: torch.randn(N),
            numpy_kernel(lambda: rng.normal(gen, N, np.float32, 0.0, 1.0)),
            1),
        "rand(10_000_000) float32": (
            lambda: torch.rand(N), lambda: engine.rand(N), 1),
        "randperm(1_000_000)": (
            lambda: torch.randperm(1_000_000),
            lambda: engine.randperm(1_000_000), 1),
        "randn(3, 4) per call": (
            lambda: torch.randn(3, 4), lambda: engine.randn(3, 4), 200),
    }
    print(f"torch {torch.__version__}, capability "
          f"{torch.backends.cpu.get_cpu_capability()}, threads "
          f"{torch.get_num_threads()}; tidx capability {current().cpu.name}, normal_ "
          f"build {rng.kernel_build(rng.NORMAL_STUB)}")
    print("tidx: no recorder active; compiled kernel "
          f"{'available' if rng_wasm.available() else 'UNAVAILABLE'}")
    print(f"{'case':28s} {'torch [ms]':>11s} {'tidx [ms]':>10s} {'ratio':>6s}")
    for name, (t_fn, m_fn, number) in cases.items():
        t, m = best_pair(t_fn, m_fn, number=number)
        print(f"{name:28s} {t * 1e3:11.3f} {m * 1e3:10.3f} {m / t:6.2f}")


if __name__ == "__main__":
    main()
