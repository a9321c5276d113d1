"""``t.real`` and ``t.imag`` (aten/src/ATen/native/UnaryOps.cpp, ``real`` / ``imag``).

Both are CompositeImplicitAutograd.  On a complex tensor they are views of the real and
imaginary halves of each element (view_as_real, then select); on any other tensor
``real`` is the tensor itself (no view is made: ``t.real is t``) and ``imag`` is an
error.  tidx has no complex dtypes, so the complex branch is never reached.
"""

from __future__ import annotations

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core.errors import check
from engine.dispatch.declarations import COMPOSITE, declare

UNARY = "aten/src/ATen/native/UnaryOps.cpp"


REAL_NOT_COMPLEX = step("real: not complex", Layer.KERNEL, source=UNARY, note="real.self")


@declare("real(Tensor(a) self) -> Tensor(a)", variants="function", kind=COMPOSITE,
         native="at::native::real", source=UNARY)
def real(self):
    with span(REAL_NOT_COMPLEX) as s:
        s.set_result(self)
    return self


@declare("imag(Tensor(a) self) -> Tensor(a)", variants="function", kind=COMPOSITE,
         native="at::native::imag", source=UNARY)
def imag(self):
    check(self.dtype.name.startswith("complex"), RuntimeError,
          "imag is not implemented for tensors with non-complex dtypes.")
    raise AssertionError("tidx has no complex dtypes")  # unreachable: checked above
