"""The AVX2 float32 ``NormalFill16``, compiled: a WebAssembly twin of numpy's.

``randn`` of a large float32 tensor spends nearly all its time in the
Box-Muller transform of ``NormalFill16<float, true>``
(aten/src/ATen/native/cpu/DistributionTemplates.h, with avx_mathfun.h's
``log256_ps``/``sincos256_ps``).  Emulated with numpy
(:func:`engine.rng.normal_fill._avx2_pairs`), each of its float32 operations and
each fma emulated in float64 is a pass over memory: about five times
torch's time for ``randn(10_000_000)``.  ``normal_fill16.wat`` performs the
same operations, in the same order and precision, four lanes at a time;
wasmtime (already a dependency, for SVG without ``dot``) compiles it to
machine code and runs it without holding the GIL, so large tensors are
transformed on every core.  WebAssembly's float arithmetic is IEEE with
round-to-nearest-even and no fast-math, so the two kernels agree bit for
bit: ``tests/rng/test_rng_wasm.py`` checks that for spread inputs, and with
TIDX_RNG_EXHAUSTIVE=1 for all 2^24 inputs of each half of the transform.

This is an implementation detail of the emulation, not a step of torch's:
traces show the kernel torch runs.  Without wasmtime (a platform with no
wheel) the numpy kernel runs instead: the same numbers, slower.
"""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, SupportsFloat

import numpy as np

from engine.rng import normal_fill as rn
from engine.rng.fp import fma32

if TYPE_CHECKING:    # imported where used: concurrent.futures costs ~4 ms of a cold start
    from concurrent.futures import Future, ThreadPoolExecutor

_WAT = Path(__file__).with_name("normal_fill16.wat")

# Floats per call: the slice of wasm memory stays in L2 (a multiple of 16).
CHUNK = 1 << 16
_WASM_PAGE = 1 << 16


def _constants() -> dict[str, str]:
    """The template's constants, taken from rng_normal's (exact hex floats)."""
    def hx(v: SupportsFloat) -> str:
        return float(v).hex()
    c = {
        "SQRTHF_MANTISSA": str(rn._SQRTHF_MANTISSA),
        "LOG_Q1": hx(rn._LOG_Q1), "LOG_Q2": hx(rn._LOG_Q2),
        "TWO_PI": hx(rn._TWO_PI_F32), "FOPI": hx(rn._FOPI),
        "DP1": hx(rn._DP1), "DP2": hx(rn._DP2), "DP3": hx(rn._DP3_64),
    }
    c.update({f"LOG_P{i}": hx(p) for i, p in enumerate(rn._LOG_P64)})
    c.update({f"COS_P{i}": hx(p) for i, p in enumerate(rn._COSCOF64)})
    c.update({f"SIN_P{i}": hx(p) for i, p in enumerate(rn._SINCOF64)})
    return c


def _wasmtime() -> Any:
    """The wasmtime module, imported on first use: it is optional (the numpy kernels run
    without it) and loading it costs start-up time a statement drawing no large random
    tensor should not pay."""
    import wasmtime
    return wasmtime


def module_text() -> str:
    """The WebAssembly text of the kernel with its constants filled in."""
    return _WAT.read_text(encoding="utf-8").format(**_constants())


