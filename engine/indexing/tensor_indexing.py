"""at::indexing: TensorIndex and the functions of aten/src/ATen/TensorIndexing.h.

``handleDimInMultiDimIndexing`` turns one TensorIndex into a view step
(applySelect, applySlice, unsqueeze) or into an entry of ``outIndices``
(recordTensorIndex); ``copy_to`` and ``dispatch_index_put_`` then write the
value, ``dispatch_index`` reads.  The names, arguments and the order of steps
are those of the header shipped with torch 2.13.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, inlined, step, symbol

from engine.core import dtypes as D
from engine.core import view as S
from engine.dispatch.aten import aten
from engine.core.errors import torch_error

H = "aten/src/ATen/TensorIndexing.h"

#: at::indexing::INDEX_MAX / INDEX_MIN (the SymInt representable range).
INDEX_MIN = -(2**62)
INDEX_MAX = -(INDEX_MIN + 1)


@dataclass(frozen=True, slots=True)
class Slice:
    """at::indexing::Slice: start, stop and step as __PySlice_Unpack left them."""

    start: int
    stop: int
    step: int

    def __str__(self) -> str:
        return f"{_end(self.start)}:{_end(self.stop)}:{self.step}"


@dataclass(frozen=True, slots=True)
class TensorIndex:
    """One index of ``t[...]`` in C++: None, Ellipsis, an integer, a bool, a Slice or a Tensor."""

    kind: str               # "None" | "Ellipsis" | "Integer" | "Boolean" | "Slice" | "Tensor"
    value: Any = None

    def __tidx_summary__(self, max_values: int) -> dict:
        """tracer/values.py's ``tensor_index`` shape; the recorder summarises the value."""
        shown = str(self.value) if self.kind == "Slice" else self.value
        return {"kind": "tensor_index", "type": self.kind, "value": shown, "cpp": self.cpp()}

    def cpp(self) -> str:
        """How the index reads in C++ (seed 001's conversion table)."""
        if self.kind == "None":
            return "at::indexing::None"
        if self.kind == "Ellipsis":
            return "at::indexing::Ellipsis"
        if self.kind == "Integer":
            return f"TensorIndex({self.value})"
        if self.kind == "Boolean":
            return f"TensorIndex({'true' if self.value else 'false'})"
        if self.kind == "Slice":
            s = self.value
            return f"Slice({_end(s.start)}, {_end(s.stop)}, {s.step})"
        return f"TensorIndex(Tensor {S.fmt_sizes(self.value.view.sizes)} {self.value.dtype})"


def _end(v: int) -> str:
    """Name the sentinel values a ``None`` slice bound becomes.

    >>> _end(2**63 - 1), _end(3)
    ('PY_SSIZE_T_MAX', '3')
    """
    return {INDEX_MAX: "INDEX_MAX", INDEX_MIN: "INDEX_MIN", 2**63 - 1: "PY_SSIZE_T_MAX",
            -(2**63): "PY_SSIZE_T_MIN"}.get(v, str(v))


APPLY_SLICE = step("applySlice", Layer.INDEXING, source=H, note="indexing.applySlice",
                   libtorch=symbol("at::indexing::impl::applySlice"))


def applySlice(self, dim: int, start: int, stop: int, step: int,
               disable_slice_optimization: bool, self_sizes) -> Any:
    with span(APPLY_SLICE,
              dim=dim, start=lambda: _end(start), stop=lambda: _end(stop), step=step) as s:
        if step <= 0:
            raise torch_error(ValueError, "step must be greater than zero")
        if self_sizes is not None and len(self_sizes) > 0:
            # Several Ellipses can push dim past the end; C++ then reads past the
            # sizes array. tidx reads 0 there, which takes the same branch for a full
            # slice (the only case real torch gets through).
            length = self_sizes[dim] if dim < len(self_sizes) else 0
            if not disable_slice_optimization and start == 0 and length <= stop and step == 1:
                s.note("indexing.applySlice.whole")
                s.set_result(self)
                return self
        result = aten.slice.Tensor(self, dim, start, stop, step)
        s.set_result(result)
        return result


APPLY_SELECT = step("applySelect", Layer.INDEXING, source=H, note="indexing.applySelect",
                    libtorch=symbol("at::indexing::impl::applySelect"))


