"""The distinct elements of a tensor: _unique2, _unique, unique_consecutive and the dim
forms (aten/src/ATen/native/Unique.cpp).

torch.unique (torch/functional.py) calls ``aten::_unique2``; on the CPU it always sorts,
whatever ``sorted`` says: the input (made contiguous) is flattened and sorted with the
default, unstable ``sort``, and a pass over the sorted values keeps every element that
differs (``!=``) from the one before it.  So NaNs are never equal to each other (each
is kept) and -0.0 and 0.0 are one value, shown as whichever the sort put first.
Bool tensors take a counting path instead (how many True, how many False).  The
results start as empty tensors and are ``resize_``d once their sizes are known.

``unique_consecutive`` keeps an element when it differs from the previous one in the
original order (no sort).  With ``dim`` (and for ``unique_consecutive`` any ``dim`` but
0 of a 1-D tensor) torch compares whole slices, through moveaxis, unbind, equal and
stack: tidx runs its checks and its empty-slice case, and refuses the rest.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.declarations import CHECK_WRAPPER, declare
from engine.dispatch.aten import aten
from engine.memory.allocator import check_limit, check_temporary
from engine.ops.sorting import refuse_meta
from engine.ops.touch import first, touched

UNIQUE = "aten/src/ATen/native/Unique.cpp"


def _empty(dtype: D.dtype, device: str, sizes=(0,)):
    return aten.empty.memory_format(sizes, dtype=dtype, device=device)


def _resize(t, sizes) -> None:
    aten.resize_.default(t, list(sizes))


def _contiguous(self):
    # Tensor::contiguous(): dispatches only when the tensor is not contiguous already
    return self if self.is_contiguous() else aten.contiguous.default(self)


UNIQUE_CPU_BOOL_TEMPLATE = step("unique_cpu_bool_template", Layer.KERNEL, source=UNIQUE)


def _bool_template(self, return_inverse: bool, return_counts: bool):
    """unique_cpu_bool_template: count the Trues; False comes first."""
    inp = _contiguous(self)
    output = _empty(self.dtype, self.device_type)
    inverse = _empty(D.int64, self.device_type)
    counts = _empty(D.int64, self.device_type)
    numel = inp.numel()
    if numel == 0:
        if return_inverse:
            _resize(inverse, inp.view.sizes)
        return output, inverse, counts
    check_temporary("unique", numel, 8)           # the inverse, made by np.where
    values = inp.array().reshape(-1)
    num_true = int(np.count_nonzero(values))
    num_false = numel - num_true
    with span(UNIQUE_CPU_BOOL_TEMPLATE,
              note=Note("unique.bool", trues=num_true, falses=num_false)) as s:
        num_out = (num_true > 0) + (num_false > 0)
        true_idx = int(num_false > 0)
        _resize(output, (num_out,))
        if return_counts:
            _resize(counts, (num_out,))
        out = output.array(write=True)
        if num_false:
            out[0] = False
        if num_true:
            out[true_idx] = True
        if return_counts:
            c = counts.array(write=True)
            if num_false:
                c[0] = num_false
            if num_true:
                c[true_idx] = num_true
        if return_inverse:
            _resize(inverse, inp.view.sizes)
            inverse.array(write=True)[...] = np.where(values, true_idx, 0).reshape(inp.view.sizes)
        s.set(read=touched(inp), written=[touched(t) for t in (output, counts, inverse)
                                            if t.numel()])
    return output, inverse, counts


UNIQUE_CPU_SORTED_TEMPLATE = step("unique_cpu_sorted_template", Layer.KERNEL, source=UNIQUE)


def _sorted_template(self, return_inverse: bool, return_counts: bool):
    """unique_cpu_sorted_template: sort, then keep each value unlike its predecessor."""
    inp = _contiguous(self)
    numel = inp.numel()
    output = _empty(self.dtype, self.device_type)
    inverse = _empty(D.int64, self.device_type)
    counts = _empty(D.int64, self.device_type)
    if numel == 0:
        if return_inverse:
            _resize(inverse, inp.view.sizes)
        return output, inverse, counts
    unique_index = _empty(D.int64, self.device_type)
    # the pass after the sort: a flag and a group number per element
    check_limit(numel * 9, f"unique over {numel} elements")
    flat = aten.flatten.using_ints(inp, 0, -1)
    sorted_values, indices = aten.sort.default(flat)
    # the mask of firsts, the kept values, the groups (cumsum), the inverse, the starts
    check_temporary("unique", numel, 1 + self.dtype.itemsize + 3 * 8)
    vals = sorted_values.array()
    with np.errstate(invalid="ignore"):
        keep = np.ones(numel, dtype=bool)
        keep[1:] = vals[1:] != vals[:-1]          # IsUnique<scalar_t, equal_nan=false>
    unique_count = int(np.count_nonzero(keep))
    with span(UNIQUE_CPU_SORTED_TEMPLATE,
              note=Note("unique.sorted", n=numel, count=unique_count)) as s:
        _resize(output, (unique_count,))
        output.array(write=True)[...] = vals[keep]
        if return_inverse:
            _resize(inverse, inp.view.sizes)
            group = np.cumsum(keep)                   # each sorted element's unique value
            group -= 1
            inv = inverse.array(write=True)
            assert inv.flags.c_contiguous, "a resized empty tensor is contiguous"
            inv.reshape(-1)[indices.array()] = group
        if return_counts:
            _resize(counts, (unique_count,))
            _resize(unique_index, (unique_count + 1,))
            starts = np.append(np.nonzero(keep)[0], numel)
            unique_index.array(write=True)[...] = starts
            counts.array(write=True)[...] = np.diff(starts)
        s.set(read=touched(sorted_values), written=[touched(t) for t in (output, inverse, counts)
                                                      if t.numel()])
    return output, inverse, counts


def _unique_any(self, return_inverse: bool, return_counts: bool):
    refuse_meta("unique", self)
    if self.dtype is D.bool:
        return _bool_template(self, return_inverse, return_counts)
    return _sorted_template(self, return_inverse, return_counts)


@declare("_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)",
         native="at::native::_unique2_cpu", source=UNIQUE, device_check=CHECK_WRAPPER)
def _unique2(self, sorted: bool = True, return_inverse: bool = False,
             return_counts: bool = False):
    # the CPU kernel always sorts: `sorted` is not read
    return _unique_any(self, return_inverse, return_counts)


@declare("_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)",
         native="at::native::_unique_cpu", source=UNIQUE, device_check=CHECK_WRAPPER)
def _unique(self, sorted: bool = True, return_inverse: bool = False):
    output, inverse, _ = _unique_any(self, return_inverse, False)
    return output, inverse


def _dim_template(self, dim: int, consecutive: bool):
    """_unique_dim_cpu_template up to its sort: the dim and zero-size checks, and the
    empty result when the chosen dim is empty."""
    sizes = self.view.sizes
    num_zero_dims = sum(1 for s in sizes if s == 0)
    dim = S.maybe_wrap_dim(dim, self.dim(), wrap_scalar=False)     # self.size(dim)
    if sizes[dim] == 0:
        check(num_zero_dims == 1, RuntimeError,
              "Number of zero sized dimensions is more than one, so unique cannot be applied ")
        output = _empty(self.dtype, self.device_type, sizes)
        return output, _empty(D.int64, self.device_type), _empty(D.int64, self.device_type)
    check(num_zero_dims == 0, RuntimeError,
          "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    name = "unique_consecutive" if consecutive else "unique"
    raise Refused(f"{name}(dim=...) on slices is not modelled: torch compares whole slices "
                  "through moveaxis, unbind, equal and stack, which tidx does not run yet")


@declare("unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)",
         native="at::native::unique_dim_cpu", source=UNIQUE, device_check=CHECK_WRAPPER)
def unique_dim(self, dim: int, sorted: bool = True, return_inverse: bool = False,
               return_counts: bool = False):
    refuse_meta("unique", self)
    return _dim_template(self, dim, False)


UNIQUE_CONSECUTIVE_CPU_TEMPLATE = step("unique_consecutive_cpu_template", Layer.KERNEL,
                                       source=UNIQUE)


@declare("unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)",
         native="at::native::unique_consecutive_cpu", source=UNIQUE, device_check=CHECK_WRAPPER)
def unique_consecutive(self, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None):
    refuse_meta("unique_consecutive", self)
    if not (dim is None or (dim == 0 and self.dim() == 1)):
        # unique_dim_consecutive_cpu, called directly (no operator of its own)
        return _dim_template(self, dim, True)
    inp = _contiguous(self)
    numel = inp.numel()
    output = _empty(self.dtype, self.device_type, (numel,))
    inverse = _empty(D.int64, self.device_type)
    counts = _empty(D.int64, self.device_type)
    if return_inverse:
        _resize(inverse, inp.view.sizes)
    if numel == 0:
        return output, inverse, counts
    # the mask of firsts, the kept values, the groups (cumsum), the starts
    check_temporary("unique_consecutive", numel, 1 + self.dtype.itemsize + 2 * 8)
    values = inp.array().reshape(-1)
    with np.errstate(invalid="ignore"):
        keep = np.ones(numel, dtype=bool)
        keep[1:] = values[1:] != values[:-1]      # value != last_value: NaN never equal
    out_size = int(np.count_nonzero(keep))
    with span(UNIQUE_CONSECUTIVE_CPU_TEMPLATE,
              note=Note("unique.consecutive", n=numel, count=out_size)) as s:
        if return_counts:
            _resize(counts, (numel,))
        output.array(write=True)[:out_size] = values[keep]
        if return_inverse:
            inverse.array(write=True)[...] = (np.cumsum(keep) - 1).reshape(inp.view.sizes)
        if return_counts:
            counts.array(write=True)[:out_size] = np.diff(np.append(np.nonzero(keep)[0], numel))
            _resize(counts, (out_size,))
        s.set(read=touched(inp), written=[first(output, out_size)] +
              [t for t in [touched(inverse) if inverse.numel() else None,
                           first(counts, out_size) if return_counts else None] if t])
    _resize(output, (out_size,))
    return output, inverse, counts
