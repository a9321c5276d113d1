"""nll_loss and cross_entropy (aten/src/ATen/native/LossNLL.cpp), mse_loss and
binary_cross_entropy_with_logits (Loss.cpp).

``nll_loss_nd`` checks the batch sizes and calls ``nll_loss``, which is
``nll_loss_forward``'s first result.  Its CPU kernel (``nll_loss_out_frame``) is a
gather: for each row b the element ``input[b, target[b]]`` (a target equal to
``ignore_index`` is skipped, any other outside ``[0, n_classes)`` raises "Target 5 is out
of bounds."), negated (times ``weight[target]`` when given).  With ``reduction='none'``
each is written; otherwise they are added in the tensor's dtype with torch's cascade of
8 partial sums (a level flushed into the next every ``2^level_power`` rows), the partials
then added in order, and divided by the total weight for ``'mean'`` (the count of rows
not ignored, or the sum of their weights).  tidx replays that loop, so the bits are
torch's.

``cross_entropy_loss`` with class indices is ``nll_loss_nd(log_softmax(self, class_dim,
self.dtype), target, ...)``: the log-probabilities carry log_softmax's stated bound
(engine/ops/softmax.py), which the loss's step restates for its result.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.memory import empty as memory
from engine.ops.log_sigmoid import LIBRARY, LOG_SIGMOID_EPS
from engine.ops.scalar import WRAPPED_SCALAR_TENSOR, wrapped_scalar_tensor
from engine.ops.softmax import EXP_LIBRARY, LOG_SOFTMAX_EPS
from engine.ops.pointwise import broadcast, iterate
from engine.ops.touch import touched

LOSS_NLL = "aten/src/ATen/native/LossNLL.cpp"
#: at::Reduction (Reduction.h)
NONE, MEAN, SUM = 0, 1, 2
#: rows a loss may reduce here: the cascade is replayed one row at a time
MAX_ROWS = 1 << 17

NLL_LOSS_OUT_FRAME = step("nll_loss_out_frame", Layer.KERNEL, source=LOSS_NLL)


@declare("nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
         "SymInt ignore_index=-100) -> Tensor", kind=COMPOSITE,
         native="at::native::nll_loss_nd_symint", source=LOSS_NLL, python_module="nn")
def nll_loss_nd(self, target, weight=None, reduction=MEAN, ignore_index=-100):
    if self.dim() < 1:
        raise torch_error(ValueError, f"Expected 1 or more dimensions (got {self.dim()})")
    if self.dim() != 1 and self.view.sizes[0] != (target.view.sizes[0] if target.dim() else 1):
        raise torch_error(ValueError, f"Expected input batch_size ({self.view.sizes[0]}) to "
                          f"match target batch_size ({target.view.sizes[0] if target.dim() else 1}).")
    if self.dim() > 2:
        raise Refused("nll_loss of an input with more than 2 dims (nll_loss2d, or the "
                      "reshapes around it) is not modelled yet")
    return aten.nll_loss.default(self, target, weight, reduction, ignore_index)


@declare("nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
         "SymInt ignore_index=-100) -> Tensor", kind=COMPOSITE,
         native="at::native::nll_loss_symint", source=LOSS_NLL, python_module="nn")
def nll_loss(self, target, weight=None, reduction=MEAN, ignore_index=-100):
    return aten.nll_loss_forward.default(self, target, weight, reduction, ignore_index)[0]


def _cascade(picked: np.ndarray, weights: np.ndarray | None, dtype: np.dtype):
    """nll_loss_out_frame's sums: 8 partial sums in the tensor's dtype, level j flushed
    into level j+1 when the row's bits under level j's mask are all zero."""
    rows = picked.shape[0]
    levels = 8
    power = max(4, (int(rows - 1).bit_length() if rows > 1 else 0) // levels)
    mask = (1 << power) - 1
    zero = dtype.type(0)
    loss = [zero] * levels
    weight = [zero] * levels
    for b in range(rows):
        if picked[b] is None:
            continue
        value = picked[b]
        if weights is not None:
            loss[0] = dtype.type(loss[0] - dtype.type(value * weights[b]))
            weight[0] = dtype.type(weight[0] + weights[b])
        else:
            loss[0] = dtype.type(loss[0] - value)
        for j in range(levels - 1):
            if b & (mask << (j * power)):
                break
            weight[j + 1] = dtype.type(weight[j + 1] + weight[j])
            loss[j + 1] = dtype.type(loss[j + 1] + loss[j])
            weight[j] = loss[j] = zero
    total_loss, total_weight = zero, zero
    for j in range(levels):
        total_loss = dtype.type(total_loss + loss[j])
        total_weight = dtype.type(total_weight + weight[j])
    return total_loss, total_weight


@declare("nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
         "SymInt ignore_index) -> (Tensor output, Tensor total_weight)",
         native="at::native::nll_loss_forward_out_cpu (structured)", source=LOSS_NLL,
         meta=META_PYTHON, device_check=CHECK_WRAPPER, python_module="nn",
         at_dispatch=AT_DISPATCH("nll_loss_out_frame",
                                 "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def nll_loss_forward(self, target, weight, reduction, ignore_index):
    check(0 < self.dim() <= 2, RuntimeError, "input tensor should be 1D or 2D")
    check(target.dim() <= 1, RuntimeError,
          "0D or 1D target tensor expected, multi-target not supported")
    no_batch = self.dim() == 1 and target.dim() == 0
    check(no_batch or self.view.sizes[0] == target.view.sizes[0], RuntimeError,
          f"size mismatch (got input: {list(self.view.sizes)}, target: "
          f"{list(target.view.sizes)})")
    n_classes = self.view.sizes[-1]
    check(weight is None or (weight.dim() == 1 and weight.numel() == n_classes), RuntimeError,
          f"weight tensor should be defined either for all {n_classes} classes or no classes "
          f"but got weight tensor of shape: {list(weight.view.sizes) if weight is not None else []}")
    rows_out = reduction == NONE and self.dim() == 2
    output = memory.empty_generic((self.view.sizes[0],) if rows_out else (), self.dtype,
                                  self.device_type)
    total_weight = memory.empty_generic((), self.dtype, self.device_type)
    check(target.dtype in (D.int64, D.uint8), RuntimeError,
          f"expected target dtype to be Long or Byte, but got {D.cpp_name(target.dtype)}")
    dispatched(self.dtype)
    if self.dtype is D.float16:
        raise Refused("nll_loss of a float16 tensor is not modelled (its sums run in float)")
    rows = 1 if self.dim() == 1 else self.view.sizes[0]
    if rows > MAX_ROWS:
        raise Refused(f"nll_loss over more than {MAX_ROWS} rows is refused here: tidx "
                      "replays torch's cascade of sums one row at a time")
    with span(NLL_LOSS_OUT_FRAME, reduction=("none", "mean", "sum")[reduction],
              ignore_index=ignore_index) as s:
        if self.is_meta:
            s.set_result(output)
            return output, total_weight
        dtype = self.dtype.np
        data = self.array().reshape(rows, n_classes)
        targets = target.array().reshape(-1).astype(np.int64)
        w = None if weight is None else weight.array().astype(dtype)
        picked = []
        weights = []
        for b in range(rows if target.numel() else 0):
            t = int(targets[b])
            if t == ignore_index:
                picked.append(None)
                weights.append(dtype.type(0))
                continue
            if not 0 <= t < n_classes:
                raise torch_error(IndexError, f"Target {t} is out of bounds.")
            picked.append(data[b, t])
            weights.append(dtype.type(1) if w is None else w[t])
        if rows_out:
            out = output.array(write=True)
            for b, value in enumerate(picked):
                out[b] = dtype.type(0) if value is None else dtype.type(-value * weights[b])
            total_weight.array(write=True)[...] = 0
        elif target.numel() == 0:
            # no rows: output.fill_(NaN) for 'mean' (else zero_()), total_weight.zero_()
            if reduction == MEAN:
                aten.fill_.Scalar(output, float("nan"))
            else:
                aten.zero_.default(output)
            aten.zero_.default(total_weight)
        else:
            total, summed = _cascade(np.array(picked, dtype=object),
                                     None if w is None else np.array(weights, dtype=dtype),
                                     np.dtype(dtype))
            if w is None:
                summed = dtype.type(sum(v is not None for v in picked))
            with np.errstate(invalid="ignore", divide="ignore"):
                output.array(write=True)[...] = dtype.type(total / summed) if reduction == MEAN else total
            total_weight.array(write=True)[...] = summed
        s.set(read=touched(self), written=[touched(output), touched(total_weight)])
        s.set_result(output)
    return output, total_weight


CROSS_ENTROPY = step("cross_entropy_loss_symint", Layer.KERNEL, source=LOSS_NLL)


@declare("cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int "
         "reduction=Mean, SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor",
         kind=COMPOSITE, native="at::native::cross_entropy_loss_symint", source=LOSS_NLL,
         python_module="nn")
def cross_entropy_loss(self, target, weight=None, reduction=MEAN, ignore_index=-100,
                       label_smoothing=0.0):
    if self.view.sizes == target.view.sizes or label_smoothing > 0.0:
        raise Refused("cross_entropy with class probabilities or label_smoothing is not "
                      "modelled yet (class indices are)")
    class_dim = 0 if self.dim() == 1 else 1
    log_probs = aten.log_softmax.int(self, class_dim, self.dtype)
    result = aten.nll_loss_nd.default(log_probs, target, weight, reduction, ignore_index)
    if not result.is_meta:
        # each log-probability is within LOG_SOFTMAX_EPS * eps * max(1, |y|) of torch's;
        # the loss is a (weighted) sum or mean of them, summed in torch's order
        values = log_probs.array()
        eps = float(np.finfo(values.dtype).eps)
        finite = np.abs(values[np.isfinite(values)])
        per = LOG_SOFTMAX_EPS * eps * max(1.0, float(finite.max()) if finite.size else 0.0)
        terms = max(1, target.numel())
        scale = float(np.abs(weight.array()).max()) if weight is not None else 1.0
        bound = per * scale * (terms if reduction == SUM else 1) * 2
        with span(CROSS_ENTROPY) as s:
            s.note(Note("loss.cross_entropy_bound", library=EXP_LIBRARY,
                        bound=f"{bound:.3g}"))
    return result


# -- mse_loss (Loss.cpp, cpu/PointwiseOpsKernel.cpp's mse_kernel) --------------------------
LOSS = "aten/src/ATen/native/Loss.cpp"
MSE_KERNEL = "aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp"


def _mse(a, b):
    # mse_kernel: diff = a - b; diff * diff, each rounded in the dtype (Half in float)
    if a.dtype == np.float16:
        d = a.astype(np.float32) - b.astype(np.float32)
        return (d * d).astype(np.float16)
    d = a - b
    return d * d


@declare("mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor",
         native="at::native::mse_loss_out (structured)", source=LOSS, meta=META_PYTHON,
         python_module="nn",
         at_dispatch=AT_DISPATCH("mse_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def mse_loss(self, target, reduction=MEAN):
    """reduction='none': the squared differences over TensorIterator; otherwise the
    result is resized to a 0-dim tensor, the squared differences go to a temporary
    (``aten::empty``) and ``mean_out``/``sum_out`` reduce it into the result."""
    if self.dtype is not target.dtype:
        raise Refused("mse_loss of two dtypes (torch casts both inside the loss) is not "
                      "modelled yet")
    if reduction == NONE:
        return iterate("mse_loss", [self, target], _mse, at_dispatch=True,
                       source=MSE_KERNEL)
    result = memory.empty_generic(broadcast([self, target]), self.dtype, self.device_type)
    aten.resize_.default(result, ())
    loss = iterate("mse_loss", [self, target], _mse, at_dispatch=True, allocate="empty",
                   source=MSE_KERNEL)
    if reduction == SUM:
        return aten.sum.IntList_out(loss, [], False, out=result)
    return aten.mean.out(loss, [], False, out=result)


# -- binary_cross_entropy_with_logits (Loss.cpp) -------------------------------------------
BCE_BOUND = step("binary_cross_entropy_with_logits: the bound", Layer.KERNEL, source=LOSS)


@declare("binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, "
         "Tensor? pos_weight=None, int reduction=Mean) -> Tensor",
         native="at::native::binary_cross_entropy_with_logits", source=LOSS,
         meta=META_PYTHON)
def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None,
                                     reduction=MEAN):
    """Loss.cpp's CompositeExplicitAutograd kernel, each step an operator:
    ``log_sigmoid(input)``; with pos_weight ``(pos_weight - 1).mul(target).add_(1)``
    multiplied into it; ``(1 - target).mul_(input).sub_(log_sigmoid_input)``, times weight;
    then apply_loss_reduction (mean, sum or the elements).  log_sigmoid's values carry
    its bound (engine/ops/log_sigmoid.py), which the last step restates for the loss."""
    def number(value):
        return wrapped_scalar_tensor(value, WRAPPED_SCALAR_TENSOR)

    log_sigmoid_input = aten.log_sigmoid.default(self)
    log_weight = None
    if pos_weight is not None:
        log_weight = aten.add_.Tensor(aten.mul.Tensor(aten.sub.Tensor(pos_weight, number(1)),
                                                      target), number(1))
        log_sigmoid_input = aten.mul_.Tensor(log_sigmoid_input, log_weight)
    ones = aten.fill_.Scalar(aten.empty_like.default(target), 1)
    loss = aten.sub_.Tensor(aten.mul_.Tensor(aten.sub_.Tensor(ones, target), self),
                            log_sigmoid_input)
    if weight is not None:
        loss = aten.mul_.Tensor(loss, weight)
    if not self.is_meta and loss.numel():
        _bce_bound(self, loss, weight, log_weight, reduction, LIBRARY, LOG_SIGMOID_EPS)
    if reduction == MEAN:
        return aten.mean.default(loss)
    if reduction == SUM:
        return aten.sum.default(loss)
    return loss


def _bce_bound(self, loss, weight, log_weight, reduction, library: str, k: int) -> None:
    """How far the loss may be from torch's: each log_sigmoid value within k eps
    max(1, |y|) of torch's, scaled by the weights it is multiplied by, plus one rounding
    of the element; a sum's or mean's additions may each round the other way."""
    eps = float(np.finfo(self.dtype.np).eps)
    x = np.abs(self.array().astype(np.float64))
    per = k * eps * np.maximum(1.0, x + 1.0)      # |log_sigmoid(x)| <= |x| + log 2
    for factor in (weight, log_weight):
        if factor is not None:
            per = per * np.abs(np.broadcast_to(factor.array(), loss.view.sizes))
    values = np.abs(loss.array().astype(np.float64))
    finite = np.isfinite(values) & np.isfinite(per)
    per, values = per[finite], values[finite]
    element = per + eps * values
    n = max(1, int(values.size))
    if reduction == NONE:
        bound = float(element.max()) if element.size else 0.0
    else:
        bound = float(element.sum() + (n - 1) * eps * values.sum())
        if reduction == MEAN:
            bound = bound / n + eps * float(values.sum()) / n
    with span(BCE_BOUND) as s:
        s.note(Note("loss.bce_bound", library=library, bound=f"{bound:.3g}"))
