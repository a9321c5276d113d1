"""The lecture view: the steps the seeds teach, the rest folded into one-line summaries.

A full trace of ``t[rows, cols] = 10`` holds 47 steps; the lesson is a dozen of them
(the index becoming a ``TensorIndex``, ``recordTensorIndex``, ``dispatch_index_put_``,
``index_put_``, the kernel that writes), the rest being the scalar's allocation, the
kernel's checks and its restriding.  :func:`fold` keeps the taught steps and replaces
each run of other steps by one *folded* step that says how many steps it holds and
names them, so every renderer draws a lecture document as it draws a trace (a folded
step is an ordinary event: a name, a layer, a note; ``"folded"`` holds the count).

Pure functions from a trace document to a new one, like :mod:`tracer.filters`: the full
trace stays as recorded (``--full`` shows it; JSON keeps it).

What is taught is said by each step's spec, beside the engine code that emits it
(tracer/steps.py's :class:`~tracer.steps.Lecture`, recorded as the event's ``lecture``
field), in the seeds' vocabulary: every Python, dispatcher and RNG step; the binding's
entry points and index conversion; TensorIndexing's steps; the memory steps from
``empty`` to the strides; the kernels that do an operator's work.  Hidden are the
helpers around them (``hidden``), and everything inside a step whose inside is not the
lesson (``fold_inside``: ``valueToTensor`` makes and allocates a scalar, a dozen steps the
lesson of ``t[1, 2] = 3`` is not about).  No step is recognised by its name here.  A step
that raised, and every step above it, is always shown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator, Sequence

from tracer.document import Document, Event, Statement, walk
from tracer.steps import Layer, Lecture


def is_taught(ev: Event) -> bool:
    """Whether the lecture view shows step ``ev`` (wherever its parent allows it).

    >>> is_taught(Event("recordTensorIndex", Layer.INDEXING, lecture=Lecture.SHOWN))
    True
    >>> is_taught(Event("check_size_nonnegative", Layer.KERNEL, lecture=Lecture.HIDDEN))
    False
    """
    return ev.lecture != Lecture.HIDDEN


def _treatment(ev: Event) -> Lecture:
    """The step's ``lecture`` field (a folded run, made here, has the default: shown)."""
    return ev.lecture


def _raising(events: Sequence[Event]) -> set[int]:
    """The ids of the steps that raised or hold one that did (the error sits on the
    innermost), in one pass: asking each step walked its subtree once per step above."""
    order = [ev for _, ev in walk(tuple(events))]
    out = {id(ev) for ev in order if ev.error is not None}
    if not out:
        return out
    # a step holds a raise when one of its children does: children before parents
    for ev in reversed(order):
        if any(id(c) in out for c in ev.children):
            out.add(id(ev))
    return out


def _count(events: Sequence[Event]) -> int:
    return sum(1 for _ in walk(tuple(events)))


def folded(run: Sequence[Event]) -> Event:
    """One step standing for the run of steps ``run`` (and everything under them)."""
    count = _count(run)
    names = tuple(dict.fromkeys(ev.name for ev in run))
    return Event(name=f"({count} step{'s' if count != 1 else ''} folded)",
                 layer=run[0].layer, note=", ".join(names), folded=count, steps=names)


def _fold(events: Sequence[Event], inside_folded: bool, seen: set[str],
          raising: set[int]) -> tuple[Event, ...]:
    out: list[Event] = []
    run: list[Event] = []
    for ev in events:
        if (is_taught(ev) and not inside_folded) or _treatment(ev) == Lecture.TRANSFER or \
                id(ev) in raising:
            if run:
                out.append(folded(run))
                run = []
            out.append(_keep(ev, seen, raising))
        else:
            run.append(ev)
    if run:
        out.append(folded(run))
    return tuple(out)


def _keep(ev: Event, seen: set[str], raising: set[int]) -> Event:
    """A shown step, its children folded (``seen``: the steps of
    ``fold_inside_after_first`` already shown whole; ``raising``: the steps that
    raised or hold one that did)."""
    name, treatment = ev.name, _treatment(ev)
    if treatment == Lecture.TRANSFER and id(ev) not in raising:
        return replace(ev, children=_lift(ev.children))
    key = name + _allocation_path(ev) if treatment == Lecture.FOLD_INSIDE_AFTER_FIRST \
        else name
    inside_folded = treatment == Lecture.FOLD_INSIDE or key in seen
    if treatment == Lecture.FOLD_INSIDE_AFTER_FIRST:
        seen.add(key)
    return replace(ev, children=_fold(ev.children, inside_folded, seen, raising))


def _allocation_path(ev: Event) -> str:
    """Which allocator path an allocation took: a path not shown before in the document
    is shown whole again (the caching allocator's reuse of a freed block is news after
    its first cudaMalloc)."""
    found = {step.name for _, step in walk(ev.children)
             if _treatment(step) == Lecture.ALLOCATION_PATH}
    return ":" + ",".join(sorted(found))


def _lift(children: Sequence[Event]) -> tuple[Event, ...]:
    """A transfer's children: its ``lifted`` steps (their own inside folded), the
    steps before, between and after them each one folded run."""
    out: list[Event] = []
    run: list[str] = []

    def visit(events: Sequence[Event]) -> None:
        for ev in events:
            if _treatment(ev) == Lecture.LIFTED:
                if run:
                    out.append(_run(run))
                    run.clear()
                inside = [e.name for _, e in walk(ev.children)]
                out.append(replace(ev, children=(_run(inside),) if inside else ()))
            else:
                run.append(ev.name)
                visit(ev.children)

    visit(children)
    if run:
        out.append(_run(run))
    return tuple(out)


def _run(names: list[str]) -> Event:
    """A folded run of the steps named ``names`` (in the order they ran)."""
    return folded([Event(n, Layer.KERNEL) for n in names])


def is_folded(ev: Event) -> bool:
    """Whether ``ev`` is a folded run of steps (:func:`folded`), not a recorded step."""
    return ev.folded is not None


def fold(doc: Document) -> Document:
    """The lecture document: every statement's steps folded (see the module's doc)."""
    return replace(doc, statements=tuple(fold_statements(doc)))


def fold_statements(doc: Document) -> Iterator[Statement]:
    """:func:`fold`'s statements one at a time (what the first ones showed whole is
    remembered for the later ones): a reader that keeps a little of each folds a long
    lesson without holding a second copy of its steps."""
    seen: set[str] = set()
    for st in doc.statements:
        yield replace(st, events=_fold(st.events, False, seen, _raising(st.events)))


def counts(doc: Document) -> tuple[int, int]:
    """``(shown, total)``: the recorded steps a lecture document shows, and all of them
    (a folded run counts the steps it holds)."""
    shown = total = 0
    for st in doc.statements:
        for _, ev in walk(st.events):
            if ev.folded is not None:
                total += ev.folded
            else:
                shown += 1
                total += 1
    return shown, total
