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

import os
from typing import Any

from tracer import allocated, i18n, recorder
from tracer import values as V
from tracer.notes import Note
from tracer.recorder import Trace

from engine.binding.tensor import is_tensor, unpack
from engine.core import capability as C
from engine.core.context import DEFAULT_MAX_BYTES, RunContext, activate
from engine.core.errors import Refused, is_torch_error
from engine.interpreter.defaults import BY_NAME
from engine.interpreter.evaluator import Evaluator
from engine.interpreter.statements import CATCHABLE, Statement, parse
from engine.memory import cuda_lifetime
from engine.rng import generator as G


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
        #: False once a statement raised an error it did not catch: the run has stopped
        self.running = True
        with activate(self.context):
            G.start_run(seed)

    def run(self, text: str) -> dict[str, Any]:
        """Run ``text`` and return the JSON document of the design (docs/trace-format.md).

        Raises :class:`Refused` for input tidx will not run; PyTorch errors are caught and
        recorded in the document (``statements[i].error``).
        """
        for st in parse(text):
            if not self.running:
                break
            self.run_statement(st)
            st.value = None     # shown: as in a script, it dies unless a name keeps it
        return self.document()

    def run_statement(self, st: Statement) -> dict[str, Any]:
        """Run one parsed statement with this Session's state current; its entry."""
        ev = self.evaluator
        with activate(self.context), recorder.recording(self.trace), \
                self.trace.statement(st.source) as entry:
            entry["comment"] = st.comment
            before = list(ev.defaults_used)
            holders = _cuda_holders(ev)
            try:
                ev.run(st)
            except Refused:
                raise
            except Exception as exc:  # noqa: BLE001 - sorted just below
                if not is_torch_error(exc):
                    raise
                entry["error"] = {"type": type(exc).__name__, "message": str(exc)}
                if any(isinstance(exc, CATCHABLE[c]) for c in st.catches):
                    # the lesson's own try/except: shown, then the run goes on
                    entry["error"]["caught"] = True
                    if st.prints:
                        st.printed.append(str(exc))
            self._rename(st, entry)
            _release_dead(st, ev, holders)
            new_defaults = [n for n in ev.defaults_used if n not in before]
            entry["defaults"] = {n: _default(n, ev.names[n]) for n in new_defaults}
            entry["bindings"] = {name: self._describe(ev.names[name])
                                 for name in _shown_names(st, ev)}
            # an expression's value, unless it is None (Python's REPL prints nothing then)
            entry["result"] = (self._describe(st.value)
                               if not st.assigned and st.value is not None else None)
            entry["printed"] = list(st.printed)
            entry["shares_storage_with"] = _sharing(st, ev)
            entry["written"] = [n for n in dict.fromkeys(st.assigned)
                                if n not in st.bound and n in ev.names]
            entry["names"] = self._names_on(entry)
            entry["allocated"] = allocated.summary(entry["events"])
            if entry["error"] is not None and not entry["error"].get("caught"):
                self.running = False
        return entry

    def document(self) -> dict[str, Any]:
        """The trace document so far; ``seed`` only if the run drew numbers or set one."""
        doc = self.trace.to_dict()
        doc["allocated"] = allocated.total(doc["statements"])
        doc["cpu"] = self.context.cpu.summary()
        with activate(self.context):
            doc["seed"] = G.initial_seed() if G.uses() else None
        return doc

    def _rename(self, st: Statement, entry: dict[str, Any]) -> None:
        """The tensors the statement bound take the user's names, in this statement's
        steps (``-> y: i64[2, 2]``, not ``-> t$1``) and in every later one."""
        for name in dict.fromkeys(st.bound):
            value = self.evaluator.names.get(name)
            if value is not None and is_tensor(value):
                old = self.trace.rename(value, name)
                if old is not None:
                    self.trace.rename_recorded(entry, old, name)

    def _names_on(self, entry: dict[str, Any]) -> dict[str, Any]:
        """The user's tensors on the storages this statement touched or produced, by
        name, as they are after it: ``{"t": ..., "y": ...}`` after ``y[0, 1] = 0`` (y is
        a view of t), so a picture calls every tensor by the user's name and shows the
        base of a view.  Only names on those storages: a long lesson stays linear."""
        storages = _storages_in(entry)
        out: dict[str, Any] = {}
        for name, value in self.evaluator.names.items():
            if not is_tensor(value):
                continue
            serial = unpack(value).storage.serial
            if self.trace.known_label("s", serial) in storages:
                out[name] = self.trace.summarize(value)
        return out

    def _describe(self, value: Any) -> dict[str, Any]:
        return {"summary": self.trace.summarize(value), "repr": _repr(value)}


