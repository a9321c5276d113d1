"""The state one run may change, kept per run instead of in module globals.

PyTorch keeps such state per thread (c10::impl::LocalDispatchKeySet, the default
generator, ``torch.get_default_dtype``); tidx keeps it in a :class:`RunContext`, made
current with :func:`activate` for as long as a run (a Session's statement) executes.
Two runs interleaved in one process therefore never see each other's generator,
memory budget, default dtype, dispatcher flags or tensor serial numbers.

Code outside any run (a library user's ``import engine as torch``; most unit tests)
gets one default context, made the first time it is asked for.

>>> a, b = RunContext(), RunContext()
>>> with activate(a):
...     first = current().next_serial()
>>> with activate(b):
...     other = current().next_serial()
>>> first == other == 0, current() is not a
(True, True)
"""

from __future__ import annotations

import contextlib
import os
from contextvars import ContextVar
from typing import Iterator, TypeVar

from engine.core import capability as C
from engine.core import dtypes as D
from engine.core.budget import MemoryBudget

#: 1 GiB: the default limit checked before any allocation (``--max-bytes``).
DEFAULT_MAX_BYTES = 1 << 30

T = TypeVar("T")

#: Where the simulated CPU heap starts (data_ptr() of a run's first storage), how
#: addresses are aligned (c10::alloc_cpu's gAlignment) and the gap a malloc'd block keeps.
SIMULATED_HEAP = 0x5600_0000_0040
ALIGNMENT = 64
MALLOC_HEADER = 16


class RunContext:
    """Everything a run may change: read with :func:`current`, never stored in a global."""

    __slots__ = ("budget", "default_dtype", "below_autograd", "grad_enabled", "inference_mode",
                 "statement",
                 "cpu", "_serial",
                 "_locals", "_next_address")

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES,
                 cpu: C.CpuCapability | None = None) -> None:
        #: the run's one memory budget: the bytes its storages, kernel temporaries and
        #: Python values hold, checked against ``max_bytes`` before anything is taken
        self.budget = MemoryBudget(max_bytes)
        #: the CPU capability the kernels' builds are chosen by, and at::get_num_threads()
        #: (ATEN_CPU_CAPABILITY and the CPU unless a run asks for another)
        self.cpu = cpu if cpu is not None else C.choose(None, os.environ, C.machine())
        #: torch.get_default_dtype(): the dtype of Python floats made into tensors
        self.default_dtype: D.dtype = D.float32
        #: AutoDispatchBelowADInplaceOrView is in force (a kernel is running)
        self.below_autograd = False
        #: GradMode::is_enabled(): torch.no_grad() and torch.set_grad_enabled(False) turn
        #: it off (engine/binding/grad_mode.py); the Autograd key then records nothing
        self.grad_enabled = True
        #: InferenceMode::is_enabled() (torch.inference_mode(), c10/core/InferenceMode.h):
        #: grad mode off, the autograd keys excluded, new tensors made inference tensors
        self.inference_mode = False
        #: the index of the statement running (the trace's), which a version counter's
        #: bump remembers: the graph picture names the statement that changed a saved
        #: tensor
        self.statement = -1
        self._serial = 0
        self._locals: dict[type, object] = {}
        self._next_address = SIMULATED_HEAP

    @property
    def max_bytes(self) -> int:
        """--max-bytes: what the run may hold at once (:attr:`budget`'s limit)."""
        return self.budget.limit

    @max_bytes.setter
    def max_bytes(self, value: int) -> None:
        self.budget.limit = int(value)

    def next_address(self, nbytes: int) -> int:
        """A simulated address for ``nbytes`` of new CPU memory: what ``data_ptr()``
        answers.  Real addresses change from run to run; these are the same in every run
        of the same statements, 64-byte aligned as c10's alloc_cpu is, and distinct while
        a run lasts (a bump allocator: memory is never reused, so two storages alive
        together never overlap)."""
        address = self._next_address
        self._next_address = -(-(address + max(int(nbytes), 1) + MALLOC_HEADER)
                               // ALIGNMENT) * ALIGNMENT
        return address

    def next_serial(self) -> int:
        """A fresh identity for a tensor or storage made in this run (trace labels)."""
        n = self._serial
        self._serial = n + 1
        return n

    @property
    def serials(self) -> int:
        """How many serials were handed out: every tensor or storage made from now on
        has one at least this large."""
        return self._serial

    def local(self, cls: type[T]) -> T:
        """This run's instance of ``cls`` (made with ``cls()`` on first use): how a wing
        keeps its own per-run state (the generator, pypto's tile settings) without
        this module knowing it."""
        found = self._locals.get(cls)
        if found is None:
            found = self._locals[cls] = cls()
        return found  # type: ignore[return-value]


_CURRENT: ContextVar[RunContext] = ContextVar("tidx_run_context")


def current() -> RunContext:
    """The context of the run in progress (a default one outside any run)."""
    try:
        return _CURRENT.get()
    except LookupError:
        ctx = RunContext()
        _CURRENT.set(ctx)
        return ctx


@contextlib.contextmanager
def activate(ctx: RunContext) -> Iterator[RunContext]:
    """Make ``ctx`` current inside the block (and restore the previous one after)."""
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)
