"""PyTorch 2.13's CPU random number generation, bit for bit, with numpy.

What is mirrored (links to https://github.com/pytorch/pytorch/blob/v2.13.0/):

* ``mt19937`` engine and seeding: aten/src/ATen/core/MT19937RNGEngine.h
* generator, cached normals, ``random64``: aten/src/ATen/CPUGeneratorImpl.cpp
  (both in :mod:`engine.rng.mt19937`)
* ``uniform_real_distribution``, ``normal_distribution<double>``,
  ``uniform_int_from_to_distribution``:
  aten/src/ATen/core/DistributionsHelper.h
* ``uniform_real``, ``uniform_int_from_to``, ``normal``:
  aten/src/ATen/core/TransformationHelper.h
* ``uniform_kernel``, ``normal_kernel``/``normal_fill``,
  ``random_from_to_kernel``: aten/src/ATen/native/cpu/DistributionTemplates.h
  (``NormalFill16`` and avx_mathfun live in :mod:`engine.rng.normal_fill`)
* ``randperm_cpu``: aten/src/ATen/native/TensorFactories.cpp
* kernel choice per CPU: aten/src/ATen/native/DispatchStub.cpp

Everything on the paths that large tensors take is vectorised over whole
arrays, except two loops that run compiled (:mod:`engine.rng.wasm`): the
float32 AVX2 Box-Muller of a large ``randn`` (on every core) and
randperm's Fisher-Yates swaps (sequential by nature).
Where glibc's libm or GCC's FMA contraction decide the last bit, the
emulation reproduces them (see :mod:`engine.rng.fp`,
:mod:`engine.rng.libm` and :mod:`engine.rng.normal_fill`).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, TypeVar

import numpy as np

from engine.core.dispatch_stub import DispatchStub
from engine.rng.stubs import NORMAL_STUB, UNIFORM_STUB
from engine.rng import wasm as rng_wasm
from engine.rng.fp import F32, F64, fma32, fma64
from engine.rng.libm import glibc_vector
from engine.rng.mt19937 import DEFAULT_SEED, CPUGenerator, _uniform01_into, mt19937_words_numpy
from engine.rng.normal_fill import block_kernel

__all__ = [
    "CPUGenerator", "NORMAL_STUB", "UNIFORM_STUB", "kernel_build", "uniform",
    "normal", "randint", "randperm", "mt19937_words_numpy", "DEFAULT_SEED",
]

def kernel_build(stub: DispatchStub, capability: str | None = None) -> str:
    """The build of ``stub`` that runs: under ``capability`` (DEFAULT/AVX2/AVX512) when
    given, else under the run's (``--cpu-capability``, ATEN_CPU_CAPABILITY, the CPU)."""
    build = stub.build() if capability is None else stub.build_for(capability)
    return build.name


# Elements from which normal_fill's float32 AVX2 transform runs compiled:
# below, the numpy kernel is fast enough and compiling (~30 ms) is not.
_COMPILED_MIN = 1 << 20

# randperm_cpu: n < std::numeric_limits<uint32_t>::max() / 20
_RANDPERM_SMALL = 0xFFFFFFFF // 20
# From here the swaps run compiled (a Python loop below: no compiling).
_RANDPERM_COMPILED_MIN = 4096
#: The most elements the Python loop shuffles where wasmtime cannot run (~0.5 us each).
RANDPERM_PYTHON_MAX = 1 << 20
#: The most the compiled shuffles take (int32 addresses in wasm memory).
RANDPERM_MAX = rng_wasm.FISHER_YATES_MAX - 1


_F = TypeVar("_F", bound=Callable[..., Any])


def _locked(fn: _F) -> _F:
    """Hold the generator's mutex (like every CPU kernel) and silence numpy
    floating-point warnings: torch's kernels do not warn about, e.g., a
    mean that overflows float32."""
    @functools.wraps(fn)
    def wrapper(gen: CPUGenerator, *args: Any, **kwargs: Any) -> Any:
        with gen.mutex, np.errstate(all="ignore"):
            return fn(gen, *args, **kwargs)
    return wrapper  # type: ignore[return-value]


def _dtype(dtype: np.dtype | type | str) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in (np.dtype(F32), np.dtype(F64)):
        raise TypeError(f"only float32 and float64 are emulated, not {dt}")
    return dt


# --------------------------------------------------------------------------
# uniform_ / rand
# --------------------------------------------------------------------------

