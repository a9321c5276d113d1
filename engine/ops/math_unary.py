"""Elementwise math: ceil, floor, trunc, frac, round (and round with decimals), rsqrt,
sqrt, the transcendentals exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, tanh,
asin, acos, atan, sinh, cosh, sigmoid, erf, and the composites square and fix
(aten/src/ATen/native/UnaryOps.cpp, cpu/UnaryOpsKernel.cpp, ATen/cpu/vml.h).

Each is one structured group (functional, in-place, out=) over TensorIterator.  Which of
them give torch's bits was measured, not assumed (docs/fidelity-math.md):

* ceil, floor, trunc, round, frac and rsqrt round exactly once (or not at all) on every
  path torch takes, so numpy's values are torch's, bit for bit, in every dtype and under
  every CPU capability; so is round with decimals, a scalar loop of nearbyint.
* sqrt and the transcendentals run, for float and double, in Intel MKL's VML (``vml.h``:
  ``vmsSqrt``, ``vmsExp`` ... with ``VML_HA``) or in Sleef's vectorised functions with
  glibc's for a loop's tail (``cpu_kernel_vec``): neither is correctly rounded, and tidx
  cannot replay MKL.  tidx computes them with numpy and says so on the kernel step: whose
  code torch runs and the most units in the last place the two can differ (measured over
  a million values under AVX512, AVX2 and DEFAULT, plus a margin of one).  ``--verify``
  compares those results within that bound and says so.  float16 is computed in float
  and rounded, as torch's Vectorized<Half> does: for most of these functions that is
  torch's value for all 65,536 inputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tracer.notes import Note

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, check
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, INPLACE, META_PYTHON,
                                          OUT, declare,
                                          structured)
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.aliases import alias
from engine.dispatch.aten import aten
from engine.ops.pointwise import UNARY, iterate

UNARY_KERNEL = "aten/src/ATen/native/cpu/UnaryOpsKernel.cpp"


def _form_name(name: str, form: str) -> str:
    return name + "_" if form == INPLACE else name


def _same_dtype(form: str, self, out) -> None:
    """build_borrowing_unary_op: check_all_same_dtype, an out= tensor included."""
    if form == OUT:
        check(out.dtype is self.dtype, RuntimeError,
              f"Found dtype {D.cpp_name(out.dtype)} but expected {D.cpp_name(self.dtype)}")


def _to_float(common: D.dtype) -> D.dtype:
    """build_borrowing_unary_float_op: an integer (or bool) input is computed in the
    default dtype, copied to it first (the ``aten::to`` torch.profiler shows)."""
    return common if common.is_floating_point else current().default_dtype


# -- ceil, floor, trunc, round: exact; an integer is its own result --------------------------
def _rounding(name: str, fn: Callable[[np.ndarray], np.ndarray], native_out: str) -> None:
    def impl(form: str, self, *, out):
        if name != "round":     # TORCH_META_FUNC(ceil/floor/trunc)'s first check
            check(not self.dtype.is_complex, NotImplementedError,
                  f"{name} is not supported for complex inputs")
        _same_dtype(form, self, out)
        if self.dtype.is_floating_point or self.dtype is D.bool or self.dtype.is_complex:
            # AT_DISPATCH_FLOATING_TYPES_AND2(BFloat16, Half, "<op>_vml_cpu"): a bool has
            # no case; vml's ceil/floor/trunc/round (roundscale, nearbyint: half to even)
            # are exact
            return iterate(_form_name(name, form), [self], fn, out=out, resize=form == OUT,
                           at_dispatch=True, source=UNARY_KERNEL,
                           note="math.rounding_exact")
        # TORCH_IMPL_FUNC(<op>_out): an integral tensor is copied (result.copy_(self))
        result = iterate(_form_name(name, form), [self], None, out=out, resize=form == OUT,
                         source=UNARY_KERNEL)
        return aten.copy_.default(result, self)
    structured(f"{name}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
               native=f"at::native::{name} (structured)",
               out_native=f"at::native::{native_out} (structured)", source=UNARY,
               inplace_variants="function, method", meta=META_PYTHON,
               at_dispatch=AT_DISPATCH(f"{name}_vml_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"),
               takes_complex=True)(impl)


_rounding("ceil", np.ceil, "ceil_out")
_rounding("floor", np.floor, "floor_out")
_rounding("trunc", np.trunc, "trunc_out")
_rounding("round", np.rint, "round_out")


def _decimals_loop(decimals: int):
    """round_decimals_kernel (cpu/UnaryOpsKernel.cpp): a scalar loop in opmath_t (float
    for float and Half) of ``nearbyint(a * 10^d) / 10^d``, or for negative decimals
    ``nearbyint(a / 10^-d) * 10^-d``, where ``10^d`` is ``std::pow(10, d)`` (a double,
    infinite past 308) cast to opmath_t.  Not plain rounding: 10^d itself is rounded,
    and a product that overflows gives NaN (inf / inf)."""
    flip = decimals < 0
    with np.errstate(over="ignore"):
        ten = np.power(np.float64(10.0), abs(decimals))

    def loop(a):
        wide = a.dtype == np.float16
        x = a.astype(np.float32) if wide else a
        t = x.dtype.type(ten)
        r = np.rint(x / t) * t if flip else np.rint(x * t) / t
        return r.astype(np.float16) if wide else r
    return loop


@structured("round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::round (structured, decimals)",
            out_native="at::native::round_decimals_out (structured)", source=UNARY,
            inplace_variants="function, method", meta=META_PYTHON,
            at_dispatch=(AT_DISPATCH("round_vml_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"),
                         AT_DISPATCH("round_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)")))
def round_decimals(form: str, self, *, decimals: int, out):
    _same_dtype(form, self, out)
    name = _form_name("round", form)
    if decimals == 0:
        # TORCH_IMPL_FUNC(round_decimals_out): decimals 0 is round_stub (no integer copy)
        return iterate(name, [self], np.rint, out=out, resize=form == OUT,
                       at_dispatch="round_vml_cpu", source=UNARY_KERNEL,
                       note="math.rounding_exact")
    return iterate(name, [self], _decimals_loop(decimals), out=out, resize=form == OUT,
                   at_dispatch="round_cpu", source=UNARY_KERNEL,
                   note=Note("math.round_decimals", decimals=decimals))


def _frac(a):
    # a - trunc(a) is exact (the difference fits a's precision); inf gives NaN
    return a - np.trunc(a)


@structured("frac.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::frac (structured)",
            out_native="at::native::frac_out (structured)", source=UNARY,
            inplace_variants="function, method", meta=META_PYTHON,
            at_dispatch=AT_DISPATCH("frac_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def frac(form: str, self, *, out):
    _same_dtype(form, self, out)
    return iterate(_form_name("frac", form), [self], _frac, out=out, resize=form == OUT,
                   at_dispatch=True, source=UNARY_KERNEL,
                   note="math.frac")


# -- the float functions: exact where measured so, else within a measured bound ----------------
@dataclass(frozen=True)
class Fidelity:
    """Whose code computes an operator in torch, per dtype, and how far (in units in the
    last place) numpy's value may be from it: 0 is bit for bit."""

    library: str
    float32: int
    float64: int
    float16: int
    half_library: str = "Sleef's float function in Vectorized<Half>, rounded to half"

    def ulps(self, dtype: D.dtype) -> int:
        return {D.float32: self.float32, D.float64: self.float64,
                D.float16: self.float16}[dtype]

    def who(self, dtype: D.dtype) -> str:
        return self.half_library if dtype is D.float16 else self.library


