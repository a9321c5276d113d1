"""Joining tensors: cat (and its aliases concat, concatenate), stack, and the *stack family.

Mirrors aten/src/ATen/native/TensorShape.cpp.  ``cat`` is a structured kernel: its meta
function (TORCH_PRECOMPUTE_META_FUNC(cat)) checks the inputs, promotes their dtypes and
allocates the output; ``cat_out_cpu`` then copies every input into its slice of the
output by one of three paths (a memcpy along dim 0, the serial kernel of
cpu/CatKernel.cpp, or a TensorIterator copy into ``result.narrow(dim, offset, size)``).
The result is always a new tensor: cat copies.  ``stack`` is ``cat`` of the inputs
unsqueezed (or ``cat`` then ``view``); hstack/vstack/dstack are ``cat`` after
``atleast_1d/2d/3d``; column_stack reshapes 0-d and 1-d inputs into columns first.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import memory_format as M
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.declarations import (CHECK_CALLEE, CHECK_WRAPPER, COMPOSITE, META_PYTHON,
                                          declare)
from engine.dispatch.aliases import alias
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.ops import overlap
from engine.ops.parallel import GRAIN_SIZE, num_threads
from engine.ops.pointwise import can_cast, resize_output
from engine.ops.touch import touched

SHAPE = "aten/src/ATen/native/TensorShape.cpp"
CAT_KERNEL = "aten/src/ATen/native/cpu/CatKernel.cpp"
META_REFUSED = ("{} with a meta tensor among its inputs runs PyTorch's Python decomposition "
                "(prims::cat), which tidx does not model")


def should_skip(t) -> bool:
    """cat_should_skip_tensor: the legacy 1-d empty tensor, size [0], which cat ignores
    whatever the other inputs' shapes (only its dtype still counts)."""
    return t.dim() == 1 and t.numel() == 0


def legacy_cat_wrap_dim(dim: int, tensors: Sequence) -> int:
    """at::legacy_cat_wrap_dim: wrap ``dim`` by the first input that is not a skipped
    size-[0] tensor; with none, ``dim`` is kept as given."""
    for t in tensors:
        if not should_skip(t):
            return S.maybe_wrap_dim(dim, t.dim())
    return dim


def check_cat_shape_except_dim(first, second, dim: int, index: int) -> None:
    """at::native::check_cat_shape_except_dim (TensorShape.h)."""
    check(first.dim() == second.dim(), RuntimeError,
          f"Tensors must have same number of dimensions: got {first.dim()} and {second.dim()}")
    for d in range(first.dim()):
        if d == dim:
            continue
        a, b = first.view.sizes[d], second.view.sizes[d]
        check(a == b, RuntimeError,
              f"Sizes of tensors must match except in dimension {dim}. Expected size {a} but "
              f"got size {b} for tensor number {index} in the list.")


def cat_output_memory_format(tensors: Sequence) -> str:
    """cat_compute_output_memory_format: contiguous as soon as one input suggests it or two
    inputs disagree; else the format they all suggest."""
    fmt = None
    for t in tensors:
        f = M.suggest_memory_format(t.view.sizes, t.view.strides)
        if f == M.CONTIGUOUS or (fmt is not None and fmt != f):
            return M.CONTIGUOUS
        fmt = f
    return fmt or M.CONTIGUOUS


def _along(dim: int, start: int, length: int) -> tuple:
    """The numpy index of ``[start, start + length)`` along ``dim``."""
    return (slice(None),) * dim + (slice(start, start + length),)


CAT_META_CHECK_THE_INPUTS = step("cat meta: check the inputs", Layer.KERNEL, source=SHAPE)
CAT_OUT_CPU_NOTHING_TO_COPY = step("cat_out_cpu: nothing to copy", Layer.KERNEL, source=SHAPE,
                                   note="cat.empty")
FAST_CAT_OUT_DIM0 = step("fastCatOutDim0", Layer.KERNEL, source=SHAPE, note="cat.fast_dim0")
CAT_SERIAL_KERNEL = step("cat_serial_kernel", Layer.KERNEL, source=CAT_KERNEL, note="cat.serial")
COPY_STUB_PER_INPUT = step("copy_stub per input", Layer.KERNEL, source=SHAPE)


@declare("cat(Tensor[] tensors, int dim=0) -> Tensor",
         native="at::native::cat_out_cpu (structured)", source=SHAPE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER, takes_complex=True)
