"""One numbering of a document's steps: what "step 5" means, in every view of it.

``tidx step`` (``step 5/15``), the HTML stepper (``5 / 15`` and ``#step=5``), the GIF
(its fifth frame, ``step 5 / 15``) and the gdb file (``tidx step 5: NAME``) all number
the steps of a document from here, so a teacher's "go to step 5" is one step whichever
of them the class has in front of it.  There are two numberings:

* the lecture's (the default of every command): the recorded steps the lecture view
  shows (:func:`tracer.lecture.fold`), in call order.  A folded run ("(+11 steps)" on
  its caller's line) is no step of its own: its steps are counted on the line of the
  step they are folded into (``folded``), as the lecture tree counts them;
* every step's (``--full``): every recorded step, in call order.

``tidx step --layers/--ops`` keep some of these (``keep``); a step that raised is always
kept, being where its statement ends.  A statement that recorded no step (``t.stride()``)
or none that is kept is one numbered step without an event, so its value still has a
place.  Pure: a trace document in, plain data out (``position`` is the step's place in
its statement's recorded steps in call order, what the per-step pictures of
:mod:`tracer.timeline` and :mod:`tracer.render.stepper_states` are indexed by).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tracer import lecture as L
from tracer.document import Document, Event, Statement, walk

Keep = Callable[[Event], bool]


@dataclass(frozen=True, slots=True)
class Numbered:
    """One numbered step: its ``number`` (1-based), its ``statement``'s index, its
    ``position`` among the statement's recorded steps in call order and the recorded
    ``event`` (both None: a statement with no step of its own), the ``path`` of
    recorded steps above it, how many recorded steps its line holds ``folded`` (the
    lecture's ``(+N steps)``; 0 with ``full``), and whether the statement recorded
    steps none of which is kept (``filtered``)."""

    number: int
    statement: int
    position: int | None
    event: Event | None
    path: tuple[Event, ...] = ()
    folded: int = 0
    filtered: bool = False


def steps(doc: Document, *, full: bool = False, keep: Keep | None = None
          ) -> list[Numbered]:
    """The numbered steps of ``doc``, in order (:class:`Numbered`).

    ``full``: every recorded step; otherwise the lecture view's.  ``keep``: of those,
    only the steps it accepts (and any step that raised)."""
    return list(each(doc, full=full, keep=keep))


def each(doc: Document, *, full: bool = False, keep: Keep | None = None
         ) -> Iterator[Numbered]:
    """:func:`steps` one at a time, statement by statement: what a long lesson's GIF
    walks twice (to count, then to draw) without holding every step at once."""
    number = 0
    for index, st, shown in _statements(doc, full):
        first = number
        stack: list[Event] = []
        position = -1
        for position, (depth, ev) in enumerate(walk(st.events)):
            del stack[depth:]
            if (shown is None or position in shown) and \
                    (keep is None or keep(ev) or ev.error is not None):
                number += 1
                yield Numbered(number, index, position, ev, tuple(stack),
                               shown[position] if shown is not None else 0)
            stack.append(ev)
        if number == first:
            number += 1
            yield Numbered(number, index, None, None, filtered=position >= 0)


def lectured(doc: Document) -> Keep:
    """The lecture's steps of ``doc`` as a test on its recorded steps (for a walk
    that filters them further, or another view of the same numbering)."""
    ids = {id(s.event) for s in steps(doc) if s.event is not None}
    return lambda ev: id(ev) in ids


def owners(doc: Document, *, full: bool = False) -> list[list[tuple[int, bool]]]:
    """For every recorded step of every statement (in call order), the number of the
    step that shows it: ``(number, True)`` for a numbered step itself, ``(number,
    False)`` for one folded into the line of step ``number`` (its nearest numbered
    caller; without one, the numbered step before it in its statement, else the
    statement's first).  What the gdb file labels a breakpoint on a folded step by."""
    numbered = steps(doc, full=full)
    by_statement: dict[int, dict[int, int]] = {}
    for s in numbered:
        if s.position is not None:
            by_statement.setdefault(s.statement, {})[s.position] = s.number
    firsts: dict[int, int] = {}
    for s in numbered:
        firsts.setdefault(s.statement, s.number)
    out: list[list[tuple[int, bool]]] = []
    for index, st in enumerate(doc.statements):
        mine = by_statement.get(index, {})
        places: list[tuple[int, bool]] = []
        callers: list[int | None] = []     # the number shown for each open caller
        last = firsts[index]
        for position, (depth, _ev) in enumerate(walk(st.events)):
            del callers[depth:]
            if position in mine:
                last = mine[position]
                places.append((last, True))
                callers.append(last)
                continue
            holder = next((n for n in reversed(callers) if n is not None), None)
            places.append((last if holder is None else holder, False))
            callers.append(None)
        out.append(places)
    return out


def _statements(doc: Document, full: bool
                ) -> Iterator[tuple[int, Statement, dict[int, int] | None]]:
    """Each statement with the lecture's steps of it (position -> how many steps its
    line folds), None for ``full``.  The lecture is folded statement by statement in
    order: what the first statements showed whole is folded in the later ones."""
    folded = None if full else L.fold_statements(doc)
    for index, st in enumerate(doc.statements):
        yield index, st, None if folded is None else _shown(next(folded).events)


def _shown(events: tuple[Event, ...]) -> dict[int, int]:
    """The lecture's steps of one folded statement: the position of each shown step
    among the statement's recorded steps -> the steps folded on its line.  A folded
    run stands for as many recorded steps as it counts, in call order (the lecture
    keeps the order of what it shows, a transfer's lifted steps included)."""
    out: dict[int, int] = {}
    cursor = 0
    for _, ev in walk(events):
        if ev.folded is not None:
            cursor += ev.folded
            continue
        out[cursor] = sum(c.folded for c in ev.children if c.folded is not None)
        cursor += 1
    return out
