"""The view, indexing and in-place-into-a-view nodes' backward formulas (derivatives.yaml,
FunctionsManual.cpp, and CopySlices in torch/csrc/autograd/functions/tensor.cpp) as calls
of tidx's operators, registered with :func:`engine.autograd.formulas.formula`."""

from __future__ import annotations

from typing import Any

from engine.core.context import current
from engine.core.errors import Refused
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.autograd.graph_task import Running, should_compute
from engine.autograd.formulas import (Grad, call_node, formula, needs, sizes, sum_to,
                                      unpack_all)


# -- views -------------------------------------------------------------------------------------
@formula("ExpandBackward0")
def expand_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [sum_to(grads[0], sizes(node))]


@formula("ViewBackward0", "UnsafeViewBackward0")
def view_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.reshape.default(grads[0], sizes(node))]


@formula("SelectBackward0")
def select_backward(node: Node, grads: list[Any]) -> list[Grad]:
    a = node.arguments
    return [aten.select_backward.default(grads[0], sizes(node), a["dim"], a["index"])]


@formula("SliceBackward0")
def slice_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """slice_backward_wrapper: start and end clamped as slice clamped them."""
    a, shape = node.arguments, sizes(node)
    dim = a.get("dim", 0) % len(shape)
    size = shape[dim]
    start, end, step_ = a.get("start"), a.get("end"), a.get("step", 1)
    start = 0 if start is None else start
    end = size if end is None else end
    start = min(max(start + size if start < 0 else start, 0), size)
    end = min(max(end + size if end < 0 else end, start), size)
    return [aten.slice_backward.default(grads[0], shape, dim, start, end, step_)]


@formula("TBackward0", "TBackward1")
def t_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.t.default(grads[0])]


@formula("TransposeBackward0", "TransposeBackward1")
def transpose_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.transpose.int(grads[0], node.arguments["dim0"], node.arguments["dim1"])]


@formula("PermuteBackward0")
def permute_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """permute_backwards: the inverse permutation."""
    dims = list(node.arguments["dims"])
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d % len(dims)] = i
    return [aten.permute.default(grads[0], inverse)]


@formula("UnsqueezeBackward0", "UnsqueezeBackward1")
def unsqueeze_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.squeeze.dim(grads[0], node.arguments["dim"])]


@formula("SqueezeBackward0", "SqueezeBackward3")
def squeeze_backward0(node: Node, grads: list[Any]) -> list[Grad]:
    """unsqueeze_to(grad, sizes): a dim back at every place the input had size 1."""
    grad = grads[0]
    for d, s in enumerate(sizes(node)):
        if s == 1:
            grad = aten.unsqueeze.default(grad, d)
    return [grad]


@formula("SqueezeBackward1", "SqueezeBackward2", "SqueezeBackward4", "SqueezeBackward5")
def squeeze_backward_dims(node: Node, grads: list[Any]) -> list[Grad]:
    """unsqueeze_to(grad, dim(s), sizes): back only where a named dim had size 1."""
    shape, grad = sizes(node), grads[0]
    dims = node.arguments["dim"]
    dims = [dims] if isinstance(dims, int) else list(dims)
    wrapped = sorted({d % len(shape) for d in dims}) if shape else []
    for d in wrapped:
        if shape[d] == 1:
            grad = aten.unsqueeze.default(grad, d)
    return [grad]


# -- indexing --------------------------------------------------------------------------------
@formula("IndexBackward0")
def index_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """index_backward(grad.new_zeros(self_sizes, self_options), indices, grad): the
    gradient put into zeros at the indices, accumulating (so repeated indices add up)."""
    indices = unpack_all(node)["indices"]
    meta = node.arguments["self"]
    zeros = aten.new_zeros.default(grads[0], list(meta.sizes), dtype=meta.dtype,
                                   device=meta.device_type)
    return [aten._index_put_impl_.default(zeros, indices, grads[0], True, True)]


@formula("IndexPutBackward0", "IndexPutImplBackward0")
def index_put_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """self: accumulate ? grad : grad.index_put(indices, values_info.zeros(), false);
    values: grad.index(indices)."""
    grad, values = grads[0], unpack_all(node)
    indices = values["indices"]
    out: list[Grad] = [None, None]
    if needs(node, 0):
        if node.arguments.get("accumulate", False):
            out[0] = grad
        else:
            meta = node.arguments["values"]
            zeros = aten.zeros.default(list(meta.sizes), dtype=meta.dtype,
                                       device=meta.device_type)
            out[0] = aten.index_put.default(grad, indices, zeros, False)
    if needs(node, 1):
        out[1] = aten.index.Tensor(grad, indices)
    return out


