"""The state at each step: for every step of a statement, in call order, the storage
pictures as they were just before it started and just after it ended.

What ``tidx step``, the HTML stepper and the GIF draw: at step 1 of ``t[1, 2] = 3``
the storage still holds 6 at offset 5; only after ``copy_`` (and its kernel, which
wrote element 5) does it hold 3.  The values come from :mod:`tracer.replay` (the
summaries recorded up to that moment, a kernel's written elements taking the value
the next summary shows), so a step never shows a value written after it.

A timeline is built one statement at a time, in one pass over its steps (linear, as
step.py's ``_remember`` explains: a long lesson has thousands of steps); pictures
are made for the storages each step touches, at most :data:`MAX_STORAGES` of them.
"""

from __future__ import annotations

from typing import Any

from tracer import values as V
from tracer.document import Document, Statement
from tracer.picture import MAX_CELLS, MAX_STORAGES, hidden, picture, touched
from tracer.replay import (ENTER, MISSING, end_tensors, moments, recorded, replay,
                           start_cells, written_inside)


def timeline(doc: Document, statement: int | None = None) -> list[dict[str, Any]]:
    """Every step of the document (or of statement number ``statement``, 0-based) in
    call order, as ``{"statement", "statement_index", "path", "event", "before",
    "after", "changes"}``:

    * ``path``: the names of the steps above it; ``event``: the step (None for a
      statement that recorded no step: one item, with no pictures);
    * ``before``: a :func:`tracer.picture.picture` dict per storage the step touches
      that existed when it started, its cells as they were then; ``after``: the same
      storages (and those the step made) when it ended;
    * ``changes``: storage -> ``[{"offset", "old", "new", "old_known", "new_known"}]``,
      every element the step (or a step inside it) wrote.

    A whole long lesson's timeline holds a picture per step: build one statement's at
    a time (``statement=i``) when only some are drawn.
    """
    sts = doc.statements
    wanted = range(len(sts)) if statement is None else [statement]
    out: list[dict[str, Any]] = []
    for i in wanted:
        out += _statement(sts[i], sts[i - 1] if i else None, i)
    return out


def statement_timeline(st: Statement, prev: Statement | None, index: int
                       ) -> list[dict[str, Any]]:
    """:func:`timeline` of the one statement ``st`` (number ``index``; ``prev``: the
    statement before it)."""
    return _statement(st, prev, index)


def _names(st: Statement, prev: Statement | None) -> dict[str, str]:
    """label -> the user's name, for the tensors the names point to during ``st``: a
    name the statement rebinds is the new tensor's (the old one keeps its label)."""
    by_name: dict[str, str] = {}
    for entry in (prev, st):
        if entry is None:
            continue
        names = entry.session.names if entry.session is not None else {}
        for name, t in names.items():
            if V.is_tensor(t):
                by_name[name] = t["label"]
        for name, b in entry.bindings.items():
            if b is not None and V.is_tensor(b.summary):
                by_name[name] = b.summary["label"]
    return {label: name for name, label in by_name.items()}


class _State:
    """What the walk knows at a moment, besides the cells: each tensor as last
    recorded (a view's geometry), and for each storage the tensor that best stands for
    it (the user's own, else the largest), to draw a storage a step only names."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.latest: dict[str, dict[str, Any]] = {}
        self.best: dict[str, dict[str, Any]] = {}

    def see(self, tensors: list[dict[str, Any]]) -> None:
        for t in tensors:
            if t["label"] in self.names and not V.name(t):
                t = V.with_name(t, self.names[t["label"]])
            self.latest[t["label"]] = t
            s = t["storage"]
            if s not in self.best or _rank(t) > _rank(self.best[s]):
                self.best[s] = t

    def views(self, storage: str, own: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The step's own tensors on ``storage`` (named when the user names them),
        the user's tensors known on it, and the one that best stands for it."""
        mine = [V.with_name(t, self.names[t["label"]])
                if t["label"] in self.names and not V.name(t) else t
                for t in own if t["storage"] == storage]
        named = [self.latest[label] for label in self.names
                 if label in self.latest and self.latest[label]["storage"] == storage]
        best = [self.best[storage]] if storage in self.best else []
        return named + best + mine


def _rank(t: dict[str, Any]) -> tuple[bool, int]:
    return V.name(t) is not None, t["numel"]