class _Instance:
    """One instance of the module (a wasmtime store is single-threaded)."""

    def __init__(self, engine: Any, module: Any) -> None:
        wasmtime = _wasmtime()
        self.store = wasmtime.Store(engine)
        exports = wasmtime.Instance(self.store, module, []).exports(self.store)
        self.fn = exports["normal16"]
        memory = exports["memory"]
        memory.grow(self.store, 4 * CHUNK // _WASM_PAGE)
        self.view = np.frombuffer(memory.get_buffer_ptr(self.store),
                                  dtype=np.float32)

    def __call__(self, blocks: np.ndarray, plus0: bool) -> None:
        # Contiguous, so that flat is a view and the results land in blocks.
        assert blocks.flags.c_contiguous, "blocks must be contiguous"
        flat = blocks.reshape(-1)
        for s in range(0, flat.size, CHUNK):
            part = flat[s:s + CHUNK]
            n = part.size
            self.view[:n] = part
            self.fn(self.store, 0, n // 16, int(plus0))
            part[...] = self.view[:n]


_LOCK = threading.Lock()
_ENGINE: Any = None
_MODULES: dict[str, Any] = {}           # file stem -> compiled module
_UNAVAILABLE: set[str] = set()          # "*": no wasmtime at all
_LOCAL = threading.local()
_INSTANCES: list[_Instance] = []


def _module(name: str, path: Path | None = None) -> Any | None:
    """The compiled module of ``engine/rng/<name>.wat`` (or of the file at ``path``),
    compiled once, or None."""
    global _ENGINE
    with _LOCK:
        if name in _MODULES or "*" in _UNAVAILABLE or name in _UNAVAILABLE:
            return _MODULES.get(name)
        try:
            wasmtime = _wasmtime()
        except (ImportError, OSError):       # no wasmtime for this platform
            _UNAVAILABLE.add("*")
            return None
        if _ENGINE is None:
            config = wasmtime.Config()
            # Single-function modules: nothing to compile in parallel, and
            # rayon's pool would deadlock a forked child compiling again.
            config.parallel_compilation = False
            _ENGINE = wasmtime.Engine(config)
        text = (module_text() if name == "normal_fill16"
                else (path or _WAT.with_name(f"{name}.wat")).read_text(encoding="utf-8"))
        try:
            _MODULES[name] = wasmtime.Module(_ENGINE, text)
        except wasmtime.WasmtimeError:
            # e.g. a CPU whose SIMD Cranelift cannot target (the tests of
            # available() catch a broken module on ours).
            _UNAVAILABLE.add(name)
        return _MODULES.get(name)


def compiled(path: Path) -> Any | None:
    """The compiled module of the WebAssembly text at ``path``, for the compiled kernels
    of other wings (engine/ops/stl.wat), or None without wasmtime."""
    return _module(str(path), path)


def instance(module: Any) -> tuple[Any, Any]:
    """A fresh (store, exports) of ``module``; the caller closes the store, which frees
    the instance's memory."""
    wasmtime = _wasmtime()
    store = wasmtime.Store(_ENGINE)
    return store, wasmtime.Instance(store, module, []).exports(store)


def grow_to(store: Any, memory: Any, nbytes: int) -> np.ndarray:
    """Grow ``memory`` to hold ``nbytes`` at least; its bytes as a numpy array."""
    pages = -(-nbytes // _WASM_PAGE) - memory.size(store)
    if pages > 0:
        memory.grow(store, pages)
    return np.frombuffer(memory.get_buffer_ptr(store), dtype=np.uint8)


def available() -> bool:
    """Whether the compiled NormalFill16 can run here (compiles it once)."""
    return _module("normal_fill16") is not None


def _instance() -> _Instance:
    inst = getattr(_LOCAL, "instance", None)
    if inst is None:
        module = _module("normal_fill16")
        assert module is not None, "check available() first"
        inst = _LOCAL.instance = _Instance(_ENGINE, module)
        with _LOCK:
            _INSTANCES.append(inst)
    return inst


@atexit.register
def _close() -> None:
    # Free wasmtime's objects while the interpreter still works: left to
    # their __del__ at shutdown they print "Exception ignored" tracebacks.
    global _POOL, _ENGINE
    if _POOL is not None:
        _POOL.shutdown(wait=True)
        _POOL = None
    with _LOCK:
        for inst in _INSTANCES:
            inst.store.close()
        _INSTANCES.clear()
        for module in _MODULES.values():
            module.close()
        _MODULES.clear()
        if _ENGINE is not None:
            _ENGINE.close()
            _ENGINE = None


def avx2_pairs(blocks: np.ndarray, mean: np.float32, std: np.float32) -> None:
    """In place ``NormalFill16<float, true>`` on a contiguous (blocks, 16)
    float32 array: :func:`engine.rng.normal_fill._avx2_pairs`, compiled."""
    # fma(n, 1, m) == n + m for a zero m: the kernel adds +0 itself, and
    # adding -0 changes nothing (-0 + -0 is -0), so only the sign decides.
    unit = bool(std == 1 and mean == 0)
    plus0 = unit and not np.signbit(mean)
    _instance()(blocks, plus0)
    if not unit:
        # fmadd(n, std, mean) with a general std/mean: exactly rounded, numpy.
        blocks[...] = fma32(blocks, std, mean)


# --------------------------------------------------------------------------
# Workers: every core transforms blocks (the calls release the GIL)
# --------------------------------------------------------------------------

_POOL: ThreadPoolExecutor | None = None
_FORKED: list[object] = []


def _forget_pool() -> None:
    # A forked child inherits the pool object but not its threads, and
    # copies of wasmtime objects it should neither use nor free.
    global _POOL, _ENGINE, _LOCAL
    _FORKED.append((_POOL, _ENGINE, dict(_MODULES), _LOCAL, list(_INSTANCES)))
    _POOL = _ENGINE = None
    _MODULES.clear()
    _LOCAL = threading.local()
    _INSTANCES.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _cores() -> int:
    """Cores this process may use (the in-flight jobs are few anyway)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:              # not on Linux
        n = os.cpu_count() or 2
    return max(1, min(n, 8))


def submit(job: Callable[[], None]) -> Future[None]:
    """Run ``job()`` on a worker thread (one per core); its future."""
    global _POOL
    with _LOCK:
        if _POOL is None:
            from concurrent.futures import ThreadPoolExecutor
            _POOL = ThreadPoolExecutor(max_workers=_cores(),
                                       thread_name_prefix="tidx-rng-normal")
        return _POOL.submit(job)


# --------------------------------------------------------------------------
# randperm's Fisher-Yates swaps (sequential: compiled, not vectorised)
# --------------------------------------------------------------------------

#: randperm's n the compiled shuffles take: r (int32) and its byte addresses stay
#: below 2^31.
FISHER_YATES_MAX = 1 << 29

#: Steps per call: the draws of one chunk (int32) follow r in wasm memory.
SHUFFLE_CHUNK = 1 << 20


def shuffle_available() -> bool:
    """Whether the compiled shuffles can run here (compiles them once per process)."""
    return _module("fisher_yates") is not None


def shuffle_bytes(n: int) -> int:
    """The wasm memory :func:`fisher_yates` takes for ``n``: r, then one chunk of z."""
    return 4 * n + 4 * min(n, SHUFFLE_CHUNK)


def fisher_yates(n: int, offsets: Callable[[int, int], np.ndarray], out: np.ndarray,
                 inside_out: bool = False) -> bool:
    """randperm_cpu's shuffle of ``n`` elements into ``out``; False (and ``out``
    untouched) when the compiled loop is unavailable.

    ``offsets(start, stop)`` gives the z of steps ``start .. stop - 1`` (drawn in
    that order, chunk after chunk): ``random() % (n - i)`` for the small-n shuffle
    over ``r = arange(n)``, which swaps r[i] and r[i + z]; ``random64() % (i + 1)``
    for the inside-out one (``inside_out``).  A fresh instance per call: its memory
    (:func:`shuffle_bytes`) is freed when the call returns.
    """
    assert 1 < n < FISHER_YATES_MAX, "n out of the compiled shuffle's range"
    module = _module("fisher_yates")
    if module is None:
        return False
    store, exports = instance(module)
    try:
        memory = grow_to(store, exports["memory"], shuffle_bytes(n))
        zs = 4 * n
        z = memory[zs:zs + 4 * min(n, SHUFFLE_CHUNK)].view(np.int32)
        steps = n if inside_out else n - 1
        if not inside_out:
            exports["iota"](store, n)
        for start in range(0, steps, SHUFFLE_CHUNK):
            stop = min(steps, start + SHUFFLE_CHUNK)
            z[:stop - start] = offsets(start, stop)
            exports["inside_out" if inside_out else "swaps"](store, start, stop, zs)
        out[...] = memory[:4 * n].view(np.int32)
        return True
    finally:
        store.close()
