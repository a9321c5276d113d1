"""When a simulated CUDA tensor dies: its block goes back to the caching allocator.

In CPython a tensor's storage dies when its last reference goes: ~TensorImpl drops the
StorageImpl, ~StorageImpl destroys its DataPtr, and the DataPtr's deleter (the caching
allocator's ``local_raw_delete``) hands the pointer to ``NativeCachingAllocator::free``,
which finds the block (``get_allocated_block(ptr, remove=true)``) and gives it to
``DeviceCachingAllocator::free``: the block returns to its pool, no cudaFree.

In a tidx lesson the references are the session's names: after each statement the
session frees (:func:`release`) every live CUDA storage that no name (or container under
a name) reaches any more, with the reason it died; it asks only about the storages a
name stopped reaching and those the statement made (:func:`live_since`), so a statement
costs the same however many are alive.  The run's live blocks
are kept in the RunContext (:class:`LiveBlocks`), never in a module global.
"""

from __future__ import annotations

from typing import Any, Iterable

from tracer.notes import Note
from tracer.recorder import emit, span
from tracer.steps import Layer, Lecture, step

from engine.core.context import current

#: c10/cuda/CUDACachingAllocator.cpp, as engine.memory.cuda_caching_allocator's SOURCE
#: names it: that module is imported only when a CUDA block is freed here (every
#: statement asks this module which CUDA storages died; a run without one never loads
#: the allocator, issue #25)
SOURCE = "c10/cuda/CUDACachingAllocator.cpp"

STORAGE_IMPL = "c10/core/StorageImpl.h"
TENSOR_IMPL = "c10/core/TensorImpl.cpp"


class LiveBlocks:
    """The run's CUDA storages that hold a caching-allocator block, by storage serial."""

    def __init__(self) -> None:
        self.by_serial: dict[int, tuple[Any, Any]] = {}


def register(storage: Any, block: Any) -> None:
    """A new CUDA storage owns ``block`` (none for 0 bytes: nothing to give back)."""
    if block is not None:
        current().local(LiveBlocks).by_serial[storage.serial] = (storage, block)


def newest() -> int:
    """The serial of the newest live CUDA storage, or -1: storages registered after
    this are those :func:`live_since` gives."""
    return next(reversed(current().local(LiveBlocks).by_serial), -1)


def live_since(serial: int) -> list[int]:
    """The live CUDA storages whose serial is above ``serial`` (made since then), oldest
    first.  Storages are registered as they are made, in serial order, so only the new
    ones are walked: a statement's cost does not grow with the storages alive."""
    out: list[int] = []
    for found in reversed(current().local(LiveBlocks).by_serial):
        if found <= serial:
            break
        out.append(found)
    return out[::-1]


def is_live(serial: int) -> bool:
    return serial in current().local(LiveBlocks).by_serial


LAST_REFERENCE_DROPPED = step("last reference dropped", Layer.PYTHON,
                              lecture=Lecture.FOLD_INSIDE_AFTER_FIRST)
TENSOR_IMPL_STEP = step("~TensorImpl", Layer.MEMORY, source=TENSOR_IMPL,
                        note="cudart.tensor_impl_dtor")
STORAGE_IMPL_STEP = step("~StorageImpl", Layer.MEMORY, source=STORAGE_IMPL)
LOCAL_RAW_DELETE = step("local_raw_delete", Layer.MEMORY, source=SOURCE)
NATIVE_CACHING_ALLOCATOR_FREE = step("NativeCachingAllocator::free", Layer.MEMORY, source=SOURCE)
GET_ALLOCATED_BLOCK = step("get_allocated_block", Layer.MEMORY, source=SOURCE)


def release(serial: int, who: str, reason: Note) -> None:
    """The last reference to storage ``serial`` went (``reason``): record the C++ chain
    that runs then and give the block back to the cache."""
    from engine.memory.cuda_caching_allocator import device_allocator, hex_ptr

    storage, block = current().local(LiveBlocks).by_serial.pop(serial)
    ptr = hex_ptr(block.ptr)
    # the reason's short name as an argument too: the lecture view shows arguments, and
    # the note (its sentence) only with --full
    why = reason.id.rsplit(".", 1)[-1]
    named = {"tensor": who} if who else {}      # a temporary never had a name
    with span(LAST_REFERENCE_DROPPED, note=reason, reason=why, **named, storage=storage) as group:
        group.set(simulated=True)
        emit(TENSOR_IMPL_STEP, simulated=True)
        with span(STORAGE_IMPL_STEP,
                  note=Note("cudart.storage_impl_dtor", nbytes=storage.nbytes),
                  storage=storage, simulated=True):
            with span(LOCAL_RAW_DELETE,
                      note=Note("cudart.local_raw_delete", ptr=ptr), ptr=ptr, simulated=True):
                with span(NATIVE_CACHING_ALLOCATOR_FREE,
                          note=Note("cudart.native_free", ptr=ptr, size=block.size),
                          ptr=ptr, simulated=True):
                    emit(GET_ALLOCATED_BLOCK,
                         note=Note("cudart.get_allocated_block", ptr=ptr, size=block.size),
                         ptr=ptr, remove=True, result=block.size, simulated=True)
                    device_allocator(0).free(block)


def reachable_storages(values: Iterable[Any], storage_of: Any) -> set[int]:
    """The serials of the storages ``values`` reach: tensors, and the tensors inside
    lists, tuples and dicts (a name holding ``[x, y]`` keeps both alive)."""
    found: set[int] = set()
    stack = list(values)
    seen: set[int] = set()
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        storage = storage_of(value)
        if storage is not None:
            found.add(storage.serial)
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    return found
