"""gelu_backward and silu_backward (aten/src/ATen/native/Activation.cpp, kernels in
cpu/Activation.cpp): what GeluBackward0 and SiluBackward0 call in the backward pass.  Not
bound in Python (torchgen skips ``*_backward``).

Their CPU loops run Sleef's exp and tanh and the vectorised erf in the vector body (libm's
in the scalar tail), which tidx cannot replay (activation_bounded.py says the same of the
forwards).  Each derivative crosses zero (silu's near x = -1.28, gelu's near x = -0.75),
where its two terms cancel and no ulp bound holds; so each element is stated within ``K *
eps * |grad| * max(1, |x|)`` of torch's (K = 4: measured at most 2.8 in float and 3.3 in
double over 300,000 contiguous values, from -20 to 20 and normals of scale 3, under
DEFAULT, AVX2 and AVX512), as an absolute bound over the tensor that --verify compares
within.  An infinite input (whose result depends on the
loop an element meets) and float16/bfloat16 (computed in float, rounded) are refused.

* silu_backward: ``sigmoid = 1 / (1 + exp(-x)); dy * sigmoid * (1 + x * (1 - sigmoid))``
* gelu_backward, approximate='none': ``cdf = 0.5 * (1 + erf(x * M_SQRT1_2)); pdf = kBeta
  * exp(x * x * -0.5); dy * (cdf + x * pdf)`` with kBeta = M_2_SQRTPI * M_SQRT1_2 * 0.5
* gelu_backward, approximate='tanh': ``inner = kBeta * (x + kKappa * x^3); t =
  tanh(inner); dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kBeta * (1 + 3 * kKappa *
  x^2))`` with kBeta = M_SQRT2 * M_2_SQRTPI * 0.5, kKappa = 0.044715
"""

from __future__ import annotations

import math

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.ops.pointwise import iterate

ACTIVATION = "aten/src/ATen/native/Activation.cpp"
KERNEL = "aten/src/ATen/native/cpu/Activation.cpp"
#: the bound's K (measured at most 2.8 in float, 3.3 in double: gelu's tanh form)
K = 4
EXP = "Sleef's vectorised exp (glibc's in a loop's tail)"
ERF = "the vectorised erf and Sleef's exp (libm's in a loop's tail)"
TANH = "Sleef's vectorised tanh (libm's in a loop's tail)"

#: the bound the values are stated within (a step after the loop, once it is known)
BOUND = step("activation_backward_bound", Layer.KERNEL, source=KERNEL)


def _check(name: str, grad_output, self) -> None:
    for t in (grad_output, self):
        if t.dtype is D.float16:
            raise Refused(f"{name} of a {D.cpp_name(t.dtype)} tensor is not modelled (torch "
                          "computes it in float and rounds); use float32 or float64")
    if not self.is_meta and self.numel() and np.isinf(self.array()).any():
        raise Refused(f"{name} of an infinite input: torch's vectorised loop and its scalar "
                      "tail give different results there, which one an element meets "
                      "depends on its position (not modelled)")


def _state_bound(name: str, library: str, grad_output, self, result) -> None:
    """K * eps * max(|grad| * max(1, |x|)) over the tensor (broadcast as the loop did)."""
    if self.is_meta or not result.numel() or not result.dtype.is_floating_point:
        return
    g, x = np.broadcast_arrays(np.abs(grad_output.array()), np.abs(self.array()))
    scale = (g * np.maximum(1, x)).astype(np.float64)
    scale = scale[np.isfinite(scale)]
    top = float(scale.max()) if scale.size else 0.0
    bound = K * float(np.finfo(result.dtype.np).eps) * top
    with span(BOUND.named(name), note=Note("activation.backward_bound", op=name,
                                           library=library, eps=K, bound=f"{bound:.3g}")):
        pass


def _silu_loop(dy, x):
    t = x.dtype.type
    with np.errstate(over="ignore", invalid="ignore"):
        sigmoid = t(1) / (t(1) + np.exp(-x))
        return dy * sigmoid * (t(1) + x * (t(1) - sigmoid))


@declare("silu_backward(Tensor grad_output, Tensor self) -> Tensor",
         native="at::native::silu_backward (structured)", source=ACTIVATION,
         python_module="nn", device_check=CHECK_WRAPPER)
def silu_backward(grad_output, self):
    _check("silu_backward", grad_output, self)
    result = iterate("silu_backward", [grad_output, self], _silu_loop, source=KERNEL)
    _state_bound("silu_backward", EXP, grad_output, self, result)
    return result


def _gelu_loop(approximate: str):
    def loop(dy, x):
        t = x.dtype.type
        with np.errstate(over="ignore", invalid="ignore"):
            if approximate == "none":
                beta = t(2 / math.sqrt(math.pi) * 0.7071067811865476 * 0.5)
                erf = np.vectorize(math.erf, otypes=[np.float64])(
                    (x * t(0.7071067811865476)).astype(np.float64)).astype(x.dtype)
                cdf = t(0.5) * (t(1) + erf)
                pdf = beta * np.exp(x * x * t(-0.5))
                return dy * (cdf + x * pdf)
            beta = t(math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5)
            kappa = t(0.044715)
            x_sq = x * x
            inner = beta * (x + kappa * (x_sq * x))
            th = np.tanh(inner)
            left = t(0.5) * x
            left_derivative = t(0.5) * (t(1) + th)
            right_derivative = left * (t(1) - th * th) * (beta * (t(1) + t(3) * kappa * x_sq))
            return dy * (left_derivative + right_derivative)
    return loop


@declare("gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor",
         native="at::native::gelu_backward (structured)", source=ACTIVATION,
         meta=META_PYTHON, python_module="nn", device_check=CHECK_WRAPPER)
def gelu_backward(grad_output, self, *, approximate="none"):
    check(approximate in ("none", "tanh"), RuntimeError,
          "approximate argument must be either none or tanh.")
    _check("gelu_backward", grad_output, self)
    result = iterate("gelu_backward", [grad_output, self], _gelu_loop(approximate),
                     source=KERNEL)
    _state_bound("gelu_backward", ERF if approximate == "none" else TANH, grad_output, self,
                 result)
    return result