def cat(tensors: Sequence, dim: int = 0):
    return _cat(tensors, dim, None)


@declare("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::cat_out_cpu (structured)", source=SHAPE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER, takes_complex=True)
def cat_out(tensors: Sequence, dim: int = 0, *, out):
    return _cat(tensors, dim, out)


def _resize_out(out, sizes: list[int], fmt: str) -> None:
    """The structured out= wrapper's resize_out: at::native::resize_output (its warning
    when the tensor held elements), and the meta's memory format only if it resized;
    an out= of the right shape keeps its strides, whatever they are."""
    if list(out.view.sizes) == sizes:
        return
    if fmt != M.CONTIGUOUS:
        raise Refused("torch.cat(..., out=) of inputs laid out channels_last into an out= "
                      "tensor of another shape is not modelled by tidx")
    resize_output(out, tuple(sizes), S.contiguous_strides(tuple(sizes)))


def _cat(tensors: Sequence, dim: int, result):
    """TORCH_PRECOMPUTE_META_FUNC(cat) then cat_out_cpu, into a new tensor or into the
    out= tensor ``result``."""
    tensors = list(tensors)
    _refuse_meta("torch.cat", tensors)
    with span(CAT_META_CHECK_THE_INPUTS,
              note=lambda: Note("cat.meta", n=len(tensors)), dim=dim) as s:
        for i, t in enumerate(tensors):
            check(t.dim() > 0, RuntimeError,
                  f"zero-dimensional tensor (at position {i}) cannot be concatenated")
        dim = legacy_cat_wrap_dim(dim, tensors)
        check(bool(tensors), ValueError, "torch.cat(): expected a non-empty list of Tensors")
        valid = next((i for i, t in enumerate(tensors) if not should_skip(t)), len(tensors))
        fmt = cat_output_memory_format(tensors)
        out_dtype = tensors[0].dtype
        for t in tensors[1:]:               # at::native::result_type: skipped ones count too
            out_dtype = D.promote_types(out_dtype, t.dtype)
        all_contiguous = all_same_dtype = all_same_layout = True
        sizes: list[int] = [0]
        if valid < len(tensors):
            first = tensors[valid]
            size_at_dim = 0
            for i, t in enumerate(tensors):
                all_same_dtype = all_same_dtype and t.dtype is out_dtype
                if should_skip(t):
                    all_contiguous = False
                    continue
                check_cat_shape_except_dim(first, t, dim, i)
                size_at_dim += t.view.sizes[dim]
                all_contiguous = all_contiguous and M.is_contiguous_as(
                    t.view.sizes, t.view.strides, fmt)
                all_same_layout = (all_same_layout and t.view.sizes == first.view.sizes
                                   and t.view.strides == first.view.strides)
            sizes = list(first.view.sizes)
            sizes[dim] = size_at_dim
        s.set(dim=dim, sizes=sizes, dtype=str(out_dtype), memory_format=fmt,
              skipped=[i for i, t in enumerate(tensors) if should_skip(t)])
    if fmt == M.CHANNELS_LAST_3D:
        raise Refused("torch.cat of inputs laid out channels_last_3d is not modelled by tidx")
    if result is None:
        out = memory.empty_generic(sizes, out_dtype, tensors[0].device_type,
                                   fmt if fmt == M.CHANNELS_LAST else None)
    else:
        # the meta's type promotion check, then set_output_raw_strided in the out=
        # tensor's own dtype: the kernel compares every input with that dtype
        check(can_cast(out_dtype, result.dtype), TypeError,
              f"torch.cat(): input types can't be cast to the desired output type "
              f"{D.cpp_name(result.dtype)}")
        all_same_dtype = all(t.dtype is result.dtype for t in tensors)
        # the fast paths' all_contiguous counts the out= tensor as it was given (a
        # non-contiguous one resized to contiguous still takes the copy paths)
        all_contiguous = all_contiguous and M.is_contiguous_as(
            result.view.sizes, result.view.strides, fmt)
        _resize_out(result, sizes, fmt)
        out = result
        if valid < len(tensors):
            # the meta's last check: the output may not overlap itself nor any input
            overlap.assert_no_internal_overlap(out)
            for t in tensors:
                overlap.assert_no_overlap(out, t)
    if out.numel() == 0:
        with span(CAT_OUT_CPU_NOTHING_TO_COPY):
            pass
        return out
    parts = [t for t in tensors if not should_skip(t)]
    serial = out.numel() < GRAIN_SIZE or num_threads() == 1
    if serial and all_contiguous and all_same_dtype and fmt == M.CONTIGUOUS and dim == 0:
        with span(FAST_CAT_OUT_DIM0, nbytes=[t.numel() * t.dtype.itemsize for t in tensors]) as k:
            _copy_parts(out, parts, dim)
            k.set(written=touched(out), read=[touched(t) for t in parts])
        return out
    if serial and all_contiguous and all_same_dtype and out.dtype.is_floating_point:
        with span(CAT_SERIAL_KERNEL, dim=dim) as k:
            _copy_parts(out, parts, dim)
            k.set(written=touched(out), read=[touched(t) for t in parts])
        return out
    if all_same_layout and all_same_dtype and M.is_contiguous_as(
            out.view.sizes, out.view.strides, fmt):
        length = tensors[valid].view.sizes[dim]
        window = aten.narrow.default(out, dim, 0, length)
        with span(COPY_STUB_PER_INPUT,
                  note=lambda: Note("cat.same_layout", stride=out.view.strides[dim],
                                    length=length), dim=dim) as k:
            _copy_parts(out, parts, dim)
            k.set(written=touched(out), window=window, read=[touched(t) for t in parts])
        return out
    offset = 0
    for t in parts:
        length = t.view.sizes[dim]
        window = aten.narrow.default(out, dim, offset, length)
        _copy_into(window, t)
        offset += length
    return out


