"""A Session owns one run: its state, its trace, its names, and the document they make.

This is what ``tidx explain`` calls: parse everything first (refusals happen before
anything runs), then run statement after statement, each in its own
``Trace.statement`` group.  A PyTorch error stops the run, as it would stop a Python
script, and is kept in the document beside the step that raised it.

Everything a run changes lives in the Session: the :class:`RunContext` (generator and
seed, memory limit, default dtype, pypto's tile settings, dispatcher flags, serial
numbers), the recorder's :class:`~tracer.recorder.Trace`, the evaluator's names and the
language.  Each statement runs with the Session's context and trace made current, so
two Sessions interleaved in one process never see each other.
"""

from __future__ import annotations

import functools

import ast
import dataclasses
import os

import numpy as np
from typing import Any

from tracer import allocated, i18n, recorder
from tracer import values as V
from tracer.notes import Note
from tracer.picture import MAX_VIEWS
from tracer.document import (Allocated, Binding, Cpu, Default as DefaultMade, Document, Loop,
                             Error, Run, SessionFacts)
from tracer.recorder import Recording, Trace

from engine.binding.ndarray import NDArray
from engine.binding.tensor import is_tensor, unpack
from engine.core import capability as C
from engine.core.context import DEFAULT_MAX_BYTES, RunContext, activate
from engine.core.before import WritesBefore
from engine.core.work_budget import WorkBudget
from engine.core.errors import Refused, is_torch_error
from engine.interpreter.pyclasses import PyClass
from engine.interpreter.defaults import BY_NAME
from engine.interpreter.evaluator import Evaluator
from engine.interpreter import graph_record, reprs
from engine.interpreter.control import Driver
from engine.interpreter.statements import CATCHABLE, COMPOUND, Statement, parse
from engine.interpreter.storage_names import StorageNames
from engine.memory import cuda_lifetime
from engine.rng import generator as G


#: The user's names a statement records on one storage besides those it bound, wrote or
#: read: as many as a picture draws views.
NAMES_PER_STORAGE = MAX_VIEWS


