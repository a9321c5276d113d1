"""empty_permuted: an uninitialised tensor whose dims lie in memory in a given order
(aten/src/ATen/native/TensorFactories.cpp, empty_permuted_symint).

The memory is one contiguous allocation of the sizes in physical order; the logical view
hands each dim the stride its physical place gave it (the inverse permutation:
engine/core/shape_math.permuted_strides) through as_strided.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import shape_math as M
from engine.core.errors import check
from engine.dispatch.declarations import declare
from engine.dispatch.aten import aten

FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"


EMPTY_PERMUTED_THE_LOGICAL_STRIDES = step("empty_permuted: the logical strides", Layer.KERNEL,
                                          source=FACTORIES)


@declare("empty_permuted(SymInt[] size, int[] physical_layout, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::empty_permuted_symint", source=FACTORIES)
def empty_permuted(size: Sequence[int], physical_layout: Sequence[int], *,
                   dtype: D.dtype | None = None, layout=None, device: str | None = None,
                   pin_memory=None):
    dim = len(size)
    check(dim == len(physical_layout), RuntimeError,
          f"Number of dimensions in size does not match the length of the physical_layout; "
          f"i.e. len(size) = {dim} is not equal to len(physical_layout) = {len(physical_layout)}")
    seen = [False] * dim
    phys_size = []
    for i, d in enumerate(physical_layout):
        check(0 <= d < dim, RuntimeError,
              f"Dimension out of range (expected to be between 0 and {dim - 1}, but got {d} at "
              f"index {i}).  NB: negative dims not currently supported; file an issue if you "
              f"want it.")
        check(not seen[d], RuntimeError, "Duplicate dim not allowed")
        phys_size.append(size[d])
        seen[d] = True
    phys = aten.empty.memory_format(phys_size, dtype=dtype, device=device)
    strides = M.permuted_strides(phys.view.strides, physical_layout)
    with span(EMPTY_PERMUTED_THE_LOGICAL_STRIDES,
              note=Note("empty_permuted.strides", physical=list(phys.view.strides),
                        layout=list(physical_layout), strides=strides), strides=strides):
        pass
    return aten.as_strided.default(phys, list(size), strides, None)
