"""The sequence diagram as data: lifelines, messages in time order, activation bars.

One model, several drawings: :mod:`tracer.render_dot` gives it coordinates and
:mod:`tracer.render_mermaid` writes it as mermaid text, so both show the same
arrows with the same labels.  Built from the trace document alone.

Rules that keep a 60-step trace readable:

* a call is one row: an arrow from the caller's activation bar to the callee's;
* a return gets its own (dashed) row only when it crosses lifelines or carries an
  error; a step that stays on its caller's lifeline shows its result on its call;
* for mermaid, labels are cut to :data:`MAX_LABEL` characters (mermaid has no line
  wrapping); ``build(doc, full=True)`` (the Graphviz drawings) keeps every character,
  and the drawing wraps long labels onto more lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracer import i18n
from tracer import values as V
from tracer.render import format as F
from tracer.document import Document, Event, Statement, walk
from tracer.events import LAYERS, source_url

#: Pastel fill and dark ink per layer; the hues follow the terminal tree's colours.
COLORS: dict[str, tuple[str, str]] = {
    "python": ("#fff1bf", "#8a6100"),
    "binding": ("#f7d9f8", "#8e2a91"),
    "indexing": ("#cdf0f4", "#00707c"),
    "dispatcher": ("#d6e2fb", "#1f4fbf"),
    "kernel": ("#d7f0d5", "#21741f"),
    "memory": ("#f9d6d2", "#b3261e"),
    "rng": ("#eadcfb", "#6a2bb0"),
}

#: Longest label text (name + key values) drawn on an arrow.
MAX_LABEL = 84


@dataclass(slots=True)
class Row:
    """One row of the diagram: a statement title, a call or a return."""

    kind: str                 # "statement" | "call" | "return" | "value" (a note) |
    #                           "graph" (a line of the autograd graph's drawing)
    src: str | None           # lifeline (layer) the arrow leaves; None: the user
    dst: str | None           # lifeline it reaches; None: the user
    name: str                 # step name, result, statement source, or a value's text
    detail: str = ""          # key values, already short
    src_level: int = 0        # nesting of the bar the arrow leaves on its lifeline
    dst_level: int = 0
    error: bool = False
    note: str | None = None
    url: str | None = None


@dataclass(slots=True)
class Activation:
    """A step's bar on its lifeline, from its call row to its last row."""

    lane: str
    level: int
    start: int
    end: int
    error: bool = False


@dataclass(slots=True)
class Sequence:
    lanes: list[str]
    rows: list[Row] = field(default_factory=list)
    activations: list[Activation] = field(default_factory=list)


