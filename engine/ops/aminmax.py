"""aminmax (aten/src/ATen/native/ReduceOps.cpp's meta and aminmax_out; the kernels in
cpu/ReduceAllOpsKernel.cpp and cpu/TensorCompareKernel.cpp).

The meta function checks and shapes both results (set_output_raw_strided: no
``aten::empty`` of their own).  Without ``dim``, ``aminmax_out`` runs
``aminmax_allreduce_stub`` on ``self.contiguous()`` (``aten::contiguous`` when the input is
not), which writes each of its two results with ``fill_``, as ``reduce_all_kernel`` does:
the two ``aten::fill_`` torch.profiler records.  With ``dim``, ``aminmax_stub``'s
``aminmax_kernel``: a one-element 0-dim input is copied into both results (``resize_`` and
``fill_`` each); else ``compare_base_kernel`` puts the dim back into both results
(``unsqueeze_``, unless keepdim), walks each row keeping the first smallest and first
largest value (a NaN wins both and ends the row) and takes the dim away again
(``squeeze_``).  It is what ``one_hot`` and ``multinomial`` check their inputs with.
https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cpu/TensorCompareKernel.cpp
"""

from __future__ import annotations

import math
import struct

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, declare
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import resize_output
from engine.ops.reduce import _extreme, _first_index, _zero_numel_check_dim
from engine.ops.touch import touched

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"
ALL_KERNEL = "aten/src/ATen/native/cpu/ReduceAllOpsKernel.cpp"
COMPARE_KERNEL = "aten/src/ATen/native/cpu/TensorCompareKernel.cpp"

AMINMAX_ALLREDUCE = step("aminmax_allreduce_kernel", Layer.KERNEL, source=ALL_KERNEL)
AMINMAX_KERNEL = step("aminmax_kernel", Layer.KERNEL, source=COMPARE_KERNEL)

#: the NaN Vectorized's minimum/maximum return (the compare mask OR-ed in: every bit set)
_ALL_ONES_NAN = struct.unpack("<d", b"\xff" * 8)[0]


def _reduced_nan(value: float, self) -> float:
    """A NaN that met another element comes out with every bit set (measured:
    torch.aminmax(torch.tensor([1., nan])) gives 0xffffffff, printed -nan; a one-element
    tensor keeps its own NaN); c10::Half rounds that to its canonical 0xfe00."""
    if not math.isnan(value) or self.numel() < 2:
        return value
    return -math.nan if self.dtype is D.float16 else _ALL_ONES_NAN


def _whole(self, low, high):
    """aminmax_allreduce_kernel: min() and max() of the whole tensor (a NaN wins both),
    each written with fill_."""
    src = self if self.is_contiguous() else aten.contiguous.default(self)
    if not self.is_meta:
        dispatched(self.dtype)
    with span(AMINMAX_ALLREDUCE) as s:
        values = None
        if not self.is_meta:
            axes = tuple(range(self.dim()))
            values = (_reduced_nan(_extreme(src.array(), axes, False, whole=True).item(), self),
                      _reduced_nan(_extreme(src.array(), axes, True, whole=True).item(), self))
            s.set(min=values[0], max=values[1], read=touched(src))
    aten.fill_.Scalar(low, 0 if values is None else values[0])
    aten.fill_.Scalar(high, 0 if values is None else values[1])


def _along(self, dim: int, keepdim: bool, low, high):
    """aminmax_kernel over one dim (compare_base_kernel_core)."""
    if self.numel() == 1 and self.dim() == 0:
        check(not self.dtype.is_complex, RuntimeError,
              f"aminmax not implemented for {D.cpp_name(self.dtype)}")
        for r in (low, high):
            aten.resize_.default(r, [])
        aten.fill_.Tensor(low, self)
        aten.fill_.Tensor(high, self)
        return
    if not self.is_meta:
        dispatched(self.dtype)
    if not keepdim:
        for r in (low, high):
            if r.dim() >= dim:
                aten.unsqueeze_.default(r, dim)
    with span(AMINMAX_KERNEL, dim=dim) as s:
        if not self.is_meta and self.numel():
            # numpy's argmin/argmax copy the input with the dim moved last
            check_temporary("aminmax", self.numel(), self.dtype.itemsize, copies=2)
            arr = self.array()
            for r, biggest in ((low, False), (high, True)):
                # the first extreme of each row, a NaN first of all (numpy's rule)
                index = np.expand_dims(_first_index(arr, dim, biggest), dim)
                r.array(write=True)[...] = np.take_along_axis(arr, index, dim)
            s.set(read=touched(self), written=[touched(low), touched(high)])
    if not keepdim:
        aten.squeeze_.dim(low, dim)
        aten.squeeze_.dim(high, dim)


@declare("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
         variants="function, method", native="at::native::aminmax_out (structured)",
         source=REDUCE, meta=META_PYTHON, takes_complex=True,   # to raise AT_DISPATCH's error
         at_dispatch=AT_DISPATCH("aminmax_cpu",
                                 "AT_DISPATCH_ALL_TYPES_AND3(kBool, kBFloat16, kHalf)"))
def aminmax(self, *, dim=None, keepdim=False):
    return _aminmax(self, dim, keepdim, None)


@declare("aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, "
         "Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)",
         native="at::native::aminmax_out (structured)", source=REDUCE, takes_complex=True,
         meta=META_PYTHON, at_dispatch=AT_DISPATCH("aminmax_cpu",
                                 "AT_DISPATCH_ALL_TYPES_AND3(kBool, kBFloat16, kHalf)"))
def aminmax_out(self, *, dim=None, keepdim=False, min, max):  # noqa: A002
    return _aminmax(self, dim, keepdim, (min, max))


def _aminmax(self, dim, keepdim: bool, outs):
    # TORCH_META_FUNC(aminmax): the checks and the shape of both results
    if dim is not None:
        wrapped = S.maybe_wrap_dim(dim, self.dim())
        if self.numel() == 0:
            _zero_numel_check_dim(self, wrapped, "aminmax")
        sizes = list(self.view.sizes)
        if sizes:
            if keepdim:
                sizes[wrapped] = 1
            else:
                del sizes[wrapped]
    else:
        check(self.numel() > 0, RuntimeError,
              "aminmax(): cannot compute aminmax over an empty dimension as the operation "
              "has no identity.")
        sizes = [1] * self.dim() if keepdim else []
    if outs is None:
        low = memory.empty_generic(sizes, self.dtype, self.device_type)
        high = memory.empty_generic(sizes, self.dtype, self.device_type)
    else:
        # the structured wrapper's resize_out for min, then for max: the dtype, then
        # resize_output (its warning)
        for out in outs:
            check(out.dtype is self.dtype, RuntimeError,
                  f"Expected out tensor to have dtype {D.type_meta_name(self.dtype)}, but got "
                  f"{D.type_meta_name(out.dtype)} instead")
            resize_output(out, tuple(sizes), S.contiguous_strides(tuple(sizes)))
        low, high = outs
    if dim is None:
        _whole(self, low, high)
    else:
        _along(self, wrapped, keepdim, low, high)
    return low, high

