"""Stand-ins: operators the reductions call that belong to other families' modules.

``any``/``all`` of a one-element tensor call ``view_as`` (ReduceOps.cpp allany_impl);
``max(dim)``/``min(dim)`` put the reduced dim back into their results and take it away
again in place (``unsqueeze_``, ``squeeze_``: TensorCompareKernel.cpp);
``mean`` divides its sum in place by a count (``div_.Scalar``, which has no Python
binding of its own but makes ``Tensor.div_`` a bound name, so its Python overloads are
declared here too).  The views and pointwise families may declare their own ``view_as``, in-place views and
``div_`` overloads; when the branches meet, the REGISTRY refuses a second declaration
("declared twice") -- delete the stand-in then (keep ``div_.Scalar`` if the pointwise
family has none).
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span

from engine.core.errors import Refused
from collections.abc import Sequence

from engine.core import view as S
from engine.dispatch.declarations import COMPOSITE, INPLACE, declare, not_modelled
from engine.dispatch.dispatcher import call
from engine.ops.scalar import scalar_tensor_static, scalar_type

BINARY = "aten/src/ATen/native/BinaryOps.cpp"
SHAPE = "aten/src/ATen/native/TensorShape.cpp"


@declare("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", variants="method",
         kind=COMPOSITE, native="at::native::view_as",
         source="aten/src/ATen/native/TensorShape.cpp")
def view_as(self, other):
    """``self.view(other.sizes())``."""
    return call("aten::view", self, other.view.sizes)


@declare("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", variants="method",
         kind=INPLACE, native="at::native::div_", source=BINARY)
def div__scalar(self, other):
    """``self /= other`` for a floating self: the number becomes a wrapped 0-dim tensor,
    TensorIterator casts it to self's dtype (the ``to`` the profiler shows) and the
    kernel divides, each quotient rounded once (IEEE division, as the vector loop's)."""
    if not self.dtype.is_floating_point or isinstance(other, bool):
        raise Refused("div_(number) is modelled only for a floating tensor (what mean needs)")
    wrapped = scalar_tensor_static(other, scalar_type(other), self.device_type)
    divisor = call("aten::to.dtype", wrapped, self.dtype) \
        if wrapped.dtype is not self.dtype else wrapped
    with span("div_true_kernel", "kernel", source=BINARY, note="mean.div") as s:
        if not self.is_meta:
            arr = self.array(write=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                arr[...] = arr / divisor.array()
        s.set_result(self)
    return self


not_modelled("div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
             "div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> "
             "Tensor(a!)",
             "div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> "
             "Tensor(a!)", variants="method", kind=INPLACE,
             reason="Tensor.div_ is not modelled yet (tidx divides in place only inside mean)")


# -- in-place views: a new geometry for self, set with as_strided_ ------------------------
@declare("unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", variants="method",
         kind=INPLACE, native="at::native::unsqueeze_", source=SHAPE)
def unsqueeze_(self, dim: int):
    """inferUnsqueezeGeometry, then ``self.as_strided_(sizes, strides)``."""
    new = self.view.unsqueeze(S.maybe_wrap_dim(dim, self.dim() + 1))
    return call("aten::as_strided_", self, new.sizes, new.strides, None)


def _squeeze_(self, dims: Sequence[int]):
    """inferSqueezeGeometry over ``dims`` (only their size-1 ones go), set in place; a
    squeeze that removes nothing still calls as_strided_ with self's own geometry."""
    keep = [i for i in range(self.dim()) if i not in dims or self.view.sizes[i] != 1]
    new = self.view.permute(keep)
    return call("aten::as_strided_", self, new.sizes, new.strides, None)


@declare("squeeze_(Tensor(a!) self) -> Tensor(a!)", variants="method", kind=INPLACE,
         native="at::native::squeeze_", source=SHAPE)
def squeeze_(self):
    return _squeeze_(self, range(self.dim()))


@declare("squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", variants="method",
         kind=INPLACE, native="at::native::squeeze_", source=SHAPE)
def squeeze__dim(self, dim: int):
    return _squeeze_(self, [S.maybe_wrap_dim(dim, self.dim())])


@declare("squeeze_.dims(Tensor(a!) self, int[] dim) -> Tensor(a!)", variants="method",
         kind=INPLACE, native="at::native::squeeze_", source=SHAPE)
def squeeze__dims(self, dim: Sequence[int]):
    S.dim_list_to_bitset(dim, self.dim())
    return _squeeze_(self, [S.maybe_wrap_dim(d, self.dim()) for d in dim])
