"""The autograd graph of a statement (:class:`tracer.graph.Graph`) drawn: a tree from each
root tensor along ``next_functions``, as the backward pass walks it -- in the terminal
(a rich tree), as text lines (markdown) and as nested HTML lists (the stepper, where
the node the backward pass is running is marked).

Each node shows its name and sequence number (the ready queue runs the highest first;
AccumulateGrad first of all), the tensors it saved with the version they were saved at
(and the version they have now, when an in-place write changed them: the backward pass
will refuse), and at a leaf its ``.grad``.  A node reached a second time is named, not
drawn again.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text
from rich.tree import Tree

from tracer import i18n
from tracer.graph import Graph, GraphNode
from tracer.render.format import values_text
from tracer.render.visible import visible


@dataclass(frozen=True)
class Row:
    """One line of the drawing: its depth, the node (None for a root's head, a missing
    edge or the "more" line), and its text in parts (text, style)."""

    depth: int
    node: GraphNode | None
    parts: tuple[tuple[str, str], ...]


def rows(graph: Graph, lang: str = "en") -> list[Row]:
    out: list[Row] = []
    drawn: set[str] = set()
    for name, node_id, nr in graph.roots:
        head = [(f"{name}.grad_fn", "cyan")]
        if nr:
            head.append((f" (output {nr})", "dim"))
        out.append(Row(0, None, tuple(head)))
        _walk(graph, node_id, 1, drawn, out, lang)
    if graph.more:
        out.append(Row(0, None, ((i18n.text("ui.graph.more", lang, n=graph.more), "dim"),)))
    return out


def _walk(graph: Graph, node_id: str, depth: int, drawn: set[str], out: list[Row],
          lang: str) -> None:
    node = graph.node(node_id)
    if node is None:            # past the record's limit
        out.append(Row(depth, None, (("…", "dim"),)))
        return
    if node_id in drawn:
        out.append(Row(depth, node, ((node.short_name() + " ", "bold"),
                                     (i18n.text("ui.graph.again", lang), "dim"))))
        return
    drawn.add(node_id)
    out.append(Row(depth, node, _parts(node, lang)))
    for target, _ in node.edges:
        if target is None:
            out.append(Row(depth + 1, None, (("None", "dim"),)))
        else:
            _walk(graph, target, depth + 1, drawn, out, lang)


def _parts(node: GraphNode, lang: str) -> tuple[tuple[str, str], ...]:
    parts = [(node.short_name(), "bold")]
    if node.variable is not None:
        grad = "None" if node.grad is None else values_text(node.grad)
        parts += [(f"  → {node.variable}", "cyan"), (f"  .grad = {grad}", "")]
        return tuple(parts)
    parts.append((f"  #{node.sequence_nr}", "dim"))
    # a list argument's tensors (index's indices) saved together: one entry
    groups: dict[tuple[str, int, int, bool, str | None], list[str]] = {}
    for s in node.saved:
        groups.setdefault((s.name, s.saved_version, s.version, s.freed, s.changed_by),
                          []).append(s.tensor)
    for (name, saved, now, freed, changed_by), tensors in groups.items():
        shown = tensors[0] if len(tensors) == 1 else f"[{', '.join(tensors)}]"
        parts.append(("  " + i18n.text("ui.graph.saved", lang, name=name, tensor=shown,
                                       version=saved), ""))
        if freed:
            parts.append((" " + i18n.text("ui.graph.freed", lang), "dim"))
        elif now != saved and changed_by is not None:
            parts.append((" " + i18n.text("ui.graph.changed_by", lang, version=now,
                                          statement=" ".join(changed_by.split())),
                          "bold red"))
        elif now != saved:
            parts.append((" " + i18n.text("ui.graph.changed", lang, version=now), "bold red"))
    return tuple(parts)


def graph_tree(graph: Graph, lang: str = "en") -> RenderableType:
    """The terminal's drawing: a rich tree under the statement's storage pictures."""
    root = Tree(Text(i18n.text("ui.graph.title", lang), style="bold"), guide_style="dim")
    stack: list[Tree] = [root]
    for row in rows(graph, lang):
        del stack[row.depth + 1:]
        text = Text()
        for part, style in row.parts:
            text.append(part, style=style)
        stack.append(stack[row.depth].add(text))
    return root


def graph_lines(graph: Graph, lang: str = "en") -> list[str]:
    """The drawing as plain text lines (markdown's fence), indented two spaces a level."""
    return [i18n.text("ui.graph.title", lang)] + [
        "  " * (row.depth + 1) + "".join(p for p, _ in row.parts) for row in rows(graph, lang)]


def escape(text: str) -> str:
    """As tracer.render.html.escape: markup escaped, control characters visible."""
    return html.escape(visible(text))


def graph_html(graph: Graph, lang: str = "en", current: int | None = None) -> str:
    """Nested lists (the stepper's panel); ``current``: the sequence number of the node
    the backward pass is running at this step, marked."""
    out = [f'<div class="autograd"><h3>{escape(i18n.both("ui.graph.title", lang))}</h3>']
    depth = -1
    for row in rows(graph, lang):
        while depth < row.depth:
            out.append("<ul>")
            depth += 1
        while depth > row.depth:
            out.append("</ul>")
            depth -= 1
        mark = (row.node is not None and current is not None
                and row.node.sequence_nr == current and row.node.variable is None)
        text = "".join(f'<span class="{style.replace(" ", "-")}">{escape(p)}</span>'
                       if style else escape(p) for p, style in row.parts)
        out.append(f'<li class="running">{text}</li>' if mark else f"<li>{text}</li>")
    out.append("</ul>" * (depth + 1) + "</div>")
    return "".join(out)