@_locked
def uniform(gen: CPUGenerator, n: int, dtype: np.dtype, low: float = 0.0,
            high: float = 1.0, capability: str | None = None,
            out: np.ndarray | None = None) -> np.ndarray:
    """``torch.empty(n, dtype).uniform_(low, high)`` (``torch.rand`` = 0, 1).

    cpu ``uniform_kernel``: serial, memory order; per element
    ``x * (to - from) + from`` in the dtype, with ``to - from`` rounded in
    the dtype, fused into one rounding by GCC in the AVX2 build and two
    roundings in DEFAULT; a value that rounded up to ``to`` becomes
    ``from``.  With ``out`` (n contiguous elements of the dtype) the values
    are written there and ``out`` is returned.
    """
    dt = _dtype(dtype)
    if not low <= high:
        raise ValueError("uniform_ expects to return a [from, to) range, but "
                         f"found from={low} > to={high}")
    x = _out_array(out, n, dt)
    _uniform01_into(gen, x)
    frm = dt.type(low)
    to = dt.type(high)
    span = dt.type(to - frm)
    if span == 1 and frm == 0:
        return x                        # x*1 + 0 == x: exact in every build
    if kernel_build(UNIFORM_STUB, capability) == "DEFAULT":
        v = x * span
        v += frm
    elif dt == F32:
        # float32 fma: product exact in float64, correct single rounding.
        v = fma32(x, span, frm)
    else:
        v = fma64(x, float(span), float(frm)).astype(F64)
    v[v == to] = frm
    if out is not None:
        out[...] = v
        return out
    return v


def _out_array(out: np.ndarray | None, n: int, dt: np.dtype) -> np.ndarray:
    if out is None:
        return np.empty(int(n), dtype=dt)
    assert out.shape == (n,) and out.dtype == dt and out.flags.c_contiguous
    return out


# --------------------------------------------------------------------------
# normal_ / randn
# --------------------------------------------------------------------------

def _serial_normal(gen: CPUGenerator, n: int, dt: np.dtype, mean: float,
                   std: float, fused: bool) -> np.ndarray:
    """``normal_distribution<double>`` per element, generator cache included.

    DistributionsHelper.h: use the cached double if set; otherwise draw
    u1, u2 (53-bit uniforms), r = sqrt(-2*log1p(-u2)), theta = 2*pi*u1,
    cache r*sin(theta), return r*cos(theta); then ``val*std + mean``
    (TransformationHelper.h ``normal``; an fma in the AVX2 build).
    Vectorised: after the cached value, elements come in (cos, sin) pairs.
    """
    z = np.empty(n, dtype=F64)
    start = 0
    if n and gen.next_double_normal_sample is not None:
        z[0] = gen.next_double_normal_sample
        gen.next_double_normal_sample = None
        start = 1
    pairs = (n - start + 1) // 2
    if pairs:
        u = gen._uniform01(2 * pairs, np.dtype(F64))
        u1, u2 = u[0::2], u[1::2]
        r = np.sqrt(-2.0 * glibc_vector("log1p")(np.ascontiguousarray(-u2)))
        theta = 2.0 * math.pi * u1
        zc = r * glibc_vector("cos")(np.ascontiguousarray(theta))
        zs = r * glibc_vector("sin")(np.ascontiguousarray(theta))
        rest = z[start:]
        rest[0::2] = zc[:len(rest[0::2])]
        rest[1::2] = zs[:len(rest[1::2])]
        if (n - start) % 2:
            gen.next_double_normal_sample = float(zs[-1])
    if fused:
        # fma(z, 1, m) == z + m for a zero m (exact product), whose sign
        # counts: -0 + 0 is +0, -0 + -0 is -0.
        v = z + mean if (std == 1 and mean == 0) else fma64(z, std, mean)
    else:
        v = z * std
        v += mean
    return v.astype(dt)


def normal_distribution_double(gen: CPUGenerator, n: int, mean: float, std: float,
                               fused: bool) -> np.ndarray:
    """``n`` serial ``normal_distribution<double>(mean, std)`` draws, in double, as a
    kernel that calls it per element (log_normal_) gets them."""
    return _serial_normal(gen, n, np.dtype(F64), float(mean), float(std), fused)


@_locked
def normal(gen: CPUGenerator, n: int, dtype: np.dtype, mean: float = 0.0,
           std: float = 1.0, contiguous: bool = True,
           capability: str | None = None, out: np.ndarray | None = None
           ) -> tuple[np.ndarray, str]:
    """``torch.empty(n, dtype).normal_(mean, std)`` (``randn`` = 0, 1).

    cpu ``normal_kernel``: ``numel >= 16`` and contiguous -> ``normal_fill``
    (n uniforms, NormalFill16 on each full block of 16, then 16 fresh
    uniforms for the last, overlapping block when n % 16 != 0); otherwise
    the serial ``normal_distribution<double>`` in memory order.  Returns
    the values in memory order and the name of the variant that ran; with
    ``out`` (n contiguous elements of the dtype) the values are written
    there and ``out`` is returned.
    """
    dt = _dtype(dtype)
    n = int(n)
    mean = float(mean)
    std = float(std)
    if std < 0:
        raise ValueError(f"normal expects std >= 0.0, but found std {std}")
    avx2 = kernel_build(NORMAL_STUB, capability) != "DEFAULT"
    if n < 16 or not contiguous:
        why = "numel < 16" if n < 16 else "non-contiguous"
        values = _serial_normal(gen, n, dt, mean, std, fused=avx2)
        if out is not None:
            _out_array(out, n, dt)[...] = values
            values = out
        return values, f"serial normal_distribution<double> ({why})"
    fill, variant = block_kernel(dt, avx2, mean, std)
    compiled = (n >= _COMPILED_MIN and avx2 and dt == F32
                and rng_wasm.available())
    if compiled:
        # The same transform, compiled (engine/rng_wasm.py): bit for bit.
        m, s = F32(mean), F32(std)
        fill = lambda blocks: rng_wasm.avx2_pairs(blocks, m, s)  # noqa: E731

    def full_blocks(part: np.ndarray) -> None:
        # Chunks start at multiples of 16; only the last one has a partial
        # block, whose uniforms stay until the tail overwrites them.
        nb = part.size // 16
        fill(part[:nb * 16].reshape(nb, 16))

    data = _out_array(out, n, dt)
    # Compiled, the chunks (independent once drawn) are converted and
    # transformed on worker threads, one per core.
    _uniform01_into(gen, data, full_blocks,
                    workers=rng_wasm.submit if compiled else None)
    if n % 16:
        # "Recompute the last 16 values": 16 new uniforms, one more block.
        tail = gen._uniform01(16, dt)
        fill(tail.reshape(1, 16))
        data[n - 16:] = tail
    return data, variant


