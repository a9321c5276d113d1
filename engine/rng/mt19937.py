"""MT19937 engine and ``CPUGeneratorImpl`` for the RNG emulation.

Mirrors aten/src/ATen/core/MT19937RNGEngine.h and
aten/src/ATen/CPUGeneratorImpl.cpp
(https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/core/MT19937RNGEngine.h,
https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/CPUGeneratorImpl.cpp),
plus the ``uniform_real`` bit trick of aten/src/ATen/core/TransformationHelper.h
applied to whole arrays of raw words.

The raw words come from numpy's own ``MT19937`` bit generator (the same
recurrence and tempering, in C) loaded with torch's exact 624-word state; a
pure numpy regeneration + tempering (:func:`mt19937_words_numpy`) gives the
same words and serves as fallback and cross-check.
"""

from __future__ import annotations

import functools
import os
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from engine.rng.fp import F32, F64

if TYPE_CHECKING:    # imported where used: concurrent.futures costs ~4 ms of a cold start
    from concurrent.futures import Future, ThreadPoolExecutor

__all__ = ["CPUGenerator", "DEFAULT_SEED", "mt19937_words_numpy"]

_N = 624                 # MERSENNE_STATE_N
_M = 397                 # MERSENNE_STATE_M
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER_MASK = np.uint32(0x80000000)
_LOWER_MASK = np.uint32(0x7FFFFFFF)
# CPUGeneratorImpl.h: default_rng_seed_val
DEFAULT_SEED = 67280421310721


# --------------------------------------------------------------------------
# MT19937 (MT19937RNGEngine.h) and the generator (CPUGeneratorImpl.cpp)
# --------------------------------------------------------------------------

