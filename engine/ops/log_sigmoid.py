"""log_sigmoid and its backward (aten/src/ATen/native/Activation.cpp,
cpu/Activation.cpp): ``F.logsigmoid``, and the first step of
``binary_cross_entropy_with_logits`` (engine/ops/functional_loss.py).

``log_sigmoid`` is ``log_sigmoid_forward(self)[0]``.  ``log_sigmoid_forward_cpu`` makes
two contiguous tensors like the input (``output`` and a ``buffer``) and its loop writes,
per element, ``buffer = exp(-|x|)`` and ``output = min(x, 0) - log1p(buffer)`` with Sleef's
vectorised exp and log1p (glibc's in a loop's tail), which tidx cannot replay: tidx's
values are numpy's, within 2 eps max(1, |y|) of torch's for the output (measured at most 1
over 300,000 values of each dtype, lengths 1 to 100,003, under AVX512, AVX2 and DEFAULT)
and 3 ulp for the buffer (measured 2).

``log_sigmoid_backward(grad, self, buffer)`` is exactly rounded arithmetic over
TensorIterator: ``(max_deriv - sign * (b / (1 + b))) * grad`` with ``max_deriv, sign`` 0, -1
for x >= 0 and 1, 1 below (sign * q is exact, so a fused multiply-add changes nothing):
torch's bits for the same buffer.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, META_PYTHON, OUT_NOT_MODELLED,
                                          declare, not_modelled)
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import iterate
from engine.ops.touch import touched

ACTIVATION = "aten/src/ATen/native/Activation.cpp"
KERNEL = "aten/src/ATen/native/cpu/Activation.cpp"
#: the output's bound, in units of eps * max(1, |y|) (measured 1)
LOG_SIGMOID_EPS = 2
LIBRARY = "Sleef's vectorised exp and log1p (glibc's in a loop's tail)"

LOG_SIGMOID_KERNEL = step("log_sigmoid_cpu_kernel", Layer.KERNEL, source=KERNEL)


def _float_only(name: str, dtype: D.dtype) -> None:
    if dtype not in (D.float32, D.float64):
        raise Refused(f"{name} of a {dtype} tensor is not modelled by tidx (float32 and "
                      "float64 are)")


def values(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The loop's two results for an array ``x``: (output, buffer)."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        buffer = np.exp(-np.abs(x))
        return np.minimum(x, x.dtype.type(0)) - np.log1p(buffer), buffer


@declare("log_sigmoid(Tensor self) -> Tensor", kind=COMPOSITE,
         native="at::native::log_sigmoid", source=ACTIVATION, python_module="nn")
def log_sigmoid(self):
    return aten.log_sigmoid_forward.default(self)[0]


not_modelled("log_sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
             reason=OUT_NOT_MODELLED, python_module="nn")


@declare("log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)",
         native="at::native::log_sigmoid_forward_cpu", source=ACTIVATION, python_module="nn",
         meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("log_sigmoid_cpu", "AT_DISPATCH_FLOATING_TYPES"))
def log_sigmoid_forward(self):
    """Two ``empty_like(input, Contiguous)``, then the loop over ``input.contiguous()``."""
    if self.dtype is D.float16:
        raise Refused("log_sigmoid of a float16 tensor is not modelled by tidx (torch "
                      "computes it in float and rounds); float32 and float64 are")
    output = aten.empty_like.default(self, memory_format="contiguous_format")
    buffer = aten.empty_like.default(self, memory_format="contiguous_format")
    source = self if self.is_contiguous() else aten.contiguous.default(self)
    dispatched(self.dtype)      # an integer, bool or complex input: torch's dispatch error
    with span(LOG_SIGMOID_KERNEL) as s:
        if not self.is_meta and self.numel():
            check_temporary("log_sigmoid", self.numel(), 3 * self.dtype.itemsize)
            y, b = values(source.array())
            output.array(write=True)[...] = y
            buffer.array(write=True)[...] = b
            finite = np.abs(y[np.isfinite(y)])
            top = max(1.0, float(finite.max())) if finite.size else 1.0
            bound = LOG_SIGMOID_EPS * float(np.finfo(self.dtype.np).eps) * top
            s.note(Note("activation.log_sigmoid_bound", library=LIBRARY,
                        eps=LOG_SIGMOID_EPS, bound=f"{bound:.3g}"))
            s.set(read=touched(source), written=[touched(output), touched(buffer)])
        s.set_result((output, buffer))
    return output, buffer


def _backward_loop(x: np.ndarray, b: np.ndarray, g: np.ndarray) -> np.ndarray:
    t = x.dtype.type
    negative = x < t(0)
    max_deriv = np.where(negative, t(1), t(0))
    sign = np.where(negative, t(1), t(-1))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return (max_deriv - sign * (b / (t(1) + b))) * g


@declare("log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor",
         native="at::native::log_sigmoid_backward_cpu", source=ACTIVATION,
         python_module="nn", meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("log_sigmoid_backward_cpu", "AT_DISPATCH_FLOATING_TYPES"))
def log_sigmoid_backward(grad_output, self, buffer):
    """``empty_like(grad_output)``, then a TensorIterator writing it from (self, buffer,
    grad_output)."""
    grad_input = aten.empty_like.default(grad_output)
    return iterate("log_sigmoid_backward", [self, buffer, grad_output], _backward_loop,
                   out=grad_input, resize=True, at_dispatch=True, source=KERNEL,
                   check_dtype=lambda d: _float_only("log_sigmoid_backward", d))
