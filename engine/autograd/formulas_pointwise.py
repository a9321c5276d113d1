"""The pointwise, activation and matrix nodes' backward formulas (derivatives.yaml and
FunctionsManual.cpp's functions they call) as calls of tidx's operators, registered with
:func:`engine.autograd.formulas.formula`."""

from __future__ import annotations

from typing import Any

from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import (Grad, formula, maybe_multiply, needs, saved,
                                      unpack_all)


# -- pointwise --------------------------------------------------------------------------------
@formula("AddBackward0", "AddBackward1", "SubBackward1")
def add_backward(node: Node, grads: list[Any]) -> list[Grad]:
    grad = grads[0]
    out: list[Grad] = [None] * len(node.next_functions)
    if len(out) > 1 and needs(node, 1):
        out[1] = maybe_multiply(grad, node.arguments.get("alpha", 1))
    if needs(node, 0):
        out[0] = grad
    return out


@formula("SubBackward0")
def sub_backward(node: Node, grads: list[Any]) -> list[Grad]:
    grad = grads[0]
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = maybe_multiply(aten.neg.default(grad), node.arguments.get("alpha", 1))
    if needs(node, 0):
        out[0] = grad
    return out


@formula("RsubBackward0", "RsubBackward1")
def rsub_backward(node: Node, grads: list[Any]) -> list[Grad]:
    grad = grads[0]
    out: list[Grad] = [None] * len(node.next_functions)
    if len(out) > 1 and needs(node, 1):
        out[1] = grad
    if needs(node, 0):
        out[0] = maybe_multiply(aten.neg.default(grad), node.arguments.get("alpha", 1))
    return out


@formula("MulBackward0")
def mul_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mul_tensor_backward(grad, other, self_st) = grad * other.conj() (conj() of a real
    tensor is the tensor itself, no operator)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.mul.Tensor(grad, values["self"])
    if needs(node, 0):
        out[0] = aten.mul.Tensor(grad, values["other"])
    return out


@formula("MulBackward1")
def mul_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Scalar(grads[0], node.arguments["other"])]


@formula("DivBackward0")
def div_backward(node: Node, grads: list[Any]) -> list[Grad]:
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        # div_tensor_other_backward: -grad * ((self / other) / other).conj()
        self, other = values["self"], values["other"]
        ratio = aten.div.Tensor(aten.div.Tensor(self, other), other)
        out[1] = aten.mul.Tensor(aten.neg.default(grad), ratio)
    if needs(node, 0):
        out[0] = aten.div.Tensor(grad, values["other"])     # div_tensor_self_backward
    return out


@formula("DivBackward1")
def div_scalar_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.div.Scalar(grads[0], node.arguments["other"])]


@formula("NegBackward0")
def neg_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.neg.default(grads[0])]


@formula("PowBackward0")
def pow_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """pow_backward: grad * (exponent * self.pow(exponent - 1)).conj(), or zeros_like(self)
    for an exponent of 0."""
    self = saved(node, "self")
    exponent = node.arguments["exponent"]
    if exponent == 0:
        return [aten.zeros_like.default(self, memory_format="contiguous_format")]
    exponent = float(exponent)
    power = aten.pow.Tensor_Scalar(self, exponent - 1)
    # exponent * power in C++: operator*(Scalar, Tensor) is mul.Scalar (MulBackward1)
    return [aten.mul.Tensor(grads[0], aten.mul.Scalar(power, exponent))]


@formula("ExpBackward0")
def exp_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], saved(node, "result"))]


@formula("LogBackward0")
def log_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.div.Tensor(grads[0], saved(node, "self"))]


