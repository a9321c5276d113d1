"""Norms: linalg_vector_norm, linalg_matrix_norm and linalg_norm
(aten/src/ATen/native/LinearAlgebra.cpp; the kernel: cpu/ReduceOpsKernel.cpp
norm_kernel_tensor_iterator_impl and SharedReduceOps.h's Norm*Ops).

torch.norm and Tensor.norm are Python (torch/functional.py) and call
``torch.linalg.vector_norm`` (or ``matrix_norm`` for a string order other than 'fro').
The kernel takes one of two roads, and each gives its own last bits:

* **p = 2 along one contiguous innermost dim, float or double, result in the input's
  dtype** (``x.norm()`` of a dense tensor, ``x.norm(dim=-1)``): each row in SIMD lanes,
  ``acc_vec += v * v`` (a multiply, then an add: measured, no FMA in either build), the
  lanes added one after another, then the tail one element at a time, then sqrt.  GCC
  compiles the AVX2 build's tail with fused multiply-adds, except that a float tail of
  four or more starts with one 4-wide multiply whose products are added one by one
  (measured against torch 2.13 under ATEN_CPU_CAPABILITY=avx2 and default);
* **anything else** (``binary_kernel_reduce`` with NormTwoOps, NormOneOps, NormZeroOps,
  NormOps, AbsMaxOps, AbsMinOps): each output's elements in the iterator's order,
  accumulated one after another in the accumulation type (float for float and half,
  double for double), ``acc + x * x`` without FMA, ``acc + pow(|x|, p)``, then the
  projection (sqrt, ``pow(acc, 1 / p)``).  A reduction of GRAIN_SIZE or more elements per
  output is split between threads and the partial results added: tidx refuses those
  (max and min excepted, whose order does not matter).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.device import of_type
from engine.core.dispatch_stub import DispatchStub
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON, declare
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.parallel import GRAIN_SIZE, num_threads
from engine.ops.pointwise import resize_output
from engine.ops.reduce import MAKE_REDUCTION, dim_mask, reduced_shape, review
from engine.ops.statistics import reduced_in_order
from engine.ops.touch import touched
from engine.rng.fp import fma32, fma64
from engine.rng.libm import pow_scalar_exponent, powf_scalar_exponent

LINALG = "aten/src/ATen/native/LinearAlgebra.cpp"
KERNELS = "aten/src/ATen/native/cpu/ReduceOpsKernel.cpp"

#: norm_stub: torch 2.13's x86 wheel has no AVX512 build of it (its slot is in .bss)
NORM_STUB = DispatchStub("norm_stub", avx512=False, source=KERNELS)

NORM_LASTDIM = step("norm_kernel (lastdim, p=2)", Layer.KERNEL, source=KERNELS)
NORM_REDUCE = step("norm_kernel (binary_kernel_reduce)", Layer.KERNEL, source=KERNELS)


def _ord_text(ord_: float | int) -> str:
    """A Scalar as torch's messages print it (an int stays an int; 2. prints as 2)."""
    if isinstance(ord_, float) and math.isinf(ord_):
        return "inf" if ord_ > 0 else "-inf"
    if isinstance(ord_, float) and ord_.is_integer():
        return str(int(ord_))
    return str(ord_)


def check_floating(self, name: str, low_precision: bool = True) -> None:
    """checkFloatingOrComplex (LinearAlgebraUtils.h)."""
    check(self.dtype.is_floating_point, RuntimeError,
          f"{name}: Expected a floating point or complex tensor as input. Got "
          f"{D.cpp_name(self.dtype)}")
    check(low_precision or self.dtype in (D.float32, D.float64), RuntimeError,
          f"{name}: Low precision dtypes not supported. Got {D.cpp_name(self.dtype)}")


def check_norm_dtype(dtype: D.dtype | None, self_dtype: D.dtype, name: str) -> None:
    """at::detail::check_linalg_norm_dtype."""
    if dtype is None:
        return
    check(dtype.is_floating_point, RuntimeError,
          f"{name}: dtype should be floating point or complex, but got {D.cpp_name(dtype)}")
    check(D.promote_types(self_dtype, dtype) is dtype, RuntimeError,
          f"{name}: the dtype of the input ({D.cpp_name(self_dtype)}) should be convertible "
          f"without narrowing to the specified dtype ({D.cpp_name(dtype)})")


