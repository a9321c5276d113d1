"""Engine::execute (torch/csrc/autograd/engine.cpp): the backward pass over the graph
VariableType recorded, on the calling thread as torch runs a CPU graph.

* the roots' gradient edges (an error for a root that does not require grad);
* validate_outputs on the roots' gradients (cast to the root's dtype);
* compute_dependencies: how many edges lead into each node reachable from the root;
* the ready queue: a std::priority_queue ordered by sequence number, the highest (the
  node made last) first, AccumulateGrad (UINT64_MAX) before all;
* each node: ``autograd::engine::evaluate_function: <name>`` around the node's own
  ``<name>`` call (both recorded by torch.profiler), its formula
  (:mod:`engine.autograd.formulas`), validate_outputs on what it returned (sum_to a
  broadcast gradient, cast to the input's dtype), its saved variables released unless
  ``retain_graph``, and each gradient added to the input buffer of the node its edge
  leads to (a second gradient into the same input is added: in place when nothing else
  holds the first, InputBuffer::accumulate);
* AccumulateGrad at the leaves (:mod:`engine.autograd.accumulate_grad`).

Reference counts decide two of torch's choices (steal a leaf's gradient or copy it; add
in place or not): tidx counts the holders the engine knows -- the roots' gradients
(Python holds them for the whole call), the input buffers, the outputs not yet handed
on, the leaves' ``.grad``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, part_of, step, symbol

from engine.core.context import current
from engine.core.errors import Refused, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import AccumulateGrad, InputMetadata, Node
from engine.autograd import accumulate_grad
from engine.autograd import formulas_joins  # noqa: F401  (registers its formulas)
from engine.autograd.formulas import APPLY, call_node

SOURCE = "torch/csrc/autograd/engine.cpp"

EXECUTE = step("Engine::execute", Layer.DISPATCHER, source=SOURCE, note="autograd.execute",
               libtorch=symbol("torch::autograd::Engine::execute"))
DEPENDENCIES = step("compute_dependencies", Layer.DISPATCHER, source=SOURCE,
                    note="autograd.dependencies",
                    libtorch=part_of("torch::autograd::Engine::compute_dependencies"))
EVALUATE = step("autograd::engine::evaluate_function: <Node>", Layer.DISPATCHER,
                source=SOURCE, note="autograd.evaluate",
                libtorch=symbol("torch::autograd::Engine::evaluate_function"))
BUFFER = step("InputBuffer::add", Layer.DISPATCHER,
              source="torch/csrc/autograd/input_buffer.cpp",
              libtorch=part_of("torch::autograd::InputBuffer::add"))
RETAIN = step("retains_grad hook", Layer.DISPATCHER,
              source="torch/csrc/autograd/variable.cpp", note="autograd.retain_grad",
              libtorch=part_of("torch::autograd::VariableHooks::retain_grad"))
VALIDATE = step("validate_outputs", Layer.DISPATCHER, source=SOURCE,
                libtorch=part_of("torch::autograd::validate_outputs"))


@dataclass
class GraphTask:
    """torch::autograd::GraphTask: one backward call's state."""

    keep_graph: bool
    dependencies: dict[Node, int] = field(default_factory=dict)
    not_ready: dict[Node, list[Any]] = field(default_factory=dict)
    #: the std::priority_queue's vector, a binary max-heap on sequence_nr
    heap: list[tuple[Node, list[Any]]] = field(default_factory=list)
    #: the tensors someone other than the engine holds (the roots' gradients)
    held: list[TensorImpl] = field(default_factory=list)

    # -- reference counts --------------------------------------------------------------
    def use_count(self, t: TensorImpl, extra: list[Any] = ()) -> int:  # type: ignore[assignment]
        """How many holders the engine knows of ``t`` itself."""
        return sum(1 for h in self._holders(extra) if h is t)

    def storage_use_count(self, t: TensorImpl, extra: list[Any] = ()) -> int:  # type: ignore[assignment]
        return sum(1 for h in {id(h): h for h in self._holders(extra)}.values()
                   if h.storage is t.storage)

    def _holders(self, extra: list[Any]) -> list[TensorImpl]:
        out = list(self.held)
        for buffer in self.not_ready.values():
            out += [g for g in buffer if g is not None]
        for _, buffer in self.heap:
            out += [g for g in buffer if g is not None]
        return out + [g for g in extra if g is not None]

    # -- the ready queue (std::priority_queue over CompareNodeTaskTime) -------------------
    def push(self, node: Node, buffer: list[Any]) -> None:
        """std::push_heap (libstdc++'s __push_heap): equal sequence numbers (two
        AccumulateGrads) come out in the order that algorithm gives."""
        self.heap.append((node, buffer))
        self._sift_up(len(self.heap) - 1, 0, self.heap[-1])

    def pop(self) -> tuple[Node, list[Any]]:
        """std::pop_heap (libstdc++'s __pop_heap and __adjust_heap)."""
        heap = self.heap
        top = heap[0]
        value = heap.pop()
        if heap:
            n, hole, child = len(heap), 0, 0
            while child < (n - 1) // 2:
                child = 2 * (child + 1)
                if _lower(heap[child], heap[child - 1]):
                    child -= 1
                heap[hole] = heap[child]
                hole = child
            if n % 2 == 0 and child == (n - 2) // 2:
                child = 2 * (child + 1)
                heap[hole] = heap[child - 1]
                hole = child - 1
            self._sift_up(hole, 0, value)
        return top

    def _sift_up(self, hole: int, top: int, value: tuple[Node, list[Any]]) -> None:
        heap = self.heap
        parent = (hole - 1) // 2
        while hole > top and _lower(heap[parent], value):
            heap[hole] = heap[parent]
            hole, parent = parent, (parent - 1) // 2
        heap[hole] = value