class Session:
    """One run of statements: ``Session(seed=0).run("t[1, 2] = 3")`` gives the document."""

    def __init__(self, *, seed: int | None = None, max_bytes: int | None = None,
                 lang: str = "en", cpu_capability: str | None = None) -> None:
        # the kernels' builds: --cpu-capability (default/avx2/avx512), else
        # ATEN_CPU_CAPABILITY as torch reads it, else the CPU's best (engine/core/capability)
        if cpu_capability is not None and cpu_capability not in C.ENV_VALUES:
            raise Refused(f"unknown CPU capability {cpu_capability!r}: expected one of "
                          + ", ".join(C.ENV_VALUES))
        self.context = RunContext(DEFAULT_MAX_BYTES if max_bytes is None else max_bytes,
                                  cpu=C.choose(cpu_capability, os.environ, C.machine()))
        self.trace = Trace()
        self.lang = lang
        self.evaluator = Evaluator(on_default=self.trace.name_value)
        #: which names hold which storages (kept up to date, never rescanned)
        self.index = StorageNames(_storage_of)
        #: storage label -> serial, for the storages names are on
        self._serials: dict[str, int] = {}
        self._unlabelled: set[int] = set()
        #: False once a statement raised an error it did not catch: the run has stopped
        self.running = True
        with activate(self.context):
            G.start_run(seed)

    def run(self, text: str, *, seed: int | None = None) -> dict[str, Any]:
        """:meth:`run_document`'s document as JSON (docs/trace-format.md)."""
        return self.run_document(text, seed=seed).to_json()

    def run_document(self, text: str, *, seed: int | None = None) -> Document:
        """Run ``text`` and return the typed document of its statements.

        A Session goes on from one ``run`` to the next as a notebook's cells go on in one
        kernel: the names earlier runs bound, the generator, the memory and the storages'
        labels carry over; a PyTorch error stops the rest of its own ``text`` only.
        ``seed``: reseed the generator first, as ``torch.manual_seed(seed)`` would.

        Raises :class:`Refused` for input tidx will not run (before any of it runs, and
        before ``seed`` is applied); PyTorch errors are caught and recorded in the
        document (``statements[i].error``).
        """
        statements = parse(text, self.evaluator.names)
        if seed is not None:
            self.manual_seed(seed)
        first = len(self.trace.statements)
        self.running = True
        self.context.local(WorkBudget).reset()
        for st in statements:
            if not self.running:
                break
            if st.node.__class__ in COMPOUND:   # a loop or an if: its statements, each
                Driver(self.run_statement, lambda: self.running,
                       self.context.local(WorkBudget)).run(st)
                continue
            self.run_statement(st)
            st.value = None     # shown: as in a script, it dies unless a name keeps it
        return self.record(since=first)

    def manual_seed(self, seed: int) -> None:
        """``torch.manual_seed(seed)`` between runs: the CPU generator (and the simulated
        GPU's, once made) start again from ``seed``; one never used takes it at its first
        use, as the constructor's ``seed`` does."""
        with activate(self.context):
            if G.uses():
                G.manual_seed(seed)
            else:
                G.start_run(seed)

    def run_statement(self, st: Statement) -> Recording:
        """Run one parsed statement with this Session's state current; its record (the
        recorder's steps, and what the Session learnt: :class:`SessionFacts`)."""
        ev = self.evaluator
        with activate(self.context), recorder.recording(self.trace), \
                self.trace.statement(st.source) as entry:
            self.context.statement = len(self.trace.statements) - 1
            before = list(ev.defaults_used)
            newest = cuda_lifetime.newest()
            written = self.context.local(WritesBefore)
            written.start(self.context.serials)
            try:
                ev.run(st)
            except Refused:
                raise
            except Exception as exc:  # noqa: BLE001 - sorted just below
                if not is_torch_error(exc):
                    raise
                # the lesson's own try/except: shown, then the run goes on
                caught = any(isinstance(exc, CATCHABLE[c]) for c in st.catches)
                entry.error = Error(type(exc).__name__, str(exc), caught)
                if caught and st.prints:
                    st.printed.append(str(exc))
            self._rename(st, entry)
            new_defaults = [n for n in ev.defaults_used if n not in before]
            changed = list(dict.fromkeys(list(st.assigned) + new_defaults))
            dropped = self.index.update(ev.names, changed, _stores(st.node))
            _release_dead(st, self.index, dropped, newest)
            defaults = {n: _default(n, ev.names[n]) for n in new_defaults}
            entry.bindings = {name: self._describe(ev.names[name])
                              for name in _shown_names(st, ev)}
            # an expression's value, unless it is None (Python's REPL prints nothing then)
            result = (self._describe(st.value)
                      if not st.assigned and st.value is not None else None)
            printed = tuple(reprs.bounded_text(text) for text in st.printed)
            self._learn_labels(changed)
            written_into = tuple(n for n in dict.fromkeys(st.assigned)
                                 if n not in st.bound and n in ev.names)
            on = self._names_on(st, entry, result)
            sharing, sharing_more = self._sharing(st, on)
            names = {name: self.trace.summarize(ev.names[name])
                     for names in on.values() for name in names}
            names_more = self._names_more(on)
            spent = allocated.summary(entry.events)
            # the small tensors it wrote into, as they were before (tracer/replay.py);
            # only those its steps show (a new label would renumber every later one)
            kept = tuple(self.trace.summarize(s) for serial, s in written.take().items()
                         if self.trace.known_label("t", serial) is not None)
            graph = graph_record.record(
                st.node, list(st.assigned), ev.names,
                lambda t: self.trace.summarize(t).get("label", "?"),
                lambda i: self.trace.statements[i].source if 0 <= i < len(
                    self.trace.statements) else None)
            entry.session = SessionFacts(
                comment=st.comment, loop=None if st.loop is None else Loop(**st.loop),
                defaults=defaults, result=result, printed=printed, written=written_into,
                shares_storage_with={k: tuple(v) for k, v in sharing.items()},
                shares_storage_more=sharing_more, names=names, names_more=names_more,
                allocated=Allocated(spent["bytes"], spent["blocks"], spent.get("cuda")),
                before=kept, graph=graph)
            self.trace.describe_recorded(entry)   # the temporaries' `what`, last
            if entry.error is not None and not entry.error.caught:
                self.running = False
        return entry

    def record(self, since: int = 0) -> Document:
        """The typed document so far (``since``: of the statements from that index on);
        ``seed`` only if the run drew numbers or set one."""
        doc = self.trace.document(since=since)
        spent = allocated.total([st.session.allocated.to_json() for st in doc.statements
                                 if st.session is not None])
        with activate(self.context):
            seed = G.initial_seed() if G.uses() else None
        run = Run(Allocated(spent["bytes"], spent["blocks"], spent.get("cuda")),
                  Cpu(**self.context.cpu.summary()), seed)
        return dataclasses.replace(doc, run=run)

    def document(self, since: int = 0) -> dict[str, Any]:
        """:meth:`record` as the JSON every renderer still reads (docs/trace-format.md)."""
        return self.record(since).to_json()

    def _rename(self, st: Statement, entry: Recording) -> None:
        """The tensors the statement bound take the user's names, in this statement's
        steps (``-> y: i64[2, 2]``, not ``-> t$1``) and in every later one."""
        renamed: dict[str, str] = {}
        for name in dict.fromkeys(st.bound):
            value = self.evaluator.names.get(name)
            if value is not None and is_tensor(value):
                old = self.trace.rename(value, name)
                if old is not None:
                    renamed[old] = name
        if renamed:    # one walk of the steps for every name (a, b, c = t.unbind())
            self.trace.rename_recorded(entry, renamed)

    def _names_on(self, st: Statement, entry: Recording,
                  result: Binding | None) -> dict[int, list[str]]:
        """The user's tensors on the storages this statement touched or produced, by
        storage serial, as a picture draws them: ``{s: ["y", "t"]}`` after ``y[0, 1] =
        0`` (y is a view of t), so it calls every tensor by the user's name and shows
        the base of a view.  On a storage many names share, at most
        :data:`NAMES_PER_STORAGE` of them besides those the statement bound, wrote or
        read (the base, then the most recently bound): a long lesson stays linear, and
        :meth:`_names_more` counts the others."""
        storages, labels = _storages_in(entry, result)
        index, names = self.index, self.evaluator.names
        # the statement's own: the names it bound or wrote, those it spells (``y7 + y8``
        # reads y7, which the add step's arguments do not list) and those whose tensor
        # its steps show (their label is the name)
        spelled = [n.id for n in ast.walk(st.node) if isinstance(n, ast.Name)]
        found = {n: index.tensor_of(n)
                 for n in dict.fromkeys(list(st.assigned) + spelled + sorted(labels))}
        storage_of = {n: t[0] for n, t in found.items() if t is not None}
        used = list(storage_of)
        serials = set(storage_of.values())
        for label in storages:
            serial = self._storage_serial(label)
            if serial is not None:
                serials.add(serial)
        return {serial: index.chosen(serial, names,
                                     [n for n in used if storage_of[n] == serial],
                                     NAMES_PER_STORAGE)
                for serial in sorted(serials) if index.count(serial)}

    def _learn_labels(self, changed: list[str]) -> None:
        """Remember the label of each storage a changed name is a tensor on (its
        binding's summary gave it one; a default name's may come later)."""
        for name in changed:
            found = self.index.tensor_of(name)
            if found is None:
                continue
            label = self.trace.known_label("s", found[0])
            if label is None:
                self._unlabelled.add(found[0])
            else:
                self._serials[label] = found[0]

    def _storage_serial(self, label: str) -> int | None:
        """The serial of a storage the trace labels ``label``, if a name is on it."""
        serial = self._serials.get(label)
        if serial is None:
            # a name's storage the trace had not labelled yet (a default name is made
            # outside the trace): its label now, if it has one (few: defaults only)
            for pending in list(self._unlabelled):
                found = self.trace.known_label("s", pending)
                if found is not None:
                    self._serials[found] = pending
                    self._unlabelled.discard(pending)
            serial = self._serials.get(label)
        return serial

    def _sharing(self, st: Statement, on: dict[int, list[str]]
                 ) -> tuple[dict[str, list[str]], dict[str, int]]:
        """For each tensor the statement produced, the other names that use its storage
        (those recorded in ``names``): ``{"y": ["t"]}`` after ``y = t[1:]`` (a view),
        ``{"y": []}`` after ``y = t[[0]]``; nothing for ``t[0] = 1``, which writes into
        t's storage and produces no tensor.  And how many other names share it beyond
        those listed (``{"y": 2994}`` in a long lesson of views of ``t``)."""
        names = self.evaluator.names
        produced = {name: names[name] for name in dict.fromkeys(st.bound) if name in names}
        if st.value is not None and not st.assigned:
            produced["(result)"] = st.value
        out: dict[str, list[str]] = {}
        more: dict[str, int] = {}
        for name, value in produced.items():
            storage = _storage_of(value)
            if storage is None:
                continue
            out[name] = sorted(n for n in on.get(storage.serial, ()) if n != name)
            total = self.index.count(storage.serial) - (name in names and
                                                        self.index.tensor_of(name) is not None)
            if total > len(out[name]):
                more[name] = total - len(out[name])
        return out, more

    def _names_more(self, on: dict[int, list[str]]) -> dict[str, int]:
        """Storage label -> how many other tensors the user's names hold on it than
        those in ``names`` (different tensors: ``a = t`` is one), when there are any."""
        out: dict[str, int] = {}
        for serial, chosen in on.items():
            shown = len({t[1] for t in map(self.index.tensor_of, chosen) if t is not None})
            hidden = self.index.tensors(serial) - shown
            label = self.trace.known_label("s", serial)
            if hidden > 0 and label is not None:
                out[label] = hidden
        return out

    def _describe(self, value: Any) -> Binding:
        # a function (tensor = torch.tensor), alone or inside a list: the recorder would
        # take it for its own deferred summary and call it; a stand-in with its repr goes
        return Binding(self.trace.summarize(lambda: _for_record(value)), _repr(value))


