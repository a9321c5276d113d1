"""The stride arithmetic of a diagonal: one dimension that steps along two at once.

Mirrors at::native::diagonal (aten/src/ATen/native/TensorShape.cpp) and the strides
fill_diagonal_ (aten/src/ATen/native/Fill.cpp) and batched_matrix_contiguous_strides
(aten/src/ATen/native/LinearAlgebraUtils.h) use.  Pure functions of sizes and strides;
the kernels in engine/ops/diagonal.py and engine/ops/triangular.py call them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class DiagonalGeometry(NamedTuple):
    """The view ``diagonal`` returns: dim1 and dim2 dropped, one dim appended."""

    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int          # the new storage offset
    diag_size: int       # the appended dim's length
    step: int            # the appended dim's stride: stride[dim1] + stride[dim2]
    shift: int           # how far the storage offset moved (0 for an empty diagonal)


def diagonal_size(size1: int, size2: int, k: int) -> int:
    """How many elements the k-th diagonal of a size1 x size2 matrix holds.  A positive
    k drops the k leftmost columns (along dim2), a negative one the -k topmost rows
    (along dim1); an offset "off the end" gives 0, never a negative length.

    >>> diagonal_size(3, 4, 0), diagonal_size(3, 4, 2), diagonal_size(3, 4, -2)
    (3, 2, 1)
    >>> diagonal_size(3, 4, 9), diagonal_size(3, 4, -9)
    (0, 0)
    """
    if k >= 0:
        return max(min(size1, size2 - k), 0)
    return max(min(size1 + k, size2), 0)


def diagonal_geometry(sizes: Sequence[int], strides: Sequence[int], offset: int, k: int,
                      dim1: int, dim2: int) -> DiagonalGeometry:
    """The diagonal view of a tensor, dims already wrapped and distinct.

    Worked example: a contiguous 3 x 4 matrix (strides (4, 1)), k = 1.  One step along
    the diagonal is one row down and one column right: 4 + 1 = 5 elements of storage.
    The diagonal starts k columns in: offset 0 + 1 * stride[dim2] = 1.  It holds
    min(3, 4 - 1) = 3 elements, at storage 1, 6, 11.

    >>> diagonal_geometry((3, 4), (4, 1), 0, 1, 0, 1)
    DiagonalGeometry(sizes=(3,), strides=(5,), offset=1, diag_size=3, step=5, shift=1)

    Below the main diagonal the start moves -k rows down (k = -1: 1 * 4 = 4); batch
    dims stay in front and the diagonal is the last dim:

    >>> diagonal_geometry((2, 3, 4), (12, 4, 1), 0, -1, 1, 2)
    DiagonalGeometry(sizes=(2, 2), strides=(12, 5), offset=4, diag_size=2, step=5, shift=4)
    """
    n1, n2 = sizes[dim1], sizes[dim2]
    diag_size = diagonal_size(n1, n2, k)
    # NumPy allows offsets "off the end": an empty diagonal keeps the offset it had
    if diag_size == 0:
        shift = 0
    elif k >= 0:
        shift = k * strides[dim2]
    else:
        shift = -k * strides[dim1]
    keep = [d for d in range(len(sizes)) if d not in (dim1, dim2)]
    step = strides[dim1] + strides[dim2]
    return DiagonalGeometry(tuple(sizes[d] for d in keep) + (diag_size,),
                            tuple(strides[d] for d in keep) + (step,),
                            offset + shift, diag_size, step, shift)


def embed_sizes(sizes: Sequence[int], k: int, dim1: int, dim2: int) -> tuple[int, ...]:
    """diag_embed's result sizes: the last dim of ``sizes`` becomes two dims of length
    |k| + n, placed at dim1 and dim2 (wrapped against one more dim).

    >>> embed_sizes((2, 3), 0, 1, 2), embed_sizes((3,), -1, 0, 1), embed_sizes((2, 3), 1, 2, 0)
    ((2, 3, 3), (4, 4), (4, 2, 4))
    """
    n = abs(k) + sizes[-1]
    out = list(sizes[:-1])
    out.insert(min(dim1, dim2), n)
    out.insert(max(dim1, dim2), n)
    return tuple(out)


def fill_diagonal_step(strides: Sequence[int]) -> int:
    """fill_diagonal_'s one stride: the sum of every dim's stride (all dims step at once).

    >>> fill_diagonal_step((12, 4, 1))
    17
    """
    return sum(strides)


def wrap_size(numel: int, width: int, size: int) -> int:
    """fill_diagonal_(wrap=True) on a tall matrix: after the first min(h, w) diagonal
    elements, the diagonal restarts every width + 1 elements of the flattened matrix.
    C++ integer division (the operands are non-negative here).

    >>> wrap_size(7 * 3, 3, 3)   # a 7 x 3 matrix: elements 0, 4, 8, then 12, 16, 20
    3
    """
    step = width + 1
    return (numel + step - 1) // step - size


def batched_matrix_contiguous_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """c10::contiguous_strides: row-major strides with max(size, 1) in the products, what
    checkTrilTriuBatchContiguous compares a contiguous tensor's strides with.

    >>> batched_matrix_contiguous_strides((2, 1, 3))
    (3, 3, 1)
    """
    strides = [1] * len(sizes)
    for i in range(len(sizes) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(sizes[i + 1], 1)
    return tuple(strides)
