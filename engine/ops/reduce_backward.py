"""The reductions' backward operators (issue #27): what TraceBackward0 calls.

trace_backward (aten/src/ATen/native/ReduceOps.cpp, trace_backward_symint): a zero
vector of n*m elements, the gradient filled in at the diagonal's offsets
``arange(0, n*m, m + 1)`` (index_fill_), viewed as the n x m input.  Not bound in Python
(torchgen skips ``*_backward``); torch.profiler records it as an operator of the
backward pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import dtypes as D
from engine.core.errors import torch_error
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, declare

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"


@declare("trace_backward(Tensor grad, SymInt[] sizes) -> Tensor", kind=COMPOSITE,
         native="at::native::trace_backward_symint", source=REDUCE)
def trace_backward(grad, sizes: Sequence[int]):
    if len(sizes) != 2:
        raise torch_error(RuntimeError, "expected matrix input")
    n = sizes[0] * sizes[1]
    grad_input = aten.zeros.default([n], dtype=grad.dtype, device=grad.device_type)
    indices = aten.arange.start_step(0, n, sizes[1] + 1, dtype=D.int64,
                                     device=grad.device_type)
    aten.index_fill_.int_Tensor(grad_input, 0, indices, grad)
    return aten.view.default(grad_input, list(sizes))
