"""Filters shared by every format: pure functions from a typed trace document
(:class:`tracer.document.Document`) to a new one.

Each filter copies what it changes and never mutates its input, so the full trace
stays available (the storage picture reads it) while a view shows less.  A removed
step is transparent: its children take its place under the nearest kept ancestor,
the way torch.profiler hides everything that is not an operator.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterable

from tracer.document import Document, Error, Event
from tracer.events import LAYERS


def _map_statements(doc: Document, fn: Callable[[tuple[Event, ...]], tuple[Event, ...]]
                    ) -> Document:
    return replace(doc, statements=tuple(replace(st, events=fn(st.events))
                                         for st in doc.statements))


def _hoist(events: tuple[Event, ...], keep: Callable[[Event], bool]) -> tuple[Event, ...]:
    """Keep the events ``keep`` accepts; the children of a dropped one move up.

    An error on a dropped step moves to its nearest kept ancestor: the view still
    shows where the statement failed, as far as it shows anything.
    """
    return _hoist_with_error(events, keep)[0]


def _hoist_with_error(events: tuple[Event, ...], keep: Callable[[Event], bool]
                      ) -> tuple[tuple[Event, ...], Error | None]:
    out: list[Event] = []
    pending = None
    for ev in events:
        children, error = _hoist_with_error(ev.children, keep)
        if keep(ev):
            out.append(replace(ev, children=children, error=ev.error or error))
        else:
            out.extend(children)
            pending = ev.error or error or pending
    return tuple(out), pending


def parse_layers(text: str) -> list[str]:
    """``"python,dispatcher"`` -> ``["python", "dispatcher"]``; unknown names raise.

    >>> parse_layers("kernel, python")
    ['python', 'kernel']
    """
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in LAYERS]
    if unknown:
        raise ValueError(f"unknown layer {unknown[0]!r}; the layers are: "
                         + ", ".join(LAYERS))
    if not names:
        raise ValueError("give at least one layer: " + ", ".join(LAYERS))
    return [n for n in LAYERS if n in names]


def layers(doc: Document, keep: Iterable[str]) -> Document:
    """Only the steps of the given layers (the others are transparent)."""
    wanted = set(keep)
    return _map_statements(doc, lambda evs: _hoist(evs, lambda e: e.layer in wanted))


def ops(doc: Document) -> Document:
    """Only aten operator calls, nested as torch.profiler records them."""
    return _map_statements(doc, lambda evs: _hoist(evs, lambda e: bool(e.op)))


def depth(doc: Document, limit: int) -> Document:
    """Cut the call tree below ``limit`` levels (1 keeps only the outermost steps)."""
    def cut(events: tuple[Event, ...], level: int) -> tuple[Event, ...]:
        if level >= limit:
            return ()
        return tuple(replace(ev, children=cut(ev.children, level + 1)) for ev in events)
    return _map_statements(doc, lambda evs: cut(evs, 0))


def no_values(doc: Document) -> Document:
    """Step names only: drop every step's key values and result (errors stay)."""
    def strip(events: tuple[Event, ...]) -> tuple[Event, ...]:
        return tuple(replace(ev, args={}, result=None, children=strip(ev.children))
                     for ev in events)
    return _map_statements(doc, strip)


def apply(doc: Document, *, keep_layers: Iterable[str] | None = None,
          max_depth: int | None = None, ops_only: bool = False,
          values: bool = True) -> Document:
    """All filters in their one sensible order: select steps, then cut, then strip."""
    if ops_only:
        doc = ops(doc)
    if keep_layers is not None:
        doc = layers(doc, keep_layers)
    if max_depth is not None:
        doc = depth(doc, max_depth)
    if not values:
        doc = no_values(doc)
    return doc
