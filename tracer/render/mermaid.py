"""Mermaid text of a trace: the sequence diagram, or the call tree as a flowchart.

The same model as the Graphviz drawing (:mod:`tracer.diagram`), so both show the
same arrows.  Mermaid reads ``;`` as a line break and ``#...;`` as an entity, and
renders ``<``/``>``/``&`` as HTML: every piece of user text goes through
:func:`escape`, which also shows control and bidirectional characters as escapes
(:mod:`tracer.render.visible`) and keeps each label on its line.
"""

from __future__ import annotations

from tracer.document import Document, Event
from tracer.render import diagram
from tracer.render import format as F
from tracer.render.diagram import COLORS
from tracer.render.graph import graph_lines
from tracer.events import LAYERS
from tracer.render.visible import one_line

_ENTITIES = {"#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", "&": "#amp;",
             '"': "#quot;", "%": "#37;", "`": "#96;"}


def escape(text: str) -> str:
    r"""User text as mermaid shows it literally (one line, entities for its syntax,
    control characters visible).

    >>> escape('t[0]; #x <b> "q" 50%')
    't[0]#59; #35;x #lt;b#gt; #quot;q#quot; 50#37;'
    >>> print(escape("a\nb\x1b --> %%{init}"))
    a b\x1b --#gt; #37;#37;{init}
    """
    text = one_line(text)
    return "".join(_ENTITIES.get(c, c) for c in text)


def sequence(doc: Document) -> str:
    """``sequenceDiagram``: an actor for the user, a participant per layer."""
    seq = diagram.build(doc, graphs=True)
    lines = ["sequenceDiagram", "    actor you"]
    lines += [f"    participant {lane} as {escape(LAYERS[lane])}" for lane in seq.lanes]
    ends: dict[int, list[diagram.Activation]] = {}
    for act in seq.activations:  # post-order: the innermost bar comes first
        ends.setdefault(act.end, []).append(act)
    span = f"you,{seq.lanes[-1]}" if seq.lanes else "you"
    graph: list[str] = []
    for i, row in enumerate(seq.rows):
        if row.kind == "graph":
            # one note for the whole drawing, its indentation kept (#160;: a space
            # mermaid does not collapse)
            depth = len(row.name) - len(row.name.lstrip(" "))
            graph.append("#160;" * depth + escape(row.name.lstrip(" ")))
            if i + 1 == len(seq.rows) or seq.rows[i + 1].kind != "graph":
                lines.append(f"    Note over {span}: {'<br/>'.join(graph)}")
                graph = []
            continue
        src, dst = row.src or "you", row.dst or "you"
        closing = ends.get(i, [])
        if row.kind == "statement":
            lines.append(f"    Note over {span}: {escape(row.name)}")
        elif row.kind == "value":
            lines.append(f"    Note right of you: {escape(row.name)}")
        elif row.kind == "call":
            text = " ".join(p for p in (row.name, row.detail) if p)
            lines.append(f"    {src}->>+{dst}: {escape(text)}")
        else:
            # a return closes the bar it leaves: "-" deactivates src
            arrow = "--x" if row.error else "-->>"
            lines.append(f"    {src}{arrow}-{dst}: {escape(row.name) or ' '}")
            closing = [a for a in closing if not (a.lane == row.src and a.level == row.src_level)]
        lines += [f"    deactivate {a.lane}" for a in closing]
    return "\n".join(lines) + "\n"


def calls(doc: Document) -> str:
    """``flowchart LR``: the nested calls as a tree, a colour class per layer."""
    lines = ["flowchart LR"]
    count = 0

    def add(ev: Event, parent: str) -> None:
        nonlocal count
        count += 1
        name = f"e{count}"
        parts = [escape(diagram.clip(ev.name, 48))]
        detail = diagram.details(ev)
        if detail:
            parts.append(escape(diagram.clip(detail, 44)))
        result = diagram.result_text(ev.result)
        if result:
            parts.append(escape("→ " + diagram.clip(result, 44)))
        if ev.error is not None:
            parts.append(escape(f"raises {ev.error.type}: {ev.error.message}"))
        # (a layer is one of the documented ones: Document.from_json refuses any other,
        # so the class name standing unquoted in the line is one of COLORS')
        lines.append(f'    {name}["{"<br/>".join(parts)}"]:::{ev.layer.value}')
        lines.append(f"    {parent} --> {name}")
        for child in ev.children:
            add(child, name)

    for i, st in enumerate(doc.statements):
        title = [diagram.statement_title(st)] + [diagram.clip(v) for v in F.value_lines(st)]
        lines.append(f'    s{i}["{"<br/>".join(escape(t) for t in title)}"]')
        for ev in st.events:
            add(ev, f"s{i}")
        if st.session is not None and st.session.graph is not None:
            # the autograd graph the statement's tensors hang from, its lines in one box
            text = "<br/>".join("#160;" * (len(line) - len(line.lstrip(" "))) +
                                escape(line.lstrip(" "))
                                for line in graph_lines(st.session.graph))
            lines.append(f'    g{i}["{text}"]')
            lines.append(f"    s{i} -.- g{i}")
    for layer, (fill, ink) in COLORS.items():
        lines.append(f"    classDef {layer} fill:{fill},stroke:{ink},color:{ink}")
    return "\n".join(lines) + "\n"


def render(doc: Document, diagram_kind: str = "sequence") -> str:
    """The chosen diagram as mermaid text."""
    return sequence(doc) if diagram_kind == "sequence" else calls(doc)
