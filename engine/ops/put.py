"""put_ / put: self seen as flat, ``self.flat[index[i]] = source[i]`` (or ``+=``)
(aten/src/ATen/native/TensorAdvancedIndexing.cpp, ``put_``; the kernel is
cpu/IndexKernel.cpp's ``put_kernel`` / ``cpu_take_put_kernel``).

The linear index is self's row-major position whatever its strides; a negative one
counts from the end.  The kernel walks source and index together: one thread below
GRAIN_SIZE elements (repeated indices: the last write wins, sums in index order); above
it, plain writes split across threads and float32 sums use atomic adds, which tidx
refuses when repeated indices make the result depend on the schedule.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.declarations import CHECK_WRAPPER, declare
from engine.dispatch.aten import aten
from engine.ops import overlap
from engine.ops.index_ops import (ADV, KERNEL, _add_in_order, _last_writer,
                                  _refuse_parallel_duplicates, refuse_meta)
from engine.ops.parallel import GRAIN_SIZE, num_threads
from engine.memory.allocator import check_temporary
from engine.ops.touch import at, first


PUT_KERNEL = step("put_kernel", Layer.KERNEL, source=KERNEL)


@declare("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> "
         "Tensor(a!)", variants="method", native="at::native::put_", source=ADV,
         device_check=CHECK_WRAPPER)
def put_(self, index, source, accumulate: bool = False):
    refuse_meta("put_", self, index, source)
    check(index.dtype is D.int64, RuntimeError,
          f"put_(): Expected a long tensor for index, but got {D.cpp_name(index.dtype)}")
    check(self.dtype is source.dtype, RuntimeError,
          "put_(): self and source expected to have the same dtype, but got self.dtype = "
          f"{D.cpp_name(self.dtype)} and source.dtype = {D.cpp_name(source.dtype)}")
    check(source.numel() == index.numel(), IndexError,
          "put_(): Expected source and index to have the same number of elements, but got "
          f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    check(not (self.numel() == 0 and index.numel() != 0), IndexError,
          "put_(): Tried to put elements into an empty tensor")
    overlap.check("put_", self, full=[index, source])
    if index.numel() == 0:
        return self
    index_reshaped = aten.reshape.default(index, source.view.sizes)
    with span(PUT_KERNEL,
              note=Note("put.kernel", numel=self.numel()) if not accumulate
              else Note("put.accumulate", numel=self.numel()), accumulate=accumulate) as s:
        # the index in int64, np.unique's sorted copy, the bounds masks, the wrapped
        # index and its coordinates along self's dims, the source flattened
        check_temporary("put_", index.numel(), 48 + 8 * max(self.dim(), 1)
                        + source.dtype.itemsize)
        idx = index_reshaped.array().reshape(-1).astype(np.int64)
        values = source.array().reshape(-1)
        n = self.numel()
        duplicates = np.unique(idx).size < idx.size
        # one element seen everywhere (an expanded number, as TakeBackward0's gradient of
        # a sum): every order puts or adds the same values, so the order cannot matter
        uniform = all(st == 0 or sz <= 1 for sz, st in zip(source.view.sizes,
                                                           source.view.strides))
        if duplicates and not uniform and not (source.is_contiguous()
                                               and index_reshaped.is_contiguous()):
            raise Refused("put_ with repeated indices from a strided source or index: the "
                          "order TensorIterator visits them in decides the result, which "
                          "tidx does not model")
        if duplicates and not accumulate:
            _refuse_parallel_duplicates("put_", idx, idx.size)
        if duplicates and accumulate and self.dtype is D.float32 and idx.size >= GRAIN_SIZE \
                and num_threads() > 1:
            # put_kernel: float32 accumulates on several threads with atomic adds
            raise Refused("put_(..., accumulate=True) on float32 with repeated indices over "
                          f"{idx.size} elements adds on several threads (atomic adds): the "
                          "order of the sums, and so their rounding, is not deterministic")
        bad = (idx < -n) | (idx >= n)
        stop = int(np.argmax(bad)) if bad.any() else idx.size
        # cpu_take_put_kernel: a negative index counts from the end; the linear index is
        # self's row-major position, whatever its strides
        where = np.unravel_index(np.where(idx[:stop] < 0, idx[:stop] + n, idx[:stop]),
                                 self.view.sizes) if self.dim() else (idx[:stop] * 0,)
        target = self.array(write=True) if self.dim() else self.array(write=True).reshape(1)
        if accumulate:
            _add_in_order(target, where, values[:stop], self.dtype)
        else:
            keep = _last_writer(idx[:stop])
            target[tuple(w[keep] for w in where)] = values[:stop][keep]
        # the elements of self at the linear positions it reached (accumulate adds into
        # them: read too), source's first elements in order, the index up to there
        s.set(written=lambda: at(self, where), read_index=first(index_reshaped, stop + 1),
              read=lambda: [first(source, stop)] + ([at(self, where)] if accumulate else []))
        if stop < idx.size:
            raise torch_error(IndexError, f"out of range: tried to access index {int(idx[stop])} "
                                          f"on a tensor of {n} elements.")
        s.set_result(self)
    return self


@declare("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
         variants="function, method", native="at::native::put", source=ADV)
def put(self, index, source, accumulate: bool = False):
    refuse_meta("put", self, index, source)
    out = aten.clone.default(self, memory_format="preserve_format")
    return aten.put_.default(out, index, source, accumulate)
