"""The storage picture of a statement as it is at each of its steps.

:func:`tracer.render.storage.collect` draws a statement's storages as they are at its
end.  A stepper needs them at every step: before ``copy_`` the element ``t[1, 2]``
still reads 6, from the kernel that writes it on it reads 3.  Nothing is re-run: the
values come from what the trace recorded, placed in time by when the recorder took
them:

* an argument is summarised when its step starts: it shows the state *before* that
  step (time ``i - 0.5`` for the step at position ``i`` of the statement's pre-order);
* a result is summarised when its step returns, after every step inside it: it shows
  the state after the last of them (time ``end(i)``);
* the statement's bindings and result are the state after its last step;
* a kernel's ``written`` elements change at that kernel's step; their new values are
  the first record taken at or after it (the value is not in the write itself).

An element of a storage older than the statement (earlier statements left it, or the
user's tensor is used without being bound: ``t`` in ``t[1, 2] = 3``) had, before its
first record, the value that record shows if it is an argument taken before anything
wrote the element; otherwise it is not known (drawn ``·``).  Such storages and the
user's tensors on them are drawn from the first step; the others from the step they
are first seen (an argument at its step, a result at its step's end).

Pure: plain dicts of the trace document in, the picture dicts of
:mod:`tracer.render.storage` out, where ``touched`` is what *this* step read or wrote,
and one key more: ``earlier`` (offset -> ``"written"``: written by an earlier step of
the statement).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from tracer import values as V
from tracer.document import Event, Statement, walk
from tracer.picture import hidden
from tracer.render import storage as RS
from tracer.replay import values_of
from tracer.steps import Layer

_GONE = object()  # no value at the step before
_START = -1.0   # "before the statement": a tensor first seen as an argument existed then


def _flat(values: Any):
    if isinstance(values, list):
        for v in values:
            yield from _flat(v)
    else:
        yield values


def _storages_in(value: Any):
    """Labels of the storages a typed value names (tensors, storages, elements)."""
    k = V.kind(value)
    if k in ("tensor", "elements"):
        yield value["storage"]
    elif k == "storage":
        yield value["label"]
    for child in V.children(value):
        yield from _storages_in(child)


def _ends(events: tuple[Event, ...]) -> list[int]:
    """For each event in pre-order, the position of the last step inside it."""
    ends: list[int] = []

    def visit(evs: tuple[Event, ...]) -> None:
        for ev in evs:
            me = len(ends)
            ends.append(me)
            visit(ev.children)
            ends[me] = len(ends) - 1

    visit(events)
    return ends


class _Timeline:
    """Every record of a statement's elements, views and storages, in time order."""

    def __init__(self, st: Statement, before: dict[tuple[str, int], Any]) -> None:
        self.before = before
        self.flat = [ev for _, ev in walk(st.events)]
        self.last = max(len(self.flat) - 1, 0)
        ends = _ends(st.events)
        # (storage, offset) -> [(time, value)], kept sorted by time at the end
        self.seen: dict[tuple[str, int], list[tuple[float, Any]]] = {}
        self.writes: dict[tuple[str, int], list[float]] = {}
        self.first_view: dict[str, float] = {}      # tensor label -> first time seen
        self.first_storage: dict[str, float] = {}   # storage label -> first time seen
        named: list[dict[str, Any]] = []
        for i, ev in enumerate(self.flat):
            for key, val in ev.args.items():
                named += self._record(val, i - 0.5)
                if V.kind(val) == "elements" and key == "written":
                    for off in val.get("offsets", []):
                        self.writes.setdefault((val["storage"], off), []).append(float(i))
            named += self._record(ev.result, float(ends[i]), shown_from=float(i))
        self._allocated_first(ends)
        for b in st.bindings.values():
            if b is not None:
                named += self._record(b.summary, float(self.last))
        facts = st.session
        if facts is not None and facts.result is not None:
            named += self._record(facts.result.summary, float(self.last))
        for history in self.seen.values():
            history.sort(key=lambda tv: tv[0])
        self.times = {key: [t for t, _ in h] for key, h in self.seen.items()}
        # what existed before the statement: what earlier statements left, and the user's
        # tensors this statement uses without binding them (t in t[1, 2] = 3, a default
        # name; y in y[0, 1] = 0): drawn from its first step, though first recorded later
        bound = set(st.bindings) - set(facts.written if facts is not None else ())
        self.old = {s for s, _ in before}
        for t in named:
            if V.name(t) not in bound:
                self.old.add(t["storage"])
                self.first_view[t["label"]] = _START
        for s in self.old:
            self.first_storage[s] = _START

    def _allocated_first(self, ends: list[int]) -> None:
        """A storage is first recorded by the step that makes its StorageImpl, right
        after the allocator's step that returned its bytes (``nbytes`` and no storage
        of its own): drawn from that step on, its bytes uninitialised, so the panel of
        the allocation shows the memory it made."""
        for i in range(1, len(self.flat)):
            alloc, made = self.flat[i - 1], self.flat[i]
            if alloc.layer != Layer.MEMORY or "nbytes" not in alloc.args or \
                    any(_storages_in(alloc.result)) or alloc.children:
                continue
            for s in _storages_in(made.result):
                if self.first_storage.get(s) == float(ends[i]):
                    self.first_storage[s] = float(i - 1)

    def _record(self, value: Any, time: float, shown_from: float | None = None
                ) -> list[dict[str, Any]]:
        """Note what ``value`` shows at ``time`` (an argument: its step's start, ``i -
        0.5``; a result: its step's end); returns the user's tensors in it.  A result's
        view is drawn ``shown_from`` its own step, whose panel says it returns it (its
        elements' values only from the step's end, after the steps inside it)."""
        for s in _storages_in(value):
            self.first_storage[s] = min(self.first_storage.get(s, time), time)
        named = []
        born = time if shown_from is None else shown_from
        for t in V.tensors(value):
            self.first_view[t["label"]] = min(self.first_view.get(t["label"], born), born)
            if V.name(t):
                named.append(t)
            if "values" not in t or t["device"] == "meta":
                continue
            for off, v in values_of(t):
                self.seen.setdefault((t["storage"], off), []).append((time, v))
        return named

    def value(self, key: tuple[str, int], k: int) -> Any:
        """The element's value at step ``k`` (None: not known, or never written)."""
        history = self.seen.get(key, [])
        times = self.times.get(key, [])
        writes = self.writes.get(key, [])
        w = writes[bisect_right(writes, k) - 1] if writes and writes[0] <= k else None
        at = bisect_right(times, k) - 1
        if w is not None and (at < 0 or times[at] < w):
            # written at or before k after its last record: its first record from then on
            after = bisect_left(times, w)
            return history[after][1] if after < len(history) else None
        if at >= 0:
            return history[at][1]
        if key in self.before:
            return self.before[key]
        # not recorded yet: an element of a storage older than the statement had the value
        # its first record shows if that record is an argument taken before anything wrote
        # it (a result may already hold the statement's change: add_ records no writes)
        if not history or key[0] not in self.old or history[0][0] == int(history[0][0]):
            return None
        return None if writes and writes[0] <= history[0][0] else history[0][1]


