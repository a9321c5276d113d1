"""The matrix products' and reductions' backward formulas (bmm, addmm, addmv, baddbmm,
addbmm, vdot, trace; max/min/median of a whole tensor, amax/amin, cumsum, prod,
std/var, vector norms, nansum, logsumexp) (derivatives.yaml and the FunctionsManual.cpp
functions they call) as calls of tidx's operators, registered with
:func:`engine.autograd.formulas.formula`.

Each node computes its inputs' gradients in the order of their names (torchgen sorts a
node's derivatives), and each formula's C++ runs as the gcc build runs it: a call's
arguments right to left, ``a * b``'s right operand first, a member call's object first
(tests/ops/test_backward_reduce_torch.py compares the profiler trees).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas_pointwise import mm_mat1_backward, mm_mat2_backward
from engine.autograd.formulas import (Grad, formula, maybe_multiply, needs, saved,
                                      sizes, sum_backward, unpack_all)

MANUAL = "torch/csrc/autograd/FunctionsManual.cpp"


# -- matrix products ---------------------------------------------------------------------------
@formula("BmmBackward0")
def bmm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mat2: self.transpose(1, 2).conj().bmm(grad); self: grad.bmm(mat2.transpose(1, 2))."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.bmm.default(aten.transpose.int(values["self"], 1, 2), grad)
    if needs(node, 0):
        out[0] = aten.bmm.default(grad, aten.transpose.int(values["mat2"], 1, 2))
    return out


@formula("BaddbmmBackward0")
def baddbmm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """batch1: grad.bmm(batch2ᵀ) * alpha; batch2: batch1ᵀ.bmm(grad) * alpha; self: grad *
    beta (batch1, batch2, self)."""
    grad, values, a = grads[0], unpack_all(node), node.arguments
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    out: list[Grad] = [None, None, None]
    if needs(node, 1):
        transposed = aten.transpose.int(values["batch2"], 1, 2)
        out[1] = maybe_multiply(aten.bmm.default(grad, transposed), alpha)
    if needs(node, 2):
        out[2] = maybe_multiply(aten.bmm.default(aten.transpose.int(values["batch1"], 1, 2),
                                                 grad), alpha)
    if needs(node, 0):
        out[0] = maybe_multiply(grad, beta)
    return out


@formula("AddbmmBackward0")
def addbmm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """The summed batch's gradient, ``grad.unsqueeze(0).expand({b, n, p})``, through bmm
    as baddbmm's (batch1, batch2, self)."""
    grad, values, a = grads[0], unpack_all(node), node.arguments
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    b1, b2 = a["batch1"].sizes, a["batch2"].sizes
    shape = [b1[0], b1[1], b2[2]]
    out: list[Grad] = [None, None, None]
    if needs(node, 1):
        expanded = aten.expand.default(aten.unsqueeze.default(grad, 0), shape)
        transposed = aten.transpose.int(values["batch2"], 1, 2)
        out[1] = maybe_multiply(aten.bmm.default(expanded, transposed), alpha)
    if needs(node, 2):
        transposed = aten.transpose.int(values["batch1"], 1, 2)
        expanded = aten.expand.default(aten.unsqueeze.default(grad, 0), shape)
        out[2] = maybe_multiply(aten.bmm.default(transposed, expanded), alpha)
    if needs(node, 0):
        out[0] = maybe_multiply(grad, beta)
    return out


@formula("AddmmBackward0")
def addmm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mat1: mm_mat1_backward(grad, mat2, ...); mat2: mm_mat2_backward(grad, mat1, ...);
    self: grad * beta (mat1, mat2, self)."""
    grad, values, a = grads[0], unpack_all(node), node.arguments
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    out: list[Grad] = [None, None, None]
    if needs(node, 1):
        out[1] = mm_mat1_backward(grad, values["mat2"], a["mat1"], alpha)
    if needs(node, 2):
        out[2] = mm_mat2_backward(grad, values["mat1"], a["mat2"], alpha)
    if needs(node, 0):
        out[0] = maybe_multiply(grad, beta)
    return out


@formula("AddmvBackward0")
def addmv_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mat: grad.ger(vec) * alpha; self: grad * beta; vec: mat.t().mv(grad) * alpha."""
    grad, values, a = grads[0], unpack_all(node), node.arguments
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    out: list[Grad] = [None, None, None]
    if needs(node, 1):
        out[1] = maybe_multiply(aten.ger.default(grad, values["vec"]), alpha)
    if needs(node, 0):
        out[0] = maybe_multiply(grad, beta)
    if needs(node, 2):
        out[2] = maybe_multiply(aten.mv.default(aten.t.default(values["mat"]), grad), alpha)
    return out


