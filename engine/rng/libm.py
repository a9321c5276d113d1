"""glibc's libm for the RNG emulation, vectorised.

glibc's ``log``, ``log1p``, ``sin``, ``cos`` (doubles) and ``logf``,
``sinf``, ``cosf`` (floats) are not correctly rounded, so only glibc itself
(or a faithful copy of its algorithm) reproduces the bits torch gets.
This module provides

* vectorised calls into glibc's double functions through numpy code paths
  that end in libm (checked against ``math`` at first use, with
  ``map(math.f, ...)`` as the always-correct fallback);
* vectorised copies of glibc 2.36's ``logf``/``sinf``/``cosf``
  (sysdeps/ieee754/flt-32/e_logf.c, s_sinf.c, s_cosf.c, sincosf_poly.h),
  checked against the real functions through ctypes at first use.
"""

from __future__ import annotations

import ctypes
import functools
import math
from typing import Callable

import numpy as np

from engine.rng.fp import F32, F64


# --------------------------------------------------------------------------
# glibc libm through ctypes (scalars) and numpy (vectors)
# --------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _libm() -> ctypes.CDLL | None:
    try:
        # glibc's soname; find_library runs ldconfig in a subprocess, so it is the fallback
        lib = ctypes.CDLL("libm.so.6")
    except OSError:
        from ctypes import util
        name = util.find_library("m")
        if name is None:
            return None
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            return None
    lib.fma.restype = ctypes.c_double
    lib.fma.argtypes = [ctypes.c_double] * 3
    for fname in ("logf", "sinf", "cosf"):
        fn = getattr(lib, fname)
        fn.restype = ctypes.c_float
        fn.argtypes = [ctypes.c_float]
    lib.fmaf.restype = ctypes.c_float
    lib.fmaf.argtypes = [ctypes.c_float] * 3
    return lib


def libm_float_function(name: str) -> Callable[[float], float]:
    """glibc's ``logf``/``sinf``/``cosf``/``fmaf`` as a callable (tests)."""
    lib = _libm()
    if lib is None:
        raise RuntimeError("libm not found")
    return getattr(lib, name)


def _via_math(name: str) -> Callable[[np.ndarray], np.ndarray]:
    fn = getattr(math, name)

    def call(x: np.ndarray) -> np.ndarray:
        # C-level loop (map over a builtin): CPython's math.log/log1p/sin/
        # cos call libm directly, so this is glibc, one call per element.
        return np.fromiter(map(fn, x.tolist()), dtype=F64, count=x.size)
    return call


def _via_numpy(name: str, reverse: bool) -> Callable[[np.ndarray], np.ndarray]:
    fn = getattr(np, name)

    def call(x: np.ndarray) -> np.ndarray:
        if reverse:
            # numpy's SIMD loops (AVX512F log, SVML log1p) only take
            # positive strides; a negative stride falls back to the scalar
            # loop, which calls libm (npy_log -> log).
            return np.ascontiguousarray(fn(x[::-1])[::-1])
        return fn(x)
    return call


def pow_scalar_base(base: float, x: np.ndarray | np.floating) -> np.ndarray:
    """glibc's ``pow(base, x[i])`` for each element (float64), as ``std::pow`` gives it.

    Not numpy's ``np.power``: on an AVX512 CPU numpy evaluates it with its own SIMD
    polynomial (SVML), whose last bits differ from glibc's.  CPython's ``math.pow`` is
    libm's ``pow``, except that it raises where C returns inf or NaN; those few elements
    go through libm itself (ctypes).

    >>> pow_scalar_base(10.0, np.array([0.0, 0.25, 2.0, 400.0])).tolist()
    [1.0, 1.7782794100389228, 100.0, inf]
    """
    flat = np.ascontiguousarray(x, dtype=F64).reshape(-1)
    b = float(base)

    def one(v: float) -> float:
        try:
            return math.pow(b, v)
        except (OverflowError, ValueError):
            return _c_pow(b, v)
    out = np.fromiter(map(one, flat.tolist()), dtype=F64, count=flat.size)
    return out.reshape(np.shape(x))


