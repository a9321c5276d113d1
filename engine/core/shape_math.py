"""The stride arithmetic of the shape operators core/view.py has no room for: movedim's
order, unfold's windows, view(dtype)'s rescaled geometry, empty_permuted's strides.

Pure functions over sizes and strides, each with the worked example a learner would do
on paper; the kernels in engine/ops/shape.py validate first, with torch's messages, and
then call these.  Each names the PyTorch source it mirrors.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import view as S


def movedim_order(ndim: int, src: Sequence[int], dst: Sequence[int]) -> list[int]:
    """movedim's permutation (aten/src/ATen/native/TensorShape.cpp): ``order[dst[i]] =
    src[i]``, and the dims nobody moved fill the free places in their own order.  The
    dims are already wrapped and unique.

    >>> movedim_order(3, [0], [2])       # dim 0 goes last; 1 and 2 slide forward
    [1, 2, 0]
    >>> movedim_order(4, [0, 1], [3, 0])
    [1, 2, 3, 0]
    """
    order = [-1] * ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest_src = [i for i in range(ndim) if i not in set(src)]
    rest_dst = [i for i in range(ndim) if i not in set(dst)]
    for s, d in zip(rest_src, rest_dst):
        order[d] = s
    return order


def unfold_geometry(sizes: Sequence[int], strides: Sequence[int], dim: int, size: int,
                    step: int) -> tuple[list[int], list[int]]:
    """unfold (TensorShape.cpp): a new last dim of ``size`` elements, stepping by the
    unfolded dim's stride; the unfolded dim now counts windows, ``(n - size) // step + 1``
    of them, ``step`` strides apart.  A 0-dim tensor unfolds as one element of stride 1.

    >>> unfold_geometry([3, 4], [4, 1], 1, 2, 1)   # windows of 2 along dim 1
    ([3, 3, 2], [4, 1, 1])
    >>> unfold_geometry([3, 4], [4, 1], 1, 2, 2)   # the same, not overlapping
    ([3, 2, 2], [4, 2, 1])
    >>> unfold_geometry([], [], 0, 1, 1)
    ([1], [1])
    >>> unfold_geometry([3], [2], 0, 1, 2**62)      # 2 * 2**62 wraps as an int64_t does
    ([1, 1], [-9223372036854775808, 2])
    """
    new_sizes, new_strides = list(sizes) + [size], list(strides)
    new_strides.append(strides[dim] if sizes else 1)
    if dim < len(sizes):
        new_sizes[dim] = (sizes[dim] - size) // step + 1
        # an int64_t product in C++: a huge step wraps (and as_strided then refuses the
        # negative stride)
        new_strides[dim] = (new_strides[dim] * step + 2**63) % 2**64 - 2**63
    return new_sizes, new_strides


def view_dtype_geometry(sizes: Sequence[int], strides: Sequence[int], offset: int,
                        old_size: int, new_size: int) -> tuple[list[int], list[int], int]:
    """view_dtype (TensorShape.cpp), the element sizes differing: the last dim (stride 1)
    holds ``ratio`` times more (or fewer) elements, every other stride and the offset are
    scaled by the ratio.  The checks that make it exact are the kernel's.

    >>> view_dtype_geometry([2, 3], [3, 1], 0, 8, 4)    # int64 -> int32: twice the elements
    ([2, 6], [6, 1], 0)
    >>> view_dtype_geometry([2, 6], [6, 1], 2, 4, 8)    # int32 -> int64: half
    ([2, 3], [3, 1], 1)
    """
    n = len(sizes)
    new_sizes = list(sizes)
    if old_size > new_size:
        ratio = old_size // new_size
        new_strides = [s * ratio for s in strides[:-1]] + [1]
        new_sizes[n - 1] *= ratio
        return new_sizes, new_strides, offset * ratio
    ratio = new_size // old_size
    new_strides = [s // ratio for s in strides[:-1]] + [1]
    new_sizes[n - 1] //= ratio
    return new_sizes, new_strides, offset // ratio


def permuted_strides(physical_strides: Sequence[int], layout: Sequence[int]) -> list[int]:
    """empty_permuted_symint (TensorFactories.cpp): the strides of a contiguous tensor of
    the physical sizes, handed back to the logical dims -- the inverse permutation,
    ``strides[layout[i]] = physical_strides[i]``.

    >>> permuted_strides([8, 4, 1], [2, 0, 1])   # size (2, 4, 3): dim 2 outermost
    [4, 1, 8]
    """
    strides = [0] * len(layout)
    for i, d in enumerate(layout):
        strides[d] = physical_strides[i]
    return strides


def logical_to_physical_perm(sizes: Sequence[int], strides: Sequence[int],
                             contiguous: bool, channels_last: bool,
                             ambiguity_check: bool) -> tuple[list[int], bool]:
    """torch._prims_common.compute_elementwise_output_logical_to_physical_perm for one
    tensor, as Tensor.dim_order uses it: the dims from outermost to innermost in memory
    (an insertion sort on the strides, back to front), and whether, asked to check, the
    order is ambiguous (equal strides, or a stride 0).

    >>> logical_to_physical_perm([2, 3, 4], [1, 8, 2], False, False, False)
    ([1, 2, 0], False)
    >>> logical_to_physical_perm([2, 2], [0, 0], False, False, True)
    ([0, 1], True)
    """
    ndim = len(sizes)
    if ndim == 0:
        return [], False
    if ndim == 1:
        return [0], False
    if contiguous and not channels_last:
        return list(range(ndim)), False
    if channels_last and not contiguous:
        return [0, *range(2, ndim), 1], False

    def ge(a: int, b: int) -> bool:
        if b == 0:
            return True
        if a == 0:
            return False
        return a >= b or a % b == 0

    def should_swap(a: int, b: int) -> int:
        sa, sb = strides[a], strides[b]
        if sa == 0 or sb == 0:
            return 0
        if sa == sb:
            return 0 if ge(sizes[b], sizes[a]) else 1
        if ge(sb, sa):
            return -1
        if ge(sa, sb):
            return 1
        return 0

    perm = S.sort_dims(list(reversed(range(ndim))), should_swap)   # the same insertion sort
    ambiguous = ambiguity_check and any(should_swap(perm[i], perm[i + 1]) != -1
                                        for i in range(ndim - 1))
    return list(reversed(perm)), ambiguous


def infer_broadcast(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """at::infer_size of two shapes (ExpandUtils.cpp): the broadcast shape, or its error.

    >>> infer_broadcast((2, 1), (3,))
    (2, 3)
    """
    shape = S.broadcast_shapes(a, b)
    if shape is None:
        raise S.broadcast_error(a, b)
    return shape
