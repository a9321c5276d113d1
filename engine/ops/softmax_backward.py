"""softmax's and log_softmax's backward operators (issue #27): what SoftmaxBackward0 and
LogSoftmaxBackward0 call (aten/src/ATen/native/SoftMax.cpp, cpu/SoftMaxKernel.cpp).

``_softmax_backward_data(grad, output, dim, input_dtype)``'s structured CPU kernel makes
both tensors contiguous (``aten::contiguous`` where one is not: the gradient of a sum is
an expanded one), and picks one of two loops:

* the last dim (``_vec_host_softmax_backward_lastdim``): per row, softmax's
  ``sum = vec::map2_reduce_all(g * y)`` -- the products' vector accumulator, the tail
  added into its first lanes, the lanes folded as the forward's sum is
  (engine/ops/softmax.py) -- then ``(g - sum) * y``; log_softmax's ``sum =
  vec::reduce_all(g)`` then ``g - exp(y) * sum``;
* any other dim (``_vec_softmax_backward``): per position, ``0 + g_0 * y_0 + g_1 * y_1
  + ...`` in order -- each step one fused multiply-add in the AVX2 and AVX512 builds (the
  compiler contracts ``sum += g * y``; the DEFAULT build rounds the product first:
  measured) -- (log_softmax: ``0 + g_0 + g_1 + ...``), then the same elementwise step.

softmax's backward is exactly rounded arithmetic: tidx gives torch's bits for the same
output ``y`` (tidx's forward ``y`` is within the forward's stated bound of torch's, and
carries it into the gradient).  log_softmax's takes ``exp`` (Sleef's vectorised one): its
values are within the bound the forward states for exp, carried through one product and
one subtraction.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import Refused, check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.softmax import EXP_LIBRARY, _reduce_sum
from engine.ops.touch import touched

SOFTMAX = "aten/src/ATen/native/SoftMax.cpp"
KERNEL = "aten/src/ATen/native/cpu/SoftMaxKernel.cpp"
#: log_softmax's backward: exp's 2 ulp through ``g - exp(y) * sum``, in units of
#: ``eps * max(1, |g|, |exp(y) * sum|)``
LOG_BACKWARD_EPS = 4

STEPS = {(log, last): step(f"{'log_' if log else ''}softmax_backward_"
                           f"{'lastdim_' if last else ''}kernel", Layer.KERNEL, source=KERNEL)
         for log in (False, True) for last in (False, True)}


#: the most multiply-adds tidx rounds exactly (one Fraction each) for a fused sum
MAX_FUSED = 1 << 16


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` rounded once, as the AVX2/AVX512 builds compute the non-last-dim
    loop's ``sum += g * y`` (the compiler contracts it into an FMA; measured: the DEFAULT
    build rounds the product first)."""
    exact = np.frompyfunc(lambda x, y, z: float(Fraction(float(x)) * Fraction(float(y))
                                                + Fraction(float(z))), 3, 1)
    return exact(a, b, c).astype(a.dtype)


def _values(g: np.ndarray, y: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """The kernel's arithmetic on contiguous arrays, in its order."""
    last = dim == g.ndim - 1
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        if last:
            total = _reduce_sum(g if log else g * y)[..., None]
        else:
            moved_g, moved_y = np.moveaxis(g, dim, 0), np.moveaxis(y, dim, 0)
            fused = not log and current().cpu.name in ("AVX2", "AVX512")
            acc = np.zeros_like(moved_g[0])
            for d in range(moved_g.shape[0]):
                if log:
                    acc = acc + moved_g[d]
                elif fused:
                    acc = _fma(moved_g[d], moved_y[d], acc)
                else:
                    acc = acc + moved_g[d] * moved_y[d]
            total = np.expand_dims(acc, dim)
        if log:
            return g - np.exp(y) * total
        return (g - total) * y


def _backward(grad_output, output, dim: int, input_dtype, log: bool):
    name = "_log_softmax_backward_data" if log else "_softmax_backward_data"
    check(grad_output.dtype is output.dtype, RuntimeError,
          f"expected grad_output and output to have the same dtype, but got "
          f"{grad_output.dtype} and {output.dtype}")
    if grad_output.dtype not in (D.float32, D.float64):
        raise Refused(f"{name} in {grad_output.dtype} is not modelled by tidx")
    dim_ = S.maybe_wrap_dim(dim, grad_output.dim())
    result = memory.empty_generic(grad_output.view.sizes, grad_output.dtype,
                                  grad_output.device_type)
    g = grad_output if grad_output.is_contiguous() else aten.contiguous.default(grad_output)
    y = output if output.is_contiguous() else aten.contiguous.default(output)
    if output.numel() == 0:
        return result
    last = dim_ == max(g.dim(), 1) - 1
    if not log and not last and g.numel() > MAX_FUSED:
        raise Refused(f"softmax's backward along a dim that is not the last, over more than "
                      f"{MAX_FUSED} elements, is refused: tidx rounds each of its fused "
                      "multiply-adds exactly, one at a time")
    with span(STEPS[(log, last)], dim=dim_) as s:
        if not g.is_meta:
            check_temporary(name, g.numel(), 3 * g.dtype.itemsize)
            ga = g.array().reshape(g.view.sizes or (1,))
            ya = y.array().reshape(y.view.sizes or (1,))
            values = _values(ga, ya, dim_, log).reshape(grad_output.view.sizes)
            result.array(write=True)[...] = values
            if log:
                s.note(Note("softmax.backward_bound", library=EXP_LIBRARY,
                            eps=LOG_BACKWARD_EPS))
            else:
                s.note("softmax.backward")
            s.set(read=[touched(g), touched(y)], written=touched(result))
        s.set_result(result)
    return result


@declare("_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType "
         "input_dtype) -> Tensor", native="at::native::softmax_backward_cpu_out (structured)",
         source=SOFTMAX, meta=META_PYTHON, device_check=CHECK_WRAPPER)
def softmax_backward_data(grad_output, output, dim: int, input_dtype):
    return _backward(grad_output, output, dim, input_dtype, log=False)


@declare("_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType "
         "input_dtype) -> Tensor",
         native="at::native::log_softmax_backward_cpu_out (structured)", source=SOFTMAX,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def log_softmax_backward_data(grad_output, output, dim: int, input_dtype):
    return _backward(grad_output, output, dim, input_dtype, log=True)
