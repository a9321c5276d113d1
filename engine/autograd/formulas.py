"""The nodes' backward formulas: derivatives.yaml's expressions and the FunctionsManual.cpp
functions they call, as calls of tidx's operators, so that every operator of the backward
pass is drawn (and recorded by torch.profiler) as a forward one is.

Each formula takes the node and the gradients flowing into its outputs and returns one
gradient per edge (None where the edge needs none: ``should_compute_output``).  A node
computes its inputs' gradients in torchgen's order (the order of the formulas in the
generated ``apply``: ``other`` before ``self`` for mul and div), which is the order their
operators run in.  Each formula links the torch source it mirrors.  A node tidx has no
formula for is refused in one line by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.autograd.graph_task import should_compute
from engine.core.errors import Refused
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import Node
from engine.ops.scalar import wrapped_scalar_tensor

MANUAL = "torch/csrc/autograd/FunctionsManual.cpp"
TENSOR_OPERATORS = "aten/src/ATen/core/TensorOperators.h"

#: Node::operator(): the node's own span, named as torch.profiler names it
APPLY = step("<Node>", Layer.DISPATCHER, source="torch/csrc/autograd/function.h",
             note="autograd.apply")

#: ``tensor * number`` in C++ (TensorOperators.h): the number wrapped as a 0-dim tensor
WRAPPED = step("wrapped_scalar_tensor", Layer.KERNEL, source=TENSOR_OPERATORS,
               note="scalar.wrapped_number")

Grad = TensorImpl | None
Formula = Callable[[Node, list[Any]], list[Grad]]

#: node name -> formula (torch's derivatives.yaml keys them by operator; tidx by the node
#: the operator records, which is what the backward pass meets)
FORMULAS: dict[str, Formula] = {}


def formula(*names: str) -> Callable[[Formula], Formula]:
    def register(fn: Formula) -> Formula:
        for name in names:
            FORMULAS[name] = fn
        return fn
    return register


def call_node(fn: Node, inputs: list[Any]) -> list[Any]:
    """Node::operator(): the node's own span (named as torch.profiler names it) around its
    formula.  CopySlices calls its write's node this way too."""
    name = fn.name()
    formula = FORMULAS.get(name)
    if formula is None:
        raise Refused(f"backward through {fn.short_name()}: tidx has no formula for this "
                      "node yet")
    with span(APPLY.named(name), op=name, grads=_shapes(inputs)) as ap:
        outputs = formula(fn, inputs)
        ap.set_result(_shapes(outputs))
    return outputs


def _shapes(grads: list[Any]) -> str:
    return ", ".join("None" if g is None else
                     f"[{', '.join(str(n) for n in g.view.sizes)}]" for g in grads)


# -- what a formula reads of its node --------------------------------------------------------
def needs(node: Node, i: int) -> bool:
    """task_should_compute_output: edge ``i`` leads somewhere this backward pass runs
    (torch.autograd.grad runs only the nodes on a path to its inputs)."""
    return should_compute(node, i)


def saved(node: Node, name: str) -> TensorImpl:
    t: TensorImpl = node.saved[name].unpack()
    return t


def unpack_all(node: Node) -> dict[str, Any]:
    """The generated apply unpacks every saved variable first (each checks its version),
    in the order they were saved."""
    out: dict[str, Any] = {}
    for name, v in node.saved.items():
        out[name] = [s.unpack() if s is not None else None for s in v] \
            if isinstance(v, list) else v.unpack()
    return out


def sizes(node: Node, name: str = "self") -> list[int]:
    return list(node.arguments[name].sizes)


def number(value: Any) -> TensorImpl:
    """A C++ number beside a tensor (``2 * t``, ``t / n``): a wrapped 0-dim tensor."""
    return wrapped_scalar_tensor(value, WRAPPED)


def maybe_multiply(grad: TensorImpl, alpha: Any) -> TensorImpl:
    """FunctionsManual.cpp maybe_multiply: ``grad`` itself when alpha is 1."""
    if alpha is None or alpha == 1:
        return grad
    return aten.mul.Tensor(grad, number(alpha))


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
    return [aten.mul.Tensor(grads[0], number(node.arguments["other"]))]


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
    return [aten.div.Tensor(grads[0], number(node.arguments["other"]))]


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
    return [aten.div.Tensor(grads[0], aten.mul.Tensor(saved(node, "result"), number(2)))]


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


