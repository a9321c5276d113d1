"""bmm, baddbmm and addbmm (aten/src/ATen/native/LinearAlgebra.cpp).

bmm and baddbmm share ``bmm_out_or_baddbmm_``: nothing to do for an empty result, zeros
(or ``self * beta``) for an empty contraction; below 400 multiply-adds per matrix the
plain i, j, k loop ``baddbmm_cpu_kernel`` (its values are tidx's: the same order); above
it, for float and double whose matrices BLAS can read (each batch row- or column-major)
into a contiguous result, MKL's ``gemm_batched_with_stride`` (values within the bound
matmul.py states); otherwise one matrix product per batch on ``select``ed matrices --
bmm calls ``addmm_impl_cpu_`` itself, baddbmm dispatches ``addmm_`` per batch.
baddbmm's meta expands ``self`` to the result's shape (``expand_size``) and, when beta is
not 0, copies it into the result before the product adds to it.

addbmm sums the products of all batches into one matrix: ``empty``, ``resize_as_`` the
expanded self, copy it (beta not 0), then ``addmm_`` once per batch, beta only on the
first (``adjusted_beta``), so the sum runs batch by batch in gemm's order.
"""

from __future__ import annotations

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import (CHECK_WRAPPER, INPLACE, META_PYTHON, declare,
                                          deprecated, structured)
from engine.ops.matmul import (CPUBLAS, LINALG, _addmm_impl, _blas_dispatch, _output,
                               _scaled, _up, _UNIT, _values, opmath_scalar)
from engine.ops.touch import touched

BADDBMM_CPU_KERNEL = step("baddbmm_cpu_kernel<scalar_t, is_bmm=true>", Layer.KERNEL,
                          source=LINALG)
BADDBMM_CPU_KERNEL_ADD = step("baddbmm_cpu_kernel<scalar_t, is_bmm=false>", Layer.KERNEL,
                              source=LINALG)
GEMM_BATCHED = step("cpublas::gemm_batched_with_stride", Layer.KERNEL, source=CPUBLAS)
SPLIT_BATCHES = step("bmm_out_or_baddbmm_: one matrix product per batch", Layer.KERNEL,
                     source=LINALG)


def _bmm_meta(b1, b2) -> None:
    """common_checks_baddbmm_bmm: the operands' ranks and batch2's first two sizes."""
    check(b1.dim() == 3, RuntimeError, "batch1 must be a 3D tensor")
    check(b2.dim() == 3, RuntimeError, "batch2 must be a 3D tensor")
    bs, _, contraction = b1.view.sizes
    got = list(b2.view.sizes[:2])
    check(got == [bs, contraction], RuntimeError,
          f"Expected size for first two dimensions of batch2 tensor to be: "
          f"[{bs}, {contraction}] but got: [{got[0]}, {got[1]}].")


def _blas_readable(t) -> bool:
    """batch_items_contiguous_or_transposed: each matrix row- or column-major."""
    sizes, strides = t.view.sizes, t.view.strides
    return ((strides[2] == 1 and (sizes[1] == 1 or strides[1] >= sizes[2])) or
            (strides[1] == 1 and (sizes[2] == 1 or strides[2] >= sizes[1])))