@functools.lru_cache(maxsize=None)
def _stand_in_class(type_name: str) -> type:
    return type(type_name, (), {"__slots__": ("text",),
                                "__init__": lambda self, text: setattr(self, "text", text),
                                "__repr__": lambda self: self.text})


def _for_record(value: Any) -> Any:
    """``value`` with every function in it (inside lists, tuples and dicts too) replaced
    by its stand-in (:func:`_stand_in`)."""
    if callable(value) and not is_tensor(value):
        return _stand_in(value)(_repr(value))
    if isinstance(value, np.generic):   # numpy's scalar: np.int64(3), as numpy prints it
        return _stand_in_class(type(value).__name__)(repr(value))
    if type(value) in (list, tuple):
        return type(value)(_for_record(v) for v in value)
    if type(value) is dict:
        return {k: _for_record(v) for k, v in value.items()}
    return value


def _stand_in(fn: Any) -> type:
    """What the record keeps of a function: an object of the function's Python type
    (``function`` for a def or lambda, ``builtin_function_or_method`` for torch's and the
    builtins, ``type`` for a class) with its repr -- an object, not a string, so every
    view prints it as Python does, without quotes (pyclasses.Classes.type_of's rule)."""
    if isinstance(fn, PyClass):
        return _stand_in_class("type")
    return _stand_in_class("builtin_function_or_method" if hasattr(fn, "__name__")
                           else "function")


