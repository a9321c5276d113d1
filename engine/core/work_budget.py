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


class WorkBudget:
    """Iterations taken and calls in progress in one run."""

    __slots__ = ("iterations", "depth")

    def __init__(self) -> None:
        self.iterations = 0
        self.depth = 0

    def reset(self) -> None:
        """A new text to run (a notebook's next cell): its own iterations."""
        self.iterations = self.depth = 0

    def iterate(self) -> None:
        self.iterations += 1
        if self.iterations > MAX_ITERATIONS:
            raise Refused(f"loops took more than {MAX_ITERATIONS} iterations in this run; "
                          f"tidx stops there")

    def enter_call(self, name: str) -> None:
        if self.depth >= MAX_CALL_DEPTH:
            raise Refused(f"{name}() called itself more than {MAX_CALL_DEPTH} calls deep; "
                          f"tidx stops there")
        self.depth += 1

    def leave_call(self) -> None:
        self.depth -= 1
