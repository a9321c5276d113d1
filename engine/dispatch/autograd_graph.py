"""The autograd graph's forward half: the nodes VariableType records (issue #27).

When an operator with a backward formula (derivatives.yaml, :mod:`engine.dispatch.
derivatives`) runs above autograd in grad mode and one of its inputs requires grad,
torch's generated VariableType kernel makes one node named after the formula
(``MulBackward0``), gives it one edge per argument it takes gradients for
(``collect_next_edges``: the input's own ``grad_fn`` and output number, a leaf's
``AccumulateGrad``, or nothing for an input that does not require grad) and sets it as
the ``grad_fn`` of each differentiable output (``set_history``), which then requires grad
and is no longer a leaf.  Every node takes the next sequence number of the thread
(``Node::sequence_nr``, the order the backward pass's ready queue prefers).

tidx records that much.  What the nodes save for the backward pass, and the backward
pass itself, are not modelled yet: ``backward()`` is refused in one line.
"""

from __future__ import annotations

from typing import Any

from engine.core.context import current
from engine.core.tensor_impl import TensorImpl

SOURCE = "torch/csrc/autograd/function.h"


class GraphCounters:
    """The run's ``at::sequence_number`` (per thread in torch; tidx runs one thread)."""

    def __init__(self) -> None:
        self.next_sequence_nr = 0


class Node:
    """torch::autograd::Node as Python sees it (``y.grad_fn``): its name, its edges and
    a simulated address (the same every run, as tidx's data_ptr()s are)."""

    __tp_name__ = "Node"

    def __init__(self, name: str, next_functions: tuple[tuple[Node | None, int], ...]) -> None:
        ctx = current()
        counters = ctx.local(GraphCounters)
        self._name = name
        self.next_functions = next_functions
        self.sequence_nr = counters.next_sequence_nr
        counters.next_sequence_nr += 1
        self.address = ctx.next_address(0)

    def name(self) -> str:
        return self._name

    def short_name(self) -> str:
        """The class name Python shows (a hand-written node's name() is qualified:
        ``torch::autograd::CopyBackwards``)."""
        return self._name.rsplit("::", 1)[-1]

    def __repr__(self) -> str:
        return f"<{self.short_name()} object at {self.address:#x}>"


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: the backward pass ends there, adding into
    ``.grad``.  One per leaf while the graph holds it (torch caches it weakly on the
    leaf's AutogradMeta; tidx keeps it on the TensorImpl)."""

    def __init__(self, variable: TensorImpl) -> None:
        super().__init__("torch::autograd::AccumulateGrad", ())
        self.variable = variable


def gradient_edge(t: Any) -> tuple[Node | None, int]:
    """torch::autograd::impl::gradient_edge: where a gradient for ``t`` goes."""
    if not isinstance(t, TensorImpl):
        return (None, 0)
    if t.grad_fn is not None:
        return (t.grad_fn, t.output_nr)
    if t.view_base is not None and t.created_without_grad:
        # a view made under no_grad: it requires grad (its base does) but has no history
        # and no AccumulateGrad of its own -- nothing flows back through it
        return (None, 0)
    if t.requires_grad:
        if t.grad_accumulator is None:
            t.grad_accumulator = AccumulateGrad(t)
        return (t.grad_accumulator, 0)
    return (None, 0)


def collect_next_edges(values: list[Any]) -> tuple[tuple[Node | None, int], ...]:
    """One edge per tensor, a list of tensors giving one per element (cat's ``tensors``)."""
    edges: list[tuple[Node | None, int]] = []
    for v in values:
        if isinstance(v, (list, tuple)):
            edges.extend(gradient_edge(t) for t in v)
        else:
            edges.append(gradient_edge(v))
    return tuple(edges)


def set_history(node: Node, outputs: list[tuple[int, TensorImpl]]) -> None:
    """Each differentiable output (its output number, the tensor) gets the node."""
    for nr, t in outputs:
        t.grad_fn = node
        t.output_nr = nr
        t.requires_grad = True
