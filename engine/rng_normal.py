"""``NormalFill16`` kernels of ``normal_fill``, vectorised over many blocks.

Mirrors ``NormalFill16`` in aten/src/ATen/native/cpu/DistributionTemplates.h
(https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/DistributionTemplates.h)
and ``log256_ps``/``sincos256_ps`` in aten/src/ATen/native/cpu/avx_mathfun.h
(https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/avx_mathfun.h).

Each 16-element block ``d[0..15]`` is transformed pairwise: ``(d[j], d[j+8])``
for ``j < 8``.  The functions here take a ``(blocks, 16)`` array and
transform it in place.

The AVX2 float32 variant is the expensive one.  GCC contracts 16 of the
``mul``/``add`` pairs inside ``log256_ps``/``sincos256_ps`` into FMAs; a
float32 fma is a float64 ``a*b + c`` (exact product) rounded to float32.
That float64-then-float32 rounding could in principle double-round; the
inputs of both functions are however a closed set (``1 - k*2^-24`` and
``float(2*pi) * k*2^-24`` for the 2^24 possible k), and for every one of
them this file's fast evaluation was checked equal to an evaluation with
exactly rounded fmas (``reference_log256_ps``/``reference_sincos256_ps``,
which use round-to-odd), so the fast path is exact on its whole domain.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from engine.rng_fp import F32, F64, fma32, fma64, glibc_vector, logf, sincosf

# avx_mathfun.h constants (_PS256_CONST: float literals rounded to float).
_ONE = F32(1.0)
_HALF = F32(0.5)
_SQRTHF = F32(0.707106781186547524)
_LOG_P = tuple(F32(v) for v in (
    7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
    1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
    3.3333331174E-1))
_LOG_Q1 = F32(-2.12194440e-4)
_LOG_Q2 = F32(0.693359375)
_DP1 = F32(-0.78515625)
_DP2 = F32(-2.4187564849853515625e-4)
_DP3 = F32(-3.77489497744594108e-8)
_SINCOF = tuple(F32(v) for v in (-1.9515295891E-4, 8.3321608736E-3,
                                 -1.6666654611E-1))
_COSCOF = tuple(F32(v) for v in (2.443315711809948E-005,
                                 -1.388731625493765E-003,
                                 4.166664568298827E-002))
_FOPI = F32(1.27323954473516)
# NormalFill16<float, true>: _mm256_set1_ps(2.0f * c10::pi<double>).
_TWO_PI_F32 = F32(2.0 * math.pi)

_LOG_P64 = tuple(float(p) for p in _LOG_P)
_SINCOF64 = tuple(float(p) for p in _SINCOF)
_COSCOF64 = tuple(float(p) for p in _COSCOF)
_DP3_64 = float(_DP3)

# Blocks per work item: keeps the temporaries of one chunk in L2.
_CHUNK_PAIRS = 1 << 14


# --------------------------------------------------------------------------
# Reference (exact fma) emulation of avx_mathfun, one lane per element
# --------------------------------------------------------------------------

def reference_log256_ps(x: np.ndarray) -> np.ndarray:
    """``log256_ps`` for positive normal float32 ``x``, FMAs exactly rounded.

    Contractions (as GCC emits them in the AVX2 build): the Horner steps
    ``y*x + p``; ``fma(y, z, e*q1)``; ``y - z*0.5``; ``fma(e, q2, x + y)``.
    """
    x = np.ascontiguousarray(x, F32)
    bits = x.view(np.int32)
    e = ((bits >> 23) - 127).astype(F32) + _ONE
    xm = ((bits & ~0x7F800000) | _HALF.view(np.int32)).view(F32)
    mask = xm < _SQRTHF
    tmp = np.where(mask, xm, F32(0))
    xx = xm - _ONE
    e = e - np.where(mask, _ONE, F32(0))
    xx = xx + tmp
    z = xx * xx
    y = np.full_like(xx, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = fma32(y, xx, p)
    y = y * xx
    y = fma32(y, z, e * _LOG_Q1)
    y = fma32(-z, _HALF, y)
    return fma32(e, _LOG_Q2, xx + y)


def reference_sincos256_ps(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sincos256_ps``: (sin, cos), FMAs exactly rounded.

    Contractions: the three ``x += y*DPk``; Horner ``y*z + p``; cosine
    ``fma(y, z, -(z*0.5))``; sine ``fma(y2, x, x)``.
    """
    x = np.ascontiguousarray(x, F32)
    sign_sin = x.view(np.int32) & np.int32(-0x80000000)
    x = np.abs(x)
    j = (x * _FOPI).astype(np.int32)               # cvttps: truncation
    j = (j + 1) & ~1
    y = j.astype(F32)
    swap_sign_sin = (j & 4) << 29
    poly_mask = (j & 2) == 0
    x = fma32(y, _DP1, x)
    x = fma32(y, _DP2, x)
    x = fma32(y, _DP3, x)
    sign_cos = (~(j - 2) & 4) << 29
    sign_sin = sign_sin ^ swap_sign_sin
    z = x * x
    yc = np.full_like(x, _COSCOF[0])
    yc = fma32(yc, z, _COSCOF[1])
    yc = fma32(yc, z, _COSCOF[2])
    yc = yc * z
    yc = fma32(yc, z, -(z * _HALF))
    yc = yc + _ONE
    ys = np.full_like(x, _SINCOF[0])
    ys = fma32(ys, z, _SINCOF[1])
    ys = fma32(ys, z, _SINCOF[2])
    ys = ys * z
    ys = fma32(ys, x, x)
    zero = F32(0)
    ysin2 = np.where(poly_mask, ys, zero)
    ysin1 = np.where(poly_mask, zero, yc)
    ys = ys - ysin2
    yc = yc - ysin1
    s = ((ysin1 + ysin2).view(np.int32) ^ sign_sin).view(F32)
    c = ((yc + ys).view(np.int32) ^ sign_cos).view(F32)
    return s, c


