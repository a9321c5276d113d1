"""Activations that are exact on the CPU: relu and relu_ (aten/src/ATen/native/Activation.cpp).

relu is not a kernel of its own on the CPU: after refusing bool it calls
``at::clamp_min(self, 0)`` (relu_ calls clamp_min_), so the profiler records aten::relu
with aten::clamp_min inside, and the values are clamp_min's (a NaN stays NaN, -0.0
stays -0.0: max(x, 0) keeps x when they compare equal).  The activations computed with
Sleef's exp/tanh (sigmoid, gelu, silu ...) are not here: their last bits are Sleef's.
"""

from __future__ import annotations

from engine.core import dtypes as D
from engine.core.errors import check
from engine.dispatch.declarations import META_PYTHON, declare
from engine.dispatch.aten import aten

ACTIVATION = "aten/src/ATen/native/Activation.cpp"


def _no_bool(self) -> None:
    check(self.dtype is not D.bool, RuntimeError, "Boolean inputs not supported for relu")


@declare("relu(Tensor self) -> Tensor", variants="function, method",
         native="at::native::relu", source=ACTIVATION,
         meta=META_PYTHON)
def relu(self):
    _no_bool(self)
    return aten.clamp_min.default(self, 0)


@declare("relu_(Tensor(a!) self) -> Tensor(a!)", variants="function, method",
         native="at::native::relu_", source=ACTIVATION,
         meta=META_PYTHON)
def relu_(self):
    _no_bool(self)
    return aten.clamp_min_.default(self, 0)
