"""The Python binding of indexing: torch/csrc/autograd/python_variable_indexing.cpp.

``Tensor.__getitem__`` / ``__setitem__`` land here, as ``THPVariable_getitem``
and ``THPVariable_setitem`` do in PyTorch: Python index objects become
``TensorIndex`` values, simple indices take the one-index fast paths of
``at::indexing::get_item`` / ``set_item``, everything else goes through
``wrapTuple``, ``count_specified_dimensions`` and ``applySlicing``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, Lecture, inlined, step, symbol

from engine.binding.arg_parser import unpack_long
from engine.binding.tensor import THPVariable_Wrap, Tensor, unpack
from engine.binding.ndarray import NDArray
from engine.binding.tensor_new import internal_new_from_data
from engine.core import dtypes as D
from engine.core.errors import check, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten
from engine.indexing import tensor_indexing as I
from engine.ops.scalar import scalar_tensor_static

SRC = "torch/csrc/autograd/python_variable_indexing.cpp"
PY_SSIZE_T_MAX = 2**63 - 1
PY_SSIZE_T_MIN = -(2**63)


def _is_tensor(obj: Any) -> bool:
    """THPVariable_Check, or a TensorImpl already unpacked from one."""
    return isinstance(obj, (Tensor, TensorImpl))


def _impl(obj: Any) -> TensorImpl:
    return unpack(obj) if isinstance(obj, Tensor) else obj


def _check_long(obj: Any) -> bool:
    """THPUtils_checkLong: a Python int that is not a bool, or a numpy integer
    (``t[a[1]]``: torch::utils::is_numpy_int)."""
    return isinstance(obj, int) and not isinstance(obj, bool) or isinstance(obj, np.integer)


def _is_sequence(obj: Any) -> bool:
    """PySequence_Check for the values tidx's evaluator can produce (a string is one, and
    a numpy array)."""
    return isinstance(obj, (list, tuple, str, range, NDArray))


#: c10::SymInt::min_representable_int(): below it, an int is a tag for a symbolic value.
SYMINT_MIN = -(2**62)


def _unpack_slice(sl: slice) -> I.Slice:
    """__PySlice_Unpack (python_variable_indexing.h): each bound through
    _PyEval_SliceIndex (clamped to Py_ssize_t), then clip_val (below SymInt's smallest
    representable int, a UserWarning and the bound clipped); a missing bound is the far
    end for the step's direction."""
    def as_int(v: Any) -> int | None:
        if v is None:
            return None
        if _check_long(v) or isinstance(v, bool):
            value = int(v)
        elif isinstance(v, Tensor):
            value = int(v.__index__())
        else:
            raise torch_error(TypeError, "slice indices must be integers or None or have an "
                                         "__index__ method")
        return clip_val(max(PY_SSIZE_T_MIN, min(PY_SSIZE_T_MAX, value)))

    step = as_int(sl.step)
    step = 1 if step is None else step
    check(step != 0, ValueError, "slice step cannot be zero")
    start, stop = as_int(sl.start), as_int(sl.stop)
    if start is None:
        start = PY_SSIZE_T_MAX if step < 0 else 0
    if stop is None:
        stop = SYMINT_MIN if step < 0 else PY_SSIZE_T_MAX
    return I.Slice(start, stop, step)


PY_ERR_WARN_EX = step("PyErr_WarnEx", Layer.BINDING,
                      source="torch/csrc/autograd/python_variable_indexing.h",
                      note="binding.clip_val.warning")


def clip_val(value: int) -> int:
    if value >= SYMINT_MIN:
        return value
    with span(PY_ERR_WARN_EX, category="UserWarning", value=value) as s:
        s.set_result(SYMINT_MIN)
    return SYMINT_MIN


def _python_index(obj: Any) -> Any:
    """The index as the user wrote it, for the trace: a slice as ``1:3``, ``...``, a
    number as itself, a tensor as the tensor (drawn with its name: ``rows: i64[2]``)."""
    if isinstance(obj, slice):
        parts = ["" if v is None else str(v) for v in (obj.start, obj.stop, obj.step)]
        return ":".join(parts[:2]) + (f":{parts[2]}" if obj.step is not None else "")
    if obj is Ellipsis:
        return "..."
    if _is_tensor(obj):
        return obj
    if isinstance(obj, list):
        return [_python_index(i) for i in obj]
    return obj if obj is None or isinstance(obj, (bool, int)) else repr(obj)