def _copy_parts(out, parts: Sequence, dim: int) -> None:
    """Each input's values into its run of the output along ``dim``, in order."""
    dst = out.array(write=True)
    offset = 0
    for t in parts:
        length = t.view.sizes[dim]
        dst[_along(dim, offset, length)] = t.array()
        offset += length


COPY_STUB = step("copy_stub", Layer.KERNEL, source=SHAPE)


def _copy_into(window, t) -> None:
    """One TensorIterator copy of the general path: the input's values straight into the
    output's window, or -- when the dtypes differ -- into a temporary of the input's dtype
    (empty_like), which cast_outputs then copies into the window (copy_ casts)."""
    if t.dtype is window.dtype:
        with span(COPY_STUB,
                  note=lambda: Note("cat.slice", offset=window.view.offset), read=touched(t)) as k:
            window.array(write=True)[...] = t.array()
            k.set(written=touched(window))
        return
    temp = aten.empty_like.default(window, dtype=t.dtype, memory_format="contiguous_format")
    with span(COPY_STUB,
              note=lambda: Note("cat.cast", src=t.dtype, dst=window.dtype),
              read=touched(t)) as k:
        temp.array(write=True)[...] = t.array()
        k.set(written=touched(temp))
    aten.copy_.default(window, temp)


@declare("concat(Tensor[] tensors, int dim=0) -> Tensor", kind=COMPOSITE,
         native="at::native::concat", source=SHAPE,
         device_check=CHECK_CALLEE)
def concat(tensors: Sequence, dim: int = 0):
    """torch.concat: an alias, at::cat."""
    return aten.cat.default(tensors, dim)


@declare("concatenate(Tensor[] tensors, int dim=0) -> Tensor", kind=COMPOSITE,
         native="at::native::concatenate", source=SHAPE,
         device_check=CHECK_CALLEE)
def concatenate(tensors: Sequence, dim: int = 0):
    """torch.concatenate: an alias (NumPy's name), at::cat."""
    return aten.cat.default(tensors, dim)


def _refuse_meta(name: str, tensors: Sequence) -> None:
    if any(t.is_meta for t in tensors):
        raise Refused(META_REFUSED.format(name))


STACK_UNSQUEEZE_EACH_INPUT = step("stack: unsqueeze each input", Layer.KERNEL, source=SHAPE)
STACK_CAT_THEN_VIEW = step("stack: cat then view", Layer.KERNEL, source=SHAPE)


@declare("stack(Tensor[] tensors, int dim=0) -> Tensor",
         native="at::native::stack", source=SHAPE,
         meta=META_PYTHON, device_check=CHECK_CALLEE, takes_complex=True)
def stack(tensors: Sequence, dim: int = 0):
    return _stack(tensors, dim, None)


@declare("stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::stack_out", source=SHAPE,
         meta=META_PYTHON, device_check=CHECK_CALLEE, takes_complex=True)
