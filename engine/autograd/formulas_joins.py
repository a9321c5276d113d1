"""The backward formulas of the joining, splitting and index-producing operators
(derivatives.yaml and FunctionsManual.cpp): registered with
:func:`engine.autograd.formulas.formula` as the other formulas are.

Each formula runs the operators torch's runs, in its order, so the backward pass's
profiler tree is torch's: the joins hand each input its part of the gradient as a view
(``narrow``, ``select``), the splits join their outputs' gradients back (zeros where no
gradient flowed into an output), the index-producing operators put the gradient back
into zeros at the indices (the backward-only operators of engine/ops/index_backward.py).
A multi-output node (unbind, split) receives one gradient per output, None where none
flowed.
"""

from __future__ import annotations

from typing import Any

from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.formulas import Grad, formula, maybe_multiply, needs, saved, sizes

MANUAL = "torch/csrc/autograd/FunctionsManual.cpp"


def _wrap(dim: int, ndim: int) -> int:
    """maybe_wrap_dim (a 0-dim tensor wraps as a 1-dim one)."""
    return dim % max(ndim, 1)


# -- joins -------------------------------------------------------------------------------------
@formula("CatBackward0")
def cat_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """cat_tensors_backward: each input's part of the gradient, ``grad.narrow(dim,
    offset, size)``; an input that was a 1-dim empty tensor (skipped by cat) gets
    ``zeros({0})``.  Every part is made, needed or not (the generated apply calls it
    once for the whole list)."""
    grad, metas = grads[0], node.arguments["tensors"]
    shapes = [list(m.sizes) for m in metas]
    # legacy_cat_wrap_dim: the dim wraps by the first tensor that is not 1-dim empty
    ndim = next((len(s) for s in shapes if s != [0]), 1)
    dim = _wrap(node.arguments.get("dim", 0), ndim)
    out: list[Grad] = []
    at = 0
    for shape in shapes:
        if shape == [0]:
            out.append(aten.zeros.default([0], dtype=grad.dtype, device=grad.device_type))
            continue
        out.append(aten.narrow.default(grad, dim, at, shape[dim]))
        at += shape[dim]
    return out


@formula("StackBackward0")
def stack_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """stack_tensors_backward: ``grad.select(dim, i)`` for each input."""
    grad = grads[0]
    dim = node.arguments.get("dim", 0)
    return [aten.select.int(grad, dim, i) for i in range(len(node.arguments["tensors"]))]


# -- splits: the outputs' gradients joined back ------------------------------------------------
@formula("UnbindBackward0")
def unbind_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """unbind_backward: ``at::stack`` of the outputs' gradients, an output without one
    as ``zeros({}).expand(sizes)`` (the sizes and options of the first defined one)."""
    first = next(g for g in grads if g is not None)
    filled = [g if g is not None else aten.expand.default(
        aten.zeros.default([], dtype=first.dtype, device=first.device_type),
        list(first.view.sizes)) for g in grads]
    return [aten.stack.default(filled, node.arguments.get("dim", 0))]


@formula("SplitBackward0")
def split_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """split_backward: the split sizes (the last one what is left), then
    split_with_sizes_backward."""
    shape = sizes(node)
    dim = _wrap(node.arguments.get("dim", 0), len(shape))
    size = node.arguments["split_size"]
    n = len(grads)
    split_sizes = [size] * n
    split_sizes[-1] = size - (size * n - shape[dim])
    return [_split_with_sizes_backward(node, grads, split_sizes, dim)]


@formula("SplitWithSizesBackward0")
def split_with_sizes_backward(node: Node, grads: list[Any]) -> list[Grad]:
    dim = _wrap(node.arguments.get("dim", 0), len(sizes(node)))
    return [_split_with_sizes_backward(node, grads, list(node.arguments["split_sizes"]), dim)]


def _split_with_sizes_backward(node: Node, grads: list[Any], split_sizes: list[int],
                               dim: int) -> TensorImpl:
    """split_with_sizes_backward: ``at::cat`` of the outputs' gradients, an output
    without one as ``zeros`` of its part's sizes in self's options."""
    meta = node.arguments["self"]
    filled = []
    for g, length in zip(grads, split_sizes):
        if g is None:
            shape = list(meta.sizes)
            shape[dim] = length
            g = aten.zeros.default(shape, dtype=meta.dtype, device=meta.device_type)
        filled.append(g)
    return aten.cat.default(filled, dim)


# -- masks and conditions ----------------------------------------------------------------------
@formula("WhereBackward0")
def where_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: where(condition, grad, 0); other: where(condition, 0, grad)."""
    grad, condition = grads[0], saved(node, "condition")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.where.ScalarOther(condition, grad, 0)
    if needs(node, 1):
        out[1] = aten.where.ScalarSelf(condition, 0, grad)
    return out


@formula("MaskedFillBackward0")
def masked_fill_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.masked_fill(mask, 0)."""
    return [aten.masked_fill.Scalar(grads[0], saved(node, "mask"), 0)]


