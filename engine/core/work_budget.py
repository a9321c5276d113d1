"""How much Python a run may execute: loop iterations and function-call depth.

The memory budget (engine/core/budget.py) bounds what a run holds; this bounds what it
does.  A ``while True:`` stops at :data:`MAX_ITERATIONS` and a recursion at
:data:`MAX_CALL_DEPTH`, each with one refusal line (exit 2), never a hang or Python's
own RecursionError.  Each iteration records statements in the trace, so the bound is
also what keeps a document readable.  One per run, ``current().local(WorkBudget)``,
counted afresh for each text a Session runs (each notebook cell).
"""

from __future__ import annotations

from engine.core.errors import Refused

#: Loop iterations one run may take, all loops together.
MAX_ITERATIONS = 1_000
#: Calls of the user's own functions that may be in progress at once.
MAX_CALL_DEPTH = 50
#: Calls of the user's own functions one run may make (``sorted(r, key=lambda v: ...)``
#: inside a lambda multiplies without a loop).
MAX_CALLS = 10_000
#: Statements a run's loops may record (each pass records its body's).
MAX_STATEMENTS = 10_000


class WorkBudget:
    """Iterations taken and calls in progress in one run."""

    __slots__ = ("iterations", "depth", "calls", "statements")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A new text to run (a notebook's next cell): its own iterations."""
        self.iterations = self.depth = self.calls = self.statements = 0

    def statement(self) -> None:
        self.statements += 1
        if self.statements > MAX_STATEMENTS:
            raise Refused(f"loops ran more than {MAX_STATEMENTS} statements in this run; "
                          f"tidx stops there")

    def iterate(self) -> None:
        self.iterations += 1
        if self.iterations > MAX_ITERATIONS:
            raise Refused(f"loops took more than {MAX_ITERATIONS} iterations in this run; "
                          f"tidx stops there")

    def enter_call(self, name: str) -> None:
        if self.depth >= MAX_CALL_DEPTH:
            raise Refused(f"{name}() called itself more than {MAX_CALL_DEPTH} calls deep; "
                          f"tidx stops there")
        self.calls += 1
        if self.calls > MAX_CALLS:
            raise Refused(f"functions were called more than {MAX_CALLS} times in this run; "
                          f"tidx stops there")
        self.depth += 1

    def leave_call(self) -> None:
        self.depth -= 1