def pow_scalar_exponent(x: np.ndarray, exponent: float) -> np.ndarray:
    """glibc's ``pow(x[i], exponent)`` for each element (float64), as ``std::pow`` gives
    it (see :func:`pow_scalar_base` for why not ``np.power``).

    >>> pow_scalar_exponent(np.array([8.0, 2.0, 0.0]), 1 / 3).tolist()
    [2.0, 1.2599210498948732, 0.0]
    """
    flat = np.ascontiguousarray(x, dtype=F64).reshape(-1)
    e = float(exponent)

    def one(v: float) -> float:
        try:
            return math.pow(v, e)
        except (OverflowError, ValueError):
            return _c_pow(v, e)
    out = np.fromiter(map(one, flat.tolist()), dtype=F64, count=flat.size)
    return out.reshape(np.shape(x))


def powf_scalar_exponent(x: np.ndarray, exponent: float) -> np.ndarray:
    """glibc's ``powf(x[i], exponent)`` for each element (float32), as ``std::pow`` on
    two floats gives it; through ctypes, one call per element.

    >>> powf_scalar_exponent(np.array([8.0, 2.0], np.float32), 3.0).tolist()
    [512.0, 8.0]
    """
    flat = np.ascontiguousarray(x, dtype=F32).reshape(-1).tolist()
    e = float(np.float32(exponent))
    lib = _libm()
    if lib is None:                 # pragma: no cover - no libm to ask
        with np.errstate(all="ignore"):
            return np.power(np.asarray(flat, F32), F32(e)).reshape(np.shape(x))
    powf = lib.powf
    powf.restype, powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    out = np.fromiter((powf(v, e) for v in flat), dtype=F32, count=len(flat))
    return out.reshape(np.shape(x))


def _c_pow(b: float, v: float) -> float:
    """libm's pow for the arguments where ``math.pow`` raises (overflow, a negative base
    to a fractional power): inf or NaN as C gives them."""
    lib = _libm()
    if lib is not None:
        lib.pow.restype = ctypes.c_double
        lib.pow.argtypes = [ctypes.c_double, ctypes.c_double]
        return float(lib.pow(b, v))
    with np.errstate(all="ignore"):           # pragma: no cover - no libm to ask
        return float(np.power(np.float64(b), np.float64(v)))


_CALIBRATION_DOMAIN: dict[str, tuple[float, float]] = {
    "log": (2.0 ** -53, 1.0),       # u1 = 1 - U53 in normal_fill<double>
    "log1p": (-1.0 + 2.0 ** -53, 0.0),  # -u2 in normal_distribution<double>
    "sin": (0.0, 2 * math.pi),
    "cos": (0.0, 2 * math.pi),
}


@functools.lru_cache(maxsize=None)
def glibc_vector(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """Vectorised glibc double function ``name`` (log, log1p, sin, cos).

    Picks the fastest numpy route whose results equal ``math.<name>``
    (= glibc) bit for bit on a calibration set that includes inputs where
    numpy's own SIMD code differs from glibc; falls back to ``map``.
    """
    lo, hi = _CALIBRATION_DOMAIN[name]
    rs = np.random.default_rng(12345)
    k = rs.integers(0, 2 ** 53, 1 << 15, dtype=np.int64)
    x = lo + (hi - lo) * (k * 2.0 ** -53)
    x = np.concatenate([x, np.linspace(lo, hi, 4097)])
    x = x[(x >= lo) & (x <= hi)]
    reference = _via_math(name)
    want = reference(x).view(np.int64)
    for candidate in (_via_numpy(name, False), _via_numpy(name, True)):
        try:
            got = candidate(x)
        except Exception:  # pragma: no cover - defensive
            continue
        if np.array_equal(got.view(np.int64), want):
            return candidate
    return reference


# --------------------------------------------------------------------------
# glibc 2.36 float functions: logf, sinf, cosf (vectorised copies)
# --------------------------------------------------------------------------
# Tables and polynomials: sysdeps/ieee754/flt-32/e_logf_data.c and
# s_sincosf_data.c.  Both glibc's FMA ifunc variant (selected on this
# hardware) and the plain SSE2 variant were compared against the real
# functions through ctypes over every input the RNG can produce
# (u1 = 1 - k*2^-24 for logf and theta = float(2*pi*k*2^-24) for sinf/cosf,
# all 2^24 k): identical, so the evaluation below uses plain float64
# operations (no fma emulation needed).

_h = float.fromhex
_LOGF_INVC = np.array([_h(v) for v in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010bp+0",
    "0x1.3c995b0b80385p+0", "0x1.30d190c8864a5p+0", "0x1.25e227b0b8eap+0",
    "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0", "0x1.0953f419900a7p+0",
    "0x1p+0", "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aap-1",
    "0x1.b2036576afce6p-1", "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1",
    "0x1.767dcf5534862p-1")])
