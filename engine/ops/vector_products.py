"""The vector products: dot, vdot, outer and ger, with their out= forms
(aten/src/ATen/native/Blas.cpp, LinearAlgebra.cpp).

dot is BLAS's dot (``dot_impl``) into a 0-dim tensor; vdot of real tensors is dot (nothing
to conjugate); outer is a column reshaped and multiplied by the row (``mul``), ger its
deprecated name.  The out= forms of dot and vdot resize the out= tensor to 0-dim, check
its dtype, then fill it with the product; outer's and ger's are mul's out=.  The values
and their note are matmul.py's.
"""

from __future__ import annotations

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.device import of_type
from engine.core.errors import check
from engine.dispatch.at_dispatch import dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.ops.matmul import BLAS, LINALG, _blas_dispatch, _values
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched


# -- dot ---------------------------------------------------------------------------------------
DOT_IMPL = step("dot_impl<scalar_t>", Layer.KERNEL, source=BLAS)


@declare("dot(Tensor self, Tensor tensor) -> Tensor", variants="function, method",
         native="at::native::dot", source=BLAS, device_check=CHECK_WRAPPER,
         meta=META_PYTHON,
            at_dispatch=_blas_dispatch("dot"))
def dot(self, tensor):
    # dot_check (Blas.cpp)
    check(self.dim() == 1 and tensor.dim() == 1, RuntimeError,
          f"1D tensors expected, but got {self.dim()}D and {tensor.dim()}D tensors")
    check(self.dtype is tensor.dtype, RuntimeError,
          f"dot : expected both vectors to have same dtype, but found "
          f"{D.cpp_name(self.dtype)} and {D.cpp_name(tensor.dtype)}")
    n, m = self.numel(), tensor.numel()
    check(n == m, RuntimeError,
          f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
          f"number of elements, but got {n} and {m} elements respectively")
    dispatched(self.dtype, "dot")
    result = aten.empty.memory_format([], dtype=self.dtype, device=self.device_type)
    with span(DOT_IMPL, n=n) as s:
        value = None
        if not self.is_meta:
            values, note = _values("dot", self.array()[None, :], tensor.array()[:, None],
                                   self.dtype, n)
            value = values[0, 0]
            s.note(note)
            s.set(read=[touched(self), touched(tensor)])
    # dot_impl returns a scalar_t; dot fills the 0-dim result with it
    return aten.fill_.Scalar(result, 0 if value is None else value.item())


def _dot_out(name: str, self, other, out):
    """dot_out / vdot_out (LinearAlgebra.cpp): the devices, resize_output to a 0-dim
    tensor, the dtype, then ``result.fill_(self.dot(other))``."""
    where = [str(of_type(t.device_type)) for t in (out, self, other)]
    check(where[0] == where[1] == where[2], RuntimeError,
          f"{name}: Expected the output and input tensors to be on the same device, but got "
          f"the output tensor on {where[0]}, the 'input' tensor on {where[1]}, and the "
          f"'other' tensor on {where[2]}")
    resize_output(out, (), ())
    check(out.dtype is self.dtype, RuntimeError,
          f"result dtype {D.cpp_name(out.dtype)} does not match input dtype "
          f"{D.cpp_name(self.dtype)}")
    value = aten.dot.default(self, other) if name == "dot" else aten.vdot.default(self, other)
    return aten.fill_.Tensor(out, value)


@declare("dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::dot_out", source=LINALG, meta=META_PYTHON)
def dot_out(self, tensor, *, out):
    return _dot_out("dot", self, tensor, out)


# -- vdot, outer, ger --------------------------------------------------------------------------

@declare("vdot(Tensor self, Tensor other) -> Tensor", variants="function, method",
         native="at::native::vdot", source=BLAS, device_check=CHECK_WRAPPER, meta=META_PYTHON)
def vdot(self, other):
    # vdot (Blas.cpp): without complex numbers there is nothing to conjugate -- at::dot
    return aten.dot.default(self, other)


@declare("vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::vdot_out", source=LINALG, meta=META_PYTHON)
def vdot_out(self, other, *, out):
    return _dot_out("vdot", self, other, out)


def _check_1d(t, name: str) -> None:
    """check_1d (LinearAlgebra.cpp)."""
    check(t.dim() == 1, RuntimeError,
          f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")


@declare("outer(Tensor self, Tensor vec2) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::outer", source=LINALG)
def outer(self, vec2):
    _check_1d(self, "self")
    _check_1d(vec2, "vec2")
    # torch.outer is a composite: a column times the row, broadcast by mul
    return aten.mul.Tensor(aten.reshape.default(self, [self.view.sizes[0], 1]), vec2)


@declare("outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::outer_out", source=LINALG)
def outer_out(self, vec2, *, out):
    _check_1d(self, "self")
    _check_1d(vec2, "vec2")
    return aten.mul.out(aten.reshape.default(self, [self.view.sizes[0], 1]), vec2, out=out)


@declare("ger(Tensor self, Tensor vec2) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::ger", source=LINALG)
def ger(self, vec2):
    _ger_deprecated()
    return aten.outer.default(self, vec2)


@declare("ger.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::ger_out", source=LINALG)
def ger_out(self, vec2, *, out):
    _ger_deprecated()
    return aten.outer.out(self, vec2, out=out)


GER_WARN = step("TORCH_WARN", Layer.KERNEL, source=LINALG)


def _ger_deprecated() -> None:
    with span(GER_WARN, note=Note("matmul.ger_deprecated"), category="UserWarning"):
        pass
