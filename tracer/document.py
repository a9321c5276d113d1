"""The trace document, typed: :class:`Document`, :class:`Statement`, :class:`Event`.

A document is what a run recorded (docs/trace-format.md describes its JSON, format
:data:`FORMAT_VERSION`).  Inside tidx it is these frozen dataclasses; JSON is made only
at the file boundary (:meth:`Document.to_json`, byte for byte the documented format)
and read back there (:meth:`Document.from_json`, which checks every field and names
the first one that is not of the documented shape: :class:`DocumentError`).

The values inside a document (an event's ``args`` and ``result``, a binding's
``summary`` ...) stay the JSON objects :mod:`tracer.values` writes and reads: one kind
per object, switched on by ``kind``; here they are only checked to be such objects.

A reader of an older document of format 2 gets the defaults the format's page states
for the fields added since (``note_id`` null, ``names`` {}, ``libtorch`` unmapped,
``lecture`` shown ...); format 1 stored raw values, which no renderer reads any more,
so it is refused with a sentence that says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, TypeVar

from tracer.value_check import problem

if TYPE_CHECKING:
    from tracer.graph import Graph
from tracer.steps import Layer, Lecture

__all__ = ["FORMAT_VERSION", "MAX_JSON", "read_json", "Allocated", "Binding", "Cpu", "Default", "Document",
           "DocumentError", "Error", "Event", "Libtorch", "Run", "SessionFacts",
           "Statement", "op_tree", "walk"]

#: Version of the JSON document.  Bump on incompatible change (docs/trace-format.md).
#: 2: every value is typed (``tracer.values``); tensors and storages carry ``label``.
FORMAT_VERSION = 2

#: A typed value as :mod:`tracer.values` writes it: a JSON object with a ``kind``.
Value = dict[str, Any]

_T = TypeVar("_T")


class DocumentError(ValueError):
    """A JSON object that is not a trace document of the documented shape; the message
    names where (``statements[0].events[2].layer``) and what was found there."""


# -- checks at the boundary: each names the path it looked at ------------------------------
def _found(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(where: str, expected: str, value: Any) -> DocumentError:
    return DocumentError(f"{where}: expected {expected}, found {_found(value)}")


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, "an object", value)
    return value


def _key(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise DocumentError(f"{where}: missing {key!r}")
    return obj[key]


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, "a string", value)
    return value


def _opt_str(value: Any, where: str) -> str | None:
    return None if value is None else _str(value, where)


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, "an integer", value)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "true or false", value)
    return value


def _list(value: Any, where: str, item: Callable[[Any, str], _T]) -> tuple[_T, ...]:
    if not isinstance(value, list):
        raise _fail(where, "a list", value)
    return tuple(item(v, f"{where}[{i}]") for i, v in enumerate(value))


def _map(value: Any, where: str, item: Callable[[Any, str], _T]) -> dict[str, _T]:
    return {k: item(v, f"{where}.{k}") for k, v in _obj(value, where).items()}


def _value(value: Any, where: str) -> Value:
    """A typed value of the documented shape (tracer/values.py says what each kind has)."""
    found = problem(value, where)
    if found is not None:
        raise DocumentError(found)
    return value


def _opt_value(value: Any, where: str) -> Value | None:
    return None if value is None else _value(value, where)


def _enum(kind: type[_T], value: Any, where: str) -> _T:
    try:
        return kind(value)  # type: ignore[call-arg]
    except ValueError:
        names = ", ".join(m.value for m in kind)  # type: ignore[attr-defined]
        raise _fail(where, f"one of {names}", value) from None


# -- the value kinds of fixed shape -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Error:
    """A PyTorch error: its class name and message; ``caught`` when a lesson's own
    ``try/except`` caught it (a statement's error only)."""

    type: str
    message: str
    caught: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "message": self.message}
        if self.caught:
            out["caught"] = True
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Error":
        o = _obj(obj, where)
        caught = _bool(o.get("caught", False), f"{where}.caught")
        return cls(_str(_key(o, "type", where), f"{where}.type"),
                   _str(_key(o, "message", where), f"{where}.message"), caught)


def _opt_error(value: Any, where: str) -> Error | None:
    return None if value is None else Error.from_json(value, where)