def run(text: str, *, seed: int | None = None, max_bytes: int | None = None,
        cpu_capability: str | None = None) -> dict[str, Any]:
    """Run ``text`` in a new Session and return its document."""
    return Session(seed=seed, max_bytes=max_bytes, cpu_capability=cpu_capability).run(text)


def run_document(text: str, *, seed: int | None = None, max_bytes: int | None = None,
                 cpu_capability: str | None = None) -> Document:
    """Run ``text`` in a new Session and return its typed document (what renderers read)."""
    return Session(seed=seed, max_bytes=max_bytes,
                   cpu_capability=cpu_capability).run_document(text)


def _default(name: str, value: Any) -> DefaultMade:
    """A default name's entry in the document: how it is made, where it comes from (the
    English, and the note id and parameters a renderer shows in its language)."""
    origin, origin_id, origin_args = i18n.recorded(BY_NAME[name].origin)
    return DefaultMade(BY_NAME[name].source, origin, origin_id, origin_args, _repr(value))


def _repr(value: Any) -> str:
    """What Python's REPL prints for the value, up to :data:`reprs.MAX_REPR` characters
    (``torch.zeros([2] * 22)`` prints 88 MB); when printing it raises PyTorch's error
    (a tensor whose failed resize_ left sizes its storage cannot hold), that error."""
    try:
        return reprs.bounded(value)
    except Exception as exc:  # noqa: BLE001 - only torch's own error is shown
        if not is_torch_error(exc):
            raise
        return f"<repr raised {type(exc).__name__}: {exc}>"


