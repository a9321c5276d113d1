"""Storage: one numpy byte buffer, shared by every view of it (c10/core/StorageImpl.h).

The bytes come from an allocator (:mod:`engine.memory.allocator` on the CPU); meta
storages have a size but no memory at all.  A storage's bytes count against its run's
memory budget (:mod:`engine.core.budget`) from the moment it is made until its last
reference dies, as ~StorageImpl frees them in PyTorch.
"""

from __future__ import annotations

import numpy as np

from engine.core.context import current


class Storage:
    """A StorageImpl: a byte count, a device and (on CPU) the bytes themselves."""

    __slots__ = ("nbytes", "device", "data", "serial", "initialised", "address",
                 "_held", "__weakref__")

    def __init__(self, nbytes: int, device: str = "cpu", data: np.ndarray | None = None,
                 address: int | None = None) -> None:
        assert data is not None or device == "meta", "a CPU storage needs its bytes"
        self.nbytes = int(nbytes)
        self.device = device
        #: False until a kernel writes: a fresh allocation holds whatever bytes were there
        self.initialised = self.nbytes == 0
        self.data = data
        ctx = current()
        #: gives the bytes back to the run's budget (when the storage dies, or early
        #: when new bytes replace them); the allocator checked them before they existed
        self._held = ctx.budget.hold(self, _real_bytes(data))
        self.serial = ctx.next_serial()
        #: the simulated address data_ptr() shows (0: meta or no bytes, as nullptr); a
        #: simulated CUDA storage's is its caching-allocator block's (``address``)
        if address is not None:
            self.address = address
        else:
            self.address = ctx.next_address(self.nbytes) if data is not None and self.nbytes \
                else 0

    def __tidx_summary__(self, max_values: int) -> dict:
        return {"kind": "storage", "storage_serial": self.serial, "nbytes": self.nbytes,
                "device": self.device}

    def replace_bytes(self, data: np.ndarray) -> None:
        """New bytes for this same StorageImpl (resize_bytes_cpu's realloc): a new
        simulated address, as a reallocation moves the data."""
        budget = current().budget
        self._held()                    # the old bytes are freed once the new ones hold
        self.data, self.nbytes = data, int(data.nbytes)
        self._held = budget.hold(self, _real_bytes(data))
        self.address = current().next_address(self.nbytes) if self.nbytes else 0

    def data_ptr(self) -> int:
        """The address of the first byte, simulated (:meth:`RunContext.next_address`): the
        same in every run, a view's is its base's plus its offset in bytes.  0 for meta
        storages and for empty ones (c10::alloc_cpu returns nullptr for 0 bytes)."""
        return self.address


def _real_bytes(data: np.ndarray | None) -> int:
    """The bytes a storage holds (none for meta); the allocator's 64 bytes of alignment
    slack around them are not counted, as --max-bytes speaks of tensors' bytes."""
    return 0 if data is None else int(data.nbytes)