def _mkl(fn: str) -> str:
    return f"Intel MKL's VML ({fn}, high accuracy)"


def _sleef(fn: str) -> str:
    return f"Sleef's vectorised {fn} (u10), glibc's for a loop's tail"


def _sigmoid(a):
    one = a.dtype.type(1)
    return one / (one + np.exp(-a))


#: name -> (numpy's function, fidelity).  The bounds are the largest differences measured
#: (docs/fidelity-math.md: 2^20 values per range, contiguous and strided, sizes 1-40, under
#: AVX512, AVX2 and DEFAULT) plus one.
FLOAT_OPS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], Fidelity]] = {
    "sqrt": (np.sqrt, Fidelity(_mkl("vmsSqrt"), 2, 2, 0)),
    "exp": (np.exp, Fidelity(_mkl("vmsExp"), 3, 2, 0)),
    "exp2": (np.exp2, Fidelity(_sleef("exp2"), 4, 2, 0)),
    "expm1": (np.expm1, Fidelity(_sleef("expm1"), 4, 2, 2)),
    "log": (np.log, Fidelity(_mkl("vmsLn"), 4, 2, 2)),
    "log2": (np.log2, Fidelity(_mkl("vmsLog2"), 3, 2, 0)),
    "log10": (np.log10, Fidelity(_mkl("vmsLog10"), 3, 2, 2)),
    "log1p": (np.log1p, Fidelity(_sleef("log1p"), 3, 2, 0)),
    "sin": (np.sin, Fidelity(_mkl("vmsSin"), 2, 2, 2)),
    "cos": (np.cos, Fidelity(_mkl("vmsCos"), 2, 2, 0)),
    "tan": (np.tan, Fidelity(_mkl("vmsTan"), 4, 2, 2)),
    "tanh": (np.tanh, Fidelity(_mkl("vmsTanh"), 2, 2, 0)),
    "asin": (np.arcsin, Fidelity(_mkl("vmsAsin"), 4, 2, 2)),
    "acos": (np.arccos, Fidelity(_mkl("vmsAcos"), 3, 2, 0)),
    "atan": (np.arctan, Fidelity(_mkl("vmsAtan"), 3, 2, 2)),
    "sinh": (np.sinh, Fidelity(_sleef("sinh"), 3, 3, 0)),
    "cosh": (np.cosh, Fidelity(_sleef("cosh"), 3, 2, 2)),
    "sigmoid": (_sigmoid, Fidelity("1 / (1 + exp(-x)) with Sleef's vectorised exp, "
                                   "glibc's for a loop's tail", 5, 5, 2)),
    "erf": (None, Fidelity(_mkl("vmsErf"), 2, 4, 6)),    # type: ignore[dict-item]
}

