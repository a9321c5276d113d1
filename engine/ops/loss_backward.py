"""The losses' backward operators (issue #27): what MseLossBackward0 calls in the backward
pass.

mse_loss_backward (aten/src/ATen/native/Loss.cpp): a zero tensor laid out as the input,
then its grad_input overload writes ``norm * (input - target) * grad`` into it over
TensorIterator (cpu/PointwiseOpsKernel.cpp's mse_backward_cpu_kernel), with ``norm`` 2 /
numel for a mean (2 for a sum) cast to the dtype first and the products taken left to
right, as the loop writes them.  Not bound in Python (torchgen skips ``*_backward``).
"""

from __future__ import annotations

from engine.core import dtypes as D
from engine.core.errors import Refused
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.ops.pointwise import iterate

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
