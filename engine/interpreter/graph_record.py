"""The autograd graph a statement's tensors hang from, recorded after it ran (issue #27):
the record :class:`tracer.graph.Graph` the renderers draw beside the storage picture.

The roots are the tensors the statement bound or named that have a history (a
``grad_fn``); the walk follows ``next_functions`` as the backward pass would, each node
once, up to :data:`LIMIT` nodes.  A tensor in the record is named as the learner named
it where a name holds it, else by its trace label.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.binding.tensor import Tensor
from engine.core.tensor_impl import TensorImpl, plain_values
from engine.dispatch.autograd_graph import AccumulateGrad, Node, SavedVariable

if TYPE_CHECKING:
    from tracer.graph import Graph, GraphNode

#: the most nodes a statement's graph records (a long chain of a loop says "and N more")
LIMIT = 24


def record(node: ast.AST | None, assigned: list[str], names: dict[str, Any],
           label: Callable[[TensorImpl], str],
           source: Callable[[int], str | None] = lambda i: None) -> "Graph | None":
    """The graph from the tensors the statement ``node`` bound (``assigned``) or read;
    ``source``: the text of the run's statement of an index (which changed a saved
    tensor)."""
    read = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)] if node is not None else []
    roots: list[tuple[str, Node, int]] = []
    for name in dict.fromkeys([*assigned, *read]):
        value = names.get(name)
        if isinstance(value, Tensor):
            impl = value._impl
            try:
                fn = impl.grad_fn if impl.requires_grad else None
            except RuntimeError:    # a view whose history cannot be made again: none
                fn = None
            if fn is not None:
                roots.append((name, fn, impl.output_nr))
    if not roots:
        return None
    from tracer.graph import Graph      # only a statement with a history records one
    held = {id(v._impl): n for n, v in names.items() if isinstance(v, Tensor)}

    def tensor_name(t: TensorImpl) -> str:
        if t.wrapped_number:        # x * 2's 2: the number the learner wrote
            return f"{t.array().item()!r} (a Python number)"
        return held.get(id(t)) or label(t)

    order: list[Node] = []
    seen: set[int] = set()
    queue = [fn for _, fn, _ in roots]
    while queue:
        fn = queue.pop(0)
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        order.append(fn)
        queue.extend(nxt for nxt, _ in fn.next_functions if nxt is not None)
    kept = order[:LIMIT]
    return Graph(tuple((name, _id(fn), nr) for name, fn, nr in roots),
                 tuple(_node(fn, tensor_name, source) for fn in kept), len(order) - len(kept))


def _id(fn: Node) -> str:
    return f"{fn.address:#x}"


def _node(fn: Node, tensor_name: Callable[[TensorImpl], str],
          source: Callable[[int], str | None]) -> "GraphNode":
    from tracer.graph import GraphNode, SavedTensor
    edges = tuple((None if nxt is None else _id(nxt), nr) for nxt, nr in fn.next_functions)
    saved: list[SavedTensor] = []
    for name, v in fn.saved.items():
        for sv in (v if isinstance(v, list) else [v]):
            if isinstance(sv, SavedVariable):
                version = sv.data.version
                changed = source(version.changed_by) \
                    if version.value != sv.saved_version else None
                saved.append(SavedTensor(name, tensor_name(sv.data), sv.saved_version,
                                         version.value, sv.freed, changed))
    if isinstance(fn, AccumulateGrad):
        leaf = fn.variable
        grad = leaf.grad
        values = None if grad is None or grad.numel() > 16 else plain_values(
            grad.logical(grad.array()))
        return GraphNode(_id(fn), fn.name(), None, edges, tuple(saved), tensor_name(leaf), values)
    return GraphNode(_id(fn), fn.name(), fn.sequence_nr, edges, tuple(saved))
