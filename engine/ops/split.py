"""Splitting a tensor: split, split_with_sizes, chunk, tensor_split, hsplit/vsplit/dsplit.

Mirrors aten/src/ATen/native/TensorShape.cpp.  Every piece is a view of the input: the
same storage, the input's strides, and an offset moved ``start * stride[dim]`` along the
split dim -- the arithmetic narrow and slice show.  No byte is copied, so writing into a
piece writes into the input.  Which view operator makes each piece is torch's: split
calls narrow (-> slice -> as_strided), split_with_sizes calls native::slice directly (only
as_strided is an operator), tensor_split calls at::slice.  unbind (select per index)
lives with gather's callers in engine/ops/gather.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, StepSpec, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.declarations import COMPOSITE, declare
from engine.dispatch.aten import aten
from engine.ops import views
from engine.memory.allocator import check_temporary

SHAPE = "aten/src/ATen/native/TensorShape.cpp"
#: std::vector<T>::max_size() for an 8-byte T (a Tensor, an int64_t) in libstdc++:
#: PTRDIFF_MAX / 8.  Asking for more pieces is std::length_error in torch.
VECTOR_MAX = (2**63 - 1) // 8
#: tidx records every piece (three operator events each); beyond this many it refuses
#: rather than run for minutes.
MAX_PIECES = 10_000


def check_pieces(n: int, what: str) -> None:
    """The std::vector of ``n`` pieces torch allocates first: length_error past max_size;
    a count tidx will not record is refused."""
    check(n <= VECTOR_MAX, RuntimeError, "cannot create std::vector larger than max_size()")
    if n > MAX_PIECES:
        raise Refused(f"{what} into {n} pieces: tidx records every piece and stops at "
                      f"{MAX_PIECES}")


def _plan(spec: StepSpec, note, **args):
    return span(spec, note=note, **args)


def _offsets(self, dim: int, starts: Sequence[int]) -> list[str]:
    """Each piece's storage offset, as a learner works it out: the input's offset plus
    the piece's start times the stride of the split dim."""
    base, stride = self.view.offset, self.view.strides[dim]
    return [f"{base} + {s} x {stride} = {base + s * stride}" for s in starts]


def _starts(lengths: Sequence[int]) -> list[int]:
    out, at = [], 0
    for n in lengths:
        out.append(at)
        at += n
    return out


def _fmt(values: Sequence[int]) -> str:
    """An IntArrayRef as c10 prints it: ``[1, 2]``."""
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


GET_NUM_SPLITS = step("get_num_splits", Layer.KERNEL, source=SHAPE)


@declare("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
         variants="function, method", native="at::native::split", source=SHAPE)