def _storages_in(entry: Recording, result: Binding | None) -> tuple[set[str], set[str]]:
    """The labels of the storages a statement's steps, bindings and result name, and of
    the tensors they name."""
    found: set[str] = set()
    tensors: set[str] = set()

    def visit(value: Any) -> None:
        k = V.kind(value)
        if k in ("tensor", "elements", "ndarray"):     # an array: the bytes it is over
            found.add(value["storage"])
            if k == "tensor":
                tensors.add(value["label"])
        for child in V.children(value):
            visit(child)

    stack = list(entry.events)
    while stack:
        ev = stack.pop()
        for value in ev.args.values():
            visit(value)
        visit(ev.result)
        stack.extend(ev.children)
    for b in list(entry.bindings.values()) + [result]:
        if b is not None:
            visit(b.summary)
    return found, tensors


def _release_dead(st: Statement, index: StorageNames, dropped: dict[int, list[str]],
                  newest: int) -> None:
    """After a statement, the CUDA storages no name reaches any more die, as CPython drops
    them when their last reference goes: a rebound name's old tensor, the statement's
    temporaries, an expression's value once it is shown.  Only those can die: the
    storages a name stopped reaching (``dropped``, with the names that held them) and
    those the statement made (serials above ``newest``)."""
    candidates = sorted({s for s in dropped if cuda_lifetime.is_live(s)} |
                        set(cuda_lifetime.live_since(newest)))
    if not candidates:
        return
    shown = (cuda_lifetime.reachable_storages([st.value], _storage_of)
             if not st.assigned and st.value is not None else set())
    for serial in candidates:
        if index.reached(serial):
            continue
        names = dropped.get(serial)
        if names:
            who = ", ".join(names)
            reason = Note("cudart.died.rebound", names=who)
        elif serial in shown:
            who, reason = "(result)", Note("cudart.died.result")
        else:
            who, reason = "", Note("cudart.died.temporary")
        cuda_lifetime.release(serial, who, reason)


def _storage_of(value: Any) -> Any:
    """The storage a tensor, or a numpy array (``t.numpy()``), is over."""
    if isinstance(value, NDArray):
        return value.storage
    return unpack(value).storage if is_tensor(value) else None


def _stores(node: ast.stmt) -> bool:
    """Whether a statement may change a list in place: it stores into a subscript
    (``l[0] = x``, ``a, l[1] = ...``) or augments a name (``l += [x]`` extends l)."""
    if isinstance(node, ast.AugAssign):
        return True
    return isinstance(node, ast.Assign) and any(
        isinstance(n, ast.Subscript) for target in node.targets for n in ast.walk(target))


def _shown_names(st: Statement, ev: Evaluator) -> list[str]:
    """Names whose value a learner wants after the statement: those it bound, and the
    tensors it wrote into (``t`` after ``t[1, 2] = 3``), once each."""
    return [n for n in dict.fromkeys(st.assigned) if n in ev.names]