def bmm_out_or_baddbmm_(result, batch1, batch2, beta, alpha, is_bmm_out: bool) -> None:
    """The body bmm.out and baddbmm.out share (LinearAlgebra.cpp)."""
    bs, rows, contraction = batch1.view.sizes
    cols = batch2.view.sizes[2]
    if result.numel() == 0:
        return
    if contraction == 0:
        if is_bmm_out or beta == 0:
            aten.zero_.default(result)
            return
        raise Refused("baddbmm with an empty contraction and beta other than 0 (self scaled "
                      "by mul_.Scalar) is not modelled yet")
    if batch1.dtype is D.float16:
        raise Refused(f"{'bmm' if is_bmm_out else 'baddbmm'} of {batch1.dtype.name} may take "
                      "mkldnn's matmul, which tidx does not model")
    name = "bmm" if is_bmm_out else "baddbmm"
    if contraction * rows * cols < 400:
        dispatched(batch1.dtype, name)
        # result.accessor<scalar_t, 3>() is taken first: the result has batch2's dtype
        check(batch1.dtype is result.dtype and batch1.dtype is batch2.dtype, RuntimeError,
              f"expected scalar type {D.cpp_name(batch1.dtype)} but found "
              f"{D.cpp_name(result.dtype if result.dtype is not batch1.dtype else batch2.dtype)}")
        spec = BADDBMM_CPU_KERNEL if is_bmm_out else BADDBMM_CPU_KERNEL_ADD
        with span(spec, batches=bs, m=rows, n=cols, k=contraction, beta=beta,
                  alpha=alpha) as s:
            if not result.is_meta:
                prod, note = _values(name, batch1.array(), batch2.array(), result.dtype,
                                     contraction)
                if not is_bmm_out:
                    prod = _naive_scaled(result, prod, beta, alpha)
                result.array(write=True)[...] = prod
                if note is not None:
                    s.note(Note("matmul.naive", k=contraction))
                s.set(read=[touched(batch1), touched(batch2)]
                      + ([touched(result)] if not is_bmm_out and beta != 0 else []),
                      written=touched(result))
            s.set_result(result)
        return
    if (result.dtype.is_floating_point and _blas_readable(batch1) and _blas_readable(batch2)
            and result.is_contiguous()):
        check(batch1.dtype is batch2.dtype and batch1.dtype is result.dtype, RuntimeError,
              f"expected scalar type {D.cpp_name(result.dtype)} but found "
              f"{D.cpp_name(batch1.dtype)}")
        dispatched(result.dtype, name)
        with span(GEMM_BATCHED, batches=bs, m=rows, n=cols, k=contraction, beta=beta,
                  alpha=alpha) as s:
            if not result.is_meta:
                prod, note = _values(name, batch1.array(), batch2.array(), result.dtype,
                                     contraction)
                if not is_bmm_out and (beta != 0 or alpha != 1) and note is not None \
                        and note.id == "matmul.bound":
                    note = _batched_note(batch1, batch2, result, beta, alpha, contraction)
                if not is_bmm_out:
                    prod = _scaled("baddbmm", result, result, prod, beta, alpha)
                result.array(write=True)[...] = prod
                s.note(note)
                s.set(read=[touched(batch1), touched(batch2)]
                      + ([touched(result)] if not is_bmm_out and beta != 0 else []),
                      written=touched(result))
            s.set_result(result)
        return
    with span(SPLIT_BATCHES, note=Note("bmm.split", batches=bs)):
        pass
    for b in range(bs):
        r = aten.select.int(result, 0, b)
        m1 = aten.select.int(batch1, 0, b)
        m2 = aten.select.int(batch2, 0, b)
        if is_bmm_out:
            _addmm_impl(r, r, m1, m2, 0, 1)
        else:
            aten.addmm_.default(r, m1, m2, beta=beta, alpha=alpha)


def _naive_scaled(result, prod: np.ndarray, beta, alpha) -> np.ndarray:
    """baddbmm_cpu_kernel<is_bmm=false>: alpha * acc when beta is 0 (r is not read), else
    r * beta + alpha * acc, each rounded (or wrapped) in opmath, which is the dtype."""
    dtype = result.dtype
    b = opmath_scalar(beta, dtype)
    a = opmath_scalar(alpha, dtype)
    with np.errstate(all="ignore"):
        scaled = np.asarray(a).astype(dtype.np) * prod
        if b != 0:
            scaled = result.array() * np.asarray(b).astype(dtype.np) + scaled
    return scaled.astype(dtype.np, copy=False)


