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
from engine.core.errors import check
from engine.dispatch.declarations import COMPOSITE, FUNCTIONAL, declare, not_modelled
from engine.dispatch.dispatcher import call

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


# -- repeat and tile: torch 2.13's repeat, after unfold and copy_, runs an index computation
# (arange, add, cat, narrow, flatten, permute, reshape) that tidx does not model yet ---------
_NEEDS_CAT = ("{} is not modelled yet: torch 2.13's kernel follows its copy with an index "
              "computation (arange, cat, permute, reshape) tidx does not take yet ({})")
not_modelled("repeat(Tensor self, SymInt[] repeats) -> Tensor", variants="method",
             kind=FUNCTIONAL, reason=_NEEDS_CAT.format("repeat", "Repeat.cpp"))
not_modelled("tile(Tensor self, SymInt[] dims) -> Tensor", variants="function, method",
             kind=COMPOSITE, reason=_NEEDS_CAT.format("tile", "it is repeat"))
