"""dropout and dropout_ (aten/src/ATen/native/Dropout.cpp).

On the CPU ``dropout`` is ``_dropout_impl``: p outside [0, 1] is an error; p = 0, eval
mode (``train=False``) or an empty input returns the input itself (no copy: ``y is x``);
p = 1 multiplies by ``zeros({})``; otherwise the noise is ``empty_like(input)``,
``bernoulli_(1 - p)`` (the generator's draws: engine/ops/bernoulli.py, whose float-p
kernel depends on the CPU's vendor), ``div_(1 - p)``, and the result ``input * noise``
(``mul_`` for dropout_).  So a kept element is scaled by 1 / (1 - p), rounded twice.
"""

from __future__ import annotations

from engine.core.errors import check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, declare

DROPOUT = "aten/src/ATen/native/Dropout.cpp"


def _dropout(input, p: float, train: bool, inplace: bool):
    check(0 <= p <= 1, RuntimeError,
          f"dropout probability has to be between 0 and 1, but got {float(p):g}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = aten.zeros.default((), dtype=input.dtype, device=input.device_type)
        return aten.mul_.Tensor(input, zero) if inplace else aten.mul.Tensor(input, zero)
    noise = aten.empty_like.default(input)
    aten.bernoulli_.float(noise, 1 - p)
    aten.div_.Scalar(noise, 1 - p)
    return aten.mul_.Tensor(input, noise) if inplace else aten.mul.Tensor(input, noise)


@declare("dropout(Tensor input, float p, bool train) -> Tensor", kind=COMPOSITE,
         native="at::native::dropout", source=DROPOUT)
def dropout(input, p: float, train: bool):
    return _dropout(input, p, train, inplace=False)


@declare("dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::dropout_", source=DROPOUT)
def dropout_(self, p: float, train: bool):
    return _dropout(self, p, train, inplace=True)