#: Where Sleef's vectorised sinh and cosh (u10) overflow to infinity while the function is
#: still finite (up to 89.4 in float, 710.5 in double): measured from 88.722855 and
#: 709.78285 under AVX2 and AVX512 (the DEFAULT build's loops agree with glibc's); tidx
#: runs them below these and refuses the rest in one line.
_OVERFLOW_EARLY = {"float32": 88.72, "float64": 709.78, "float16": np.inf}


def _erf(a):
    # numpy has no erf; math.erf is glibc's erf of the double, rounded to the tensor's type
    return np.vectorize(math.erf, otypes=[np.float64])(a.astype(np.float64)).astype(a.dtype)


def _loop(name: str, fn):
    def loop(a):
        if (name in ("sinh", "cosh") and current().cpu.name != "DEFAULT"
                and np.any(np.abs(a) >= _OVERFLOW_EARLY[a.dtype.name])):
            raise Refused(f"{name} of a value this large (|x| >= "
                          f"{_OVERFLOW_EARLY[a.dtype.name]}) overflows to inf in torch's "
                          f"vectorised Sleef {name} but not in its scalar loop: which one "
                          "an element meets depends on its position, which tidx does not "
                          "model")
        f = _erf if fn is None else fn
        if a.dtype == np.float16:
            # Vectorized<Half>: converted to float, the float function, rounded to half
            return np.asarray(f(a.astype(np.float32))).astype(np.float16)
        return f(a)
    return loop


