"""``for``, ``while`` and ``if`` statements: how they run and how the trace shows them.

The trace keeps its one shape, a list of statements (docs/trace-format.md): a loop is
unrolled into the statements it executes.  Each pass records its header (``for i in
range(3):`` with the binding of ``i``; ``while n < 3:`` with its test) and then each body
statement that ran, as a statement of its own with an optional ``loop`` field, the
header's line and the 0-based iteration (``{"line": 1, "iteration": 2}``).  So the
lecture view, ``tidx step`` and the HTML stepper walk a 3-iteration loop as the 3 x N
statements it ran, each numbered and drawn as any statement is, and a reader sees which
pass each belongs to.

Python's semantics: a ``for`` evaluates its iterable once (a tensor's rows through its
own ``__iter__``, i.e. ``unbind``, traced in the first pass's header) and binds the
target each pass; ``while`` and ``if`` ask the truth of their test (a tensor's is
``Tensor.__bool__``, traced) each time; ``break``, ``continue`` and a loop's ``else``
behave as Python's.  Every pass counts against the run's
:class:`~engine.core.work_budget.WorkBudget`.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from engine.binding.grad_mode import is_context_manager
from engine.core.context import current
from engine.core.errors import torch_error, tp_name
from engine.core.work_budget import WorkBudget
from engine.interpreter.statements import Statement


@dataclass
class Header:
    """What a header statement's run leaves for the driver."""

    items: list[Any] | None = None    # a for's items, taken in its first pass
    index: int = 0
    go: bool = False                  # another pass (for, while) / the body (if)
    entered: list[Any] | None = None  # a with's context managers, entered in order


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


def header_source(node: ast.stmt) -> str:
    if isinstance(node, ast.For):
        return f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}:"
    if isinstance(node, ast.With):
        return f"with {', '.join(ast.unparse(item) for item in node.items)}:"
    assert isinstance(node, (ast.While, ast.If))
    return f"{'while' if isinstance(node, ast.While) else 'if'} {ast.unparse(node.test)}:"


class Control:
    """The evaluator's part: a header statement's own work (a mixin of
    :class:`engine.interpreter.evaluator.Evaluator`)."""

    def run_header(self, st: Statement, node: ast.stmt) -> None:
        state = st.header
        assert isinstance(state, Header)
        if isinstance(node, ast.For):
            if state.items is None:
                state.items = self.iterate(self.eval_expr(node.iter),  # type: ignore[attr-defined]
                                           "'{}' object is not iterable")
            state.go = state.index < len(state.items)
            if state.go:
                self.assign(node.target, state.items[state.index], st)  # type: ignore[attr-defined]
            return
        if isinstance(node, ast.With):
            state.entered = []
            for item in node.items:
                manager = self.eval_expr(item.context_expr)  # type: ignore[attr-defined]
                if not is_context_manager(manager):
                    raise torch_error(TypeError, f"'{tp_name(manager)}' object does not "
                                                 "support the context manager protocol")
                entered = manager.__enter__()
                state.entered.append(manager)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, entered, st)  # type: ignore[attr-defined]
            state.go = True
            return
        state.go = bool(self._truth(self.eval_expr(node.test)))  # type: ignore[attr-defined]


class Driver:
    """Runs one compound statement through ``run_one`` (the session's recording run of
    a single statement); ``running()`` is False once an error stopped the run."""

    def __init__(self, run_one: Callable[[Statement], Any], running: Callable[[], bool],
                 work: WorkBudget | None = None) -> None:
        self.run_one, self.running = run_one, running
        #: the run's bound on iterations (the session passes its context's)
        self.work = work if work is not None else current().local(WorkBudget)

    def run(self, st: Statement, loop: dict[str, int] | None = None) -> None:
        try:
            self._block([st], loop)
        except (_Break, _Continue):     # statements.py allows them inside loops only
            raise AssertionError("break/continue outside a loop") from None

    def _block(self, body: list[Statement], loop: dict[str, int] | None) -> None:
        for st in body:
            if not self.running():
                return
            node = st.node
            if isinstance(node, (ast.For, ast.While)):
                self._loop(st, node, loop)
            elif isinstance(node, ast.If):
                state = self._header(st, Header(), loop)
                if state.go:
                    self._block(st.body, loop)
                elif st.orelse:
                    self._block(st.orelse, loop)
            elif isinstance(node, ast.With):
                state = self._header(st, Header(), loop)
                try:
                    if state.go:
                        self._block(st.body, loop)
                finally:
                    # __exit__ in reverse order, also when the body raised or broke out
                    for manager in reversed(state.entered or []):
                        manager.__exit__(None, None, None)
            else:
                self._one(st, loop)
                if isinstance(node, ast.Break) and self.running():
                    raise _Break
                if isinstance(node, ast.Continue) and self.running():
                    raise _Continue

    def _loop(self, st: Statement, node: ast.For | ast.While,
              outer: dict[str, int] | None) -> None:
        work = self.work
        state = Header()
        iteration = 0
        while True:
            here = {"line": node.lineno, "iteration": iteration}
            if state.items is not None and state.index >= len(state.items):
                break                   # a for's items are spent: nothing more runs
            self._header(st, state, here)
            if not self.running():
                return
            if not state.go:
                break
            work.iterate()
            try:
                self._block(st.body, here)
            except _Break:
                return
            except _Continue:
                pass
            if not self.running():
                return
            state.index += 1
            iteration += 1
        if st.orelse:
            self._block(st.orelse, outer)

    def _header(self, st: Statement, state: Header, loop: dict[str, int] | None) -> Header:
        comment = st.comment
        if loop is not None and isinstance(st.node, (ast.For, ast.While)):
            # the narrative line the views print above it: which pass this is
            comment = f"{comment + ' — ' if comment else ''}pass {loop['iteration'] + 1}"
        self._one(dataclasses.replace(st, source=header_source(st.node), header=state,
                                      comment=comment), loop)
        return state

    def _one(self, st: Statement, loop: dict[str, int] | None) -> None:
        """A fresh copy each time: a Statement keeps what one run of it gave."""
        self.work.statement()
        self.run_one(dataclasses.replace(st, value=None, printed=[], assigned=[], bound=[],
                                         loop=loop))