# --------------------------------------------------------------------------
# randint / random_(from, to)
# --------------------------------------------------------------------------

@_locked
def randint(gen: CPUGenerator, n: int, low: int, high: int) -> np.ndarray:
    """``torch.randint(low, high, (n,))`` -> int64.

    ``random_from_to_impl``: range = uint64(high) - uint64(low); cpu
    ``random_from_to_kernel`` draws serially with
    ``uniform_int_from_to_distribution`` (OSS build): range >= 2^28 uses
    ``random64()``, else ``random()``; value = int64((v % range) + low).
    """
    low, high = int(low), int(high)
    if not low < high:
        raise ValueError(f"random_ expects 'from' to be less than 'to', "
                         f"but got from={low} >= to={high}")
    rng = (high - low) % (1 << 64)
    if rng >= 1 << 28:
        v = gen.random64(int(n))
    else:
        v = gen.random(int(n)).astype(np.uint64)
    v %= np.uint64(rng)
    v += np.uint64(low % (1 << 64))        # uint64 wraparound, as in C++
    return v.view(np.int64)


# --------------------------------------------------------------------------
# randperm
# --------------------------------------------------------------------------

def randperm_limit() -> int:
    """The largest n :func:`randperm` takes here: the compiled shuffles' range, or the
    Python loop's where wasmtime cannot run."""
    return RANDPERM_MAX if rng_wasm.shuffle_available() else RANDPERM_PYTHON_MAX


def randperm_bytes(n: int) -> int:
    """The memory :func:`randperm` takes besides ``out``: the compiled shuffle's."""
    return rng_wasm.shuffle_bytes(n)


@_locked
def randperm(gen: CPUGenerator, n: int, out: np.ndarray | None = None) -> np.ndarray:
    """``torch.randperm(n)`` (TensorFactories.cpp ``randperm_cpu``), written into
    ``out`` (n elements of any dtype: the C++ shuffles values already cast to it, which
    gives the same as casting the shuffled integers) or returned as int64.

    n < 0xFFFFFFFF/20: ``r = arange(n)``; for i < n-1: swap r[i] and
    r[i + random() % (n-i)].  Larger n: inside-out Fisher-Yates with
    ``random64() % (i+1)``.  The draws are taken chunk by chunk with numpy; the
    swaps are a sequential recurrence (each swap reads the result of the
    previous ones): compiled (:func:`engine.rng.wasm.fisher_yates`) from
    a few thousand elements, a Python loop over a list below that or
    without wasmtime (up to :data:`RANDPERM_PYTHON_MAX` elements).

    >>> randperm(CPUGenerator(0), 8).tolist()
    [4, 0, 7, 3, 2, 5, 1, 6]
    """
    n = int(n)
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
    if out is None:
        out = np.empty(n, dtype=np.int64)
    if n <= 1:
        out[...] = np.arange(n)
        return out
    small = n < _RANDPERM_SMALL

    def offsets(start: int, stop: int) -> np.ndarray:
        if small:       # random() % (n - i)
            return gen.random(stop - start) % np.arange(n - start, n - stop, -1, dtype=np.int64)
        # random64() % (i + 1): i stays below 2^29, so z fits an int32
        return gen.random64(stop - start) % np.arange(start + 1, stop + 1, dtype=np.uint64)

    if n >= _RANDPERM_COMPILED_MIN and rng_wasm.fisher_yates(n, offsets, out,
                                                            inside_out=not small):
        return out
    assert small and n <= RANDPERM_PYTHON_MAX, "the caller refuses larger n without wasmtime"
    r = list(range(n))
    for i, zi in enumerate(offsets(0, n - 1).tolist()):      # Fisher-Yates: sequential
        j = i + zi
        r[i], r[j] = r[j], r[i]
    out[...] = np.array(r, dtype=np.int64)
    return out
