"""Scatter with a reduction: scatter_reduce(_) (reduce='sum'|'prod'|'mean'|'amax'|'amin',
include_self=) and the older scatter(_)(..., reduce='add'|'multiply').

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (``scatter_meta_impl``,
``get_operator_enum``, ``scatter_impl``, ``scatter_reduce_exclude_self_helper``,
``TORCH_IMPL_FUNC(scatter_reduce_two)``) and cpu/ScatterGatherKernel.cpp.

The generic kernel walks every position of the index; each one combines
``src[..i..]`` into ``self[..index[..i..]..]``.  Two index entries that meet in one
element of self always share their coordinates off ``dim``, and the kernel visits them in
the order of ``i`` on one thread: so a float sum adds in the order of the index, which
``np.add.at`` (unbuffered, in order) reproduces bit for bit.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, torch_error
from engine.core.warn_once import warn_once
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, INPLACE, META_PYTHON, OUT, structured
from engine.dispatch.aten import OpOverload, aten
from engine.ops.gather import _coords, _index_values, nonempty, scatter_apply, scatter_index, \
    src_window
from engine.ops.scatter import (_scatter_checks, can_use_expanded_index_path,
                                handled, scatter_output, scatter_reads, scatter_touch)
from engine.ops.index_ops import refuse_meta
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import along, touched
from engine.ops.touch import where as where_set

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
KERNEL = "aten/src/ATen/native/cpu/ScatterGatherKernel.cpp"

#: get_reduction_enum: the names scatter_reduce accepts, and what each one does.
NEW_OPTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax", "max": "amax",
               "amin": "amin", "min": "amin"}
#: get_operator_enum's old names, for scatter(..., reduce=).
OLD_OPTIONS = {"add": "sum", "multiply": "prod"}


def _operator(reduce: str, new: bool) -> str:
    """get_operator_enum: the reduction a name stands for, or torch's error."""
    table = NEW_OPTIONS if new else OLD_OPTIONS
    if reduce not in table:
        raise torch_error(RuntimeError,
                          f"reduce argument must be either sum, prod, mean, amax or amin, got "
                          f"{reduce}" if new else "reduce argument must be either add or multiply.")
    return table[reduce]


def _init_value(op: str, dtype: D.dtype):
    """scatter_reduce_exclude_self_helper's start value: the reduction's identity
    (the lowest / highest value for amax / amin, -inf / inf for floats)."""
    if op in ("sum", "mean"):
        return False if dtype is D.bool else 0
    if op == "prod":
        return True if dtype is D.bool else 1
    if dtype is D.bool:
        return op == "amin"
    if dtype.is_floating_point:
        return float("-inf") if op == "amax" else float("inf")
    info = np.iinfo(dtype.np)
    return int(info.min) if op == "amax" else int(info.max)


def _combine(target: np.ndarray, coords: tuple, values: np.ndarray, op: str,
             dtype: D.dtype) -> None:
    """The kernel's ReduceAdd / ReduceMultiply / ReduceMaximum / ReduceMinimum / ReduceMean,
    one index entry after another (NaN wins max and min, as at::_isnan makes it)."""
    ufunc: np.ufunc
    if dtype is D.bool:
        ufunc = {"sum": np.logical_or, "mean": np.logical_or, "prod": np.logical_and,
                 "amax": np.logical_or, "amin": np.logical_and}[op]
    else:
        ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
                 "amin": np.minimum}[op]
    ufunc.at(target, coords, values)


#: scatter_reduce_two_cpu_kernel, scatter_reduce_cpu_kernel, scatter_scalar_reduce_cpu_kernel
REDUCE_KERNEL = step("scatter_<...>_cpu_kernel", Layer.KERNEL, source=KERNEL)


