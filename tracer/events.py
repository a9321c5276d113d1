"""The event model: one step of PyTorch's path, as plain data.

An :class:`Event` is what the engine records for one step (``applySelect``,
``aten::select``, ``computeStorageNbytesContiguous`` ...).  Events nest by call:
a step's children are the steps it ran.  Everything in an event is plain data
(str, int, float, bool, None, lists and dicts of those), so a trace can be
saved as JSON and drawn later without the engine.

The layers mirror PyTorch's own layering (see ``design.md``); their order here is
the order of the lifelines in diagrams.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracer import document as D
from tracer import symbols
from tracer.steps import Layer, Lecture

#: Layers, outermost first.  Each maps to a human title used by renderers.
LAYERS: dict[str, str] = {
    "python": "Python",
    "binding": "C++ binding",
    "indexing": "TensorIndexing",
    "dispatcher": "Dispatcher",
    "kernel": "Kernel",
    "memory": "Memory",
    "rng": "RNG",
}

#: The PyTorch tag whose sources the trace's ``source`` paths refer to.
PYTORCH_TAG = "v2.13.0"
PYTORCH_BLOB = f"https://github.com/pytorch/pytorch/blob/{PYTORCH_TAG}/"


def source_url(source: str | None) -> str | None:
    """Link to a PyTorch source file at the mirrored tag.

    >>> source_url("aten/src/ATen/TensorIndexing.h")
    'https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/TensorIndexing.h'
    >>> source_url(None) is None
    True
    """
    if not source:
        return None
    return PYTORCH_BLOB + source


@dataclass(slots=True)
class Event:
    """One recorded step.  ``args``/``result`` hold already-summarised values; ``note``
    is the English text of the note ``note_id`` with the parameters ``note_args``."""

    name: str
    layer: str
    op: str | None = None
    source: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    note: str | None = None
    note_id: str | None = None
    note_args: dict[str, Any] | None = None
    children: list["Event"] = field(default_factory=list)
    error: dict[str, str] | None = None
    #: from the step's spec (tracer/steps.py): how the lecture view treats it, and the
    #: function of libtorch gdb breaks on (None: an event made without a spec)
    lecture: str | None = None
    libtorch: Any = None
    #: what the step counts for in tracer/allocated.py's record (tracer.steps.Counted);
    #: read while recording, not a field of the JSON (the record itself is)
    counted: str | None = None

    def freeze(self) -> "D.Event":
        """The step as the document keeps it (tracer/document.py), once it has closed."""
        libtorch = symbols.answer(self.libtorch, {"name": self.name, "layer": self.layer,
                                                  "args": self.args})
        return D.Event(
            name=self.name, layer=Layer(self.layer), op=self.op, source=self.source,
            args=self.args, result=self.result, note=self.note, note_id=self.note_id,
            note_args=self.note_args,
            error=None if self.error is None else D.Error(self.error["type"],
                                                          self.error["message"]),
            libtorch=D.Libtorch(**libtorch), lecture=Lecture(self.lecture or "shown"),
            children=tuple(c.freeze() for c in self.children))


def walk(events: list[dict[str, Any]], depth: int = 0):
    """Yield ``(depth, event)`` for event dicts in call order (pre-order).

    >>> evs = [{"name": "a", "children": [{"name": "b", "children": []}]}]
    >>> [(d, e["name"]) for d, e in walk(evs)]
    [(0, 'a'), (1, 'b')]
    """
    for ev in events:
        yield depth, ev
        yield from walk(ev.get("children", []), depth + 1)


def op_tree(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The aten operators of a trace with their nesting depth, as the profiler lists them.

    Non-operator steps are transparent: an operator's depth counts only the
    operators above it.

    >>> evs = [{"name": "x", "op": None, "children": [
    ...     {"name": "aten::select", "op": "aten::select", "children": [
    ...         {"name": "y", "op": None, "children": [
    ...             {"name": "aten::as_strided", "op": "aten::as_strided", "children": []}]}]}]}]
    >>> op_tree(evs)
    [(0, 'aten::select'), (1, 'aten::as_strided')]
    """
    out: list[tuple[int, str]] = []

    def visit(evs: list[dict[str, Any]], depth: int) -> None:
        for ev in evs:
            if ev.get("op"):
                out.append((depth, ev["op"]))
                visit(ev.get("children", []), depth + 1)
            else:
                visit(ev.get("children", []), depth)

    visit(events, 0)
    return D.profiler_merged(out)