# -- the kernel ----------------------------------------------------------------------------
def _lastdim_rows(src, mask: list[bool]) -> np.ndarray | None:
    """is_reduce_lastdim: the reduced elements of every output as one contiguous row
    (the iterator's reduced dims coalesced into one of stride 1), or None."""
    sizes, strides = src.view.sizes, src.view.strides
    reduced = sorted((strides[d], sizes[d]) for d in range(src.dim()) if mask[d] and sizes[d] != 1)
    if not reduced or reduced[0][0] != 1:
        return None
    span_ = 1
    for stride, size in reduced:
        if stride != span_:
            return None
        span_ *= size
    return reduced_in_order(src, mask).reshape(-1, span_)


def _lastdim_p2(rows: np.ndarray, build) -> np.ndarray:
    """The vectorised p=2 loop on each row (see the module's docstring)."""
    count, n = rows.shape
    lanes = build.lanes(rows.dtype.itemsize)
    body = n - n % lanes
    sq = rows * rows
    if body:
        acc = np.add.accumulate(sq[:, :body].reshape(count, -1, lanes), axis=1)[:, -1, :]
        total = acc[:, 0].copy()
        for j in range(1, lanes):
            total = total + acc[:, j]
    else:
        total = np.zeros(count, rows.dtype)
    d = body
    if build.fma and rows.dtype == np.float32 and n - body >= 4:
        for d in range(body, body + 4):       # the 4-wide multiply, added one by one
            total = total + sq[:, d]
        d = body + 4
    for k in range(d, n):
        if build.fma:
            v = rows[:, k]
            total = (fma32 if rows.dtype == np.float32 else fma64)(v, v, total)
        else:
            total = total + sq[:, k]
    return np.sqrt(total)


def _reduce(x: np.ndarray, ord_: float, acc: type) -> np.ndarray:
    """binary_kernel_reduce with the Norm*Ops of ``ord_``: the last axis accumulated one
    element after another in ``acc``, then projected."""
    a = np.abs(x.astype(acc))
    with np.errstate(all="ignore"):
        if ord_ == math.inf or ord_ == -math.inf:
            # max/min_propagate_nan from 0 / inf: the order does not matter
            init = acc(0) if ord_ > 0 else acc(math.inf)
            pick = np.maximum if ord_ > 0 else np.minimum
            return pick.reduce(np.concatenate([np.full(a.shape[:-1] + (1,), init, acc), a],
                                              axis=-1), axis=-1)
        if ord_ == 0:
            terms = (x != 0).astype(acc)
        elif ord_ == 1:
            terms = a
        elif ord_ == 2:
            terms = a * a
        else:
            terms = _pow(a, ord_, acc)
        total = np.add.accumulate(terms, axis=-1)[..., -1] if terms.shape[-1] else \
            np.zeros(terms.shape[:-1], acc)
        if ord_ == 2:
            return np.sqrt(total)
        if ord_ in (0, 1):
            return total
        return _pow(total, float(acc(1) / acc(ord_)), acc)


#: Elements whose glibc pow tidx computes at most (one libm call each, about a microsecond)
POW_MAX = 1 << 18


def _pow(x: np.ndarray, exponent: float, acc: type) -> np.ndarray:
    """std::pow as the kernel calls it: glibc's powf for float, pow for double, element
    by element (numpy's np.power takes its own SIMD polynomial on AVX512 CPUs, whose last
    bits differ)."""
    if x.size > POW_MAX:
        raise Refused(f"a norm of order p={_ord_text(exponent)} over {x.size} elements: tidx "
                      f"calls glibc's pow once per element, for at most {POW_MAX}")
    if acc is np.float32:
        return powf_scalar_exponent(x, exponent)
    return pow_scalar_exponent(x, exponent)