@formula("MaskedFillBackward1")
def masked_fill_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.masked_fill(mask, 0); value: masked_fill_backward(grad, mask) =
    grad.masked_select(mask).sum() (FunctionsManual.cpp)."""
    grad, mask = grads[0], saved(node, "mask")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.masked_fill.Scalar(grad, mask, 0)
    if needs(node, 1):
        out[1] = aten.sum.default(aten.masked_select.default(grad, mask))
    return out


@formula("MaskedSelectBackward0")
def masked_select_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.masked_select_backward.default(grads[0], saved(node, "self"),
                                                saved(node, "mask"))]


# -- the gradient rearranged as the forward rearranged the input ---------------------------------
@formula("FlipBackward0")
def flip_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.flip.default(grads[0], list(node.arguments["dims"]))]


@formula("RollBackward0")
def roll_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """grad.roll(the shifts negated and reversed, the dims reversed)."""
    shifts = node.arguments["shifts"]
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = node.arguments.get("dims", [])
    dims = [dims] if isinstance(dims, int) else list(dims)
    return [aten.roll.default(grads[0], [-s for s in reversed(shifts)], list(reversed(dims)))]


@formula("TrilBackward0")
def tril_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.tril.default(grads[0], node.arguments.get("diagonal", 0))]


@formula("TriuBackward0")
def triu_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.triu.default(grads[0], node.arguments.get("diagonal", 0))]


@formula("DiagonalBackward0")
def diagonal_backward(node: Node, grads: list[Any]) -> list[Grad]:
    a = node.arguments
    return [aten.diagonal_backward.default(grads[0], sizes(node), a.get("offset", 0),
                                           a.get("dim1", 0), a.get("dim2", 1))]


@formula("RepeatBackward0")
def repeat_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """FunctionsManual.cpp repeat_backward: zeros when a repeat is 0; the leading dims
    repeat added summed away one by one; then one reshape splitting each repeated dim
    into (repeat, size) and one sum over the repeat dims."""
    grad, shape = grads[0], sizes(node)
    repeats = list(node.arguments["repeats"])
    if 0 in repeats:
        return [aten.zeros.default(shape, dtype=grad.dtype, device=grad.device_type)]
    extra = len(grad.view.sizes) - len(shape)
    for _ in range(extra):
        grad = aten.sum.dim_IntList(grad, [0], False)
    grad_size: list[int] = []
    sum_dims: list[int] = []
    for d, size in enumerate(shape):
        repeat = repeats[d + extra]
        if repeat != 1:
            grad_size.append(repeat)
            sum_dims.append(len(grad_size) - 1)
        grad_size.append(size)
    if sum_dims:
        grad = aten.reshape.default(grad, grad_size)
        grad = aten.sum.dim_IntList(grad, sum_dims, False)
    return [grad]


@formula("ToCopyBackward0")
def to_copy_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """_to_copy_backward: the gradient back to self's device and dtype
    (``grad.to(device, dtype, non_blocking=false, copy=false)``)."""
    meta = node.arguments["self"]
    return [aten.to.device(grads[0], meta.device_type, meta.dtype, False, False)]


# -- the gradient put back at the indices -------------------------------------------------------
@formula("GatherBackward0")
def gather_backward(node: Node, grads: list[Any]) -> list[Grad]:
    a = node.arguments
    return [aten.gather_backward.default(grads[0], saved(node, "self"), a["dim"],
                                         saved(node, "index"), bool(a.get("sparse_grad")))]


@formula("IndexSelectBackward0")
def index_select_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.index_select_backward.default(grads[0], sizes(node), node.arguments["dim"],
                                               saved(node, "index"))]


@formula("TakeBackward0")
def take_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """take_backward: zeros_like(self).put_(index, grad, accumulate=true)."""
    grad_self = aten.zeros_like.default(saved(node, "self"))
    return [aten.put_.default(grad_self, saved(node, "index"), grads[0], True)]


@formula("SortBackward0", "SortBackward1", "TopkBackward0")
def value_selecting_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """value_selecting_reduction_backward(grad, dim, indices, self_sizes, keepdim=true):
    the values' gradient scattered back through the indices."""
    return [aten.value_selecting_reduction_backward.default(
        grads[0], node.arguments.get("dim", -1), saved(node, "indices"), sizes(node), True)]


@formula("MaxBackward0", "MinBackward0", "KthvalueBackward0", "MedianBackward1",
         "NanmedianBackward1", "ModeBackward0")
def reduction_with_indices_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """The reductions along a dim that return indices (max.dim, min.dim, kthvalue,
    median.dim, nanmedian.dim, mode): value_selecting_reduction_backward with the call's
    keepdim."""
    a = node.arguments
    return [aten.value_selecting_reduction_backward.default(
        grads[0], a.get("dim", -1), saved(node, "indices"), sizes(node),
        bool(a.get("keepdim", False)))]


@formula("CummaxBackward0", "CumminBackward0")
def cummaxmin_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.cummaxmin_backward.default(grads[0], saved(node, "self"),
                                            saved(node, "indices"), node.arguments["dim"])]


