"""angle: the argument of each element (aten/src/ATen/native/UnaryOps.cpp, angle_kernel in
cpu/UnaryOpsKernel.cpp, angle_impl in ATen/native/cpu/zmath.h).

``angle`` is not structured.  A real (or integer, or bool) input takes
``unary_op_impl_float``: TensorIterator's unary_float_op computes in the input's float
type, an integer one in the default dtype (the ``aten::to`` torch.profiler shows), and
``angle_impl`` gives 0 for a number >= 0 (-0.0 too), pi rounded to the dtype for a
negative one, and a NaN itself.  A complex input allocates ``at::empty({0})`` of the real
type and calls ``angle.out``, which (``unary_op_impl_with_complex_to_float_out``) runs the
kernel complex -> complex into a temporary (``arg(z) + 0i``) and copies that temporary's
real view into the result.

``arg(z)`` is atan2(imag, real): Sleef's vectorised atan2 (u10) in the loop's body under
AVX2/AVX512, glibc's ``atan2f``/``atan2`` in the scalar tail and in the DEFAULT build;
neither is correctly rounded, and an element's bits depend on where it sits in the loop.
tidx computes atan2 in double (complex64's rounded to float) and says so on the kernel
step: measured within 1 ulp of torch's over 2^18 values of 10 decades, contiguous, strided
and in 3-element tails, under AVX2 and DEFAULT (the note's bound is 2: measured plus one,
docs/fidelity-math.md).
"""

from __future__ import annotations

import math

import numpy as np

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, declare
from engine.ops.pointwise import UNARY, can_cast, iterate, resize_output
from tracer.notes import Note

UNARY_KERNEL = "aten/src/ATen/native/cpu/UnaryOpsKernel.cpp"

#: angle_kernel's switch (cpu/UnaryOpsKernel.cpp)
_ANGLE_CPU = AT_DISPATCH("angle_cpu",
                         "AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kBFloat16, kHalf)")
#: whose atan2 torch runs, and the most ulp tidx's may differ by (measured 1, plus one)
LIBRARY = "Sleef's vectorised atan2 (u10) in the loop's body, glibc's atan2f/atan2 in its tail"
ULPS = 2


def _real_angle(a: np.ndarray) -> np.ndarray:
    """angle_impl of a real: ``z < 0 ? pi : 0``, a NaN returned as it is (pi is
    c10::pi<double> converted to the dtype; float16 gets 3.140625)."""
    pi = a.dtype.type(math.pi)
    return np.where(np.isnan(a), a, np.where(a < 0, pi, a.dtype.type(0)))


def _complex_angle(z: np.ndarray) -> np.ndarray:
    """angle_impl of a complex: ``(arg(z), 0)``, atan2 in double, rounded to the part's
    type (see the module's note on Sleef and glibc)."""
    real = np.dtype(D.to_real(D.from_numpy(z.dtype)).np)
    out = np.zeros(z.shape, z.dtype)
    with np.errstate(all="ignore"):
        out.real = np.arctan2(z.imag.astype(np.float64), z.real.astype(np.float64)).astype(real)
    return out


def _loop(a: np.ndarray) -> np.ndarray:
    return _complex_angle(a) if a.dtype.kind == "c" else _real_angle(a)


def _note(dtype: D.dtype) -> Note:
    if dtype.is_complex:
        return Note("math.within_ulps", op="angle", library=LIBRARY, ulps=ULPS)
    return Note("angle.real", dtype=dtype)


def _to_float(common: D.dtype) -> D.dtype:
    """unary_float_op: an integer or bool input is computed in the default dtype."""
    return common if common.is_floating_point or common.is_complex \
        else current().default_dtype


def _float_out(self, out, resize: bool):
    """unary_op_impl_float_out / unary_op_impl_float: the iterator over self in its
    float type, into ``out`` (or a new tensor), angle_kernel on it."""
    common = _to_float(self.dtype)
    # (a new output is TensorIterator's own allocation, at::empty: the aten::empty the
    # profiler shows under aten::angle)
    return iterate("angle", [self], _loop, out=out, resize=resize, common_dtype=_to_float,
                   at_dispatch=True, allocate="empty", source=UNARY_KERNEL,
                   note=_note(common))


@declare("angle.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::angle_out", source=UNARY, meta=META_PYTHON,
         at_dispatch=_ANGLE_CPU, takes_complex=True)
def angle_out(self, *, out):
    if self.dtype.is_complex and not out.dtype.is_complex:
        # unary_op_impl_with_complex_to_float_out: complex -> complex into a temporary,
        # then its real view copied into the float result
        real = D.to_real(self.dtype)
        if not can_cast(real, out.dtype):
            raise torch_error(RuntimeError, f"result type {D.cpp_name(real)} can't be cast "
                                            f"to the desired output type {D.cpp_name(out.dtype)}")
        temp = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
        _float_out(self, temp, True)
        resize_output(out, temp.view.sizes, S.contiguous_strides(temp.view.sizes))
        return aten.copy_.default(out, aten.real.default(temp))
    return _float_out(self, out, True)


@declare("angle(Tensor self) -> Tensor", variants="function, method",
         native="at::native::angle", source=UNARY, meta=META_PYTHON, at_dispatch=_ANGLE_CPU,
         takes_complex=True)
def angle(self):
    if self.dtype.is_complex:
        result = aten.empty.memory_format([0], dtype=D.to_real(self.dtype),
                                          device=self.device_type)
        return aten.angle.out(self, out=result)
    return _float_out(self, None, False)