@formula("VdotBackward0")
def vdot_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: grad * self; self: grad.conj() * other (other first)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.mul.Tensor(grad, values["self"])
    if needs(node, 0):
        out[0] = aten.mul.Tensor(grad, values["other"])
    return out


@formula("TraceBackward0")
def trace_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """trace_backward_symint (an operator: engine/ops/reduce_backward.py)."""
    return [aten.trace_backward.default(grads[0], sizes(node))]


# -- whole-tensor extremes -----------------------------------------------------------------
@formula("MaxBackward1", "MinBackward1", "MedianBackward0", "NanmedianBackward0")
def evenly_distribute_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """evenly_distribute_backward (the CPU path): the gradient shared evenly by the
    elements equal to the result (NaN ones when the result is NaN):
    ``grad.new_zeros(input.sizes()).masked_fill_(mask, grad / mask.sum())``."""
    grad, values = grads[0], unpack_all(node)
    self, result = values["self"], values["result"]
    nan = aten.item.default(aten.isnan.default(result))
    mask = aten.isnan.default(self) if nan else aten.eq.Tensor(self, result)
    zeros = aten.new_zeros.default(grad, list(self.view.sizes), dtype=self.dtype,
                                   device=self.device_type)
    share = aten.div.Tensor(grad, aten.sum.default(mask))
    return [aten.masked_fill_.Tensor(zeros, mask, share)]


def restore_reduced_dims(output: TensorImpl, dims: Sequence[int], keepdim: bool) -> TensorImpl:
    """restore_reduced_dims: the reduced dims put back as 1s (a reshape)."""
    if keepdim:
        return output
    total = output.dim() + len(dims)
    shape = [0] * total
    for d in dims:
        shape[d + total if d < 0 else d] = 1
    j = 0
    for size in output.view.sizes:
        while shape[j] > 0:
            j += 1
        shape[j] = size
        j += 1
    return aten.reshape.default(output, shape)


@formula("AmaxBackward0", "AminBackward0")
def amax_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """scale_grad_by_count(restore_reduced_dims(grad), restore_reduced_dims(result) ==
    self, dim) -- its arguments right to left -- which is ``(grad / mask.sum(dim, true))
    * mask``."""
    grad, values, a = grads[0], unpack_all(node), node.arguments
    dims, keepdim = list(a.get("dim") or []), bool(a.get("keepdim", False))
    mask = aten.eq.Tensor(restore_reduced_dims(values["result"], dims, keepdim),
                          values["self"])
    restored = restore_reduced_dims(grad, dims, keepdim)
    counted = aten.sum.dim_IntList(mask, dims, True)
    return [aten.mul.Tensor(aten.div.Tensor(restored, counted), mask)]


# -- scans and products --------------------------------------------------------------------
@formula("CumsumBackward0")
def cumsum_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """cumsum_backward(grad.to(self_scalar_type), dim): the reversed cumulative sum
    (flip, cumsum, flip), or the gradient itself for one element along dim."""
    meta, dim = node.arguments["self"], node.arguments["dim"]
    grad = aten.to.dtype(grads[0], meta.dtype)
    if grad.numel() <= 1 or grad.view.sizes[dim % max(grad.dim(), 1)] == 1:
        return [grad]
    flipped = aten.cumsum.default(aten.flip.default(grad, [dim]), dim)
    return [aten.flip.default(flipped, [dim])]


@formula("ProdBackward0", "ProdBackward1")
def prod_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """prod_backward: ``grad * (result / input)`` without zeros; with them,
    prod_safe_zeros_backward's exclusive products from both sides."""
    grad, values, a = grads[0], unpack_all(node), node.arguments
    result = values["result"]
    self = aten.to.dtype(values["self"], grad.dtype)        # self.to(grad.scalar_type())
    if self.dim() == 0:
        return [grad]
    if node.name() == "ProdBackward0":
        zero_idx = aten.nonzero.default(aten.eq.Scalar(self, 0))
        if zero_idx.numel() == 0:
            return [aten.mul.Tensor(grad, aten.div.Tensor(result, self))]
        from engine.core.context import current
        if not current().grad_enabled and zero_idx.view.sizes[0] > 1:
            return [aten.zeros_like.default(self, memory_format="contiguous_format")]
        # (Tensor::contiguous hands a contiguous tensor back inline: no operator)
        base = self if self.is_contiguous() else aten.contiguous.default(self)
        flat = aten.view.default(base, [-1])
        return [aten.view_as.default(_safe_zeros(grad, flat, 0), self)]
    dim = a["dim"] % self.dim()
    if not a.get("keepdim", False):
        grad = aten.unsqueeze.default(grad, dim)
        result = aten.unsqueeze.default(result, dim)
    zero_mask = aten.eq.Scalar(self, 0)
    counts = aten.sum.dim_IntList(zero_mask, [dim], True)
    if aten.item.default(aten.sum.default(counts)) == 0:
        return [aten.mul.Tensor(grad, aten.div.Tensor(result, self))]
    return [_safe_zeros(grad, self, dim)]