def _norm_kernel(src, result, mask: list[bool], ord_: float) -> None:
    """norm_kernel_tensor_iterator_impl on the reduction's input and result."""
    build = NORM_STUB.build()
    count = result.numel()
    per_output = src.numel() // max(count, 1)
    lastdim = None
    if ord_ == 2 and src.dtype is result.dtype and src.dtype in (D.float32, D.float64):
        lastdim = _lastdim_rows(src, mask)
    if lastdim is not None:
        with span(NORM_LASTDIM, note=Note("norm.lastdim", lanes=build.lanes(src.dtype.itemsize),
                                          fma=build.fma)) as s:
            s.set(capability=NORM_STUB.call(src.dtype, src.dtype.itemsize).describe())
            check_temporary("norm", src.numel(), src.dtype.itemsize, copies=3)
            values = _lastdim_p2(lastdim, build)
            result.array(write=True)[...] = values.reshape(result.view.sizes)
            s.set(read=touched(src), written=touched(result))
        return
    order_matters = ord_ not in (math.inf, -math.inf)
    if order_matters and per_output >= GRAIN_SIZE and num_threads() > 1:
        raise Refused(f"a norm over {per_output} elements per output: torch splits them "
                      f"between {num_threads()} threads and adds the partial results; tidx "
                      "does not replay that order")
    acc = np.float64 if src.dtype is D.float64 else np.float32
    with span(NORM_REDUCE, note=Note("norm.reduce", p=_ord_text(ord_),
                                     acc=D.cpp_name(D.from_numpy(np.dtype(acc))))) as s:
        s.set(capability=NORM_STUB.call(src.dtype, src.dtype.itemsize).describe())
        check_temporary("norm", src.numel(), 8, copies=3)
        values = _reduce(reduced_in_order(src, mask), ord_, acc)
        with np.errstate(over="ignore"):
            result.array(write=True)[...] = values.astype(result.dtype.np).reshape(
                result.view.sizes)
        s.set(read=touched(src), written=touched(result))


# -- linalg_vector_norm ------------------------------------------------------------------
def _vector_norm(self, ord_, dim: Sequence[int] | None, keepdim: bool, dtype: D.dtype | None,
                 out=None):
    # TORCH_META_FUNC(linalg_vector_norm)
    check_floating(self, "linalg.vector_norm")
    ord_ = float(ord_)
    if self.numel() == 0 and (ord_ < 0 or ord_ == math.inf):
        check(dim is not None and len(dim) > 0, RuntimeError,
              f"linalg.vector_norm cannot compute the {_ord_text(ord_)} norm on an empty "
              "tensor because the operation does not have an identity")
        for d in dim or ():
            check(self.view.sizes[S.maybe_wrap_dim(d, self.dim())] != 0, RuntimeError,
                  f"linalg.vector_norm cannot compute the {_ord_text(ord_)} norm on the "
                  f"dimension {d}because this dimension is empty and the operation does "
                  "not have an identity")
    check_norm_dtype(dtype, self.dtype, "linalg.vector_norm")
    mask = dim_mask(self, dim)
    out_dtype = dtype or self.dtype
    shape = reduced_shape(self.view.sizes, mask, keepdim)
    if out is None:
        result = memory.empty_generic(shape, out_dtype, self.device_type)
    else:
        # the structured wrapper's set_output_raw_strided: the dtype, then resize_output
        check(out.dtype is out_dtype, RuntimeError,
              f"Expected out tensor to have dtype {D.type_meta_name(out_dtype)}, but got "
              f"{D.type_meta_name(out.dtype)} instead")
        resize_output(out, tuple(shape), S.contiguous_strides(tuple(shape)))
        result = out
    # TORCH_IMPL_FUNC(linalg_vector_norm_out)
    reduce_dims = [d for d in range(self.dim()) if mask[d]] if self.dim() else []
    if all(self.view.sizes[d] == 1 for d in reduce_dims):
        # a reduction over size-1 dims: |x| (or x != 0) into the result
        src = aten.to.dtype(self, dtype) if dtype is not None else self
        if not keepdim:
            src = aten.squeeze.dims(src, reduce_dims)
        if ord_ != 0:
            return aten.abs.out(src, out=result)
        return aten.ne.Scalar_out(src, 0, out=result)
    with span(MAKE_REDUCTION):
        review(result, self.dim(), mask, keepdim)
    src = self if self.dtype is out_dtype else aten.to.dtype(self, out_dtype)
    if src.numel() == 0:
        # norm_kernel_tensor_iterator_impl: an empty iterator fills the result
        return aten.fill_.Scalar(result, math.inf if ord_ < 0 else 0)
    if not self.is_meta:
        _norm_kernel(src, result, mask, ord_)
    return result


