"""``NormalFill16`` kernels of ``normal_fill``, vectorised over many blocks.

Mirrors ``NormalFill16`` in aten/src/ATen/native/cpu/DistributionTemplates.h
(https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/DistributionTemplates.h)
and ``log256_ps``/``sincos256_ps`` in aten/src/ATen/native/cpu/avx_mathfun.h
(https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/avx_mathfun.h).

Each 16-element block ``d[0..15]`` is transformed pairwise: ``(d[j], d[j+8])``
for ``j < 8``.  The functions here take a ``(blocks, 16)`` array and
transform it in place.

The AVX2 float32 variant is the expensive one.  GCC contracts 20
``mul``/``add`` pairs inside ``log256_ps``/``sincos256_ps`` into FMAs (22
with the two explicit ``_mm256_fmadd_ps``); a float32 fma is a float64
``a*b + c`` (exact product) rounded to float32.
That float64-then-float32 rounding could in principle double-round; the
inputs of both functions are however a closed set (``1 - k*2^-24`` and
``float(2*pi) * k*2^-24`` for the 2^24 possible k), and for every one of
them the fast kernel here was checked equal to an evaluation with exactly
rounded fmas (``reference_log256_ps``/``reference_sincos256_ps``, which use
round-to-odd): ``TIDX_RNG_EXHAUSTIVE=1 pytest tests/rng/test_rng.py -k avx2``.
The fast kernel works in preallocated per-thread buffers (fresh
temporaries would be page-faulted in on every numpy call) and evaluates the
first three steps of the log, cosine and sine polynomials as rows of one
array, to keep the number of numpy calls down.  Large tensors run its
compiled twin instead (:mod:`engine.rng.wasm`, the same operations in
WebAssembly), tested bit for bit against it and against the reference.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.rng.fp import F32, F64, fma32, fma64
from engine.rng.libm import glibc_vector, logf, sincosf

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

# Pairs per kernel call: the buffers of one slice stay in L2.
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
# Every step writes into preallocated per-thread buffers: fresh temporaries
# of this size would be mmap'ed and page-faulted on every numpy call, which
# costs more than the arithmetic.

_SQRTHF_MANTISSA = int(_SQRTHF.view(np.int32)) & 0x007FFFFF
_SIGN_BIT = np.int32(-0x80000000)

# The first three fused steps of the three polynomials run together as rows
# (log in x, cosine in z, sine in z): y = y*w + p, rounded to float32.
# The 3rd step of the trig rows is the plain product y*z (+0 is exact).
_ROW_P0 = np.array([[_LOG_P64[0]], [_COSCOF64[0]], [_SINCOF64[0]]])
_ROW_P1 = np.array([[_LOG_P64[1]], [_COSCOF64[1]], [_SINCOF64[1]]])
_ROW_P2 = np.array([[_LOG_P64[2]], [_COSCOF64[2]], [_SINCOF64[2]]])
_ROW_P3 = np.array([[_LOG_P64[3]], [0.0], [0.0]])


class _Workspace:
    """Scratch arrays for one slice of up to ``m`` pairs."""

    def __init__(self, m: int) -> None:
        self.f32 = [np.empty(m, F32) for _ in range(9)]
        self.i32 = [np.empty(m, np.int32) for _ in range(5)]
        self.f64 = [np.empty(m, F64) for _ in range(2)]
        self.w = np.empty((3, m), F64)
        self.y = np.empty((3, m), F64)
        self.r32 = np.empty((3, m), F32)
        self.v = np.empty((2, m), F64)
        self.out = np.empty((2, m), np.int32)
        self.sg = np.empty((2, m), np.int32)


_LOCAL = threading.local()


def _workspace() -> _Workspace:
    ws = getattr(_LOCAL, "ws", None)
    if ws is None:
        ws = _LOCAL.ws = _Workspace(_CHUNK_PAIRS)
    return ws


def _round32(y: np.ndarray, buf: np.ndarray) -> None:
    """Round float64 ``y`` to float32 precision in place (via ``buf``)."""
    np.copyto(buf, y, casting="same_kind")
    np.copyto(y, buf)


def _avx2_pairs(d: np.ndarray, mean: F32, std: F32) -> None:
    """In place ``NormalFill16<float, true>`` on a (blocks, 16) float32 view.

    ``u1 = 1 - d[j]``, ``u2 = d[j+8]``; ``radius = sqrt(-2*log256_ps(u1))``,
    ``sincos256_ps(float(2*pi) * u2)``; ``fmadd(radius*cos, std, mean)`` and
    ``fmadd(radius*sin, std, mean)``.  Each fused multiply-add of
    avx_mathfun is a float64 ``a*b + c`` (exact product) rounded to float32.
    """
    ws = _workspace()
    nb = d.shape[0]
    k = nb * 8
    u1, u2, x, zl, xr, zt, th, q1, q2 = (w[:k] for w in ws.f32)
    mant, idx, j, keep, h = (w[:k] for w in ws.i32)
    zl64, t64 = (w[:k] for w in ws.f64)
    w, y, r32 = ws.w[:, :k], ws.y[:, :k], ws.r32[:, :k]
    v, out, sg = ws.v[:, :k], ws.out[:, :k], ws.sg[:, :k]
    np.subtract(_ONE, d[:, :8], out=u1.reshape(nb, 8))
    np.copyto(u2.reshape(nb, 8), d[:, 8:])

    # ---- log256_ps(u1): exponent/mantissa split (u1 in (0, 1]).
    # mask = xm < SQRTHF, as -1/0: xm's exponent is fixed, so compare the
    # mantissa bits (integer ops; numpy's bool/take paths are much slower).
    bits = u1.view(np.int32)
    np.bitwise_and(bits, 0x007FFFFF, out=mant)
    np.subtract(mant, _SQRTHF_MANTISSA, out=idx)
    np.right_shift(idx, 31, out=idx)                 # -1 where mask
    np.right_shift(bits, 23, out=keep)               # imm0
    np.add(keep, idx, out=keep)
    np.subtract(keep, 126, out=keep)                 # e = imm0-127+1-mask
    np.copyto(q2, keep, casting="unsafe")            # float(e), exact
    np.multiply(q2, _LOG_Q1, out=q1)                 # tmp = e*q1 (rounded)
    np.multiply(q2, _LOG_Q2, out=q2)                 # e*q2: exact
    # x = (xm - 1) + (mask ? xm : 0) == (mask ? 2*xm : xm) - 1, exactly.
    np.bitwise_and(idx, 0x00800000, out=idx)
    np.bitwise_or(idx, mant, out=idx)
    np.bitwise_or(idx, 0x3F000000, out=idx)
    np.subtract(idx.view(F32), _ONE, out=x)
    np.multiply(x, x, out=zl)
    np.copyto(zl64, zl)

    # ---- sincos256_ps(theta) range reduction (theta >= 0).
    np.multiply(u2, _TWO_PI_F32, out=th)
    np.multiply(th, _FOPI, out=xr)
    np.copyto(j, xr, casting="unsafe")               # cvttps: truncation
    np.add(j, 1, out=j)
    np.bitwise_and(j, ~1, out=j)
    np.copyto(xr, j, casting="unsafe")               # y = float(j)
    # y*DP1 and y*DP2 are exact in float32 (y <= 8; DP1/DP2 have 8/11
    # bits), so those fmas are plain additions; y*DP3 is not exact.
    np.multiply(xr, _DP1, out=zt)
    np.add(th, zt, out=th)
    np.multiply(xr, _DP2, out=zt)
    np.add(th, zt, out=th)
    np.multiply(xr, _DP3_64, out=t64, dtype=F64)
    np.add(t64, th, out=t64)
    np.copyto(xr, t64, casting="same_kind")          # reduced x (float32)
    np.multiply(xr, xr, out=zt)

    # ---- three polynomial steps on (log x | cos z | sin z) rows.
    np.copyto(w[0], x)
    np.copyto(w[1:], zt)
    np.multiply(w, _ROW_P0, out=y)
    np.add(y, _ROW_P1, out=y)
    _round32(y, r32)
    np.multiply(y, w, out=y)
    np.add(y, _ROW_P2, out=y)
    _round32(y, r32)
    np.multiply(y, w, out=y)
    np.add(y, _ROW_P3, out=y)
    _round32(y, r32)

    # ---- log: remaining Horner steps, y*x, then the tail.
    y0, r0, x64 = y[0], r32[0], w[0]
    for p in _LOG_P64[4:]:
        np.multiply(y0, x64, out=y0)
        np.add(y0, p, out=y0)
        _round32(y0, r0)
    np.multiply(y0, x64, out=y0)
    _round32(y0, r0)
    np.multiply(y0, zl64, out=y0)
    np.add(y0, q1, out=y0)                           # fma(y, z, e*q1)
    np.copyto(r0, y0, casting="same_kind")
    np.multiply(zl, _HALF, out=zl)                   # z*0.5: exact
    np.subtract(r0, zl, out=r0)
    np.add(x, r0, out=x)
    np.add(x, q2, out=x)                             # e*q2 exact: fma == add
    np.multiply(x, F32(-2), out=x)
    radius = x
    np.sqrt(x, out=radius)

    # ---- trig tails: cos fma(y, z, -(z*0.5)) + 1; sin fma(y, x, x).
    np.copyto(w[2], xr)
    np.multiply(zt, -0.5, out=v[0], dtype=F64)
    np.copyto(v[1], xr)
    yt, rt = y[1:], r32[1:]
    np.multiply(yt, w[1:], out=yt)
    np.add(yt, v, out=yt)
    np.copyto(rt, yt, casting="same_kind")
    np.add(rt[0], _ONE, out=rt[0])

    # ---- per-lane polynomial selection and signs (integer ops).
    # j is 0, 2, 4, 6 or 8 here: poly_mask is clear where bit 1 of j is
    # set, the sine's sign is bit 2 of j, the cosine's bit 2 of j + 2
    # (== ~(j - 2) & 4 for these j).
    np.left_shift(j, 30, out=keep)
    np.right_shift(keep, 31, out=keep)               # -1: swap sin/cos
    cb, sb = rt[0].view(np.int32), rt[1].view(np.int32)
    np.bitwise_xor(sb, cb, out=h)
    np.bitwise_and(h, keep, out=h)
    np.bitwise_xor(h, rt.view(np.int32), out=out)    # rows (cos, sin)
    np.left_shift(j, 29, out=sg[1])
    np.add(j, 2, out=j)
    np.left_shift(j, 29, out=sg[0])
    np.bitwise_and(sg, _SIGN_BIT, out=sg)
    np.bitwise_xor(out, sg, out=out)

    # ---- outputs: fmadd(radius * trig, std, mean) into both halves.
    halves = d.reshape(nb, 2, 8).transpose(1, 0, 2)
    trig = out.view(F32).reshape(2, nb, 8)
    if std == 1 and mean == 0:
        # fma(n, 1, m) == n + m for a zero m: exact, and the sign of zero
        # as in fma (-0 + 0 is +0, -0 + -0 is -0; radius is -0 when u1 = 1).
        np.multiply(radius.reshape(1, nb, 8), trig, out=halves)
        np.add(halves, mean, out=halves)
    else:
        n = radius.reshape(1, nb, 8) * trig
        halves[...] = fma32(n, std, mean)


def _fma_f64(n: np.ndarray, std: float, mean: float) -> np.ndarray:
    """``std::fma(n, std, mean)`` in double, exactly rounded."""
    if std == 1 and mean == 0:
        return n + mean         # exact; the sign of a zero mean counts
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

PairKernel = Callable[[np.ndarray, Any, Any], None]

AVX2_VARIANT = "normal_fill + NormalFill16 AVX2 (avx_mathfun)"
GENERIC_VARIANT = "normal_fill + NormalFill16 generic"


def _sliced(kernel: PairKernel) -> PairKernel:
    """Run ``kernel`` over cache-sized slices of a (blocks, 16) array."""
    step = _CHUNK_PAIRS // 8

    def run(blocks: np.ndarray, mean: object, std: object) -> None:
        for s in range(0, blocks.shape[0], step):
            kernel(blocks[s:s + step], mean, std)
    return run


def block_kernel(dtype: np.dtype, avx2: bool, mean: float, std: float
                 ) -> tuple[Callable[[np.ndarray], None], str]:
    """The ``NormalFill16`` that torch runs for ``dtype`` and the build.

    Returns ``(fill, variant)``; ``fill(blocks)`` transforms a (blocks, 16)
    array in place.  ``avx2`` selects ``NormalFill16<float, true>`` for
    float32 (the CPU_CAPABILITY_AVX2 build, also used on AVX512 CPUs);
    float64 always uses the scalar template, float32 on DEFAULT too.
    """
    m: float | np.floating
    s: float | np.floating
    kernel: PairKernel
    if np.dtype(dtype) == F32:
        m, s = F32(mean), F32(std)       # NormalFill16(static_cast<float>..)
        kernel = _avx2_pairs if avx2 else _generic_pairs_f32
        variant = AVX2_VARIANT if avx2 else GENERIC_VARIANT
    else:
        m, s = float(mean), float(std)
        kernel, variant = _generic_pairs_f64, GENERIC_VARIANT
    run = _sliced(kernel)
    return (lambda blocks: run(blocks, m, s)), variant
