"""Triangles of a matrix: tril, triu (and their in-place forms), tril_indices, triu_indices.

Mirrors aten/src/ATen/native/TriangularOps.cpp (the structured tril/triu: a meta
function that checks the dims and sizes the output, then compute_triu_tril),
TriangularOpsUtils.h (checkTrilTriuBatchContiguous) and TensorFactories.cpp
(tril_indices_cpu, triu_indices_cpu, get_tril_size).  Element (i, j) of each matrix
is kept by tril when j - i <= diagonal and by triu when j - i >= diagonal; every other
element is written as zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, Lecture, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.diagonal import batched_matrix_contiguous_strides
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.factories import options
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched

TRIANGULAR = "aten/src/ATen/native/TriangularOps.cpp"
UTILS = "aten/src/ATen/native/TriangularOpsUtils.h"
FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"


def _meta_refused(self, name: str) -> None:
    # on the meta device torch runs a Python decomposition (arange, sub, le, where ...)
    if self.is_meta:
        raise Refused(f"{name} on the meta device runs a Python decomposition "
                      "(torch/_refs) that tidx does not model yet")


#: tril/triu's meta function (``TORCH_META_FUNC(tril)``)
META_FUNC = step("TORCH_META_FUNC(<tril|triu>)", Layer.KERNEL, source=TRIANGULAR)


def _check_dims(self, name: str) -> None:
    """TORCH_META_FUNC(tril) / (triu): a matrix at least."""
    with span(META_FUNC, called=f"TORCH_META_FUNC({name})",
              note=Note("triangle.meta", op=name), dim=self.dim()):
        check(self.dim() >= 2, RuntimeError,
              f"{name}: input tensor must have at least 2 dimensions")


CHECK_TRIL_TRIU_BATCH_CONTIGUOUS = step("checkTrilTriuBatchContiguous", Layer.KERNEL, source=UTILS)


def _batch_contiguous(self, allow_zero_stride: bool):
    """checkTrilTriuBatchContiguous: whether the kernel can walk the matrices of ``self``
    one after another at stride(-3), and the tensor it walks (a restrided alias or a
    contiguous copy when it cannot)."""
    sizes, strides = self.view.sizes, self.view.strides
    if self.is_contiguous():
        default = batched_matrix_contiguous_strides(sizes)
        if tuple(strides) == default:
            return True, self
        # contiguous, but a size-1 dim carries an odd stride: the default strides
        with span(CHECK_TRIL_TRIU_BATCH_CONTIGUOUS,
                  note="triangle.restride", strides=list(default)):
            pass
        return False, aten.as_strided.default(self, sizes, default, None)
    dims = self.dim()
    if allow_zero_stride and dims <= 3:
        return True, self
    expected = sizes[-1] * sizes[-2]
    for i in range(dims - 3, -1, -1):
        if allow_zero_stride and i == 0 and (strides[i] == 0 or sizes[i] == 1):
            continue
        if expected != strides[i]:
            with span(CHECK_TRIL_TRIU_BATCH_CONTIGUOUS,
                      note=Note("triangle.batch_copy", dim=i, stride=strides[i],
                                expected=expected)):
                pass
            return False, aten.contiguous.default(self)
        expected *= sizes[i]
    return True, self


def _zero_mask(n: int, m: int, k: int, upper: bool) -> np.ndarray:
    """The (n, m) positions the kernel writes zero to."""
    diff = np.arange(m, dtype=np.int64)[None, :] - np.arange(n, dtype=np.int64)[:, None]
    # compared as Python ints: a diagonal past +-2**62 clears or keeps everything
    if k > m or k < -n:
        return np.full((n, m), (k > m) if upper else (k < -n))
    return diff < k if upper else diff > k


#: TriangularOps.cpp's compute_triu_tril<Triu|Tril> and apply_triu_tril<...>
COMPUTE_TRIU_TRIL = step("compute_triu_tril<tril|triu>", Layer.KERNEL, source=TRIANGULAR,
                         note="triangle.empty")
APPLY_TRIU_TRIL = step("apply_triu_tril<tril|triu>", Layer.KERNEL, source=TRIANGULAR)


def _compute(self, k: int, result, upper: bool, name: str):
    """compute_triu_tril: the same kernel for tril/triu and tril_/triu_."""
    if self.numel() == 0:
        with span(COMPUTE_TRIU_TRIL, called=f"compute_triu_tril<{name}>"):
            pass
        return result
    inplace = self is result
    inplace_update, self_c = _batch_contiguous(self, inplace)
    if inplace and not inplace_update:
        result_c = aten.empty_like.default(result, memory_format="contiguous_format")
    else:
        result_c = result
    n, m = self.view.sizes[-2], self.view.sizes[-1]
    keep = "j - i >= " if upper else "j - i <= "
    with span(APPLY_TRIU_TRIL, called=f"apply_triu_tril<{name}>",
              note=lambda: Note("triangle.kernel_inplace" if inplace and inplace_update
                                else "triangle.kernel", op=name, keep=keep + str(k)),
              rows=n, cols=m, diagonal=k) as s:
        # the mask (its int64 differences first) and, out of place, a copy of the values
        check_temporary(name, n * m, 9)
        if not (inplace and inplace_update):
            check_temporary(name, self_c.numel(), self.dtype.itemsize)
        mask = _zero_mask(n, m, k, upper)
        if inplace and inplace_update:
            self_c.array(write=True)[..., mask] = 0
            s.set(written=touched(self_c))
        else:
            values = np.array(self_c.array())
            values[..., mask] = 0
            result_c.array(write=True)[...] = values
            s.set(read=touched(self_c), written=touched(result_c))
        s.set_result(result_c)
    if inplace and not inplace_update:
        aten.copy_.default(result, result_c)
    return result


def _functional(self, diagonal: int, name: str, upper: bool):
    _meta_refused(self, name)
    _check_dims(self, name)
    # the structured functional op sizes its output itself (set_output_raw_strided with
    # no strides): a contiguous tensor, no aten::empty of its own
    result = memory.empty_generic(self.view.sizes, self.dtype, self.device_type)
    return _compute(self, int(diagonal), result, upper, name)


def _inplace(self, diagonal: int, name: str, upper: bool):
    _meta_refused(self, name + "_")
    _check_dims(self, name)
    return _compute(self, int(diagonal), self, upper, name)


@declare("tril(Tensor self, SymInt diagonal=0) -> Tensor", variants="method, function",
         native="at::native::tril_cpu (structured)", source=TRIANGULAR, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def tril(self, diagonal: int = 0):
    return _functional(self, diagonal, "tril", upper=False)


@declare("triu(Tensor self, SymInt diagonal=0) -> Tensor", variants="method, function",
         native="at::native::triu_cpu (structured)", source=TRIANGULAR, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def triu(self, diagonal: int = 0):
    return _functional(self, diagonal, "triu", upper=True)


def _out(self, diagonal: int, name: str, upper: bool, out):
    """The structured out= form: the meta's dims check, then set_output (the out= tensor's
    dtype checked, resize_output) and the same kernel into it, whatever its strides (an
    out= that is self runs as the in-place form)."""
    _meta_refused(self, name)
    _check_dims(self, name)
    check(out.dtype is self.dtype, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(self.dtype)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    resize_output(out, self.view.sizes, S.contiguous_strides(self.view.sizes))
    return _compute(self, int(diagonal), out, upper, name)


@declare("tril.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::tril_cpu (structured)", source=TRIANGULAR, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def tril_out(self, diagonal: int = 0, *, out):
    return _out(self, diagonal, "tril", False, out)


@declare("triu.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::triu_cpu (structured)", source=TRIANGULAR, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def triu_out(self, diagonal: int = 0, *, out):
    return _out(self, diagonal, "triu", True, out)


@declare("tril_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", variants="method",
         native="at::native::tril_cpu (structured, in place)", source=TRIANGULAR, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def tril_(self, diagonal: int = 0):
    return _inplace(self, diagonal, "tril", upper=False)


@declare("triu_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)", variants="method",
         native="at::native::triu_cpu (structured, in place)", source=TRIANGULAR, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def triu_(self, diagonal: int = 0):
    return _inplace(self, diagonal, "triu", upper=True)


# -- tril_indices / triu_indices ----------------------------------------------------------

def get_tril_size(row: int, col: int, offset: int, w=S.int64) -> int:
    """get_tril_size (TensorFactories.h): how many (r, c) with c - r <= offset a row x col
    matrix holds, as a trapezoid on top of a rectangle.

    >>> get_tril_size(3, 3, 0), get_tril_size(3, 4, 1), get_tril_size(3, 3, -5)
    (6, 9, 0)
    """
    if row == 0 or col == 0:
        return 0
    # w: int64_t arithmetic, a huge matrix wraps as it does in C++ (int: exact)
    m_first_row = min(col, w(1 + offset)) if offset > 0 else int(w(row + offset) > 0)
    m_last_row = max(0, min(col, w(row + offset)))
    n_row_all = max(0, min(row, w(row + offset)))
    n_row_trapezoid = w(m_last_row - m_first_row + 1)
    size = w(w(m_first_row + m_last_row) * n_row_trapezoid) >> 1
    diff_row = w(n_row_all - n_row_trapezoid)
    if diff_row > 0:
        size = w(size + w(diff_row * col))
    return size


CHECK_ARGS = step("check_args", Layer.KERNEL, source=FACTORIES, note="triangle.indices_args",
                  lecture=Lecture.HIDDEN)
GET_TRIL_SIZE = step("get_tril_size", Layer.KERNEL, source=FACTORIES)


#: tril_indices_cpu / triu_indices_cpu (TensorFactories.cpp)
INDICES_CPU = step("<tril|triu>_indices_cpu", Layer.KERNEL, source=FACTORIES)


def _indices(name: str, row: int, col: int, offset: int, dtype: D.dtype | None,
             device: str | None):
    dtype, device = options(D.int64 if dtype is None else dtype, device)
    if device == "meta":
        raise Refused(f"torch.{name} on the meta device runs a Python decomposition "
                      "(torch/_refs) that tidx does not model yet")
    with span(CHECK_ARGS, row=row, col=col):
        check(row >= 0, RuntimeError, f"row must be non-negative, got{row}")
        check(col >= 0, RuntimeError, f"col must be non-negative, got{col}")
    upper = name == "triu_indices"
    # triu's count is everything minus tril's count one diagonal lower
    size = S.int64(row * col - get_tril_size(row, col, S.int64(offset - 1))) if upper \
        else get_tril_size(row, col, offset)
    exact = row * col - get_tril_size(row, col, offset - 1, int) if upper else \
        get_tril_size(row, col, offset, int)
    if size != exact:
        raise Refused(f"torch.{name}({row}, {col}, {offset}) overflows int64 counting its "
                      "pairs; tidx does not model the wrapped count")
    with span(GET_TRIL_SIZE, note=Note("triangle.indices_size", op=name, size=size), size=size):
        pass
    result = memory.empty_generic((2, size), dtype, device)
    # AT_DISPATCH_INDEX_TYPES: int and long only, after the allocation
    dispatched(dtype)
    with span(INDICES_CPU, called=f"{name}_cpu",
              note=Note("triangle.indices_fill", offset=offset)) as s:
        if size:
            check_temporary(name, size, 32)     # the rows, columns and repeats
            rows, cols = _coordinates(row, col, offset, upper, size)
            out = result.array(write=True)
            out[0] = rows
            out[1] = cols
            s.set(written=touched(result))
        s.set_result(result)
    return result


def _coordinates(row: int, col: int, offset: int, upper: bool, size: int):
    """The (r, c) pairs in row-major order, as the kernel's loop visits them: row by row,
    tril from column 0 to r + offset, triu from max(0, r + offset) to the last column.
    Only the rows that hold a pair are built, so a tall matrix with a short triangle
    costs no more than its triangle."""
    # an offset past either edge behaves as the edge (and keeps numpy in int64)
    offset = max(-row - 1, min(col + 1, offset))
    if upper:
        rows = np.arange(0, max(0, min(row, col - offset)), dtype=np.int64)
        first = np.maximum(0, rows + offset)
        counts = col - first
    else:
        rows = np.arange(max(0, -offset), row, dtype=np.int64)
        first = np.zeros_like(rows)
        counts = np.minimum(col, rows + offset + 1)
    starts = np.cumsum(counts) - counts
    rr = np.repeat(rows, counts)
    cc = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts - first, counts)
    assert rr.size == size
    return rr, cc


@declare("tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::tril_indices_cpu", source=FACTORIES, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("tril_indices", "AT_DISPATCH_INDEX_TYPES"))
def tril_indices(row: int, col: int, offset: int = 0, *, dtype: D.dtype | None = None,
                 layout: Any = None, device: str | None = None, pin_memory: Any = None):
    return _indices("tril_indices", row, col, offset, dtype, device)


@declare("triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::triu_indices_cpu", source=FACTORIES, meta=META_PYTHON,
         at_dispatch=AT_DISPATCH("triu_indices", "AT_DISPATCH_INDEX_TYPES"))
def triu_indices(row: int, col: int, offset: int = 0, *, dtype: D.dtype | None = None,
                 layout: Any = None, device: str | None = None, pin_memory: Any = None):
    return _indices("triu_indices", row, col, offset, dtype, device)