def clip(text: str, limit: int = MAX_LABEL) -> str:
    """Cut text to ``limit`` characters, marking the cut.

    >>> clip("abcdef", 4)
    'abc…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def details(ev: Event, whole: bool = False) -> str:
    """The key values of a step as one line (the route for an operator); ``whole``:
    tensor values not cut (a drawing that wraps them)."""
    args = ev.args
    if ev.op and "route" in args:
        text = " → ".join(V.plain(args["route"]))
        if "kernel" in args:
            text += f"  ⇒ {F.value(args['kernel'], whole=whole)}"
        return text
    pairs = F.args(ev, skip=("keys",), whole=whole)
    # the elements a kernel read or wrote are the point of the step: show them first
    pairs.sort(key=lambda kv: kv[0] not in ("written", "read"))
    return "  ".join(f"{k}={v}" for k, v in pairs)


def statement_title(st: Statement) -> str:
    """``>>> source`` on one line (a statement from a file may span several).

    >>> statement_title(Statement("torch.randn(3,\\n    4)"))
    '>>> torch.randn(3, 4)'
    """
    return ">>> " + " ".join((st.source or "").split())


def result_text(value: Any, whole: bool = False) -> str:
    return F.value(value, whole=whole) if value is not None else ""


def build(doc: Document, *, full: bool = False, lang: str = "en", graphs: bool = False
          ) -> Sequence:
    """The sequence model of a whole document (statements one after another).

    ``full``: no label is cut, and each statement that raised ends with PyTorch's
    error as Python prints it, then the line explaining it in ``lang``, then what the
    lesson printed, so a slide shows it even when the step that raised was filtered
    out.  ``graphs``: each statement's autograd graph follows its value as "graph" rows
    (mermaid's note; the Graphviz drawing draws it under the storage pictures instead).
    """
    cut = (lambda text, limit=MAX_LABEL: text) if full else clip
    seen = {ev.layer.value for st in doc.statements for _, ev in walk(st.events)}
    seq = Sequence(lanes=[layer for layer in LAYERS if layer in seen])
    active: dict[str, int] = {lane: 0 for lane in seq.lanes}
    shown: set[str] = set()

    def brief(ev: Event, text: str) -> str:
        """A value already shown on an earlier return is named, not repeated."""
        if ev.layer == "python":  # the statement's own value: always in full
            return text
        if text in shown and ev.result is not None and V.is_tensor(ev.result):
            return f"{V.shown(ev.result)} (as above)"
        shown.add(text)
        return text

    def visit(ev: Event, caller: str | None, caller_level: int) -> str | None:
        """Add the rows of one step; the type of an error that passed through it."""
        lane = ev.layer.value
        level = active[lane]
        active[lane] += 1
        start = len(seq.rows)
        same = lane == caller
        name = cut(ev.name, 48)
        detail = details(ev, whole=full)
        result = result_text(ev.result, whole=full)
        if same and result:  # no return row: the result goes on the call
            detail = f"{detail} → {result}" if detail else f"→ {result}"
        detail = cut(detail, max(MAX_LABEL - len(name) - 1, 12)) if detail else ""
        seq.rows.append(Row("call", caller, lane, name, detail, caller_level, level,
                            note=ev.note, url=source_url(ev.source)))
        raised = None
        for child in ev.children:
            raised = visit(child, lane, level) or raised
        err = ev.error
        if err is not None:  # the step that raised: its own return row, with PyTorch's message
            raised = err.type
            seq.rows.append(Row("return", lane, caller,
                                cut(f"raises {err.type}: {err.message}"),
                                src_level=level, dst_level=caller_level, error=True))
        elif not same and (result or raised):  # an empty return would only add a row
            seq.rows.append(Row("return", lane, caller,
                                f"raises {raised}" if raised else brief(ev, cut(result)),
                                src_level=level, dst_level=caller_level,
                                error=raised is not None))
        seq.activations.append(Activation(lane, level, start, len(seq.rows) - 1,
                                          raised is not None))
        active[lane] -= 1
        return raised

    for st in doc.statements:
        shown.clear()
        seq.rows.append(Row("statement", None, None, statement_title(st)))
        for ev in st.events:
            visit(ev, None, 0)
        # a value that is no tensor (an int, a torch.Size) is on no arrow: say it here
        seq.rows += [Row("value", None, None, cut(line)) for line in F.value_lines(st)]
        if graphs and st.session is not None and st.session.graph is not None:
            # the autograd graph the statement's tensors hang from (as the terminal
            # draws it under the storage pictures), a line a row
            from tracer.render.graph import graph_lines
            seq.rows += [Row("graph", None, None, line)
                         for line in graph_lines(st.session.graph, lang)]
        err = st.error
        if full and err is not None:
            seq.rows.append(Row("value", None, None, f"{err.type}: {err.message}",
                                error=True))
            why = i18n.explain_error(err.message, lang, i18n.error_context(st))
            if why:
                seq.rows.append(Row("value", None, None, why))
        if full and st.session is not None:  # print(e) in a lesson's except: what it shows
            seq.rows += [Row("value", None, None, str(line)) for line in st.session.printed]
    return seq

