"""Writes along one dim picked by an index vector: index_add, index_copy, index_fill,
index_reduce.

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (``index_func_meta_impl``,
``TORCH_PRECOMPUTE_META_FUNC(index_copy)``, ``index_add_cpu_out``, ``index_copy_out``,
``index_fill_``, ``index_reduce_func_impl``) and the CPU kernels of
native/cpu/IndexKernel.cpp.

index_add takes one of three roads, as the C++ does: for a dim that is the first or the
last one, a Long index and alpha 1 it becomes ``scatter_add_`` with the index expanded
(stride 0) over the other dims; otherwise, for a tensor of two dims or more, one
``add_`` per index entry on the slices ``self.select(dim, index[i])`` and
``source.select(dim, i)``; a tensor of at most one dim is a plain serial loop.  Every
road adds in the order of the index, so float sums round as torch's do (add_ with an
alpha fuses the multiply into the add on AVX2/AVX512: emulated exactly).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.declarations import CHECK_WRAPPER, INPLACE, META_PYTHON, OUT, declare, \
    structured
from engine.dispatch.aten import aten
from engine.core.dispatch_stub import DispatchStub
from engine.memory import empty as memory
from engine.ops import overlap
from engine.ops.advanced import _reached
from engine.ops.parallel import GRAIN_SIZE, num_threads
from engine.ops.pointwise import resize_output
from engine.ops.scalar import to_dtype_scalar
from engine.ops.touch import along, first, touched
from engine.ops.touch import at as touch_at
from engine.memory.allocator import check_temporary
from engine.rng.fp import fma32, fma64

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
KERNEL = "aten/src/ATen/native/cpu/IndexKernel.cpp"


def _size(t, dim: int) -> int:
    """Tensor::size(dim), which a message may evaluate on a 0-dim tensor and fail (c10's
    TensorImpl::size says it with a capital D, unlike maybe_wrap_dim's)."""
    if t.dim() == 0:
        raise torch_error(IndexError, f"Dimension specified as {dim} but tensor has no "
                                      "dimensions")
    return t.view.sizes[S.maybe_wrap_dim(dim, t.dim())]


def refuse_meta(what: str, *tensors, python: bool = True) -> None:
    """On the meta device torch runs these operators' Python meta registrations
    (torch/_meta_registrations.py, torch/_decomp), with their own checks and messages,
    or, for an out= overload torch registers none for (``python=False``), the structured
    C++ meta function alone: tidx models the C++ CPU path only."""
    if any(t.is_meta for t in tensors if hasattr(t, "is_meta")):
        runs = ("torch's Python meta registration" if python else
                "only torch's C++ meta function (set_output's resize_)")
        raise Refused(f"{what} on the meta device runs {runs}, which tidx does not model; "
                      "on the CPU it is modelled")


def _contiguous(index):
    """TensorBase::contiguous(): an operator only for a strided index."""
    return index if index.is_contiguous() else aten.contiguous.default(index)


def _index_values(index) -> np.ndarray:
    # the index in int64 and its bounds masks (an expanded index is a real copy here)
    check_temporary("the index vector", index.numel(), 8 + 8 + 3)
    return index.array().reshape(-1).astype(np.int64)


def _check_source(what: str, source) -> None:
    """The source slices a kernel reads are copied (scaled, or picked in order) before
    they are written: as many bytes as the source, twice, and an int64 per element."""
    check_temporary(what, source.numel(), 8 + 2 * source.dtype.itemsize)


# -- index_add, index_reduce: index_func_meta_impl ------------------------------------------

def func_meta(func: str, self, dim: int, index, source, inplace: bool, out=None):
    """index_func_meta_impl: the checks, then the output (self, the out= tensor, or a
    fresh contiguous tensor) and, for a given output, the overlap checks."""
    numel = index.numel()
    check(index.dim() <= 1, IndexError,
          f"{func}_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
          f"{D.cpp_name(index.dtype)} and size: {S.fmt_sizes(index.view.sizes)}")
    check(index.dtype in (D.int64, D.int32), RuntimeError,
          f"{func}_(): Expected dtype int32/int64 for index but got: {D.cpp_name(index.dtype)}")
    check(self.dtype is source.dtype, RuntimeError,
          f"{func}_(): self ({D.cpp_name(self.dtype)}) and source ({D.cpp_name(source.dtype)}) "
          "must have the same scalar type")
    check(dim == 0 or dim < source.dim(), RuntimeError,
          f"{func}_(): Indexing dim {dim} is out of bounds of the source tensor with dim "
          f"{source.dim()}")
    if numel != (1 if source.dim() == 0 else source.view.sizes[dim]):
        raise torch_error(RuntimeError,
                          f"{func}_(): Number of indices ({numel}) should be equal to "
                          f"source.size(dim): ({_size(source, dim)}), for dim: {dim}")
    self_sizes, source_sizes = list(self.view.sizes), list(source.view.sizes)
    if source.dim() != 0 and self.dim() != 0:
        del self_sizes[dim], source_sizes[dim]
    check(self_sizes == source_sizes, RuntimeError,
          "source tensor shape must match self tensor shape, excluding the specified "
          f"dimension. Got self.shape = {S.fmt_sizes(self.view.sizes)} source.shape = "
          f"{S.fmt_sizes(source.view.sizes)}")
    return structured_output(f"{func}_", self, index, source, inplace, out)


SET_OUTPUT_RAW_STRIDED = step("set_output_raw_strided", Layer.MEMORY, source=ADV,
                              note="index_ops.set_output")


def structured_output(op: str, self, index, source, inplace: bool, out=None):
    """A structured kernel's output: self for the in-place form, the out= tensor set up
    by :func:`set_out` (each after the overlap checks against what it reads), else
    set_output_raw_strided's fresh tensor of self's shape."""
    if out is not None:
        set_out(out, self.view.sizes, self.dtype, self.device_type)
        overlap.check(op.rstrip("_"), out, full=[index, source])     # (index_add, out=)
        return out
    if inplace:
        overlap.check(op, self, full=[index, source])
        return self
    with span(SET_OUTPUT_RAW_STRIDED) as s:
        result = memory.empty_generic(self.view.sizes, self.dtype, self.device_type)
        s.set_result(result)
    return result


def set_out(out, sizes: tuple[int, ...], dtype: D.dtype, device: str) -> None:
    """set_output_raw_strided(0, sizes, {}, options) in a structured out= wrapper
    (torchgen's resize_out): the out= tensor's dtype and device must be the result's, then
    at::native::resize_output (its warning when it held elements); no strides asked, so
    an out= tensor of the right shape keeps its own."""
    check(out.dtype is dtype, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(dtype)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    # (a CUDA tensor on either side meets the CUDA wrapper's device check first)
    check(out.device_type == device, RuntimeError,
          f"Expected out tensor to have device {device}, but got {out.device_type} instead")
    resize_output(out, tuple(sizes), S.contiguous_strides(tuple(sizes)))


def _alpha_equals_one(alpha) -> bool:
    """Scalar::equal(1.0): a bool Scalar never equals a number."""
    return not isinstance(alpha, bool) and alpha == 1


def _scaled(values: np.ndarray, alpha, dtype: D.dtype) -> np.ndarray:
    """``source * alpha`` in the tensor's dtype, rounded, as the serial loop of
    index_add_cpu_ computes it (``*self_ip += source * alpha``: two roundings)."""
    a = to_dtype_scalar(alpha, dtype)
    if dtype is D.bool:
        return values & bool(a)
    if not dtype.is_floating_point:
        return (values.astype(np.int64) * np.int64(a)).astype(dtype.np)
    return values * np.asarray(a, dtype=dtype.np)


#: add_'s stub (the ufunc add kernel, BinaryOpsKernel.cpp): no AVX512 build in torch 2.13's
#: wheel, so an AVX512 CPU fuses as the AVX2 build does
ADD_STUB = DispatchStub("add_stub", avx512=False,
                        source="aten/src/ATen/native/cpu/BinaryOpsKernel.cpp")

def _fused_add_slices(target: np.ndarray, lead: tuple, idx: np.ndarray, src: np.ndarray,
                      alpha, dtype: D.dtype) -> None:
    """add_'s kernel with alpha on float slices: ``fmadd(source, alpha, self)`` in the
    AVX2/AVX512 builds (one rounding), ``self + alpha * source`` in the DEFAULT build;
    one index entry after another."""
    a = to_dtype_scalar(alpha, dtype)
    fused = a != 1 and ADD_STUB.call(dtype, dtype.itemsize).fma
    if not fused:
        _add_in_order(target, lead + (idx,), _scaled(src, alpha, dtype), dtype)
        return
    # one correctly rounded fma per element (engine/rng/fp.py), float32 or float64
    for i, j in enumerate(idx):
        at = lead + (int(j),)
        target[at] = fma32(np.float32(a), src[lead + (i,)], target[at]) \
            if dtype is D.float32 else fma64(float(a), src[lead + (i,)], target[at])


def _add_in_order(target: np.ndarray, where: tuple, values: np.ndarray, dtype: D.dtype) -> None:
    """``target[where[i]] += values[i]`` one index entry after another (np.add.at is
    unbuffered and serial), or for bool a logical or."""
    if dtype is D.bool:
        np.logical_or.at(target, where, values)
    else:
        np.add.at(target, where, values)


INDEX_ADD_CPU_SERIAL_LOOP = step("index_add_cpu_: serial loop", Layer.KERNEL, source=ADV,
                                 note="index_add.serial")
INDEX_ADD_CPU_ADD_PER_SLICE = step("index_add_cpu_: add_ per slice", Layer.KERNEL, source=ADV)
INDEX_ADD_SCATTER_ADD_ROAD = step("index_add: scatter_add_ road", Layer.KERNEL, source=ADV)


def index_add_impl(self, dim: int, index, source, alpha, result) -> None:
    """index_add_cpu_out."""
    if result is not self:
        aten.copy_.default(result, self)
    numel = index.numel()
    index_contig = _contiguous(index)
    if result.dim() > 1:
        if numel == 0 or self.numel() == 0:
            return
        dim = S.maybe_wrap_dim(dim, self.dim())
        if (dim == 0 or dim == self.dim() - 1) and _alpha_equals_one(alpha) \
                and index_contig.dtype is D.int64:
            # check_sizes: the index expanded over every other dim (stride 0)
            ep_sizes = list(result.view.sizes)
            ep_sizes[dim] = numel
            ep_strides = [0] * result.dim()
            ep_strides[dim] = 1
            with span(INDEX_ADD_SCATTER_ADD_ROAD,
                      note=Note("index_add.scatter_add", dim=dim), sizes=ep_sizes,
                      strides=ep_strides):
                ep_index = aten.as_strided.default(index_contig, ep_sizes, ep_strides, None)
            aten.scatter_add_.default(result, dim, ep_index, source)
            return
        aten.select.int(result, dim, 0)
        aten.select.int(source, dim, 0)
        with span(INDEX_ADD_CPU_ADD_PER_SLICE,
                  note=Note("index_add.slices", dim=dim), dim=dim, alpha=alpha) as s:
            if not result.is_meta:
                _check_source("index_add", source)
                idx = _index_values(index_contig)
                size = result.view.sizes[dim]
                bad = (idx < 0) | (idx >= size)
                stop = int(np.argmax(bad)) if bad.any() else numel
                lead = (slice(None),) * dim
                src = source.array()[lead + (slice(0, stop),)]
                if result.dtype.is_floating_point:
                    _fused_add_slices(result.array(write=True), lead, idx[:stop], src, alpha,
                                      result.dtype)
                else:
                    _add_in_order(result.array(write=True), lead + (idx[:stop],),
                                  _scaled(src, alpha, result.dtype), result.dtype)
                s.set(**_slice_marks(result, source, dim, idx[:stop], index_contig))
                if stop < numel:
                    raise torch_error(IndexError, "index out of range in self")
            s.set_result(result)
        return
    check(source.dim() <= 1, RuntimeError,
          f"source.dim() ({source.dim()}) must one or zero for given self.dim() ({self.dim()})")
    with span(INDEX_ADD_CPU_SERIAL_LOOP, alpha=alpha) as s:
        if not result.is_meta and numel:
            _check_source("index_add", source)
            idx = _index_values(index_contig)
            n = result.numel()
            bad = (idx < 0) | (idx >= n)
            stop = int(np.argmax(bad)) if bad.any() else numel
            src = source.array().reshape(-1)[:stop]
            _add_in_order(result.array(write=True).reshape(-1), (idx[:stop],),
                          _scaled(src, alpha, result.dtype), result.dtype)
            s.set(**_slice_marks(result, source, 0, idx[:stop], index_contig))
            if stop < numel:
                raise torch_error(IndexError, "index out of range in self")
        s.set_result(result)


@structured("index_add.out(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1, "
            "Tensor(a!) out) -> Tensor(a!)",
            native="at::native::index_add_cpu_out (structured)",
            out_native="at::native::index_add_cpu_out (structured)", source=ADV,
            meta=META_PYTHON, device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER)
def index_add(form: str, self, dim: int, index, source, *, alpha=1, out):
    """TORCH_PRECOMPUTE_META_FUNC(index_add) (index_func_meta_impl), then
    index_add_cpu_out into the output."""
    refuse_meta("index_add_" if form == INPLACE else "index_add", self, index, source)
    dim = S.maybe_wrap_dim(dim, self.dim())
    result = func_meta("index_add", self, dim, index, source, inplace=form == INPLACE,
                       out=out if form == OUT else None)
    if not self.is_meta:
        index_add_impl(self, dim, index, source, alpha, result)
    return result


# -- index_copy -----------------------------------------------------------------------------

def _index_copy_meta(self, dim: int, index, source, inplace: bool, out=None):
    """TORCH_PRECOMPUTE_META_FUNC(index_copy): the output first, then the checks."""
    dim = S.maybe_wrap_dim(dim, self.dim())
    result = structured_output("index_copy_", self, index, source, inplace, out)
    check(index.dim() < 2, IndexError,
          f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    n = index.numel()
    if source.dim() == 0 and n != 1:
        raise torch_error(IndexError, "index_copy_(): When source is scalar, index should have "
                                      f"one element (got {n})")
    if source.dim() != self.dim() and source.dim() != 0 and self.dim() != 0:
        raise torch_error(IndexError,
                          "index_copy_(): When source and destination are not scalars, their "
                          f"dimensionality must match. Source dimensionality ({source.dim()}), "
                          f"destination dimensionality ({self.dim()})")
    check(index.dtype is D.int64, RuntimeError,
          f"index_copy_(): Expected a long tensor for index, but got {D.cpp_name(index.dtype)}")
    check(self.dtype is source.dtype, RuntimeError,
          "index_copy_(): self and source expected to have the same dtype, but got (self) "
          f"{D.cpp_name(self.dtype)} and (source) {D.cpp_name(source.dtype)}")
    self_sliced = [n for d, n in enumerate(self.view.sizes) if d != dim]
    source_sliced = [n for d, n in enumerate(source.view.sizes) if d != dim]
    if self_sliced != source_sliced:
        raise torch_error(RuntimeError,
                          "index_copy_(): Source/destination tensor must have same slice "
                          f"shapes. Destination slice shape: {_fmt_list(self_sliced)} at "
                          f"dimension {dim} and source slice shape: {_fmt_list(source_sliced)} "
                          "at dimension 0.")
    if source.dim() != 0 and n != source.view.sizes[dim]:
        raise torch_error(IndexError,
                          f"index_copy_(): Number of indices ({n}) should be equal to "
                          f"source.size(dim) ({source.view.sizes[dim]})")
    return dim, result


def _fmt_list(sizes: list[int]) -> str:
    """operator<<(std::vector<int64_t>): the elements and spaces, no brackets."""
    return " ".join(str(n) for n in sizes)


def _restride_for_index(t, index, dim: int):
    """The TensorIterator operands index_copy_out and index_fill_ build: ``index`` seen
    with size index.numel() along dim and stride 0 elsewhere, and ``t`` with that size
    along dim and stride 0 there, so the kernel adds ``index[i] * stride(dim)`` itself."""
    n = index.numel()
    index_sizes = [1] * t.dim()
    index_strides = [0] * t.dim()
    index_sizes[dim] = n
    index_strides[dim] = index.view.strides[0] if index.dim() > 0 else 1
    aten.as_strided.default(index, index_sizes, index_strides, None)
    sizes, strides = list(t.view.sizes), list(t.view.strides)
    sizes[dim], strides[dim] = n, 0
    return aten.as_strided.default(t, sizes, strides, None)


def _last_writer(idx: np.ndarray) -> np.ndarray:
    """For duplicate indices, the entry written last (the serial kernel's winner)."""
    order = np.arange(idx.size)
    _, last = np.unique(idx[::-1], return_index=True)
    keep = np.zeros(idx.size, dtype=bool)
    keep[order[::-1][last]] = True
    return keep


def _refuse_parallel_duplicates(what: str, idx: np.ndarray, elements: int) -> None:
    """at::parallel_for splits a large iteration across threads: which of two entries
    with one index writes last is then a race."""
    if elements >= GRAIN_SIZE and num_threads() > 1 and np.unique(idx).size < idx.size:
        raise Refused(f"{what} with repeated indices over {elements} elements runs on "
                      "several threads, and which write lands last is not deterministic")


def _written_before_failing(restrided_shape: tuple, dim: int, bad: np.ndarray) -> tuple:
    """The positions the TensorIterator loop wrote before an out-of-range index stopped
    it: it walks the restrided shape (index entries along dim) in row-major order and
    checks each element as it goes; on several threads each chunk stops at its own
    first bad element.  Returns their coordinates, row-major."""
    shape = [1] * len(restrided_shape)
    shape[dim] = bad.size
    bad_at = np.broadcast_to(bad.reshape(shape), restrided_shape).reshape(-1)
    n = bad_at.size
    reached = _reached(bad_at, serial=n < GRAIN_SIZE or num_threads() == 1) & ~bad_at
    return np.unravel_index(np.flatnonzero(reached), restrided_shape)


INDEX_COPY_KERNEL = step("index_copy_kernel", Layer.KERNEL, source=KERNEL)


def index_copy_impl(self, dim: int, index, source, result) -> None:
    """index_copy_out."""
    if result is not self:
        aten.copy_.default(result, self)
    result_nz = aten.unsqueeze.default(result, 0) if result.dim() == 0 else result
    source_nz = aten.unsqueeze.default(source, 0) if source.dim() == 0 else source
    restrided = _restride_for_index(result_nz, index, dim)
    size = result_nz.view.sizes[dim]
    with span(INDEX_COPY_KERNEL,
              note=Note("index_copy.kernel", dim=dim, stride=result_nz.view.strides[dim]),
              dim=dim, self_dim_size=size, self_dim_stride=result_nz.view.strides[dim]) as s:
        if not result.is_meta and restrided.numel():
            _check_source("index_copy", source_nz)
            idx = _index_values(index)
            bad = (idx < 0) | (idx >= size)
            if bad.any():
                at = _written_before_failing(restrided.view.sizes, dim, bad)
                target = list(at)
                target[dim] = idx[at[dim]]
                result_nz.array(write=True)[tuple(target)] = source_nz.array()[at]
                # the elements it copied before the bad index stopped it
                s.set(written=lambda: touch_at(result_nz, tuple(target)),
                      read=lambda: touch_at(source_nz, tuple(at)), read_index=touched(index))
                first = int(idx[bad][0])
                raise torch_error(IndexError, f"index_copy_(): index {first} is out of bounds "
                                              f"for dimension {dim} with size {size}")
            _refuse_parallel_duplicates("index_copy", idx, restrided.numel())
            keep = _last_writer(idx)
            lead = (slice(None),) * dim
            target = result_nz.array(write=True)
            target[lead + (idx[keep],)] = source_nz.array()[lead + (np.flatnonzero(keep),)]
            # every slice of source is copied (a repeated index: the last one stays), into
            # the slices of result along dim the index names
            s.set(written=lambda: along(result_nz, dim, idx), read=touched(source_nz),
                  read_index=touched(index))
        s.set_result(result)


@structured("index_copy.out(Tensor self, int dim, Tensor index, Tensor source, *, "
            "Tensor(a!) out) -> Tensor(a!)",
            native="at::native::index_copy_out (structured)",
            out_native="at::native::index_copy_out (structured)", source=ADV,
            meta=META_PYTHON, device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER)
def index_copy(form: str, self, dim: int, index, source, *, out):
    refuse_meta("index_copy_" if form == INPLACE else "index_copy", self, index, source)
    dim, result = _index_copy_meta(self, dim, index, source, inplace=form == INPLACE,
                                   out=out if form == OUT else None)
    if not self.is_meta:
        index_copy_impl(self, dim, index, source, result)
    return result


# -- index_fill -----------------------------------------------------------------------------

INDEX_FILL_KERNEL = step("index_fill_kernel", Layer.KERNEL, source=KERNEL)


@declare("index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> "
         "Tensor(a!)", variants="method", native="at::native::index_fill_",
         source=ADV,
         meta=META_PYTHON)
def index_fill_(self, dim: int, index, value):
    refuse_meta("index_fill_", self, index)
    check(index.dtype is D.int64, IndexError, "index_fill_(): Expected dtype int64 for index.")
    overlap.check("index_fill_", self, full=[index], internal=False)
    overlap.warn_if_expanded(self, "index_fill_", "tensor[mask] = scalar")
    check(not isinstance(value, complex), RuntimeError,
          "index_fill_(): Converting complex Scalar to non-complex type is not supported")
    self_nz = aten.unsqueeze.default(self, -1) if self.dim() == 0 else self
    dim = S.maybe_wrap_dim(dim, self_nz.dim())
    check(index.dim() <= 1, RuntimeError, "Index has to be a vector/scalar")
    restrided = _restride_for_index(self_nz, index, dim)
    size = self_nz.view.sizes[dim]
    with span(INDEX_FILL_KERNEL,
              note=Note("index_fill.kernel", dim=dim, stride=self_nz.view.strides[dim]),
              dim=dim, value=value, self_dim_size=size,
              self_dim_stride=self_nz.view.strides[dim]) as s:
        # index_fill_kernel converts the value before it looks at the iteration
        scalar = to_dtype_scalar(value, self.dtype)
        if restrided.numel():
            if not self.is_meta:
                idx = _index_values(index)
                bad = (idx < -size) | (idx >= size)
                if bad.any():
                    at = _written_before_failing(restrided.view.sizes, dim, bad)
                    target = list(at)
                    target[dim] = idx[at[dim]] % size if size else idx[at[dim]]
                    self_nz.array(write=True)[tuple(target)] = scalar
                    s.set(written=lambda: touch_at(self_nz, tuple(target)),
                          read_index=touched(index))
                    first = int(idx[bad][0])
                    raise torch_error(IndexError, f"index {first} is out of bounds for "
                                                  f"dimension {dim} with size {size}")
                idx = np.where(idx < 0, idx + size, idx)
                self_nz.array(write=True)[(slice(None),) * dim + (idx,)] = scalar
                # the slices along dim the index names; self is not read
                s.set(written=lambda: along(self_nz, dim, idx), read_index=touched(index))
        s.set_result(self)
    return self


@declare("index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> "
         "Tensor(a!)", variants="method", native="at::native::index_fill_",
         source=ADV,
         meta=META_PYTHON)
def index_fill_tensor_(self, dim: int, index, value):
    refuse_meta("index_fill_", self, index, value)
    check(value.dim() == 0, RuntimeError,
          "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
          f"{value.dim()} dimension(s).")
    return aten.index_fill_.int_Scalar(self, dim, index, aten.item.default(value))


@declare("index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
         variants="function, method", native="at::native::index_fill",
         source=ADV,
         meta=META_PYTHON)
def index_fill(self, dim: int, index, value):
    refuse_meta("index_fill", self, index)
    out = aten.clone.default(self, memory_format="preserve_format")
    return aten.index_fill_.int_Scalar(out, dim, index, value)


@declare("index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor",
         variants="function, method", native="at::native::index_fill",
         source=ADV,
         meta=META_PYTHON)
def index_fill_tensor(self, dim: int, index, value):
    refuse_meta("index_fill", self, index, value)
    out = aten.clone.default(self, memory_format="preserve_format")
    return aten.index_fill_.int_Tensor(out, dim, index, value)


def _slice_marks(result, source, dim: int, idx: np.ndarray, index) -> dict:
    """What index_add / index_reduce's loops touch: the slices of result along dim the
    index names, read and written (they combine into them), the first len(idx) slices of
    source (one per index entry handled), and the index."""
    return {"written": lambda: along(result, dim, idx),
            "read": lambda: [along(result, dim, idx),
                             along(source, dim, np.arange(idx.size))],
            "read_index": first(index, idx.size)}
