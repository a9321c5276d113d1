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

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check
from engine.core.tensor_impl import TensorImpl
from engine.core.view import View
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, VIEW, declare
from engine.ops.pointwise import iterate

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
    check(not self.is_conj, RuntimeError,
          "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
          "conjugate tensor so you can view it as real, use self.resolve_conj(); however, "
          "be warned that the resulting tensor will NOT alias the original.")
    check(self.dtype.is_complex, RuntimeError,
          "view_as_real is only supported for complex tensors")
    v = self.view
    with span(VIEW_AS_REAL_GEOMETRY, sizes=list(v.sizes), strides=list(v.strides),
              offset=v.offset) as s:
        # view_as_real_physical: sizes + [2], strides * 2 + [1], offset * 2
        new = View(list(v.sizes) + [2], [st * 2 for st in v.strides] + [1], v.offset * 2)
        result = TensorImpl(self.storage, new, D.to_real(self.dtype))
        result.is_inference = self.is_inference     # the VIEW constructor: self's keys
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
        result.is_inference = self.is_inference     # the VIEW constructor: self's keys
        s.set_result(result)
    return result


@declare("real(Tensor(a) self) -> Tensor(a)", variants="function", kind=COMPOSITE,
         native="at::native::real", source=UNARY)
def real(self):
    if self.dtype.is_complex:
        # the real parts of the conjugates are the stored ones: the bit is dropped first
        base = aten._conj.default(self) if self.is_conj else self
        return aten.select.int(aten.view_as_real.default(base), -1, 0)
    with span(REAL_NOT_COMPLEX) as s:
        s.set_result(self)
    return self


@declare("imag(Tensor(a) self) -> Tensor(a)", variants="function", kind=COMPOSITE,
         native="at::native::imag", source=UNARY)
def imag(self):
    check(self.dtype.is_complex, RuntimeError,
          "imag is not implemented for tensors with non-complex dtypes.")
    if self.is_conj:
        raise Refused("imag of a tensor with the conjugate bit is a view with the negative "
                      "bit (_neg_view) in torch, which tidx does not model; resolve_conj() "
                      "first")
    return aten.select.int(aten.view_as_real.default(self), -1, 1)


# -- the conjugate bit (aten/src/ATen/native/UnaryOps.cpp, ConjugateFallback.cpp) ----------
# t.conj() copies nothing: it makes a view with the conjugate bit set, whose elements are
# read as the conjugates of the stored ones.  Operators that do not read the bit
# themselves get such an input resolved first (engine.dispatch.dispatcher's fallback);
# resolve_conj and conj_physical make the conjugates real in new memory.

SET_CONJ = step("_set_conj", Layer.KERNEL, source=UNARY, note="complex.set_conj")


@declare("_conj(Tensor(a) self) -> Tensor(a)", variants="function, method",
         native="at::native::_conj", source=UNARY, takes_complex=True)
def _conj(self):
    """``alias()``, then ``_set_conj(!self.is_conj())`` on the alias."""
    result = aten.alias.default(self)
    with span(SET_CONJ, conj=not self.is_conj) as s:
        result.is_conj = not self.is_conj
        s.set_result(result)
    return result


@declare("conj(Tensor(a) self) -> Tensor(a)", variants="function, method", kind=COMPOSITE,
         native="at::native::conj", source=UNARY)
def conj(self):
    """Tensor::conj (manual_cpp_binding: inline in TensorBody.h, so the profiler records
    no aten::conj): the tensor itself unless it is complex, else ``_conj()``."""
    return aten._conj.default(self) if self.dtype.is_complex else self


@declare("resolve_conj(Tensor(a) self) -> Tensor(a)", variants="function, method",
         kind=COMPOSITE, native="at::native::resolve_conj", source=UNARY)
def resolve_conj(self):
    """Without the conjugate bit, ``self`` (nothing copied); with it, ``clone()``, whose
    copy_ writes the conjugates into memory without the bit."""
    return aten.clone.default(self) if self.is_conj else self


@declare("conj_physical(Tensor self) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::conj_physical", source=UNARY)
def conj_physical(self):
    """The tensor itself unless complex, else ``_conj_physical``."""
    return aten._conj_physical.default(self) if self.dtype.is_complex else self


@declare("_conj_physical(Tensor self) -> Tensor", variants="function, method",
         native="at::native::_conj_physical", source=UNARY, takes_complex=True,
         conj_fallthrough=True)
def _conj_physical(self):
    """Under the conjugate bit, ``self.conj().clone()`` (the bit dropped, then a copy);
    else ``conj_physical_out(empty_like(self), self)``."""
    if self.is_conj:
        return aten.clone.default(aten._conj.default(self))
    result = aten.empty_like.default(self)
    return aten.conj_physical.out(self, out=result)


@declare("conj_physical.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::conj_physical_out", source=UNARY, meta=META_PYTHON,
         device_check=CHECK_WRAPPER, takes_complex=True)
def conj_physical_out(self, *, out):
    """unary_op_impl_out(result, self, conj_physical_stub): TensorIterator, then the
    imaginary parts negated (exact: only the sign bit changes)."""
    return iterate("conj_physical", [self], np.conj, out=out, resize=True,
                   source="aten/src/ATen/native/cpu/UnaryOpsKernel.cpp",
                   note="complex.conj_kernel")
