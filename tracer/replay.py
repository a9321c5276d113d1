"""A statement's steps replayed in time order: what each storage element held when.

The trace records values only inside tensor summaries, each taken at a moment: a
step's arguments when it starts, its result when it ends, and the statement's names
after its last step.  Walking the steps in that order (a depth-first walk that enters a
step, runs its children, then leaves it) and laying every summary's values over the
storage cells it addresses gives the state of the storage at each moment: the value
of a cell is the newest one recorded, never one recorded later.

A kernel records which elements it wrote (its ``written`` elements) but not their new
values; those are the values the next summary covering them shows (no other step
writes them in between, or that step's own write would be the one seen).  One backward
pass finds them, so the replay stays linear in the steps: a long lesson has thousands.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Sequence

from tracer import values as V
from tracer.document import Event, Statement

ENTER, EXIT = "enter", "exit"

Cells = dict[str, dict[int, Any]]       # storage label -> element offset -> value


def moments(events: Sequence[Event]) -> list[tuple[str, Event]]:
    """``(ENTER, step)`` and ``(EXIT, step)`` for every step, in the order they happen
    (iterative: a deep trace must not hit Python's recursion limit)."""
    out: list[tuple[str, Event]] = []
    stack: list[tuple[str, Event]] = [(ENTER, ev) for ev in reversed(events)]
    while stack:
        phase, ev = stack.pop()
        out.append((phase, ev))
        if phase == ENTER:
            stack.append((EXIT, ev))
            stack.extend((ENTER, c) for c in reversed(ev.children))
    return out


def recorded(phase: str, ev: Event) -> list[dict[str, Any]]:
    """The tensors summarised at this moment: the step's arguments when it starts, its
    result when it ends."""
    if phase == ENTER:
        return [t for val in ev.args.values() for t in V.tensors(val)]
    return list(V.tensors(ev.result))


def end_tensors(st: Statement) -> list[dict[str, Any]]:
    """The tensors summarised after the statement's last step: its bindings, its
    result and the user's tensors on the storages it touched (``names``)."""
    out: list[dict[str, Any]] = []
    facts = st.session
    for b in list(st.bindings.values()) + [facts.result if facts is not None else None]:
        if b is not None:
            out += V.tensors(b.summary)
    for t in (facts.names if facts is not None else {}).values():
        out += V.tensors(t)
    return out


def offsets(t: dict[str, Any]) -> Iterator[tuple[tuple[int, ...], int]]:
    """(multi-index, storage offset) of every element of a view, in row-major order.

    Lazy (an odometer, not itertools.product, which would first build a tuple of
    every index of each dim: seconds for a 10M-element view of which a few are drawn).

    >>> [off for _, off in offsets({"shape": [2, 2], "strides": [1, 2], "offset": 3})]
    [3, 5, 4, 6]
    >>> list(offsets({"shape": [], "strides": [], "offset": 7}))
    [((), 7)]
    """
    shape, strides = t["shape"], t["strides"]
    if 0 in shape:
        return
    index = [0] * len(shape)
    while True:
        yield tuple(index), t["offset"] + sum(i * s for i, s in zip(index, strides))
        d = len(shape) - 1
        while d >= 0:
            index[d] += 1
            if index[d] < shape[d]:
                break
            index[d] = 0
            d -= 1
        if d < 0:
            return


def flat(values: Any) -> Iterator[Any]:
    if isinstance(values, list):
        for v in values:
            yield from flat(v)
    else:
        yield values


def values_of(t: dict[str, Any]) -> Iterator[tuple[int, Any]]:
    """(storage offset, value) of every element a summary recorded (none when its
    values were not recorded: a large or uninitialised tensor; nor under the conjugate
    bit, whose values are the stored ones conjugated)."""
    if "values" in t and not t.get("conj"):
        for (_, off), v in zip(offsets(t), flat(t["values"])):
            yield off, v


def writes(ev: Event) -> dict[str, list[int] | None]:
    """The elements step ``ev`` wrote, by storage; None when only their count was
    recorded (a large write: which elements is unknown)."""
    out: dict[str, list[int] | None] = {}
    for how, val in V.touches(ev.args):
        if how != "written":
            continue
        before = out.get(val["storage"], [])
        if "offsets" not in val or before is None:
            out[val["storage"]] = None
        else:
            out[val["storage"]] = sorted(set(before) | set(val["offsets"]))
    return out


def written_inside(steps: list[tuple[str, Event]]) -> dict[int, list[str]]:
    """For each step (by id), the storages it or a step inside it writes, as their
    ``written`` elements say (``copy_`` writes through ``copy_kernel``).  One pass over
    the :func:`moments`, children before their parent."""
    out: dict[int, list[str]] = {}
    for phase, ev in steps:
        if phase == ENTER:
            continue
        found = list(writes(ev))
        for child in ev.children:
            found += out.get(id(child), [])
        if found:
            out[id(ev)] = list(dict.fromkeys(found))
    return out


def in_place(ev: Event) -> bool:
    """Whether a step is an in-place op, by PyTorch's naming: a trailing underscore
    (``aten::add_``, ``Tensor.fill_``, ``zero_cpu_``; not ``__setitem__``).

    >>> from tracer.steps import Layer
    >>> [in_place(Event(n, Layer.KERNEL)) for n in ("aten::add_", "Tensor.fill_",
    ...     "__setitem__", "aten::select", "_empty_generic")]
    [True, True, False, False, False]
    """
    name = re.split(r"::|\.", ev.name)[-1]
    return name.endswith("_") and not name.startswith("_")


def _lay(cells: Cells, tensors: list[dict[str, Any]], fresh: set[str] | None = None
         ) -> dict[str, dict[int, tuple]]:
    """Lay the recorded values over the cells.  With ``fresh`` (the storages whose
    bytes an allocation left uninitialised), also return the elements a step changed
    without recording which (``normal_``'s kernel fills ``empty``'s storage): a value
    where the bytes were garbage, or a value other than the one known."""
    diffs: dict[str, dict[int, tuple]] = {}
    for t in tensors:
        if t.get("uninitialised"):
            # torch.empty's bytes: whatever the allocator left, nothing to show
            cells[t["storage"]] = {}
            if fresh is not None:
                fresh.add(t["storage"])
            continue
        where = None
        for off, v in values_of(t):
            if where is None:
                where = cells.setdefault(t["storage"], {})
            old = where.get(off, MISSING)
            if fresh is not None and ((old is MISSING and t["storage"] in fresh) or
                                      (old is not MISSING and old != v)):
                diffs.setdefault(t["storage"], {})[off] = (old, v)
            where[off] = v
    return diffs


def start_cells(prev: Statement | None) -> Cells:
    """The storages' values when a statement starts: those the previous statement left
    (its bindings, result and names, summarised after its last step)."""
    cells: Cells = {}
    if prev is not None:
        _lay(cells, end_tensors(prev))
    return cells


def new_values(st: Statement, steps: list[tuple[str, Event]]
               ) -> tuple[dict[int, dict[str, dict[int, Any]]], Cells]:
    """For each moment that ends a writing step (by its index in ``steps``), the value
    each written element holds after it: the next summary covering that element before
    another write of it.  An element no later summary covers is absent (unknown).

    Also the values the elements held when the statement started: the first summary
    of each before any step wrote it (nothing changed it in between), which is how
    step 1 knows ``t`` before a step records it.  An uninitialised summary (an
    allocation) stops that: before it, the storage's later values did not exist."""
    following: Cells = {}

    def note(tensors: list[dict[str, Any]]) -> None:
        for t in tensors:
            if t.get("uninitialised"):
                following.pop(t["storage"], None)
                continue
            for off, v in values_of(t):
                following.setdefault(t["storage"], {})[off] = v

    note(end_tensors(st))
    inside = written_inside(steps)
    out: dict[int, dict[str, dict[int, Any]]] = {}
    for i in range(len(steps) - 1, -1, -1):
        phase, ev = steps[i]
        if phase == ENTER and in_place(ev):
            # an in-place op may change its tensor's elements without saying which
            # (add_'s kernel records none): what it or its steps show is after that,
            # not before it (unless a step inside it says which elements it wrote)
            for t in V.tensors(ev.result):
                if t["storage"] not in inside.get(id(ev), ()):
                    following.pop(t["storage"], None)
        note(recorded(phase, ev))
        if phase != EXIT:
            continue
        for storage, offs in writes(ev).items():
            where = following.get(storage, {})
            if offs is None:
                following.pop(storage, None)
                continue
            out.setdefault(i, {})[storage] = {off: where.pop(off) for off in offs
                                              if off in where}
    return out, following


def replay(st: Statement, start: Cells | None = None
           ) -> Iterator[tuple[str, Event, Cells, dict[str, dict[int, tuple]]]]:
    """Walk statement ``st``'s steps in time order.  Yields ``(phase, step, cells,
    changed)`` after each moment: ``cells`` is the live state (copy what you keep),
    ``changed`` (at the end of a writing step) maps storage -> offset -> ``(old, new)``,
    each None-free value or :data:`MISSING` when it is not known."""
    steps = moments(st.events)
    after, first = new_values(st, steps)
    # what the previous statement left is exact; the rest is each element's first value
    # (a storage made during the statement has cells here before it exists: a reader
    # draws a storage only once it exists)
    cells: Cells = {s: {**c, **(start or {}).get(s, {})} for s, c in first.items()}
    for s, c in (start or {}).items():
        cells.setdefault(s, dict(c))
    # the tensors it wrote into as they were before its first write (``before``: the
    # session keeps them, the values its writes replaced when no step recorded them)
    earlier: Cells = {}
    _lay(earlier, list(st.session.before) if st.session is not None else [])
    for s, c in earlier.items():
        cells[s] = {**cells.get(s, {}), **c}
    fresh: set[str] = set()
    writing = 0         # in-place ops open now: inside one, a value appearing is a write
    for i, (phase, ev) in enumerate(steps):
        changed: dict[str, dict[int, tuple]] = {}
        if phase == ENTER and in_place(ev):
            writing += 1
        if phase == EXIT:
            for storage, offs in writes(ev).items():
                where = cells.setdefault(storage, {})
                if offs is None:
                    where.clear()
                    continue
                new = after.get(i, {}).get(storage, {})
                for off in offs:
                    old = where.pop(off, MISSING)
                    if off in new:
                        where[off] = new[off]
                    changed.setdefault(storage, {})[off] = (old, new.get(off, MISSING))
        result = recorded(phase, ev)
        if phase == EXIT and writing:
            fresh.update(t["storage"] for t in result)
        diffs = _lay(cells, result, fresh)
        if phase == EXIT and in_place(ev):
            writing -= 1
        if phase == EXIT:
            # a step's result showing values it did not record writing: it wrote them
            # (a value first seen at a step's start was written by an earlier step,
            # which one the trace does not say: laid, not claimed)
            for storage, laid in diffs.items():
                for off, (old, new) in laid.items():
                    changed.setdefault(storage, {}).setdefault(off, (old, new))
        yield phase, ev, cells, changed


class _Missing:
    """A value the trace did not record (distinct from every recorded value)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def changes(st: Statement, prev: Statement | None = None
            ) -> dict[str, dict[int, tuple]]:
    """Every element statement ``st`` wrote: storage -> offset -> ``(old, new)``, the
    value before its first write and after its last (:data:`MISSING` when unknown)."""
    out: dict[str, dict[int, tuple]] = {}
    for _, _, _, changed in replay(st, start_cells(prev)):
        for storage, offs in changed.items():
            where = out.setdefault(storage, {})
            for off, (old, new) in offs.items():
                where[off] = (where[off][0] if off in where else old, new)
    return out