def run(text: str, *, seed: int | None = None, max_bytes: int | None = None,
        cpu_capability: str | None = None) -> dict[str, Any]:
    """Run ``text`` in a new Session and return its document."""
    return Session(seed=seed, max_bytes=max_bytes, cpu_capability=cpu_capability).run(text)


def _default(name: str, value: Any) -> dict[str, Any]:
    """A default name's entry in the document: how it is made, where it comes from (the
    English, and the note id and parameters a renderer shows in its language)."""
    origin, origin_id, origin_args = i18n.recorded(BY_NAME[name].origin)
    return {"source": BY_NAME[name].source, "origin": origin, "origin_id": origin_id,
            "origin_args": origin_args, "repr": _repr(value)}


def _repr(value: Any) -> str:
    """What Python's REPL prints for the value; when printing it raises PyTorch's error
    (a tensor whose failed resize_ left sizes its storage cannot hold), that error."""
    try:
        return repr(value)
    except Exception as exc:  # noqa: BLE001 - only torch's own error is shown
        if not is_torch_error(exc):
            raise
        return f"<repr raised {type(exc).__name__}: {exc}>"


def _sharing(st: Statement, ev: Evaluator) -> dict[str, list[str]]:
    """For each tensor the statement produced, the other names that use its storage:
    ``{"y": ["t"]}`` after ``y = t[1:]`` (a view), ``{"y": []}`` after ``y = t[[0]]``;
    nothing for ``t[0] = 1``, which writes into t's storage and produces no tensor."""
    produced = {name: ev.names[name] for name in st.bound if name in ev.names}
    if st.value is not None and not st.assigned:
        produced["(result)"] = st.value
    out: dict[str, list[str]] = {}
    for name, value in produced.items():
        storage = _storage_of(value)
        if storage is None:
            continue
        out[name] = sorted(other for other, t in ev.names.items()
                           if other != name and _storage_of(t) is storage)
    return out


def _storages_in(entry: dict[str, Any]) -> set[str]:
    """The labels of the storages a statement's steps, bindings and result name."""
    found: set[str] = set()

    def visit(value: Any) -> None:
        k = V.kind(value)
        if k in ("tensor", "elements"):
            found.add(value["storage"])
        for child in V.children(value):
            visit(child)

    stack = list(entry["events"])
    while stack:
        ev = stack.pop()
        for value in ev.args.values():
            visit(value)
        visit(ev.result)
        stack.extend(ev.children)
    for b in list(entry["bindings"].values()) + [entry.get("result")]:
        if b:
            visit(b["summary"])
    return found


def _cuda_holders(ev: Evaluator) -> dict[int, list[str]]:
    """The names that hold each live CUDA storage before a statement (its death's why)."""
    live = set(cuda_lifetime.live_serials())
    out: dict[int, list[str]] = {}
    if not live:
        return out
    for name, value in ev.names.items():
        for serial in cuda_lifetime.reachable_storages([value], _storage_of) & live:
            out.setdefault(serial, []).append(name)
    return out


def _release_dead(st: Statement, ev: Evaluator, holders: dict[int, list[str]]) -> None:
    """After a statement, the CUDA storages no name reaches any more die, as CPython drops
    them when their last reference goes: a rebound name's old tensor, the statement's
    temporaries, an expression's value once it is shown."""
    live = cuda_lifetime.live_serials()
    if not live:
        return
    kept = cuda_lifetime.reachable_storages(ev.names.values(), _storage_of)
    shown = (cuda_lifetime.reachable_storages([st.value], _storage_of)
             if not st.assigned and st.value is not None else set())
    for serial in live:
        if serial in kept:
            continue
        names = holders.get(serial)
        if names:
            who = ", ".join(names)
            reason = Note("cudart.died.rebound", names=who)
        elif serial in shown:
            who, reason = "(result)", Note("cudart.died.result")
        else:
            who, reason = "", Note("cudart.died.temporary")
        cuda_lifetime.release(serial, who, reason)


def _storage_of(value: Any) -> Any:
    return unpack(value).storage if is_tensor(value) else None


def _shown_names(st: Statement, ev: Evaluator) -> list[str]:
    """Names whose value a learner wants after the statement: those it bound, and the
    tensors it wrote into (``t`` after ``t[1, 2] = 3``), once each."""
    return [n for n in dict.fromkeys(st.assigned) if n in ev.names]
