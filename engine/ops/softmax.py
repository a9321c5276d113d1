"""softmax and log_softmax (aten/src/ATen/native/SoftMax.cpp, cpu/SoftMaxKernel.cpp).

``softmax.int`` and ``log_softmax.int`` are CompositeImplicitAutograd: the input is cast
to ``dtype=`` when one is given (``input_.toType(dtype)``: torch.profiler's ``aten::to``),
then ``at::_softmax(converted, dim, false)``.  ``_softmax``'s structured CPU kernel
(``softmax_cpu_out``) makes the input contiguous (``aten::contiguous`` when it is not),
views a 0-dim input as one element, and picks one of two loops:

* the last dim (``_vec_softmax_lastdim``): per row, the maximum (``vec::reduce_all``),
  ``exp(x - max)`` stored, their sum by ``vec::reduce_all`` -- one accumulator per vector
  lane, the lanes then folded (AVX2/AVX512 float: pairs by shuffles; otherwise lane 0 +
  lane 1 + ... in order) -- then ``tmp_sum = 1 / tmp_sum`` and every element multiplied
  by it; log_softmax (``_vec_log_softmax_lastdim``) takes ``log`` of the same sum
  (``vec::map_reduce_all``) and writes ``x - max - log(sum)`` in that order;
* any other dim (``_vec_softmax``): per position, the maximum along the dim, the sum
  ``0 + e_0 + e_1 + ...`` in order, and each ``e_d / sum`` (a division this time).

tidx replays that order exactly; what it cannot replay is ``exp`` itself (Sleef's
vectorised exp in the loop's body, glibc's in the non-last-dim loop's scalar tail) and
``log``.  So tidx computes ``exp`` with numpy and states a bound (docs/fidelity-math.md):
a softmax element is within 7 ulp of torch's (the exp's 2 ulp, carried into the sum
as a relative difference of at most 2 ulp, then the reciprocal and the product: measured
at most 6 over 2^20 rows of 1 to 4,099 elements under AVX512, AVX2 and DEFAULT).  A
log_softmax element is ``(x - max) - log(sum)``: the sum's relative difference becomes
an absolute one in ``log(sum)``, which is why no ulp bound fits an element near 0;
instead it is within ``3 * eps * max(1, |y|)`` of torch's (measured at most 2).
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched

SOFTMAX = "aten/src/ATen/native/SoftMax.cpp"
KERNEL = "aten/src/ATen/native/cpu/SoftMaxKernel.cpp"

#: the measured bounds (docs/fidelity-math.md): softmax in ulp, log_softmax in units of
#: ``eps * max(1, |y|)``
SOFTMAX_ULPS = 7
LOG_SOFTMAX_EPS = 3
EXP_LIBRARY = "Sleef's vectorised exp (glibc's in a scalar tail)"

SOFTMAX_LASTDIM = step("softmax_lastdim_kernel", Layer.KERNEL, source=KERNEL)
SOFTMAX_KERNEL = step("softmax_kernel", Layer.KERNEL, source=KERNEL)
LOG_SOFTMAX_LASTDIM = step("log_softmax_lastdim_kernel", Layer.KERNEL, source=KERNEL)
LOG_SOFTMAX_KERNEL = step("log_softmax_kernel", Layer.KERNEL, source=KERNEL)

_FLOATS = "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"


def _lanes(dtype: np.dtype) -> int:
    """Vectorized<T>::size(): 64-byte vectors under AVX512, 32-byte ones otherwise (the
    DEFAULT build's too: vec_base.h's VECTOR_WIDTH)."""
    width = 64 if current().cpu.name == "AVX512" else 32
    return width // np.dtype(dtype).itemsize


def _fold(acc: np.ndarray) -> np.ndarray:
    """vec_reduce_all over one vector's lanes: AVX2/AVX512 float folds halves by shuffles
    (lane i + lane i^k for k = W/2 ... 1); every other case adds lane 1, 2, ... to lane 0
    in order (functional_base.h)."""
    width = acc.shape[-1]
    if acc.dtype == np.float32 and current().cpu.name in ("AVX2", "AVX512"):
        k = width // 2
        while k:
            acc = acc + acc[..., np.arange(width) ^ k]
            k //= 2
        return acc[..., 0]
    total = acc[..., 0].copy()
    for lane in range(1, width):
        total = total + acc[..., lane]
    return total


def _reduce_sum(e: np.ndarray) -> np.ndarray:
    """vec::reduce_all(+) over the last axis: a vector accumulator over full vectors, the
    tail added into its first lanes, then the lanes folded; fewer elements than a vector
    are added in order."""
    n, width = e.shape[-1], _lanes(e.dtype)
    if n < width:
        total = e[..., 0].copy()
        for i in range(1, n):
            total = total + e[..., i]
        return total
    acc = e[..., :width].copy()
    d = width
    while d < n - n % width:
        acc = acc + e[..., d:d + width]
        d += width
    if n > d:
        acc[..., :n - d] = acc[..., :n - d] + e[..., d:]
    return _fold(acc)


def _values(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """The kernel's arithmetic on a contiguous array, in its order (numpy's exp and log)."""
    last = dim == x.ndim - 1
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        m = x.max(axis=dim, keepdims=True)
        shifted = x - m
        e = np.exp(shifted)
        if last:
            total = _reduce_sum(e)[..., None]
        else:
            moved = np.moveaxis(e, dim, 0)
            acc = moved[0].copy()
            for d in range(1, moved.shape[0]):
                acc = acc + moved[d]
            total = np.expand_dims(acc, dim)
        if log:
            return shifted - np.log(total)
        if last:
            return e * (x.dtype.type(1) / total)
        return e / total


def _log_bound(values: np.ndarray) -> float:
    eps = float(np.finfo(values.dtype).eps)
    finite = values[np.isfinite(values)]
    top = float(np.abs(finite).max()) if finite.size else 0.0
    return LOG_SOFTMAX_EPS * eps * max(1.0, top)


def _host_softmax(self, dim: int, half_to_float: bool, log: bool, out=None):
    """TORCH_META_FUNC(_softmax) / softmax_cpu_out (and their log_ twins), into a new
    tensor or the out= tensor ``out`` (set_output: its dtype checked, then resized)."""
    name = "log_softmax" if log else "softmax"
    dim_ = S.maybe_wrap_dim(dim, self.dim())
    check(not half_to_float, RuntimeError,
          f"{name} with half to float conversion is not supported on CPU")
    check(0 <= dim_ < max(self.dim(), 1), RuntimeError,
          "dim must be non-negative and less than input dimensions")
    if out is None:
        result = memory.empty_generic(self.view.sizes, self.dtype, self.device_type)
    else:
        check(out.dtype is self.dtype, RuntimeError,
              f"Expected out tensor to have dtype {D.type_meta_name(self.dtype)}, but got "
              f"{D.type_meta_name(out.dtype)} instead")
        resize_output(out, self.view.sizes, S.contiguous_strides(self.view.sizes))
        if not out.is_contiguous():
            # the kernel writes its output as a contiguous one (softmax.int_out routes a
            # strided out= tensor through a temporary; a direct call does not)
            raise Refused(f"_{name}(..., out=) into a non-contiguous out= tensor is not "
                          "modelled by tidx")
        result = out
    if self.numel() == 0:
        return result
    src = self if self.is_contiguous() else aten.contiguous.default(self)
    if src.dim() == 0:
        src = aten.view.default(src, (1,))
    last = dim_ == src.dim() - 1
    kernel = f"{name}_lastdim_kernel_impl" if last else f"{name}_kernel_impl"
    dispatched(self.dtype, kernel)
    if self.dtype is D.float16:
        raise Refused(f"{name} of a float16 tensor is not modelled (torch computes it in "
                      "float and rounds); use float32 or float64")
    spec = ((LOG_SOFTMAX_LASTDIM if last else LOG_SOFTMAX_KERNEL) if log else
            (SOFTMAX_LASTDIM if last else SOFTMAX_KERNEL))
    with span(spec, dim=dim_) as s:
        if not self.is_meta:
            check_temporary(name, self.numel(), 4 * self.dtype.itemsize)
            values = _values(src.array(), dim_, log).reshape(self.view.sizes)
            result.array(write=True)[...] = values
            if log:
                s.note(Note("softmax.log_bound", op=name, library=EXP_LIBRARY,
                            bound=f"{_log_bound(values):.3g}", eps=LOG_SOFTMAX_EPS))
            else:
                s.note(Note("math.within_ulps", op=name, library=EXP_LIBRARY,
                            ulps=SOFTMAX_ULPS))
            s.set(read=touched(src), written=touched(result))
        s.set_result(result)
    return result


@declare("softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
         variants="function, method", kind=COMPOSITE, native="at::native::softmax",
         source=SOFTMAX)
def softmax(self, dim: int, dtype=None):
    converted = aten.to.dtype(self, dtype) if dtype is not None else self
    return aten._softmax.default(converted, dim, False)


@declare("log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
         variants="function, method", kind=COMPOSITE, native="at::native::log_softmax",
         source=SOFTMAX)
def log_softmax(self, dim: int, dtype=None):
    converted = aten.to.dtype(self, dtype) if dtype is not None else self
    return aten._log_softmax.default(converted, dim, False)


@declare("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
         native="at::native::softmax_cpu_out (structured)", source=SOFTMAX,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=(AT_DISPATCH("softmax_lastdim_kernel_impl", _FLOATS),
                      AT_DISPATCH("softmax_kernel_impl", _FLOATS)))
def _softmax(self, dim: int, half_to_float: bool):
    return _host_softmax(self, dim, half_to_float, log=False)


@declare("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor",
         native="at::native::log_softmax_cpu_out (structured)", source=SOFTMAX,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=(AT_DISPATCH("log_softmax_lastdim_kernel_impl", _FLOATS),
                      AT_DISPATCH("log_softmax_kernel_impl", _FLOATS)))
def _log_softmax(self, dim: int, half_to_float: bool):
    return _host_softmax(self, dim, half_to_float, log=True)


@declare("_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::softmax_cpu_out (structured)", source=SOFTMAX,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=(AT_DISPATCH("softmax_lastdim_kernel_impl", _FLOATS),
                      AT_DISPATCH("softmax_kernel_impl", _FLOATS)))
def _softmax_out(self, dim: int, half_to_float: bool, *, out):
    return _host_softmax(self, dim, half_to_float, log=False, out=out)


@declare("_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::log_softmax_cpu_out (structured)", source=SOFTMAX,
         meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=(AT_DISPATCH("log_softmax_lastdim_kernel_impl", _FLOATS),
                      AT_DISPATCH("log_softmax_kernel_impl", _FLOATS)))
def _log_softmax_out(self, dim: int, half_to_float: bool, *, out):
    return _host_softmax(self, dim, half_to_float, log=True, out=out)


def _int_out(self, dim: int, dtype, out, log: bool):
    """softmax_out / log_softmax_out (SoftMax.cpp, CompositeExplicitAutograd): the
    converted input's _softmax into the out= tensor when it is contiguous; else into a
    temporary (at::empty), then out.resize_ and copy_."""
    inner = aten._log_softmax if log else aten._softmax
    converted = aten.to.dtype(self, dtype) if dtype is not None else self
    if out.is_contiguous():
        return inner.out(converted, dim, False, out=out)
    temp = aten.empty.memory_format([0], dtype=out.dtype, device=out.device_type)
    inner.out(converted, dim, False, out=temp)
    aten.resize_.default(out, temp.view.sizes)
    return aten.copy_.default(out, temp)


@declare("softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::softmax_out", source=SOFTMAX)
def softmax_int_out(self, dim: int, dtype=None, *, out):
    return _int_out(self, dim, dtype, out, log=False)


@declare("log_softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::log_softmax_out", source=SOFTMAX)
def log_softmax_int_out(self, dim: int, dtype=None, *, out):
    return _int_out(self, dim, dtype, out, log=True)
