"""scatter and scatter_add (scatter.src/.value, scatter_add: functional, in-place, out=):
one structured group each, as native_functions.yaml declares them (``structured: True`` on
the out= overload, ``structured_delegate`` on the others).

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (``scatter_meta_impl``,
``scatter_impl``, ``TORCH_IMPL_FUNC(scatter_add)``) and cpu/ScatterGatherKernel.cpp.  The
three forms differ only in the output the meta step is given: a fresh tensor, self, or
the out= tensor -- checked against the index and src for overlap at the size it came
with, then set up by set_output (the dtype check, resize_output's warning) -- and self is
copied into the output unless it is the output.
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, INPLACE, META_PYTHON, OUT, structured
from engine.memory import empty as memory
from engine.ops import overlap
from engine.ops.gather import (ADV, _coords, _scatter_shape_check, nonempty, scatter_apply,
                               scatter_index, src_window)
from engine.ops.index_ops import refuse_meta, set_out
from engine.ops.touch import at, elements
from engine.ops.touch import where as where_set


def can_use_expanded_index_path(self, dim: int, index, src, is_scatter_like: bool) -> bool:
    """can_use_expanded_index_path (TensorAdvancedIndexing.cpp): the fast path for an
    index expanded over every dim but the first (GNN-style scatter), taken by torch's
    x86 builds (fbgemm's radix sort with OpenMP).  It scatters without the generic
    kernel (no ``to`` of the index) and in the same order along the index."""
    if not self.dtype.is_floating_point or self.device_type != "cpu":
        return False
    if 0 in (self.numel(), index.numel(), src.numel()) or 0 in (self.dim(), index.dim(),
                                                                 src.dim()):
        return False
    if any(src.view.sizes[d] != index.view.sizes[d] for d in range(1, index.dim())):
        return False
    if is_scatter_like and index.numel() // index.view.sizes[0] < 16:
        return False
    strides, sizes = index.view.strides, index.view.sizes
    expanded = strides[0] == 1 and not any(
        st > 1 or (st == 1 and n > 1) for st, n in zip(strides[1:], sizes[1:]))
    return dim == 0 and expanded and src.is_contiguous() and self.is_contiguous()


SCATTER_KERNEL = step("scatter_kernel", Layer.KERNEL,
                      source="aten/src/ATen/native/cpu/ScatterGatherKernel.cpp")


def _scatter_into(self, dim: int, index, src, reduce_add: bool) -> None:
    if not index.numel():
        return      # scatter_impl and scatter_add return before the kernel
    expanded = reduce_add and not isinstance(src, (int, float, bool)) and \
        can_use_expanded_index_path(self, dim, index, src, is_scatter_like=True)
    if not expanded:
        aten.to.dtype(index, D.int64)
    with span(SCATTER_KERNEL,
              note="scatter_add.kernel" if reduce_add else "scatter.kernel", dim=dim) as s:
        if not self.is_meta and index.numel():
            values, reached, error = scatter_index(
                self, dim, index, None if isinstance(src, (int, float, bool)) else src)
            coords = _coords(index.view.sizes, dim, values)
            if isinstance(src, (int, float, bool)):
                vals = np.broadcast_to(np.asarray(src).astype(self.dtype.np),
                                       index.view.sizes or (1,))
            else:
                vals = src_window(src, index)
            scatter_apply(nonempty(self.array(write=True)), coords, vals, reached,
                          np.add.at if reduce_add else _assign)
            # the positions it handled (all, or those before a bad index): self at their
            # coordinates written (scatter_add reads them too), the index and src there read
            s.set(written=lambda: scatter_touch(self, coords, reached),
                  read=lambda: scatter_reads(self, index, src, coords, reached, reduce_add),
                  read_index=lambda: where_set(index, handled(index, reached)))
            if error is not None:
                raise error
        s.set_result(self)


def scatter_touch(self, coords: tuple, reached):
    """The elements of self the scatter kernel stored to (those before a bad index)."""
    full = np.broadcast_arrays(*coords)
    return at(self, tuple(c if reached is None else c[reached] for c in full))


def handled(index, reached) -> np.ndarray:
    """The index positions the scatter kernel handled, in index's shape."""
    return (np.ones(index.view.sizes, bool) if reached is None else
            np.asarray(reached).reshape(index.view.sizes))


def scatter_reads(self, index, src, coords: tuple, reached, reduce_add: bool) -> list:
    """The data the scatter kernel loaded besides the index: src at the positions it
    handled (index's shape from src's origin), and with scatter_add the elements of
    self it added into."""
    out: list = []
    if not isinstance(src, (int, float, bool)):
        mine = handled(index, reached).reshape(index.view.sizes or (1,))
        out.append(at(src, np.nonzero(mine)) if src.dim() else
                   elements(src.storage, np.full(int(mine.sum()), src.view.offset)))
    if reduce_add:
        out.append(scatter_touch(self, coords, reached))
    return out


def _assign(target: np.ndarray, coords: tuple, vals: np.ndarray) -> None:
    target[coords] = vals


def _scatter_checks(self, dim: int, index, src) -> int:
    dim = S.maybe_wrap_dim(dim, self.dim())
    # scatter_gather_dtype_check: int32 or int64, unless the index is empty
    check(index.dtype in (D.int64, D.int32) or not index.numel(), RuntimeError,
          "scatter(): Expected dtype int32/int64 for index")
    if not isinstance(src, (int, float, bool)):
        check(src.dtype is self.dtype, RuntimeError,
              "scatter(): Expected self.dtype to be equal to src.dtype")
    _scatter_shape_check(self, dim, index, None if isinstance(src, (int, float, bool))
                         else src)
    return dim


def _scatter_overlap(what: str, self, index, src) -> None:
    """scatter_meta_impl, when the output is given (the in-place forms): it must not
    overlap itself, the index or the source."""
    others = [index] + ([] if isinstance(src, (int, float, bool)) else [src])
    overlap.check(what, self, full=others)



def scatter_output(form: str, what: str, self, index, src, out):
    """scatter_meta_impl's output, after its dtype and shape checks: a given output (self
    in place, or the out= tensor as it came) may not overlap itself, the index or src;
    then set_output_raw_strided(0, self.sizes(), {}, self.options())."""
    if form == INPLACE:
        _scatter_overlap(what, self, index, src)
        return self
    if form == OUT:
        _scatter_overlap(what, out, index, src)
        set_out(out, self.view.sizes, self.dtype, self.device_type)
        return out
    return memory.empty_generic(self.view.sizes, self.dtype, self.device_type)


def _scatter(form: str, name: str, self, dim: int, index, src, out, reduce_add: bool):
    """scatter_meta_impl, then scatter_impl / TORCH_IMPL_FUNC(scatter_add): self copied
    into the output unless it is the output (in place, or out=self), then the kernel."""
    # the out= form on the meta device runs only the C++ meta function (set_output's
    # resize_), the others torch's Python meta: neither is modelled
    refuse_meta(name, self, index, *([] if isinstance(src, (int, float, bool)) else [src]),
                python=form != OUT)
    dim = _scatter_checks(self, dim, index, src)
    out = scatter_output(form, name + "_" if form == INPLACE else name, self, index, src, out)
    if out is not self:
        aten.copy_.default(out, self)
    _scatter_into(out, dim, index, src, reduce_add=reduce_add)
    return out


@structured("scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) "
            "-> Tensor(a!)",
            native="at::native::scatter (structured)",
            out_native="at::native::scatter_src_out (structured)", source=ADV,
            meta=META_PYTHON, out_meta=None, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER)
def scatter(form: str, self, dim: int, index, src, *, out):
    return _scatter(form, "scatter", self, dim, index, src, out, reduce_add=False)


@structured("scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, "
            "Tensor(a!) out) -> Tensor(a!)",
            native="at::native::scatter (structured)",
            out_native="at::native::scatter_value_out (structured)", source=ADV,
            meta=META_PYTHON, out_meta=None, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER)
def scatter_value(form: str, self, dim: int, index, value, *, out):
    return _scatter(form, "scatter", self, dim, index, value, out, reduce_add=False)


@structured("scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) "
            "-> Tensor(a!)",
            native="at::native::scatter_add (structured)",
            out_native="at::native::scatter_add (structured)", source=ADV,
            meta=META_PYTHON, out_meta=None, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER)
def scatter_add(form: str, self, dim: int, index, src, *, out):
    return _scatter(form, "scatter_add", self, dim, index, src, out, reduce_add=True)