@formula("SqrtBackward0")
def sqrt_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad / (2 * result.conj())"""
    return [aten.div.Tensor(grads[0], aten.mul.Scalar(saved(node, "result"), 2))]


@formula("SinBackward0")
def sin_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], aten.cos.default(saved(node, "self")))]


@formula("CosBackward0")
def cos_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.mul.Tensor(grads[0], aten.neg.default(aten.sin.default(saved(node, "self"))))]


@formula("CloneBackward0", "AliasBackward0")
def identity_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [grads[0]]


@formula("torch::autograd::CopyBackwards")
def copy_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """CopyBackwards::apply (torch/csrc/autograd/functions/tensor.cpp): zeros for self's
    old history, the gradient (cast to src's dtype) for src."""
    grad = grads[0]
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.zeros_like.default(grad, memory_format="contiguous_format")
    if needs(node, 1):
        out[1] = aten.to.dtype(grad, node.arguments["src"].dtype)
    return out


@formula("FillBackward0", "FillBackward1", "FillBackward2", "FillBackward3")
def fill_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: zeros_like(grad); value (a tensor): grad.sum()."""
    grad = grads[0]
    out: list[Grad] = [None] * len(node.next_functions)
    if needs(node, 0):
        out[0] = aten.zeros_like.default(grad)     # preserve_format, unlike CopyBackwards
    if len(out) > 1 and needs(node, 1):
        out[1] = aten.sum.default(grad)
    return out


# -- activations and other pointwise ---------------------------------------------------------
@formula("ReluBackward0")
def relu_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.threshold_backward.default(grads[0], saved(node, "result"), 0)]


@formula("ThresholdBackwardBackward0")
def threshold_backward_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml's threshold_backward: grad_output: threshold_backward(grad, self,
    threshold); self: zeros_like(grad) -- relu's gradient under create_graph=True."""
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.threshold_backward.default(grads[0], saved(node, "self"),
                                                 node.arguments["threshold"])
    if needs(node, 1):
        out[1] = aten.zeros_like.default(grads[0])
    return out


@formula("SigmoidBackwardBackward0")
def sigmoid_backward_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml's sigmoid_backward: grad_output: sigmoid_backward(grad, output);
    output: grad * grad_output * (-2 * output + 1), its right operand first (mul.Scalar,
    add.Scalar: C++ numbers), then grad * grad_output, then the product."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.sigmoid_backward.default(grad, values["output"])
    if needs(node, 1):
        affine = aten.add.Scalar(aten.mul.Scalar(values["output"], -2), 1)
        out[1] = aten.mul.Tensor(aten.mul.Tensor(grad, values["grad_output"]), affine)
    return out


@formula("TanhBackwardBackward0")
def tanh_backward_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml's tanh_backward: grad_output: tanh_backward(grad, output);
    output: grad * (-2 * output * grad_output), its right operand first."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.tanh_backward.default(grad, values["output"])
    if needs(node, 1):
        scaled = aten.mul.Tensor(aten.mul.Scalar(values["output"], -2), values["grad_output"])
        out[1] = aten.mul.Tensor(grad, scaled)
    return out


@formula("SigmoidBackward0")
def sigmoid_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.sigmoid_backward.default(grads[0], saved(node, "result"))]


@formula("TanhBackward0")
def tanh_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.tanh_backward.default(grads[0], saved(node, "result"))]


@formula("DotBackward0")
def dot_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad * tensor.conj(); tensor: grad * self.conj() (self first)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.mul.Tensor(grad, values["tensor"])
    if needs(node, 1):
        out[1] = aten.mul.Tensor(grad, values["self"])
    return out


@formula("MvBackward0")
def mv_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.ger(vec.conj()); vec: self.conj().t().mv(grad)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.ger.default(grad, values["vec"])
    if needs(node, 1):
        out[1] = aten.mv.default(aten.t.default(values["self"]), grad)
    return out


# -- matrices --------------------------------------------------------------------------------
def _column_major(meta: Any) -> bool:
    strides = getattr(meta, "strides", None)
    return strides is not None and strides[0] == 1 and strides[1] == meta.sizes[0]


def mm_mat1_backward(grad: TensorImpl, mat2: TensorImpl, mat1_meta: Any,
                     alpha: Any = 1) -> TensorImpl:
    """mm_mat1_backward: a column-major mat1's gradient made column-major (the product of
    the transposes, transposed)."""
    if _column_major(mat1_meta):
        return maybe_multiply(aten.t.default(aten.mm.default(mat2, aten.t.default(grad))),
                              alpha)
    return maybe_multiply(aten.mm.default(grad, aten.t.default(mat2)), alpha)


def mm_mat2_backward(grad: TensorImpl, mat1: TensorImpl, mat2_meta: Any,
                     alpha: Any = 1) -> TensorImpl:
    """mm_mat2_backward: a column-major mat2's gradient made column-major."""
    if _column_major(mat2_meta):
        return maybe_multiply(aten.t.default(aten.mm.default(aten.t.default(grad), mat1)),
                              alpha)
    return maybe_multiply(aten.mm.default(aten.t.default(mat1), grad), alpha)


@formula("MmBackward0")
def mm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mm_mat2_backward, then mm_mat1_backward (shared with addmm's node)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = mm_mat2_backward(grad, values["self"], node.arguments["mat2"])
    if needs(node, 0):
        out[0] = mm_mat1_backward(grad, values["mat2"], node.arguments["self"])
    return out


@formula("MseLossBackward0")
def mse_loss_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: mse_loss_backward(grad, self, target, reduction); target: the same with self
    and target swapped (self first)."""
    grad, values = grads[0], unpack_all(node)
    reduction = node.arguments.get("reduction", 1)
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.mse_loss_backward.default(grad, values["self"], values["target"],
                                                reduction)
    if needs(node, 1):
        out[1] = aten.mse_loss_backward.default(grad, values["target"], values["self"],
                                                reduction)
    return out
