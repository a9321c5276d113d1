"""Which memory format a tensor's strides suggest (c10/core/MemoryFormat.h, TensorBase.h).

``suggest_memory_format`` is how an operator that builds its output from its inputs (cat,
empty_like's preserve_format) guesses whether the inputs are laid out NCHW or NHWC.  It
looks only at the strides: a 4-d tensor whose strides walk C, then W, then H, then N from
the smallest up is "like channels last", even when it was made by a permute and never
asked for that format.

A worked example: a (1, 3, 2, 2) tensor in channels-last order has strides (12, 1, 6, 3).
Walk the dims in the order C, W, H, N (1, 3, 2, 0) and keep a running minimum:
C's stride 1 >= 0, the minimum becomes 1*3 = 3; W's stride 3 >= 3, minimum 3*2 = 6;
H's stride 6 >= 6, minimum 6*2 = 12; N's stride 12 >= 12 -- every dim sits above the
last, so the strides are channels-last-like:

>>> is_channels_last_strides_2d((1, 3, 2, 2), (12, 1, 6, 3))
True
>>> suggest_memory_format((1, 3, 2, 2), (12, 1, 6, 3)), suggest_memory_format((2, 3), (3, 1))
('channels_last', 'contiguous_format')
"""

from __future__ import annotations

from collections.abc import Sequence

CONTIGUOUS, CHANNELS_LAST, CHANNELS_LAST_3D = (
    "contiguous_format", "channels_last", "channels_last_3d")


def _strides_like(sizes: Sequence[int], strides: Sequence[int], order: Sequence[int]) -> bool:
    """is_channels_last_strides_2d_s4 / _3d_s5: each dim, in ``order``, must not step
    below the dims before it (the running minimum); ambiguous cases fall back to NCHW."""
    if strides[1] == 0:                 # a trivial C dimension: default to NCHW
        return False
    low = 0
    for d in order:
        if sizes[d] == 0 or strides[d] < low:
            return False
        # N111 with identical strides (contiguous, or N11W sliced on W) stays NCHW
        if d == 0 and low == strides[1]:
            return False
        low = strides[d] * sizes[d] if sizes[d] > 1 else strides[d]
    return True


def is_channels_last_strides_2d(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """c10::is_channels_last_strides_2d: only rank 4 (rank 3 is "not fully tested" in
    torch and always False)."""
    return len(sizes) == 4 and _strides_like(sizes, strides, (1, 3, 2, 0))


def is_channels_last_strides_3d(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """c10::is_channels_last_strides_3d: rank 5, dims C, W, H, D, N."""
    return len(sizes) == 5 and _strides_like(sizes, strides, (1, 4, 3, 2, 0))


def suggest_memory_format(sizes: Sequence[int], strides: Sequence[int]) -> str:
    """TensorBase::suggest_memory_format() (channels_last_strides_exact_match=false)."""
    if is_channels_last_strides_2d(sizes, strides):
        return CHANNELS_LAST
    if is_channels_last_strides_3d(sizes, strides):
        return CHANNELS_LAST_3D
    return CONTIGUOUS


def is_contiguous_as(sizes: Sequence[int], strides: Sequence[int], fmt: str) -> bool:
    """TensorImpl::is_contiguous(memory_format): row-major for contiguous_format, NHWC
    (or NDHWC) memory order for the channels-last formats.

    >>> is_contiguous_as((1, 3, 2, 2), (12, 1, 6, 3), CHANNELS_LAST)
    True
    """
    order: tuple[int, ...] | None = {CONTIGUOUS: None, CHANNELS_LAST: (1, 3, 2, 0),
                                     CHANNELS_LAST_3D: (1, 4, 3, 2, 0)}[fmt]
    if order is None:
        order = tuple(reversed(range(len(sizes))))
    elif len(sizes) != len(order):
        return False
    if fmt == CONTIGUOUS and any(s == 0 for s in sizes):
        return True                       # an empty tensor is contiguous whatever its strides
    expected = 1
    for d in order:
        if sizes[d] != 1:
            if strides[d] != expected:
                return False
            expected *= sizes[d]
    return True
