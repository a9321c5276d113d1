"""repeat_interleave with a number of repeats (aten/src/ATen/native/Repeat.cpp's
CompositeImplicitAutograd overload).

Each element is repeated ``repeats`` times in place along ``dim``: a new dim of size 1 is
put after ``dim`` (unsqueeze), expanded to ``repeats`` with stride 0 (no copy yet), and
the contiguous clone writes the repeats out; flattening ``dim`` with the new dim gives the
result.  Without ``dim`` the input is flattened first.
"""

from __future__ import annotations

from tracer.notes import Note
from tracer.recorder import span

from engine.core import view as S
from engine.core import dtypes as D
from engine.core.errors import check
from engine.dispatch.declarations import COMPOSITE, FUNCTIONAL, declare, not_modelled
from engine.dispatch.dispatcher import call
from engine.ops import join

REPEAT = "aten/src/ATen/native/Repeat.cpp"


@declare("repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor",
         variants="function, method", kind=COMPOSITE, native="at::native::repeat_interleave_symint",
         source=REPEAT)
def repeat_interleave(self, repeats: int, dim: int | None = None, *,
                      output_size: int | None = None):
    inp = self if dim is not None else call("aten::flatten.using_ints", self, 0, -1)
    d = S.maybe_wrap_dim(0 if dim is None else dim, self.dim())
    check(repeats >= 0, RuntimeError, "Repeats must be non-negative")
    inp = call("aten::unsqueeze", inp, d + 1)
    shape = list(inp.view.sizes)
    shape[d + 1] = repeats
    with span("repeat_interleave: repeat each element", "kernel", source=REPEAT,
              note=Note("repeat.interleave", dim=d, repeats=repeats), shape=shape):
        pass
    inp = call("aten::expand", inp, shape)
    if output_size is not None:
        expected = repeats * shape[d]
        check(output_size == expected, RuntimeError,
              f"repeat_interleave: Invalid output_size, expected {expected} but got {output_size}")
    out = call("aten::clone", inp, memory_format="contiguous_format")
    return call("aten::flatten.using_ints", out, d, d + 1)


_TENSOR_REPEATS = ("repeat_interleave with a tensor of repeats (cumsum, then index_select) is "
                   "not modelled yet")
not_modelled("repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor",
             kind=FUNCTIONAL, reason=_TENSOR_REPEATS)
not_modelled("repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor",
             variants="function, method", kind=COMPOSITE, reason=_TENSOR_REPEATS)


# -- repeat and tile (TensorShape.cpp repeat, tile_symint) --------------------------------------
SHAPE = "aten/src/ATen/native/TensorShape.cpp"


@declare("repeat(Tensor self, SymInt[] repeats) -> Tensor", variants="method",
         kind=FUNCTIONAL, native="at::native::repeat", source=SHAPE)
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
    with span("repeat: the target shape", "kernel", source=SHAPE,
              note=Note("repeat.target", padded=list(padded), repeats=list(repeats),
                        target=list(target)), padded=list(padded), target=list(target)):
        pass
    xtensor = call("aten::expand", self, padded)
    result = call("aten::empty.memory_format", list(target), dtype=self.dtype,
                  device=self.device_type)
    if 0 in repeats:
        return result                   # nothing to copy
    urtensor = result
    for i, size in enumerate(xtensor.view.sizes):
        # a window the size of self along dim i, one per repeat (step 0 is not allowed)
        urtensor = call("aten::unfold", urtensor, i, size, max(size, 1))
    call("aten::copy_", urtensor, call("aten::expand_as", xtensor, urtensor))
    # [a0 .. ad-1, b0 .. bd-1] -> [a0, b0, .., ad-1, bd-1] -> [a0*b0, .., ad-1*bd-1]
    n = xtensor.dim()
    range_a = call("aten::arange", n, dtype=D.int64)
    range_b = call("aten::add.Tensor", range_a, n)
    stacked = call("aten::flatten.using_ints", join.stack([range_a, range_b], 1))
    permutation = [int(v) for v in stacked.array().reshape(-1)] if not stacked.is_meta \
        else [k for i in range(n) for k in (i, i + n)]
    urtensor = call("aten::permute", urtensor, permutation)
    return call("aten::reshape", urtensor, target)


@declare("tile(Tensor self, SymInt[] dims) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::tile_symint", source=SHAPE)
def tile(self, dims):
    """numpy.tile: fewer reps than dims are padded with leading 1s; then repeat."""
    dims = tuple(dims)
    if self.dim() > len(dims):
        dims = (1,) * (self.dim() - len(dims)) + dims
    return call("aten::repeat", self, dims)