def _batched_note(b1, b2, c, beta, alpha, k: int) -> Note:
    """gemm's bound with its scalars, batch by batch (matmul._gemm_note's)."""
    mags = abs(alpha) * (np.abs(b1.array().astype(np.float64))
                         @ np.abs(b2.array().astype(np.float64)))
    if beta != 0:
        mags = mags + abs(beta) * np.abs(c.array().astype(np.float64))
    u = _UNIT[c.dtype.name]
    gamma = (k + 2) * u / (1 - (k + 2) * u)
    return Note("matmul.bound", k=k, bound=_up(2 * gamma * float(np.max(mags))),
                dtype=c.dtype.name)


# -- bmm ---------------------------------------------------------------------------------------
@structured("bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::bmm_out_cpu (structured)",
            out_native="at::native::bmm_out_cpu (structured)", source=LINALG,
            inplace=False, variants="function, method", device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER, meta=META_PYTHON,
            at_dispatch=(_blas_dispatch("bmm"), _blas_dispatch("addmm_impl_cpu_")))
def bmm(form: str, self, mat2, *, out):
    _bmm_meta(self, mat2)
    bs, rows, _ = self.view.sizes
    # set_output_raw_strided(0, output_size, {}, batch2.options())
    result = _output(form, out, (bs, rows, mat2.view.sizes[2]), mat2)
    b1, b2 = aten.resolve_conj.default(self), aten.resolve_conj.default(mat2)
    bmm_out_or_baddbmm_(result, b1, b2, 0, 1, True)
    return result


# -- baddbmm -----------------------------------------------------------------------------------
@structured("baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
            "Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::baddbmm_out_cpu (structured)",
            out_native="at::native::baddbmm_out_cpu (structured)", source=LINALG,
            variants="function, method", device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER, meta=META_PYTHON,
            at_dispatch=AT_DISPATCH("baddbmm",
                                    "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)"))
def baddbmm(form: str, self, batch1, batch2, *, out, beta=1, alpha=1):
    # TORCH_META_FUNC(baddbmm): expand_size's sizes are read before any rank check
    shape = (_size(batch1, 0), _size(batch1, 1), _size(batch2, 2))
    b_self = self if tuple(self.view.sizes) == shape else aten.expand.default(self, list(shape))
    check(self.dtype is batch1.dtype, RuntimeError,
          f"Input dtypes must be the same, got: input {D.type_meta_name(self.dtype)}, batch1: "
          f"{D.type_meta_name(batch1.dtype)}, batch2: {D.type_meta_name(batch2.dtype)}")
    _bmm_meta(batch1, batch2)
    if form == INPLACE:
        # check_inplace: the output is batch2's dtype and the product's shape
        check(self.dtype is batch2.dtype, RuntimeError,
              f"Bad in-place call: input tensor dtype {D.type_meta_name(self.dtype)} and "
              f"output tensor dtype {D.type_meta_name(batch2.dtype)} should match")
        check(tuple(self.view.sizes) == shape, RuntimeError,
              f"Bad in-place call: input tensor size {list(self.view.sizes)} and output "
              f"tensor size {list(shape)} should match")
        result = self
    else:
        result = _output(form, out, shape, batch2)
    if beta != 0:
        aten.copy_.default(result, b_self)
    # (self must be 3-D and of the product's shape: b_self is, once expanded)
    b1, b2 = aten.resolve_conj.default(batch1), aten.resolve_conj.default(batch2)
    bmm_out_or_baddbmm_(result, b1, b2, beta, alpha, False)
    return result


def _size(t, dim: int) -> int:
    """Tensor::size(dim), whose wrap raises IndexError past the rank."""
    return t.view.sizes[S.maybe_wrap_dim(dim, t.dim())]