def _safe_zeros(grad: TensorImpl, inp: TensorImpl, dim: int) -> TensorImpl:
    """prod_safe_zeros_backward: the products of the elements before and after each
    one (exclusive cumprods), which a zero does not poison."""
    if inp.numel() == 0:
        return aten.expand_as.default(grad, inp)
    shape = list(inp.view.sizes)
    n = shape[dim]
    shape[dim] = 1
    ones = aten.ones.default(shape, dtype=grad.dtype, device=grad.device_type)
    normal = aten.cumprod.default(aten.cat.default(
        [ones, aten.narrow.default(inp, dim, 0, n - 1)], dim), dim)
    narrow_reverse = aten.flip.default(aten.narrow.default(inp, dim, 1, n - 1), [dim])
    reverse = aten.flip.default(aten.cumprod.default(
        aten.cat.default([ones, narrow_reverse], dim), dim), [dim])
    return aten.mul.Tensor(grad, aten.mul.Tensor(normal, reverse))


@formula("NansumBackward0")
def nansum_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """nansum_backward: sum_backward(...) * self.isnan().logical_not() -- the mask (the
    right operand) first."""
    a, self = node.arguments, saved(node, "self")
    grad = aten.to.dtype(grads[0], a["self"].dtype)
    mask = aten.logical_not.default(aten.isnan.default(self))
    dims = a.get("dim")
    spread = sum_backward(grad, list(self.view.sizes), dims, bool(a.get("keepdim", False)))
    return [aten.mul.Tensor(spread, mask)]


# -- statistics and norms ----------------------------------------------------------------
def unsqueeze_multiple(t: TensorImpl, dims: Sequence[int] | None, n: int) -> TensorImpl:
    """unsqueeze_multiple: one dim unsqueezed directly, none left as it is, else each
    reduced dim in increasing order."""
    if dims is not None:
        if len(dims) == 0:
            return t
        if len(dims) == 1:
            return aten.unsqueeze.default(t, dims[0])
    marked = set(range(n)) if dims is None else {d % n for d in dims}
    for i in range(n):
        if i in marked:
            t = aten.unsqueeze.default(t, i)
    return t


def var_backward(grad: TensorImpl, self: TensorImpl, dims: Sequence[int] | None,
                 correction: float, keepdim: bool) -> TensorImpl:
    """var_backward: ``(2 / (n - correction)) * grad * (self - self.mean(dims, true))``,
    its right operand first (mean, sub), then the number times grad."""
    if self.dim() == 0 or dims is None:
        dof = self.numel() - correction
        if dof <= 0:
            nan_or_inf = aten.where.Scalar(
                aten.eq.Tensor(self, aten.mean.default(self)), math.nan, math.inf)
            return aten.mul.Tensor(grad, nan_or_inf)
        centred = aten.sub.Tensor(self, aten.mean.default(self))
        return aten.mul.Tensor(aten.mul.Scalar(grad, 2.0 / dof), centred)
    if not keepdim and self.dim() > 1:
        grad = unsqueeze_multiple(grad, dims, self.dim())
    n = 1
    for d in dims:
        n *= self.view.sizes[d % self.dim()]
    centred = aten.sub.Tensor(self, aten.mean.dim(self, list(dims), True))
    return aten.mul.Tensor(aten.mul.Scalar(grad, 2.0 / (n - correction)), centred)


def _correction(node: Node) -> float:
    """The call's correction, or its ``unbiased`` (var.dim's, recorded as var.correction)."""
    a = node.arguments
    if "unbiased" in a:
        return 1.0 if a["unbiased"] else 0.0
    c = a.get("correction")
    return 1.0 if c is None else float(c)


@formula("VarBackward0")
def var_backward_node(node: Node, grads: list[Any]) -> list[Grad]:
    a = node.arguments
    return [var_backward(grads[0], saved(node, "self"), a.get("dim"), _correction(node),
                         bool(a.get("keepdim", False)))]