@declare("linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, "
         "*, ScalarType? dtype=None) -> Tensor", variants="function",
         native="at::native::linalg_vector_norm_out (structured)", source=LINALG,
         python_module="linalg",
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def linalg_vector_norm(self, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return _vector_norm(self, ord, dim, keepdim, dtype)


@declare("linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, "
         "bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::linalg_vector_norm_out (structured)", source=LINALG,
         python_module="linalg", meta=META_PYTHON, device_check=CHECK_WRAPPER)
def linalg_vector_norm_out(self, ord=2, dim=None, keepdim=False, *, dtype=None,  # noqa: A002
                           out):
    return _vector_norm(self, ord, dim, keepdim, dtype, out)


def _composite_out(name: str, A, value, result):
    """linalg_matrix_norm_out / linalg_norm_out: checkSameDevice(name, A, result), the
    functional form's value, its dtype against the out= tensor's, at::native::
    resize_output (its warning), then ``result.copy_(value)``."""
    where = [str(of_type(t.device_type)) for t in (A, result)]
    check(where[0] == where[1], RuntimeError,
          f"{name}: Expected result and input tensors to be on the same device, but got "
          f"result on {where[0]} and input on {where[1]}")
    computed = value()
    check(computed.dtype is result.dtype, RuntimeError,
          f"{name} expected out tensor dtype {D.cpp_name(computed.dtype)} but got: "
          f"{D.cpp_name(result.dtype)}")
    resize_output(result, computed.view.sizes, S.contiguous_strides(computed.view.sizes))
    return aten.copy_.default(result, computed)


# -- linalg_matrix_norm ------------------------------------------------------------------
def _matrix_norm_checks(A, dim: list[int], dtype, low_precision: bool) -> list[int]:
    """_linalg_matrix_norm_checks."""
    check(A.dim() >= 2, RuntimeError, "linalg.matrix_norm: The input tensor A must have at "
                                      "least 2 dimensions.")
    check_floating(A, "linalg.matrix_norm", low_precision)
    check(len(dim) == 2, RuntimeError,
          f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    dim = [S.maybe_wrap_dim(d, A.dim()) for d in dim]
    check(dim[0] != dim[1], RuntimeError,
          f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    check_norm_dtype(dtype, A.dtype, "linalg.matrix_norm")
    return dim


@declare("linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, "
         "ScalarType? dtype=None) -> Tensor", variants="function",
         native="at::native::linalg_matrix_norm", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_matrix_norm(self, ord, dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    value = float(ord)
    check(abs(value) in (1.0, 2.0, math.inf), RuntimeError,
          f"linalg.matrix_norm: Order {_ord_text(ord)} not supported.")
    dims = _matrix_norm_checks(self, list(dim), dtype, low_precision=abs(value) != 2)
    if abs(value) == 2:
        raise Refused("linalg.matrix_norm with ord=2 or -2 needs the singular values "
                      "(linalg_svdvals), which tidx does not compute")
    if abs(value) == math.inf:
        dims = [dims[1], dims[0]]           # the inf norm is the 1 norm of the transpose
    if not keepdim and dims[0] < dims[1]:
        dims[1] -= 1
    sums = aten.linalg_vector_norm.default(self, 1.0, [dims[0]], keepdim, dtype=dtype)
    if value > 0:
        if sums.view.sizes[dims[1]] == 0:
            # the largest of no column sums is 0 (measured: torch 2.13 makes zeros there,
            # where amin of an empty dim raises)
            shape = list(sums.view.sizes)
            if keepdim:
                shape[dims[1]] = 1
            else:
                del shape[dims[1]]
            return aten.zeros.default(shape, dtype=sums.dtype, device=sums.device_type)
        return aten.amax.default(sums, [dims[1]], keepdim)
    return aten.amin.default(sums, [dims[1]], keepdim)


@declare("linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], "
         "bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", variants="function",
         native="at::native::linalg_matrix_norm", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_matrix_norm_str(self, ord="fro", dim=(-2, -1), keepdim=False, *,  # noqa: A002
                           dtype=None):
    if ord == "fro":
        return aten.linalg_vector_norm.default(self, 2, list(dim), keepdim, dtype=dtype)
    if ord == "nuc":
        raise Refused("linalg.matrix_norm with ord='nuc' needs the singular values "
                      "(linalg_svdvals), which tidx does not compute")
    raise torch_error(RuntimeError, f"linalg.matrix_norm: Order {ord} not supported.")


@declare("linalg_matrix_norm.out(Tensor self, Scalar ord, int[] dim=[-2,-1], bool "
         "keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::linalg_matrix_norm_out", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_matrix_norm_out(self, ord, dim=(-2, -1), keepdim=False, *,  # noqa: A002
                           dtype=None, out):
    return _composite_out("linalg.matrix_norm", self, lambda: aten.linalg_matrix_norm.default(
        self, ord, list(dim), keepdim, dtype=dtype), out)


@declare("linalg_matrix_norm.str_ord_out(Tensor self, str ord='fro', int[] dim=[-2,-1], "
         "bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::linalg_matrix_norm_out", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_matrix_norm_str_out(self, ord="fro", dim=(-2, -1), keepdim=False, *,  # noqa: A002
                               dtype=None, out):
    return _composite_out("linalg.matrix_norm", self, lambda: aten.linalg_matrix_norm.str_ord(
        self, ord, list(dim), keepdim, dtype=dtype), out)


# -- linalg_norm -----------------------------------------------------------------------------
@declare("linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, "
         "ScalarType? dtype=None) -> Tensor", variants="function",
         native="at::native::linalg_norm", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    if dim is not None:
        check(len(dim) in (1, 2), RuntimeError, "linalg.norm: If dim is specified, it must be "
              f"of length 1 or 2. Got [{', '.join(str(d) for d in dim)}]")
    elif ord is not None:
        check(self.dim() in (1, 2), RuntimeError, "linalg.norm: If dim is not specified but "
              f"ord is, the input must be 1D or 2D. Got {self.dim()}D.")
    if ord is not None and ((dim is not None and len(dim) == 2) or
                            (dim is None and self.dim() == 2)):
        dims = list(dim) if dim is not None else [0, 1]
        return aten.linalg_matrix_norm.default(self, ord, dims, keepdim, dtype=dtype)
    return aten.linalg_vector_norm.default(self, 2.0 if ord is None else ord, dim, keepdim,
                                           dtype=dtype)


@declare("linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, "
         "ScalarType? dtype=None) -> Tensor", variants="function",
         native="at::native::linalg_norm", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_norm_str(self, ord, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    if dim is not None:
        check(len(dim) in (1, 2), RuntimeError, "linalg.norm: If dim is specified, it mut be "
              f"of length 1 or 2. Got [{', '.join(str(d) for d in dim)}]")
    else:
        check(self.dim() in (1, 2), RuntimeError, "linalg.norm: If dim is not specified but "
              f"ord is, the input must be 1D or 2D. Got {self.dim()}D.")
    dims = list(dim) if dim is not None else [0, 1]
    return aten.linalg_matrix_norm.str_ord(self, ord, dims, keepdim, dtype=dtype)


@declare("linalg_norm.out(Tensor self, Scalar? ord=None, int[1]? dim=None, bool "
         "keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::linalg_norm_out", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_norm_out(self, ord=None, dim=None, keepdim=False, *, dtype=None,  # noqa: A002
                    out):
    return _composite_out("linalg.norm", self, lambda: aten.linalg_norm.default(
        self, ord, dim, keepdim, dtype=dtype), out)


@declare("linalg_norm.ord_str_out(Tensor self, str ord, int[1]? dim=None, bool "
         "keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::linalg_norm_out", source=LINALG,
         python_module="linalg", kind=COMPOSITE)
def linalg_norm_str_out(self, ord, dim=None, keepdim=False, *, dtype=None,  # noqa: A002
                        out):
    return _composite_out("linalg.norm", self, lambda: aten.linalg_norm.ord_str(
        self, ord, dim, keepdim, dtype=dtype), out)
