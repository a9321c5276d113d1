"""The softmax, loss, padding, embedding and double-backward nodes' backward formulas
(derivatives.yaml and the FunctionsManual.cpp functions they call) as calls of tidx's
operators, registered with :func:`engine.autograd.formulas.formula`."""

from __future__ import annotations

from typing import Any

from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import Grad, formula, unpack_all


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