@formula("StdBackward0")
def std_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """std_backward: ``(grad / (result * 2)).masked_fill_(result == 0, 0)`` through
    var_backward."""
    values, a = unpack_all(node), node.arguments
    result = values["result"]
    grad_var = aten.div.Tensor(grads[0], aten.mul.Scalar(result, 2))
    aten.masked_fill_.Scalar(grad_var, aten.eq.Scalar(result, 0), 0)
    return [var_backward(grad_var, values["self"], a.get("dim"), _correction(node),
                         bool(a.get("keepdim", False)))]


@formula("LinalgVectorNormBackward0")
def norm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """norm_backward (through linalg_vector_norm_backward) for the orders 1, 2, inf and
    the general p; ord 0's gradient is undefined (none flows back)."""
    values, a = unpack_all(node), node.arguments
    self, norm, grad = values["self"], values["result"], grads[0]
    p = float(a.get("ord", 2))
    dims = list(a.get("dim") or [])
    if not a.get("keepdim", False) and self.dim() != 0:
        grad = unsqueeze_multiple(grad, dims, self.dim())
        norm = unsqueeze_multiple(norm, dims, self.dim())
    if p == 0.0:
        return [None]
    if p == 1.0:
        return [aten.mul.Tensor(aten.sgn.default(self), grad)]
    if p == 2.0:
        scaled = aten.div.Tensor(self, norm)
        aten.masked_fill_.Scalar(scaled, aten.eq.Scalar(norm, 0), 0)
        return [aten.mul.Tensor(grad, scaled)]
    if math.isinf(p):
        self_abs = aten.abs.default(self)
        mask = aten.logical_or.default(aten.eq.Tensor(self_abs, norm),
                                       aten.isnan.default(self_abs))
        share = aten.mul.Tensor(aten.div.Tensor(grad, aten.sum.dim_IntList(mask, dims, True)),
                                mask)
        return [aten.mul.Tensor(aten.sgn.default(self), share)]
    if p < 1.0:
        powered = aten.pow_.Scalar(aten.abs.default(self), p - 1)
        aten.masked_fill_.Scalar(powered, aten.eq.Scalar(self, 0), 0)
        scaled = aten.mul.Tensor(aten.sgn.default(self), powered)
        norm_power = aten.pow.Tensor_Scalar(norm, 1 - p)        # (the right operand first)
        return [aten.mul.Tensor(aten.mul.Tensor(scaled, grad), norm_power)]
    if p < 2.0:
        powered = aten.pow_.Scalar(aten.abs.default(self), p - 1)
        scaled = aten.mul.Tensor(aten.sgn.default(self), powered)
    else:
        scaled = aten.mul.Tensor(self, aten.pow_.Scalar(aten.abs.default(self), p - 2))
    scale = aten.div.Tensor(grad, aten.pow.Tensor_Scalar(norm, p - 1))
    aten.masked_fill_.Scalar(scale, aten.eq.Scalar(norm, 0), 0)
    return [aten.mul.Tensor(scaled, scale)]


@formula("LogsumexpBackward0")
def logsumexp_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """logsumexp_backward: ``grad * (self - result).exp()`` with the reduced dims put
    back."""
    values, a = unpack_all(node), node.arguments
    self, result, grad = values["self"], values["result"], grads[0]
    dims = list(a.get("dim") or [])
    if not a.get("keepdim", False) and self.dim() != 0:
        grad = unsqueeze_multiple(grad, dims, self.dim())
        result = unsqueeze_multiple(result, dims, self.dim())
    return [aten.mul.Tensor(grad, aten.exp.default(aten.sub.Tensor(self, result)))]


@formula("LinalgCrossBackward0")
def linalg_cross_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """other: linalg_cross(grad, self, dim); self: linalg_cross(other, grad, dim)."""
    grad, values, dim = grads[0], unpack_all(node), node.arguments.get("dim", -1)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        out[1] = aten.linalg_cross.default(grad, values["self"], dim=dim)
    if needs(node, 0):
        out[0] = aten.linalg_cross.default(values["other"], grad, dim=dim)
    return out


@formula("Unique2Backward0", "UniqueBackward0", "UniqueConsecutiveBackward0",
         "UniqueDimBackward0")
def unique_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """derivatives.yaml's ``not_implemented("_unique2")``: torch's NotImplementedError
    when the pass reaches the node."""
    op = node.overload.split("::")[-1].split(".")[0] if node.overload else node.name()
    raise torch_error(NotImplementedError, f"the derivative for '{op}' is not implemented.")