@formula("ScatterBackward0")
def scatter_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.scatter(dim, index, 0); src: grad.gather(dim, index)."""
    grad, dim, index = grads[0], node.arguments["dim"], saved(node, "index")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.scatter.value(grad, dim, index, 0)
    if needs(node, 1):
        out[1] = aten.gather.default(grad, dim, index)
    return out


@formula("ScatterBackward1")
def scatter_value_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.scatter.value(grads[0], node.arguments["dim"], saved(node, "index"), 0)]


@formula("ScatterAddBackward0")
def scatter_add_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad; src: grad.gather(dim, index)."""
    grad = grads[0]
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = grad
    if needs(node, 1):
        out[1] = aten.gather.default(grad, node.arguments["dim"], saved(node, "index"))
    return out


@formula("IndexAddBackward0")
def index_add_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad; source: maybe_multiply(grad.index_select(dim, index).expand_as(source)
    (index.squeeze(0) for a 0-dim source), alpha)."""
    grad, a = grads[0], node.arguments
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = grad
    if needs(node, 1):
        index, source = saved(node, "index"), saved(node, "source")
        if len(source.view.sizes) > 0:
            part = aten.expand_as.default(aten.index_select.default(grad, a["dim"], index),
                                          source)
        else:
            part = aten.index_select.default(grad, a["dim"], aten.squeeze.dim(index, 0))
        out[1] = maybe_multiply(part, a.get("alpha", 1))
    return out


@formula("IndexFillBackward0")
def index_fill_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.index_fill(dim, index, 0)."""
    return [aten.index_fill.int_Scalar(grads[0], node.arguments["dim"], saved(node, "index"), 0)]


@formula("IndexFillBackward1")
def index_fill_tensor_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.index_fill(dim, index, 0); value: grad.index_select(dim,
    _unique(index, sorted=false)[0]).sum() (a repeated index fills once)."""
    grad, dim, index = grads[0], node.arguments["dim"], saved(node, "index")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.index_fill.int_Scalar(grad, dim, index, 0)
    if needs(node, 1):
        unique = aten._unique.default(index, False)[0]
        out[1] = aten.sum.default(aten.index_select.default(grad, dim, unique))
    return out


@formula("PutBackward0")
def put_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: accumulate ? grad : grad.put(index, zeros_like(source), false) (source's
    TypeAndSize: at::zeros); source: grad.take(index).reshape_as(source)."""
    grad, a = grads[0], node.arguments
    index = saved(node, "index")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        if a.get("accumulate", False):
            out[0] = grad
        else:
            meta = a["source"]
            zeros = aten.zeros.default(list(meta.sizes), dtype=meta.dtype,
                                       device=meta.device_type)
            out[0] = aten.put.default(grad, index, zeros, False)
    if needs(node, 1):
        out[1] = aten.reshape_as.default(aten.take.default(grad, index), saved(node, "source"))
    return out


@formula("MaskedScatterBackward0")
def masked_scatter_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: grad.masked_fill(mask, 0); source: masked_scatter_backward(grad, mask,
    source sizes): the gradient at the mask's places, zeros after, viewed as source."""
    grad, mask = grads[0], saved(node, "mask")
    out: list[Grad] = [None, None]
    if needs(node, 0):
        out[0] = aten.masked_fill.Scalar(grad, mask, 0)
    if needs(node, 1):
        out[1] = aten.masked_scatter_backward.default(grad, mask,
                                                      list(node.arguments["source"].sizes))
    return out


@formula("SelectScatterBackward0", "SliceScatterBackward0", "DiagonalScatterBackward0")
def view_scatter_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: X_scatter(grad, zeros_like(src), ...) (src's TypeAndSize: at::zeros);
    src: the same view of grad (select, slice, diagonal)."""
    grad, a = grads[0], node.arguments
    name = node.name()
    out: list[Grad] = [None, None]
    meta = a["src"]
    if needs(node, 0):
        zeros = aten.zeros.default(list(meta.sizes), dtype=meta.dtype, device=meta.device_type)
        if name.startswith("Select"):
            out[0] = aten.select_scatter.default(grad, zeros, a["dim"], a["index"])
        elif name.startswith("Slice"):
            out[0] = aten.slice_scatter.default(grad, zeros, a.get("dim", 0), a.get("start"),
                                                a.get("end"), a.get("step", 1))
        else:
            out[0] = aten.diagonal_scatter.default(grad, zeros, a.get("offset", 0),
                                                   a.get("dim1", 0), a.get("dim2", 1))
    if needs(node, 1):
        if name.startswith("Select"):
            out[1] = aten.select.int(grad, a["dim"], a["index"])
        elif name.startswith("Slice"):
            out[1] = aten.slice.Tensor(grad, a.get("dim", 0), a.get("start"), a.get("end"),
                                       a.get("step", 1))
        else:
            out[1] = aten.diagonal.default(grad, a.get("offset", 0), a.get("dim1", 0),
                                           a.get("dim2", 1))
    return out
