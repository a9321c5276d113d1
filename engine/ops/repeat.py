"""repeat_interleave with a number of repeats (aten/src/ATen/native/Repeat.cpp's
CompositeImplicitAutograd overload).

Each element is repeated ``repeats`` times in place along ``dim``: a new dim of size 1 is
put after ``dim`` (unsqueeze), expanded to ``repeats`` with stride 0 (no copy yet), and
the contiguous clone writes the repeats out; flattening ``dim`` with the new dim gives the
result.  Without ``dim`` the input is flattened first.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import view as S
from engine.core import dtypes as D
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory.allocator import check_temporary
from engine.ops import join
from engine.ops.touch import touched

REPEAT = "aten/src/ATen/native/Repeat.cpp"


REPEAT_INTERLEAVE_REPEAT_EACH_ELEMENT = step("repeat_interleave: repeat each element",
                                             Layer.KERNEL, source=REPEAT)


@declare("repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor",
         variants="function, method", kind=COMPOSITE,
         native="at::native::repeat_interleave_symint", source=REPEAT)
def repeat_interleave(self, repeats: int, dim: int | None = None, *,
                      output_size: int | None = None):
    inp = self if dim is not None else aten.flatten.using_ints(self, 0, -1)
    d = S.maybe_wrap_dim(0 if dim is None else dim, self.dim())
    check(repeats >= 0, RuntimeError, "Repeats must be non-negative")
    inp = aten.unsqueeze.default(inp, d + 1)
    shape = list(inp.view.sizes)
    shape[d + 1] = repeats
    with span(REPEAT_INTERLEAVE_REPEAT_EACH_ELEMENT,
              note=Note("repeat.interleave", dim=d, repeats=repeats), shape=shape):
        pass
    inp = aten.expand.default(inp, shape)
    if output_size is not None:
        expected = repeats * shape[d]
        check(output_size == expected, RuntimeError,
              f"repeat_interleave: Invalid output_size, expected {expected} but got {output_size}")
    out = aten.clone.default(inp, memory_format="contiguous_format")
    return aten.flatten.using_ints(out, d, d + 1)


# -- repeat_interleave with a tensor of repeats (Repeat.cpp / Repeat.h) ------------------------
REPEAT_INTERLEAVE_COMPUTE_CPU = step("repeat_interleave: compute_cpu", Layer.KERNEL, source=REPEAT)


@declare("repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor",
         native="at::native::repeat_interleave_cpu", source=REPEAT, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("repeat_interleave_cpu", "AT_DISPATCH_INDEX_TYPES"))
def repeat_interleave_tensor(repeats, *, output_size: int | None = None):
    """The index each output position copies: repeats [1, 2, 0] give [0, 1, 1].
    repeat_interleave_common: cumsum the repeats, the total is its last entry (or
    output_size), then compute_cpu fills cumsum[i] - repeats[i] .. cumsum[i] with i."""
    dispatched(repeats.dtype)
    check(repeats.dim() == 1, RuntimeError, "repeat_interleave only accept 1D vector as repeat")
    if repeats.view.sizes[0] == 0:
        return aten.empty_like.default(repeats, memory_format="contiguous_format")
    repeats_ = repeats if repeats.is_contiguous() else aten.contiguous.default(repeats)
    cumsum = aten.cumsum.default(repeats, 0)
    if output_size is not None:
        total = output_size
    else:
        total = aten.item.default(aten.select.int(cumsum, 0, -1))
        negative = aten.item.default(aten.all.default(aten.ge.Scalar(repeats, 0)))
        check(bool(negative), RuntimeError, "repeats can not be negative")
    result = aten.empty.memory_format([total], dtype=repeats.dtype,
                                      device=repeats.device_type)
    with span(REPEAT_INTERLEAVE_COMPUTE_CPU,
              note=Note("repeat.interleave_index", total=total), total=total) as s:
        if not result.is_meta:
            # the repeats and their sums in int64, np.repeat's result before its copy
            check_temporary("repeat_interleave", total + 2 * repeats.numel(), 8)
            counts = repeats_.array().astype(np.int64)
            ends = cumsum.array().astype(np.int64)
            check(total == int(ends[-1]), RuntimeError,
                  "allocated size does not match required size")
            if output_size is not None and (counts < 0).any():
                # compute_cpu checks each repeat only as its (parallel) loop reaches it,
                # after writing the ones before it: with a cumsum that fits output_size a
                # negative repeat lets torch write past the result (undefined, it can abort)
                raise Refused("repeat_interleave with output_size= and a negative repeat "
                              "writes out of bounds in torch (undefined behaviour)")
            check(bool((counts >= 0).all()), RuntimeError, "repeats can not be negative")
            result.array(write=True)[...] = np.repeat(np.arange(len(counts)), counts)
            s.set(read=[touched(repeats_), touched(cumsum)], written=touched(result))
        s.set_result(result)
    return result


@declare("repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor",
         variants="function, method", kind=COMPOSITE,
         native="at::native::repeat_interleave_symint", source=REPEAT)
def repeat_interleave_self_tensor(self, repeats, dim: int | None = None, *,
                                  output_size: int | None = None):
    """index_select along dim with the index repeat_interleave(repeats) computes; a single
    repeat is first reshaped and expanded to one per element of dim."""
    inp = self
    if dim is None:
        inp = aten.flatten.using_ints(self, 0, -1)
        dim = 0
    size = inp.view.sizes[S.maybe_wrap_dim(dim, inp.dim(), wrap_scalar=False)]  # sym_size(dim)
    if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.view.sizes[0] == 1):
        repeats = aten.expand.default(aten.reshape.default(repeats, (1,)), (size,))
    elif repeats.dim() == 1:
        check(repeats.view.sizes[0] == size, RuntimeError,
              f"repeats must have the same size as input along dim, but got "
              f"repeats.size(0) = {repeats.view.sizes[0]} and input.size({dim}) = {size}")
    else:
        raise torch_error(RuntimeError, "repeats must be 0-dim or 1-dim tensor")
    index = aten.repeat_interleave.Tensor(repeats, output_size=output_size)
    return aten.index_select.default(inp, dim, index)


# -- repeat and tile (TensorShape.cpp repeat, tile_symint) --------------------------------------
SHAPE = "aten/src/ATen/native/TensorShape.cpp"


REPEAT_THE_TARGET_SHAPE = step("repeat: the target shape", Layer.KERNEL, source=SHAPE)


@declare("repeat(Tensor self, SymInt[] repeats) -> Tensor", variants="method",
         native="at::native::repeat", source=SHAPE, meta=META_PYTHON)
def repeat(self, repeats):
    """Expand self to the padded shape, allocate the result, unfold it into windows the
    size of self (one window per repeat), copy self into every window at once, then
    permute the window dims next to the repeat dims and reshape to the target shape."""
    repeats = tuple(repeats)
    check(len(repeats) >= self.dim(), RuntimeError,
          "Number of dimensions of repeat dims can not be smaller than number of dimensions "
          "of tensor")
    padded = (1,) * (len(repeats) - self.dim()) + self.view.sizes
    target = tuple(p * r for p, r in zip(padded, repeats))
    with span(REPEAT_THE_TARGET_SHAPE,
              note=Note("repeat.target", padded=list(padded), repeats=list(repeats),
                        target=list(target)), padded=list(padded), target=list(target)):
        pass
    xtensor = aten.expand.default(self, padded)
    result = aten.empty.memory_format(list(target), dtype=self.dtype,
                                      device=self.device_type)
    if 0 in repeats:
        return result                   # nothing to copy
    urtensor = result
    for i, size in enumerate(xtensor.view.sizes):
        # a window the size of self along dim i, one per repeat (step 0 is not allowed)
        urtensor = aten.unfold.default(urtensor, i, size, max(size, 1))
    aten.copy_.default(urtensor, aten.expand_as.default(xtensor, urtensor))
    # [a0 .. ad-1, b0 .. bd-1] -> [a0, b0, .., ad-1, bd-1] -> [a0*b0, .., ad-1*bd-1]
    n = xtensor.dim()
    range_a = aten.arange.default(n, dtype=D.int64)
    range_b = aten.add.Tensor(range_a, n)
    stacked = aten.flatten.using_ints(join.stack([range_a, range_b], 1))
    permutation = [int(v) for v in stacked.array().reshape(-1)] if not stacked.is_meta \
        else [k for i in range(n) for k in (i, i + n)]
    urtensor = aten.permute.default(urtensor, permutation)
    return aten.reshape.default(urtensor, target)


@declare("tile(Tensor self, SymInt[] dims) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::tile_symint", source=SHAPE)
def tile(self, dims):
    """numpy.tile: fewer reps than dims are padded with leading 1s; then repeat."""
    dims = tuple(dims)
    if self.dim() > len(dims):
        dims = (1,) * (self.dim() - len(dims)) + dims
    return aten.repeat.default(self, dims)
