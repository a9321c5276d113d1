"""The losses' backward operators (issue #27): what MseLossBackward0 calls in the backward
pass, and what NllLossBackward0 calls (nll_loss_backward).

mse_loss_backward (aten/src/ATen/native/Loss.cpp): a zero tensor laid out as the input,
then its grad_input overload writes ``norm * (input - target) * grad`` into it over
TensorIterator (cpu/PointwiseOpsKernel.cpp's mse_backward_cpu_kernel), with ``norm`` 2 /
numel for a mean (2 for a sum) cast to the dtype first and the products taken left to
right, as the loop writes them.  Not bound in Python (torchgen skips ``*_backward``).
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, torch_error
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.memory import empty as memory
from engine.ops.pointwise import iterate
from engine.ops.touch import touched

LOSS = "aten/src/ATen/native/Loss.cpp"
KERNEL = "aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp"
MEAN = 1


@declare("mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor",
         native="at::native::mse_loss_backward", source=LOSS, python_module="nn",
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def mse_loss_backward(grad_output, self, target, reduction):
    grad_input = aten.zeros_like.default(self, memory_format="contiguous_format")
    return aten.mse_loss_backward.grad_input(grad_output, self, target, reduction,
                                             grad_input=grad_input)


@declare("mse_loss_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, int reduction, *, Tensor(a!) grad_input) -> Tensor(a!)",
         native="at::native::mse_loss_backward_out", source=LOSS, python_module="nn",
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def mse_loss_backward_out(grad_output, self, target, reduction, *, grad_input):
    if self.dtype not in (D.float32, D.float64):
        raise Refused(f"mse_loss's backward in {self.dtype} is not modelled by tidx")
    norm = 2.0 / self.numel() if reduction == MEAN else 2.0

    def loop(a, b, g):
        alpha = a.dtype.type(norm)
        return (alpha * (a - b)) * g
    return iterate("mse_loss_backward", [self, target, grad_output], loop, out=grad_input,
                   source=KERNEL)


# -- nll_loss ------------------------------------------------------------------------------
LOSS_NLL = "aten/src/ATen/native/LossNLL.cpp"
NLL_BACKWARD_FRAME = step("nll_loss_backward_out_frame", Layer.KERNEL, source=LOSS_NLL,
                          note="nll.backward")
NONE, SUM = 0, 2


@declare("nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, "
         "int reduction, SymInt ignore_index, Tensor total_weight) -> Tensor",
         native="at::native::nll_loss_backward_out_cpu (structured)", source=LOSS_NLL,
         python_module="nn", meta=META_PYTHON, device_check=CHECK_WRAPPER)
def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index,
                      total_weight):
    """TORCH_IMPL_FUNC(nll_loss_backward_out_cpu): ``grad_input.zero_()``, then
    nll_loss_backward_out_frame writes each row's target class: ``-w * grad_output[i]``
    without a reduction, else ``w * -(grad / total_weight)`` (mean) or ``w * -grad``."""
    if self.dtype not in (D.float32, D.float64):
        raise Refused(f"nll_loss's backward in {self.dtype} is not modelled by tidx")
    grad_input = memory.empty_generic(self.view.sizes, self.dtype, self.device_type)
    aten.zero_.default(grad_input)
    if target.dim() == 0:
        target = aten.unsqueeze.default(target, 0)      # the frame's target_
    with span(NLL_BACKWARD_FRAME, reduction=("none", "mean", "sum")[reduction]) as s:
        np_t = self.dtype.np
        out = grad_input.array(write=True).reshape(-1, self.view.sizes[-1])
        targets = target.array().reshape(-1).astype(np.int64)
        w = None if weight is None else weight.array().astype(np_t)
        g = grad_output.array()
        if reduction == NONE and self.dim() == 2:
            for i, t in enumerate(targets):
                if t == ignore_index:
                    continue
                weight_t = np_t.type(1) if w is None else w[t]
                out[i, t] = np_t.type(-weight_t * g.reshape(-1)[i])
        else:
            value = np_t.type(g.reshape(-1)[0])
            if reduction != SUM:
                value = np_t.type(value / np_t.type(total_weight.array().reshape(-1)[0]))
            grad = np_t.type(-value)
            for i, t in enumerate(targets):
                if t == ignore_index:
                    continue
                if not 0 <= t < self.view.sizes[-1]:
                    raise torch_error(IndexError, f"Target {t} is out of bounds.")
                out[i, t] = grad if w is None else np_t.type(w[t] * grad)
        s.set(read=[touched(grad_output), touched(target)], written=touched(grad_input))
        s.set_result(grad_input)
    return grad_input
