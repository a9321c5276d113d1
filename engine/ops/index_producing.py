"""Operators that produce or follow indices: argwhere, count_nonzero, take_along_dim.

Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (``argwhere``, ``take_along_dim``
and its ``_take_along_dim_helper``) and ReduceOps.cpp (``count_nonzero_cpu``).
"""

from __future__ import annotations

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.device import of_type
from engine.core.errors import Refused, check
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.dispatch.aten import aten
from engine.ops import nonzero as nz
from engine.ops import overlap
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched

ADV = "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
REDUCE = "aten/src/ATen/native/ReduceOps.cpp"


@declare("argwhere(Tensor self) -> Tensor", variants="method, function", kind=COMPOSITE,
         native="at::native::argwhere", source=ADV)
def argwhere(self):
    return aten.nonzero.default(self)


COUNT_NONZERO_CPU = step("count_nonzero_cpu", Layer.KERNEL, source=REDUCE)


@declare("count_nonzero(Tensor self, int? dim=None) -> Tensor", variants="function, method",
         native="at::native::count_nonzero", source=REDUCE, meta=META_PYTHON)
def count_nonzero(self, dim=None):
    if dim is not None:
        # the dims kernel, reached without a second dispatch: torch.profiler records one
        # aten::count_nonzero (then ne and sum), not two
        return count_nonzero_dims(self, [dim])
    if self.is_meta:
        raise Refused("count_nonzero on the meta device runs torch's Python meta "
                      "registration, which tidx does not model; on the CPU it is modelled")
    # count_nonzero_cpu's all-reduce: each thread counts its chunk, the counts are summed;
    # in torch this runs inside the composite kernel, and only its at::empty is recorded
    with span(COUNT_NONZERO_CPU, note=Note("count_nonzero.kernel", numel=self.numel())) as s:
        count = nz.count_nonzero(self.array())
        out = aten.empty.memory_format((), dtype=D.int64, device=self.device_type)
        out.array(write=True)[...] = count
        s.set(read=touched(self), written=touched(out))
        s.set_result(out)
    return out


