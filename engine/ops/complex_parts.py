"""A complex tensor's halves: ``view_as_real``, ``view_as_complex``, ``t.real`` and
``t.imag`` (aten/src/ATen/native/ComplexHelper.h, UnaryOps.cpp).

A complex64 element is two float32s side by side, real then imaginary (c10::complex<T>
is ``T real_, imag_``).  So a complex tensor is also a float tensor with one more dim of
size 2: every stride doubles, the offset doubles, and the new last dim steps one float
(``view_as_real``).  The reverse view exists only where the floats pair up that way
(``view_as_complex``'s checks).  ``real`` and ``imag`` are ``view_as_real`` then
``select`` of index 0 or 1 of the last dim: views, so writing ``t.imag[0] = 5`` writes
into ``t``.  On a real tensor ``real`` is the tensor itself (no view is made: ``t.real
is t``) and ``imag`` is an error.
"""

from __future__ import annotations

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import check
from engine.core.tensor_impl import TensorImpl
from engine.core.view import View
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, VIEW, declare

UNARY = "aten/src/ATen/native/UnaryOps.cpp"
HELPER = "aten/src/ATen/native/ComplexHelper.h"


REAL_NOT_COMPLEX = step("real: not complex", Layer.KERNEL, source=UNARY, note="real.self")
VIEW_AS_REAL_GEOMETRY = step("view_tensor (as real)", Layer.KERNEL, source=HELPER,
                             note="complex.view_as_real")
VIEW_AS_COMPLEX_GEOMETRY = step("view_tensor (as complex)", Layer.KERNEL, source=HELPER,
                                note="complex.view_as_complex")


@declare("view_as_real(Tensor(a) self) -> Tensor(a)", kind=VIEW,
         native="at::native::view_as_real", source=HELPER, device_check=CHECK_WRAPPER,
         takes_complex=True)
def view_as_real(self):
    check(self.dtype.is_complex, RuntimeError,
          "view_as_real is only supported for complex tensors")
    v = self.view
    with span(VIEW_AS_REAL_GEOMETRY, sizes=list(v.sizes), strides=list(v.strides),
              offset=v.offset) as s:
        # view_as_real_physical: sizes + [2], strides * 2 + [1], offset * 2
        new = View(list(v.sizes) + [2], [st * 2 for st in v.strides] + [1], v.offset * 2)
        result = TensorImpl(self.storage, new, D.to_real(self.dtype))
        s.set_result(result)
    return result


@declare("view_as_complex(Tensor(a) self) -> Tensor(a)", kind=VIEW,
         native="at::native::view_as_complex", source=HELPER, device_check=CHECK_WRAPPER,
         takes_complex=True)
def view_as_complex(self):
    check(self.dtype in (D.float32, D.float64, D.float16), RuntimeError,
          "view_as_complex is only supported for half, float and double tensors, but got a "
          f"tensor of scalar type: {D.cpp_name(self.dtype)}")
    v = self.view
    check(len(v.sizes) > 0, RuntimeError, "Input tensor must have one or more dimensions")
    check(v.sizes[-1] == 2, RuntimeError, "Tensor must have a last dimension of size 2")
    # computeStrideForViewAsComplex
    check(v.strides[-1] == 1, RuntimeError, "Tensor must have a last dimension with stride 1")
    check(all(st % 2 == 0 for st in v.strides[:-1]), RuntimeError,
          "Tensor must have a stride divisible by 2 for all but last dimension")
    complex_type = D.to_complex(self.dtype)      # (Half's ComplexHalf: refused there)
    check(v.offset % 2 == 0, RuntimeError, "Tensor must have a storage_offset divisible by 2")
    with span(VIEW_AS_COMPLEX_GEOMETRY, sizes=list(v.sizes), strides=list(v.strides),
              offset=v.offset) as s:
        new = View(list(v.sizes[:-1]), [st // 2 for st in v.strides[:-1]], v.offset // 2)
        result = TensorImpl(self.storage, new, complex_type)
        s.set_result(result)
    return result


@declare("real(Tensor(a) self) -> Tensor(a)", variants="function", kind=COMPOSITE,
         native="at::native::real", source=UNARY)
def real(self):
    if self.dtype.is_complex:
        return aten.select.int(aten.view_as_real.default(self), -1, 0)
    with span(REAL_NOT_COMPLEX) as s:
        s.set_result(self)
    return self


@declare("imag(Tensor(a) self) -> Tensor(a)", variants="function", kind=COMPOSITE,
         native="at::native::imag", source=UNARY)
def imag(self):
    check(self.dtype.is_complex, RuntimeError,
          "imag is not implemented for tensors with non-complex dtypes.")
    return aten.select.int(aten.view_as_real.default(self), -1, 1)