def stack_out(tensors: Sequence, dim: int = 0, *, out):
    return _stack(tensors, dim, out)


def _check_stack_inputs(tensors: Sequence, entry: tuple[int, ...]) -> None:
    for i, t in enumerate(tensors[1:], 1):
        check(t.view.sizes == entry, RuntimeError,
              f"stack expects each tensor to be equal size, but got {S.fmt_sizes(entry)} "
              f"at entry 0 and {S.fmt_sizes(t.view.sizes)} at entry {i}")


def _stack(tensors: Sequence, dim: int, result):
    """stack (a new tensor) and stack_out (into ``result``): both join along an existing
    dim by one cat and a view where they can, else cat the unsqueezed inputs."""
    tensors = list(tensors)
    check(bool(tensors), RuntimeError, "stack expects a non-empty TensorList")
    _refuse_meta("torch.stack", tensors)
    ndim = tensors[0].dim()
    wrapped = S.maybe_wrap_dim(dim, ndim + 1)
    entry = tensors[0].view.sizes
    if wrapped < ndim:
        # check_stack_inputs, then one cat along an existing dim and a view that splits
        # it in two: dim ``wrapped`` of size n*k is (n, k) without moving a byte
        _check_stack_inputs(tensors, entry)
        sizes = list(entry)
        sizes.insert(wrapped, len(tensors))
        if result is None:
            with span(STACK_CAT_THEN_VIEW, note=lambda: Note("stack.view", dim=wrapped),
                      sizes=sizes):
                pass
            return aten.view.default(aten.cat.default(tensors, wrapped), sizes)
        # stack_out: the out= tensor resized to the stacked shape first, then cat into a
        # view of it joined along ``wrapped`` -- when its strides allow that view
        # (TensorShape.cpp: at::detail::computeStride)
        resize_output(result, tuple(sizes), S.contiguous_strides(tuple(sizes)))
        cat_sizes = list(entry)
        cat_sizes[wrapped] *= len(tensors)
        if S.compute_view_strides(result.view.sizes, result.view.strides,
                                  cat_sizes) is not None:
            with span(STACK_CAT_THEN_VIEW, note=lambda: Note("stack.view", dim=wrapped),
                      sizes=sizes):
                pass
            aten.cat.out(tensors, wrapped, out=aten.view.default(result, cat_sizes))
            return result
    # the last dim cannot be made by a view: get_stack_inputs unsqueezes each input
    with span(STACK_UNSQUEEZE_EACH_INPUT, note=lambda: Note("stack.unsqueeze", dim=wrapped)):
        pass
    inputs = [aten.unsqueeze.default(tensors[0], dim)]
    for i, t in enumerate(tensors[1:], 1):
        check(t.view.sizes == entry, RuntimeError,
              f"stack expects each tensor to be equal size, but got {S.fmt_sizes(entry)} "
              f"at entry 0 and {S.fmt_sizes(t.view.sizes)} at entry {i}")
        inputs.append(aten.unsqueeze.default(t, dim))
    if result is None:
        return aten.cat.default(inputs, dim)
    return aten.cat.out(inputs, dim, out=result)


# -- atleast_1d/2d/3d: the shapes hstack, vstack and dstack join ----------------------------
def _atleast(self, n: int):
    """at::native::atleast_{1,2,3}d of one tensor."""
    d = self.dim()
    if d == 0:
        return aten.reshape.default(self, (1,) * n)
    if n == 2 and d == 1:
        return aten.unsqueeze.default(self, 0)
    if n == 3 and d == 1:
        return aten.unsqueeze.default(aten.unsqueeze.default(self, 0), -1)
    if n == 3 and d == 2:
        return aten.unsqueeze.default(self, -1)
    return self


#: atleast_1d/2d/3d's step (``atleast_2d``)
ATLEAST = step("atleast_<n>d", Layer.KERNEL, source=SHAPE)


def _atleast_note(n: int):
    return span(ATLEAST, called=f"atleast_{n}d", note=Note("stack.atleast", n=n))


@declare("atleast_1d(Tensor self) -> Tensor", kind=COMPOSITE, native="at::native::atleast_1d",
         source=SHAPE)
def atleast_1d(self):
    return _atleast(self, 1)


@declare("atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kind=COMPOSITE,
         native="at::native::atleast_1d", source=SHAPE)
def atleast_1d_seq(tensors: Sequence):
    with _atleast_note(1):
        return tuple(_atleast(t, 1) for t in tensors)


