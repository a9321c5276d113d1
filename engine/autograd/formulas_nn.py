"""The softmax, loss, padding, embedding and double-backward nodes' backward formulas
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`."""

from __future__ import annotations

from typing import Any

from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import Grad, formula, needs, unpack_all
from engine.core.context import current
from engine.core.errors import Refused


@formula("SoftmaxBackward0")
def softmax_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """_softmax_backward_data(grad, result, dim, self_scalar_type)"""
    a = node.arguments
    return [aten._softmax_backward_data.default(grads[0], unpack_all(node)["result"],
                                                a["dim"], a["self"].dtype)]


@formula("LogSoftmaxBackward0")
def log_softmax_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """_log_softmax_backward_data(grad, result, dim, self_scalar_type)"""
    a = node.arguments
    return [aten._log_softmax_backward_data.default(grads[0], unpack_all(node)["result"],
                                                    a["dim"], a["self"].dtype)]


@formula("NllLossBackward0")
def nll_loss_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """nll_loss_backward(grad, self, target, weight, reduction, ignore_index,
    total_weight): the node's first output's gradient (total_weight has none)."""
    values, a = unpack_all(node), node.arguments
    return [aten.nll_loss_backward.default(grads[0], values["self"], values["target"],
                                           values.get("weight"), a["reduction"],
                                           a["ignore_index"], values["total_weight"])]


@formula("EmbeddingBackward0")
def embedding_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """embedding_backward(grad, indices, weight.size(0), padding_idx,
    scale_grad_by_freq, sparse)"""
    a = node.arguments
    return [aten.embedding_backward.default(
        grads[0], unpack_all(node)["indices"], a["weight"].sizes[0],
        a.get("padding_idx", -1), bool(a.get("scale_grad_by_freq", False)),
        bool(a.get("sparse", False)))]


@formula("LogSigmoidBackward0")
def log_sigmoid_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """log_sigmoid_backward(grad, self, buffer)"""
    values = unpack_all(node)
    return [aten.log_sigmoid_backward.default(grads[0], values["self"], values["buffer"])]


@formula("BinaryCrossEntropyWithLogitsBackward0")
def binary_cross_entropy_with_logits_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """FunctionsManual.cpp's binary_cross_entropy_with_logits_backward: with GradMode off
    (a plain backward) each step after the first writes in place; on (create_graph) out of
    place, but for the division by numel (measured with torch.profiler)."""
    if needs(node, 1):
        raise Refused("the gradient of binary_cross_entropy_with_logits with respect to "
                      "its target is not modelled yet")
    values, a = unpack_all(node), node.arguments
    grad, x, target = grads[0], values["self"], values["target"]
    weight, pos_weight = values.get("weight"), values.get("pos_weight")
    inplace = not current().grad_enabled
    sub = aten.sub_.Tensor if inplace else aten.sub.Tensor
    mul = aten.mul_.Tensor if inplace else aten.mul.Tensor
    if pos_weight is not None:
        t = aten.mul.Tensor(pos_weight, target)
        grad_input = sub(mul(sub(aten.add.Scalar(t, 1), target), aten.sigmoid.default(x)), t)
    else:
        grad_input = sub(aten.sigmoid.default(x), target)
    grad_input = mul(grad_input, grad)
    if weight is not None:
        grad_input = mul(grad_input, weight)
    if a["reduction"] == 1:
        grad_input = aten.div_.Scalar(grad_input, x.numel())
    return [grad_input, None]


@formula("BinaryCrossEntropyBackward0")
def binary_cross_entropy_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """binary_cross_entropy_backward(grad, self, target, weight, reduction)"""
    if needs(node, 1):
        raise Refused("the gradient of binary_cross_entropy with respect to its target is "
                      "not modelled yet")
    values = unpack_all(node)
    return [aten.binary_cross_entropy_backward.default(
        grads[0], values["self"], values["target"], values.get("weight"),
        node.arguments["reduction"]), None]
