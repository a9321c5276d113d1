"""Memory overlap checks (aten/src/ATen/MemoryOverlap.cpp): a kernel that writes must not
read what it is writing, nor write one location through two elements.

PyTorch asks these questions of TensorImpls before a kernel runs: ``t.scatter_(1, t, 1)``,
``t[1:] = t[:-1]`` or ``x[x > 0, 0] = x`` would otherwise read values the same kernel
has already overwritten, so they fail with "unsupported operation".  A question that is
too hard to answer cheaply (a strided view) is answered "too hard", and the operation
goes ahead, as it does in PyTorch.
"""

from __future__ import annotations

from enum import Enum

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, step, symbol

from engine.core import view as S
from engine.core.errors import torch_error
from engine.memory.allocator import check_temporary
from engine.ops.touch import storage_offsets

SOURCE = "aten/src/ATen/MemoryOverlap.cpp"


class MemOverlap(Enum):
    NO = "No"
    YES = "Yes"
    TOO_HARD = "TooHard"


class MemOverlapStatus(Enum):
    FULL = "Full"
    PARTIAL = "Partial"
    NO = "No"
    TOO_HARD = "TooHard"


def _dense(t) -> bool:
    return S.is_non_overlapping_and_dense(t.view.sizes, t.view.strides)


def has_internal_overlap(t) -> MemOverlap:
    """Whether two elements of ``t`` share a location: no for a dense tensor, yes for a
    dim of stride 0 and size > 1 (an expand), too hard otherwise."""
    if _dense(t):
        return MemOverlap.NO
    if any(st == 0 and n > 1 for n, st in zip(t.view.sizes, t.view.strides)):
        return MemOverlap.YES
    return MemOverlap.TOO_HARD


def get_overlap_status(a, b) -> MemOverlapStatus:
    """How the memory of ``a`` and ``b`` overlaps, from their byte ranges when both are
    dense views of one storage."""
    if a is b:
        return MemOverlapStatus.FULL
    if a.numel() == 0 or b.numel() == 0:
        return MemOverlapStatus.NO
    if not _dense(a) or not _dense(b):
        return MemOverlapStatus.TOO_HARD
    if a.storage is b.storage:
        a_begin = a.view.offset * a.dtype.itemsize
        a_end = a_begin + a.numel() * a.dtype.itemsize
        b_begin = b.view.offset * b.dtype.itemsize
        b_end = b_begin + b.numel() * b.dtype.itemsize
        if a_begin == b_begin and a_end == b_end:
            return (MemOverlapStatus.FULL if a.view.strides == b.view.strides
                    else MemOverlapStatus.PARTIAL)
        if a_begin < b_end and b_begin < a_end:
            return MemOverlapStatus.PARTIAL
    return MemOverlapStatus.NO


_SHARED = ("unsupported operation: some elements of the input tensor and the written-to "
           "tensor refer to a single memory location. Please clone() the tensor before "
           "performing the operation.")


def assert_no_internal_overlap(t) -> None:
    if has_internal_overlap(t) is MemOverlap.YES:
        raise torch_error(RuntimeError, "unsupported operation: more than one element of the "
                          "written-to tensor refers to a single memory location. Please "
                          "clone() the tensor before performing the operation.")


def assert_no_partial_overlap(a, b) -> None:
    if get_overlap_status(a, b) is MemOverlapStatus.PARTIAL:
        raise torch_error(RuntimeError, _SHARED)


def assert_no_overlap(a, b) -> None:
    if get_overlap_status(a, b) in (MemOverlapStatus.PARTIAL, MemOverlapStatus.FULL):
        raise torch_error(RuntimeError, _SHARED)


# one step for a kernel's overlap checks; the one with the internal check starts with it,
# as TensorIterator's compute_mem_overlaps does (TensorIterator.cpp)
ASSERT_NO_OVERLAP = step("assert_no_overlap", Layer.KERNEL, source=SOURCE,
                         note="overlap.check_inputs", libtorch=symbol("at::assert_no_overlap"),
                         lecture=Lecture.HIDDEN)
ASSERT_NO_INTERNAL_OVERLAP = step("assert_no_overlap", Layer.KERNEL, source=SOURCE,
                                  note="overlap.check",
                                  libtorch=symbol("at::assert_no_internal_overlap"),
                                  lecture=Lecture.HIDDEN)


def check(what: str, written, *, full=(), partial=(), internal: bool = True) -> None:
    """The checks a kernel makes before it writes ``written``, as one recorded step:
    internal overlap, then full-or-partial overlap with each of ``full`` and partial
    overlap with each of ``partial``."""
    with span(ASSERT_NO_INTERNAL_OVERLAP if internal else ASSERT_NO_OVERLAP, writer=what):
        if internal:
            assert_no_internal_overlap(written)
        for other in full:
            assert_no_overlap(written, other)
        for other in partial:
            assert_no_partial_overlap(written, other)


TORCH_WARN = step("TORCH_WARN", Layer.KERNEL,
                  source="aten/src/ATen/native/TensorAdvancedIndexing.cpp")


def warn_if_expanded(written, op: str, tail: str) -> None:
    """The deprecation warning index_put_ and masked_fill_ give for an expanded self."""
    if has_internal_overlap(written) is MemOverlap.YES:
        with span(TORCH_WARN,
                  note=Note("overlap.expanded_warning", op=op, tail=tail),
                  category="UserWarning"):
            pass


def shares_elements(a, b) -> bool:
    """Whether a view written and a view read touch a common element of one storage, when
    get_overlap_status cannot tell (strided views): the kernel would then read, element
    by element, values it has just written."""
    if a.storage is not b.storage or get_overlap_status(a, b) is not MemOverlapStatus.TOO_HARD:
        return False
    if a.dtype.itemsize != b.dtype.itemsize:
        return True     # different element grids over the same bytes: assume they meet
    # both views' offsets, and intersect1d's sorted copy of them
    check_temporary("the overlap check", a.numel() + b.numel(), 8, copies=3)
    mine = storage_offsets(a.view.sizes, a.view.strides, a.view.offset)
    theirs = storage_offsets(b.view.sizes, b.view.strides, b.view.offset)
    return bool(np.intersect1d(mine, theirs).size)
