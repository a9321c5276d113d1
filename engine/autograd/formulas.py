"""The nodes' backward formulas: derivatives.yaml's expressions and the FunctionsManual.cpp
functions they call, as calls of tidx's operators, so that every operator of the backward
pass is drawn (and recorded by torch.profiler) as a forward one is.

Each formula takes the node and the gradients flowing into its outputs and returns one
gradient per edge (None where the edge needs none: ``should_compute_output``).  A node
computes its inputs' gradients in torchgen's order (the order of the formulas in the
generated ``apply``: ``other`` before ``self`` for mul and div), which is the order their
operators run in.  Each formula links the torch source it mirrors.  A node tidx has no
formula for is refused in one line by the engine.

This module holds the registry, what formulas share (what a node saved, which edges
need a gradient, sum_to) and the reductions' formulas; the families are in
formulas_pointwise.py, formulas_views.py and formulas_joins.py.
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
    if any(g is not None and g.dtype.is_complex for g in inputs):
        # the formulas here are the real ones: a complex gradient needs the conj()s
        # derivatives.yaml writes (Wirtinger calculus), not modelled yet
        raise Refused(f"backward through {fn.short_name()} with a complex gradient is not "
                      "modelled by tidx yet")
    formula = FORMULAS.get(name)
    if formula is None:
        raise Refused(f"backward through {fn.short_name()}: tidx has no formula for this "
                      "node yet")
    with span(APPLY.named(name), op=name, grads=_shapes(inputs)) as ap:
        outputs = formula(fn, inputs)
        # the gradients themselves (a drawing then calls each new one by the node that
        # made it, "MulBackward0", rather than by its last operator, "mul #2")
        ap.set_result(outputs if len(outputs) > 1 else outputs[0] if outputs else None)
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
    """The generated apply unpacks every saved variable first (each checks its version,
    so the first stale one names the error): the saved inputs, then the saved outputs,
    each sorted by name (gen_autograd_functions.py's process_function sorts
    ``all_saved_inputs`` and ``all_saved_outputs`` by name)."""
    out: dict[str, Any] = {}

    def is_output(v: Any) -> bool:
        first = next((s for s in v if s is not None), None) if isinstance(v, list) else v
        return first is not None and first.is_output
    for name in sorted(node.saved, key=lambda n: (is_output(node.saved[n]), n)):
        v = node.saved[name]
        out[name] = [s.unpack() if s is not None else None for s in v] \
            if isinstance(v, list) else None if v is None else v.unpack()
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
    return aten.mul.Scalar(grad, alpha)


# -- reductions ------------------------------------------------------------------------------
@formula("SumBackward0")
def sum_backward0(node: Node, grads: list[Any]) -> list[Grad]:
    return [aten.expand.default(grads[0], sizes(node))]


def sum_backward(grad: TensorImpl, shape: list[int], dims: Sequence[int] | None,
                 keepdim: bool) -> TensorImpl:
    """FunctionsManual.cpp sum_backward: unsqueeze the reduced dims back (one at a time,
    lowest first) unless keepdim, then expand to the input's shape."""
    if not keepdim and shape and dims:
        # (no dims, or an empty list: the whole tensor -- expanded as it is)
        if len(dims) == 1:
            grad = aten.unsqueeze.default(grad, dims[0] % len(shape))
        else:
            reduced = {d % len(shape) for d in dims}
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
    return [aten.div.Scalar(aten.expand.default(grads[0], shape), _numel(shape))]


@formula("MeanBackward1")
def mean_backward1(node: Node, grads: list[Any]) -> list[Grad]:
    """mean_backward: sum_backward(...) / n, n the number of elements reduced."""
    shape, dims = sizes(node), node.arguments.get("dim")
    n = _numel(shape) if not dims else _numel([shape[d % len(shape)] for d in dims])
    grad = sum_backward(grads[0], shape, dims, bool(node.arguments.get("keepdim", False)))
    return [aten.div.Scalar(grad, n)]


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def sum_to(grad: TensorImpl, shape: Sequence[int]) -> TensorImpl:
    """at::sum_to (aten/src/ATen/ExpandUtils.h): sum the dims ``shape`` broadcast away,
    keeping them, then view away the leading ones.  The tensor itself when its shape is
    already ``shape``."""
    have = list(grad.view.sizes)
    if have == list(shape):
        return grad
    if not shape:
        # ExpandUtils.h _sum_to: a 0-dim shape is the whole sum (``tensor.sum()``), no view
        return aten.sum.default(grad)
    lead = len(have) - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and have[lead + i] != 1]
    if dims:
        grad = aten.sum.dim_IntList(grad, dims, True)
    if lead > 0:
        grad = aten.view.default(grad, list(shape))
    return grad