def _reduce_kernel(out, dim: int, index, src, op: str, name: str) -> None:
    """scatter_reduce_two_stub / scatter_reduce_stub / scatter_scalar_reduce_stub."""
    aten.to.dtype(index, D.int64)
    with span(REDUCE_KERNEL, called=name, note=Note("scatter_reduce.kernel", op=op, dim=dim),
              dim=dim, reduce=op) as s:
        if op == "mean":
            dispatched(out.dtype)
        values, reached, error = scatter_index(
            out, dim, index, None if isinstance(src, (int, float, bool)) else src)
        coords = _coords(index.view.sizes, dim, values)
        if isinstance(src, (int, float, bool)):
            # the kernel converts the value where it first uses it: an index out of
            # bounds before any element is reached raises first (torch's order)
            try:
                scalar = to_dtype_scalar(src, out.dtype)
            except Exception:
                if error is not None and (reached is None or not reached.any()):
                    raise error from None
                raise
            vals = np.broadcast_to(np.asarray(scalar, dtype=out.dtype.np),
                                   index.view.sizes or (1,))
        else:
            vals = src_window(src, index)
        scatter_apply(nonempty(out.array(write=True)), coords, vals, reached,
                      lambda t, c, v: _combine(t, c, v, op, out.dtype))
        # as scatter_add: the elements reached are read and written, src and the index
        # read at the positions handled
        s.set(written=lambda: scatter_touch(out, coords, reached),
              read=lambda: scatter_reads(out, index, src, coords, reached, True),
              read_index=lambda: where_set(index, handled(index, reached)))
        if error is not None:
            raise error
        s.set_result(out)


def _mean_counts(out, dim: int, index, src, include_self: bool) -> None:
    """scatter_reduce_two's 'mean': count the contributions per element, then divide."""
    ones = aten.ones_like.default(src)
    count = (aten.ones_like.default if include_self else aten.zeros_like.default)(out)
    aten.scatter_add_.default(count, dim, index, ones)
    aten.masked_fill_.Scalar(count, aten.eq.Scalar(count, 0), 1)
    div: OpOverload = aten.div_.Tensor if out.dtype.is_floating_point else aten.div_.Tensor_mode
    if not div.decl.modelled:
        raise Refused("scatter_reduce(..., 'mean') divides by the counts with div_, which is "
                      "not modelled yet; 'sum', 'prod', 'amax' and 'amin' are")
    if out.dtype.is_floating_point:
        div(out, count)
    else:
        div(out, count, rounding_mode="floor")


SCATTER_REDUCE_EXPANDED_INDEX = step("scatter_reduce_expanded_index", Layer.KERNEL, source=KERNEL)


def _expanded_path(out, index, src, op: str, include_self: bool) -> None:
    """scatter_reduce_expanded_index_stub: the same reduction in one kernel, the index
    sorted (stably: equal entries keep their order), 'mean' and include_self inside."""
    with span(SCATTER_REDUCE_EXPANDED_INDEX,
              note=Note("scatter_reduce.expanded", op=op), reduce=op) as s:
        values = _index_values(out, 0, index)
        coords = _coords(index.view.sizes, 0, values)
        target = out.array(write=True)
        rows = np.unique(values[:, 0] if index.dim() > 1 else values)
        if not include_self:
            target[rows] = _init_value(op, out.dtype)
        _combine(target, coords, src_window(src, index), op, out.dtype)
        # the elements the index reaches (and, without include_self, the rows it names,
        # reset first), src whole
        s.set(written=lambda: [scatter_touch(out, coords, None)] +
              ([] if include_self else [along(out, 0, rows)]),
              read=touched(src), read_index=touched(index))
        if op == "mean":
            counts = np.zeros(out.view.sizes[0], dtype=np.int64)
            np.add.at(counts, values[:, 0] if index.dim() > 1 else values, 1)
            counts = counts + (1 if include_self else 0)
            counts[counts == 0] = 1
            shape = (-1,) + (1,) * (out.dim() - 1)
            target[rows] = (target / counts.reshape(shape).astype(out.dtype.np))[rows]
        s.set_result(out)


def _meta(form: str, what: str, self, dim: int, index, src, out, reduce: str, new: bool):
    """scatter_meta_impl: checks, the output (overlap of a given one, set_output), the
    reduce name."""
    dim = _scatter_checks(self, dim, index, src)
    out = scatter_output(form, what, self, index, src, out)
    return dim, out, _operator(reduce, new)