# -- addbmm ------------------------------------------------------------------------------------
def _addbmm_out(self, batch1, batch2, beta, alpha, result):
    """addbmm_out: expand_size(self, {batch1.size(1), batch2.size(2)}), addbmm_impl_."""
    shape = (_size(batch1, 1), _size(batch2, 2))
    b_self = self if tuple(self.view.sizes) == shape else aten.expand.default(self, list(shape))
    check(batch1.dim() == 3, RuntimeError, "batch1 must be a 3D tensor")
    check(batch2.dim() == 3, RuntimeError, "batch2 must be a 3D tensor")
    s1, s2 = batch1.view.sizes, batch2.view.sizes
    check(s1[0] == s2[0], RuntimeError, "batch1 and batch2 must have same number of batches, "
          f"got {s1[0]} and {s2[0]}")
    check(s1[2] == s2[1], RuntimeError, f"Incompatible matrix sizes for bmm ({s1[1]}x{s1[2]} "
          f"and {s2[1]}x{s2[2]})")
    check(b_self.view.sizes[0] == s1[1] and b_self.view.sizes[1] == s2[2], RuntimeError,
          "self tensor does not match matmul output shape")
    aten.resize_as_.default(result, b_self)
    if beta != 0 and b_self is not result:
        aten.copy_.default(result, b_self)
    if s1[0] == 0:
        if beta != 0:
            raise Refused("addbmm over no batches with beta other than 0 (self scaled by "
                          "mul_.Scalar) is not modelled yet")
        aten.zero_.default(result)
        return result
    with span(SPLIT_BATCHES, note=Note("bmm.addbmm", batches=s1[0])):
        pass
    adjusted_beta = beta
    for b in range(s1[0]):
        # batch1[b]: Tensor::operator[] is select
        aten.addmm_.default(result, aten.select.int(batch1, 0, b),
                            aten.select.int(batch2, 0, b), beta=adjusted_beta, alpha=alpha)
        adjusted_beta = 1
    return result


@declare("addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1,"
         " Tensor(a!) out) -> Tensor(a!)", native="at::native::addbmm_out", source=LINALG,
         device_check=CHECK_WRAPPER, meta=META_PYTHON)
def addbmm_out(self, batch1, batch2, *, beta=1, alpha=1, out):
    return _addbmm_out(self, batch1, batch2, beta, alpha, out)


@declare("addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar "
         "alpha=1) -> Tensor(a!)", variants="method", native="at::native::addbmm_",
         source=LINALG, device_check=CHECK_WRAPPER, meta=META_PYTHON)
def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    return _addbmm_out(self, batch1, batch2, beta, alpha, self)


@declare("addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) "
         "-> Tensor", variants="method, function", native="at::native::addbmm", source=LINALG,
         device_check=CHECK_WRAPPER, meta=META_PYTHON)
def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    result = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    return _addbmm_out(self, batch1, batch2, beta, alpha, result)


# deprecated.yaml: the Scalar-first signatures torch still binds
for _name in ("addbmm", "baddbmm"):
    deprecated(f"{_name}(Scalar beta, Tensor self, Scalar alpha, Tensor batch1, Tensor batch2) "
               "-> Tensor", f"{_name}(self, batch1, batch2, beta, alpha)")
    deprecated(f"{_name}_(Scalar beta, Tensor(a!) self, Scalar alpha, Tensor batch1, Tensor "
               "batch2) -> Tensor(a!)", f"{_name}_(self, batch1, batch2, beta, alpha)")
    deprecated(f"{_name}(Scalar beta, Tensor self, Scalar alpha, Tensor batch1, Tensor batch2, "
               "*, Tensor(a!) out) -> Tensor(a!)",
               f"{_name}_out(out, self, batch1, batch2, beta, alpha)")
    deprecated(f"{_name}(Scalar beta, Tensor self, Tensor batch1, Tensor batch2) -> Tensor",
               f"{_name}(self, batch1, batch2, beta, 1)")
    deprecated(f"{_name}_(Scalar beta, Tensor(a!) self, Tensor batch1, Tensor batch2) -> "
               "Tensor(a!)", f"{_name}_(self, batch1, batch2, beta, 1)")
    deprecated(f"{_name}(Scalar beta, Tensor self, Tensor batch1, Tensor batch2, *, "
               "Tensor(a!) out) -> Tensor(a!)", f"{_name}_out(out, self, batch1, batch2, beta, 1)")
