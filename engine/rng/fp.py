"""Exact floating-point building blocks for the RNG emulation (numpy only).

PyTorch's CPU kernels are C++ compiled with GCC; their last bits depend on
fused multiply-adds: the AVX2 build (``-mavx2 -mfma``, GCC's default
``-ffp-contract=fast``) turns ``a*b + c`` into one ``vfmadd`` (one
rounding), and ``NormalFill16`` calls ``std::fma`` explicitly.  numpy has
no fma ufunc, so this module provides error-free transformations (TwoSum,
Dekker's TwoProduct) and round-to-odd, giving a correctly rounded float64
fma (Boldo & Melquiond, "Emulation of FMA and correctly rounded sums:
proved algorithms using rounding to odd", IEEE TC 2008) and a correctly
rounded float32 fma.  glibc's libm lives in :mod:`engine.rng.libm`.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

F32 = np.float32
F64 = np.float64

# --------------------------------------------------------------------------
# Error-free transformations and exactly rounded fma
# --------------------------------------------------------------------------

_SPLITTER = 134217729.0  # 2**27 + 1, Veltkamp's constant for binary64


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's TwoSum: ``s + e == a + b`` exactly, ``s = fl(a + b)``."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's TwoProduct: ``p + e == a * b`` exactly (no over/underflow)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def round_to_odd(s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Given ``s = RN(x)`` and the exact error ``e = x - s``, return RO(x).

    Round-to-odd keeps the information "x was not representable" in the
    last bit, so a later rounding to a narrower format (or the last step of
    the emulated fma) is not a double rounding.
    """
    s = np.array(s, dtype=F64, copy=True)
    bits = s.view(np.int64)
    fix = (e != 0) & ((bits & 1) == 0)
    if fix.any():
        # Move one ulp towards x: away from zero iff e has the sign of s.
        away = np.signbit(e[fix]) == np.signbit(s[fix])
        bits[fix] += np.where(away, 1, -1)
    return s


_SLICE = 1 << 15   # elements per pass: temporaries stay in cache


def _sliced3(kernel: Callable[[np.ndarray, np.ndarray, np.ndarray],
                              np.ndarray],
             a: np.ndarray | float | np.floating, b: np.ndarray | float | np.floating,
             c: np.ndarray | float | np.floating, dtype: type) -> np.ndarray:
    """Apply an elementwise ``kernel(a, b, c)`` slice by slice."""
    arrays = np.broadcast_arrays(np.asarray(a, dtype), np.asarray(b, dtype),
                                 np.asarray(c, dtype))
    shape = arrays[0].shape
    flat = [v.ravel() for v in arrays]
    out: np.ndarray = np.empty(flat[0].size, dtype)
    with np.errstate(all="ignore"):
        for start in range(0, out.size, _SLICE):
            sl = slice(start, start + _SLICE)
            out[sl] = kernel(*(v[sl] for v in flat))
    return out.reshape(shape)


def fma64(a: np.ndarray | float, b: np.ndarray | float,
          c: np.ndarray | float) -> np.ndarray:
    """Correctly rounded ``a*b + c`` in float64 (like ``std::fma``).

    Boldo-Melquiond: ``uh+ul = a*b`` (exact), ``th+tl = c+uh`` (exact),
    ``v = RO(tl+ul)``, result ``RN(th+v)``.  The error-free steps need
    operands far from overflow and underflow; the rare elements outside
    that range (and non-finite ones) are computed exactly with fractions.
    """
    return _sliced3(_fma64_flat, a, b, c, F64)


def _fma64_flat(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    uh, ul = two_prod(a, b)
    th, tl = two_sum(c, uh)
    r = th + round_to_odd(*two_sum(tl, ul))
    tiny, huge = 2.0 ** -900, 2.0 ** 900
    risky = ~np.isfinite(r) | (np.abs(a) > huge) | (np.abs(b) > huge)
    for t in (c, r):
        risky |= (np.abs(t) < tiny) & (t != 0)
    # A product that underflows, to zero included, is not split exactly
    # by two_prod: a*b = -0.3 * 5e-324 rounds to -0.0 although the exact
    # product (and a*b + 0.0, whose rounding is -0.0) is not zero.
    risky |= (np.abs(uh) < tiny) & (a != 0) & (b != 0)
    zero = (r == 0) & ~risky
    if zero.any():
        # Elsewhere the steps above are exact, so a zero result means an
        # exact zero: a*b == -c (a double) or a*b == 0.  Then plain
        # a*b + c is exact and has IEEE's sign of zero, which the error
        # terms above can lose.
        r[zero] = (a[zero] * b[zero]) + c[zero]
    for i in np.flatnonzero(risky):
        r[i] = _fma_exact(float(a[i]), float(b[i]), float(c[i]))
    return r


def _fma_exact(a: float, b: float, c: float) -> float:
    """Scalar correctly rounded fma (fractions; IEEE rules for 0/inf/nan)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        if math.isfinite(a) and math.isfinite(b):
            return c            # the exact product is finite: it cannot cancel c's inf
        return a * b + c
    from fractions import Fraction    # only here: importing it costs every cold start
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c        # a*b is exact here; IEEE sign of zero
    try:
        return float(exact)     # correctly rounded, subnormals included
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def fma32(a: np.ndarray | float | np.floating, b: np.ndarray | float | np.floating,
          c: np.ndarray | float | np.floating) -> np.ndarray:
    """Correctly rounded float32 ``a*b + c`` (like ``vfmadd...ps``/``fmaf``).

    The float32 product is exact in float64 (48 significant bits); the sum
    is rounded to odd in float64 (53 >= 2*24 + 2 bits), so the final
    rounding to float32 is correct: no double rounding.
    """
    return _sliced3(_fma32_flat, a, b, c, F32)


def _fma32_flat(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    p = a.astype(F64) * b
    wide = c.astype(F64)
    r = round_to_odd(*two_sum(p, wide)).astype(F32)
    # an infinite or NaN operand: two_sum's error term is NaN; IEEE's fma is then
    # a*b + c (the float64 product is exact), e.g. fma(-8, inf, -inf) = -inf
    odd = ~(np.isfinite(p) & np.isfinite(wide))
    if odd.any():
        r[odd] = (p[odd] + wide[odd]).astype(F32)
    return r