def applySelect(self, dim: int, index: int, real_dim: int, self_sizes) -> Any:
    with span(APPLY_SELECT, dim=dim, index=index, real_dim=real_dim) as s:
        if self_sizes is not None:
            if index == 0 and dim == 0 and len(self_sizes) == 0:
                raise torch_error(IndexError, "invalid index of a 0-dim tensor. Use "
                                  "`tensor.item()` in Python or `tensor.item<T>()` in C++ to "
                                  "convert a 0-dim tensor to a number")
            # A 0-dim tensor has no size to read; the check then sees 0 (real torch
            # reports "with size 0" for t0[1]).
            size = self_sizes[dim] if dim < len(self_sizes) else 0
            if not (size > -1 - index and size > index):
                raise torch_error(IndexError, f"index {index} is out of bounds for dimension "
                                              f"{real_dim} with size {size}")
        result = aten.select.int(self, dim, index)
        s.set_result(result)
        return result


BOOL_TO_INDEXING_TENSOR = step("boolToIndexingTensor", Layer.INDEXING, source=H,
                               note="indexing.boolToIndexingTensor",
                               libtorch=symbol("at::indexing::impl::boolToIndexingTensor"))


def boolToIndexingTensor(self, value: bool) -> Any:
    """boolToIndexingTensorCPUOrCUDA: True -> tensor([0]), False -> an empty long tensor."""
    with span(BOOL_TO_INDEXING_TENSOR, value=value) as s:
        if value:
            t = aten.empty.memory_format((1,), dtype=D.int64, device=self.device_type)
            t = aten.fill_.Scalar(t, 0)
        else:
            t = aten.empty.memory_format((0,), dtype=D.int64, device=self.device_type)
        s.set_result(t)
        return t


RECORD_TENSOR_INDEX = step("recordTensorIndex", Layer.INDEXING, source=H,
                           note="indexing.recordTensorIndex",
                           libtorch=symbol("at::indexing::impl::recordTensorIndex"))


def recordTensorIndex(tensor, out_indices: list, dim: list[int]) -> None:
    """Append the index tensor to outIndices and advance the dim counter.

    ``dim`` is a one-element list standing for C++'s ``int64_t* dim_ptr``.
    """
    before = dim[0]
    with span(RECORD_TENSOR_INDEX, index=tensor, dim=before) as s:
        if not out_indices:
            out_indices.extend([None] * (before + 1))
            out_indices[before] = tensor
        else:
            out_indices.append(tensor)
        if tensor.dtype in (D.uint8, D.bool):
            dim[0] += tensor.dim()
        else:
            dim[0] += 1
        s.set(dim_after=dim[0], outIndices=[slot(t) for t in out_indices])


def slot(t) -> Any:
    return "undefined" if t is None else t


HANDLE_DIM_IN_MULTI_DIM_INDEXING = step("handleDimInMultiDimIndexing", Layer.INDEXING, source=H,
                                        libtorch=symbol("at::indexing::handleDimInMultiDimIndexing"))


def handleDimInMultiDimIndexing(prev_dim_result, original_tensor, index: TensorIndex,
                                dim: list[int], specified_dims: int, real_dim: int,
                                out_indices: list, disable_slice_optimization: bool,
                                prev_dim_result_sizes) -> Any:
    with span(HANDLE_DIM_IN_MULTI_DIM_INDEXING,
              note=lambda: Note(_KIND_NOTES[index.kind], position=real_dim), index=index,
              dim=dim[0], real_dim=real_dim) as s:
        result = _handle(prev_dim_result, original_tensor, index, dim, specified_dims,
                         real_dim, out_indices, disable_slice_optimization,
                         prev_dim_result_sizes)
        s.set(dim_after=dim[0])
        s.set_result(result)
        return result


#: The note of handleDimInMultiDimIndexing for each kind of TensorIndex.
_KIND_NOTES = {
    "Integer": "indexing.handleDim.integer",
    "Slice": "indexing.handleDim.slice",
    "Ellipsis": "indexing.handleDim.ellipsis",
    "None": "indexing.handleDim.none",
    "Boolean": "indexing.handleDim.boolean",
    "Tensor": "indexing.handleDim.tensor",
}


