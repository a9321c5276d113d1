"""at::parallel_for for the kernels: split [0, n) across threads when it is worth it.

ATen's CPU kernels split work above ``GRAIN_SIZE`` elements across its intra-op
threads (aten/src/ATen/Parallel.h); numpy releases the GIL inside take/put and the
ufuncs, so a thread pool gives tidx the same parallelism.  Below the grain size the
work runs on the caller's thread, in order, as ATen's does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core.context import current

if TYPE_CHECKING:    # concurrent.futures costs ~6 ms of every cold start; few runs need it
    from concurrent.futures import ThreadPoolExecutor

#: at::internal::GRAIN_SIZE
GRAIN_SIZE = 32768

_POOL: ThreadPoolExecutor | None = None


def num_threads() -> int:
    """at::get_num_threads() in this run: the physical cores this process may use, or
    what MKL_NUM_THREADS / OMP_NUM_THREADS ask (engine.core.capability.num_threads)."""
    return current().cpu.threads


def chunks(n: int, grain: int = GRAIN_SIZE) -> list[tuple[int, int]]:
    """The ranges at::parallel_for(0, n, grain) hands its threads under OpenMP: as many
    threads as there are grains (at most num_threads()), each one chunk of divup(n,
    threads) elements.  Where a kernel's result depends on where a chunk starts (a
    vectorised loop restarting, each thread stopping at its own error), this is it.

    >>> chunks(10), chunks(0)
    ([(0, 10)], [])
    """
    if n <= 0:
        return []
    threads = max(1, min(num_threads(), -(-n // grain)))
    size = -(-n // threads)
    return [(b, min(b + size, n)) for b in range(0, n, size)]


def parallel_for(n: int, fn: Callable[[int, int], None], grain: int = GRAIN_SIZE) -> None:
    """Call ``fn(begin, end)`` over chunks covering ``[0, n)``.

    >>> seen = []
    >>> parallel_for(10, lambda b, e: seen.append((b, e)))
    >>> seen
    [(0, 10)]
    """
    global _POOL
    threads = min(num_threads(), max(1, n // grain))
    if threads <= 1:
        fn(0, n)
        return
    if _POOL is None:
        from concurrent.futures import ThreadPoolExecutor
        _POOL = ThreadPoolExecutor(max_workers=num_threads(), thread_name_prefix="tidx")
    step = -(-n // threads)
    bounds = [(b, min(b + step, n)) for b in range(0, n, step)]
    for future in [_POOL.submit(fn, b, e) for b, e in bounds]:
        future.result()
