"""aminmax of a whole tensor (aten/src/ATen/native/TensorCompare.cpp, cpu/ReduceAllOpsKernel.cpp).

``aminmax_out`` without ``dim`` runs ``aminmax_allreduce_stub`` on ``self.contiguous()``
(``aten::contiguous`` when the input is not), after refusing an empty input, and writes
each of its two 0-dim results with ``fill_``, as ``reduce_all_kernel`` does: the two
``aten::fill_`` torch.profiler records.  The values are min() and max() of the whole
tensor (a NaN wins both).  It is what ``one_hot`` checks its classes with.  With ``dim``
torch reduces through ``aminmax_stub`` (unsqueeze_/squeeze_ around it), which tidx
refuses in one line.
"""

from __future__ import annotations

import math
import struct

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, OUT, OUT_NOT_MODELLED, declare, not_modelled
from engine.memory import empty as memory
from engine.ops.reduce import _extreme
from engine.ops.touch import touched

COMPARE = "aten/src/ATen/native/TensorCompare.cpp"
ALL_KERNEL = "aten/src/ATen/native/cpu/ReduceAllOpsKernel.cpp"

AMINMAX_ALLREDUCE = step("aminmax_allreduce_kernel", Layer.KERNEL, source=ALL_KERNEL)

#: the NaN Vectorized's minimum/maximum return (the compare mask OR-ed in: every bit set)
_ALL_ONES_NAN = struct.unpack("<d", b"\xff" * 8)[0]


def _reduced_nan(value: float, self) -> float:
    """A NaN that met another element comes out with every bit set (measured:
    torch.aminmax(torch.tensor([1., nan])) gives 0xffffffff, printed -nan; a one-element
    tensor keeps its own NaN); c10::Half rounds that to its canonical 0xfe00."""
    if not math.isnan(value) or self.numel() < 2:
        return value
    return -math.nan if self.dtype is D.float16 else _ALL_ONES_NAN


@declare("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
         variants="function, method", native="at::native::aminmax_out (structured)",
         source=COMPARE, meta=META_PYTHON)
def aminmax(self, *, dim=None, keepdim=False):
    if dim is not None:
        raise Refused("aminmax with dim= is not modelled yet (torch.aminmax(t) of the whole "
                      "tensor is)")
    check(self.numel() > 0, RuntimeError,
          "aminmax(): cannot compute aminmax over an empty dimension as the operation has "
          "no identity.")
    # the structured kernel's outputs (set_output: no aten::empty of their own)
    low = memory.empty_generic((), self.dtype, self.device_type)
    high = memory.empty_generic((), self.dtype, self.device_type)
    src = self if self.is_contiguous() else aten.contiguous.default(self)
    with span(AMINMAX_ALLREDUCE) as s:
        values = None
        if not self.is_meta:
            axes = tuple(range(self.dim()))
            values = (_reduced_nan(_extreme(src.array(), axes, False).item(), self),
                      _reduced_nan(_extreme(src.array(), axes, True).item(), self))
            s.set(min=values[0], max=values[1], read=touched(src))
    aten.fill_.Scalar(low, 0 if values is None else values[0])
    aten.fill_.Scalar(high, 0 if values is None else values[1])
    return low, high


not_modelled("aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, "
             "Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)", kind=OUT,
             reason=OUT_NOT_MODELLED)
