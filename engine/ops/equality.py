"""torch.equal: the same sizes and the same values (TensorCompare.cpp ``cpu_equal``),
and the ``is_same_size`` it asks first.

Not a reduction to a tensor but to one Python bool: different sizes are simply
unequal; the values are compared in the two dtypes' common dtype (TensorIterator's
``promote_inputs_to_common_dtype``: the ``to`` the profiler shows); a NaN equals
nothing, not even itself.
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.memory.allocator import check_temporary

COMPARE = "aten/src/ATen/native/TensorCompare.cpp"


@declare("is_same_size(Tensor self, Tensor other) -> bool", variants="function, method",
         native="at::native::is_same_size", source="aten/src/ATen/native/TensorProperties.cpp",
         meta=META_PYTHON)
def is_same_size(self, other) -> bool:
    return self.view.sizes == other.view.sizes


EQUAL_CPU = step("equal_cpu", Layer.KERNEL, source=COMPARE, note="equal.kernel")
CPU_EQUAL_THE_SAME_MEMORY = step("cpu_equal: the same memory", Layer.KERNEL, source=COMPARE,
                                 note="equal.alias")


@declare("equal(Tensor self, Tensor other) -> bool", variants="method, function",
         native="at::native::cpu_equal", source=COMPARE, device_check=CHECK_WRAPPER)
def equal(self, other) -> bool:
    if not aten.is_same_size.default(self, other):
        return False
    if self.storage is other.storage and self.view == other.view and self.dtype is other.dtype:
        # the same elements: equal unless a float among them is NaN (no operator runs)
        with span(CPU_EQUAL_THE_SAME_MEMORY) as s:
            if not self.is_meta and self.dtype.is_floating_point:
                check_temporary("equal", self.numel(), 1)     # isnan's mask
            same = self.is_meta or not self.dtype.is_floating_point or \
                not bool(np.isnan(self.array()).any())
            s.set(result=same)
        return same
    common = D.promote_types(self.dtype, other.dtype)
    a = self if self.dtype is common else aten.to.dtype(self, common)
    b = other if other.dtype is common else aten.to.dtype(other, common)
    with span(EQUAL_CPU) as s:
        if not self.is_meta:
            check_temporary("equal", a.numel(), 1)              # a == b, as a mask
        same = True if self.is_meta else bool(np.array_equal(a.array(), b.array()))
        s.set(result=same)
    return same