def _python_index_list(index: Any) -> Any:
    if isinstance(index, tuple):
        return tuple(_python_index(i) for i in index)
    return _python_index(index)


VALUE_TO_TENSOR = step("valueToTensor", Layer.BINDING, source=SRC, note="binding.valueToTensor",
                       libtorch=symbol("torch::autograd::valueToTensor"),
                       lecture=Lecture.FOLD_INSIDE)


def valueToTensor(self, value: Any):
    """Wrap the assigned value in a tensor with self's dtype and device."""
    with span(VALUE_TO_TENSOR, value=value if not _is_tensor(value) else value) as s:
        if _is_tensor(value):
            s.note("binding.valueToTensor.tensor")
            s.set_result(value)
            return _impl(value)
        if not isinstance(value, (int, float, bool, complex)):
            raise torch_error(TypeError, f"can't assign a {type(value).__name__} to a "
                                         f"{_options_string(self)}")
        scalar = unpack_long(int(value)) if not isinstance(value, (float, complex)) else value
        # THPVariable_setitem: a CUDA self gets its value made on the CPU (at::Device(kCPU))
        device = "cpu" if self.device_type == "cuda" else self.device_type
        if self.device_type == "cuda":
            s.note("cuda.device.value_on_cpu")
        result = scalar_tensor_static(scalar, self.dtype, device)
        if device == "cpu":
            result = aten.lift_fresh.default(result)
        s.set_result(result)
        return result


def _options_string(self) -> str:
    """torch::utils::options_to_string: e.g. ``torch.LongTensor``."""
    return D.legacy_type_name(self.dtype, self.device_type)


def treatSequenceAsTuple(index: Any) -> bool:
    """NumPy's heuristic: a short list containing a tensor, sequence, slice, ... or None
    is a tuple of indices; any other list is one index."""
    if isinstance(index, tuple):
        return True
    if _is_tensor(index) or isinstance(index, NDArray) or not _is_sequence(index):
        return False        # an ndarray is one index (PyArray_CheckExact)
    if len(index) >= 32:
        return False
    return any(_is_tensor(o) or _is_sequence(o) or isinstance(o, slice) or o is Ellipsis
               or o is None for o in index)


WRAP_TUPLE = step("wrapTuple", Layer.BINDING, source=SRC, note="binding.wrapTuple",
                  libtorch=symbol("torch::autograd::wrapTuple"), lecture=Lecture.HIDDEN)
TORCH_WARN = step("TORCH_WARN", Layer.BINDING, source=SRC,
                  note="binding.wrapTuple.sequenceWarning")


def wrapTuple(index: Any) -> tuple:
    with span(WRAP_TUPLE, index=lambda: _python_index_list(index)) as s:
        as_tuple = treatSequenceAsTuple(index)
        result = tuple(index) if as_tuple else (index,)
        if as_tuple and not isinstance(index, tuple):
            # torch 2.13 warns here (python_variable_indexing.cpp): a list of sequences
            # will become one tensor index in a future release; the note is its UserWarning
            with span(TORCH_WARN, category="UserWarning"):
                pass
        s.set_result(lambda: [_python_index(i) for i in result])
        return result


COUNT_SPECIFIED_DIMENSIONS = step("count_specified_dimensions", Layer.BINDING, source=SRC,
                                  note="binding.count_specified_dimensions",
                                  libtorch=symbol("torch::autograd::count_specified_dimensions"),
                                  lecture=Lecture.HIDDEN)


def count_specified_dimensions(index: tuple) -> int:
    with span(COUNT_SPECIFIED_DIMENSIONS) as s:
        count = 0
        for obj in index:
            if _is_tensor(obj):
                impl = _impl(obj)
                count += impl.dim() if impl.dtype in (D.uint8, D.bool) else 1
            elif obj is not None and obj is not Ellipsis and obj is not True and obj is not False:
                count += 1
        s.set_result(count)
        return count