SCATTER_REDUCE_EXCLUDE_SELF_HELPER = step("scatter_reduce_exclude_self_helper", Layer.KERNEL,
                                          source=ADV)


def _scatter_reduce_two(form, self, dim, index, src, reduce, include_self, out):
    name = "scatter_reduce_" if form == INPLACE else "scatter_reduce"
    refuse_meta(name, self, index, src)
    dim, out, op = _meta(form, name, self, dim, index, src, out, reduce, new=True)
    if out is not self:
        aten.copy_.default(out, self)
    if can_use_expanded_index_path(out, dim, index, src, is_scatter_like=True):
        _expanded_path(out, index, src, op, include_self)
        return out
    # scatter_impl copies self into the output a second time
    if out is not self:
        aten.copy_.default(out, self)
    if index.numel():
        if not include_self:
            with span(SCATTER_REDUCE_EXCLUDE_SELF_HELPER,
                      note=Note("scatter_reduce.exclude_self", op=op)):
                aten.scatter_.value(out, dim, index, _init_value(op, out.dtype))
        _reduce_kernel(out, dim, index, src, op, "scatter_reduce_two_cpu_kernel")
    if op == "mean":
        _mean_counts(out, dim, index, src, include_self)
    return out


@structured("scatter_reduce.two_out(Tensor self, int dim, Tensor index, Tensor src, str reduce, "
            "*, bool include_self=True, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::scatter_reduce_two (structured)",
            out_native="at::native::scatter_reduce_two (structured)", source=ADV,
            meta=META_PYTHON, device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER,
            # cpu/ScatterGatherKernel.cpp's reduce='mean'
            at_dispatch=AT_DISPATCH("scatter_gather_tensor_cpu_reduce_mean",
                                    "AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"))
def scatter_reduce(form: str, self, dim: int, index, src, reduce: str, *,
                   include_self: bool = True, out):
    return _scatter_reduce_two(form, self, dim, index, src, reduce, include_self, out)


# -- scatter(..., reduce='add'|'multiply') ----------------------------------------------------

TORCH_WARN_ONCE = step("TORCH_WARN_ONCE", Layer.KERNEL, source=ADV,
                       note="scatter.reduce_deprecated")


def _scatter_old_reduce(form, self, dim, index, src, reduce, out):
    name = "scatter_" if form == INPLACE else "scatter"
    refuse_meta(name, self, index, *([] if isinstance(src, (int, float, bool)) else [src]),
                python=form != OUT)
    if not isinstance(src, (int, float, bool)):
        # TORCH_META_FUNC2(scatter, reduce) warns once, before the checks
        with warn_once(TORCH_WARN_ONCE, "scatter.reduce_deprecated"):
            pass
    dim, out, op = _meta(form, name, self, dim, index, src, out, reduce, new=False)
    if out is not self:
        aten.copy_.default(out, self)
    if index.numel():
        _reduce_kernel(out, dim, index, src, op,
                       "scatter_scalar_reduce_cpu_kernel" if isinstance(src, (int, float, bool))
                       else "scatter_reduce_cpu_kernel")
    return out


@structured("scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, "
            "Tensor(a!) out) -> Tensor(a!)",
            native="at::native::scatter_reduce_out (structured)",
            out_native="at::native::scatter_reduce_out (structured)", source=ADV,
            meta=META_PYTHON, out_meta=None, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER)
def scatter_reduce_src(form: str, self, dim: int, index, src, *, reduce: str, out):
    return _scatter_old_reduce(form, self, dim, index, src, reduce, out)


@structured("scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, "
            "str reduce, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::scatter_value_reduce_out (structured)",
            out_native="at::native::scatter_value_reduce_out (structured)", source=ADV,
            meta=META_PYTHON, out_meta=None, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER)
def scatter_value_reduce(form: str, self, dim: int, index, value, *, reduce: str, out):
    return _scatter_old_reduce(form, self, dim, index, value, reduce, out)