def _marks(ev: Event | None) -> dict[str, dict[int, str]]:
    marks: dict[str, dict[int, str]] = {}
    if ev is not None:
        RS.touched(ev, marks)
    return marks


def pictures(st: Statement, before: dict[tuple[str, int], Any] | None = None,
             prev: Statement | None = None
             ) -> tuple[list[list[dict[str, Any]]], dict[tuple[str, int], Any]]:
    """For each step of the statement in pre-order (one step if it recorded none), the
    pictures of its storages at that step: :func:`tracer.render.storage.collect`'s
    storages and views, with the cells, marks and views of that moment.

    ``before`` holds the elements known when the statement starts ((storage, offset)
    -> value: what earlier statements of the trace left, storage labels being the
    trace's); the second result is that map after the statement, for the next one.
    A cell whose value changes at a step is marked written there even when its kernel
    recorded no ``written`` elements (``normal_`` fills a whole tensor).  ``prev`` is
    the statement before (the picture model reads the user's names from it).

    Each step's pictures are the picture model's (:func:`tracer.picture.picture`:
    what changed, old -> new, one element's offset worked out, each view's grid, the
    legend) made from that step's cells, marks and views."""
    before = dict(before or {})
    final = RS.collect(st, prev)
    line = _Timeline(st, before)
    out: list[list[dict[str, Any]]] = []
    previous: dict[str, dict[int, Any]] = {}
    earlier: dict[str, dict[int, str]] = {}
    for k in range(max(len(line.flat), 1)):
        marks = _marks(line.flat[k] if line.flat else None)
        step: list[dict[str, Any]] = []
        for p in final:
            s = p["storage"]
            if line.first_storage.get(s, _START) > k and s not in marks:
                continue   # not allocated yet
            n = min(p["size"], RS.MAX_CELLS)
            cells = {off: v for off in range(n)
                     if (v := line.value((s, off), k)) is not None}
            touched = dict(marks.get(s, {}))
            if s in previous:
                touched.update({off: "written" for off, v in cells.items()
                                if off not in touched and previous[s].get(off, _GONE) != v})
            old = {off: previous[s][off] for off, how in touched.items()
                   if how == "written" and s in previous and off in previous[s]}
            previous[s] = cells
            views = [t for t in p["views"] if line.first_view.get(t["label"], _START) <= k]
            result = (line.flat[k].result or {}) if line.flat else {}
            drawn = RS.picture(s, views, [], touched, cells=cells, old=old,
                               focus=result.get("label"), hidden=hidden(st, s))
            # the model takes dtype and size from the views it is given: none yet (a
            # storage allocated but not viewed) keeps the statement's
            drawn.update({k2: p[k2] for k2 in ("dtype", "nbytes", "size") if not views})
            drawn["earlier"] = dict(earlier.get(s, {}))
            step.append(drawn)
            earlier.setdefault(s, {}).update(
                {off: "written" for off, how in touched.items() if how == "written"})
        out.append(step)
    for p in (out[-1] if out else []):
        before.update({(p["storage"], off): v for off, v in p["cells"].items()})
    return out, before