def _seed_state(seed: int) -> np.ndarray:
    """``mt19937_engine::init_with_uint32``: only the low 32 bits matter."""
    state = [0] * _N
    state[0] = seed & 0xFFFFFFFF
    for j in range(1, _N):   # 623 sequential steps: inherently serial
        prev = state[j - 1]
        state[j] = (1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF
    return np.array(state, dtype=np.uint32)


def _twist(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    y = (u & _UPPER_MASK) | (v & _LOWER_MASK)
    odd = np.uint32(0) - (v & np.uint32(1))        # all ones where v is odd
    return (y >> np.uint32(1)) ^ (odd & _MATRIX_A)


def _next_state(state: np.ndarray) -> np.ndarray:
    """``mt19937_engine::next_state`` with numpy, 227 words at a time.

    Word i of the new state needs old words i, i+1 and word i+397 (old for
    i < 227, else the already new word i-227), so three slices cover it.
    """
    old = state
    new = np.empty_like(old)
    k = _N - _M                                             # 227
    new[:k] = old[_M:] ^ _twist(old[:k], old[1:k + 1])
    new[k:2 * k] = new[:k] ^ _twist(old[k:2 * k], old[k + 1:2 * k + 1])
    new[2 * k:_N - 1] = new[k:_N - 1 - k] ^ _twist(old[2 * k:_N - 1],
                                                   old[2 * k + 1:_N])
    new[_N - 1] = new[_M - 1] ^ _twist(old[_N - 1:], new[:1])[0]
    return new


def _temper(y: np.ndarray) -> np.ndarray:
    y = y ^ (y >> np.uint32(11))
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


def mt19937_words_numpy(state: np.ndarray, pos: int, n: int
                        ) -> tuple[np.ndarray, np.ndarray, int]:
    """``n`` tempered words after (state, pos) by numpy regeneration.

    ``pos`` is the index of the next word to read (624 = regenerate first,
    as right after seeding).  Returns (words, new_state, new_pos).
    """
    out = np.empty(n, dtype=np.uint32)
    filled = 0
    state = np.array(state, dtype=np.uint32)
    while filled < n:
        if pos == _N:
            state = _next_state(state)
            pos = 0
        take = min(n - filled, _N - pos)
        out[filled:filled + take] = state[pos:pos + take]
        filled += take
        pos += take
    return _temper(out), state, pos


class CPUGenerator:
    """``at::CPUGeneratorImpl``: an mt19937 engine plus cached normals.

    The engine state is held by a ``numpy.random.MT19937`` bit generator:
    numpy implements the same recurrence and tempering as
    MT19937RNGEngine.h, so loading torch's 624-word state into it and
    calling ``random_raw`` yields torch's ``random()`` stream at C speed.
    ``pos`` maps to torch's ``(left_, next_)`` as ``pos = 625 - left_``.
    """

    #: Draw words with numpy's C MT19937 (True) or the numpy-array
    #: regeneration in :func:`mt19937_words_numpy` (False).  Same bits.
    use_numpy_bitgen: bool = True

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        # CPUGeneratorImpl::mutex_: every kernel holds it while drawing.
        self.mutex = threading.Lock()
        self._bitgen = np.random.MT19937()
        self._seed = 0
        self.next_double_normal_sample: float | None = None
        self.next_float_normal_sample: float | None = None
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> None:
        """``set_current_seed``: int -> uint64 (two's complement), reseed.

        torch/csrc/Generator.cpp turns the Python int into uint64_t;
        CPUGeneratorImpl::set_current_seed clears both cached normals.
        """
        self._seed = int(seed) % (1 << 64)
        self.next_double_normal_sample = None
        self.next_float_normal_sample = None
        self._set_state(_seed_state(self._seed), _N)

    def initial_seed(self) -> int:
        """``current_seed()``: the full 64-bit seed, as torch returns it."""
        return self._seed

    def _set_state(self, key: np.ndarray, pos: int) -> None:
        self._bitgen.state = {"bit_generator": "MT19937",
                              "state": {"key": key, "pos": int(pos)}}

    def get_state(self) -> tuple[np.ndarray, int]:
        """(624-word state, pos): pos is the next word (624: regenerate)."""
        st = self._bitgen.state["state"]
        return np.array(st["key"], dtype=np.uint32), int(st["pos"])

    def set_state(self, key: np.ndarray, pos: int) -> None:
        """Put back a state :meth:`get_state` returned (a sampler that read ahead
        rewinds, then draws exactly what it used)."""
        self._set_state(key, pos)

    def random(self, n: int) -> np.ndarray:
        """``n`` successive ``random()`` results (uint32)."""
        if n <= 0:
            return np.empty(0, dtype=np.uint32)
        if self.use_numpy_bitgen:
            return self._bitgen.random_raw(n).astype(np.uint32)
        key, pos = self.get_state()
        words, key, pos = mt19937_words_numpy(key, pos, n)
        self._set_state(key, pos)
        return words

    def random64(self, n: int) -> np.ndarray:
        """``random64()``: ``(uint64(first) << 32) | second``."""
        w = self.random(2 * n).astype(np.uint64)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    def _uniform01(self, n: int, dtype: np.dtype) -> np.ndarray:
        """``n`` values of ``uniform_real_distribution<T>(0, 1)``."""
        out = np.empty(n, dtype=dtype)
        if n == 0:
            return out
        if self.use_numpy_bitgen:
            words = 1 if out.dtype == F32 else 2
            _raw_to_uniform01(self._bitgen.random_raw(n * words), out)
        elif out.dtype == F32:
            np.multiply((self.random(n) & np.uint32(0xFFFFFF)).astype(F32),
                        F32(2.0 ** -24), out=out)
        else:
            bits = self.random64(n) & np.uint64((1 << 53) - 1)
            np.multiply(bits.astype(F64), 2.0 ** -53, out=out)
        return out


def _raw_to_uniform01(raw: np.ndarray, out: np.ndarray) -> None:
    """``uniform_real(val, 0, 1)`` from raw ``random()`` words (uint64 array).

    TransformationHelper.h: ``x = (val & MASK) * 2^-digits`` with 24 bits of
    ``random()`` for float32 and 53 bits of ``random64()`` (= first word
    << 32 | second word) for float64; both products are exact.
    """
    if out.dtype == F32:
        raw &= np.uint64(0xFFFFFF)
        np.multiply(raw.astype(F32), F32(2.0 ** -24), out=out)
        return
    hi = raw[0::2] & np.uint64(0x1FFFFF)          # 53 - 32 = 21 high bits
    hi <<= np.uint64(32)
    hi |= raw[1::2]
    np.multiply(hi.astype(F64), 2.0 ** -53, out=out)


# --------------------------------------------------------------------------
# Overlapping the (serial) word generation with the per-element work
# --------------------------------------------------------------------------

_PIPELINE_MIN = 1 << 18      # elements; smaller tensors: one plain pass
_PIPELINE_CHUNK = 1 << 16    # elements per work item (a multiple of 16)
_PREFETCH = 2                # chunks of words drawn ahead
_JOBS_IN_FLIGHT = 8          # chunks converted/transformed on workers
_DRAWER: ThreadPoolExecutor | None = None


def _forget_drawer() -> None:
    # A forked child inherits the executor object but not its thread.
    global _DRAWER
    _DRAWER = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_drawer)


def _drawer() -> ThreadPoolExecutor:
    """One worker thread: draws run one at a time, in submission order."""
    global _DRAWER
    if _DRAWER is None:
        from concurrent.futures import ThreadPoolExecutor
        _DRAWER = ThreadPoolExecutor(max_workers=1,
                                     thread_name_prefix="tidx-rng-draw")
    return _DRAWER


def _uniform01_into(gen: CPUGenerator, out: np.ndarray,
                    then: Callable[[np.ndarray], None] | None = None,
                    workers: Callable[[Callable[[], None]], Future[None]]
                    | None = None) -> None:
    """Fill ``out`` with uniforms in stream order, then ``then(chunk)``.

    For big outputs the MT19937 words of the next chunks are drawn in a
    helper thread (numpy's ``random_raw`` runs without the GIL; one thread,
    so the draws stay serial and in order) while this thread converts the
    current chunk and runs ``then`` on it (e.g. its NormalFill16 blocks).
    With ``workers`` (a function that runs a job on a pool and returns its
    future), each chunk's conversion and ``then`` run there instead, a few
    chunks at a time.  The results do not depend on the overlap.
    """
    n = out.size
    if not gen.use_numpy_bitgen or n < _PIPELINE_MIN:
        out[...] = gen._uniform01(n, out.dtype)
        if then is not None:
            then(out)
        return
    words = 1 if out.dtype == F32 else 2
    parts = [out[s:s + _PIPELINE_CHUNK] for s in range(0, n, _PIPELINE_CHUNK)]
    pending = deque(parts)
    draws: deque[Future[np.ndarray]] = deque()
    jobs: deque[Future[None]] = deque()

    def draw_ahead() -> None:
        if pending:
            size = pending.popleft().size * words
            draws.append(_drawer().submit(gen._bitgen.random_raw, size))

    def finish(raw: np.ndarray, part: np.ndarray) -> None:
        _raw_to_uniform01(raw, part)
        if then is not None:
            then(part)

    try:
        for _ in range(_PREFETCH):
            draw_ahead()
        for part in parts:
            raw = draws.popleft().result()
            draw_ahead()
            if workers is None:
                finish(raw, part)
                continue
            if len(jobs) >= _JOBS_IN_FLIGHT:    # bound the words held
                jobs.popleft().result()
            jobs.append(workers(functools.partial(finish, raw, part)))
        while jobs:
            jobs.popleft().result()
    finally:
        # Never leave draws or jobs running behind (e.g. after an error).
        from concurrent import futures
        outstanding: list[Future[Any]] = [*draws, *jobs]
        futures.wait(outstanding)
