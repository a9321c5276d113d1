"""gelu and silu (aten/src/ATen/native/Activation.cpp, cpu/Activation.cpp): structured
activations over TensorIterator whose CPU loops run Sleef's (or the vectorised erf's)
functions in the vector body and libm's in the scalar tail, which tidx cannot replay.

* ``silu``: ``x / (1 + exp(-x))``.  tidx's value (numpy's exp) is within 5 ulp in float
  and 3 in double (measured at most 4 and 2 over 450,000 values, contiguous, strided and
  in 7-element tails, under AVX512, AVX2 and DEFAULT): ``math.within_ulps``.
* ``gelu``: ``x * 0.5 * (1 + erf(x / sqrt 2))``, or with ``approximate='tanh'``
  ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))``.  Where ``1 + erf`` cancels
  (x below about -3) an element has no ulp bound; each is within ``K * eps * |x|`` of
  torch's (K = 5 for float and 2 for double with erf, 3 with tanh; measured at most
  3.5, 1 and 1.8), stated as an absolute bound over the tensor: ``softmax.log_bound``'s
  kind, which --verify compares within.  torch's vectorised float erf gives NaN for
  gelu(+inf) in a loop's body and inf in its scalar tail: an infinite float input is
  refused in one line.  float16 is refused (computed in float, rounded).
"""

from __future__ import annotations

import math

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import CHECK_WRAPPER, INPLACE, META_PYTHON, OUT, structured
from engine.ops.pointwise import iterate

ACTIVATION = "aten/src/ATen/native/Activation.cpp"
KERNEL = "aten/src/ATen/native/cpu/Activation.cpp"
SILU_ULPS = {D.float32: 5, D.float64: 3}
GELU_EPS = {("none", D.float32): 5, ("none", D.float64): 2, ("tanh", D.float32): 3,
            ("tanh", D.float64): 3}
SLEEF = "Sleef's vectorised exp (glibc's in a loop's tail)"


def _same_dtype(form: str, self, out) -> None:
    if form == OUT:
        check(out.dtype is self.dtype, RuntimeError,
              f"Found dtype {D.cpp_name(out.dtype)} but expected {D.cpp_name(self.dtype)}")


def _float_only(name: str, dtype: D.dtype) -> None:
    if dtype is D.float16:
        raise Refused(f"{name} of a float16 tensor is not modelled (torch computes it in "
                      "float and rounds); use float32 or float64")


def _silu(x):
    with np.errstate(over="ignore"):
        return x / (x.dtype.type(1) + np.exp(-x))


@structured("silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::silu (structured)", out_native="at::native::silu_out (structured)",
            source=ACTIVATION, variants="function", inplace_variants="function",
            python_module="nn", meta=META_PYTHON, device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER,
            at_dispatch=AT_DISPATCH("silu_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def silu(form: str, self, *, out):
    _same_dtype(form, self, out)

    def loop(a):
        _float_only("silu", D.from_numpy(a.dtype))
        return _silu(a)
    dtype = self.dtype
    note = (Note("math.within_ulps", op="silu", library=SLEEF, ulps=SILU_ULPS[dtype])
            if dtype in SILU_ULPS else None)
    return iterate("silu_" if form == INPLACE else "silu", [self], loop, out=out,
                   resize=form == OUT, at_dispatch=True, source=KERNEL, note=note)


def _gelu_loop(approximate: str):
    def loop(x):
        _float_only("gelu", D.from_numpy(x.dtype))
        t = x.dtype.type
        if approximate == "none":
            if x.dtype == np.float32 and np.isinf(x).any():
                raise Refused("gelu of an infinite float: torch's vectorised erf gives NaN "
                              "in its loop's body and its scalar tail gives inf, which one an "
                              "element meets depends on its position (not modelled)")
            erf = np.vectorize(math.erf, otypes=[np.float64])(
                x.astype(np.float64) * 0.7071067811865476).astype(x.dtype)
            with np.errstate(invalid="ignore"):
                return (x * t(0.5)) * (t(1) + erf)
        beta, kappa = t(math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5), t(0.044715)
        with np.errstate(over="ignore", invalid="ignore"):
            inner = beta * (x + kappa * (x * x * x))
            return t(0.5) * x * (t(1) + np.tanh(inner))
    return loop


@structured("gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out) -> Tensor(a!)",
            native="at::native::gelu (structured)", out_native="at::native::gelu_out (structured)",
            source=ACTIVATION, variants="function", inplace_variants="function",
            python_module="nn", meta=META_PYTHON,
            at_dispatch=AT_DISPATCH("GeluKernelImpl", "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf)"))
def gelu(form: str, self, *, approximate="none", out):
    check(approximate in ("none", "tanh"), RuntimeError,
          "approximate argument must be either none or tanh.")
    _same_dtype(form, self, out)
    # the bound: K eps times the largest finite |x| (read before an in-place gelu_)
    k = GELU_EPS.get((approximate, self.dtype))
    top = 0.0
    if k is not None and not self.is_meta and self.numel():
        x = np.abs(self.array())
        top = float(x[np.isfinite(x)].max()) if np.isfinite(x).any() else 0.0
    result = iterate("gelu_" if form == INPLACE else "gelu", [self], _gelu_loop(approximate),
                     out=out, resize=form == OUT, at_dispatch=True, source=KERNEL)
    if k is not None and not self.is_meta:
        library = ("the vectorised erf (libm's in a loop's tail)" if approximate == "none"
                   else "Sleef's vectorised tanh (libm's in a loop's tail)")
        bound = k * float(np.finfo(self.dtype.np).eps) * top
        with span(GELU_BOUND, note=Note("activation.gelu_bound", library=library, eps=k,
                                        bound=f"{bound:.3g}")):
            pass
    return result


#: the bound gelu's values are stated within (a step after the loop, once it is known)
GELU_BOUND = step("GeluKernelImpl", Layer.KERNEL, source=KERNEL)
