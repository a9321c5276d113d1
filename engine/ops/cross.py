"""cross and linalg.cross: the cross product of 3-vectors along a dim
(aten/src/ATen/native/Cross.cpp; cpu/CrossKernel.cpp apply_cross).

``linalg_cross`` is structured: its meta function checks that both inputs have the same
number of dims and that ``dim`` has length 3 in both (the dim as given in the message),
broadcasts their sizes (infer_size) and makes the output with the input's options; the
impl expands both inputs to the output's size (two ``aten::expand``) and calls
``cross_stub``, which switches on the output's dtype and reads both inputs as that dtype
(``const_data_ptr<scalar_t>()``: another dtype is "expected scalar type Float but found
Double").  Per 3-vector, in this order::

    r0 = a1*b2 - a2*b1;   r1 = a2*b0 - a0*b2;   r2 = a0*b1 - a1*b0

The AVX2 build (which an AVX512 CPU runs too: cross_stub has no AVX512 kernel) is
compiled with -mfma and GCC contracts each line into ``fma(a1, b2, -(a2*b1))``: the first
product unrounded; the DEFAULT build rounds both products.  c10::Half rounds each product
to half first on every build.  tidx computes each line the build's way, so the bits are
torch's (measured over 20,000 vectors, float, double and half, every capability).

``cross`` (CompositeImplicitAutograd) warns when no dim is given (TORCH_WARN_ONCE: the
first such call of a run shows it, later ones show nothing, as in one torch process) and takes the first dim of size 3, then calls linalg_cross.
"""

from __future__ import annotations

import numpy as np

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.dispatch_stub import DispatchStub
from engine.core.errors import check
from engine.core.warn_once import warn_once
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, META_PYTHON, OUT, declare,
                                          structured)
from engine.memory import empty as memory
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched
from engine.rng.fp import fma32, fma64

CROSS = "aten/src/ATen/native/Cross.cpp"
KERNEL = "aten/src/ATen/native/cpu/CrossKernel.cpp"

CROSS_STUB = DispatchStub("cross_stub", avx512=False, source=KERNEL)
APPLY_CROSS = step("apply_cross", Layer.KERNEL, source=KERNEL)
DEFAULT_DIM_WARNING = step("TORCH_WARN_ONCE", Layer.KERNEL, source=CROSS,
                           note="cross.default_dim")


def _meta(self, other, dim: int) -> tuple[int, ...]:
    """TORCH_META_FUNC(linalg_cross): the output's sizes."""
    check(self.dim() == other.dim(), RuntimeError,
          "linalg.cross: inputs must have the same number of dimensions.")
    a_size = self.view.sizes[S.maybe_wrap_dim(dim, self.dim())]
    b_size = other.view.sizes[S.maybe_wrap_dim(dim, other.dim())]
    check(a_size == 3 and b_size == 3, RuntimeError,
          f"linalg.cross: inputs dimension {dim} must have length 3. Got {a_size} and "
          f"{b_size}")
    shape = S.broadcast_shapes(self.view.sizes, other.view.sizes)     # at::infer_size
    if shape is None:
        raise S.broadcast_error(self.view.sizes, other.view.sizes)
    return shape


def _line(build_fma: bool, x: np.ndarray, y: np.ndarray, u: np.ndarray, v: np.ndarray,
          dtype: D.dtype) -> np.ndarray:
    """``x*y - u*v`` as the build computes it."""
    with np.errstate(all="ignore"):
        if dtype.is_floating_point and dtype is not D.float16 and build_fma:
            fma = fma32 if dtype is D.float32 else fma64
            return fma(x, y, -(u * v))
        return x * y - u * v          # integers wrap as int64_t does; Half rounds each


def _apply_cross(result, a, b, dim: int) -> None:
    """cross_stub -> cross_kernel_impl -> apply_cross<scalar_t>."""
    dispatched(result.dtype)
    # const_data_ptr<scalar_t>(): each input must be of the output's dtype
    for t in (a, b):
        check(t.dtype is result.dtype, RuntimeError,
              f"expected scalar type {D.cpp_name(result.dtype)} but found "
              f"{D.cpp_name(t.dtype)}")
    build = CROSS_STUB.call(result.dtype, result.dtype.itemsize)
    with span(APPLY_CROSS, dim=dim, note="cross.kernel") as s:
        if not result.is_meta and result.numel():
            x = np.moveaxis(a.array(), dim, -1)
            y = np.moveaxis(b.array(), dim, -1)
            out = np.moveaxis(result.array(write=True), dim, -1)
            f = build.fma
            out[..., 0] = _line(f, x[..., 1], y[..., 2], x[..., 2], y[..., 1], result.dtype)
            out[..., 1] = _line(f, x[..., 2], y[..., 0], x[..., 0], y[..., 2], result.dtype)
            out[..., 2] = _line(f, x[..., 0], y[..., 1], x[..., 1], y[..., 0], result.dtype)
            s.set(capability=build.describe(), read=[touched(a), touched(b)],
                  written=touched(result))
        s.set_result(result)


@structured("linalg_cross.out(Tensor self, Tensor other, *, int dim=-1, Tensor(a!) out) "
            "-> Tensor(a!)", native="at::native::linalg_cross_out (structured)",
            out_native="at::native::linalg_cross_out (structured)", source=CROSS,
            inplace=False, variants="function", python_module="linalg", meta=META_PYTHON,
            device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER,
            at_dispatch=AT_DISPATCH("cross",
                                    "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16)"))
def linalg_cross(form: str, self, other, *, dim=-1, out):
    shape = _meta(self, other, dim)
    # set_output_raw_strided(0, out_size, {}, input.options())
    if form == OUT:
        check(out.dtype is self.dtype, RuntimeError,
              f"Expected out tensor to have dtype {D.type_meta_name(self.dtype)}, but got "
              f"{D.type_meta_name(out.dtype)} instead")
        resize_output(out, shape, S.contiguous_strides(shape))
        result = out
    else:
        result = memory.empty_generic(shape, self.dtype, self.device_type)
    # TORCH_IMPL_FUNC(linalg_cross_out)
    wrapped = S.maybe_wrap_dim(dim, self.dim())
    a = aten.expand.default(self, list(result.view.sizes))
    b = aten.expand.default(other, list(result.view.sizes))
    _apply_cross(result, a, b, wrapped)
    return result


def _default_dim(self, dim) -> int:
    """_default_cross_dim: the dim given, else the first of size 3 (with the warning)."""
    if dim is not None:
        return dim
    with warn_once(DEFAULT_DIM_WARNING, "cross.default_dim"):
        pass
    for i, n in enumerate(self.view.sizes):
        if n == 3:
            return i
    check(False, RuntimeError, "no dimension of size 3 in input")
    raise AssertionError("unreachable")


@declare("cross(Tensor self, Tensor other, int? dim=None) -> Tensor",
         variants="method, function", kind=COMPOSITE, native="at::native::cross",
         source=CROSS)
def cross(self, other, dim=None):
    return aten.linalg_cross.default(self, other, dim=_default_dim(self, dim))


@declare("cross.out(Tensor self, Tensor other, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::cross_out", source=CROSS)
def cross_out(self, other, dim=None, *, out):
    return aten.linalg_cross.out(self, other, dim=_default_dim(self, dim), out=out)