@declare("atleast_2d(Tensor self) -> Tensor", kind=COMPOSITE, native="at::native::atleast_2d",
         source=SHAPE)
def atleast_2d(self):
    return _atleast(self, 2)


@declare("atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kind=COMPOSITE,
         native="at::native::atleast_2d", source=SHAPE)
def atleast_2d_seq(tensors: Sequence):
    with _atleast_note(2):
        return tuple(_atleast(t, 2) for t in tensors)


@declare("atleast_3d(Tensor self) -> Tensor", kind=COMPOSITE, native="at::native::atleast_3d",
         source=SHAPE)
def atleast_3d(self):
    return _atleast(self, 3)


@declare("atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kind=COMPOSITE,
         native="at::native::atleast_3d", source=SHAPE)
def atleast_3d_seq(tensors: Sequence):
    with _atleast_note(3):
        return tuple(_atleast(t, 3) for t in tensors)


def _nonempty(name: str, tensors: Sequence) -> list:
    tensors = list(tensors)
    check(bool(tensors), RuntimeError, f"{name} expects a non-empty TensorList")
    _refuse_meta(f"torch.{name}", tensors)
    return tensors


def _cat_into(tensors: list, dim: int, out):
    """at::cat, or at::cat_out into the out= tensor of a composite's out= overload."""
    return aten.cat.default(tensors, dim) if out is None else aten.cat.out(tensors, dim, out=out)


def _hstack(tensors: Sequence, out):
    rep = aten.atleast_1d.Sequence(_nonempty("hstack", tensors))
    # 1-d inputs join end to end (dim 0); anything wider joins along its columns (dim 1)
    return _cat_into(rep, 0 if rep[0].dim() == 1 else 1, out)


@declare("hstack(Tensor[] tensors) -> Tensor", kind=COMPOSITE, native="at::native::hstack",
         source=SHAPE)
def hstack(tensors: Sequence):
    return _hstack(tensors, None)


@declare("hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::hstack_out", source=SHAPE)
def hstack_out(tensors: Sequence, *, out):
    return _hstack(tensors, out)


@declare("vstack(Tensor[] tensors) -> Tensor", kind=COMPOSITE, native="at::native::vstack",
         source=SHAPE)
def vstack(tensors: Sequence):
    return _cat_into(aten.atleast_2d.Sequence(_nonempty("vstack", tensors)), 0, None)


@declare("vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::vstack_out", source=SHAPE)
def vstack_out(tensors: Sequence, *, out):
    return _cat_into(aten.atleast_2d.Sequence(_nonempty("vstack", tensors)), 0, out)


@declare("dstack(Tensor[] tensors) -> Tensor", kind=COMPOSITE, native="at::native::dstack",
         source=SHAPE)
def dstack(tensors: Sequence):
    return _cat_into(aten.atleast_3d.Sequence(_nonempty("dstack", tensors)), 2, None)


@declare("dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kind=COMPOSITE,
         native="at::native::dstack_out", source=SHAPE)
def dstack_out(tensors: Sequence, *, out):
    return _cat_into(aten.atleast_3d.Sequence(_nonempty("dstack", tensors)), 2, out)


def _columns(tensors: Sequence) -> list:
    tensors = _nonempty("column_stack", tensors)
    # 0-d and 1-d inputs become columns (n, 1); the rest join as they are
    return [aten.reshape.default(t, (t.numel(), 1)) if t.dim() <= 1 else t for t in tensors]


@declare("column_stack(Tensor[] tensors) -> Tensor", kind=COMPOSITE,
         native="at::native::column_stack", source=SHAPE)
def column_stack(tensors: Sequence):
    return aten.hstack.default(_columns(tensors))


@declare("column_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::column_stack_out", source=SHAPE)
def column_stack_out(tensors: Sequence, *, out):
    return aten.hstack.out(_columns(tensors), out=out)


# concat_out and concatenate_out: at::cat_out (TensorShape.cpp)
alias("concat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", of="cat",
      source=SHAPE)
alias("concatenate.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)",
      of="cat", source=SHAPE)


# -- row_stack: an alias of vstack (TensorShape.cpp: ``return at::vstack(tensors)``) ---------
alias("row_stack(Tensor[] tensors) -> Tensor", of="vstack", source=SHAPE)
alias("row_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", of="vstack",
      source=SHAPE)