# -- reductions ------------------------------------------------------------------------------
@formula("SumBackward0")
def sum_backward0(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.expand.default(grads[0], sizes(node))]


def sum_backward(grad: TensorImpl, shape: list[int], dims: Sequence[int] | None,
                 keepdim: bool) -> TensorImpl:
    """FunctionsManual.cpp sum_backward: unsqueeze the reduced dims back (one at a time,
    lowest first) unless keepdim, then expand to the input's shape."""
    if not keepdim and shape:
        if dims is not None and len(dims) == 1:
            grad = aten.unsqueeze.default(grad, dims[0] % len(shape))
        else:
            reduced = set(range(len(shape))) if not dims else {d % len(shape) for d in dims}
            for d in range(len(shape)):
                if d in reduced:
                    grad = aten.unsqueeze.default(grad, d)
    return aten.expand.default(grad, shape)


@formula("SumBackward1")
def sum_backward1(node: Node, grads: list[Any]) -> list[Grad]:
    return [sum_backward(grads[0], sizes(node), node.arguments.get("dim"),
                         bool(node.arguments.get("keepdim", False)))]


@formula("MeanBackward0")
def mean_backward0(node: Node, grads: list[Any]) -> list[Grad]:
    shape = sizes(node)
    return [aten.div.Tensor(aten.expand.default(grads[0], shape), number(_numel(shape)))]


@formula("MeanBackward1")
def mean_backward1(node: Node, grads: list[Any]) -> list[Grad]:
    """mean_backward: sum_backward(...) / n, n the number of elements reduced."""
    shape, dims = sizes(node), node.arguments.get("dim")
    n = _numel(shape) if not dims else _numel([shape[d % len(shape)] for d in dims])
    grad = sum_backward(grads[0], shape, dims, bool(node.arguments.get("keepdim", False)))
    return [aten.div.Tensor(grad, number(n))]


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


# -- views -------------------------------------------------------------------------------------
@formula("ExpandBackward0")
def expand_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [sum_to(grads[0], sizes(node))]


def sum_to(grad: TensorImpl, shape: Sequence[int]) -> TensorImpl:
    """at::sum_to (aten/src/ATen/ExpandUtils.h): sum the dims ``shape`` broadcast away,
    keeping them, then view away the leading ones.  The tensor itself when its shape is
    already ``shape``."""
    have = list(grad.view.sizes)
    if have == list(shape):
        return grad
    lead = len(have) - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and have[lead + i] != 1]
    if dims:
        grad = aten.sum.dim_IntList(grad, dims, True)
    if lead > 0:
        grad = aten.view.default(grad, list(shape))
    return grad


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


# -- matrices --------------------------------------------------------------------------------
@formula("MmBackward0")
def mm_backward(node: Node, grads: list[Any]) -> list[Grad]:
    """mm_mat2_backward, then mm_mat1_backward: a column-major operand's gradient is made
    column-major (the product of the transposes, transposed)."""
    grad, values = grads[0], unpack_all(node)
    out: list[Grad] = [None, None]
    if needs(node, 1):
        mat1, meta = values["self"], node.arguments["mat2"]
        if _column_major(meta):
            out[1] = aten.t.default(aten.mm.default(aten.t.default(grad), mat1))
        else:
            out[1] = aten.mm.default(aten.t.default(mat1), grad)
    if needs(node, 0):
        mat2, meta = values["mat2"], node.arguments["self"]
        if _column_major(meta):
            out[0] = aten.t.default(aten.mm.default(mat2, aten.t.default(grad)))
        else:
            out[0] = aten.mm.default(grad, aten.t.default(mat2))
    return out


def _column_major(meta: Any) -> bool:
    strides = getattr(meta, "strides", None)
    return strides is not None and strides[0] == 1 and strides[1] == meta.sizes[0]


# -- in-place writes into views ------------------------------------------------------------------
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


# -- activations and other pointwise ---------------------------------------------------------
@formula("ReluBackward0")
def relu_backward(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.threshold_backward.default(grads[0], saved(node, "result"), 0)]


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
