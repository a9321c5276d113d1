"""at::native::tensordot and tensordot_out (aten/src/ATen/native/Linear.cpp).

tensordot is a matrix product in disguise: the contracted dims of each operand are
permuted to one end (a's last, b's first), both are reshaped to matrices and one ``mm``
multiplies them; the product is reshaped to a's kept dims then b's.  A contracted dim of
size 1 on one side broadcasts: the other side's is summed first (``sum`` with keepdim).
The out= form computes the functional result, checks the devices and the dtype (there is
no type promotion), resizes ``out`` and copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.device import of_type
from engine.core.errors import check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, declare
from engine.ops.pointwise import resize_output

LINEAR = "aten/src/ATen/native/Linear.cpp"

TENSORDOT = step("tensordot: permute, reshape, mm", Layer.KERNEL, source=LINEAR)


@declare("tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor",
         variants="function", kind=COMPOSITE, native="at::native::tensordot", source=LINEAR)
def tensordot(input1, input2, dims1: Sequence[int], dims2: Sequence[int]):
    dims1, dims2 = list(dims1), list(dims2)
    check(len(dims1) == len(dims2), RuntimeError,
          "both dimension lists should have same length")
    check(input1.dtype is input2.dtype, RuntimeError, "both inputs should have same dtype")
    csize = 1
    t1, t2 = input1, input2
    for d1, d2 in zip(dims1, dims2):
        s1 = input1.view.sizes[S.maybe_wrap_dim(d1, input1.dim())]
        s2 = input2.view.sizes[S.maybe_wrap_dim(d2, input2.dim())]
        if s2 == 1:             # a broadcast dim: summed right away
            t1 = aten.sum.dim_IntList(t1, [d1], True)
        elif s1 == 1:
            t2 = aten.sum.dim_IntList(t2, [d2], True)
        else:
            check(s1 == s2, RuntimeError,
                  f"contracted dimensions need to match, but first has size {s1} in dim "
                  f"{d1} and second has size {s2} in dim {d2}")
            csize *= s1
    cdims1 = S.dim_list_to_bitset(dims1, input1.dim())
    cdims2 = S.dim_list_to_bitset(dims2, input2.dim())
    p1: list[int] = []
    p2: list[int] = list(dims2)
    rsizes: list[int] = []
    size1 = size2 = 1
    for i in range(input1.dim()):
        if not cdims1[i]:
            p1.append(i)
            size1 *= t1.view.sizes[i]
            rsizes.append(t1.view.sizes[i])
    p1 += dims1
    for i in range(input2.dim()):
        if not cdims2[i]:
            p2.append(i)
            size2 *= t2.view.sizes[i]
            rsizes.append(t2.view.sizes[i])
    with span(TENSORDOT, note=Note("tensordot.kernel", rows=size1, k=csize, cols=size2)) as s:
        t1 = aten.reshape.default(aten.permute.default(t1, p1), [size1, csize])
        t2 = aten.reshape.default(aten.permute.default(t2, p2), [csize, size2])
        result = aten.reshape.default(aten.mm.default(t1, t2), rsizes)
        s.set_result(result)
    return result


@declare("tensordot.out(Tensor self, Tensor other, int[] dims_self, int[] dims_other, *, "
         "Tensor(a!) out) -> Tensor(a!)", variants="function", kind=COMPOSITE,
         native="at::native::tensordot_out", source=LINEAR)
def tensordot_out(input1, input2, dims1: Sequence[int], dims2: Sequence[int], *, out):
    # at::native::tensordot, not at::tensordot: no second aten::tensordot is recorded
    tmp = tensordot(input1, input2, dims1, dims2)
    where = [str(of_type(t.device_type)) for t in (out, input1, input2)]
    check(where[0] == where[1] == where[2], RuntimeError,
          "tensordot: Expected the output and input tensors to be on the same device, but "
          f"got the output tensor on {where[0]}, input tensor a on {where[1]}, and "
          f"input tensor b on {where[2]}")
    check(tmp.dtype is out.dtype, RuntimeError,
          f"tensordot: Expected the output tensor to have dtype {D.cpp_name(tmp.dtype)}"
          f", but got an output tensor with dtype {D.cpp_name(out.dtype)}")
    resize_output(out, tmp.view.sizes, tuple(S.contiguous_strides(tmp.view.sizes)))
    aten.copy_.default(out, tmp)
    return out

