"""embedding's backward operators (issue #27): what EmbeddingBackward0 calls
(aten/src/ATen/native/Embedding.cpp).

``embedding_backward`` (CompositeImplicitAutograd) hands a dense gradient to
``embedding_dense_backward_cpu``: a zero weight gradient of ``num_weights`` rows, the
indices and the output gradient made contiguous (the gradient viewed as one row per
index), then for each index in order, unless it is ``padding_idx``, its gradient row
added into the weight row it picked (``add_stub`` over that row: an index picked twice
gets both rows, the first added first).  Exactly rounded additions in torch's order:
tidx gives torch's bits.  Not bound in Python (torchgen skips ``*_backward``).
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core.errors import Refused
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.ops.touch import touched

EMBEDDING = "aten/src/ATen/native/Embedding.cpp"
DENSE_BACKWARD = step("embedding_dense_backward_cpu", Layer.KERNEL, source=EMBEDDING,
                      note="embedding.backward")


@declare("embedding_backward(Tensor grad, Tensor indices, SymInt num_weights, SymInt "
         "padding_idx, bool scale_grad_by_freq, bool sparse) -> Tensor", kind=COMPOSITE,
         native="at::native::embedding_backward_symint", source=EMBEDDING)
def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse):
    if sparse:
        raise Refused("embedding(..., sparse=True)'s backward makes a sparse gradient, "
                      "which tidx does not model")
    return aten.embedding_dense_backward.default(grad, indices, num_weights, padding_idx,
                                                 scale_grad_by_freq)


@declare("embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, "
         "SymInt padding_idx, bool scale_grad_by_freq) -> Tensor",
         native="at::native::embedding_dense_backward_cpu", source=EMBEDDING,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
                             scale_grad_by_freq):
    if scale_grad_by_freq:
        raise Refused("embedding(..., scale_grad_by_freq=True)'s backward is not modelled "
                      "by tidx")
    width = grad_output.view.sizes[-1] if grad_output.dim() else 1
    grad_weight = aten.zeros.default([num_weights, width], dtype=grad_output.dtype,
                                     device=grad_output.device_type)
    index = indices if indices.is_contiguous() else aten.contiguous.default(indices)
    contiguous = grad_output if grad_output.is_contiguous() else \
        aten.contiguous.default(grad_output)
    rows = aten.view.default(contiguous, [indices.numel(), width])
    with span(DENSE_BACKWARD, padding_idx=padding_idx) as s:
        if not grad_output.is_meta:
            out = grad_weight.array(write=True)
            picked = index.array().reshape(-1).astype(np.int64)
            g = rows.array()
            for i, k in enumerate(picked):
                if k != padding_idx:
                    out[k] = out[k] + g[i]
            s.set(read=[touched(rows), touched(index)], written=touched(grad_weight))
        s.set_result(grad_weight)
    return grad_weight
