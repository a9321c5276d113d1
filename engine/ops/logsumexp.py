"""logsumexp: ``log(sum(exp(x - max))) + max`` along dims, as torch's operators do it
(aten/src/ATen/native/ReduceOps.cpp logsumexp, logsumexp_out, logsumexp_out_impl).

``logsumexp`` (CompositeExplicitAutograd) makes ``at::empty({0})`` of the input's dtype
(the default dtype for an integer or bool input) and calls ``logsumexp.out``, which checks
the result's dtype, casts an integer input to the default dtype (``self.to``), and runs::

    maxes = at::amax(at::real(self), dims, true);
    maxes_squeezed = keepdim ? maxes : self.squeeze(dims);   // squeeze_multiple
    maxes_squeezed.masked_fill_(maxes_squeezed.abs() == INFINITY, 0);
    at::sum_out(result, (self - maxes).exp_(), dims, keepdim);
    result.log_().add_(maxes_squeezed);

(an empty input: ``at::sum_out(result, at::exp(self), dims, keepdim); result.log_()``).
Every one of those is an operator torch.profiler records, and tidx calls each of them, so
the subtraction, the cascade sum and the addition are torch's bit for bit.  ``exp`` and
``log`` are MKL's VML in torch (docs/fidelity-math.md: within 3 and 4 ulp in float): their
steps say so, and this one states what that makes of the result.  ``log(sum)`` turns the
sum's relative difference into an absolute one (near ``y = 0`` no ulp bound holds), so
each element is within ``K * eps * max(1, |y|)`` of torch's, K = ``LOGSUMEXP_EPS``
(measured at most 1.5 over rows of 1 to 4,099 elements, float32 and float64, scales 1e-3, 1, 10
and 100, under AVX2 and DEFAULT; tests/ops/test_logsumexp_quantile_torch.py keeps it).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import Refused, check, is_torch_error
from engine.dispatch.aten import aten
from engine.dispatch.declarations import META_PYTHON, declare
from engine.ops.pointwise import resize_output
from engine.ops.reduce import dim_mask, reduced_shape

REDUCE = "aten/src/ATen/native/ReduceOps.cpp"

#: the bound on an element, in units of ``eps * max(1, |y|)`` (see the module's docstring)
LOGSUMEXP_EPS = 3
LIBRARY = "MKL's vmsExp and vmsLn"

LOGSUMEXP_IMPL = step("logsumexp_out_impl", Layer.KERNEL, source=REDUCE)


def _bound_note(result) -> Note | None:
    """The absolute bound on how far torch's values may be from tidx's (exp and log are
    not replayed), over the tensor: K * eps * max(1, max |y|)."""
    if result.is_meta or result.numel() == 0 or not result.dtype.is_floating_point:
        return None
    values = result.array().astype(np.float64)
    finite = values[np.isfinite(values)]
    largest = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
    bound = LOGSUMEXP_EPS * float(np.finfo(result.dtype.np).eps) * largest
    return Note("statistics.logsumexp_bound", op="logsumexp", library=LIBRARY,
                eps=LOGSUMEXP_EPS, bound=f"{bound:.3g}")


def _sum_out(src, dim, keepdim: bool, result) -> None:
    """at::sum_out(result, src, dims, keepdim): sum.IntList_out's structured wrapper
    resizes ``result`` first (at::native::resize_output, no operator of its own; tidx's
    sum_out kernel takes an out of the result's shape, so the resize is done here)."""
    try:
        shape = reduced_shape(src.view.sizes, dim_mask(src, dim), keepdim)
    except Exception as exc:  # noqa: BLE001 - a wrong dim: sum raises it, in its own step
        if not is_torch_error(exc):
            raise
    else:
        resize_output(result, shape, S.contiguous_strides(shape))
    aten.sum.IntList_out(src, dim, keepdim, out=result)


def _logsumexp_impl(result, self, dim, keepdim: bool):
    if result.dtype is not self.dtype:
        raise Refused("logsumexp(..., out=) into a tensor of another dtype than the input's "
                      "is not modelled by tidx")
    with span(LOGSUMEXP_IMPL, note="statistics.logsumexp") as s:
        if self.numel() != 0:
            # for complex numbers the real part's max (torch's comment); real is self here
            maxes = aten.amax.default(aten.real.default(self), dim, True)
            squeezed = maxes if keepdim else aten.squeeze.dims(maxes, dim)
            aten.masked_fill_.Scalar(squeezed, aten.eq.Scalar(aten.abs.default(squeezed),
                                                              float("inf")), 0)
            shifted = aten.exp_.default(aten.sub.Tensor(self, maxes))
            _sum_out(shifted, dim, keepdim, result)
            aten.add_.Tensor(aten.log_.default(result), squeezed)
        else:
            _sum_out(aten.exp.default(self), dim, keepdim, result)
            aten.log_.default(result)
        # an empty input's result is log(0) = -inf everywhere: nothing to bound
        note = _bound_note(result) if self.numel() else None
        if note is not None:
            s.note(note)
    return result


@declare("logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) "
         "-> Tensor(a!)", native="at::native::logsumexp_out", source=REDUCE, meta=META_PYTHON)
def logsumexp_out(self, dim, keepdim=False, *, out):
    check(out.dtype.is_floating_point or out.dtype.is_complex, RuntimeError,
          "logsumexp(): Expected floating point type for result tensor, but got: "
          f"{D.cpp_name(out.dtype)}")
    if D.is_integral(self.dtype, True):
        # for integral inputs, promote input to default floating type
        self = aten.to.dtype(self, current().default_dtype)
    return _logsumexp_impl(out, self, dim, keepdim)


@declare("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
         variants="function, method", native="at::native::logsumexp", source=REDUCE,
         meta=META_PYTHON)
def logsumexp(self, dim, keepdim=False):
    # even for integral inputs, the result is of the default floating dtype
    dtype = current().default_dtype if D.is_integral(self.dtype, True) else self.dtype
    result = aten.empty.memory_format([0], dtype=dtype, device=self.device_type)
    return aten.logsumexp.out(self, dim, keepdim, out=result)