def split(self, split_size: int, dim: int = 0):
    # get_num_splits, in its order
    check(self.dim() != 0, RuntimeError, "split expects at least a 1-dimensional tensor")
    check(split_size >= 0, RuntimeError,
          f"split expects split_size be non-negative, but got split_size={split_size}")
    dim = S.maybe_wrap_dim(dim, self.dim())
    dim_size = self.view.sizes[dim]
    check(split_size > 0 or dim_size == 0, RuntimeError,
          f"split_size can only be 0 if dimension size is 0, but got dimension size of "
          f"{dim_size}")
    # at least one piece, even when split_size is larger than the dim (kept for BC)
    num = 1 if split_size == 0 else max((dim_size + split_size - 1) // split_size, 1)
    last = split_size - (split_size * num - dim_size)
    check_pieces(num, "split")
    lengths = [split_size] * (num - 1) + [last]
    with _plan(GET_NUM_SPLITS, lambda: Note("split.plan", n=num, size=split_size,
                                              last=last, dim=dim),
               dim=dim, lengths=lengths, offsets=lambda: _offsets(self, dim, _starts(lengths))):
        pass
    return tuple(aten.narrow.default(self, dim, i * split_size, n)
                 for i, n in enumerate(lengths))


@declare("split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::split_symint",
         source=SHAPE)
def split_sizes(self, split_size: Sequence[int], dim: int = 0):
    return aten.split_with_sizes.default(self, split_size, dim)


SPLIT_WITH_SIZES = step("split_with_sizes", Layer.KERNEL, source=SHAPE)


@declare("split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]",
         variants="function, method", native="at::native::split_with_sizes",
         source=SHAPE)
def split_with_sizes(self, split_sizes: Sequence[int], dim: int = 0):
    check(self.dim() != 0, RuntimeError, "split expects at least a 1-dimensional tensor")
    # self.size(dim) wraps; the messages and native::slice take dim as given
    dim_size = self.view.sizes[S.maybe_wrap_dim(dim, self.dim())]
    with _plan(SPLIT_WITH_SIZES, lambda: Note("split.with_sizes", sizes=list(split_sizes),
                                                dim=dim),
               dim=dim, split_sizes=list(split_sizes),
               offsets=lambda: _offsets(self, S.maybe_wrap_dim(dim, self.dim()),
                                        _starts(split_sizes))):
        pass
    pieces = []
    start = 0
    for length in split_sizes:
        check(length >= 0, RuntimeError,
              f"split_with_sizes expects split_sizes have only non-negative entries, but got "
              f"split_sizes={_fmt(split_sizes)}")
        # at::native::slice_symint, not at::slice: no aten::slice event, only as_strided
        pieces.append(views.slice_(self, dim, start, start + length, 1))
        start += length
    check(start == dim_size, RuntimeError,
          f"split_with_sizes expects split_sizes to sum exactly to {dim_size} (input tensor's "
          f"size at dimension {dim}), but got split_sizes={_fmt(split_sizes)}")
    return tuple(pieces)


CHUNK = step("chunk", Layer.KERNEL, source=SHAPE)


@declare("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::chunk", source=SHAPE)
def chunk(self, chunks: int, dim: int = 0):
    check(self.dim() > 0, RuntimeError, "chunk expects at least a 1-dimensional tensor")
    check(chunks > 0, RuntimeError, f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = self.view.sizes[S.maybe_wrap_dim(dim, self.dim())]
    # int64 arithmetic: size + chunks - 1 wraps for chunks near 2**63 (and split then
    # rejects the negative split_size it gives)
    split_size = S.div_trunc(S.int64(size + chunks - 1), chunks)
    if split_size == 0 and size == 0:
        check_pieces(chunks, "chunk")
        # split would lose the number of chunks (any number of empty pieces add up to 0):
        # split_with_sizes keeps it
        sizes = [split_size] * chunks
        sizes[-1] = split_size - (split_size * chunks - size)
        with _plan(CHUNK, lambda: Note("split.chunk_empty", n=chunks)):
            pass
        return aten.split_with_sizes.default(self, sizes, dim)
    with _plan(CHUNK, lambda: Note("split.chunk", n=chunks, size=split_size),
               split_size=split_size):
        pass
    return aten.split.Tensor(self, split_size, dim)


def _tensor_split_check(self) -> int:
    check(self.dim() > 0, RuntimeError, f"tensor_split expected at least a 1-dimensional "
                                        f"tensor, but got a tensor with {self.dim()} dims")
    return self.dim()


TENSOR_SPLIT_SECTIONS = step("tensor_split: sections", Layer.KERNEL, source=SHAPE)


@declare("tensor_split.sections(Tensor(a -> *) self, SymInt sections, int dim=0) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE,
         native="at::native::tensor_split_sections_symint", source=SHAPE)
def tensor_split_sections(self, sections: int, dim: int = 0):
    dim = S.maybe_wrap_dim(dim, _tensor_split_check(self))
    check(sections > 0, RuntimeError, f"number of sections must be larger than 0, got {sections}")
    check_pieces(sections, "tensor_split")
    size = self.view.sizes[dim]
    # the first size % sections pieces get one element more than the rest
    small, extra = divmod(size, sections)
    lengths = [small + 1 if i < extra else small for i in range(sections)]
    with _plan(TENSOR_SPLIT_SECTIONS, lambda: Note("split.sections", n=sections,
                                                      small=small, extra=extra),
               lengths=lengths, offsets=lambda: _offsets(self, dim, _starts(lengths))):
        pass
    pieces, start = [], 0
    for n in lengths:
        pieces.append(aten.slice.Tensor(self, dim, start, start + n, 1))
        start += n
    return tuple(pieces)


TENSOR_SPLIT_INDICES = step("tensor_split: indices", Layer.KERNEL, source=SHAPE)


def _split_indices(self, indices: Sequence[int], dim: int):
    """_tensor_split_indices: piece i runs from indices[i-1] to indices[i] (slice clamps
    each bound to the dim, so indices out of order or past the end give empty pieces)."""
    dim = S.maybe_wrap_dim(dim, _tensor_split_check(self))
    with _plan(TENSOR_SPLIT_INDICES, lambda: Note("split.indices", indices=list(indices)),
               indices=list(indices)):
        pass
    pieces, start = [], 0
    for end in indices:
        pieces.append(aten.slice.Tensor(self, dim, start, end, 1))
        start = end
    pieces.append(aten.slice.Tensor(self, dim, start, self.view.sizes[dim], 1))
    return tuple(pieces)


@declare("tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE,
         native="at::native::tensor_split_indices_symint", source=SHAPE)
def tensor_split_indices(self, indices: Sequence[int], dim: int = 0):
    return _split_indices(self, indices, dim)


@declare("tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::tensor_split",
         source=SHAPE)
def tensor_split_tensor(self, tensor_indices_or_sections, dim: int = 0):
    _tensor_split_check(self)
    split = tensor_indices_or_sections
    check(split.device_type == "cpu", RuntimeError,
          f"tensor_split expected tensor_indices_or_sections to be on cpu, but it's on "
          f"{split.device_type}")
    check(split.dtype is D.int64, RuntimeError,
          f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
          f"{D.cpp_name(split.dtype)}")
    check(split.dim() in (0, 1), RuntimeError,
          f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
          f"one-dimensional tensor, but got a tensor with {split.dim()} dims")
    if split.dim() == 0:
        return aten.tensor_split.sections(self, aten.item.default(split), dim)
    # the indices read from the tensor's data, stride by stride (it may be non-contiguous);
    # no aten::tensor_split.indices event: torch calls the helper directly
    check_temporary("tensor_split", split.numel(), 40)    # the indices as Python ints
    return _split_indices(self, [int(v) for v in split.array()], dim)


def _split_along(name: str, self, dim: int, least: int, sections: int | None,
                 indices: Sequence[int] | None):
    """hsplit/vsplit/dsplit: tensor_split along ``dim``; an int must divide the dim."""
    check(self.dim() >= least, RuntimeError,
          f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor "
          f"with {self.dim()} dimensions!")
    if indices is not None:
        return aten.tensor_split.indices(self, indices, dim)
    assert sections is not None     # the caller passes one of the two
    size = self.view.sizes[dim]
    # C++'s % keeps the sign of the dividend; whether it is 0 is the same as Python's
    check(sections != 0 and size % sections == 0, RuntimeError,
          f"torch.{name} attempted to split along dimension {dim}, but the size of the "
          f"dimension {size} is not divisible by the split_size {sections}!")
    return aten.tensor_split.sections(self, sections, dim)


@declare("hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::hsplit", source=SHAPE)
def hsplit_int(self, sections: int):
    # a 1-d tensor's only dim is its columns
    return _split_along("hsplit", self, 0 if self.dim() == 1 else 1, 1, sections, None)


@declare("hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::hsplit", source=SHAPE)
def hsplit_array(self, indices: Sequence[int]):
    return _split_along("hsplit", self, 0 if self.dim() == 1 else 1, 1, None, indices)


@declare("vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::vsplit", source=SHAPE)
def vsplit_int(self, sections: int):
    return _split_along("vsplit", self, 0, 2, sections, None)


@declare("vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::vsplit", source=SHAPE)
def vsplit_array(self, indices: Sequence[int]):
    return _split_along("vsplit", self, 0, 2, None, indices)


@declare("dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::dsplit", source=SHAPE)
def dsplit_int(self, sections: int):
    return _split_along("dsplit", self, 2, 3, sections, None)


@declare("dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]",
         variants="function, method", kind=COMPOSITE, native="at::native::dsplit", source=SHAPE)
def dsplit_array(self, indices: Sequence[int]):
    return _split_along("dsplit", self, 2, 3, None, indices)