def _to_tensor_index(self, obj: Any) -> I.TensorIndex:
    """The lambda inside applySlicing: one Python object -> one TensorIndex."""
    if _check_long(obj):
        return I.TensorIndex("Integer", unpack_long(obj))
    if isinstance(obj, slice):
        return I.TensorIndex("Slice", _unpack_slice(obj))
    if obj is Ellipsis:
        return I.TensorIndex("Ellipsis")
    if obj is None:
        return I.TensorIndex("None")
    if isinstance(obj, bool):
        return I.TensorIndex("Boolean", obj)
    if _is_tensor(obj):
        return I.TensorIndex("Tensor", _impl(obj))
    if _is_sequence(obj):
        return I.TensorIndex("Tensor", sequenceToVariable(self, obj))
    raise torch_error(IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long "
                                  f"or byte Variables are valid indices (got "
                                  f"{type(obj).__name__})")


SEQUENCE_TO_VARIABLE = step("sequenceToVariable", Layer.BINDING, source=SRC,
                            note="binding.sequenceToVariable", lecture=Lecture.HIDDEN)


def sequenceToVariable(self, seq: Any):
    """indexing_tensor_from_data: a Python list index becomes a long tensor."""
    with span(SEQUENCE_TO_VARIABLE, seq=seq if isinstance(seq, NDArray) else list(seq)) as s:
        result = internal_new_from_data(seq, D.int64, self.device_type, indexing=True)
        s.set_result(result)
        return result


APPLY_SLICING = step("applySlicing", Layer.BINDING, source=SRC, note="binding.applySlicing",
                     libtorch=symbol("torch::autograd::applySlicing"))
TENSOR_INDEX = step("TensorIndex", Layer.BINDING, source="aten/src/ATen/TensorIndexing.h",
                    note="binding.TensorIndex",
                    libtorch=symbol("at::indexing::TensorIndex::TensorIndex"))
# the release build inlines the constructor taking a Slice into applySlicing
TENSOR_INDEX_OF_SLICE = step("TensorIndex", Layer.BINDING,
                             source="aten/src/ATen/TensorIndexing.h", note="binding.TensorIndex",
                             libtorch=inlined("at::indexing::TensorIndex::TensorIndex",
                                              "torch::autograd::applySlicing"))


def applySlicing(self, index: tuple, out_indices: list, specified_dims: int):
    with span(APPLY_SLICING, self=self, specified_dims=specified_dims) as s:
        if specified_dims > self.dim():
            raise torch_error(IndexError, f"too many indices for tensor of dimension "
                                          f"{self.dim()}")
        dim = [0]
        result = self
        for i, obj in enumerate(index):
            with span(TENSOR_INDEX_OF_SLICE if isinstance(obj, slice) else TENSOR_INDEX,
                      python=lambda: _python_index(obj)) as ti:
                tensor_index = _to_tensor_index(self, obj)
                ti.set_result(tensor_index)
            result = I.handleDimInMultiDimIndexing(
                result, self, tensor_index, dim, specified_dims, i, out_indices,
                disable_slice_optimization=False, prev_dim_result_sizes=result.view.sizes)
        s.set(outIndices=lambda: [I.slot(t) for t in out_indices])
        s.set_result(result)
        return result


GET_ITEM = step("get_item", Layer.INDEXING, source=I.H, note="indexing.singleIndex",
                libtorch=symbol("at::indexing::get_item"))


def get_item(self, index: I.TensorIndex):
    """at::indexing::get_item with a single index (the fast paths)."""
    with span(GET_ITEM, index=index) as s:
        sizes = self.view.sizes
        if index.kind == "Integer":
            result = I.applySelect(self, 0, index.value, 0, sizes)
        elif index.kind == "Slice":
            sl = index.value
            result = I.applySlice(self, 0, sl.start, sl.stop, sl.step, True, sizes)
        elif index.kind == "None":
            result = aten.unsqueeze.default(self, 0)
        elif index.kind == "Ellipsis":
            result = aten.alias.default(self)
        else:  # Boolean
            unsq = aten.unsqueeze.default(self, 0)
            result = I.dispatch_index(unsq, [I.boolToIndexingTensor(unsq, index.value)])
        s.set_result(result)
        return result


SET_ITEM = step("set_item", Layer.INDEXING, source=I.H, note="indexing.singleIndex",
                libtorch=symbol("at::indexing::set_item"))