def _statement(st: Statement, prev: Statement | None, index: int
               ) -> list[dict[str, Any]]:
    state = _State(_names(st, prev))
    if prev is not None:
        state.see(end_tensors(prev))
    # the user's tensors that existed before the statement, as far as their geometry
    # goes (their values come from the replay): step 1 draws t before any step names it
    state.see(_before(st))
    inside = written_inside(moments(st.events))
    out: list[dict[str, Any]] = []
    open_items: list[tuple[dict[str, Any], dict[str, Any]]] = []     # (item, scratch)
    path: list[str] = []
    source = st.source
    start = start_cells(prev)
    known = set(start) | _existing(st)
    for phase, ev, cells, changed in replay(st, start):
        if phase == ENTER:
            args = recorded(ENTER, ev)
            state.see(args)
            marks: dict[str, dict[int, str]] = {}
            touched(ev, marks)
            result = list(V.tensors(ev.result))
            storages = list(dict.fromkeys([t["storage"] for t in args + result] +
                                          list(marks) + inside.get(id(ev), [])
                                          ))[:MAX_STORAGES]
            known.update(t["storage"] for t in args)
            item: dict[str, Any] = {"statement": source, "statement_index": index, "path": list(path),
                    "event": ev, "before": [], "after": [], "changes": {}}
            # the state now, drawn when the step ends: then its marks are known
            # (copy_'s W is its kernel's write)
            before = [_moment(s, state, args, cells) for s in storages if s in known]
            out.append(item)
            open_items.append((item, {"storages": storages, "marks": marks,
                                      "args": args, "old": {}, "before": before}))
            path.append(ev.name)
            continue
        # the end of a step: its own writes (and its children's) are now in the cells
        item, scratch = open_items.pop()
        path.pop()
        for s, offs in changed.items():
            for opened, sc in open_items + [(item, scratch)]:
                for off, (old, _) in offs.items():
                    sc["old"].setdefault(s, {}).setdefault(off, old)
        result = recorded(phase, ev)
        state.see(result)
        known.update(t["storage"] for t in result)
        known.update(scratch["marks"])
        marks = scratch["marks"]
        for s, offs in scratch["old"].items():
            for off in offs:
                marks.setdefault(s, {})[off] = "written"
        storages = scratch["storages"]
        own = scratch["args"] + result
        item["before"] = [_draw(m, marks.get(m[0], {}), None, hidden(st, m[0]))
                          for m in scratch["before"]]
        item["after"] = [_draw(_moment(s, state, own, cells), marks.get(s, {}),
                               scratch["old"].get(s, {}), hidden(st, s)) for s in storages]
        item["changes"] = {p["storage"]: p["changes"] for p in item["after"]
                           if p["changes"]}
    if not out:
        out.append({"statement": source, "statement_index": index, "path": [],
                    "event": None, "before": [], "after": [], "changes": {}})
    return out


def _before(st: Statement) -> list[dict[str, Any]]:
    """The user's tensors that existed before ``st`` ran: the names it records that it
    did not bind (those it only wrote into, or only read)."""
    if st.session is None:
        return []
    bound = set(st.bindings) - set(st.session.written)
    return [t for name, t in st.session.names.items()
            if name not in bound and V.is_tensor(t)]


def _existing(st: Statement) -> set[str]:
    """The storages of :func:`_before`'s tensors: they exist when the statement starts."""
    return {t["storage"] for t in _before(st)}


def _moment(storage: str, state: _State, own: list[dict[str, Any]], cells: dict[str, Any]
            ) -> tuple[str, list[dict[str, Any]], dict[int, Any], str | None]:
    """What a picture of ``storage`` needs from this moment: the views, a copy of the
    cells (the walk goes on changing them; only those a picture can show) and the view
    to work the offset out through (what the step made on this storage, its result,
    the last of its tensors, else what it was given)."""
    now = {off: v for off, v in cells.get(storage, {}).items() if off < MAX_CELLS}
    focus = next((t["label"] for t in reversed(own) if t["storage"] == storage), None)
    return storage, state.views(storage, own), now, focus


def _draw(moment: tuple, marks: dict[int, str], old: dict[int, Any] | None,
          unrecorded: int = 0) -> dict[str, Any]:
    """The picture of a moment; ``old`` None for the state before a step, which shows
    where the step will write but no change yet; ``unrecorded``: the user's tensors on
    the storage the statement did not record (said as more views)."""
    storage, views, now, focus = moment
    p = picture(storage, views, [], dict(marks), cells=now, focus=focus,
                old={off: v for off, v in (old or {}).items() if v is not MISSING},
                hidden=unrecorded)
    if old is None:
        p["changes"] = []
    return p
