"""Binary elementwise math: lerp, hypot, atan2 (aten/src/ATen/native/Lerp.cpp,
BinaryOps.cpp, cpu/LerpKernel.cpp, cpu/BinaryOpsKernel.cpp).

* **lerp** is replayed bit for bit: ``|w| < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w)``
  in opmath (float for half).  The vector loop computes it as one fused multiply-add
  (``vec::fmadd(coeff, b - a, base)``), and so does the scalar loop in the AVX2/AVX512
  builds, which GCC compiles with FMA; the DEFAULT build rounds the product and the sum
  separately.  Measured equal to torch on 2^18 values per dtype under each capability.
* **hypot** is correctly rounded in float (Sleef's u05 and glibc's agree with numpy on
  every value measured) and float16; Sleef's double hypot in the vector body is 1 ulp off
  on about 1 value in 1000.
* **atan2** runs Sleef's atan2 (u10) in the vector body and glibc's in the tail: tidx
  computes numpy's and states the bound (docs/fidelity-math.md).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import check
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import INPLACE, META_PYTHON, OUT, structured
from engine.ops.pointwise import BINARY, iterate, operand, result_type
from engine.rng.fp import fma32, fma64

LERP = "aten/src/ATen/native/Lerp.cpp"
LERP_KERNEL = "aten/src/ATen/native/cpu/LerpKernel.cpp"
BINARY_KERNEL = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp"


def _form_name(name: str, form: str) -> str:
    return name + "_" if form == INPLACE else name


# -- lerp ---------------------------------------------------------------------------------------
def _lerp_loop(fused: bool, weight: float | None = None):
    def loop(a, b, w=None):
        half = a.dtype == np.float16
        t = np.float32 if half else a.dtype.type
        x, y = a.astype(t), b.astype(t)
        # lerp_scalar_kernel: weight.to<opmath_t>() once; lerp_tensor_kernel: each weight
        wt = np.asarray(t(weight) if w is None else w.astype(t))
        d = y - x
        small = np.abs(wt) < t(0.5)
        if fused:
            fma = fma32 if t is np.float32 else fma64
            wb = np.broadcast_to(wt, d.shape)
            r = np.where(small, fma(wb, d, x), fma(wb - t(1), d, y))
        else:
            r = np.where(small, x + wt * d, y - d * (t(1) - wt))
        return r.astype(np.float16) if half else r
    return loop


def _lerp_dtypes(self, end, weight=None) -> None:
    check(end.dtype is self.dtype, RuntimeError,
          f"expected dtype {D.type_meta_name(self.dtype)} for `end` but got dtype "
          f"{D.type_meta_name(end.dtype)}")
    if weight is not None:
        check(weight.dtype is self.dtype, RuntimeError,
              f"expected dtype {D.type_meta_name(self.dtype)} for `weight` but got dtype "
              f"{D.type_meta_name(weight.dtype)}")


def _fused() -> bool:
    return current().cpu.name != "DEFAULT"


@structured("lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> "
            "Tensor(a!)", native="at::native::lerp (structured, Scalar)",
            out_native="at::native::lerp_Scalar_out (structured)", source=LERP,
            variants="method, function", meta=META_PYTHON,
            at_dispatch=AT_DISPATCH("lerp_kernel_scalar", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def lerp_scalar(form: str, self, end, weight, *, out):
    _lerp_dtypes(self, end)
    return iterate(_form_name("lerp", form), [self, end], _lerp_loop(_fused(), float(weight)),
                   out=out, resize=form == OUT, at_dispatch=True,
                    source=LERP_KERNEL,
                   note=Note("math.lerp", fused=_fused()))


@structured("lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> "
            "Tensor(a!)", native="at::native::lerp (structured, Tensor)",
            out_native="at::native::lerp_Tensor_out (structured)", source=LERP,
            variants="method, function", meta=META_PYTHON,
            at_dispatch=AT_DISPATCH("lerp_kernel_tensor", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def lerp_tensor(form: str, self, end, weight, *, out):
    _lerp_dtypes(self, end, weight)
    return iterate(_form_name("lerp", form), [self, end, weight], _lerp_loop(_fused()),
                   out=out, resize=form == OUT, at_dispatch=True,
                    source=LERP_KERNEL,
                   note=Note("math.lerp", fused=_fused()))


# -- hypot, atan2 --------------------------------------------------------------------------------
def _in_float(fn):
    def loop(a, b):
        if a.dtype == np.float16:
            return fn(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
        return fn(a, b)
    return loop


#: (library, float32, float64, float16) bounds in ulp; 0 is bit for bit (measured over 2^20
#: pairs per dtype and every float16 value, under AVX512, AVX2 and DEFAULT, plus one)
_HYPOT = ("Sleef's vectorised hypot (u05), glibc's for a loop's tail", 0, 2, 0)
_ATAN2 = ("Sleef's vectorised atan2 (u10), glibc's for a loop's tail", 4, 2, 2)


def _bounded_note(op: str, fidelity: tuple, dtype: D.dtype):
    bound = {D.float32: fidelity[1], D.float64: fidelity[2], D.float16: fidelity[3]}[dtype]
    if bound == 0:
        return Note("math.float_exact", op=op)
    return Note("math.within_ulps", op=op, library=fidelity[0], ulps=bound)


@structured("hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::hypot (structured)",
            out_native="at::native::hypot_out (structured)", source=BINARY,
            variants="method, function", meta=META_PYTHON,
            at_dispatch=AT_DISPATCH("hypot_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def hypot(form: str, self, other, *, out):
    # build_borrowing_binary_op; AT_DISPATCH_FLOATING_TYPES_AND2(BFloat16, Half, "hypot_cpu")
    common = result_type([operand(self), operand(other)])
    note = _bounded_note("hypot", _HYPOT, common) if common.is_floating_point else None
    return iterate(_form_name("hypot", form), [self, other], _in_float(np.hypot), out=out,
                   resize=form == OUT, at_dispatch=True,
                   source=BINARY_KERNEL, note=note)


def _to_float(common: D.dtype) -> D.dtype:
    return common if common.is_floating_point else current().default_dtype


@structured("atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::atan2 (structured)",
            out_native="at::native::atan2_out (structured)", source=BINARY,
            variants="method, function", meta=META_PYTHON)
def atan2(form: str, self, other, *, out):
    # build_borrowing_binary_float_op: integers are computed in the default dtype
    common = _to_float(result_type([operand(self), operand(other)]))
    return iterate(_form_name("atan2", form), [self, other], _in_float(np.arctan2), out=out,
                   resize=form == OUT, common_dtype=_to_float, source=BINARY_KERNEL,
                   note=_bounded_note("atan2", _ATAN2, common))
