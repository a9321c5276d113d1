"""The CPU allocator, and the run's memory budget checked before anything is allocated.

c10's DefaultCPUAllocator (c10/core/CPUAllocator.cpp, c10/core/alloc_cpu.cpp) hands
out memory aligned to 64 bytes (``c10::gAlignment``) so vector instructions can load
it; tidx does the same by over-allocating and slicing at an aligned address.

Every allocation, every temporary a kernel materialises and every Python value the
interpreter builds is checked first against the run's one budget (``--max-bytes``,
:class:`engine.core.budget.MemoryBudget` in the RunContext): together with what the run
already holds, above the limit tidx refuses, in one line, before a byte is taken.
"""

from __future__ import annotations

import numpy as np

from engine.core.budget import human_bytes
from engine.core.context import current
from engine.core.storage import Storage

#: c10::gAlignment on x86-64 builds with AVX512 support.
ALIGNMENT = 64

__all__ = ["ALIGNMENT", "allocate", "check_limit", "check_temporary", "human_bytes",
           "new_storage"]


def check_limit(nbytes: int, what: str | None = None) -> None:
    """Refuse ``nbytes`` more if, with what the run holds, they pass its memory limit
    (before anything is allocated); ``what`` names a materialisation that is not a
    storage (``tolist() of ...``)."""
    current().budget.check(nbytes, what)


def check_temporary(what: str, numel: int, itemsize: int, copies: int = 1) -> None:
    """A kernel is about to have numpy materialise ``copies`` arrays of ``numel``
    elements of ``itemsize`` bytes (a copy of an expanded view, a cast, a mask, sort
    indices): refuse first if they do not fit in the run's budget.  An expanded view
    (``torch.zeros(1).expand(10**10)``) holds 4 bytes and stands for 10**10 elements;
    numpy's copy of it would not."""
    nbytes = int(numel) * int(itemsize) * int(copies)
    current().budget.check(nbytes, f"{what} needs a temporary of {int(numel)} elements")


def allocate(nbytes: int) -> np.ndarray:
    """DefaultCPUAllocator::allocate: ``nbytes`` of uninitialised, 64-byte aligned memory
    (the storage that takes them charges them to the run's budget)."""
    check_limit(nbytes)
    raw = np.empty(nbytes + ALIGNMENT, dtype=np.uint8)
    start = (-raw.ctypes.data) % ALIGNMENT
    return raw[start:start + nbytes]


def new_storage(nbytes: int, device: str) -> Storage:
    """A StorageImpl of ``nbytes``: fresh aligned bytes on the CPU, none on meta."""
    return Storage(nbytes, device, None if device == "meta" else allocate(nbytes))