@dataclass(frozen=True, slots=True)
class Libtorch:
    """Whether gdb can stop in a step in libtorch's release build, and where."""

    breakable: bool
    function: str | None
    into: str | None
    why: str | None

    def to_json(self) -> dict[str, Any]:
        return {"breakable": self.breakable, "function": self.function, "into": self.into,
                "why": self.why}

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Libtorch":
        o = _obj(obj, where)
        return cls(_bool(_key(o, "breakable", where), f"{where}.breakable"),
                   _opt_str(o.get("function"), f"{where}.function"),
                   _opt_str(o.get("into"), f"{where}.into"),
                   _opt_str(o.get("why"), f"{where}.why"))


#: what a reader of a document older than the ``libtorch`` field assumes (the format's page)
UNMAPPED = Libtorch(False, None, None, "unmapped")


@dataclass(frozen=True, slots=True)
class Allocated:
    """The memory a statement (or a document) allocated: CPU bytes in blocks, and the
    simulated GPU's part (``bytes``, ``blocks``, ``freed_bytes``, ``freed_blocks``)."""

    bytes: int
    blocks: int
    cuda: Mapping[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bytes": self.bytes, "blocks": self.blocks}
        if self.cuda is not None:
            out["cuda"] = dict(self.cuda)
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Allocated":
        o = _obj(obj, where)
        cuda = o.get("cuda")
        return cls(_int(_key(o, "bytes", where), f"{where}.bytes"),
                   _int(_key(o, "blocks", where), f"{where}.blocks"),
                   None if cuda is None else _map(cuda, f"{where}.cuda", _int))


@dataclass(frozen=True, slots=True)
class Binding:
    """A name's value after a statement (or an expression's): summary and repr."""

    summary: Value
    repr: str

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary, "repr": self.repr}

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Binding":
        o = _obj(obj, where)
        return cls(_value(_key(o, "summary", where), f"{where}.summary"),
                   _str(_key(o, "repr", where), f"{where}.repr"))


def _opt_binding(value: Any, where: str) -> Binding | None:
    return None if value is None else Binding.from_json(value, where)


@dataclass(frozen=True, slots=True)
class Default:
    """A default name a statement used first, and how it was made."""

    source: str
    origin: str | None
    origin_id: str | None
    origin_args: Mapping[str, Any] | None
    repr: str

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "origin": self.origin, "origin_id": self.origin_id,
                "origin_args": self.origin_args, "repr": self.repr}

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Default":
        o = _obj(obj, where)
        args = o.get("origin_args")
        return cls(_str(_key(o, "source", where), f"{where}.source"),
                   _opt_str(o.get("origin"), f"{where}.origin"),
                   _opt_str(o.get("origin_id"), f"{where}.origin_id"),
                   None if args is None else _obj(args, f"{where}.origin_args"),
                   _str(_key(o, "repr", where), f"{where}.repr"))


@dataclass(frozen=True, slots=True)
class Cpu:
    """The CPU capability and threads the run's kernels were chosen by."""

    capability: str
    source: str
    cpu: str
    arch: str
    simulated: bool
    modelled: bool
    threads: int
    warning: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "capability": self.capability, "source": self.source, "cpu": self.cpu,
            "arch": self.arch, "simulated": self.simulated, "modelled": self.modelled,
            "threads": self.threads}
        if self.warning:
            out["warning"] = self.warning
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Cpu":
        o = _obj(obj, where)

        def s(key: str) -> str:
            return _str(_key(o, key, where), f"{where}.{key}")

        def b(key: str) -> bool:
            return _bool(_key(o, key, where), f"{where}.{key}")

        return cls(s("capability"), s("source"), s("cpu"), s("arch"), b("simulated"),
                   b("modelled"), _int(_key(o, "threads", where), f"{where}.threads"),
                   _opt_str(o.get("warning"), f"{where}.warning"))


# -- events ----------------------------------------------------------------------------------
def _dispatcher_args(args: dict[str, Value], where: str) -> None:
    """The dispatcher step's documented arguments: ``keys`` and ``kernel`` a ``str``,
    ``route`` a ``list`` of ``str`` (the tree spells the route from them)."""
    for key in ("keys", "kernel"):
        if key in args and args[key]["kind"] != "str":
            raise _fail(f"{where}.args.{key}", "a str value", args[key])
    route = args.get("route")
    if route is not None and (route["kind"] != "list" or any(
            item["kind"] != "str" for item in route["items"])):
        raise _fail(f"{where}.args.route", "a list of str values", route)


