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

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, part_of, step, symbol

from engine.core.context import current
from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.dispatch.autograd_graph import AccumulateGrad, InputMetadata, Node
from engine.autograd import accumulate_grad
# each registers its formulas; one line per family so each merges on its own
from engine.autograd import formulas_joins  # noqa: F401
from engine.autograd import formulas_math  # noqa: F401
from engine.autograd import formulas_nn  # noqa: F401
from engine.autograd import formulas_pointwise  # noqa: F401
from engine.autograd import formulas_reduce  # noqa: F401
from engine.autograd import formulas_scatter  # noqa: F401
from engine.autograd import formulas_views  # noqa: F401
from engine.autograd.formulas import APPLY, call_node
from engine.autograd.graph_task import GraphTask, Running

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
HOOK = step("tensor hook", Layer.DISPATCHER, source=SOURCE, note="autograd.tensor_hook",
            libtorch=part_of("torch::autograd::call_tensor_pre_hooks"))
RETAIN = step("retains_grad hook", Layer.DISPATCHER,
              source="torch/csrc/autograd/variable.cpp", note="autograd.retain_grad",
              libtorch=part_of("torch::autograd::VariableHooks::retain_grad"))
VALIDATE = step("validate_outputs", Layer.DISPATCHER, source=SOURCE,
                libtorch=part_of("torch::autograd::validate_outputs"))


def execute(root: TensorImpl, grad: TensorImpl, keep_graph: bool,
            create_graph: bool = False, inputs: list[TensorImpl] | None = None,
            allow_unused: bool = False) -> list[Any] | None:
    """Engine::execute for one root and its gradient, grad mode as ``create_graph``
    (False: the formulas record no graph).  ``inputs`` (torch.autograd.grad): only the
    nodes on a path to them run, and their gradients are returned instead of being
    accumulated into ``.grad``."""
    node, input_nr = _root_edge(root)
    with span(EXECUTE, keep_graph=keep_graph, create_graph=create_graph) as s:
        task = GraphTask(keep_graph, held=[grad])
        # validate_outputs on the roots: the metadata of the output itself
        grad = _validate(grad, InputMetadata.of(root))
        with span(DEPENDENCIES) as d:
            task.dependencies = _dependencies(node)
            d.set_result(", ".join(f"{n.name()}: {c}" for n, c in task.dependencies.items())
                         or "none")
        if inputs is not None:
            _init_to_execute(task, node, inputs)
        buffer: list[Any] = [None] * _num_inputs(node)
        buffer[input_nr] = grad
        ctx = current()
        mode, ctx.grad_enabled = ctx.grad_enabled, create_graph
        running = ctx.local(Running)
        outer, running.task = running.task, task
        try:
            task.push(node, buffer)
            while task.heap:
                fn, buffered = task.pop()
                _evaluate(task, fn, buffered)
        finally:
            ctx.grad_enabled = mode
            running.task = outer
        if inputs is None:
            s.set_result(None)
            return None
        unused = [i for i, g in enumerate(task.captured) if g is None]
        if unused and not allow_unused:
            raise torch_error(RuntimeError, f"The differentiated Tensor at index {unused[0]} "
                                            "appears to not have been used in the graph. Set "
                                            "allow_unused=True if this is the desired "
                                            "behavior.")
        s.set_result(task.captured)
        return task.captured


def _init_to_execute(task: GraphTask, root: Node, inputs: list[TensorImpl]) -> None:
    """GraphTask::init_to_execute: each input's edge (its grad_fn, or the AccumulateGrad
    a leaf already has) captures; the nodes on a path from the root to one are needed."""
    task.accumulate_grad = False
    task.captured = [None] * len(inputs)
    targets: set[Node] = set()
    for i, t in enumerate(inputs):
        fn, nr = (t.grad_fn, t.output_nr) if t.grad_fn is not None else (t.grad_accumulator, 0)
        if fn is not None:
            task.captures.setdefault(fn, []).append((nr, i))
            targets.add(fn)
    needed: set[Node] = set()
    memo: dict[Node, bool] = {}

    def leads(fn: Node) -> bool:
        if fn in memo:
            return memo[fn]
        memo[fn] = False
        found = fn in targets
        for nxt, _ in fn.next_functions:
            if nxt is not None and leads(nxt):
                found = True
        memo[fn] = found
        if found and fn not in targets:
            needed.add(fn)
        return found

    leads(root)
    # an input's own node runs too when it also leads to another input
    task.needed = needed | {fn for fn in targets if any(
        nxt is not None and memo.get(nxt) for nxt, _ in fn.next_functions)}


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
        for input_nr, index in task.captures.get(fn, ()):
            task.captured[index] = inputs[input_nr]     # torch.autograd.grad's result
        if task.needed is not None and fn not in task.needed:
            ev.set_result(None)
            return          # an input's node that leads nowhere needed: captured only
        _tensor_hooks(fn, inputs)
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
                if not task.should_execute(nxt):
                    continue        # a node this grad() does not need
                buffer = [None] * _num_inputs(nxt)
            # the outputs vector holds each output until the node's turn ends, except one
            # moved into an empty slot (InputBuffer::add takes a Variable&&: only the
            # first gradient of a slot is moved; an accumulated one stays referenced)
            others = [o for j, o in enumerate(outputs) if j != i and o is not None]
            if _add(task, buffer, input_nr, outputs[i], others):
                outputs[i] = None
            if ready:
                task.push(nxt, buffer)
            else:
                task.not_ready[nxt] = buffer
        ev.set_result(None)


def _tensor_hooks(fn: Node, inputs: list[Any]) -> None:
    """call_tensor_pre_hooks: each register_hook'ed function on the gradient flowing into
    that output, in order; a tensor it returns replaces the gradient."""
    for nr, hooks in fn.tensor_hooks.items():
        for hook in list(hooks.values()):
            if nr < len(inputs) and inputs[nr] is not None:
                with span(HOOK) as s:
                    out = hook(inputs[nr])
                    if out is not None:
                        inputs[nr] = out
                    s.set_result(inputs[nr])


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


def _add(task: GraphTask, buffer: list[Any], pos: int, var: Any, pending: list[Any]) -> bool:
    """InputBuffer::add: the first gradient is kept; a second is added to it
    (InputBuffer::accumulate): into the first in place when grad mode is off and nothing
    else holds the first or its storage and it is dense, else out of place.  True when
    ``var`` was moved into an empty slot."""
    if var is None:
        return False
    old = buffer[pos]
    if old is None:
        buffer[pos] = var
        return True
    with span(BUFFER, note="autograd.buffer_accumulate") as s:
        others = [g for i, g in enumerate(buffer) if i != pos] + [var] + list(pending)
        alone = (task.use_count(old, others) == 0
                 and task.storage_use_count(old, others) == 0)
        if not current().grad_enabled and alone and old.view.is_non_overlapping_and_dense:
            buffer[pos] = aten.add_.Tensor(old, var)
        else:
            buffer[pos] = aten.add.Tensor(old, var)
        s.set_result(buffer[pos])
    return False


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
