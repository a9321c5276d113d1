"""The autograd graph a statement's tensors hang from, as a typed record of the document
(issue #27): recorded by the Session after the statement ran (a summary at record time),
drawn by the renderers (:mod:`tracer.render.graph`).

A node is named by its simulated address, the one its repr shows
(``<MulBackward0 object at 0x5600000001c0>``), so one node reached from two tensors, or
seen by two statements, is the same node.  docs/trace-format.md's ``graph``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def _check(ok: bool, where: str, wanted: str, got: Any) -> None:
    if not ok:
        raise ValueError(f"{where}: expected {wanted}, got {got!r}")


@dataclass(frozen=True, slots=True)
class SavedTensor:
    """A tensor a node saved for its formula: its name in the formula (``self``), the
    tensor (a name or trace label), the version it was saved at, the version it has now,
    and whether a backward pass freed it."""

    name: str
    tensor: str
    saved_version: int
    version: int
    freed: bool = False
    #: the statement that changed it last since it was saved (its source), if it was
    changed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "tensor": self.tensor, "saved_version": self.saved_version,
               "version": self.version, "freed": self.freed}
        if self.changed_by is not None:
            out["changed_by"] = self.changed_by
        return out

    @classmethod
    def from_json(cls, o: Any, where: str) -> "SavedTensor":
        _check(isinstance(o, dict), where, "an object", o)
        try:
            changed = o.get("changed_by")
            _check(changed is None or isinstance(changed, str), f"{where}.changed_by",
                   "a statement's source", changed)
            return cls(str(o["name"]), str(o["tensor"]), int(o["saved_version"]),
                       int(o["version"]), bool(o.get("freed", False)), changed)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None


@dataclass(frozen=True, slots=True)
class GraphNode:
    """One node: its address, name, sequence number (None for AccumulateGrad, whose
    number is UINT64_MAX), its edges (the address of the next node, or None, and the
    input number), what it saved, and for an AccumulateGrad the leaf and its ``.grad``."""

    id: str
    name: str
    sequence_nr: int | None
    edges: tuple[tuple[str | None, int], ...]
    saved: tuple[SavedTensor, ...] = ()
    variable: str | None = None
    grad: Any = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name,
                               "sequence_nr": self.sequence_nr,
                               "edges": [[t, n] for t, n in self.edges],
                               "saved": [s.to_json() for s in self.saved]}
        if self.variable is not None:
            out["variable"] = self.variable
            out["grad"] = self.grad
        return out

    @classmethod
    def from_json(cls, o: Any, where: str) -> "GraphNode":
        _check(isinstance(o, dict), where, "an object", o)
        edges = o.get("edges", [])
        _check(isinstance(edges, list) and all(
            isinstance(e, list) and len(e) == 2 and (e[0] is None or isinstance(e[0], str))
            and isinstance(e[1], int) for e in edges), f"{where}.edges",
            "a list of [node id or null, input number]", edges)
        seq = o.get("sequence_nr")
        _check(seq is None or isinstance(seq, int), f"{where}.sequence_nr", "an int", seq)
        return cls(str(o["id"]), str(o["name"]), seq, tuple((e[0], e[1]) for e in edges),
                   tuple(SavedTensor.from_json(s, f"{where}.saved[{i}]")
                         for i, s in enumerate(o.get("saved", []))),
                   o.get("variable"), o.get("grad"))

    def short_name(self) -> str:
        return self.name.rsplit("::", 1)[-1]


@dataclass(frozen=True, slots=True)
class Graph:
    """The graph from a statement's tensors: each root (a tensor's name, its grad_fn's
    address, its output number) and every node reachable from them, roots first, then
    as a walk along the edges meets them."""

    roots: tuple[tuple[str, str, int], ...]
    nodes: tuple[GraphNode, ...]
    #: nodes left out past the drawing's limit
    more: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"roots": [list(r) for r in self.roots],
                "nodes": [n.to_json() for n in self.nodes], "more": self.more}

    @classmethod
    def from_json(cls, o: Any, where: str = "graph") -> "Graph":
        _check(isinstance(o, dict), where, "an object", o)
        roots = o.get("roots", [])
        _check(isinstance(roots, list) and all(
            isinstance(r, list) and len(r) == 3 and isinstance(r[0], str)
            and isinstance(r[1], str) and isinstance(r[2], int) for r in roots),
            f"{where}.roots", "a list of [name, node id, output number]", roots)
        return cls(tuple((r[0], r[1], r[2]) for r in roots),
                   tuple(GraphNode.from_json(n, f"{where}.nodes[{i}]")
                         for i, n in enumerate(o.get("nodes", []))),
                   int(o.get("more", 0)))

    def node(self, node_id: str) -> GraphNode | None:
        for n in self.nodes:
            if n.id == node_id:
                return n
        return None
