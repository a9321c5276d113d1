"""index_reduce (functional, in-place, out=; reduce='prod'|'mean'|'amax'|'amin',
include_self=): one structured group, as native_functions.yaml declares it
(``index_reduce.out`` structured, the others its delegates).

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (``index_func_meta_impl``,
``TORCH_PRECOMPUTE_META_FUNC(index_reduce)``, ``index_reduce_func_impl``): the checks,
the output (fresh, self, or the out= tensor set up by set_output and then checked for
overlap), self copied into it, then the reduction along ``dim`` in the order of the index.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import OpOverload, aten
from engine.dispatch.declarations import CHECK_WRAPPER, INPLACE, META_PYTHON, OUT, structured
from engine.ops.index_ops import (ADV, _check_source, _contiguous, _index_values, _slice_marks,
                                  func_meta, refuse_meta)


_INDEX_REDUCE = ("prod", "mean", "amax", "amin")


def _exclude_init(op: str, dtype: D.dtype):
    """index_reduce_func_impl's start value when include_self=False: the reduction's
    identity (lowest / highest for amax / amin, -inf / inf for floats)."""
    if op == "prod":
        return 1
    if op == "mean":
        return 0
    if dtype.is_floating_point:
        return float("-inf") if op == "amax" else float("inf")
    info = np.iinfo(dtype.np)
    return int(info.min) if op == "amax" else int(info.max)


def _reduce_in_order(target: np.ndarray, where: tuple, values: np.ndarray, op: str) -> None:
    """mul_ / minimum / maximum / add_ per index entry, in the order of the index (NaN
    wins minimum and maximum)."""
    ufunc = {"prod": np.multiply, "amax": np.maximum, "amin": np.minimum, "mean": np.add}[op]
    ufunc.at(target, where, values)


def _divide_by_counts(result, counts) -> None:
    """'mean': counts.masked_fill_(counts == 0, 1), then result.div_(counts) (floor for
    integers)."""
    aten.masked_fill_.Scalar(counts, aten.eq.Scalar(counts, 0), 1)
    div: OpOverload = aten.div_.Tensor if result.dtype.is_floating_point else aten.div_.Tensor_mode
    if not div.decl.modelled:
        raise Refused("index_reduce(..., 'mean') divides by the counts with div_, which is not "
                      "modelled yet; 'prod', 'amax' and 'amin' are")
    if result.dtype.is_floating_point:
        div(result, counts)
    else:
        div(result, counts, rounding_mode="floor")


TORCH_WARN_ONCE = step("TORCH_WARN_ONCE", Layer.KERNEL, source=ADV, note="index_reduce.beta")
INDEX_FUNC_CPU_SERIAL_LOOP = step("index_func_cpu_: serial loop", Layer.KERNEL, source=ADV)
INDEX_FUNC_CPU_ONE_BINARY_OP_PER_SLICE = step("index_func_cpu_: one binary op per slice",
                                              Layer.KERNEL, source=ADV)


def index_reduce_impl(self, dim: int, index, source, op: str, include_self: bool,
                      result) -> None:
    """index_reduce_cpu_out / index_reduce_func_impl."""
    with span(TORCH_WARN_ONCE, category="UserWarning"):
        pass
    if result is not self:
        aten.copy_.default(result, self)
    if not include_self:
        dispatched(self.dtype, "index_reduce_func_exclude_input_init")
        long_index = aten.to.dtype(index, D.int64)
        aten.index_fill_.int_Scalar(result, dim, long_index,
                                    _exclude_init(op, self.dtype))
    numel = index.numel()
    index_contig = _contiguous(index)
    if result.dim() > 1:
        if numel == 0:
            return
        aten.select.int(result, dim, 0)
        aten.select.int(source, dim, 0)
        with span(INDEX_FUNC_CPU_ONE_BINARY_OP_PER_SLICE,
                  note=Note("index_reduce.slices", op=op, dim=dim), reduce=op, dim=dim) as s:
            _check_source("index_reduce", source)
            idx = _index_values(index_contig)
            size = result.view.sizes[dim]
            bad = (idx < 0) | (idx >= size)
            stop = int(np.argmax(bad)) if bad.any() else numel
            lead = (slice(None),) * dim
            _reduce_in_order(result.array(write=True), lead + (idx[:stop],),
                             source.array()[lead + (slice(0, stop),)], op)
            s.set(**_slice_marks(result, source, dim, idx[:stop], index_contig))
            if stop < numel:
                raise torch_error(IndexError, "index out of range in self")
            s.set_result(result)
        if op == "mean":
            counts = (aten.ones_like.default if include_self else aten.zeros_like.default)(result)
            aten.index_add_.default(counts, dim, index, aten.ones_like.default(source))
            _divide_by_counts(result, counts)
        return
    check(source.dim() <= 1, RuntimeError,
          f"source.dim() ({source.dim()}) must one or zero for given self.dim() ({self.dim()})")
    counts = (aten.ones_like.default if include_self else aten.zeros_like.default)(result)
    dispatched(result.dtype, "index_func_")
    with span(INDEX_FUNC_CPU_SERIAL_LOOP, note=Note("index_reduce.serial", op=op), reduce=op) as s:
        if numel:
            _check_source("index_reduce", source)
            idx = _index_values(index_contig)
            n = result.numel()
            bad = (idx < 0) | (idx >= n)
            stop = int(np.argmax(bad)) if bad.any() else numel
            target = result.array(write=True).reshape(-1) if result.dim() else \
                result.array(write=True).reshape(1)
            _reduce_in_order(target, (idx[:stop],), source.array().reshape(-1)[:stop], op)
            s.set(**_slice_marks(result, source, 0, idx[:stop], index_contig))
            if op == "mean":
                tally = counts.array(write=True).reshape(-1) if counts.dim() else \
                    counts.array(write=True).reshape(1)
                np.add.at(tally, idx[:stop], 1)
            if stop < numel:
                raise torch_error(IndexError, "index out of range in self")
        s.set_result(result)
    if op == "mean":
        _divide_by_counts(result, counts)


def _index_reduce(form: str, self, dim, index, source, reduce, include_self, out):
    """TORCH_PRECOMPUTE_META_FUNC(index_reduce): the reduce name first, then
    index_func_meta_impl; then index_reduce_cpu_out into the output."""
    refuse_meta("index_reduce_" if form == INPLACE else "index_reduce", self, index, source,
                python=form != OUT)
    check(reduce in _INDEX_REDUCE, RuntimeError,
          "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
          f"{reduce}.")
    dim = S.maybe_wrap_dim(dim, self.dim())
    result = func_meta("index_reduce", self, dim, index, source, inplace=form == INPLACE,
                       out=out if form == OUT else None)
    index_reduce_impl(self, dim, index, source, reduce, include_self, result)
    return result


@structured("index_reduce.out(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
            "bool include_self=True, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::index_reduce_cpu_out (structured)",
            out_native="at::native::index_reduce_cpu_out (structured)", source=ADV,
            meta=META_PYTHON, out_meta=None, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER,
            # index_reduce_func_impl's two: the start value of include_self=False, the loop
            at_dispatch=tuple(AT_DISPATCH(name, "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)")
                              for name in ("index_reduce_func_exclude_input_init",
                                           "index_func_")))
def index_reduce(form: str, self, dim: int, index, source, reduce: str, *,
                 include_self: bool = True, out):
    return _index_reduce(form, self, dim, index, source, reduce, include_self, out)