def _lower(a: tuple[Node, list[Any]], b: tuple[Node, list[Any]]) -> bool:
    """CompareNodeTaskTime: ``a`` runs after ``b`` (a lower sequence number)."""
    return a[0].sequence_nr < b[0].sequence_nr


def execute(root: TensorImpl, grad: TensorImpl, keep_graph: bool) -> None:
    """Engine::execute for one root and its gradient, grad mode as ``create_graph``
    (False: the formulas record no graph)."""
    node, input_nr = _root_edge(root)
    with span(EXECUTE, keep_graph=keep_graph) as s:
        task = GraphTask(keep_graph, held=[grad])
        # validate_outputs on the roots: the metadata of the output itself
        grad = _validate(grad, InputMetadata.of(root))
        with span(DEPENDENCIES) as d:
            task.dependencies = _dependencies(node)
            d.set_result(", ".join(f"{n.name()}: {c}" for n, c in task.dependencies.items())
                         or "none")
        buffer: list[Any] = [None] * _num_inputs(node)
        buffer[input_nr] = grad
        ctx = current()
        mode, ctx.grad_enabled = ctx.grad_enabled, False
        try:
            task.push(node, buffer)
            while task.heap:
                fn, inputs = task.pop()
                _evaluate(task, fn, inputs)
        finally:
            ctx.grad_enabled = mode
        s.set_result(None)


def _root_edge(root: TensorImpl) -> tuple[Node, int]:
    from engine.dispatch.autograd_graph import gradient_edge
    node, nr = gradient_edge(root)
    if node is None:
        raise torch_error(RuntimeError, "element 0 of tensors does not require grad and does "
                                        "not have a grad_fn")
    return node, nr


def _num_inputs(node: Node) -> int:
    return 1 if isinstance(node, AccumulateGrad) else max(1, node.num_outputs)