def set_item(self, index: I.TensorIndex, value) -> None:
    """at::indexing::set_item with a single index (the fast paths)."""
    with span(SET_ITEM, index=index):
        sizes = self.view.sizes
        if index.kind == "Boolean" and not index.value:
            return
        if index.kind == "Ellipsis":
            I.copy_to(self, value)
        elif index.kind == "None" or index.kind == "Boolean":
            I.copy_to(aten.unsqueeze.default(self, 0), value)
        elif index.kind == "Integer":
            I.copy_to(I.applySelect(self, 0, index.value, 0, sizes), value)
        else:
            sl = index.value
            I.copy_to(I.applySlice(self, 0, sl.start, sl.stop, sl.step, False, sizes), value)


TENSOR_GETITEM = step("Tensor.__getitem__", Layer.PYTHON, source="torch/_tensor.py",
                      note="python.getitem")
THPVARIABLE_GETITEM = step("THPVariable_getitem", Layer.BINDING, source=SRC,
                           note="binding.THPVariable_getitem",
                           libtorch=symbol("torch::autograd::THPVariable_getitem"))


def THPVariable_getitem(self, index: Any):
    with span(TENSOR_GETITEM, index=lambda: _python_index_list(index)) as py:
        with span(THPVARIABLE_GETITEM
                  ) as s:
            result = _getitem(unpack(self), index)
            s.set_result(result)
        wrapped = THPVariable_Wrap(result)
        py.set_result(wrapped)
        return wrapped


def _getitem(self, index: Any):
    if index is None:
        return get_item(self, I.TensorIndex("None"))
    if index is Ellipsis:
        return get_item(self, I.TensorIndex("Ellipsis"))
    if _check_long(index):
        return get_item(self, I.TensorIndex("Integer", unpack_long(index)))
    if isinstance(index, slice):
        return get_item(self, I.TensorIndex("Slice", _unpack_slice(index)))
    if index is True or index is False:
        return get_item(self, I.TensorIndex("Boolean", index))
    holder = wrapTuple(index)
    specified = count_specified_dimensions(holder)
    out_indices: list = []
    sliced = applySlicing(self, holder, out_indices, specified)
    if not out_indices:
        if sliced is self:
            # "ensure we return a shallow copy for things like x[...]"
            sliced = aten.alias.default(sliced)
        return sliced
    return I.dispatch_index(sliced, out_indices)


TENSOR_SETITEM = step("Tensor.__setitem__", Layer.PYTHON, source="torch/_tensor.py",
                      note="python.setitem")
THPVARIABLE_SETITEM = step("THPVariable_setitem", Layer.BINDING, source=SRC,
                           note="binding.THPVariable_setitem",
                           libtorch=symbol("torch::autograd::THPVariable_setitem"))


def THPVariable_setitem(self, index: Any, py_value: Any) -> None:
    with span(TENSOR_SETITEM, index=lambda: _python_index_list(index), value=py_value) as py:
        with span(THPVARIABLE_SETITEM):
            _setitem(unpack(self), index, py_value)
        py.set_result(self)


SLICE_PREFIX1S_SIZE = step("slicePrefix1sSize", Layer.INDEXING, source=I.H,
                           note="indexing.slicePrefix1sSize",
                           libtorch=symbol("at::indexing::slicePrefix1sSize"),
                           lecture=Lecture.HIDDEN)


def _setitem(self, index: Any, py_value: Any) -> None:
    value = valueToTensor(self, py_value)
    if index is False:
        return
    if index is Ellipsis:
        return set_item(self, I.TensorIndex("Ellipsis"), value)
    if index is None:
        return set_item(self, I.TensorIndex("None"), value)
    if index is True:
        return set_item(self, I.TensorIndex("Boolean", True), value)
    if _check_long(index):
        return set_item(self, I.TensorIndex("Integer", unpack_long(index)), value)
    if isinstance(index, slice):
        return set_item(self, I.TensorIndex("Slice", _unpack_slice(index)), value)
    holder = wrapTuple(index)
    specified = count_specified_dimensions(holder)
    out_indices: list = []
    sliced = applySlicing(self, holder, out_indices, specified)
    if not out_indices:
        I.copy_to(sliced, value)
        return
    sizes = I.slicePrefix1sSize(value.view.sizes)
    with span(SLICE_PREFIX1S_SIZE, value_sizes=list(value.view.sizes), result=list(sizes)):
        pass
    values_sliced = aten.view.default(value, sizes) if sizes != value.view.sizes else value
    I.dispatch_index_put_(sliced, out_indices, values_sliced)