@declare("count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor",
         variants="function, method", native="at::native::count_nonzero_cpu",
         source=REDUCE,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def count_nonzero_dims(self, dim):
    if not dim:
        return count_nonzero(self)
    reduce = self if self.dtype is D.bool else aten.ne.Scalar(self, 0)
    return aten.sum.dim_IntList(reduce, list(dim))


@declare("take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor",
         variants="method, function", kind=COMPOSITE, native="at::native::take_along_dim",
         source=ADV)
def take_along_dim(self, indices, dim=None):
    return _take_along_dim(self, indices, dim, None)


@declare("take_along_dim.out(Tensor self, Tensor indices, int? dim=None, *, Tensor(a!) out) -> "
         "Tensor(a!)", kind=COMPOSITE, native="at::native::take_along_dim_out", source=ADV)
def take_along_dim_out(self, indices, dim=None, *, out):
    # checkDevice("torch.take_along_dim():", {self, indices, result}, self.device())
    for t in (self, indices, out):
        check(t.device_type == self.device_type, RuntimeError,
              f"Expected tensor to have {of_type(self.device_type)} Device, but got tensor "
              f"with {of_type(t.device_type)} Device (while checking arguments for "
              "torch.take_along_dim():)")
    return _take_along_dim(self, indices, dim, out)


def _gather(self, dim: int, index, out):
    return (aten.gather.default(self, dim, index) if out is None
            else aten.gather.out(self, dim, index, out=out))


def _take_along_dim(self, indices, dim, out):
    """take_along_dim / take_along_dim_out: gather (or gather_out) of the two broadcast
    against each other, or of both flattened when no dim is given."""
    if dim is None:
        # like take, but with gather's dtypes: both flattened by view(-1)
        flat_self = aten.view.default(self, (-1,))
        flat_indices = aten.view.default(indices, (-1,))
        return _gather(flat_self, 0, flat_indices, out)
    check(self.dim() == indices.dim(), RuntimeError,
          "torch.take_along_dim(): input and indices should have the same number of "
          f"dimensions, but got {self.dim()} dimensions for input, and {indices.dim()} "
          "dimensions for indices")
    check(indices.dtype is D.int64, RuntimeError,
          "torch.take_along_dim(): dtype of indices should be Long but got "
          f"{D.cpp_name(indices.dtype)}")
    dim = S.maybe_wrap_dim(dim, self.dim())
    # _take_along_dim_helper reads indices.size(dim): a 0-dim tensor has no size there
    # (Tensor::size wraps the already wrapped dim again, without wrap_scalar)
    S.maybe_wrap_dim(dim, indices.dim(), wrap_scalar=False)
    missing = [op.decl.full_name for op in (aten.broadcast_to.default, aten.remainder.Scalar)
               if not op.decl.modelled]
    if missing:
        raise Refused("take_along_dim(..., dim) broadcasts with broadcast_to and wraps the "
                      f"indices with remainder; {', '.join(missing)} not modelled yet. "
                      "take_along_dim without dim is")
    # _take_along_dim_helper: each broadcast against the other, but along dim each
    # keeps its own size
    self_sizes = list(self.view.sizes)
    self_sizes[dim] = indices.view.sizes[dim]
    indices_b = aten.broadcast_to.default(indices, _broadcast(self_sizes, indices.view.sizes))
    indices_sizes = list(indices.view.sizes)
    indices_sizes[dim] = self.view.sizes[dim]
    self_b = aten.broadcast_to.default(self, _broadcast(indices_sizes, self.view.sizes))
    wrapped = aten.remainder.Scalar(indices_b, self_b.view.sizes[dim])
    return _gather(self_b, dim, wrapped, out)


NONZERO_STATIC_COPY_THEN_PAD = step("nonzero_static: copy, then pad", Layer.KERNEL, source=ADV)


@declare("nonzero_static(Tensor self, *, SymInt size, int fill_value=-1) -> Tensor",
         variants="method, function", native="at::native::nonzero_static_cpu",
         source=ADV,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def nonzero_static(self, *, size: int, fill_value: int = -1):
    check(size >= 0, RuntimeError, "nonzero_static: 'size' must be an non-negative integer")
    if self.is_meta:
        raise Refused("nonzero_static on the meta device runs torch's Python meta "
                      "registration, which tidx does not model; on the CPU it is modelled")
    result = aten.empty.memory_format((size, self.dim()), dtype=D.int64,
                                      device="cpu")
    return _nonzero_static_into(self, size, fill_value, result)


@declare("nonzero_static.out(Tensor self, *, SymInt size, int fill_value=-1, Tensor(a!) out) -> "
         "Tensor(a!)", native="at::native::nonzero_static_out_cpu", source=ADV,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def nonzero_static_out(self, *, size: int, fill_value: int = -1, out):
    """nonzero_static_out_cpu's own checks: the size, the out= tensor's dtype, its resize
    (resize_output) unless it is already (size, ndim), the overlaps."""
    check(size >= 0, RuntimeError, "nonzero_static: 'size' must be an non-negative integer")
    if self.is_meta or out.is_meta:
        raise Refused("nonzero_static on the meta device runs torch's Python meta "
                      "registration, which tidx does not model; on the CPU it is modelled")
    check(out.dtype is D.int64, RuntimeError, "nonzero_static: Expected out tensor to have "
          f"scalar type Long but got scalar type{D.cpp_name(out.dtype)}")
    shape = (size, self.dim())
    if out.view.sizes != shape:
        resize_output(out, shape, S.contiguous_strides(shape))
    overlap.assert_no_internal_overlap(out)
    overlap.assert_no_overlap(out, self)
    return _nonzero_static_into(self, size, fill_value, out)


def _nonzero_static_into(self, size: int, fill_value: int, result):
    """nonzero_static_out_cpu after its checks: nothing to do for a 0-sized result, else
    nonzero_cpu's rows copied in and the rest filled."""
    if size == 0 or self.dim() == 0:
        return result
    # nonzero_static_out_cpu calls nonzero_cpu directly: its work, without an operator
    dyn = nz.nonzero(self)
    copy_len = min(size, dyn.view.sizes[0])
    with span(NONZERO_STATIC_COPY_THEN_PAD,
              note=Note("nonzero_static.pad", found=dyn.view.sizes[0], size=size,
                        fill=fill_value)):
        aten.copy_.default(aten.narrow.default(result, 0, 0, copy_len),
                           aten.narrow.default(dyn, 0, 0, copy_len))
        if size > copy_len:
            aten.fill_.Scalar(aten.narrow.default(result, 0, copy_len,
                                    size - copy_len), fill_value)
    return result


def _broadcast(a, b) -> tuple[int, ...]:
    """at::infer_size: the broadcast shape, or PyTorch's message for the first mismatch
    (counted from the right).

    >>> _broadcast([3, 1], [1, 4])
    (3, 4)
    """
    n = max(len(a), len(b))
    out = []
    for i in range(n - 1, -1, -1):
        back = n - 1 - i
        sa = a[len(a) - 1 - back] if back < len(a) else 1
        sb = b[len(b) - 1 - back] if back < len(b) else 1
        check(sa == sb or sa == 1 or sb == 1, RuntimeError,
              f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
              f"non-singleton dimension {i}")
        out.append(sb if sa == 1 else sa)
    return tuple(reversed(out))