def _dependencies(root: Node) -> dict[Node, int]:
    """compute_dependencies: a walk from the root counting each edge into a node."""
    deps: dict[Node, int] = {}
    seen, stack = {root}, [root]
    while stack:
        fn = stack.pop()
        for nxt, _ in fn.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def _evaluate(task: GraphTask, fn: Node, inputs: list[Any]) -> None:
    name = fn.name()
    shown = f"autograd::engine::evaluate_function: {name}"
    with span(EVALUATE.named(shown), op=shown, node=fn.short_name(),
              sequence_nr=_sequence(fn)) as ev:
        if isinstance(fn, AccumulateGrad):
            with span(APPLY.named(name), op=name, note="autograd.accumulate_grad"):
                grad = inputs[0]
                if grad is not None:
                    stealable = task.use_count(grad) == 0
                    accumulate_grad.accumulate(fn.variable, grad, stealable)
            ev.set_result(None)
            return
        for nr, t in fn.retained.items():
            _retain(t, inputs[nr] if nr < len(inputs) else None)
        outputs = call_node(fn, inputs)
        outputs = [_validate(g, meta, f"Function {name} returned an", i) if g is not None
                   else None for i, (g, meta) in enumerate(zip(outputs, fn.input_metadata))]
        if not task.keep_graph:
            fn.release_variables()
        for i, (nxt, input_nr) in enumerate(fn.next_functions):
            if nxt is None or i >= len(outputs):
                continue
            task.dependencies[nxt] -= 1
            ready = task.dependencies[nxt] == 0
            if ready:
                del task.dependencies[nxt]
            buffer = task.not_ready.pop(nxt, None)
            if buffer is None:
                buffer = [None] * _num_inputs(nxt)
            _add(task, buffer, input_nr, outputs[i], outputs[i + 1:])
            if ready:
                task.push(nxt, buffer)
            else:
                task.not_ready[nxt] = buffer
            outputs[i] = None
        ev.set_result(None)


def _retain(t: TensorImpl, grad: Any) -> None:
    """The retains_grad hook (VariableHooks::retain_grad), before the node runs: a
    contiguous copy of the gradient, or the sum with the one kept before."""
    if grad is None:
        return
    with span(RETAIN) as s:
        if t.grad is None:
            t.grad = aten.clone.default(grad, memory_format="contiguous_format")
        else:
            t.grad = aten.add.Tensor(t.grad, grad)
        s.set_result(t.grad)


def _sequence(fn: Node) -> Any:
    return "UINT64_MAX" if isinstance(fn, AccumulateGrad) else fn.sequence_nr


def _add(task: GraphTask, buffer: list[Any], pos: int, var: Any, pending: list[Any]) -> None:
    """InputBuffer::add: the first gradient is kept; a second is added to it
    (InputBuffer::accumulate): into the first in place when grad mode is off and nothing
    else holds the first or its storage and it is dense, else out of place."""
    if var is None:
        return
    old = buffer[pos]
    if old is None:
        buffer[pos] = var
        return
    with span(BUFFER, note="autograd.buffer_accumulate") as s:
        others = [g for i, g in enumerate(buffer) if i != pos] + [var] + list(pending)
        alone = (task.use_count(old, others) == 0
                 and task.storage_use_count(old, others) == 0)
        if not current().grad_enabled and alone and old.view.is_non_overlapping_and_dense:
            buffer[pos] = aten.add_.Tensor(old, var)
        else:
            buffer[pos] = aten.add.Tensor(old, var)
        s.set_result(buffer[pos])


def _validate(grad: TensorImpl, meta: InputMetadata | None,
              who: str = "Function backward returned an", index: int = 0) -> TensorImpl:
    """validate_outputs for one gradient: summed down to the input's shape when it was
    broadcast (at::sum_to), cast to the input's dtype.  ``who`` and ``index``: the
    message's prefix and the edge's number (evaluate_function's format_error names the
    node: "Function ScatterBackward0 returned an invalid gradient at index 1")."""
    if meta is None:
        return grad
    if tuple(grad.view.sizes) != meta.sizes:
        from engine.autograd.formulas import sum_to
        if not _expandable(meta.sizes, tuple(grad.view.sizes)):
            raise torch_error(RuntimeError, (
                f"{who} invalid gradient at index {index} - got "
                f"[{', '.join(map(str, grad.view.sizes))}] but expected shape compatible "
                f"with [{', '.join(map(str, meta.sizes))}]"))
        with span(VALIDATE, note=Note("autograd.sum_to")):
            grad = sum_to(grad, meta.sizes)
    if grad.dtype is not meta.dtype:
        with span(VALIDATE, note=Note("autograd.cast")):
            grad = aten.to.dtype(grad, meta.dtype)
    return grad


def _expandable(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != t and s != 1:
            return False
    return True
