"""A tensor's geometry: the View value type and stride arithmetic as small pure functions.

A :class:`View` is what c10::TensorImpl keeps besides its storage and dtype: sizes,
strides (in elements) and a storage offset.  It is immutable; movement operations
(select, slice, unsqueeze, permute, transpose, squeeze, expand) return new Views, the
way tinygrad's ``shape/view.py`` does, and kernels validate their arguments with
PyTorch's messages *before* asking a View for the new geometry.  The functions below
each mirror a PyTorch helper; the doctests are the worked examples a learner would do
on paper.

>>> v = View((3, 3))
>>> v
View(sizes=(3, 3), strides=(3, 1), offset=0)
>>> v.select(0, 1).slice(0, 0, 3, 2)
View(sizes=(2,), strides=(2,), offset=3)
>>> v.transpose(0, 1).is_contiguous
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.errors import Refused, check, torch_error

#: std::numeric_limits<int64_t>::max(): storage sizes must fit in int64 and size_t
#: (storage_max() in aten/src/ATen/EmptyTensor.cpp).
STORAGE_MAX = 2**63 - 1
_U64 = 2**64
#: numpy's NPY_MAXDIMS: tidx's kernels compute on numpy views, so a tensor has at most
#: this many dims (torch itself has no such limit on CPU: tidx refuses, never guesses).
MAX_DIMS = 64
_set = object.__setattr__  # how a frozen View sets its fields, once, in its constructor


class View:
    """Sizes, strides and storage offset: immutable, built through this one constructor.

    ``View(sizes)`` is contiguous (row-major strides, offset 0); ``View(sizes, strides,
    offset)`` takes them as given.  Every number is canonicalised to a Python int and
    every sequence to a tuple, so two equal geometries compare and hash equal.
    """

    __slots__ = ("sizes", "strides", "offset")

    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int

    def __init__(self, sizes: Sequence[int], strides: Sequence[int] | None = None,
                 offset: int = 0) -> None:
        sizes = tuple(map(int, sizes))
        if len(sizes) > MAX_DIMS:
            raise Refused(f"tidx keeps tensors of at most {MAX_DIMS} dims (numpy's limit, "
                          f"which its storage views live in); this one would have "
                          f"{len(sizes)}")
        strides = contiguous_strides(sizes) if strides is None else tuple(map(int, strides))
        assert len(sizes) == len(strides), "sizes and strides must have one entry per dim"
        _set(self, "sizes", sizes)
        _set(self, "strides", strides)
        _set(self, "offset", int(offset))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a View is immutable: movement operations return a new one")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and (self.sizes, self.strides, self.offset) == (
            other.sizes, other.strides, other.offset)

    def __hash__(self) -> int:
        return hash((self.sizes, self.strides, self.offset))

    def __repr__(self) -> str:
        return f"View(sizes={self.sizes}, strides={self.strides}, offset={self.offset})"

    # -- facts -----------------------------------------------------------------------
    @property
    def ndim(self) -> int:
        return len(self.sizes)

    @property
    def numel(self) -> int:
        return numel(self.sizes)

    @property
    def is_contiguous(self) -> bool:
        return is_contiguous(self.sizes, self.strides)

    @property
    def is_non_overlapping_and_dense(self) -> bool:
        return is_non_overlapping_and_dense(self.sizes, self.strides)

    @property
    def is_channels_last_contiguous(self) -> bool:
        return is_channels_last_contiguous(self.sizes, self.strides)

    def storage_nbytes(self, itemsize: int) -> int:
        """computeStorageNbytes: the bytes from the storage's start this view can reach.

        >>> View((3,), (2,), 1).storage_nbytes(8)
        48
        """
        return compute_storage_nbytes(self.sizes, self.strides, itemsize, self.offset)

    # -- movement: each a new View; arguments are already checked and wrapped --------
    def select(self, dim: int, index: int) -> "View":
        """Drop ``dim``; the offset moves ``index`` strides along it.

        >>> View((3, 4)).select(1, 2)
        View(sizes=(3,), strides=(4,), offset=2)
        """
        return View(self.sizes[:dim] + self.sizes[dim + 1:],
                    self.strides[:dim] + self.strides[dim + 1:],
                    self.offset + index * self.strides[dim])

    def slice(self, dim: int, start: int, end: int, step: int) -> "View":
        """Keep elements ``start, start+step, ...`` below ``end`` (already clamped).

        >>> View((5,)).slice(0, 1, 5, 2)
        View(sizes=(2,), strides=(2,), offset=1)
        """
        sizes, strides = list(self.sizes), list(self.strides)
        # int64_t arithmetic, as at::native::slice does it: a huge step wraps around
        sizes[dim] = div_trunc(int64(end - start + step - 1), step)
        strides[dim] = int64(strides[dim] * step)
        return View(sizes, strides, int64(self.offset + int64(start * self.strides[dim])))

    def unsqueeze(self, dim: int) -> "View":
        """A new dim of size 1 at ``dim`` (inferUnsqueezeGeometry).

        >>> View((3, 4)).unsqueeze(1)
        View(sizes=(3, 1, 4), strides=(4, 4, 1), offset=0)
        """
        stride = unsqueeze_stride(self.sizes, self.strides, dim)
        return View(self.sizes[:dim] + (1,) + self.sizes[dim:],
                    self.strides[:dim] + (stride,) + self.strides[dim:], self.offset)

    def squeeze(self, dims: Sequence[int]) -> "View":
        """Drop the dims listed (the caller keeps only dims of size 1 there).

        >>> View((3, 1, 4)).squeeze([1])
        View(sizes=(3, 4), strides=(4, 1), offset=0)
        """
        keep = [d for d in range(self.ndim) if d not in dims]
        return self.permute(keep)

    def permute(self, dims: Sequence[int]) -> "View":
        """Sizes and strides in the order ``dims`` (dims may also be left out: squeeze).

        >>> View((2, 3)).permute([1, 0])
        View(sizes=(3, 2), strides=(1, 3), offset=0)
        """
        return View([self.sizes[d] for d in dims], [self.strides[d] for d in dims],
                    self.offset)

    def transpose(self, dim0: int, dim1: int) -> "View":
        """Swap two dims: their sizes and strides trade places.

        >>> View((2, 3)).transpose(0, 1)
        View(sizes=(3, 2), strides=(1, 3), offset=0)
        """
        dims = list(range(self.ndim))
        dims[dim0], dims[dim1] = dims[dim1], dims[dim0]
        return self.permute(dims)

    def expand(self, target: Sequence[int], type_name: str = "torch.FloatTensor") -> "View":
        """Broadcast to ``target``: new and size-1 dims get stride 0 (inferExpandGeometry,
        which raises PyTorch's errors for shapes that cannot expand).

        >>> View((3, 1)).expand((2, 3, 4))
        View(sizes=(2, 3, 4), strides=(0, 1, 0), offset=0)
        """
        sizes, strides = infer_expand_geometry(self.sizes, self.strides, target, type_name)
        return View(sizes, strides, self.offset)

    def restrided(self, sizes: Sequence[int], strides: Sequence[int]) -> "View":
        """New sizes and strides at the same offset (alias_with_sizes_and_strides)."""
        return View(sizes, strides, self.offset)


def fmt_sizes(sizes: Sequence[int]) -> str:
    """How c10 prints an IntArrayRef: ``[3, 4]``.

    >>> fmt_sizes((3, 4)), fmt_sizes(())
    ('[3, 4]', '[]')
    """
    return "[" + ", ".join(str(int(s)) for s in sizes) + "]"


def contiguous_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides, as TensorImpl::empty_tensor_restride computes them.

    A dimension of size 0 or 1 still gets the running product (torch uses
    ``max(size, 1)`` when multiplying).

    >>> contiguous_strides((3, 4))
    (4, 1)
    >>> contiguous_strides((2, 0, 5))
    (5, 5, 1)
    >>> contiguous_strides(())
    ()
    """
    strides = [0] * len(sizes)
    acc = 1
    for i in range(len(sizes) - 1, -1, -1):
        strides[i] = acc
        acc *= max(int(sizes[i]), 1)
    return tuple(strides)


def channels_last_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """get_channels_last_strides_2d (c10/core/MemoryFormat.h) for NCHW sizes.

    >>> channels_last_strides((2, 3, 4, 5))
    (60, 1, 15, 3)
    """
    n, c, h, w = (int(s) for s in sizes)      # no max(size, 1): a 0 size gives 0 strides
    return (h * w * c, 1, w * c, c)


def numel(sizes: Sequence[int]) -> int:
    """Number of elements: the product of the sizes (1 for a 0-dim tensor).

    >>> numel((3, 4)), numel(()), numel((2, 0))
    (12, 1, 0)
    """
    n = 1
    for s in sizes:
        n *= int(s)
    return n


def compute_storage_nbytes_contiguous(sizes: Sequence[int], itemsize: int,
                                      storage_offset: int = 0) -> tuple[int, int]:
    """computeStorageNbytesContiguous (aten/src/ATen/EmptyTensor.cpp).

    Returns ``(numel, nbytes)``; raises torch's RuntimeError when the unsigned
    64-bit product overflows or exceeds :data:`STORAGE_MAX`.

    >>> compute_storage_nbytes_contiguous((3, 4), 4)
    (12, 48)
    >>> compute_storage_nbytes_contiguous((2**62, 2**62), 4)
    Traceback (most recent call last):
    ...
    RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]
    """
    # c10::safe_multiplies_u64, c10::add_overflows, c10::mul_overflows: each step
    # wraps modulo 2**64 and remembers whether it overflowed.
    size, overflowed = 1, False
    for s in sizes:
        size *= int(s) % _U64
        overflowed |= size >= _U64
        size %= _U64
    count = size
    size += storage_offset
    overflowed |= size >= _U64
    size %= _U64
    size *= itemsize
    overflowed |= size >= _U64
    size %= _U64
    overflowed |= size > STORAGE_MAX
    if overflowed:
        raise torch_error(RuntimeError,
                          f"Storage size calculation overflowed with sizes={fmt_sizes(sizes)}")
    return count, size


def maybe_wrap_dim(dim: int, ndim: int, wrap_scalar: bool = True) -> int:
    """c10::maybe_wrap_dim: negative dims count from the end.

    >>> maybe_wrap_dim(-1, 3)
    2
    >>> maybe_wrap_dim(3, 3)
    Traceback (most recent call last):
    ...
    IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 3)
    """
    if ndim <= 0:
        if not wrap_scalar:
            raise torch_error(IndexError, "Dimension specified as " + str(dim)
                              + " but tensor has no dimensions")
        ndim = 1
    lo, hi = -ndim, ndim - 1
    check(lo <= dim <= hi, IndexError,
          f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    return dim + ndim if dim < 0 else dim


def infer_size(shape: Sequence[int], numel_: int) -> tuple[int, ...]:
    """at::infer_size: resolve one ``-1`` in a view/reshape shape.

    >>> infer_size((-1, 2), 6)
    (3, 2)
    >>> infer_size((4, 2), 6)
    Traceback (most recent call last):
    ...
    RuntimeError: shape '[4, 2]' is invalid for input of size 6
    """
    newsize, infer_dim = 1, None
    for i, s in enumerate(shape):
        if s == -1:
            if infer_dim is not None:
                raise torch_error(RuntimeError, "only one dimension can be inferred")
            infer_dim = i
        elif s >= 0:
            newsize *= s
        else:
            raise torch_error(RuntimeError, f"invalid shape dimension {s} at index {i} of "
                                            f"shape {fmt_sizes(shape)}")
    out = list(shape)
    if numel_ == newsize or (infer_dim is not None and newsize > 0 and numel_ % newsize == 0):
        if infer_dim is not None:
            check(newsize != 0, RuntimeError,
                  f"cannot reshape tensor of 0 elements into shape {fmt_sizes(shape)} because "
                  "the unspecified dimension size -1 can be any value and is ambiguous")
            out[infer_dim] = numel_ // newsize
        return tuple(out)
    raise torch_error(RuntimeError,
                      f"shape '{fmt_sizes(shape)}' is invalid for input of size {numel_}")


def compute_view_strides(oldshape: Sequence[int], oldstride: Sequence[int],
                         newshape: Sequence[int]) -> tuple[int, ...] | None:
    """at::detail::computeStride: strides that let ``view`` reuse memory, or None.

    >>> compute_view_strides((3, 4), (4, 1), (2, 6))
    (6, 1)
    >>> compute_view_strides((3, 4), (1, 3), (12,)) is None
    True
    """
    if not oldshape:
        return (1,) * len(newshape)
    numel_ = numel(oldshape)
    if numel_ == 0 and tuple(oldshape) == tuple(newshape):
        return tuple(oldstride)
    newstride = [0] * len(newshape)
    if numel_ == 0:
        for view_d in range(len(newshape) - 1, -1, -1):
            if view_d == len(newshape) - 1:
                newstride[view_d] = 1
            else:
                newstride[view_d] = max(newshape[view_d + 1], 1) * newstride[view_d + 1]
        return tuple(newstride)
    view_d = len(newshape) - 1
    chunk_base_stride = oldstride[-1]
    tensor_numel, view_numel = 1, 1
    for tensor_d in range(len(oldshape) - 1, -1, -1):
        tensor_numel *= oldshape[tensor_d]
        if tensor_d == 0 or (oldshape[tensor_d - 1] != 1
                             and oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
                newstride[view_d] = view_numel * chunk_base_stride
                view_numel *= newshape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = oldstride[tensor_d - 1]
                tensor_numel, view_numel = 1, 1
    if view_d != -1:
        return None
    return tuple(newstride)


def infer_expand_geometry(sizes: Sequence[int], strides: Sequence[int],
                          target: Sequence[int], type_name: str = "torch.FloatTensor"
                          ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """inferExpandGeometry (aten/src/ATen/ExpandUtils.cpp): new dims get stride 0.

    >>> infer_expand_geometry((3, 1), (1, 1), (2, 3, 4))
    ((2, 3, 4), (0, 1, 0))
    """
    ndim, tdim = len(sizes), len(target)
    check(tdim >= ndim, RuntimeError,
          f"expand({type_name}{{{fmt_sizes(sizes)}}}, size={list(target)}): the number of "
          f"sizes provided ({tdim}) must be greater or equal to the number of dimensions in "
          f"the tensor ({ndim})")
    out_sizes, out_strides = [0] * tdim, [0] * tdim
    for i in range(tdim - 1, -1, -1):
        offset = ndim - 1 - (tdim - 1 - i)
        dim = sizes[offset] if offset >= 0 else 1
        # a new leading dim of size 1 continues the next dim's extent (it never steps)
        stride = strides[offset] if offset >= 0 else \
            (out_sizes[i + 1] * out_strides[i + 1] if i + 1 < tdim else 0)
        target_size = target[i]
        if target_size == -1:
            check(offset >= 0, RuntimeError,
                  f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                  f"non-existing dimension {i}")
            target_size = dim
        if dim != target_size:
            check(dim == 1, RuntimeError,
                  f"The expanded size of the tensor ({target_size}) must match the existing "
                  f"size ({dim}) at non-singleton dimension {i}.  Target sizes: "
                  f"{fmt_sizes(target)}.  Tensor sizes: {fmt_sizes(sizes)}")
            stride = 0
        out_sizes[i], out_strides[i] = target_size, stride
    return tuple(out_sizes), tuple(out_strides)


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...] | None:
    """infer_size over several shapes; None when they cannot broadcast.

    >>> broadcast_shapes((2, 1), (3,)), broadcast_shapes((2,), (3,))
    ((2, 3), None)
    """
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for shape in shapes:
        for i, s in enumerate(shape):
            j = ndim - len(shape) + i
            if out[j] == 1:
                out[j] = s
            elif s != 1 and s != out[j]:
                return None
    return tuple(out)


def broadcast_error(x: Sequence[int], y: Sequence[int]) -> BaseException:
    """The error TensorIterator raises for shapes that cannot broadcast.

    >>> broadcast_error((2, 3), (4,))
    RuntimeError('The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1')
    """
    nd = max(len(x), len(y))
    for i in range(nd - 1, -1, -1):
        sa = x[i - nd + len(x)] if i - nd + len(x) >= 0 else 1
        sb = y[i - nd + len(y)] if i - nd + len(y) >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            return torch_error(RuntimeError, f"The size of tensor a ({sa}) must match the size "
                                             f"of tensor b ({sb}) at non-singleton dimension {i}")
    raise AssertionError("the shapes broadcast")

def is_expandable_to(shape: Sequence[int], desired: Sequence[int]) -> bool:
    """at::is_expandable_to.

    >>> is_expandable_to((1, 3), (2, 3)), is_expandable_to((2,), (3,))
    (True, False)
    """
    if len(shape) > len(desired):
        return False
    for i in range(len(shape)):
        s, d = shape[-1 - i], desired[-1 - i]
        if s != d and s != 1:
            return False
    return True


def is_contiguous(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """TensorImpl::compute_contiguous: row-major, ignoring the strides of size-1 dims.

    >>> is_contiguous((2, 3), (3, 1)), is_contiguous((3, 2), (1, 3)), is_contiguous((0, 5), (9, 9))
    (True, False, True)
    """
    if any(s == 0 for s in sizes):  # an empty tensor is contiguous whatever its strides
        return True
    expected = 1
    for size, stride in zip(reversed(sizes), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def is_channels_last_contiguous(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """compute_channels_last_contiguous_2d: NHWC memory order for a 4-d tensor.

    >>> is_channels_last_contiguous((2, 3, 4, 5), (60, 1, 15, 3))
    True
    """
    if len(sizes) != 4:
        return False
    expected = 1
    for d in (1, 3, 2, 0):
        if sizes[d] != 1:
            if strides[d] != expected:
                return False
            expected *= sizes[d]
    return True


def is_non_overlapping_and_dense(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """TensorImpl::is_non_overlapping_and_dense(), the flag refresh_contiguous keeps:
    contiguous (an empty tensor always is), channels-last contiguous, or else
    compute_non_overlapping_and_dense (some permutation of the dims is contiguous).

    >>> is_non_overlapping_and_dense((3, 2), (1, 3)), is_non_overlapping_and_dense((3,), (0,))
    (True, False)
    >>> is_non_overlapping_and_dense((0, 2), (3, 2))
    True
    """
    if is_contiguous(sizes, strides) or is_channels_last_contiguous(sizes, strides):
        return True
    if len(sizes) == 1:
        return sizes[0] < 2 or strides[0] == 1
    perm = sorted(range(len(sizes)), key=lambda d: (sizes[d] < 2, strides[d] if sizes[d] >= 2
                                                    else 0))
    require = 1
    for d in perm:
        if sizes[d] < 2:
            return True
        if strides[d] != require:
            return False
        require *= sizes[d]
    return True


def infer_dense_strides(sizes: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    """c10 infer_dense_strides: dense strides that keep the input's dim order in memory.

    >>> infer_dense_strides((3, 2), (1, 6)), infer_dense_strides((3, 2), (3, 2))
    ((1, 3), (2, 1))
    """
    ndim = len(sizes)

    def should_swap(d0: int, d1: int) -> int:
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if sizes[d0] > sizes[d1] else 0

    perm = sort_dims(list(range(ndim - 1, -1, -1)), should_swap)
    out, curr = [0] * ndim, 1
    for idx in perm:
        out[idx] = curr
        if sizes[idx] > 1:
            curr *= sizes[idx]
    return tuple(out)


def compute_storage_nbytes(sizes: Sequence[int], strides: Sequence[int], itemsize: int,
                           storage_offset: int = 0) -> int:
    """computeStorageNbytes (aten/src/ATen/EmptyTensor.cpp): the bytes from the storage's
    start a strided view can reach, 0 if any size is 0.

    c10 computes ``(offset + 1 + sum((size_i - 1) * stride_i)) * itemsize`` in unsigned
    64-bit arithmetic (a negative stride or size wraps to a huge number) and raises when
    any step overflows or the total passes :data:`STORAGE_MAX`.

    >>> compute_storage_nbytes((3,), (2,), 8, 1)
    48
    >>> compute_storage_nbytes((0, 5), (5, 1), 4)
    0
    >>> compute_storage_nbytes((2, 3), (-1, 1), 4)
    Traceback (most recent call last):
    ...
    RuntimeError: Storage size calculation overflowed with sizes=[2, 3] and strides=[-1, 1]
    """
    total, overflowed = (int(storage_offset) + 1) % _U64, False   # size_t offset, plain +
    for size, stride in zip(sizes, strides):
        if int(size) == 0:
            return 0
        term = ((int(size) - 1) % _U64) * (int(stride) % _U64)   # mul_overflows(u64, u64)
        overflowed |= term >= _U64
        total += term % _U64                                       # add_overflows
        overflowed |= total >= _U64
        total %= _U64
    total *= itemsize
    overflowed |= total >= _U64 or total > STORAGE_MAX
    if overflowed:
        raise torch_error(RuntimeError, f"Storage size calculation overflowed with sizes="
                                        f"{fmt_sizes(sizes)} and strides={fmt_sizes(strides)}")
    return total


def int64(value: int) -> int:
    """The int64_t a C++ expression leaves: two's complement, wrapped modulo 2**64
    (``strides[dim] *= step`` in at::native::slice overflows silently).

    >>> int64(2**63), int64(4 * (2**63 - 1)), int64(-5)
    (-9223372036854775808, -4, -5)
    """
    return (int(value) + 2**63) % _U64 - 2**63


def div_trunc(a: int, b: int) -> int:
    """C++ integer division: the quotient truncated toward zero (Python's // floors).

    >>> div_trunc(-7, 2), -7 // 2
    (-3, -4)
    """
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


#: c10::SymInt::check_range: ints below -2**62 are tags for symbolic values.
SYMINT_MIN = -(2**62)


def check_symint_array(values: Sequence[int]) -> None:
    """c10::fromIntArrayRefSlow: an IntArrayRef passed where SymInts go (a kernel calling
    ``self.as_strided(sizes, strides, ...)``) must hold representable ints.

    >>> check_symint_array([3, -2**63])
    Traceback (most recent call last):
    ...
    RuntimeError: IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808
    """
    for v in values:
        check(v >= SYMINT_MIN, RuntimeError,
              f"IntArrayRef contains an int that cannot be represented as a SymInt: {v}")


def safe_compute_numel(sizes: Sequence[int]) -> int:
    """TensorImpl::safe_compute_numel: the product in unsigned 64-bit arithmetic (a negative
    size wraps), refused once any step overflows or the result passes int64's max.

    >>> safe_compute_numel((3, 4))
    12
    >>> safe_compute_numel((2**40, 2**40, 0))      # overflowed before the 0
    Traceback (most recent call last):
    ...
    RuntimeError: numel: integer multiplication overflow
    """
    n, overflowed = 1, False
    for s in sizes:
        n *= int(s) % _U64
        overflowed |= n >= _U64
        n %= _U64
    check(not overflowed and n <= STORAGE_MAX, RuntimeError,
          "numel: integer multiplication overflow")
    return n


def slice_bounds(size: int, start: int | None, end: int | None) -> tuple[int, int]:
    """at::native::slice's clamping of start and end to ``[0, size]``.

    >>> slice_bounds(3, 1, 2**63 - 1), slice_bounds(5, -2, None), slice_bounds(4, 3, 1)
    ((1, 3), (3, 5), (3, 3))
    >>> slice_bounds(3, 2**63 - 1, None)
    (3, 3)
    """
    start_val = 0 if start is None else int(start)
    end_val = 2**63 - 1 if end is None else int(end)
    # (torch 2.13 no longer reads a start of INT64_MAX as "no start": x[2**63-1:] is empty)
    if start_val < 0:
        start_val += size
    if end_val < 0:
        end_val += size
    start_val = min(max(start_val, 0), size)
    end_val = start_val if end_val < start_val else min(end_val, size)
    return start_val, end_val


def unsqueeze_stride(sizes: Sequence[int], strides: Sequence[int], dim: int) -> int:
    """inferUnsqueezeGeometry: the new size-1 dim's stride.

    >>> unsqueeze_stride((3, 4), (4, 1), 0), unsqueeze_stride((3, 4), (4, 1), 2)
    (12, 1)
    """
    return 1 if dim >= len(sizes) else sizes[dim] * strides[dim]


def sort_dims(perm: list[int], should_swap: Callable[[int, int], int]) -> list[int]:
    """The insertion sort TensorIterator::reorder_dimensions and infer_dense_strides share:
    ``should_swap`` may answer 0 ("ambiguous"), which keeps looking further left.

    >>> sort_dims([2, 1, 0], lambda a, b: (a > b) - (a < b))
    [0, 1, 2]
    """
    for i in range(1, len(perm)):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            cmp = should_swap(perm[dim0], perm[dim1])
            if cmp > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif cmp < 0:
                break
    return perm


#: dim_bitset_size (aten/src/ATen/WrapDimUtilsMulti.h): flip handles at most 64 dims.
DIM_BITSET_SIZE = 64


def dim_list_to_bitset(dims: Sequence[int], ndims: int) -> list[bool]:
    """at::dim_list_to_bitset: each dim wrapped, none repeated.

    >>> dim_list_to_bitset([0, -1], 3)[:3]
    [True, False, True]
    >>> dim_list_to_bitset([1, -1], 2)
    Traceback (most recent call last):
    ...
    RuntimeError: dim 1 appears multiple times in the list of dims
    """
    check(ndims <= DIM_BITSET_SIZE, RuntimeError,
          f"only tensors with up to {DIM_BITSET_SIZE} dims are supported")
    seen = [False] * DIM_BITSET_SIZE   # a 0-dim tensor has one dim to wrap into
    for d in dims:
        dim = maybe_wrap_dim(d, ndims)
        check(not seen[dim], RuntimeError, f"dim {dim} appears multiple times in the list of dims")
        seen[dim] = True
    return seen
