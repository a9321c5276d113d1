"""The recorder: collects nested events while a statement runs.

Record first, draw later (as micrograd and ``torch/utils/_debug_mode.py`` do):
the engine calls :func:`span` around each step; the recorder summarises every
argument at record time into small plain data and keeps no engine object
alive.  A step's note is an id and parameters (:class:`tracer.notes.Note`); the
recorder stores them with the English text they make (:func:`tracer.i18n.recorded`).
Nesting comes from the call stack, and a span closes on exceptions too, noting the
error on the innermost step that raised it.

When no recorder is active, :func:`span` returns a shared do-nothing object,
so instrumented code costs one context-variable lookup and one call per step.

The trace being recorded is per context (a :class:`contextvars.ContextVar`), not a
module global: two runs interleaved in one process record into their own traces.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from types import FunctionType
from typing import Any, Iterator, Literal

from tracer import i18n
from tracer import temporaries, values as V
from tracer.events import Event
from tracer.notes import Note
from tracer.version import __version__
from tracer.steps import StepSpec

__all__ = ["recording", "paused", "span", "emit", "active", "current", "Trace",
           "summarize"]

#: The trace being recorded in this context, or None.
_ACTIVE: "ContextVar[Trace | None]" = ContextVar("tidx_trace", default=None)

#: Version of the JSON document (``Trace.to_dict``).  Bump on incompatible change.
#: 2: every value is typed (``tracer.values``); tensors and storages carry ``label``.
FORMAT_VERSION = 2

#: Summaries include element values only up to this many elements, so recording
#: a step on a 16M-element tensor costs what it costs on a 3x3 one.
MAX_VALUES = 64


class _NullSpan:
    """What :func:`span` returns when nothing records: every method a no-op."""

    __slots__ = ()

    def __enter__(self) -> "_NullSpan":
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        return False

    def set_result(self, value: Any) -> None:
        pass

    def set(self, **args: Any) -> None:
        pass

    def note(self, note: "Note | str | None") -> None:
        pass


_NULL = _NullSpan()


class _Span:
    """A live step: entering pushes it on the trace's stack, leaving pops it."""

    __slots__ = ("_trace", "event")

    def __init__(self, trace: "Trace", event: Event) -> None:
        self._trace = trace
        self.event = event

    def __enter__(self) -> "_Span":
        self._trace._push(self.event)
        return self

    def __exit__(self, exc_type, exc, tb) -> Literal[False]:
        if exc is not None and not getattr(exc, "_tidx_recorded", False):
            # The innermost step that sees the exception is the one that raised it.
            self.event.error = {"type": type(exc).__name__, "message": str(exc)}
            try:
                exc._tidx_recorded = True
            except AttributeError:  # pragma: no cover - exotic exception types
                pass
        self._trace._pop(self.event)
        return False

    def set_result(self, value: Any) -> None:
        """The step's result; ``None`` records no result (the step returned nothing)."""
        self.event.result = None if value is None else self._trace.summarize(value)

    def set(self, **args: Any) -> None:
        """Add key values learned during the step (e.g. a computed byte count)."""
        for key, value in args.items():
            self.event.args[key] = self._trace.summarize(value)

    def note(self, note: "Note | str | None") -> None:
        """Replace the step's note (a branch taken inside the step): as ``span``'s."""
        _set_note(self.event, note)


def _set_note(event: Event, note: Any) -> None:
    """Store a note (a :class:`Note`, an id, a lambda returning one of those, or, while
    the last call sites are converted, an English sentence) as its three fields."""
    if type(note) is FunctionType:
        note = note()
    event.note, event.note_id, event.note_args = i18n.recorded(note)


def active() -> bool:
    """True while a recorder is collecting events."""
    return _ACTIVE.get() is not None


def current() -> "Trace | None":
    """The trace being recorded, or None."""
    return _ACTIVE.get()


def span(spec: StepSpec, *, source: str | None = None, op: str | None = None,
         note: Any = None, called: str | None = None, **args: Any) -> "_Span | _NullSpan":
    """Open one step.  Use as ``with span(SPEC, ...) as s: ...; s.set_result(x)``.

    ``spec`` is the step's :class:`tracer.steps.StepSpec` (its name, layer, source, note
    id, libtorch function and lecture treatment); ``source`` and ``note`` given here
    replace the spec's for this call; ``called`` is the name of a family's member
    (``span(TORCH_FUNCTION, called=f"torch.{name}")``: the spec ``torch.<function>``),
    stored only while recording.  ``note`` is an id (a literal, so tests find it in
    the source) or ``Note("select.geometry", dim=0, ...)`` when the sentence has
    parameters.  ``note`` and any argument may be a ``lambda`` returning the value: it
    is called only while recording, so building it costs nothing otherwise.
    """
    trace = _ACTIVE.get()
    if trace is None:
        return _NULL
    summ = trace.summarize
    event = Event(name=spec.name if called is None else called, layer=spec.layer.value,
                  op=op, source=spec.source if source is None else source,
                  args={k: summ(v) for k, v in args.items()},
                  lecture=spec.lecture.value, libtorch=spec.libtorch,
                  counted=None if spec.counted is None else spec.counted.value)
    if note is None:
        note = spec.note
    if note is not None:
        _set_note(event, note)
    return _Span(trace, event)


