"""The backward formulas of the rearranging and padding operators (derivatives.yaml and
FunctionsManual.cpp; issue #27): registered with :func:`engine.autograd.formulas.formula`
as the other formulas are.

Each formula runs the operators torch's runs, in its order, so the backward pass's
profiler tree is torch's: rot90's gradient turns back (``grad.rot90(-k, dims)``),
diag_embed's is the diagonal it wrote (``grad.diagonal(offset, dim1, dim2)``),
constant_pad_nd's is the gradient cut back by the negated pad, index_copy's are the
gradient with the copied rows zeroed (self) and those rows (source); std_mean's and
var_mean's add std's (var's) gradient and mean's, each only when it flowed.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import torch_error
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import (Grad, formula, needs, saved, sum_backward,
                                      unpack_all)
from engine.autograd.formulas_reduce import _correction, var_backward

YAML = "tools/autograd/derivatives.yaml"
MANUAL = "torch/csrc/autograd/FunctionsManual.cpp"


@formula("Rot90Backward0")
def rot90_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml rot90: ``self: grad.rot90(-k, dims)``."""
    k = node.arguments.get("k", 1)
    dims = list(node.arguments.get("dims", [0, 1]))
    return [aten.rot90.default(grads[0], -k, dims)]


@formula("DiagEmbedBackward0")
def diag_embed_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml diag_embed: ``self: grad.diagonal(offset, dim1, dim2)`` (a view
    of the gradient; AccumulateGrad copies it)."""
    args = node.arguments
    return [aten.diagonal.default(grads[0], args.get("offset", 0), args.get("dim1", -2),
                                  args.get("dim2", -1))]


@formula("ConstantPadNdBackward0")
def constant_pad_nd_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """FunctionsManual.cpp constant_pad_nd_backward: ``at::constant_pad_nd(grad,
    negated pad, 0)`` (what was padded on is cut off, what was cut off comes back as
    zeros)."""
    pad = [-p for p in node.arguments["pad"]]
    return [aten.constant_pad_nd.default(grads[0], pad, 0)]


@formula("IndexCopyBackward0")
def index_copy_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml index_copy: ``self: grad.index_fill(dim, index, 0)``; ``source:
    grad.index_select(dim, index).expand_as(source)`` (a 0-dim source: ``index_select(dim,
    index.squeeze(0))``, since it does not broadcast to the 1-dim index)."""
    grad, dim, index = grads[0], node.arguments["dim"], saved(node, "index")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.index_fill.int_Scalar(grad, dim, index, 0)
    if needs(node, 1):
        source = saved(node, "source")
        if len(source.view.sizes) > 0:
            out[1] = aten.expand_as.default(aten.index_select.default(grad, dim, index), source)
        else:
            out[1] = aten.index_select.default(grad, dim, aten.squeeze.dim(index, 0))
    return out


def _mean_part(grad: Any, node: Node, self: Any, gself: Any) -> Any:
    """The mean output's part: mean_backward (sum_backward, then divided by the number
    of elements reduced), added to ``gself`` when std's (var's) gradient made one."""
    shape, dims = list(self.view.sizes), node.arguments.get("dim") or []
    n = 1
    for d in (range(len(shape)) if not dims or len(dims) == len(shape) else dims):
        n *= shape[d % len(shape)]
    aux = aten.div.Scalar(sum_backward(grad, shape, dims,
                                       bool(node.arguments.get("keepdim", False))), n)
    return aux if gself is None else aten.add.Tensor(gself, aux)


@formula("VarMeanBackward0")
def var_mean_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """FunctionsManual.cpp var_mean_backward: var_backward of the var output's gradient,
    plus mean_backward of the mean output's."""
    self, a = saved(node, "self"), node.arguments
    gself = None
    if grads[0] is not None:
        gself = var_backward(grads[0], self, a.get("dim"), _correction(node),
                             bool(a.get("keepdim", False)))
    if grads[1] is not None:
        gself = _mean_part(grads[1], node, self, gself)
    return [gself]


@formula("StdMeanBackward0")
def std_mean_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """FunctionsManual.cpp std_mean_backward: std_backward of the std output's gradient
    (``(grad / (std * 2)).masked_fill_(std == 0, 0)`` through var_backward), plus
    mean_backward of the mean output's."""
    values, a = unpack_all(node), node.arguments
    self, gself = values["self"], None
    if grads[0] is not None:
        std = values["result0"]
        grad_var = aten.div.Tensor(grads[0], aten.mul.Scalar(std, 2))
        aten.masked_fill_.Scalar(grad_var, aten.eq.Scalar(std, 0), 0)
        gself = var_backward(grad_var, self, a.get("dim"), _correction(node),
                             bool(a.get("keepdim", False)))
    if grads[1] is not None:
        gself = _mean_part(grads[1], node, self, gself)
    return [gself]


@formula("torch::autograd::NotImplemented")
def not_implemented(node: Node, grads: list[Any]) -> list[Grad]:
    """torch/csrc/autograd/functions/basic_ops.cpp NotImplemented: an operator without a
    derivatives.yaml row raises when its gradient is asked for."""
    name = node.overload.split(".")[0]
    raise torch_error(RuntimeError, f"derivative for {name} is not implemented")
