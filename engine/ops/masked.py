"""masked_scatter / masked_scatter_: the elements where a bool mask is set take the
source's elements, one after another (aten/src/ATen/native/TensorAdvancedIndexing.cpp,
``masked_scatter__cpu``; the kernel is cpu/IndexKernel.cpp's ``masked_scatter_kernel``).

The iteration is linear (``enforce_linear_iteration``): self's elements in row-major
order of its shape, whatever its strides, and the source read contiguous, so the k-th set
element of the mask receives the source's k-th element.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import check, torch_error
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops import overlap
from engine.ops.index_ops import refuse_meta
from engine.ops.views import expand_outplace
from engine.memory.allocator import check_temporary
from engine.ops.touch import at, first, touched

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
KERNEL = "aten/src/ATen/native/cpu/IndexKernel.cpp"


MASKED_SCATTER_KERNEL = step("masked_scatter_kernel", Layer.KERNEL, source=KERNEL)
TORCH_WARN = step("TORCH_WARN", Layer.KERNEL, source=ADV, note="masked_scatter.uint8_warning")


@declare("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)",
         variants="method", native="at::native::masked_scatter__cpu", source=ADV,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def masked_scatter_(self, mask, source):
    refuse_meta("masked_scatter_", self, mask, source)
    overlap.assert_no_internal_overlap(self)
    check(self.dtype is source.dtype, RuntimeError,
          "masked_scatter: expected self and source to have same dtypes but got"
          f"{D.cpp_name(self.dtype)} and {D.cpp_name(source.dtype)}")
    # expand_inplace(self, mask): the mask takes self's shape
    b_mask = mask if mask.view.sizes == self.view.sizes else \
        aten.expand.default(mask, self.view.sizes)
    if b_mask.dtype is D.uint8:
        with span(TORCH_WARN, category="UserWarning"):
            pass
    source_cont = source if source.is_contiguous() else aten.contiguous.default(source)
    # masked_scatter_kernel's iterator
    check(b_mask.dtype is D.bool, RuntimeError,
          "masked_scatter_ only supports boolean masks, but got mask with dtype "
          f"{D.cpp_name(b_mask.dtype)}")
    with span(MASKED_SCATTER_KERNEL,
              note=Note("masked_scatter.kernel", count=source.numel())) as s:
        # the mask flattened (a copy when expanded), the positions set and their
        # coordinates along every dim
        check_temporary("masked_scatter_", self.numel(), 9 + 8 * max(self.dim(), 1))
        m = b_mask.array().reshape(-1) if self.numel() else np.zeros(0, dtype=bool)
        hits = int(np.count_nonzero(m))
        values = source_cont.array().reshape(-1)
        if hits > values.size:
            # the kernel writes the first source.numel() set elements, then fails
            where = np.flatnonzero(m)[:values.size]
            _write(self, where, values)
            s.set(**_marks(self, b_mask, source_cont, where))
            raise torch_error(RuntimeError, "Number of elements of source < number of ones "
                                            "in mask")
        if hits:
            _write(self, np.flatnonzero(m), values[:hits])
            s.set(**_marks(self, b_mask, source_cont, np.flatnonzero(m)))
        s.set(set=hits)
        s.set_result(self)
    return self


def _marks(self, mask, source, flat_positions: np.ndarray) -> dict:
    """What masked_scatter_kernel touched: the whole mask (an index), the first elements of
    source read in order, self written at the mask's set positions (row-major)."""
    n = int(flat_positions.size)
    return {"read": first(source, n), "read_index": touched(mask),
            "written": lambda: at(self, np.unravel_index(flat_positions, self.view.sizes))
            if self.dim() else touched(self)}


def _write(self, flat_positions: np.ndarray, values: np.ndarray) -> None:
    """Write at row-major positions of self's shape, whatever its strides."""
    if not flat_positions.size:
        return
    target = self.array(write=True)
    if self.dim() == 0:
        target[()] = values[0]
    else:
        target[np.unravel_index(flat_positions, self.view.sizes)] = values


@declare("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
         variants="function, method", native="at::native::masked_scatter",
         source=ADV,
         meta=META_PYTHON)
def masked_scatter(self, mask, source):
    refuse_meta("masked_scatter", self, mask, source)
    b_mask, b_self = expand_outplace(mask, self)
    out = aten.clone.default(b_self, memory_format="contiguous_format")
    return aten.masked_scatter_.default(out, b_mask, source)