@dataclass(frozen=True, slots=True)
class Event:
    """One step as the document keeps it (tracer/events.py's :class:`tracer.events.Event`
    is the mutable one a span fills while the step runs).  ``folded``/``steps``: set only
    on the lecture view's folded run of steps (tracer/lecture.py)."""

    name: str
    layer: Layer
    op: str | None = None
    source: str | None = None
    args: Mapping[str, Value] = field(default_factory=dict)
    result: Value | None = None
    note: str | None = None
    note_id: str | None = None
    note_args: Mapping[str, Any] | None = None
    error: Error | None = None
    libtorch: Libtorch = UNMAPPED
    lecture: Lecture = Lecture.SHOWN
    children: tuple["Event", ...] = ()
    folded: int | None = None
    steps: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "layer": self.layer.value, "op": self.op,
            "source": self.source, "args": dict(self.args), "result": self.result,
            "note": self.note, "note_id": self.note_id,
            "note_args": None if self.note_args is None else dict(self.note_args),
            "error": None if self.error is None else self.error.to_json(),
        }
        if self.folded is not None:
            # a folded run is no step of PyTorch's: no libtorch, no lecture (lecture.folded)
            out["children"] = [c.to_json() for c in self.children]
            out["folded"] = self.folded
            out["steps"] = list(self.steps or ())
            return out
        out["libtorch"] = self.libtorch.to_json()
        out["lecture"] = self.lecture.value
        out["children"] = [c.to_json() for c in self.children]
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "event") -> "Event":
        o = _obj(obj, where)
        libtorch = o.get("libtorch")
        note_args = o.get("note_args")
        folded = o.get("folded")
        steps = o.get("steps")
        layer = _enum(Layer, _key(o, "layer", where), f"{where}.layer")
        args = _map(o.get("args", {}), f"{where}.args", _value)
        if layer is Layer.DISPATCHER:
            _dispatcher_args(args, where)
        return cls(
            name=_str(_key(o, "name", where), f"{where}.name"),
            layer=layer,
            op=_opt_str(o.get("op"), f"{where}.op"),
            source=_opt_str(o.get("source"), f"{where}.source"),
            args=args,
            result=_opt_value(o.get("result"), f"{where}.result"),
            note=_opt_str(o.get("note"), f"{where}.note"),
            note_id=_opt_str(o.get("note_id"), f"{where}.note_id"),
            note_args=None if note_args is None else _obj(note_args, f"{where}.note_args"),
            error=_opt_error(o.get("error"), f"{where}.error"),
            libtorch=UNMAPPED if libtorch is None
            else Libtorch.from_json(libtorch, f"{where}.libtorch"),
            lecture=_enum(Lecture, o.get("lecture", "shown"), f"{where}.lecture"),
            children=_list(o.get("children", []), f"{where}.children", Event.from_json),
            folded=None if folded is None else _int(folded, f"{where}.folded"),
            steps=None if steps is None else _list(steps, f"{where}.steps", _str),
        )


def walk(events: "tuple[Event, ...] | list[Event]", depth: int = 0
         ) -> "Iterator[tuple[int, Event]]":
    """``(depth, event)`` for typed events in call order (pre-order), as
    :func:`tracer.events.walk` for their JSON form."""
    for ev in events:
        yield depth, ev
        yield from walk(ev.children, depth + 1)


