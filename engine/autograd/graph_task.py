"""torch::autograd::GraphTask: the state of one backward pass (the dependencies left, the
input buffers of the nodes not ready yet, the ready queue as std::priority_queue orders
it, torch.autograd.grad's exec_info and captures), and which task the run is in now
(the formulas ask it which of their edges need a gradient)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.context import current
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.autograd_graph import Node


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
    #: torch.autograd.grad's exec_info: the nodes on a path to an input (None: run all)
    needed: set[Node] | None = None
    #: where each input's gradient is captured: node -> [(its input number, result index)]
    captures: dict[Node, list[tuple[int, int]]] = field(default_factory=dict)
    captured: list[Any] = field(default_factory=list)
    #: backward() accumulates into the leaves' .grad; grad() only captures
    accumulate_grad: bool = True

    def should_execute(self, fn: Node) -> bool:
        """ExecInfo::should_execute: every node without ``inputs``; else the nodes on a
        path to an input, and the inputs' own nodes (which only capture)."""
        return self.needed is None or fn in self.needed or fn in self.captures

    # -- reference counts --------------------------------------------------------------
    def use_count(self, t: TensorImpl, extra: Sequence[Any] = ()) -> int:
        """How many holders the engine knows of ``t`` itself."""
        return sum(1 for h in self._holders(extra) if h is t)

    def storage_use_count(self, t: TensorImpl, extra: Sequence[Any] = ()) -> int:
        held = self._holders(extra) + ([t.view_base] if t.view_base is not None else [])
        return sum(1 for h in {id(h): h for h in held}.values()
                   if h.storage is t.storage and h is not t)

    def _holders(self, extra: Sequence[Any]) -> list[TensorImpl]:
        """Every reference the engine knows of: the roots' gradients, the input buffers,
        the outputs not handed on -- and the base each view among them keeps alive (a
        view made in the backward pass is still a differentiable view of its base)."""
        out = list(self.held)
        for buffer in self.not_ready.values():
            out += [g for g in buffer if g is not None]
        for _, buffer in self.heap:
            out += [g for g in buffer if g is not None]
        out += [g for g in extra if g is not None]
        return out + [g.view_base for g in out if g.view_base is not None]

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


class Running:
    """The graph task the backward pass is running (the formulas ask it which edges
    need a gradient: task_should_compute_output); None outside one."""

    def __init__(self) -> None:
        self.task: GraphTask | None = None


def should_compute(node: Node, i: int) -> bool:
    """Node::task_should_compute_output(i): edge ``i`` leads somewhere this pass runs."""
    nxt = node.next_functions[i][0]
    if nxt is None:
        return False
    task = current().local(Running).task
    return task is None or task.should_execute(nxt)
