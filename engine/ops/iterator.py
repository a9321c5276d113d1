"""The layout TensorIterator gives an output it allocates (aten/src/ATen/TensorIterator.cpp).

An output that TensorIterator allocates follows the memory order of its inputs,
not plain row-major: ``reorder_dimensions`` sorts the dims by the inputs'
strides, and ``allocate_or_resize_outputs`` lays the output out in that order
(``compatible_stride``).  Only when the order is the natural one is the output
simply contiguous.  This is why ``t.t()[:, [1, 0]]``-style results can come out
non-contiguous in PyTorch, and tidx reproduces it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import view as S


def _operand_strides(shape: Sequence[int], sizes: Sequence[int], strides: Sequence[int],
                     itemsize: int) -> list[int]:
    """Byte strides of an input broadcast to ``shape``, in iterator order (innermost first).

    compute_strides: a broadcast dim (size 1 against a larger size, or missing) gets 0.
    """
    ndim, offset = len(shape), len(shape) - len(sizes)
    out = [0] * ndim
    for i in range(len(sizes)):
        if not (sizes[i] == 1 and shape[offset + i] != 1):
            out[offset + i] = strides[i] * itemsize
    return out[::-1]


def _fast_setup(shape: Sequence[int],
                inputs: Sequence[tuple[Sequence[int], Sequence[int], int]]
                ) -> tuple[int, ...] | None:
    """compute_fast_setup_type: with no broadcasting, an all-contiguous (or all
    channels-last, or all same-strided dense) set of inputs fixes the output's layout
    without reordering dims."""
    if any(tuple(sz) != tuple(shape) for sz, _, _ in inputs):
        return None
    if all(S.is_contiguous(sz, st) for sz, st, _ in inputs):
        return S.contiguous_strides(shape)
    if all(S.is_channels_last_contiguous(sz, st) for sz, st, _ in inputs):
        return S.channels_last_strides(shape)
    if all(S.is_non_overlapping_and_dense(sz, st) for sz, st, _ in inputs):
        if all(tuple(st) == tuple(inputs[-1][1]) for _, st, _ in inputs):
            return tuple(inputs[-1][1])
    return None


def reorder_dimensions(shape: Sequence[int],
                       operands: Sequence[tuple[Sequence[int], Sequence[int], int]]
                       ) -> list[int]:
    """TensorIterator::reorder_dimensions: the dims in the order the loop walks them,
    innermost first, as reversed-dim numbers (``ndim - 1 - d`` is tensor dim ``d``),
    sorted by the operands' strides (``(sizes, strides, itemsize)`` each, in
    TensorIterator's operand order).

    >>> reorder_dimensions((2, 3), [((2, 3), (1, 2), 4)])
    [1, 0]
    """
    rev_shape = list(shape)[::-1]
    ops = [_operand_strides(shape, sz, st, isz) for sz, st, isz in operands]

    def should_swap(d0: int, d1: int) -> int:
        for st in ops:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if rev_shape[d0] > rev_shape[d1]:
                return 1
        return 0

    # perm_[i] = ndim-1-i in tensor dims == i in reversed dims
    return S.sort_dims(list(range(len(shape))), should_swap)


def serial_order(shape: Sequence[int],
                 operands: Sequence[tuple[Sequence[int], Sequence[int], int]]) -> list[int]:
    """The row-major flat indices of ``shape`` in the order a serial TensorIterator loop
    (cpu_serial_kernel) visits them: its reordered dims, innermost fastest.

    >>> serial_order((2, 3), [((2, 3), (1, 2), 4)])
    [0, 3, 1, 4, 2, 5]
    """
    import numpy as np

    ndim = len(shape)
    if ndim == 0:
        return [0]
    perm = reorder_dimensions(shape, operands)
    # tensor dims from outermost to innermost loop
    loop_dims = [ndim - 1 - p for p in reversed(perm)]
    flat = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(tuple(shape))
    return flat.transpose(loop_dims).reshape(-1).tolist()


def output_strides(shape: Sequence[int],
                   inputs: Sequence[tuple[Sequence[int], Sequence[int], int]]) -> tuple[int, ...]:
    """Element strides of a fresh output of ``shape`` next to ``inputs``
    (``(sizes, strides, itemsize)`` each).

    >>> output_strides((3, 2), [((3, 2), (2, 1), 8)])
    (2, 1)
    >>> output_strides((4, 2, 2), [((4, 2, 2), (1, 0, 12), 8), ((1, 2, 1), (2, 1, 1), 8)])
    (1, 4, 8)
    >>> output_strides((0, 0, 1), [((0, 0, 1), (0, 1, 1), 8), ((0, 1, 1), (1, 1, 1), 8)])
    (0, 1, 0)
    """
    ndim = len(shape)
    if ndim == 0:
        return ()
    fast = _fast_setup(shape, inputs)
    if fast is not None:
        return fast
    rev_shape = list(shape)[::-1]
    perm = reorder_dimensions(shape, inputs)
    if perm == list(range(ndim)):
        return S.contiguous_strides(shape)
    # compatible_stride over the permuted shape (no max(size, 1): zero sizes give 0)
    permuted_shape = [rev_shape[p] for p in perm]
    stride, nxt = [0] * ndim, 1
    for i in range(ndim):
        stride[i] = nxt
        nxt *= permuted_shape[i]
    # invert_perm: back to reversed-dim order, then to tensor order
    rev_strides = [0] * ndim
    for i, p in enumerate(perm):
        rev_strides[p] = stride[i]
    return tuple(rev_strides[::-1])
