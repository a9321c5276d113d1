"""The backward operators of the views (issue #27): what SelectBackward0 and
SliceBackward0 call in the backward pass.

Mirrors aten/src/ATen/native/TensorShape.cpp's select_backward_symint and
slice_backward: a zero tensor of the input's sizes (grad's dtype and device), the same
view of it, and the gradient copied into that view.  Neither is bound in Python (torchgen
skips ``*_backward``); torch.profiler records each as an operator of the backward pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, declare

SHAPE = "aten/src/ATen/native/TensorShape.cpp"


def _zeros(grad, sizes: Sequence[int]):
    return aten.zeros.default(list(sizes), dtype=grad.dtype, device=grad.device_type)


@declare("select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor",
         native="at::native::select_backward_symint", source=SHAPE, meta=META_PYTHON)
def select_backward(grad_output, input_sizes: Sequence[int], dim: int, index: int):
    grad_input = _zeros(grad_output, input_sizes)
    aten.copy_.default(aten.select.int(grad_input, dim, index), grad_output)
    return grad_input


@declare("slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step) -> Tensor",
         native="at::native::slice_backward", source=SHAPE, meta=META_PYTHON)
def slice_backward(grad_output, input_sizes: Sequence[int], dim: int, start: int, end: int,
                   step: int):
    grad_input = _zeros(grad_output, input_sizes)
    aten.copy_.default(aten.slice.Tensor(grad_input, dim, start, end, step), grad_output)
    return grad_input