# --------------------------------------------------------------------------
# Fast AVX2 float32 pair transform
# --------------------------------------------------------------------------

def _round32(y: np.ndarray, buf: np.ndarray) -> None:
    """Round float64 ``y`` to float32 precision in place (via ``buf``)."""
    np.copyto(buf, y, casting="same_kind")
    np.copyto(y, buf)


def _avx2_radius(u1: np.ndarray, buf: np.ndarray) -> np.ndarray:
    """``sqrt(-2 * log256_ps(u1))`` for u1 in (0, 1] (float32)."""
    bits = u1.view(np.int32)
    e = (bits >> 23).astype(F32)
    e -= F32(126)                                   # (imm0 - 127) + 1
    xm = ((bits & 0x007FFFFF) | 0x3F000000).view(F32)
    mask = xm < _SQRTHF
    np.subtract(e, mask, out=e)
    x = xm - _ONE
    x += xm * mask                                  # 2*xm - 1: exact
    x64 = x.astype(F64)
    z = x * x
    y = x64 * _LOG_P64[0]
    y += _LOG_P64[1]
    _round32(y, buf)
    for p in _LOG_P64[2:]:
        y *= x64
        y += p
        _round32(y, buf)
    y *= x64
    _round32(y, buf)                                # y*x (plain mul)
    y *= z
    y += e * _LOG_Q1                                # fma(y, z, e*q1)
    yf = y.astype(F32)
    yf -= z * _HALF
    x += yf
    x += e * _LOG_Q2                                # e*q2 exact: fma == add
    x *= F32(-2)
    return np.sqrt(x, out=x)


