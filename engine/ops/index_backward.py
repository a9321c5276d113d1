"""The backward operators of the indexing and selecting operators (issue #27): what
GatherBackward0, IndexSelectBackward0, DiagonalBackward0, MaskedSelectBackward0,
MaskedScatterBackward0, CummaxBackward0/CumminBackward0 and the value-selecting
reductions' nodes (SortBackward0, TopkBackward0, MaxBackward0 ...) call in the backward
pass.

Each is a zero tensor of the input's sizes with the gradient put back where the forward
operator read it.  None is bound in Python (torchgen skips ``*_backward``);
torch.profiler records each as an operator of the backward pass, with the calls below
it, which is why tidx declares them rather than inlining their bodies in the formulas.
Five are CompositeImplicitAutograd in torch (native_functions.yaml gives them no
dispatch, or that key): gather_backward, index_select_backward, masked_select_backward,
value_selecting_reduction_backward, cummaxmin_backward.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, declare

ADVANCED = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
SHAPE = "aten/src/ATen/native/TensorShape.cpp"
REDUCE = "aten/src/ATen/native/ReduceOps.cpp"


@declare("gather_backward(Tensor grad, Tensor self, int dim, Tensor index, bool sparse_grad) -> Tensor",
         native="at::native::gather_backward", kind=COMPOSITE, source=ADVANCED)
def gather_backward(grad, self, dim: int, index, sparse_grad: bool):
    """grad.new_zeros(self.sizes()), then scatter_add_ of the gradient at the indices
    (repeated indices add up).  tidx has no sparse tensors: sparse_grad is the dense
    path (the binding refuses sparse_grad=True in the forward call)."""
    result = aten.new_zeros.default(grad, list(self.view.sizes))
    aten.scatter_add_.default(result, dim, index, grad)
    return result


@declare("index_select_backward(Tensor grad, SymInt[] self_sizes, int dim, Tensor index) -> Tensor",
         native="at::native::index_select_backward_symint", kind=COMPOSITE, source=ADVANCED)
def index_select_backward(grad, self_sizes: Sequence[int], dim: int, index):
    """grad.new_zeros(self_sizes).index_add_(dim, index, grad)."""
    result = aten.new_zeros.default(grad, list(self_sizes))
    aten.index_add_.default(result, dim, index, grad)
    return result


@declare("diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2) -> Tensor",
         native="at::native::diagonal_backward_symint", source=SHAPE,
         meta=META_PYTHON)   # torch registers a Python Meta kernel for it
def diagonal_backward(grad_output, input_sizes: Sequence[int], offset: int, dim1: int,
                      dim2: int):
    """zeros(input_sizes), its diagonal, and the gradient copied into it."""
    grad_input = aten.zeros.default(list(input_sizes), dtype=grad_output.dtype,
                                    device=grad_output.device_type)
    aten.copy_.default(aten.diagonal.default(grad_input, offset, dim1, dim2), grad_output)
    return grad_input


@declare("value_selecting_reduction_backward(Tensor grad, int dim, Tensor indices, SymInt[] sizes, bool keepdim) -> Tensor",
         native="at::native::value_selecting_reduction_backward_symint", kind=COMPOSITE,
         source=REDUCE)
def value_selecting_reduction_backward(grad, dim: int, indices, sizes: Sequence[int],
                                       keepdim: bool):
    """zeros(sizes).scatter_(dim, indices, grad), the gradient and the indices
    unsqueezed at ``dim`` first (before the zeros, as torch.profiler records them) when
    the reduction dropped it."""
    if not keepdim and len(sizes) > 0:
        grad = aten.unsqueeze.default(grad, dim)
        indices = aten.unsqueeze.default(indices, dim)
    grad_in = aten.zeros.default(list(sizes), dtype=grad.dtype, device=grad.device_type)
    return aten.scatter_.src(grad_in, dim, indices, grad)


@declare("masked_select_backward(Tensor grad, Tensor input, Tensor mask) -> Tensor",
         native="at::native::masked_select_backward", kind=COMPOSITE, source=ADVANCED)
def masked_select_backward(grad, input, mask):
    """zeros_like(input expanded to the mask's broadcast shape), then masked_scatter_ of
    the gradient (masked_scatter_ does not broadcast its self, hence the expand)."""
    shape = _broadcast(list(input.view.sizes), list(mask.view.sizes))
    result = aten.zeros_like.default(aten.expand.default(input, shape),
                                     memory_format="preserve_format")
    aten.masked_scatter_.default(result, mask, grad)
    return result


def _broadcast(a: list[int], b: list[int]) -> list[int]:
    """at::infer_size of two shapes the forward call already broadcast."""
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    return [x if y == 1 else y for x, y in zip(a, b)]


@declare("masked_scatter_backward(Tensor grad_output, Tensor mask, SymInt[] sizes) -> Tensor",
         native="at::native::masked_scatter_backward_symint", source=ADVANCED,
         meta=META_PYTHON)
def masked_scatter_backward(grad_output, mask, sizes: Sequence[int]):
    """grad.masked_select(mask), zeros appended up to the source's numel, viewed as the
    source's sizes."""
    numel = 1
    for s in sizes:
        numel *= s
    selected = aten.masked_select.default(grad_output, mask)
    missing = numel - selected.numel()
    if missing > 0:
        zeros = aten.zeros.default([missing], dtype=grad_output.dtype,
                                   device=grad_output.device_type)
        selected = aten.cat.default([selected, zeros], 0)
    return aten.view.default(selected, list(sizes))


@declare("cummaxmin_backward(Tensor grad, Tensor input, Tensor indices, int dim) -> Tensor",
         native="at::native::cummaxmin_backward", kind=COMPOSITE, source=REDUCE)
def cummaxmin_backward(grad, input, indices, dim: int):
    """zeros(input's sizes).scatter_add_(dim, indices, grad): each running extreme's
    gradient added to the element it came from (an empty input is handed back)."""
    if input.numel() == 0:
        return input
    result = aten.zeros.default(list(input.view.sizes), dtype=input.dtype,
                                device=input.device_type)
    return aten.scatter_add_.default(result, dim, indices, grad)