def _float_op(name: str, fn, fidelity: Fidelity, device_check: str | None = None) -> None:
    def impl(form: str, self, *, out):
        dtype = _to_float(self.dtype)
        bound = fidelity.ulps(dtype)
        note = (Note("math.float_exact", op=name) if bound == 0 else
                Note("math.within_ulps", op=name, library=fidelity.who(dtype), ulps=bound))
        return iterate(_form_name(name, form), [self], _loop(name, fn), out=out,
                       resize=form == OUT, common_dtype=_to_float, source=UNARY_KERNEL,
                       note=note)
    structured(f"{name}.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
               native=f"at::native::{name} (structured)",
               out_native=f"at::native::{name}_out (structured)", source=UNARY,
               inplace_variants="function, method", meta=META_PYTHON,
               device_check=device_check, out_device_check=device_check)(impl)


for _name, (_fn, _fidelity) in FLOAT_OPS.items():
    # exp2 has no ``device_check: NoCheck`` in the yaml: its CUDA wrapper checks devices
    _float_op(_name, _fn, _fidelity, CHECK_WRAPPER if _name == "exp2" else None)


# rsqrt: 1 / sqrt(a), each correctly rounded, on every path for float and double
# (cpu_kernel_vec: Vectorized::rsqrt is a division by _mm*_sqrt_p*, the scalar loop
# 1 / std::sqrt).  Half differs between paths: the vector loop computes in float and
# rounds once, the scalar loop (a tail, a strided tensor, the DEFAULT build) rounds
# sqrt to half before dividing
def _rsqrt(a):
    if a.dtype == np.float16:
        return (np.float32(1) / np.sqrt(a.astype(np.float32))).astype(np.float16)
    return a.dtype.type(1) / np.sqrt(a)


@structured("rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::rsqrt (structured)",
            out_native="at::native::rsqrt_out (structured)", source=UNARY,
            inplace_variants="function, method", meta=META_PYTHON)
def rsqrt(form: str, self, *, out):
    dtype = _to_float(self.dtype)
    note = (Note("math.within_ulps", op="rsqrt", ulps=1,
                 library="the scalar loop's 1 / sqrt in half, rounded twice")
            if dtype is D.float16 else Note("math.float_exact", op="rsqrt"))
    return iterate(_form_name("rsqrt", form), [self], _rsqrt, out=out, resize=form == OUT,
                   common_dtype=_to_float, source=UNARY_KERNEL, note=note)


# -- composites ------------------------------------------------------------------------------
@declare("square(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::square", source=UNARY)
def square(self):
    # at::pow(self, 2): pow's exact x * x
    return aten.pow.Tensor_Scalar(self, 2)


@declare("square_(Tensor(a!) self) -> Tensor(a!)", variants="function, method",
         kind=COMPOSITE, native="at::native::square_", source=UNARY)
def square_(self):
    return aten.pow_.Scalar(self, 2)


@declare("fix(Tensor self) -> Tensor", variants="function, method", kind=COMPOSITE,
         native="at::native::fix", source=UNARY)
def fix(self):
    return aten.trunc.default(self)


@declare("fix_(Tensor(a!) self) -> Tensor(a!)", variants="function, method", kind=COMPOSITE,
         native="at::native::fix_", source=UNARY)
def fix_(self):
    return aten.trunc_.default(self)


@declare("square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::square_out", source=UNARY)
def square_out(self, *, out):
    # at::pow_out(result, self, 2) (UnaryOps.cpp)
    return aten.pow.Tensor_Scalar_out(self, 2, out=out)


# fix_out calls at::trunc_out (UnaryOps.cpp)
alias("fix.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", of="trunc", source=UNARY)