def profiler_merged(ops: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The operators as torch.profiler lists them: its EventList._remove_dup_nodes folds an
    operator into its parent of the same name when it is the parent's only child (dot.out
    calling dot that raises, randperm.out calling randperm.generator_out: one aten::dot,
    one aten::randperm), lifting its children.

    >>> profiler_merged([(0, "aten::dot"), (1, "aten::dot"), (2, "aten::empty")])
    [(0, 'aten::dot'), (1, 'aten::empty')]
    >>> profiler_merged([(0, "aten::dot"), (1, "aten::dot"), (1, "aten::fill_")])
    [(0, 'aten::dot'), (1, 'aten::dot'), (1, 'aten::fill_')]
    """
    def build(i: int, depth: int) -> tuple[list[tuple[str, list]], int]:
        nodes: list[tuple[str, list]] = []
        while i < len(ops) and ops[i][0] == depth:
            children, j = build(i + 1, depth + 1)
            nodes.append((ops[i][1], children))
            i = j
        return nodes, i

    out: list[tuple[int, str]] = []

    def flatten(nodes: list[tuple[str, list]], depth: int) -> None:
        for name, children in nodes:
            while len(children) == 1 and children[0][0] == name:
                children = children[0][1]
            out.append((depth, name))
            flatten(children, depth + 1)

    flatten(build(0, 0)[0], 0)
    return out


def op_tree(events: "tuple[Event, ...] | list[Event]") -> list[tuple[int, str]]:
    """The aten operators among typed events with their nesting depth, as the profiler
    lists them (:func:`tracer.events.op_tree` for their JSON form): the steps that are
    no operator are transparent.

    >>> op_tree([Event("x", Layer.PYTHON, children=(
    ...     Event("aten::select", Layer.DISPATCHER, op="aten::select", children=(
    ...         Event("y", Layer.KERNEL),)),))])
    [(0, 'aten::select')]
    """
    out: list[tuple[int, str]] = []

    def visit(evs: "tuple[Event, ...] | list[Event]", depth: int) -> None:
        for ev in evs:
            if ev.op:
                out.append((depth, ev.op))
                visit(ev.children, depth + 1)
            else:
                visit(ev.children, depth)

    visit(events, 0)
    return profiler_merged(out)


# -- statements ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Loop:
    """Where a statement run by a loop's pass is (docs/trace-format.md's ``loop``)."""

    line: int
    iteration: int

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "iteration": self.iteration}

    @classmethod
    def from_json(cls, obj: Any, where: str) -> "Loop":
        o = _obj(obj, where)
        return cls(_int(_key(o, "line", where), f"{where}.line"),
                   _int(_key(o, "iteration", where), f"{where}.iteration"))


@dataclass(frozen=True, slots=True)
class SessionFacts:
    """What a Session adds to a statement after running it (a trace recorded by
    ``tracer.record()`` has none): docs/trace-format.md says what each means."""

    comment: str | None = None
    #: a statement of a loop's pass: the innermost loop header's line and the 0-based pass
    loop: Loop | None = None
    defaults: Mapping[str, Default] = field(default_factory=dict)
    result: Binding | None = None
    printed: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    shares_storage_with: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    shares_storage_more: Mapping[str, int] = field(default_factory=dict)
    names: Mapping[str, Value] = field(default_factory=dict)
    names_more: Mapping[str, int] = field(default_factory=dict)
    allocated: Allocated = Allocated(0, 0)
    #: the small tensors it wrote into, as they were before; () when none
    before: tuple[Value, ...] = ()
    #: the autograd graph its tensors hang from (tracer/graph.py); None when none does
    graph: "Graph | None" = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"comment": self.comment}
        if self.loop is not None:
            out["loop"] = self.loop.to_json()
        out |= {
            "defaults": {k: d.to_json() for k, d in self.defaults.items()},
            "result": None if self.result is None else self.result.to_json(),
            "printed": list(self.printed),
            "written": list(self.written),
            "shares_storage_with": {k: list(v) for k, v in self.shares_storage_with.items()},
            "shares_storage_more": dict(self.shares_storage_more),
            "names": dict(self.names),
            "names_more": dict(self.names_more),
            "allocated": self.allocated.to_json(),
        }
        if self.before:
            out["before"] = list(self.before)
        if self.graph is not None:
            out["graph"] = self.graph.to_json()
        return out

    @classmethod
    def from_json(cls, o: dict[str, Any], where: str) -> "SessionFacts":
        allocated = o.get("allocated")
        return cls(
            comment=_opt_str(o.get("comment"), f"{where}.comment"),
            loop=None if o.get("loop") is None else Loop.from_json(o["loop"], f"{where}.loop"),
            defaults=_map(o.get("defaults", {}), f"{where}.defaults", Default.from_json),
            result=_opt_binding(o.get("result"), f"{where}.result"),
            printed=_list(o.get("printed", []), f"{where}.printed", _str),
            written=_list(o.get("written", []), f"{where}.written", _str),
            shares_storage_with=_map(
                o.get("shares_storage_with", {}), f"{where}.shares_storage_with",
                lambda v, w: _list(v, w, _str)),
            shares_storage_more=_map(o.get("shares_storage_more", {}),
                                     f"{where}.shares_storage_more", _int),
            names=_map(o.get("names", {}), f"{where}.names", _value),
            names_more=_map(o.get("names_more", {}), f"{where}.names_more", _int),
            allocated=Allocated(0, 0) if allocated is None
            else Allocated.from_json(allocated, f"{where}.allocated"),
            before=_list(o.get("before", []), f"{where}.before", _value),
            graph=_opt_graph(o.get("graph"), f"{where}.graph"),
        )


def _opt_graph(value: Any, where: str) -> "Graph | None":
    if value is None:
        return None
    from tracer.graph import Graph      # only a document with a graph needs it
    try:
        return Graph.from_json(value, where)
    except ValueError as exc:
        raise DocumentError(str(exc)) from None


#: the keys a Session's statement has beyond the recorder's four
_SESSION_KEYS = ("comment", "loop", "defaults", "result", "printed", "written",
                 "shares_storage_with", "shares_storage_more", "names", "names_more",
                 "allocated", "before", "graph")


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement: its source, its steps, the PyTorch error it raised, the names it
    bound (None: bound to None) and, when a Session ran it, the Session's facts."""

    source: str | None
    events: tuple[Event, ...] = ()
    error: Error | None = None
    bindings: Mapping[str, Binding | None] = field(default_factory=dict)
    session: SessionFacts | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source,
            "events": [e.to_json() for e in self.events],
            "error": None if self.error is None else self.error.to_json(),
            "bindings": {k: None if b is None else b.to_json()
                         for k, b in self.bindings.items()},
        }
        if self.session is not None:
            out.update(self.session.to_json())
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "statement") -> "Statement":
        o = _obj(obj, where)
        return cls(
            source=_opt_str(_key(o, "source", where), f"{where}.source"),
            events=_list(_key(o, "events", where), f"{where}.events", Event.from_json),
            error=_opt_error(o.get("error"), f"{where}.error"),
            bindings=_map(o.get("bindings", {}), f"{where}.bindings", _opt_binding),
            session=SessionFacts.from_json(o, where)
            if any(k in o for k in _SESSION_KEYS) else None,
        )