# -- in-place writes into views ------------------------------------------------------------------
def _update_exec_info(node: Node, fn: Node) -> None:
    """CopySlices::update_exec_info: the write's node's first edge (the view's old
    history) is not CopySlices' own (the base's); in torch.autograd.grad, where only
    the nodes on a path to an input run, it is marked needed when CopySlices' own is,
    so the write's formula computes the view's gradient."""
    task = current().local(Running).task
    nxt = fn.next_functions[0][0] if fn.next_functions else None
    if task is None or task.needed is None or nxt is None or task.should_execute(nxt):
        return
    if should_compute(node, 0):
        task.needed.add(nxt)


@formula("torch::autograd::CopySlices")
def copy_slices_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """CopySlices::apply (torch/csrc/autograd/functions/tensor.cpp): the gradient laid out
    as the base, the view's part of it cloned and handed to the write's own node, whose
    gradient for the view is copied back into that part; the others pass through."""
    grad, a = grads[0], node.arguments
    sizes_, strides, offset = a["base"]
    result = aten.new_empty_strided.default(grad, list(sizes_), list(strides))
    aten.copy_.default(result, grad)
    vsizes, vstrides, voffset = a["view"]
    grad_slice = aten.as_strided.default(result, list(vsizes), list(vstrides), voffset - offset)
    fn: Node = a["fn"]
    _update_exec_info(node, fn)
    res = call_node(fn, [aten.clone.default(grad_slice, memory_format="contiguous_format")])
    out: list[Grad] = [None] * len(node.next_functions)
    for i, g in enumerate(res):
        if i < len(out) and needs(node, i):
            if i == 0:
                if g is not None:
                    aten.copy_.default(grad_slice, g)
                out[0] = result
            else:
                out[i] = g
    return out


@formula("AsStridedBackward0")
def as_strided_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """FunctionsManual.cpp as_strided_backward, for geometries that do not overlap: the
    output's size-1 dims squeezed away and its 0-stride dims summed, the gradient copied
    into a zero storage through the output's geometry, and the input's geometry read
    back from it."""
    grad, a = grads[0], node.arguments
    in_sizes, in_strides, in_offset = a["self_geometry"]
    sizes_, strides, offset = list(a["size"]), list(a["stride"]), a["storage_offset"]
    out_sizes: list[int] = []
    out_strides: list[int] = []
    for i in range(len(sizes_) - 1, -1, -1):
        if sizes_[i] == 0:
            return [aten.zeros.default(list(in_sizes), dtype=grad.dtype,
                                       device=grad.device_type)]
        if sizes_[i] == 1:
            grad = aten.squeeze.dim(grad, i)
        elif strides[i] == 0:
            grad = aten.sum.dim_IntList(grad, [i], False)
        else:
            out_sizes.insert(0, sizes_[i])
            out_strides.insert(0, strides[i])
    inp_sizes: list[int] = []
    inp_strides: list[int] = []
    for size, stride in zip(in_sizes, in_strides):
        if size == 0:
            return [aten.zeros.default(list(in_sizes), dtype=grad.dtype,
                                       device=grad.device_type)]
        if size != 1:
            inp_sizes.append(size)
            inp_strides.append(stride)
    if _may_overlap(out_sizes, out_strides) or _may_overlap(inp_sizes, inp_strides):
        raise Refused("backward through AsStridedBackward0 over overlapping memory is not "
                      "modelled by tidx yet")
    shared = min(in_offset, offset)
    base_size = max(_min_storage_size(inp_sizes, inp_strides, in_offset - shared),
                    _min_storage_size(out_sizes, out_strides, offset - shared))
    storage = aten.new_zeros.default(grad, [base_size])
    aten.copy_.default(aten.as_strided.default(storage, out_sizes, out_strides, offset - shared),
                       grad)
    return [aten.as_strided.default(storage, list(in_sizes), list(in_strides),
                                    in_offset - shared)]


def _min_storage_size(sizes_: list[int], strides: list[int], offset: int) -> int:
    return offset + 1 + sum((s - 1) * st for s, st in zip(sizes_, strides))


def _may_overlap(sizes_: list[int], strides: list[int]) -> bool:
    """_maybe_overlapping_memory: strides sorted, each larger than the span below it."""
    if not sizes_:
        return False
    order = sorted(range(len(sizes_)), key=lambda i: strides[i])
    span = 0
    for i in order:
        if strides[i] <= span:
            return True
        span += (sizes_[i] - 1) * strides[i]
    return False
