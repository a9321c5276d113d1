"""Complex multiplication as torch's CPU loop computes it, bit for bit
(aten/src/ATen/native/cpu/BinaryOpsKernel.cpp's mul_kernel over Loops.h's cpu_kernel_vec).

``(a + bi)(c + di) = (ac - bd) + (ad + bc)i`` is computed two ways in one loop:

* the vectorised body (``Vectorized<c10::complex<T>>::operator*``,
  cpu/vec/vec256/vec256_complex_{float,double}.h) multiplies the four products and then
  subtracts and adds them: every product rounded, then the sum rounded;
* the scalar rest (``basic_loop``: the loop's tail, and every element of a loop whose
  operands are not contiguous) runs ``c10::complex<T>::operator*``, which GCC compiles
  with ``-mfma`` into fused multiply-adds in the AVX2 build: ``re = fma(a, c, -(b*d))``,
  ``im = fma(a, d, b*c)``, one rounding fewer -- but GCC vectorises that scalar code
  too, and its own peeled and leftover elements are rounded apart
  (:func:`_fused_elements` says which are which, as measured).

torch 2.13's wheel has no AVX512 build of mul_stub, so an AVX512 CPU runs the AVX2 one:
``vectorized_loop`` takes 2 vectors of 32 bytes per step (8 complex64, 4 complex128)
and leaves the rest of the loop to ``basic_loop``.  The DEFAULT build has no FMA: both
parts round alike.  Measured against torch on an AVX512 CPU: every element agrees.

tidx computes the body with numpy (each product, then the sum: IEEE operations, one
rounding each) and the fused tail elements exactly, with rationals.  Where it cannot
tell which elements torch runs in which loop (operands that are not one contiguous run)
it answers only when the two ways agree on every element, and refuses otherwise.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from engine.core import dtypes as D
from engine.core.dispatch_stub import DispatchStub
from engine.core.errors import Refused
from engine.ops.parallel import chunks

BINARY_KERNEL = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp"

#: mul_kernel's stub: no AVX512 build in torch 2.13's wheel
MUL_STUB = DispatchStub("mul_stub", avx512=False, source=BINARY_KERNEL)


def _parts(x: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    full = np.broadcast_to(x, shape)
    return np.ascontiguousarray(full.real), np.ascontiguousarray(full.imag)


def _round(value: Fraction, real: np.dtype) -> float:
    """A rational rounded once to ``real`` (float32 or float64), to nearest, ties to
    even: what one fused multiply-add gives.

    >>> _round(Fraction(1, 3), np.dtype(np.float32)) == float(np.float32(1 / 3))
    True
    """
    try:
        d = float(value)                 # correctly rounded to double
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")
    if real == np.float64:
        return d
    f = np.float32(d)
    if not np.isfinite(f) or float(f) == d:
        return float(f)
    # d may sit exactly halfway between two floats: round from the rational itself
    lo, hi = sorted((f, np.nextafter(f, np.float32(np.inf) if float(f) < d
                                     else np.float32(-np.inf))))
    mid = (Fraction(float(lo)) + Fraction(float(hi))) / 2
    if value != mid:
        return float(lo if value < mid else hi)
    return float(lo if int(lo.view(np.int32)) % 2 == 0 else hi)


def _fma(x: float, y: float, z: float, apart: float, real: np.dtype) -> float:
    """IEEE fusedMultiplyAdd(x, y, z) in ``real``: x*y + z rounded once.  An infinite
    product takes the sign of x*y (NaN for 0 * inf, or beside the opposite infinity); a
    finite exact product cannot cancel an infinite z; an exact zero is ``apart`` (the
    separately rounded x*y + z, whose zero has the same sign).  Where the fused result
    is NaN so is ``apart`` (a NaN operand, 0 * inf, inf - inf alike), and its bits are
    the NaN the CPU made: ``apart`` is returned."""
    if np.isnan(x) or np.isnan(y) or np.isnan(z):
        return apart
    if np.isinf(x) or np.isinf(y):
        if x == 0 or y == 0:
            return apart
        product = float("inf") if (x > 0) == (y > 0) else float("-inf")
        return apart if np.isinf(z) and z != product else product
    if np.isinf(z):
        return z
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    return apart if exact == 0 else _round(exact, real)


def _fused(ar: float, ai: float, br: float, bi: float, sep: complex,
           real: np.dtype) -> complex:
    """c10::complex<T>::operator* with GCC's contraction: re = fma(ar, br, -(ai*bi)),
    im = fma(ar, bi, ai*br), the products ai*bi and ai*br rounded to T first, each fma
    with IEEE's rules (:func:`_fma`).  It differs from the separately rounded ``sep``
    beyond the last bit where a product overflows, the fused one being exact: torch's
    ``(1e30+1e30j) * (1e10+1e10j)`` in a fused step is -inf+infj where ``sep`` has
    inf - inf = NaN; and so where an operand is infinite but the product it meets is
    finite (a running product with one part overflowed: (-1.2e38-infj) * (-0.15+1.1e15j)
    is inf+infj, not inf+nanj).

    >>> _fused(1e30, 1e30, 1e10, 1e10, complex("nan+infj"), np.dtype(np.float32))
    (-inf+infj)
    >>> _fused(-1.2e38, float("-inf"), -0.15, 1.1e15, complex("inf+nanj"), np.dtype(np.float32))
    (inf+infj)
    """
    t = real.type
    with np.errstate(over="ignore", invalid="ignore"):
        p_re = float(t(ai) * t(bi))     # the products rounded to T, as C++ does
        p_im = float(t(ai) * t(br))
    return complex(_fma(ar, br, -p_re, sep.real, real), _fma(ar, bi, p_im, sep.imag, real))


def _fused_elements(tail: int, end: int, dtype: D.dtype, scalar: bool) -> range:
    """Which of the scalar loop's elements ``[tail, end)`` GCC's code fuses (measured on
    torch 2.13's AVX2 build): every complex<double>; complex<float>s two at a time, an
    odd last one rounded apart -- but beside a scalar operand (vectorized_loop's ``S``)
    four at a time after one element rounded apart, the rest rounded apart too, and none
    fused in a tail of fewer than five.

    >>> [list(_fused_elements(0, n, D.complex64, False)) for n in (1, 2, 3)]
    [[], [0, 1], [0, 1]]
    >>> [list(_fused_elements(8, 8 + n, D.complex64, True)) for n in (4, 5, 7)]
    [[], [9, 10, 11, 12], [9, 10, 11, 12]]
    """
    if dtype is D.complex128:
        return range(tail, end)
    if scalar:
        return range(tail + 1, tail + 5) if end - tail >= 5 else range(0)
    return range(tail, end - (end - tail) % 2)


def _exact_first_products(ar: np.ndarray, br: np.ndarray, bi: np.ndarray) -> bool:
    """Whether every ``ar * br`` and ``ar * bi`` is exact (Dekker's TwoProduct error is
    zero, no underflow): then the fused and the separate roundings agree."""
    for y in (br, bi):
        p = ar * y
        finite = np.isfinite(p) & np.isfinite(ar) & np.isfinite(y)
        split = ar.dtype.type(2 ** ((np.finfo(ar.dtype).nmant + 2) // 2) + 1)

        def halves(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            c = split * v
            hi = c - (c - v)
            return hi, v - hi
        xh, xl = halves(ar)
        yh, yl = halves(y)
        err = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
        tiny = np.finfo(ar.dtype).tiny
        if not np.all(((err == 0) & ((p == 0) | (abs(p) >= tiny)))[finite]):
            return False
        if not np.all(np.isfinite(p) | ~(np.isfinite(ar) & np.isfinite(y))):
            return False        # an overflowing product: fma may bring it back
    return True


#: How TensorIterator's loop runs over the elements (:func:`loop_kind`)
VECTORISED, BASIC = "vectorized_loop", "basic_loop"


def multiply(a: np.ndarray, b: np.ndarray, dtype: D.dtype, loop: str | None) -> np.ndarray:
    """``a * b`` of complex arrays (broadcast), as torch's CPU loop gives it.  ``loop``
    (:func:`loop_kind`): VECTORISED, the first ``n - n % (2 * lanes)`` elements of each
    parallel chunk are the vectorised body and the rest the fused scalar loop; BASIC,
    every element the scalar loop's; None, not known."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    real = np.dtype(D.to_real(dtype).np)
    ar, ai = _parts(a, shape)
    br, bi = _parts(b, shape)
    out = np.empty(shape, dtype.np)
    out.real = ar * br - ai * bi
    out.imag = ar * bi + ai * br
    build = MUL_STUB.call(dtype, dtype.itemsize)
    if not build.fma or out.size == 0:
        return out
    flat = out.reshape(-1)
    far, fai, fbr, fbi = (x.reshape(-1) for x in (ar, ai, br, bi))
    if loop is None:
        if _exact_first_products(far, fbr, fbi):
            return out
        raise Refused("complex multiply: torch's CPU loop fuses multiply-adds in its scalar "
                      "part only, and for operands that are not one contiguous run tidx "
                      "cannot tell which elements take it (here the two ways differ); "
                      "make them contiguous (.contiguous()) to see the exact path")
    step = 2 * build.lanes(dtype.itemsize)
    scalar = flat.size > 1 and 1 in (np.size(a), np.size(b))
    for begin, end in chunks(flat.size):
        tail = begin + (end - begin) // step * step if loop == VECTORISED else begin
        for i in _fused_elements(tail, end, dtype, loop == VECTORISED and scalar):
            flat[i] = _fused(float(far[i]), float(fai[i]), float(fbr[i]), float(fbi[i]),
                             complex(flat[i]), real)
    return out


def loop_kind(arrays: list[Any], shape: tuple[int, ...], out_contiguous: bool) -> str | None:
    """How cpu_kernel_vec runs over these operands (Loops.h): VECTORISED when every one is
    a single element (stride 0: ``is_contiguous_scalar``) or C-contiguous over the whole
    shape (its dims coalesce into one loop), and so is the output; else, for a shape with
    one dim of more than one element (one loop, strided), BASIC; else None (rows of a
    loop each, which tidx does not follow).

    >>> loop_kind([np.zeros(4), np.zeros(())], (4,), True), loop_kind([np.zeros(8)[::2]], (4,), True)
    ('vectorized_loop', 'basic_loop')
    """
    if out_contiguous and all(np.size(x) == 1 or (
            np.shape(x) == shape and x.flags["C_CONTIGUOUS"]) for x in arrays):
        return VECTORISED
    return BASIC if sum(n > 1 for n in shape) <= 1 else None


def any_complex(*values: Any) -> Any:
    """Whether any of these numpy arrays holds complex numbers."""
    return any(np.asarray(v).dtype.kind == "c" for v in values)


def add(a: np.ndarray, b: np.ndarray, dtype: D.dtype, alpha: Any) -> np.ndarray:
    """ufunc::add of complex arrays: ``self + alpha * other`` (``vec::fmadd(other, alpha,
    self)``), alpha a complex number even when it is 1: ``other * (1 + 0i)`` is
    ``(c*1 - d*0) + (c*0 + d*1)i``, which turns a -0 real part into +0 where d >= 0 and
    an infinite d into a NaN real part, as torch's loop does.  Only alpha = 1 and -1
    (sub's): their products are exact, so the loop's body and its fused tail agree."""
    alpha = complex(alpha)
    if alpha not in (1, -1):
        raise Refused(f"add/sub of complex tensors with alpha={alpha!r} is not modelled by "
                      "tidx (only alpha=1)")
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    t = D.to_real(dtype).np.type
    ar, ai = _parts(a, shape)
    br, bi = _parts(b, shape)
    re, im = t(alpha.real), t(alpha.imag)
    out = np.empty(shape, dtype.np)
    out.real = ar + (br * re - bi * im)
    out.imag = ai + (br * im + bi * re)
    return out


# -- division --------------------------------------------------------------------------------
#: div_true_kernel's stub: no AVX512 build in torch 2.13's wheel
DIV_TRUE_STUB = DispatchStub("div_true_stub", avx512=False, source=BINARY_KERNEL)
#: The most elements tidx divides exactly (each one with rationals: see :func:`divide`)
MAX_DIVIDED = 20_000


def _quotient(a: float, b: float, c: float, d: float, real: np.dtype, fuse_den: bool,
              fuse_num: bool) -> complex:
    """c10::complex<T>::operator/ (torch/headeronly/util/complex.h, numpy's algorithm):
    the ratio of the smaller to the larger part of the divisor, a scale, and the two
    numerators; ``fuse_den``/``fuse_num``: GCC's fused multiply-adds in the scale's
    denominator and in the numerators (each then one rounding, exact here)."""
    t = real.type
    if not all(np.isfinite((a, b, c, d))):
        fuse_den = fuse_num = False     # IEEE's infinities and NaNs: no rational
    if abs(c) >= abs(d):
        if c == 0 and d == 0:           # "divide by zeros should yield a complex inf or nan"
            with np.errstate(all="ignore"):
                return complex(float(t(a) / t(abs(c))), float(t(b) / t(abs(d))))
        p, q, x, y, sign = c, d, a, b, 1.0      # (a + b*rat, b - a*rat)
    else:
        p, q, x, y, sign = d, c, b, a, -1.0     # (a*rat + b, b*rat - a)

    def fma(u: float, v: float, w: float, fused: bool) -> float:
        exact = Fraction(u) * Fraction(v) + Fraction(w) if fused else None
        if exact:       # (a zero sum: the product was exact, and IEEE's sign of zero holds)
            return _round(exact, real)
        with np.errstate(all="ignore"):
            return float(t(u) * t(v) + t(w))
    with np.errstate(all="ignore"):
        rat = float(t(q) / t(p))
        scl = float(t(1.0) / t(fma(q, rat, p, fuse_den)))
        if sign > 0:
            re, im = fma(y, rat, x, fuse_num), fma(-x, rat, y, fuse_num)
        else:
            re, im = fma(y, rat, x, fuse_num), fma(x, rat, -y, fuse_num)
        return complex(float(t(re) * t(scl)), float(t(im) * t(scl)))


def divide(a: np.ndarray, b: np.ndarray, dtype: D.dtype, loop: str | None,
           aliased: bool = False) -> np.ndarray:
    """``a / b`` of complex arrays as torch's CPU loop gives it: every element by
    c10::complex's scalar operator/ (the vectorised operator/ loops over it too), which
    the AVX2 build compiles with fused multiply-adds -- all of them for complex<double>;
    for complex<float>, GCC's code takes elements in pairs, and an odd last element of a
    loop fuses only the scale's denominator -- and every element of the scalar loop does
    so when the output is also an input (``aliased``: an in-place division; GCC's pairs
    need distinct memory) (measured on torch 2.13).  Where the loop's elements are not
    one run (``loop`` None), only an answer both ways agree on."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    out = np.empty(shape, dtype.np)
    if out.size > MAX_DIVIDED:
        raise Refused(f"complex division of more than {MAX_DIVIDED:,} elements is beyond "
                      "tidx's exact replay of torch's loop")
    real = np.dtype(D.to_real(dtype).np)
    ar, ai = (x.reshape(-1) for x in _parts(a, shape))
    br, bi = (x.reshape(-1) for x in _parts(b, shape))
    flat = out.reshape(-1)
    fma = DIV_TRUE_STUB.call(dtype, dtype.itemsize).fma
    odd_last: set[int] = set()        # the elements whose numerators are not fused
    if fma and dtype is D.complex64 and loop is not None:
        for begin, end in chunks(flat.size):
            if aliased:
                step = 2 * DIV_TRUE_STUB.build().lanes(dtype.itemsize)
                tail = begin + (end - begin) // step * step if loop == VECTORISED else begin
                odd_last.update(range(tail, end))
            elif (end - begin) % 2:
                odd_last.add(end - 1)
    for i in range(flat.size):
        args = (float(ar[i]), float(ai[i]), float(br[i]), float(bi[i]), real)
        if not fma or dtype is D.complex128 or loop is not None:
            flat[i] = _quotient(*args, fma, fma and i not in odd_last)
        else:
            pair, last = _quotient(*args, True, True), _quotient(*args, True, False)
            if pair != last and not (pair != pair and last != last):
                raise Refused("complex64 division: torch's loop fuses the numerators of "
                              "all but an odd last element, and for operands that are not "
                              "one run tidx cannot tell which element that is (here it "
                              "matters); make them contiguous (.contiguous())")
            flat[i] = pair
    return out
