"""Advanced indexing: index, index_put_ / _index_put_impl_, masked_fill_.

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp with the helpers of
ATen/native/IndexingUtils.h and TensorAdvancedIndexingUtils.h (``make_info``,
``expandTensors``, ``AdvancedIndex``, ``restride_src``, ``reshape_indexer``)
and the CPU kernels of native/cpu/IndexKernel.cpp.

The kernels compute each element's linear storage offset from the strides,
as torch's ``Indexer`` does, and read or write the storage with one vectorised
numpy gather/scatter: no Python loop per element.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, Lecture, inlined, step, symbol

from engine.core import dtypes as D
from engine.memory import empty as memory
from engine.core import view as S
from engine.dispatch.declarations import META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.core.errors import check, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.ops import cuda_indexing, overlap
from engine.ops.copy import broadcast_to_output
from engine.ops.iterator import output_strides
from engine.ops.parallel import chunks, parallel_for
from engine.memory.allocator import check_temporary
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import elements, storage_offsets, touched, where
from engine.ops.touch import touched

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"

#: caffe2::TypeMeta names, which some messages print for a dtype.
UTILS = "aten/src/ATen/native/TensorAdvancedIndexingUtils.h"
IUTILS = "aten/src/ATen/native/IndexingUtils.h"
KERNEL = "aten/src/ATen/native/cpu/IndexKernel.cpp"


@dataclass
class AdvancedIndex:
    """at::native::AdvancedIndex: the restrided source and the reshaped indices."""

    src: TensorImpl             # self restrided: indexed dims replaced by stride-0 dims
    indices: list               # index tensors reshaped to broadcast against src
    indexed_sizes: list[int]    # sizes of the indexed dims of self
    indexed_strides: list[int]  # their strides (elements; torch keeps bytes)
    dims_before: int
    dims_after: int


def _shapes_str(tensors: list) -> str:
    return ", ".join(S.fmt_sizes(t.view.sizes) for t in tensors if t is not None)


EXPAND_TENSORS = step("expandTensors", Layer.KERNEL, source=IUTILS, note="index.expandTensors")


def expand_tensors(self, indices: list) -> list:
    """expandTensors: each bool/byte mask becomes its nonzero() columns."""
    result: list = []
    for index in indices:
        if index is None:
            result.append(None)
        elif index.dtype in (D.bool, D.uint8):
            for j in range(index.dim()):
                src_idx = len(result) + j
                S.maybe_wrap_dim(src_idx, self.dim())   # self.size(srcIdx) checks the dim
                if index.view.sizes[j] != self.view.sizes[src_idx]:
                    raise torch_error(
                        IndexError,
                        f"The shape of the mask {S.fmt_sizes(index.view.sizes)} at index {j} does "
                        f"not match the shape of the indexed tensor {S.fmt_sizes(self.view.sizes)} "
                        f"at index {src_idx}")
            with span(EXPAND_TENSORS, mask=index):
                nz = aten.nonzero.default(index)
                for j in range(index.dim()):
                    result.append(aten.select.int(nz, 1, j))
        else:
            result.append(index)
    return result


MAKE_INFO = step("make_info", Layer.KERNEL, source=UTILS, note="index.make_info",
                 libtorch=symbol("at::native::make_info"), lecture=Lecture.FOLD_INSIDE)
CHECK_INDEX_TENSOR_TYPES = step("checkIndexTensorTypes", Layer.KERNEL, source=IUTILS,
                                note="index.checkIndexTensorTypes",
                                libtorch=inlined("at::native::checkIndexTensorTypes",
                                                 "at::native::make_info"),
                                lecture=Lecture.HIDDEN)
EXPAND_OUTPLACE = step("expand_outplace", Layer.KERNEL, source="aten/src/ATen/ExpandUtils.h",
                       note="index.expand_outplace", libtorch=symbol("at::expand_outplace"),
                       lecture=Lecture.HIDDEN)
TRANSPOSE_TO_FRONT = step("transposeToFront", Layer.KERNEL, source=IUTILS,
                          note="index.transposeToFront", lecture=Lecture.HIDDEN)


def make_info(self, indices: list) -> AdvancedIndex:
    """make_info: validate, expand masks, broadcast, move indexed dims together."""
    with span(MAKE_INFO, indices=[i for i in indices]) as s:
        with span(CHECK_INDEX_TENSOR_TYPES):
            for t in indices:
                if t is not None and t.dtype not in (D.int64, D.int32, D.uint8, D.bool):
                    raise torch_error(IndexError, "tensors used as indices must be long, int, "
                                                  "byte or bool tensors")
        indices = expand_tensors(self, indices)
        defined = [t for t in indices if t is not None]
        shape = S.broadcast_shapes(*(t.view.sizes for t in defined))
        with span(EXPAND_OUTPLACE, shapes=[list(t.view.sizes) for t in defined]) as e:
            if shape is None:
                raise torch_error(IndexError, "shape mismatch: indexing tensors could not be "
                                              f"broadcast together with shapes "
                                              f"{_shapes_str(indices)}")
            e.set(shape=list(shape))
            indices = [t if t is None or t.view.sizes == shape else aten.expand.default(t, shape)
                       for t in indices]
        indices = indices + [None] * (self.dim() - len(indices))
        if not _has_contiguous_subspace(indices):
            with span(TRANSPOSE_TO_FRONT):
                dims = [i for i, t in enumerate(indices) if t is not None] + \
                       [i for i, t in enumerate(indices) if t is None]
                self = aten.permute.default(self, dims)
                indices = [indices[d] for d in dims]
        # "Ensure indices are on the same device as self", before the int -> long
        indices = cuda_indexing.indices_to_device(self, indices)
        indices = [aten.to.dtype(t, D.int64) if t is not None and t.dtype is D.int32 else t
                   for t in indices]
        info = _advanced_index(self, indices)
        s.set(dims_before=info.dims_before, dims_after=info.dims_after,
              indexed_sizes=info.indexed_sizes, indexed_strides=info.indexed_strides)
    return info


def _has_contiguous_subspace(indices: list) -> bool:
    """hasContiguousSubspace: are all defined indices adjacent?

    >>> _has_contiguous_subspace([None, 1, 1, None]), _has_contiguous_subspace([1, None, 1])
    (True, False)
    """
    pos = [i for i, t in enumerate(indices) if t is not None]
    return not pos or pos[-1] - pos[0] + 1 == len(pos)


RESTRIDE_SRC = step("restride_src", Layer.KERNEL, source=ADV, note="index.restride_src",
                    libtorch=inlined("at::native::restride_src", "at::native::make_info"),
                    lecture=Lecture.HIDDEN)
RESHAPE_INDEXER = step("reshape_indexer", Layer.KERNEL, source=ADV, note="index.reshape_indexer",
                       libtorch=inlined("at::native::reshape_indexer", "at::native::make_info"),
                       lecture=Lecture.HIDDEN)


def _advanced_index(src, indices: list) -> AdvancedIndex:
    """AdvancedIndex::AdvancedIndex: restride_src + reshape_indexer."""
    dims_before = dims_after = dims_indexed = 0
    replacement_shape: tuple[int, ...] = ()
    indexed_sizes, indexed_strides = [], []
    for dim, index in enumerate(indices):
        if index is None:
            if dims_indexed == 0:
                dims_before += 1
            else:
                dims_after += 1
        else:
            dims_indexed += 1
            replacement_shape = index.view.sizes
            indexed_sizes.append(src.view.sizes[dim])
            indexed_strides.append(src.view.strides[dim])
    if 0 in indexed_sizes and 0 not in replacement_shape:
        raise torch_error(IndexError, "index is out of bounds for dimension with size 0")
    with span(RESTRIDE_SRC):
        end = dims_before + dims_indexed
        shape = list(src.view.sizes[:dims_before]) + list(replacement_shape) + list(src.view.sizes[end:])
        strides = list(src.view.strides[:dims_before]) + [0] * len(replacement_shape) + \
            list(src.view.strides[end:])
        restrided = aten.as_strided.default(src, shape, strides, None)
    reshaped = []
    for index in indices:
        if index is not None:
            with span(RESHAPE_INDEXER):
                shape = [1] * dims_before + list(index.view.sizes) + [1] * dims_after
                reshaped.append(aten.reshape.default(index, shape))
    cuda_indexing.check_strides_match(src, reshaped)
    return AdvancedIndex(restrided, reshaped, indexed_sizes, indexed_strides,
                         dims_before, dims_after)


def _base_offsets(src) -> np.ndarray | int:
    """Storage offset of each element of the restrided source: its indexed dims have
    stride 0, so often this is one number (the storage offset)."""
    if not any(st for st, n in zip(src.view.strides, src.view.sizes) if n > 1):
        return src.view.offset
    return storage_offsets(src.view.sizes, src.view.strides, src.view.offset).reshape(src.view.sizes)


def _linear_offsets(info: AdvancedIndex, shape: tuple[int, ...],
                    bad_as_zero: bool = False) -> np.ndarray:
    """Storage offset of every element of the iteration, as cpu_index_kernel's Indexer
    computes it: the restrided base offset plus index * stride for each indexed dim.
    An index out of bounds raises torch's IndexError (carrying ``bad``, the flat mask of
    the elements that are), or with ``bad_as_zero`` counts as index 0."""
    # The offsets are one int64 per element of the iteration, built from the base
    # offsets, each index wrapped and each index times its stride: ask the budget first
    check_temporary("indexing's offsets", S.numel(shape), 8 * (3 + 2 * len(info.indices)))
    values = [np.broadcast_to(index.array(), shape) for index in info.indices]
    wrap = []
    for v, size in zip(values, info.indexed_sizes):
        if not v.size:
            wrap.append(False)
            continue
        lo, hi = int(v.min()), int(v.max())
        if lo < -size or hi >= size:
            if not bad_as_zero:
                _raise_out_of_bounds(values, info.indexed_sizes)
            values = [np.where((u < -n) | (u >= n), 0, u)
                      for u, n in zip(values, info.indexed_sizes)]
            lo = min(lo, 0)
        wrap.append(lo < 0)
    offsets = np.empty(shape, dtype=np.int64)
    tmp = None
    for j, (v, size, stride, neg) in enumerate(zip(values, info.indexed_sizes,
                                                   info.indexed_strides, wrap)):
        if neg:
            v = np.where(v < 0, v + size, v)
        if j == 0:
            np.multiply(v, np.int64(stride), out=offsets)
        elif stride == 1:
            offsets += v
        else:
            if tmp is None:
                tmp = np.empty(shape, dtype=np.int64)
            np.multiply(v, np.int64(stride), out=tmp)
            offsets += tmp
    base = _base_offsets(info.src)
    if not (isinstance(base, int) and base == 0):
        offsets += base
    return offsets


def _raise_out_of_bounds(values: list, sizes: list[int]) -> None:
    """The kernel checks element by element, each indexer in turn: report the first bad
    element in iteration order, and the first indexer that is bad there."""
    bad = [(v < -n) | (v >= n) for v, n in zip(values, sizes)]
    anybad = np.logical_or.reduce([b.reshape(-1) for b in bad])
    first = int(np.argmax(anybad))
    for j, b in enumerate(bad):
        if b.reshape(-1)[first]:
            value = int(values[j].reshape(-1)[first])
            error = torch_error(IndexError, f"index {value} is out of bounds for dimension "
                                            f"{j} with size {sizes[j]}")
            # the caller reads which entries failed off the error it catches
            error.bad = anybad  # type: ignore[attr-defined]
            raise error


def _reached(bad: np.ndarray, serial: bool) -> np.ndarray:
    """The elements the kernel wrote before it raised: it checks each index as it goes,
    so a serial loop writes everything before the first bad element; at::parallel_for
    gives each thread one chunk of the iteration, and each stops at its own first bad
    element."""
    reached = np.zeros(bad.size, dtype=bool)
    for begin, end in [(0, bad.size)] if serial else chunks(bad.size):
        stop = begin + int(np.argmax(bad[begin:end])) if bad[begin:end].any() else end
        reached[begin:stop] = True
    return reached


def _offset_formulas(info: AdvancedIndex, shape: tuple[int, ...], offsets: np.ndarray,
                     limit: int = 8) -> list[str]:
    """The arithmetic of the first few offsets: ``base + i0*s0 + i1*s1 = offset``."""
    n = min(limit, offsets.size)
    positions = np.unravel_index(np.arange(n), shape) if shape else ()
    src = info.src
    base = src.view.offset + sum(p * st for p, st in zip(positions, src.view.strides)) \
        if shape else np.full(n, src.view.offset)
    base = np.broadcast_to(np.asarray(base, dtype=np.int64), (n,))
    values = [np.broadcast_to(i.array(), shape)[positions] if shape else
              np.broadcast_to(i.array(), (n,)) for i in info.indices]
    flat = offsets.reshape(-1)
    out = []
    for k in range(n):
        terms = [str(int(base[k]))] + [f"{int(v[k])}*{stride}"
                                       for v, stride in zip(values, info.indexed_strides)]
        out.append(" + ".join(terms) + f" = {int(flat[k])}")
    if offsets.size > limit:
        out.append(f"... ({offsets.size} in all)")
    return out


def _flat(t) -> np.ndarray:
    st = t.storage
    return st.data[: st.nbytes - st.nbytes % t.dtype.itemsize].view(t.dtype.np)


INDEX_OUT_SET_OUTPUT = step("index_out: set_output", Layer.MEMORY, source=ADV,
                            note="index.set_output")
CPU_INDEX_KERNEL = step("cpu_index_kernel", Layer.KERNEL, source=KERNEL,
                        note="index.cpu_index_kernel")


@declare("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", variants="function, method",
         native="at::native::index_out (structured)", source=ADV, meta=META_PYTHON,
         takes_complex=True)
def index(self, indices: list):
    check(len(indices) <= self.dim(), IndexError,
          f"too many indices for tensor of dimension {self.dim()} (got {len(indices)})")
    cuda_indexing.check_indices_on_cpu_or_selfdevice(self, indices)
    info = make_info(self, list(indices))
    shape = info.src.view.sizes
    with span(INDEX_OUT_SET_OUTPUT, shape=list(shape)) as s:
        strides = output_strides(shape, [(info.src.view.sizes, info.src.view.strides,
                                          self.dtype.itemsize)] +
                                 [(i.view.sizes, i.view.strides, i.dtype.itemsize)
                                  for i in info.indices])
        if strides == S.contiguous_strides(shape):
            out = memory.empty_generic(shape, self.dtype, self.device_type)
        else:
            out = memory.empty_strided_generic(shape, strides, self.dtype, self.device_type)
        s.set_result(out)
    if self.device_type == "cuda":
        offsets = cuda_indexing.offsets_or_refuse(info, shape, _linear_offsets)
        cuda_indexing.index_kernel(self, out, offsets, _flat(self),
                                   lambda: _offset_formulas(info, shape, offsets))
        return out
    with span(CPU_INDEX_KERNEL, numel=out.numel()) as s:
        if not self.is_meta:
            # (after the offsets, which ask for themselves) the values gathered, when
            # numpy cannot take them straight into the result
            offsets = _linear_offsets(info, shape)
            dest = out.array(write=True)
            if not dest.flags.c_contiguous:
                check_temporary("index", out.numel(), self.dtype.itemsize)
            if dest.flags.c_contiguous:
                # offsets are bounds-checked already; mode='clip' avoids numpy's buffered
                # 'raise' mode, which copies through a temporary when out= is given
                src, offs, dst = _flat(self), offsets.reshape(-1), dest.reshape(-1)
                parallel_for(offs.size, lambda b, e: np.take(src, offs[b:e], out=dst[b:e],
                                                             mode="clip"))
            else:
                dest[...] = _flat(self)[offsets]
            # the iterator loads every index element beside each element it gathers
            s.set(offsets=lambda: _offset_formulas(info, shape, offsets),
                  read=lambda: elements(self.storage, offsets),
                  read_index=lambda: [touched(i) for i in info.indices],
                  written=touched(out))
        s.set_result(out)
    return out


@declare("index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
         variants="function, method", native="at::native::index_put", source=ADV, meta=META_PYTHON)
def index_put(self, indices: list, values, accumulate: bool = False):
    """The out-of-place form: a clone (strides preserved), then index_put_ on it."""
    out = aten.clone.default(self, memory_format="preserve_format")
    return aten.index_put_.default(out, indices, values, accumulate)


@declare("index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)",
         variants="function, method", native="at::native::index_put_", source=ADV,
         meta=META_PYTHON, takes_complex=True)
def index_put_(self, indices: list, values, accumulate: bool = False):
    return aten._index_put_impl_.default(self, indices, values, accumulate, False)


MAKE_INDEX_PUT_ITERATOR = step("make_index_put_iterator", Layer.KERNEL, source=ADV,
                               note="index_put.make_index_put_iterator",
                               libtorch=inlined("at::native::(anonymous namespace)::make_index_put_iterator",
                                                "at::native::_index_put_impl_"),
                               lecture=Lecture.HIDDEN)
CPU_INDEX_PUT_KERNEL = step("cpu_index_put_kernel", Layer.KERNEL, source=KERNEL,
                            libtorch=symbol("at::native::(anonymous namespace)::index_put_kernel"))
CAN_DISPATCH_TO_MASKED_FILL = step("canDispatchToMaskedFill", Layer.KERNEL, source=UTILS,
                                   note="index_put.canDispatchToMaskedFill",
                                   libtorch=symbol("at::native::canDispatchToMaskedFill"),
                                   lecture=Lecture.HIDDEN)


@declare("_index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False, bool unsafe=False) -> Tensor(a!)",
         native="at::native::_index_put_impl_", source=ADV, takes_complex=True)
def _index_put_impl_(self, indices: list, value, accumulate: bool = False,
                     unsafe: bool = False):
    check(len(indices) <= self.dim(), IndexError,
          f"too many indices for tensor of dimension {self.dim()} (got {len(indices)})")
    overlap.warn_if_expanded(self, "index_put_", "tensor[indices] = tensor")
    if not accumulate:
        with span(CAN_DISPATCH_TO_MASKED_FILL) as s:
            ok, mask = _can_dispatch_to_masked_fill(self, indices, value)
            s.set_result(ok)
        if ok:
            return aten.masked_fill_.Scalar(self, mask, aten.item.default(value))
    # value_: the value on self's device; the overlap check reads the value as given
    value_ = cuda_indexing.value_to_device(self, value)
    overlap.check("index_put_", self, full=[value, *(i for i in indices if i is not None)],
                  internal=False)
    value = value_
    cuda_indexing.check_not_with_sort(self, accumulate)
    info = make_info(self, list(indices))
    shape = info.src.view.sizes
    with span(MAKE_INDEX_PUT_ITERATOR, value=list(value.view.sizes), result=list(shape)):
        check(S.is_expandable_to(value.view.sizes, shape), RuntimeError,
              f"shape mismatch: value tensor of shape {S.fmt_sizes(value.view.sizes)} cannot be "
              f"broadcast to indexing result of shape {S.fmt_sizes(shape)}")
        check(value.dtype is info.src.dtype, RuntimeError,
              f"Index put requires the source and destination dtypes match, got "
              f"{D.cpp_name(info.src.dtype)} for the destination and "
              f"{D.cpp_name(value.dtype)} for the source.")
        cuda_indexing.check_value_device(info.src, value)
    if self.device_type == "cuda":
        offsets = cuda_indexing.offsets_or_refuse(info, shape, _linear_offsets)
        cuda_indexing.index_put_kernel(self, value, shape, offsets, _flat(self),
                                       lambda: _offset_formulas(info, shape, offsets))
        return self
    with span(CPU_INDEX_PUT_KERNEL,
              note="index_put.accumulate" if accumulate else "index_put.write",
              accumulate=accumulate) as s:
        if not self.is_meta:
            vals = np.broadcast_to(value.array(), shape)
            flat = _flat(self)
            try:
                offsets = _linear_offsets(info, shape)
            except IndexError as exc:
                if not hasattr(exc, "bad"):
                    raise
                # what torch wrote before its check failed stays written
                reached = _reached(exc.bad, serial=accumulate)
                offs = _linear_offsets(info, shape, bad_as_zero=True).reshape(-1)[reached]
                if accumulate:
                    np.add.at(flat, offs, vals.reshape(-1)[reached])
                else:
                    flat[offs] = vals.reshape(-1)[reached]
                s.set(written=elements(self.storage, offs),
                      read=lambda: _put_reads(self, value, offs if accumulate else None),
                      read_index=lambda: [touched(i) for i in info.indices])
                raise
            self.storage.initialised = True
            if accumulate:
                np.add.at(flat, offsets.reshape(-1), vals.reshape(-1))
            elif value.numel() == offsets.size and value.is_contiguous():
                # one value per offset: np.put scatters without fancy-index machinery
                # (offsets are bounds-checked already, so 'clip' never clips)
                offs, vals_ = offsets.reshape(-1), value.array().reshape(-1)
                parallel_for(offs.size, lambda b, e: np.put(flat, offs[b:e], vals_[b:e],
                                                            mode="clip"))
            else:
                flat[offsets] = vals
            # accumulate adds into the elements it writes: it reads them too
            s.set(offsets=lambda: _offset_formulas(info, shape, offsets),
                  written=lambda: elements(self.storage, offsets),
                  read=lambda: _put_reads(self, value, offsets if accumulate else None),
                  read_index=lambda: [touched(i) for i in info.indices])
    return self


def _put_reads(self, value, added: np.ndarray | None) -> list:
    """The data cpu_index_put_kernel reads (besides the index): the value, and with
    accumulate the elements of self it adds into."""
    return [touched(value)] + ([elements(self.storage, added)] if added is not None else [])


def _can_dispatch_to_masked_fill(self, indices: list, value):
    """canDispatchToMaskedFill (TensorAdvancedIndexingUtils.h)."""
    if value.numel() != 1 or value.device_type != "cpu":
        return False, None
    num_ind, mask = 0, None
    for index in indices:
        if index is None:
            if mask is None:
                num_ind += 1
        else:
            if index.dtype not in (D.bool, D.uint8) or mask is not None:
                return False, None
            mask = index
            for j in range(index.dim()):
                src_idx = num_ind + j
                S.maybe_wrap_dim(src_idx, self.dim())   # self.size(src_idx) checks the dim
                check(index.view.sizes[j] == self.view.sizes[src_idx],
                      IndexError,
                      f"The shape of the mask {S.fmt_sizes(index.view.sizes)} at index {j} does "
                      f"not match the shape of the indexed tensor {S.fmt_sizes(self.view.sizes)} "
                      f"at index {src_idx}")
            num_ind += mask.dim()
    if mask is None:
        return False, None
    for _ in range(num_ind, self.dim()):
        mask = aten.unsqueeze.default(mask, -1)
    return True, mask


@declare("masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)",
         variants="method", native="at::native::masked_fill__cpu", source=ADV,
         meta=META_PYTHON)
def masked_fill_tensor(self, mask, value):
    check(value.dim() == 0, RuntimeError,
          f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
          f"{value.dim()} dimension(s).")
    return masked_fill_(self, mask, aten.item.default(value))


MASKED_FILL_KERNEL = step("masked_fill_kernel", Layer.KERNEL, source=KERNEL,
                          note="masked_fill.kernel")


@declare("masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)",
         variants="method", native="at::native::masked_fill__cpu", source=ADV,
         meta=META_PYTHON)
def masked_fill_(self, mask, value):
    check(mask.dtype is D.bool, RuntimeError,
          f"masked_fill_ only supports boolean masks, but got mask with dtype "
          f"{D.type_meta_name(mask.dtype)}")
    overlap.warn_if_expanded(self, "masked_fill_", "tensor[mask] = scalar")
    overlap.check("masked_fill_", self, partial=[mask], internal=False)
    # TensorIterator with resize_outputs(false): the mask broadcasts to self's shape
    broadcast_to_output(self.view.sizes, mask.view.sizes)
    with span(MASKED_FILL_KERNEL, value=value) as s:
        scalar = to_dtype_scalar(value, self.dtype)
        if not self.is_meta:
            # the set positions' coordinates, and every element's storage offset
            check_temporary("masked_fill_", self.numel(), 8 + 8 * max(self.dim(), 1))
            m = np.broadcast_to(mask.array(), self.view.sizes)
            self.array(write=True)[m] = scalar
            # the loop loads the mask (an index) and stores where it is set; self is not read
            s.set(written=lambda: where(self, m), read_index=touched(mask))
    return self