_LOGF_LOGC = np.array([_h(v) for v in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2",
    "-0x1.b31d8a68224e9p-3", "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c81p-3",
    "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4", "-0x1.252f438e10c1ep-5",
    "0x0p+0", "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4",
    "0x1.526e57720db08p-3", "0x1.bc2860d22477p-3", "0x1.1058bc8a07ee1p-2",
    "0x1.4043057b6ee09p-2")])
_LOGF_LN2 = _h("0x1.62e42fefa39efp-1")
_LOGF_A = tuple(_h(v) for v in (
    "-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))


def _emulated_logf(x: np.ndarray) -> np.ndarray:
    """glibc ``logf`` for positive normal float32 inputs (e_logf.c)."""
    ix = np.ascontiguousarray(x, F32).view(np.uint32)
    tmp = ix - np.uint32(0x3F330000)               # uint32 wraparound
    i = (tmp >> np.uint32(19)) & np.uint32(15)     # LOGF_TABLE_BITS = 4
    k = (tmp.view(np.int32) >> 23).astype(F64)     # arithmetic shift
    iz = ix - (tmp & np.uint32(0x1FF << 23))
    z = iz.view(F32).astype(F64)
    r = z * _LOGF_INVC[i] - 1.0
    y0 = _LOGF_LOGC[i] + k * _LOGF_LN2
    r2 = r * r
    y = _LOGF_A[1] * r + _LOGF_A[2]
    y = _LOGF_A[0] * r2 + y
    y = y * r2 + (y0 + r)
    out = y.astype(F32)
    out[ix == np.uint32(0x3F800000)] = 0.0          # WANT_ROUNDING: log(1)=0
    return out


_SINCOSF_HPI_INV = _h("0x1.45F306DC9C883p+23")     # 2/pi * 2^24
_SINCOSF_HPI = _h("0x1.921FB54442D18p0")
_SINCOSF_C = tuple(_h(v) for v in (
    "0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5",
    "-0x1.6c087e89a359dp-10", "0x1.99343027bf8c3p-16"))
_SINCOSF_S = tuple(_h(v) for v in (
    "-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13"))
_SINCOSF_SIGN = np.array([1.0, -1.0, -1.0, 1.0])


def _abstop12(x: np.ndarray) -> np.ndarray:
    return (x.view(np.uint32) >> np.uint32(20)) & np.uint32(0x7FF)


_TOP_PIO4 = int(_abstop12(np.array([_h("0x1.921FB54442D18p-1")], F32))[0])
_TOP_TINY = int(_abstop12(np.array([2.0 ** -12], F32))[0])
_TOP_120 = int(_abstop12(np.array([120.0], F32))[0])


def _sinf_poly_sin(x: np.ndarray, x2: np.ndarray) -> np.ndarray:
    x3 = x * x2
    s1 = _SINCOSF_S[1] + x2 * _SINCOSF_S[2]
    x7 = x3 * x2
    s = x + x3 * _SINCOSF_S[0]
    return s + x7 * s1


def _sinf_poly_cos(x2: np.ndarray) -> np.ndarray:
    c = _SINCOSF_C
    x4 = x2 * x2
    c2 = c[3] + x2 * c[4]
    c1 = c[0] + x2 * c[1]
    x6 = x4 * x2
    cc = c1 + x4 * c[2]
    return cc + x6 * c2


def _emulated_sincosf(theta: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """glibc ``sinf`` and ``cosf`` of float32 ``theta`` with |theta| < 120.

    s_sinf.c / s_cosf.c: |y| < 2^-12 -> (y, 1); |y| < pi/4 -> polynomials;
    else ``reduce_fast`` (quadrant n) and ``sinf_poly`` with the sin/cos
    polynomials swapped for odd n and negated via the 2nd table for n & 2.
    """
    y = np.ascontiguousarray(theta, F32)
    top = _abstop12(y)
    if np.any(top >= _TOP_120):
        raise ValueError("sincosf emulation covers |theta| < 120 only")
    x = y.astype(F64)
    n = np.zeros(x.shape, np.int64)
    big = top >= _TOP_PIO4
    if big.any():
        xb = x[big]
        r = xb * _SINCOSF_HPI_INV
        nb = (r.astype(np.int32).astype(np.int64) + 0x800000) >> 24
        x[big] = (xb - nb * _SINCOSF_HPI) * _SINCOSF_SIGN[nb & 3]
        n[big] = nb
    # Polynomials in the (possibly sign-flipped) reduced argument.
    x2 = x * x
    ps = _sinf_poly_sin(x, x2)
    pc = _sinf_poly_cos(x2)
    pc = np.where((n & 2) != 0, -pc, pc)   # 2nd table: negated cosine poly
    odd = (n & 1) != 0
    sin = np.where(odd, pc, ps).astype(F32)
    cos = np.where(odd, ps, pc).astype(F32)
    tiny = top < _TOP_TINY
    if tiny.any():
        sin[tiny] = y[tiny]
        cos[tiny] = 1.0
    return sin, cos


# --------------------------------------------------------------------------
# Checked entry points
# --------------------------------------------------------------------------

def _ctypes_map(name: str, x: np.ndarray) -> np.ndarray:
    fn = libm_float_function(name)
    return np.fromiter(map(fn, x.tolist()), dtype=F32, count=x.size)


@functools.lru_cache(maxsize=None)
def float_emulation_matches_libm() -> bool:
    """Do the copies above reproduce this process's libm?

    They copy glibc 2.36 (the FMA ifunc variant, which over the RNG's
    inputs equals the SSE2 one).  Another libm, e.g. a later glibc with
    correctly rounded float functions, may differ; then the real
    functions are called through ctypes instead (exact, but one call per
    element).  Checked once on a sample of the inputs the RNG produces.
    """
    if _libm() is None:
        return True          # nothing to compare with: trust the copies
    k = np.concatenate([np.arange(2048), (1 << 24) - 1 - np.arange(2048),
                        np.random.default_rng(7).integers(0, 1 << 24, 8192)])
    d = k.astype(F32) * F32(2.0 ** -24)
    u1 = F32(1) - d
    theta = (2.0 * math.pi * d.astype(F64)).astype(F32)
    s, c = _emulated_sincosf(theta)
    return (np.array_equal(_emulated_logf(u1).view(np.int32),
                           _ctypes_map("logf", u1).view(np.int32))
            and np.array_equal(s.view(np.int32),
                               _ctypes_map("sinf", theta).view(np.int32))
            and np.array_equal(c.view(np.int32),
                               _ctypes_map("cosf", theta).view(np.int32)))


def logf(x: np.ndarray) -> np.ndarray:
    """libm ``logf`` elementwise (vectorised copy of glibc's)."""
    if float_emulation_matches_libm():
        return _emulated_logf(x)
    return _ctypes_map("logf", np.ascontiguousarray(x, F32))


def sincosf(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """libm ``sinf``/``cosf`` elementwise (vectorised copy of glibc's)."""
    if float_emulation_matches_libm():
        return _emulated_sincosf(theta)
    t = np.ascontiguousarray(theta, F32)
    return _ctypes_map("sinf", t), _ctypes_map("cosf", t)