def _handle(prev, original, index: TensorIndex, dim: list[int], specified_dims: int,
            real_dim: int, out_indices: list, disable_slice_optimization: bool, sizes):
    if index.kind == "Integer":
        return applySelect(prev, dim[0], index.value, real_dim, sizes)
    if index.kind == "Slice":
        sl = index.value
        result = applySlice(prev, dim[0], sl.start, sl.stop, sl.step,
                            disable_slice_optimization, sizes)
        dim[0] += 1
        if out_indices:
            out_indices.append(None)
        return result
    if index.kind == "Ellipsis":
        ellipsis_ndims = original.dim() - specified_dims
        dim[0] += ellipsis_ndims
        if out_indices:
            out_indices.extend([None] * ellipsis_ndims)
        return prev
    if index.kind == "None":
        result = aten.unsqueeze.default(prev, dim[0])
        dim[0] += 1
        if out_indices:
            out_indices.append(None)
        return result
    if index.kind == "Boolean":
        result = aten.unsqueeze.default(prev, dim[0])
        recordTensorIndex(boolToIndexingTensor(result, index.value), out_indices, dim)
        return result
    tensor = index.value
    if tensor.dim() == 0 and D.is_integral(tensor.dtype, include_bool=True):
        if tensor.dtype not in (D.uint8, D.bool):
            return applySelect(prev, dim[0], aten.item.default(tensor), real_dim, sizes)
        result = aten.unsqueeze.default(prev, dim[0])
        recordTensorIndex(boolToIndexingTensor(result, bool(aten.item.default(tensor))),
                          out_indices, dim)
        return result
    recordTensorIndex(tensor, out_indices, dim)
    return prev


def slicePrefix1sSize(sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Drop leading 1s: a value of shape [1, 1, 3] assigns like one of shape [3].

    >>> slicePrefix1sSize((1, 1, 3)), slicePrefix1sSize((1, 1))
    ((3,), ())
    """
    for i, s in enumerate(sizes):
        if s != 1:
            return tuple(sizes[i:])
    return ()


COPY_TO = step("copy_to", Layer.INDEXING, source=H, note="indexing.copy_to",
               libtorch=symbol("at::indexing::copy_to"))
EXPAND_INPLACE = step("expand_inplace", Layer.KERNEL, source="aten/src/ATen/ExpandUtils.h",
                      note="indexing.expand_inplace", lecture=Lecture.HIDDEN)


def copy_to(dst, src) -> None:
    """Write ``src`` into the basic-indexing result ``dst`` (three cases)."""
    with span(COPY_TO, dst=dst, src=src) as s:
        if dst.view.sizes == src.view.sizes:
            s.set(case="same sizes -> dst.copy_(src)")
            aten.copy_.default(dst, src)
        elif src.dim() == 0 and src.device_type == "cpu":
            s.set(case="0-dim value on CPU -> dst.fill_(src)")
            aten.fill_.Tensor(dst, src)
        else:
            sizes = slicePrefix1sSize(src.view.sizes)
            s.set(case="otherwise -> view(slicePrefix1sSize) + expand_inplace + copy_")
            src_view = aten.view.default(src, sizes)
            with span(EXPAND_INPLACE):
                if src_view.view.sizes != dst.view.sizes:
                    b_src = aten.expand.default(src_view, dst.view.sizes)
                else:
                    b_src = src_view
            aten.copy_.default(dst, b_src)


DISPATCH_INDEX = step("dispatch_index", Layer.INDEXING, source=H, note="indexing.dispatch_index",
                      libtorch=symbol("at::indexing::dispatch_index"))


def dispatch_index(self, indices: list) -> Any:
    with span(DISPATCH_INDEX, indices=[slot(t) for t in indices]) as s:
        while indices and indices[-1] is None:
            indices.pop()
        converted = typeConvertIndices(self, indices)
        result = aten.index.Tensor(self, converted)
        s.set_result(result)
        return result


DISPATCH_INDEX_PUT = step("dispatch_index_put_", Layer.INDEXING, source=H,
                          note="indexing.dispatch_index_put_",
                          libtorch=symbol("at::indexing::dispatch_index_put_"))


def dispatch_index_put_(self, indices: list, value) -> Any:
    with span(DISPATCH_INDEX_PUT, indices=[slot(t) for t in indices], value=value) as s:
        while indices and indices[-1] is None:
            indices.pop()
        converted = typeConvertIndices(self, indices)
        result = aten.index_put_.default(self, converted, value, False)
        s.set_result(result)
        return result


TYPE_CONVERT_INDICES = step("typeConvertIndices", Layer.INDEXING, source=H,
                            note="indexing.typeConvertIndices",
                            libtorch=inlined("at::indexing::impl::typeConvertIndices",
                                             "at::indexing::dispatch_index_put_"),
                            lecture=Lecture.HIDDEN)


def typeConvertIndices(self, indices: list) -> list:
    with span(TYPE_CONVERT_INDICES, count=len(indices)):
        return list(indices)
