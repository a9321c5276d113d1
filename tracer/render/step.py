"""``tidx step``: the trace one step at a time, the storage as it is at that step.

Pure functions from the trace document: :func:`steps` flattens the events in call
order (with the path of calls above each), keeping those a filter wants (``--only
seed``, ``--layers``, ``--ops``), and :func:`render` draws step ``k``: where it is,
what it did, and the storages it touched before and after it (from
:mod:`tracer.timeline`: the values recorded up to then, never a later one).
"""

from __future__ import annotations

from typing import Any, Callable

from rich.console import Group, RenderableType
from rich.text import Text

from tracer import i18n
from tracer import numbering
from tracer import timeline as TL
from tracer.document import Document, Event
from tracer.render import format as F
from tracer.render import storage as RS
from tracer.render.tree import LAYER_STYLE, label

Keep = Callable[[Event], bool]


class _Timelines:
    """Each statement's timeline, made when a step of it is first drawn and kept for
    the next steps: a step never rebuilds the whole document's (a long lesson has
    thousands of steps), and stepping through one statement builds it once."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.index = -1
        self.items: list[dict[str, Any]] = []

    def item(self, statement: int, position: int) -> dict[str, Any]:
        if statement != self.index:
            self.items = TL.timeline(self.doc, statement)
            self.index = statement
        return self.items[position]


def steps(doc: Document, keep: Keep | None = None, *, full: bool = True
          ) -> list[dict[str, Any]]:
    """The steps of ``doc`` as :mod:`tracer.numbering` numbers them (``full``: every
    step; else the lecture's), only those ``keep`` accepts (a step that raised is
    always kept: it is where the statement ends), each ``{"statement",
    "statement_index", "path": [names above], "event", "outcome", "position",
    "folded"}``.  The last step of a statement carries its outcome (what Python prints
    after it); a statement that recorded no step (``t.stride()``) is one item whose
    ``event`` is None, so its value is shown.  Each item's pictures come from the
    statement's timeline, made when first drawn."""
    timelines = _Timelines(doc)
    sts = doc.statements
    out: list[dict[str, Any]] = []
    for s in numbering.steps(doc, full=full, keep=keep):
        st = sts[s.statement]
        out.append({"statement": st.source, "statement_index": s.statement,
                    "path": [ev.name for ev in s.path], "event": s.event,
                    "outcome": [], "position": s.position, "folded": s.folded,
                    "timelines": timelines, "filtered": s.filtered})
    for k, item in enumerate(out):
        if k + 1 == len(out) or out[k + 1]["statement_index"] != item["statement_index"]:
            st = sts[item["statement_index"]]
            # an error is already on the step that raised it (and the command ends with it)
            printed = list(st.session.printed) if st.session is not None else []
            item["outcome"] = printed if st.error is not None else F.outcome(st)
    return out


def lectured(doc: Document) -> Keep:
    """The steps the lecture view shows, as a test on the recorded steps (the lecture's
    numbering, :mod:`tracer.numbering`)."""
    return numbering.lectured(doc)


def only(doc: Document, kind: str | None, layers: list[str] | None = None,
         ops: bool = False) -> list[dict[str, Any]]:
    """The steps of ``doc`` ``tidx step`` walks: ``--only seed`` the lecture's (numbered
    as the lecture numbers them), else every step; of those, ``--layers`` the steps of
    the layers given and ``--ops`` the aten operators (as tracer.filters keeps them: a
    step left out is transparent, its kept children follow in call order)."""
    tests: list[Keep] = []
    if layers:
        wanted = set(layers)
        tests.append(lambda ev: ev.layer.value in wanted)
    if ops:
        tests.append(lambda ev: bool(ev.op))
    keep = (lambda ev: all(test(ev) for test in tests)) if tests else None
    return steps(doc, keep, full=kind != "seed")


def frame(item: dict[str, Any]) -> dict[str, Any] | None:
    """The timeline item of a step: its pictures before and after (None for a
    statement that recorded no step)."""
    if item["position"] is None:
        return None
    return item["timelines"].item(item["statement_index"], item["position"])


def _context(item: dict[str, Any]) -> dict[str, Any] | None:
    """Where the step's error happened, for the line explaining it: the statement and
    the calls above the step name the learner's tensor."""
    ev = item["event"]
    if ev.error is None:
        return None
    return i18n.error_context(event=ev, source=item["statement"], path=item["path"])


def render(flat: list[dict[str, Any]], k: int, *, interactive: bool = False,
           lang: str = "en") -> RenderableType:
    """Step ``k`` (0-based) of ``flat``; ``lang`` (``"zh"``) adds the translations."""
    parts = [heading(flat, k, lang), *body(flat, k, lang)]
    if interactive:
        parts.append(keys(lang))
    return Group(*parts)


def heading(flat: list[dict[str, Any]], k: int, lang: str = "en") -> Text:
    """Step ``k``'s first line: its number of all, and the statement it is in (what
    a terminal keeps on screen while the rest of the step is paged)."""
    shown, step = i18n.pair("ui.step.position", lang, number=k + 1, total=len(flat))
    head = Text(f"{shown}  ", style="bold")
    if shown != step:
        head.append(f"{step}  ", style="dim")
    head.append(f">>> {flat[k]['statement']}", style="bold")
    return head


def keys(lang: str = "en") -> Text:
    """The keys of the interactive walk, under the step."""
    return Text(i18n.text("ui.step.keys", lang), style="dim")


def body(flat: list[dict[str, Any]], k: int, lang: str = "en") -> list[RenderableType]:
    """Step ``k`` under its heading: where it is, what it did, the storages it touched
    before and after it, and on a statement's last step what Python prints."""
    item = flat[k]
    ev = item["event"]
    parts: list[RenderableType] = []
    if ev is None:
        why = "ui.step.none_left" if item.get("filtered") else "ui.step.none"
        parts.append(Text("  " + i18n.text(why, lang), style="dim"))
    else:
        where = Text("  " + "  >  ".join(item["path"] + [ev.name]),
                     style=LAYER_STYLE.get(ev.layer.value, ""))
        if item.get("folded"):      # the lecture's "(+11 steps)", as its tree says it
            where.append(" " + i18n.text("ui.lecture.inside_one" if item["folded"] == 1
                                         else "ui.lecture.inside", lang,
                                         count=item["folded"]), style="dim italic")
        parts += [where,
                  label(ev, notes=True, links=False, lang=lang, context=_context(item))]
        at = frame(item)            # a step's item: it has its pictures
        if at is not None:
            parts += _pictures(at, lang)
    parts += [Text(line) for line in item["outcome"]]
    return parts


def _pictures(at: dict[str, Any], lang: str) -> list[RenderableType]:
    """The storages the step touched: a storage it changed as its row of cells before
    the step, then its whole picture after (what changed marked, old -> new); one it
    did not change once, as it is."""
    out: list[RenderableType] = []
    before = {p["storage"]: p for p in at["before"]}
    for p in at["after"]:
        if p["storage"] in at["changes"] and p["storage"] in before:
            out.append(Text(i18n.both("ui.step.before", lang) + ":", style="bold"))
            out.append(RS.StoragePicture(before[p["storage"]], lang=lang, parts=("row",)))
            out.append(Text(i18n.both("ui.step.after", lang) + ":", style="bold"))
        out.append(RS.StoragePicture(p, lang=lang))
    if at["after"] and not at["changes"]:
        out.append(Text(i18n.text("ui.step.unchanged", lang), style="dim"))
    return out
