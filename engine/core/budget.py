"""One memory budget per run: every byte a run holds, and every byte it is about to
take, counted against one limit (``--max-bytes``).

What a run holds (:attr:`MemoryBudget.held`):

* the bytes of every live storage (CPU, and the host bytes that stand for a simulated
  GPU block), charged when the storage is made and given back when its last reference
  dies (``weakref.finalize``: CPython frees the bytes at the same moment);
* the Python values the interpreter builds (lists, tuples, strings), estimated before
  they are built (engine/interpreter/python_memory.py).

What a run is about to take is checked with :meth:`MemoryBudget.check` *before* it is
materialised: an allocation, a kernel's numpy temporary (the copy numpy makes of an
expanded view), a Python value.  Above the limit, together with what is held, tidx
refuses in one line (:class:`~engine.core.errors.Refused`, exit 2) and nothing is taken.

PyTorch has no such budget (its allocator takes what the system gives); tidx runs
statements a stranger typed, so it keeps one.

>>> b = MemoryBudget(1000)
>>> b.check(600); b.charge(600)
>>> b.check(600)
Traceback (most recent call last):
  ...
engine.core.errors.Refused: refusing to allocate 600 B (600 bytes): above tidx's memory limit of 1000 B; this run already holds 600 B of it; raise the limit with --max-bytes
"""

from __future__ import annotations

import gc
import weakref
from typing import Callable

from engine.core.errors import Refused


def human_bytes(n: int) -> str:
    """Bytes for people.

    >>> human_bytes(48), human_bytes(3 * 2**30)
    ('48 B', '3.0 GiB')
    """
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


class MemoryBudget:
    """The bytes one run holds and the limit they are held to."""

    __slots__ = ("limit", "held", "peak", "scratch", "in_statement")

    def __init__(self, limit: int) -> None:
        #: --max-bytes: what the run may hold at once, temporaries included
        self.limit = int(limit)
        #: the bytes charged and not yet given back
        self.held = 0
        #: the most ``held`` has been (what the run needed at its worst)
        self.peak = 0
        #: of ``held``, the Python values the running statement built (charged until
        #: it ends: :meth:`end_statement`)
        self.scratch = 0
        #: an interpreter statement is running (outside one, :meth:`build` only checks)
        self.in_statement = False

    def check(self, nbytes: int, what: str | None = None) -> None:
        """Refuse ``nbytes`` more if, with what the run holds, they pass the limit.
        ``what`` says what they would be when it is not a tensor's storage
        (``amax's temporary copy of ...``)."""
        nbytes = max(int(nbytes), 0)
        if self.held + nbytes <= self.limit:
            return
        # storages caught in reference cycles (a caught error's traceback keeps its
        # frames, and their tensors, alive) die only when the collector runs: let it
        # run, so their finalizers give their bytes back before tidx says no
        gc.collect()
        if self.held + nbytes <= self.limit:
            return
        raise Refused(self.refusal(nbytes, what))

    def refusal(self, nbytes: int, what: str | None) -> str:
        """The one line of a refusal: what would be allocated, the limit, what is held,
        how to raise the limit."""
        head = f"{what}: " if what else ""
        held = human_bytes(self.held) + (f" ({self.held} bytes)" if self.held >= 1024 else "")
        return (f"{head}refusing to allocate {human_bytes(nbytes)} ({nbytes} bytes): above "
                f"tidx's memory limit of {human_bytes(self.limit)}; this run already holds "
                f"{held} of it; raise the limit with --max-bytes")

    def charge(self, nbytes: int) -> None:
        """``nbytes`` are now held (checked before with :meth:`check`)."""
        self.held += int(nbytes)
        if self.held > self.peak:
            self.peak = self.held

    def release(self, nbytes: int) -> None:
        """``nbytes`` charged before are given back."""
        self.held -= int(nbytes)

    def build(self, nbytes: int, what: str) -> None:
        """A Python value of ``nbytes`` is about to be built (``what``): refuse first if it
        does not fit; inside a statement, charge it until the statement ends (a value
        the statement keeps under a name is charged again then, for as long as the name
        keeps it: engine/interpreter/python_memory.py)."""
        self.check(nbytes, what)
        if self.in_statement:
            self.charge(nbytes)
            self.scratch += int(nbytes)

    def begin_statement(self) -> None:
        self.in_statement = True

    def end_statement(self) -> None:
        """The statement ended: what it built is given back (its temporaries died with
        it; what names keep is charged by the interpreter)."""
        self.release(self.scratch)
        self.scratch = 0
        self.in_statement = False

    def hold(self, owner: object, nbytes: int) -> Callable[[], object]:
        """Charge ``nbytes`` for as long as ``owner`` lives; the returned finalizer gives
        them back early (a storage whose bytes are replaced)."""
        self.charge(nbytes)
        return weakref.finalize(owner, self.release, int(nbytes))
