"""The terminal view: one rich Tree per statement, a colour per layer.

A pure function from the trace document to rich renderables; printing is the
caller's business (``cli.py``).  Each step shows its layer, its name (the aten
operator for dispatcher steps), its key values, its result, a one-sentence note
and the PyTorch source file it mirrors, linked at the v2.13.0 tag.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from tracer import allocated
from tracer import values as V
from tracer.render import format as F
from tracer import i18n
from tracer.document import Document, Error, Event, Statement, walk
from tracer.events import LAYERS, source_url
from tracer.lecture import counts, is_folded
from tracer.picture import arithmetic_terms, covers, index_text, only_views
from tracer.render.storage import StoragePicture, collect

#: One colour per layer, outermost warm to innermost cool.
LAYER_STYLE: dict[str, str] = {
    "python": "bold yellow",
    "binding": "magenta",
    "indexing": "cyan",
    "dispatcher": "bold blue",
    "kernel": "green",
    "memory": "red",
    "rng": "bright_magenta",
}


def label(ev: Event, notes: bool = True, links: bool = True, *,
          lang: str = "en", context: dict[str, Any] | None = None) -> Text:
    """One step as the tree shows it: layer, name, key values, result, note, source.

    With ``lang`` other than English the note is shown translated, its English under
    it.  A PyTorch error gets a line explaining it, in the statement's terms when
    ``context`` (:func:`tracer.i18n.error_context`) says where it happened."""
    return _label(ev, notes, links, lang, context)


def note_lines(ev: Event, lang: str) -> list[tuple[str, str]]:
    """A step's note as ``(text, style)`` lines: in ``lang`` first, then the English
    dimmed (just the English when ``lang`` says it the same way)."""
    note, shown = ev.note or "", i18n.note(ev, lang) or ""
    if shown == note:
        return [(note, "italic dim")]
    return [(shown, "italic"), (note, "dim")]


def error_lines(err: Error, lang: str, prefix: str = "",
                context: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """PyTorch's error as it printed it, then a line explaining it in plain words
    (``context``: :func:`tracer.i18n.error_context` of the statement)."""
    lines = [(f"{prefix}{err.type}: {err.message}", "bold red")]
    why = i18n.explain_error(err.message, lang, context or {"type": err.type})
    if why:
        lines.append((f"→ {why}", "red"))
    return lines


def _label(ev: Event, notes: bool, links: bool, lang: str = "en",
           context: dict[str, Any] | None = None) -> Text:
    layer = ev.layer.value
    text = Text()
    text.append(f"{layer:<10}", style=LAYER_STYLE.get(layer, ""))
    text.append(" ")
    text.append(ev.name, style="bold")
    skip = ("keys",) if ev.op else ()
    _values(text, ev, F.args(ev, skip=skip),
            None if ev.result is None else F.value(ev.result))
    if ev.error is not None:
        for line, style in error_lines(ev.error, lang, prefix="raised ", context=context):
            text.append("\n  " + line, style=style)
    if notes and ev.note:
        for line, style in note_lines(ev, lang):
            text.append("\n  " + line, style=style)
    if ev.source:
        url = source_url(ev.source) if links else None
        text.append("\n  " + ev.source, style=f"dim link {url}" if url else "dim")
    return text


#: Arguments the lecture view leaves out: bookkeeping next to the value that matters
#: (``dim_after`` beside ``dim``), or said by the step's name (an operator's kernel).
#: The width a slide's terminal shows (the lecture view's lines are cut to it).
SLIDE_COLUMNS = 100

#: ``simulated``: said once in the lecture's footer instead of on every CUDA step's line
BRIEF_SKIP = ("dim_after", "real_dim", "specified_dims", "outIndices", "kernel", "keys",
              "simulated")


def brief_label(ev: Event, lang: str = "en", inside: int = 0) -> Text:
    """One step on one line, as the lecture view shows it: layer, name, how many steps
    it folds (``inside``), key values in brief (:func:`tracer.render.format.brief`) and
    the result with its geometry.  A folded run (:func:`tracer.lecture.folded`) reads
    ``… 2 more steps: wrapTuple, ...``.  A line longer than the console wraps under its
    step, never cut: the offsets and written elements it shows are what the lecture
    exists to show (issue #28: at 80 columns, the width of a pipe, ``offset=…`` hid
    them); a value without spaces longer than a line folds."""
    text = Text(no_wrap=False, overflow="fold")
    layer = ev.layer.value
    text.append(f"{layer:<10}", style=LAYER_STYLE.get(layer, ""))
    text.append(" ")
    if ev.folded is not None:
        # ids written out whole: tests/tracer/test_notes.py finds every id used by its literal
        text.append(i18n.text("ui.lecture.folded_one" if ev.folded == 1
                              else "ui.lecture.folded", lang,
                              count=ev.folded, names=", ".join(ev.steps or ())),
                    style="dim italic")
        return text
    text.append(ev.name, style="bold")
    if inside:
        text.append(" " + i18n.text("ui.lecture.inside_one" if inside == 1
                                    else "ui.lecture.inside", lang, count=inside),
                    style="dim italic")
    if ev.error is not None:
        text.append(f"  {i18n.text('ui.lecture.raised', lang, error=ev.error.type)}",
                    style="bold red")
    _values(text, ev, F.brief_args(ev, skip=BRIEF_SKIP, first=("written",)),
            None if ev.result is None else F.brief(ev.result, geometry=True))
    return text


def _values(text: Text, ev: Event, pairs: list[tuple[str, str]],
            result: str | None) -> None:
    """A step's key values (``key=value``; the dispatcher's route as ``A -> B``) and
    its result, appended to its line."""
    for key, val in pairs:
        if key == "route":
            text.append(f"  {' -> '.join(V.plain(ev.args['route']))}", style="blue")
            continue
        text.append(f"  {key}=", style="dim")
        text.append(val)
    if result is not None:
        text.append("  -> ", style="dim")
        text.append(result)


def _add(tree: Tree, events: Sequence[Event], notes: bool, links: bool,
         lang: str, context: dict[str, Any] | None = None) -> None:
    for ev in events:
        branch = tree.add(_label(ev, notes, links, lang, context))
        _add(branch, ev.children, notes, links, lang, context)


def _add_brief(tree: Tree, events: Sequence[Event], lang: str, top: bool) -> None:
    """The lecture view's lines: a step's folded children are counted on its own line;
    a folded run with no step above it (the statement's own level) is a line."""
    for ev in events:
        if is_folded(ev) and not top:
            continue
        children = ev.children
        inside = sum(c.folded or 0 for c in children if is_folded(c))
        branch = tree.add(brief_label(ev, lang, inside))
        _add_brief(branch, children, lang, top=False)


def render_statement(st: Statement, *, notes: bool = True, links: bool = True,
                     full: Statement | None = None, lang: str = "en",
                     brief: bool = False, prev: Statement | None = None
                     ) -> RenderableType:
    """One statement: the defaults it used, its step tree, what it produced, and a
    picture of the storage it touched (drawn from ``full``, the unfiltered statement).
    ``brief``: every step on one line (:func:`brief_label`), the lecture view.
    ``prev``: the statement before (unfiltered), which may hold the values a write
    replaced."""
    parts: list[RenderableType] = []
    facts = st.session
    if facts is not None and facts.defaults:
        head = Text(f"{i18n.both('ui.default_names_used', lang)}:\n", style="bold")
        for name, d in facts.defaults.items():
            head.append(f"  {name} = {d.source}", style="")
            head.append(f"  # {i18n.origin(d, lang)}\n", style="dim")
        parts.append(head)
    if facts is not None and facts.comment:
        parts.append(Text(f"# {facts.comment}", style="italic"))
    source = st.source or i18n.both("ui.outside_statement", lang)
    tree = Tree(Text(f">>> {source}", style="bold"), guide_style="dim")
    # where the error happened, read from the unfiltered statement (a filter may hide
    # the step that raised, or the Python call that names the tensor)
    context = i18n.error_context(full or st) if st.error is not None else None
    if brief:
        _add_brief(tree, st.events, lang, top=True)
    else:
        _add(tree, st.events, notes, links, lang, context)
    parts.append(tree)
    parts.extend(_outcome(st, lang, context))
    shown = _shown_labels(st) if brief else None
    for p in collect(full or st, prev):
        if shown is not None:   # the temporaries of folded steps stay folded
            p = only_views(p, shown)
        parts.extend(_plain_storage(p, lang) if brief and _is_plain(p) else
                     [StoragePicture(p, lang=lang)])
    if facts is not None and facts.graph is not None:
        from tracer.render.graph import graph_tree
        parts.append(graph_tree(facts.graph, lang))
    return Group(*parts)


def _shown_labels(st: Statement) -> set[str]:
    """The tensors a (folded) statement's shown steps take or return, by label."""
    found: set[str] = set()
    for _, ev in walk(st.events):
        for val in list(ev.args.values()) + [ev.result]:
            found.update(t["label"] for t in V.tensors(val))
    return found


def _is_plain(p: dict[str, Any]) -> bool:
    """A storage that holds one tensor, all of it, row by row, which the statement only
    filled (``torch.randn(3, 4)``): its grid would repeat the tensor printed above it,
    so the lecture view says it in two lines (where its elements are, one worked out)."""
    if len(p["views"]) != 1 or p.get("more_views"):
        return False
    kinds = set(p["touched"].values())
    return (covers(p["views"][0], p["size"]) and kinds <= {"written"}
            and len(p["touched"]) in (0, p["size"]))


def _plain_storage(p: dict[str, Any], lang: str) -> list[RenderableType]:
    """:func:`_is_plain`'s two lines: the storage and whom it holds, then the offset of
    one element worked out (``x[2, 3] -> offset 0 + 2*4 + 3*1 = 11``)."""
    t = p["views"][0]
    head = Text(i18n.text("ui.lecture.storage", lang, storage=p["storage"], size=p["size"],
                          dtype=p["dtype"], nbytes=p["nbytes"], name=V.shown(t))
                + F.on_device(p, lang), style="bold")
    if p["touched"]:
        head.append(i18n.text("ui.lecture.one_written", lang) if p["size"] == 1 else
                    i18n.text("ui.lecture.all_written", lang, count=p["size"]))
    out: list[RenderableType] = [head]
    a = p.get("arithmetic")
    if a:
        line = Text(f"{a['view']}{index_text(a['index'])} -> ", style="bold")
        line.append(i18n.text("ui.picture.arithmetic", lang, terms=arithmetic_terms(a),
                              result=a["result"]))
        if a["known"]:
            line.append("   " + i18n.text("ui.picture.holds", lang,
                                          value=F.number(a["value"])))
        out.append(line)
    return out


def _outcome(st: Statement, lang: str = "en", context: dict[str, Any] | None = None
             ) -> list[RenderableType]:
    out: list[RenderableType] = []
    facts = st.session
    for line in facts.printed if facts is not None else ():
        out.append(Text(line))
    if st.error is not None:
        out.extend(Text(line, style=style)
                   for line, style in error_lines(st.error, lang, context=context))
        return out
    if facts is not None and facts.result is not None:
        out.append(Text(facts.result.repr))
    for name, val in st.bindings.items():
        if val is not None:
            # indent continuation lines so a multi-line repr stays aligned
            pad = " " * (len(name) + 3)
            out.append(Text(f"{name} = ", style="bold") +
                       Text(val.repr.replace("\n", "\n" + pad)))
    return out


def render(doc: Document, *, notes: bool = True, links: bool = True,
           full: Document | None = None, lang: str = "en",
           brief: bool = False) -> RenderableType:
    """The whole document, statement after statement.

    ``doc`` may be filtered (:mod:`tracer.filters`) or folded (:mod:`tracer.lecture`,
    drawn with ``brief``, one line per step); the storage pictures come from ``full``,
    the unfiltered document, so that hiding steps never hides a write.  ``lang``
    (``"zh"``) shows notes and headings translated, beside their English.
    """
    parts: list[RenderableType] = []
    whole = (full or doc).statements
    for i, st in enumerate(doc.statements):
        if i:
            parts.append(Text(""))
        parts.append(render_statement(st, notes=notes, links=links,
                                      full=whole[i] if i < len(whole) else None, lang=lang,
                                      brief=brief,
                                      prev=whole[i - 1] if 0 < i <= len(whole) else None))
    legend = Text()
    seen = {ev.layer.value for st in doc.statements for ev in _all(st.events)}
    if seen:  # a statement like t.stride() records no step: no layer to name
        legend.append(f"{i18n.both('ui.layers', lang)}: ", style="dim")
    for layer in LAYERS:
        if layer in seen:
            legend.append(f"{i18n.layer(layer, lang)} ", style=LAYER_STYLE[layer])
    seed = None
    if doc.run is not None and doc.run.seed is not None:
        shown, english = i18n.pair("ui.random_seed", lang, seed=doc.run.seed)
        seed = f"  {shown}" + (f"  {english}" if shown != english else "")
    run = (full or doc).run
    if run is not None:
        record = run.allocated  # the session's sum of the run's allocations
        shown, english = allocated.line(record, lang), allocated.line(record)
        line = Text(shown + (f"  {english}" if shown != english else ""), style="dim")
        if seed is not None and brief and len(line.plain) + len(seed) <= SLIDE_COLUMNS:
            line.append(seed)       # a slide's footer: one line for both, no wrap
            seed = None
        parts.append(line)
    if seed is not None and not brief:
        legend.append(seed, style="dim")
    if legend.plain:
        parts.append(legend)
    if seed is not None and brief:      # too long beside the allocations: a line of its own
        parts.append(Text(seed.strip(), style="dim"))
    if brief and any(V.plain(ev.args.get("simulated")) is True
                     for st in (full or doc).statements for ev in _all(st.events)):
        parts.append(Text(i18n.text("ui.lecture.simulated", lang), style="dim"))
    cpu_line = _cpu_line(full or doc, lang)
    if cpu_line is not None:
        parts.append(Text(cpu_line, style="dim"))
    if brief:
        n_shown, n_total = counts(doc)
        if n_shown < n_total:
            parts.append(Text(i18n.text("ui.lecture.hint", lang, shown=n_shown, total=n_total),
                              style="dim"))
    return Group(*parts)


def _cpu_line(doc: Document, lang: str) -> str | None:
    """Which CPU capability the kernels' builds came from, when the command asked for one
    (--cpu-capability) or it is simulated, and a step's result depended on it (a
    ``capability`` argument).  A capability from ATEN_CPU_CAPABILITY is torch's own
    default there, as it is this CPU's without it: not repeated."""
    cpu = doc.run.cpu if doc.run is not None else None
    if cpu is None or (cpu.source != "--cpu-capability" and not cpu.simulated):
        return None
    if not any("capability" in ev.args
               for st in doc.statements for ev in _all(st.events)):
        return None
    id = "ui.cpu.simulated" if cpu.simulated else "ui.cpu.chosen"
    return i18n.text(id, lang, capability=cpu.capability, source=cpu.source, cpu=cpu.cpu)


def _all(events: Sequence[Event]) -> Iterator[Event]:
    for ev in events:
        yield ev
        yield from _all(ev.children)