def _avx2_sincos(u2: np.ndarray, buf: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``sincos256_ps(float(2*pi) * u2)`` for u2 in [0, 1) (float32)."""
    th = _TWO_PI_F32 * u2
    j = (th * _FOPI).astype(np.int32)
    j += 1
    j &= ~1
    yj = j.astype(F32)
    # y*DP1 and y*DP2 are exact in float32 (y <= 8, DP1/DP2 have 8/11 bits).
    th += yj * _DP1
    th += yj * _DP2
    x64 = th.astype(F64)
    x64 += yj.astype(F64) * _DP3_64
    x = x64.astype(F32)
    x64[...] = x
    z = x * x
    z64 = z.astype(F64)
    yc = z64 * _COSCOF64[0]
    yc += _COSCOF64[1]
    _round32(yc, buf)
    yc *= z64
    yc += _COSCOF64[2]
    _round32(yc, buf)
    yc *= z64
    _round32(yc, buf)
    yc *= z64
    yc -= z64 * 0.5                                 # fma(y, z, -(z*0.5))
    ycf = yc.astype(F32)
    ycf += _ONE
    ys = z64 * _SINCOF64[0]
    ys += _SINCOF64[1]
    _round32(ys, buf)
    ys *= z64
    ys += _SINCOF64[2]
    _round32(ys, buf)
    ys *= z64
    _round32(ys, buf)
    ys *= x64
    ys += x64                                       # fma(y2, x, x)
    ysf = ys.astype(F32)
    # Select the polynomial per lane and apply the signs with bit ops
    # (theta >= 0, so the input sign bit is clear).
    keep = ((j & 2) >> 1) - 1                       # -1 where (j & 2) == 0
    sb = ysf.view(np.int32)
    cb = ycf.view(np.int32)
    t = (sb ^ cb) & keep
    sin_bits = t ^ cb
    cos_bits = t ^ sb
    sin_bits ^= (j & 4) << 29
    cos_bits ^= (~(j - 2) & 4) << 29
    return sin_bits.view(F32), cos_bits.view(F32)


def _avx2_pairs(d: np.ndarray, mean: F32, std: F32) -> None:
    """In place ``NormalFill16<float, true>`` on a (blocks, 16) float32 view."""
    u1 = _ONE - d[:, :8]
    u1 = u1.reshape(-1)
    u2 = np.ascontiguousarray(d[:, 8:]).reshape(-1)
    buf = np.empty(u1.shape, F32)
    radius = _avx2_radius(u1, buf)
    sin, cos = _avx2_sincos(u2, buf)
    n1 = radius * cos
    n2 = radius * sin
    d[:, :8] = _fmadd_f32(n1, std, mean).reshape(-1, 8)
    d[:, 8:] = _fmadd_f32(n2, std, mean).reshape(-1, 8)


def _fmadd_f32(n: np.ndarray, std: F32, mean: F32) -> np.ndarray:
    """``_mm256_fmadd_ps(n, std, mean)``, exactly rounded."""
    if std == 1 and mean == 0:
        return n + F32(0)          # n*1 exact; +0 turns -0 into +0 like fma
    return fma32(n, std, mean)


def _fma_f64(n: np.ndarray, std: float, mean: float) -> np.ndarray:
    """``std::fma(n, std, mean)`` in double, exactly rounded."""
    if std == 1 and mean == 0:
        return n + 0.0
    return fma64(n, std, mean)


# --------------------------------------------------------------------------
# Generic (scalar template) NormalFill16
# --------------------------------------------------------------------------

def _generic_pairs_f32(d: np.ndarray, mean: F32, std: F32) -> None:
    """``NormalFill16<float>`` (DEFAULT build): glibc logf/sincosf, fmaf."""
    u1 = (_ONE - d[:, :8]).reshape(-1)
    u2 = np.ascontiguousarray(d[:, 8:]).reshape(-1)
    radius = np.sqrt(F32(-2) * logf(u1))
    # theta = 2.0f * c10::pi<double> * u2 is a double product stored in a
    # float (opmath_t), i.e. rounded twice.
    theta = (2.0 * math.pi * u2.astype(F64)).astype(F32)
    sin, cos = sincosf(theta)
    d[:, :8] = fma32(radius * cos, std, mean).reshape(-1, 8)
    d[:, 8:] = fma32(radius * sin, std, mean).reshape(-1, 8)


def _generic_pairs_f64(d: np.ndarray, mean: float, std: float) -> None:
    """``NormalFill16<double>`` (any build): glibc log/sin/cos, std::fma."""
    u1 = (1.0 - d[:, :8]).reshape(-1)
    u2 = np.ascontiguousarray(d[:, 8:]).reshape(-1)
    radius = np.sqrt(-2.0 * glibc_vector("log")(u1))
    theta = 2.0 * math.pi * u2
    cos = glibc_vector("cos")(theta)
    sin = glibc_vector("sin")(theta)
    d[:, :8] = _fma_f64(radius * cos, std, mean).reshape(-1, 8)
    d[:, 8:] = _fma_f64(radius * sin, std, mean).reshape(-1, 8)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)),
                                   thread_name_prefix="tidx-rng")
    return _POOL


def _run_chunked(kernel: Callable[[np.ndarray, object, object], None],
                 blocks: np.ndarray, mean: object, std: object) -> None:
    """Apply ``kernel`` to slices of ``blocks``; threads for big inputs.

    Blocks are independent and the results deterministic, so splitting the
    work changes nothing but the time (numpy releases the GIL in its loops).
    """
    nb = blocks.shape[0]
    step = _CHUNK_PAIRS // 8
    if nb <= step:
        if nb:
            kernel(blocks, mean, std)
        return
    starts = range(0, nb, step)
    futures = [_pool().submit(kernel, blocks[s:s + step], mean, std)
               for s in starts]
    for f in futures:
        f.result()


def normal_fill_16_blocks(blocks: np.ndarray, mean: float, std: float,
                          avx2: bool) -> str:
    """Transform a (blocks, 16) float32/float64 array in place.

    ``avx2`` selects ``NormalFill16<float, true>`` for float32, i.e. the
    kernel compiled for CPU_CAPABILITY_AVX2 (also used on AVX512 CPUs);
    float64 always uses the scalar template.  Returns the variant name.
    """
    if blocks.dtype == F32:
        m, s = F32(mean), F32(std)       # NormalFill16(static_cast<float>..)
        if avx2:
            _run_chunked(_avx2_pairs, blocks, m, s)
            return "normal_fill + NormalFill16 AVX2 (avx_mathfun)"
        _run_chunked(_generic_pairs_f32, blocks, m, s)
        return "normal_fill + NormalFill16 generic"
    _run_chunked(_generic_pairs_f64, blocks, float(mean), float(std))
    return "normal_fill + NormalFill16 generic"