def emit(spec: StepSpec, *, source: str | None = None, note: Any = None,
         result: Any = None, called: str | None = None, **args: Any) -> None:
    """Record a step with no children in one call."""
    trace = _ACTIVE.get()
    if trace is None:
        return
    with span(spec, source=source, note=note, called=called, **args) as s:
        if result is not None:
            s.set_result(result)


class Trace:
    """Everything recorded inside one ``with record():`` block.

    Events are grouped by statement; events outside :meth:`statement` land in
    an implicit statement whose source is None.
    """

    def __init__(self) -> None:
        self.statements: list[dict[str, Any]] = []
        self._stack: list[Event] = []
        self._current: dict[str, Any] | None = None
        self._labels: dict[tuple[str, int], str] = {}
        self._counts: dict[str, int] = {}
        self._named: set[tuple[str, int]] = set()
        #: the user's name -> the value it labels now (a rename finds the name's previous
        #: value here, not by reading every label: a long lesson has thousands)
        self._by_name: dict[str, tuple[str, int]] = {}
        #: the trace label a renamed value had before the user named it
        self._temporary: dict[tuple[str, int], str] = {}
        #: label -> the source text the interpreter evaluated to it, in the statement
        #: being recorded (tracer/temporaries.py)
        self._given: dict[str, str] = {}

    # -- labels: t$0, s$0 ... stable names that keep nothing alive -------------
    def label(self, kind: str, serial: int) -> str:
        """The trace-local label of an engine object's serial: ``t$0``, ``s$0`` ... in
        the order first seen, or the user's name given by :meth:`name_value`."""
        key = (kind, serial)
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = self._fresh(kind)
        return found

    def _fresh(self, kind: str) -> str:
        """The next trace label of ``kind``: ``t$0``, ``t$1`` ..."""
        n = self._counts.get(kind, 0)
        self._counts[kind] = n + 1
        return V.label(kind, n)

    def known_label(self, kind: str, serial: int) -> str | None:
        """The label of a serial already seen, or None: a question that, unlike
        :meth:`label`, gives no new label (which would renumber every later one)."""
        return self._labels.get((kind, serial))

    def _label(self, kind: str, serial: int) -> tuple[str, bool]:
        """What :func:`tracer.values.typed` asks: the label, and whether it is the user's
        own name for the value (so no reader has to guess it from the spelling)."""
        return self.label(kind, serial), (kind, serial) in self._named

    def name_value(self, value: Any, name: str) -> None:
        """Label a value by the user's name for it (``t`` rather than ``t$3``), if it has
        no label yet and the name is not taken."""
        hook = getattr(type(value), "__tidx_summary__", None)
        if hook is None:
            return
        summary = hook(value, 0)
        serial = summary.get("serial")
        key = ("t", serial)
        if serial is None or key in self._labels or name in self._by_name:
            return
        # its storage is labelled now, before the temporaries of the statement that
        # uses it: t's storage is s$0 in `t[rows, cols] = 10` as in `y = t[1:, ::2]`,
        # not s$3 there because the index's temporaries were seen first (issue #28)
        if summary.get("storage_serial") is not None:
            self.label("s", summary["storage_serial"])
        self._labels[key] = name
        self._named.add(key)
        self._by_name[name] = key

    def rename(self, value: Any, name: str) -> str | None:
        """The user bound ``value`` to ``name`` (``y = t[1:]``): from now on the trace
        calls it ``name``.  Returns the trace label it had (``t$1``) so the statement
        that made it can be renamed too (:func:`tracer.values.rename`); None when it
        already has a user's name (``y = t`` keeps calling it ``t``) or is no tensor.
        A name the user rebinds moves to its new value."""
        hook = getattr(type(value), "__tidx_summary__", None)
        if hook is None:
            return None
        serial = hook(value, 0).get("serial")
        key = ("t", serial)
        if serial is None or key in self._named:
            return None
        old = self.label("t", serial)
        other = self._by_name.get(name)
        if other is not None:   # the name's previous value
            # back to the label it had, or a new one (a default name had none):
            # two tensors never share a label
            self._labels[other] = self._temporary.pop(other, "") or self._fresh("t")
            self._named.discard(other)
        self._temporary[key] = old
        self._labels[key] = name
        self._named.add(key)
        self._by_name[name] = key
        return old

    def rename_recorded(self, entry: dict[str, Any], label: str | dict[str, str],
                        name: str = "") -> None:
        """Call the tensor labelled ``label`` by ``name`` in the steps statement ``entry``
        recorded (after :meth:`rename`, for the statement that made it); ``label`` a
        dict of label -> name renames several in one walk (``a, b, ... = t.unbind()``)."""
        names = label if isinstance(label, dict) else {label: name}
        stack = list(entry["events"])
        while stack:
            event = stack.pop()
            V.rename([event.args, event.result], names)
            stack.extend(event.children)

    def describe(self, value: Any, text: Any) -> None:
        """The interpreter evaluated ``text`` (a subexpression's source, or a function
        giving it: computed only when needed) to ``value``: a tensor this statement
        made, nothing names, is called by it (``t > 5``, not ``t$1``) in this statement's
        steps; the first text given for a tensor stays (the innermost expression)."""
        hook = getattr(type(value), "__tidx_summary__", None)
        if hook is None:
            return
        key = ("t", hook(value, 0).get("serial"))
        label = self._labels.get(key)   # a tensor no step showed has nothing to call
        if label is None or key in self._named or label in self._given:
            return
        self._given[label] = text() if callable(text) else text

    def describe_recorded(self, entry: dict[str, Any]) -> None:
        """Give every temporary of statement ``entry``'s steps its ``what``: the text
        :meth:`describe` was given, else what made it (tracer/temporaries.py)."""
        given, self._given = self._given, {}
        temporaries.describe(entry["events"], given,
                             [entry.get(k) for k in ("result", "bindings", "names", "before")])

    def summarize(self, value: Any) -> Any:
        """Turn any argument into a small typed value (:mod:`tracer.values`).

        A function (a ``lambda``) is called first: callers pass ``lambda: costly(x)`` so
        that nothing is computed when no recorder is active.
        """
        if type(value) is FunctionType:
            value = value()
        return V.typed(value, self._label, MAX_VALUES)

    # -- statements --------------------------------------------------------------
    @contextlib.contextmanager
    def statement(self, source: str | None) -> Iterator[dict[str, Any]]:
        """Group the events of one statement; the caller fills error/bindings."""
        entry: dict[str, Any] = {"source": source, "events": [], "error": None, "bindings": {}}
        self.statements.append(entry)
        self._given = {}       # what a statement stopped before describing is not kept
        outer, self._current = self._current, entry
        try:
            yield entry
        finally:
            self._current = outer

    def _push(self, event: Event) -> None:
        if self._stack:
            self._stack[-1].children.append(event)
        else:
            if self._current is None:
                self._current = {"source": None, "events": [], "error": None, "bindings": {}}
                self.statements.append(self._current)
            self._current["events"].append(event)
        self._stack.append(event)

    def _pop(self, event: Event) -> None:
        top = self._stack.pop()
        assert top is event, "spans must close in the order they opened"

    # -- output ------------------------------------------------------------------
    def to_dict(self, version: str = "", since: int = 0) -> dict[str, Any]:
        """The public JSON document: ``{"tidx", "statements": [...]}``; ``since``: of the
        statements from that index on (a notebook cell's, in a Session that goes on)."""
        return {
            "tidx": version or __version__,
            "format": FORMAT_VERSION,
            "statements": [
                {
                    "source": st["source"],
                    "events": [e.to_dict() if isinstance(e, Event) else e for e in st["events"]],
                    "error": st["error"],
                    "bindings": st["bindings"],
                    # extra keys a producer added (defaults, result, printed ...)
                    **{k: v for k, v in st.items()
                       if k not in ("source", "events", "error", "bindings")},
                }
                for st in self.statements[since:]
            ],
        }


@contextlib.contextmanager
def recording(trace: "Trace | None") -> Iterator["Trace | None"]:
    """Record into ``trace`` inside the block (None: record nothing), then restore
    whatever was being recorded before."""
    token = _ACTIVE.set(trace)
    try:
        yield trace
    finally:
        _ACTIVE.reset(token)


def paused() -> "contextlib.AbstractContextManager[Trace | None]":
    """Run a block without recording (a Session makes its default names so)."""
    return recording(None)


def summarize(value: Any) -> Any:
    """Summarise a value outside any recording (fresh labels)."""
    return Trace().summarize(value)
