"""binary_cross_entropy and its backward (aten/src/ATen/native/Loss.cpp): what
``F.binary_cross_entropy(torch.sigmoid(z), y)`` runs.

``binary_cross_entropy_cpu`` makes ``loss = empty_like(input)`` and runs a scalar loop
(``cpu_kernel``, no vector body) over the squeezed loss, input and target:
``(t - 1) * max(log1p(-x), -100) - t * max(log(x), -100)``, checking each element first
("all elements of input should be between 0 and 1", then the target's).  ``std::log`` and
``std::log1p`` are glibc's (``logf``/``log1pf`` for a float), which tidx calls too
(through ctypes and Python's math module), so the bits are torch's on the same machine.  Then the weight
(``mul_``) and, for a mean or sum, the reduction, after which ``loss.resize_as_`` takes the
0-dim result's shape and ``copy_`` its value: the 0-dim loss keeps the whole storage.

The backward is ``grad * (x - t) / max((1 - x) * x, 1e-12)`` over the same kind of loop,
times the weight, divided by the count for a mean: exactly rounded, torch's bits.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np

from engine.core import dtypes as D
from engine.core.errors import Refused, torch_error
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.ops.parallel import GRAIN_SIZE
from engine.ops.pointwise import iterate
from engine.ops.touch import storage_offsets
from engine.rng import libm

LOSS = "aten/src/ATen/native/Loss.cpp"
NONE, MEAN, SUM = 0, 1, 2
#: the most elements tidx takes glibc's log1pf of (one call each through ctypes)
MAX_FLOAT_ELEMENTS = 1 << 20
_DISPATCH = "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"


def _float_logs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """glibc's log1pf(-x) and logf(x), one call each (ctypes): the vectorised copy of
    logf in engine/rng/libm.py covers the RNG's inputs, not subnormals."""
    lib = libm._libm()
    if lib is None:
        raise Refused("binary_cross_entropy of a float tensor needs glibc's logf and "
                      "log1pf, which this system's libm lacks")
    for fn in (lib.logf, lib.log1pf):
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    flat = x.ravel().tolist()
    log1p = np.fromiter((lib.log1pf(-v) for v in flat), np.float32, x.size)
    log = np.fromiter((lib.logf(v) for v in flat), np.float32, x.size)
    return log1p.reshape(x.shape), log.reshape(x.shape)


def _glibc_logs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """glibc's log1p(-x) and log(x), in x's dtype (logf/log1pf for float32); x is in
    [0, 1] (the loop's checks ran first)."""
    if x.dtype == np.float32:
        if x.size > MAX_FLOAT_ELEMENTS:
            raise Refused(f"binary_cross_entropy over more than {MAX_FLOAT_ELEMENTS} float "
                          "elements is refused: tidx calls glibc's logf and log1pf once per "
                          "element")
        return _float_logs(x)
    flat = x.ravel().tolist()
    log1p = np.fromiter((math.log1p(-v) if v < 1 else -math.inf for v in flat),
                        np.float64, x.size)
    log = np.fromiter((math.log(v) if v > 0 else -math.inf for v in flat), np.float64, x.size)
    return log1p.reshape(x.shape), log.reshape(x.shape)


def _first_bad(x: np.ndarray, t: np.ndarray, order: np.ndarray) -> None:
    """The loop's TORCH_CHECKs: per element, the input's range, then the target's.  Over
    more than one grain of elements the threads race: when both messages are possible
    tidx cannot say which one torch raises."""
    bad_x = ~((x >= 0) & (x <= 1))
    bad_t = ~((t >= 0) & (t <= 1))
    if not (bad_x.any() or bad_t.any()):
        return
    messages = {"input": "all elements of input should be between 0 and 1",
                "target": "all elements of target should be between 0 and 1"}
    flat_x, flat_t = bad_x.ravel()[order], bad_t.ravel()[order]
    first = int(np.argmax(flat_x | flat_t))
    kind = "input" if flat_x[first] else "target"
    if x.size > GRAIN_SIZE and flat_x.any() and flat_t.any():
        raise Refused("binary_cross_entropy over more than one grain of elements with both "
                      "an input and a target out of [0, 1]: which check torch's threads "
                      "raise first is not determined")
    raise torch_error(RuntimeError, messages[kind])


def _memory_order(tensor) -> np.ndarray:
    """The element indices (C order) sorted by their offset in ``tensor``'s memory: the
    order TensorIterator walks an output laid out like it."""
    offsets = storage_offsets(tensor.view.sizes, tensor.view.strides, 0)
    return np.argsort(offsets, kind="stable")


@declare("binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, "
         "int reduction=Mean) -> Tensor",
         native="at::native::binary_cross_entropy_cpu", source=LOSS, python_module="nn",
         meta=META_PYTHON, at_dispatch=AT_DISPATCH("binary_cross_entropy", _DISPATCH))
def binary_cross_entropy(self, target, weight=None, reduction=MEAN):
    if self.dtype is D.float16:
        raise Refused("binary_cross_entropy of a float16 tensor is not modelled by tidx "
                      "(torch computes each log in float and rounds); float32 and float64 are")
    loss = aten.empty_like.default(self)
    squeezed = [aten.squeeze.default(t) for t in (loss, self, target)]
    # TensorIteratorConfig's check_all_same_dtype, as it builds
    if target.dtype is not self.dtype:
        raise torch_error(RuntimeError, f"Found dtype {D.cpp_name(target.dtype)} but expected "
                          f"{D.cpp_name(self.dtype)}")
    loss_squeezed = squeezed[0]
    order = _memory_order(loss_squeezed)

    def loop(x, t):
        _first_bad(x, t, order)
        log1p, log = _glibc_logs(x)
        floor = x.dtype.type(-100)
        one = x.dtype.type(1)
        return (t - one) * np.maximum(log1p, floor) - t * np.maximum(log, floor)

    iterate("binary_cross_entropy", squeezed[1:], loop, out=loss_squeezed, resize=True, at_dispatch=True, source=LOSS)
    if weight is not None:
        aten.mul_.Tensor(loss, weight)
    if reduction != NONE:
        reduced = aten.mean.default(loss) if reduction == MEAN else aten.sum.default(loss)
        aten.copy_.default(aten.resize_as_.default(loss, reduced), reduced)
    return loss


@declare("binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, "
         "Tensor? weight=None, int reduction=Mean) -> Tensor",
         native="at::native::binary_cross_entropy_backward_cpu", source=LOSS,
         python_module="nn", meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=AT_DISPATCH("binary_cross_entropy_backward", _DISPATCH))
def binary_cross_entropy_backward(grad_output, self, target, weight=None, reduction=MEAN):
    grad_input = aten.empty_like.default(self)
    squeezed = aten.squeeze.default(grad_input)

    def loop(g, x, t):
        # Loss.cpp's EPSILON is a float: 1e-12 rounded to float, then to scalar_t
        one, eps = x.dtype.type(1), x.dtype.type(np.float32(1e-12))
        return g * (x - t) / np.maximum((one - x) * x, eps)

    iterate("binary_cross_entropy_backward",
            [aten.squeeze.default(grad_output), aten.squeeze.default(self),
             aten.squeeze.default(target)], loop, out=squeezed, resize=True,
            at_dispatch=True, source=LOSS)
    if weight is not None:
        aten.mul_.Tensor(grad_input, weight)
    if reduction == MEAN:
        aten.div_.Scalar(grad_input, self.numel())
    return grad_input