# -- the document ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Run:
    """What a Session adds to the document: the memory its statements allocated, the
    CPU capability (None: a document older than ``cpu``) and the generator's seed."""

    allocated: Allocated
    cpu: Cpu | None
    seed: int | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allocated": self.allocated.to_json()}
        if self.cpu is not None:
            out["cpu"] = self.cpu.to_json()
        out["seed"] = self.seed
        return out


@dataclass(frozen=True, slots=True)
class Document:
    """A trace document: tidx's version, the format's, the statements and, when a
    Session ran them, the run's facts."""

    tidx: str
    statements: tuple[Statement, ...] = ()
    run: Run | None = None
    format: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        """The documented JSON object (docs/trace-format.md), keys in their fixed order."""
        out: dict[str, Any] = {"tidx": self.tidx, "format": self.format,
                               "statements": [s.to_json() for s in self.statements]}
        if self.run is not None:
            out.update(self.run.to_json())
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "Document":
        """Read a document back; :class:`DocumentError` names the first field that is
        not of the documented shape (a hand-edited file, another program's JSON)."""
        o = _obj(obj, "the document")
        fmt = _key(o, "format", "the document")
        if fmt == 1:
            raise DocumentError(
                "format: this is a format 1 document (values stored raw); tidx reads "
                f"format {FORMAT_VERSION}: record it again with this tidx")
        if fmt != FORMAT_VERSION:
            raise _fail("format", f"{FORMAT_VERSION}", fmt)
        run = None
        if "allocated" in o or "seed" in o or "cpu" in o:
            cpu = o.get("cpu")
            seed = o.get("seed")
            run = Run(Allocated.from_json(o.get("allocated", {"bytes": 0, "blocks": 0}),
                                          "allocated"),
                      None if cpu is None else Cpu.from_json(cpu, "cpu"),
                      None if seed is None else _int(seed, "seed"))
        return cls(tidx=_str(_key(o, "tidx", "the document"), "tidx"),
                   statements=_list(_key(o, "statements", "the document"), "statements",
                                    Statement.from_json),
                   run=run, format=fmt)


#: The largest JSON text read back (bytes): a document of every lesson is a few MB, and
#: Python's objects for a JSON text take about ten times its size.
MAX_JSON = 64 * 1024 * 1024


def read_json(data: bytes, name: str) -> Document:
    """A document from a file's bytes (what ``--format json`` wrote); one
    :class:`DocumentError` sentence, naming ``name``, for anything else."""
    if len(data) > MAX_JSON:
        raise DocumentError(f"{name} is larger than {MAX_JSON // (1024 * 1024)} MB; tidx "
                            "reads trace documents up to that size")
    import json     # here: only a document read back needs it, not every start (#25)

    try:
        obj = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DocumentError(f"{name} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise DocumentError(f"{name} is not JSON: line {exc.lineno} column {exc.colno}: "
                            f"{exc.msg}") from None
    except RecursionError:
        raise DocumentError(f"{name} nests its JSON too deeply") from None
    try:
        return Document.from_json(obj)
    except RecursionError:
        raise DocumentError(f"{name}: steps nested too deeply") from None
    except DocumentError as exc:
        raise DocumentError(f"{name} is not a tidx trace document: {exc}") from None
