"""The matmul family: mm, addmm, addmv (mv), matrix_power, and matmul's composite dispatch
(aten/src/ATen/native/LinearAlgebra.cpp, Blas.cpp).

mm runs ``addmm_impl_cpu_``: it casts the result, then each operand, as a column-major
BLAS matrix, choosing a transpose flag from the strides -- a transposed view is handed
over with 'T' and nothing copied, a view BLAS cannot describe is cloned first -- and calls
``cpublas::gemm``.  bmm below 400 multiply-adds per matrix runs ``baddbmm_cpu_kernel``, a
plain i, j, k loop; above it MKL's batched gemm.  matmul (``_matmul_impl``) picks dot, mv,
mm, a folded mm/mv or an expanded bmm from the operands' ranks, and with an out= tensor
their out= forms.  bmm, baddbmm and addbmm are engine/ops/bmm.py's; dot, vdot, outer and
ger engine/ops/vector_products.py's.

Values.  Integers wrap in the dtype, so any order of the sums gives torch's bits.  Floats:
torch 2.13's CPU build hands gemm, gemv and dot to MKL (``torch.__config__.show()``:
BLAS_INFO=mkl), whose summation order is not documented and cannot be replayed; tidx sums
k ascending in the dtype (baddbmm_cpu_kernel's own order, so small bmm is bit for bit) and
says on the step how far MKL's result may be: each is within gamma_k * sum_k |a_ik b_kj|
of the exact value (gamma_k = k u / (1 - k u), Higham, Accuracy and Stability, 3.1), so
the two within twice that.  Where every product and partial sum is an integer the format
holds exactly, every order gives the same bits and the note says so.
"""

from __future__ import annotations

import math

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.core import shape_math
from engine.core import view as S
from engine.core.errors import Refused, check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.declarations import (CHECK_WRAPPER, COMPOSITE, INPLACE, META_PYTHON, OUT,
                                          declare, deprecated, structured)
from engine.dispatch.aten import aten
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import resize_output
from engine.ops.touch import touched

LINALG = "aten/src/ATen/native/LinearAlgebra.cpp"
BLAS = "aten/src/ATen/native/Blas.cpp"
CPUBLAS = "aten/src/ATen/native/CPUBlas.cpp"

#: unit roundoff of the formats MKL is given
_UNIT = {"float32": 2.0 ** -24, "float64": 2.0 ** -53}
_MANTISSA = {"float32": 2.0 ** 24, "float64": 2.0 ** 53}


# -- the values --------------------------------------------------------------------------------

def _blas_dispatch(name: str):
    """The AT_DISPATCH of the BLAS kernels (addmm_impl_cpu_, bmm, addmv_impl_cpu, dot):
    every type but Bool (LinearAlgebra.cpp, Blas.cpp)."""
    return AT_DISPATCH(name, "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16)")


def _products(a: np.ndarray, b: np.ndarray, dtype: D.dtype) -> np.ndarray:
    """sum_k a[..., i, k] * b[..., k, j], k ascending, each step rounded (or wrapped) in
    the dtype: baddbmm_cpu_kernel's order (opmath of float is float)."""
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    acc = np.zeros(shape, dtype=dtype.np)
    with np.errstate(all="ignore"):
        for k in range(a.shape[-1]):
            acc = acc + a[..., :, k:k + 1] * b[..., k:k + 1, :]
    return acc.astype(dtype.np, copy=False)


def _float_note(a: np.ndarray, b: np.ndarray, dtype: D.dtype, k: int) -> Note:
    """How far MKL's order may take torch's value from tidx's (see the module's doc)."""
    with np.errstate(all="ignore"):
        mags = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
        integral = bool(np.all(np.mod(a, 1) == 0) and np.all(np.mod(b, 1) == 0))
    worst = float(np.max(mags)) if mags.size else 0.0
    if integral and worst <= _MANTISSA[dtype.name]:
        return Note("matmul.exact", k=k, worst=f"{worst:g}")
    u = _UNIT[dtype.name]
    gamma = k * u / (1 - k * u)
    return Note("matmul.bound", k=k, bound=_up(2 * gamma * worst), dtype=dtype.name)


def _up(bound: float) -> str:
    """Three digits, rounded up: --verify compares within the value shown."""
    unit = 10.0 ** (math.floor(math.log10(bound)) - 2) if bound > 0 else 1.0
    shown = math.ceil(bound / unit) * unit
    return f"{shown:.3g}" if float(f"{shown:.3g}") >= bound else f"{shown + unit:.3g}"


def _values(name: str, a: np.ndarray, b: np.ndarray, dtype: D.dtype, k: int
            ) -> tuple[np.ndarray, Note | None]:
    """The product of two (batches of) matrices and the note on its order."""
    if dtype is D.float16:
        raise Refused(f"{name} of float16 accumulates in float in an order of cpublas's "
                      "that tidx does not reproduce yet")
    out_elems = int(np.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))) \
        * a.shape[-2] * b.shape[-1]
    # the accumulator and one rank-1 update (and the magnitudes' doubles for the bound)
    check_temporary(name, out_elems, 2 * dtype.itemsize + 16)
    result = _products(a, b, dtype)
    note = _float_note(a, b, dtype, k) if dtype.is_floating_point else None
    return result, note


# -- mm: addmm_impl_cpu_ -----------------------------------------------------------------------
ADDMM_IMPL = step("addmm_impl_cpu_", Layer.KERNEL, source=LINALG)
AS_BLAS_MATRIX = step("addmm_impl_cpu_: cast as a BLAS matrix", Layer.KERNEL, source=LINALG)
GEMM = step("cpublas::gemm", Layer.KERNEL, source=CPUBLAS)


def _as_blas(which: str, t, lead: int, trail: int, transpose_c: bool, rows: int, cols: int):
    """Cast m1 (``which`` a) or m2 (b) as a column-major matrix: as it is ('N', after
    resolve_conj), transposed ('T', the view itself), or cloned contiguous."""
    st = t.view.strides
    inner, outer = (st[1], st[0]) if transpose_c else (st[0], st[1])
    # (the operand BLAS reads is not kept: the values are computed from t itself)
    if inner == 1 and outer >= max(1, rows):
        aten.resolve_conj.default(t)
        flag, how = "N", "matmul.as_is"
    elif outer == 1 and inner >= max(1, cols):
        flag, how = "T", "matmul.transposed"
    else:
        aten.clone.default(t, memory_format="contiguous_format")
        flag, how = ("N" if transpose_c else "T"), "matmul.copied"
    with span(AS_BLAS_MATRIX, note=Note(how, operand=which, strides=list(st), flag=flag),
              operand=which, flag=flag):
        pass
    return flag


def _scaled(name: str, result, self, prod: np.ndarray, beta, alpha) -> np.ndarray:
    """gemm's c = alpha * (a b) + beta * c in the dtype (beta 0: c is not read)."""
    dtype = result.dtype
    if not dtype.is_floating_point and any(isinstance(x, float) for x in (beta, alpha)):
        raise Refused(f"{name} of integers with a float beta or alpha is not modelled yet")
    if beta == 0 and alpha == 1:
        return prod
    with np.errstate(all="ignore"):
        a = np.asarray(alpha).astype(dtype.np)
        out = a * prod
        if beta != 0:
            out = np.asarray(beta).astype(dtype.np) * self.array() + out
    return out.astype(dtype.np, copy=False)


def _addmm_impl(result, self, m1, m2, beta=0, alpha=1) -> None:
    """addmm_impl_cpu_(result, self, m1, m2, beta, alpha): mm's body (self is result,
    beta 0, alpha 1) and addmm's."""
    check(m1.dtype is m2.dtype, RuntimeError,
          f"expected m1 and m2 to have the same dtype, but got: {D.type_meta_name(m1.dtype)}"
          f" != {D.type_meta_name(m2.dtype)}")
    m, n, k = m1.view.sizes[0], m2.view.sizes[1], m1.view.sizes[1]
    if result.numel() == 0:
        return
    if k == 0:
        # [a, 0] x [0, b]: beta * self, or zeros when beta is 0
        if beta != 0:
            # result.mul_(beta): mul_.Scalar, which tidx does not declare yet
            raise Refused("addmm with an empty inner dimension and beta other than 0 "
                          "(self scaled by mul_.Scalar) is not modelled yet")
        aten.zero_.default(result)
        return
    if beta != 0 and self is not result:
        aten.copy_.default(result, self)
    rs, sizes = result.view.strides, result.view.sizes
    with span(ADDMM_IMPL, note=Note("matmul.addmm", m=m, n=n, k=k)):
        # Cast result as matrix a: column-major as it is, or row-major seen as the
        # transpose (the operands swap), else a Fortran-contiguous copy
        if rs[0] == 1 and (sizes[1] == 1 or rs[1] >= max(1, sizes[0])):
            transpose_c, first, second = False, m1, m2
            aten.resolve_conj.default(result)
        elif rs[1] == 1 and (sizes[0] == 1 or rs[0] >= max(1, sizes[1])):
            transpose_c, first, second = True, m2, m1
            aten.resolve_conj.default(result)
        else:
            raise Refused("mm into an out= tensor BLAS cannot write in place is not "
                          "modelled yet")
        rows, cols = (n, m) if transpose_c else (m, n)
        _as_blas("a", first, 0, 1, transpose_c, rows, k)
        _as_blas("b", second, 0, 1, transpose_c, k, cols)
        dispatched(result.dtype, "addmm_impl_cpu_")
        with span(GEMM, m=rows, n=cols, k=k, beta=beta, alpha=alpha) as s:
            if not result.is_meta:
                prod, note = _values("mm", m1.array(), m2.array(), result.dtype, k)
                if note is not None and (beta != 0 or alpha != 1) and \
                        note.id == "matmul.bound":
                    note = _gemm_note(m1, m2, result, beta, alpha, k)
                values = _scaled("addmm", result, result, prod, beta, alpha)
                result.array(write=True)[...] = values
                s.note(note)
                # beta != 0: gemm reads c (self's copy) as well
                s.set(read=[touched(m1), touched(m2)] + ([touched(result)] if beta != 0
                                                         else []), written=touched(result))
            s.set_result(result)


def _gemm_note(m1, m2, c, beta, alpha, k: int) -> Note:
    """gemm's bound with its scalars: |C^ - C| <= gamma_{k+2} (|alpha| |A||B| + |beta| |C|)
    (Higham, 3.5), so two orders differ by at most twice that."""
    dtype = c.dtype
    check_temporary("addmm", c.numel(), 24)
    mags = abs(alpha) * (np.abs(m1.array().astype(np.float64))
                         @ np.abs(m2.array().astype(np.float64)))
    if beta != 0:
        mags = mags + abs(beta) * np.abs(c.array().astype(np.float64))
    u = _UNIT[dtype.name]
    gamma = (k + 2) * u / (1 - (k + 2) * u)
    return Note("matmul.bound", k=k, bound=_up(2 * gamma * float(np.max(mags))),
                dtype=dtype.name)


def _mm_meta(self, mat2) -> None:
    """TORCH_META_FUNC(mm)."""
    check(self.dim() == 2, RuntimeError, "self must be a matrix")
    check(mat2.dim() == 2, RuntimeError, "mat2 must be a matrix")
    a, b = self.view.sizes, mat2.view.sizes
    check(a[1] == b[0], RuntimeError,
          f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})")


def _output(form: str, out, shape: tuple[int, ...], like):
    """set_output_raw_strided: a new contiguous tensor, or the out= tensor checked and
    resized (at::native::resize_output)."""
    if form != OUT:
        return memory.empty_generic(shape, like.dtype, like.device_type)
    check(out.dtype is like.dtype, RuntimeError,
          f"Expected out tensor to have dtype {D.type_meta_name(like.dtype)}, but got "
          f"{D.type_meta_name(out.dtype)} instead")
    resize_output(out, shape, tuple(_contiguous(shape)))
    return out


def _contiguous(shape):
    return S.contiguous_strides(shape)


@structured("mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
            native="at::native::mm_out_cpu (structured)",
            out_native="at::native::mm_out_cpu (structured)", source=LINALG,
            inplace=False, variants="function, method", device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER, meta=META_PYTHON,
            at_dispatch=_blas_dispatch("addmm_impl_cpu_"))
def mm(form: str, self, mat2, *, out):
    _mm_meta(self, mat2)
    result = _output(form, out, (self.view.sizes[0], mat2.view.sizes[1]), self)
    _addmm_impl(result, result, self, mat2)
    return result


@structured("addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
            "Tensor(a!) out) -> Tensor(a!)",
            native="at::native::addmm_out_cpu (structured)",
            out_native="at::native::addmm_out_cpu (structured)", source=LINALG,
            variants="function, method", device_check=CHECK_WRAPPER,
            out_device_check=CHECK_WRAPPER, meta=META_PYTHON,
            at_dispatch=_blas_dispatch("addmm_impl_cpu_"))
def addmm(form: str, self, mat1, mat2, *, out, beta=1, alpha=1):
    # ADDMM_META()
    check(self.dtype is mat2.dtype, RuntimeError,
          f"self and mat2 must have the same dtype, but got {D.cpp_name(self.dtype)} and "
          f"{D.cpp_name(mat2.dtype)}")
    check(mat1.dtype is mat2.dtype, RuntimeError,
          f"mat1 and mat2 must have the same dtype, but got {D.cpp_name(mat1.dtype)} and "
          f"{D.cpp_name(mat2.dtype)}")
    check(mat1.dim() == 2, RuntimeError, f"mat1 must be a matrix, got {mat1.dim()}-D tensor")
    check(mat2.dim() == 2, RuntimeError, f"mat2 must be a matrix, got {mat2.dim()}-D tensor")
    a, b = mat1.view.sizes, mat2.view.sizes
    check(a[1] == b[0], RuntimeError,
          f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})")
    shape = (a[0], b[1])
    if form == INPLACE:
        if tuple(self.view.sizes) != shape:
            raise Refused("addmm_ into a self of another shape than the product's is not "
                          "modelled yet")
        result = self
    else:
        result = _output(form, out, shape, mat1)
    # expand_size(self, {m, n}, "addmm_out"): an expand only when the sizes differ
    b_self = self if tuple(self.view.sizes) == shape else aten.expand.default(self, list(shape))
    _addmm_impl(result, b_self, mat1, mat2, beta, alpha)
    return result


# deprecated.yaml: the Scalar-first signatures torch still binds (beta, self, alpha, ...)
deprecated("addmm(Scalar beta, Tensor self, Scalar alpha, Tensor mat1, Tensor mat2) -> Tensor",
           "addmm(self, mat1, mat2, beta, alpha)")
deprecated("addmm_(Scalar beta, Tensor(a!) self, Scalar alpha, Tensor mat1, Tensor mat2) -> Tensor(a!)",
           "addmm_(self, mat1, mat2, beta, alpha)")
deprecated("addmm(Scalar beta, Tensor self, Scalar alpha, Tensor mat1, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
           "addmm_out(out, self, mat1, mat2, beta, alpha)")
deprecated("addmm(Scalar beta, Tensor self, Tensor mat1, Tensor mat2) -> Tensor",
           "addmm(self, mat1, mat2, beta, 1)")
deprecated("addmm_(Scalar beta, Tensor(a!) self, Tensor mat1, Tensor mat2) -> Tensor(a!)",
           "addmm_(self, mat1, mat2, beta, 1)")
deprecated("addmm(Scalar beta, Tensor self, Tensor mat1, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
           "addmm_out(out, self, mat1, mat2, beta, 1)")
deprecated("addmv(Scalar beta, Tensor self, Scalar alpha, Tensor mat, Tensor vec) -> Tensor",
           "addmv(self, mat, vec, beta, alpha)")
deprecated("addmv_(Scalar beta, Tensor(a!) self, Scalar alpha, Tensor mat, Tensor vec) -> Tensor(a!)",
           "addmv_(self, mat, vec, beta, alpha)")
deprecated("addmv(Scalar beta, Tensor self, Scalar alpha, Tensor mat, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)",
           "addmv_out(out, self, mat, vec, beta, alpha)")
deprecated("addmv(Scalar beta, Tensor self, Tensor mat, Tensor vec) -> Tensor",
           "addmv(self, mat, vec, beta, 1)")
deprecated("addmv_(Scalar beta, Tensor(a!) self, Tensor mat, Tensor vec) -> Tensor(a!)",
           "addmv_(self, mat, vec, beta, 1)")
deprecated("addmv(Scalar beta, Tensor self, Tensor mat, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)",
           "addmv_out(out, self, mat, vec, beta, 1)")


# -- mv: addmv ---------------------------------------------------------------------------------
GEMV = step("gemv<scalar_t>", Layer.KERNEL, source=BLAS)


@structured("addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, "
            "Tensor(a!) out) -> Tensor(a!)",
            native="at::native::addmv_out_cpu (structured)",
            out_native="at::native::addmv_out_cpu (structured)", source=BLAS,
            variants="function, method", inplace_variants="function, method",
            device_check=CHECK_WRAPPER, out_device_check=CHECK_WRAPPER, meta=META_PYTHON,
            at_dispatch=_blas_dispatch("addmv_impl_cpu"))
def addmv(form: str, self, mat, vec, *, out, beta=1, alpha=1):
    # TORCH_META_FUNC(addmv)
    check(mat.dim() == 2 and vec.dim() == 1 and self.dim() <= 1, RuntimeError,
          f"vector + matrix @ vector expected, got {self.dim()}, {mat.dim()}, {vec.dim()}")
    rows, cols = mat.view.sizes
    check(cols == vec.view.sizes[0] and (rows == self.numel() or self.numel() == 1),
          RuntimeError, f"size mismatch, got input ({self.view.sizes[0] if self.dim() else 1}"
          f"), mat ({rows}x{cols}), vec ({vec.view.sizes[0]})")
    check(self.dtype is mat.dtype and mat.dtype is vec.dtype, RuntimeError,
          f"addmv input tensors must have the same dtype, but got {D.cpp_name(self.dtype)}, "
          f"{D.cpp_name(mat.dtype)}, and {D.cpp_name(vec.dtype)}")
    if form == OUT:
        result = _output(form, out, (rows,), vec)
    elif out is None:
        result = memory.empty_generic((rows,), vec.dtype, vec.device_type)
    else:
        result = out
        if tuple(result.view.sizes) != (rows,):
            raise Refused("addmv_ into a self of another shape than the product's is not "
                          "modelled yet")
    # addmv_out_cpu: expand_size(self, {mat.size(0)}) -- an expand only when it differs
    b_self = self if tuple(self.view.sizes) == (rows,) else aten.expand.default(self, [rows])
    if mat.numel() == 0:
        if beta != 0:
            raise Refused("addmv of an empty matrix with beta other than 0 (at::cpu::mul_out "
                          "of self and beta) is not modelled yet")
        aten.zero_.default(result)      # beta is 0: self is ignored
        return result
    if result.numel() == 0:
        return result
    dispatched(mat.dtype, "addmv_impl_cpu")
    st = mat.view.strides
    # lda_cond(m, n, lda): n == 1 || lda >= max(1, m)
    if st[0] == 1 and (cols == 1 or st[1] >= max(1, rows)):
        flag, operand = "n", mat
    elif st[1] == 1 and (rows == 1 or st[0] >= max(1, cols)):
        flag, operand = "t", mat
    else:
        flag, operand = "t", aten.contiguous.default(mat)
    with span(GEMV, flag=flag, m=rows, n=cols, beta=beta, alpha=alpha) as s:
        if not result.is_meta:
            values, note = _values("mv", operand.array(), vec.array()[:, None],
                                   result.dtype, cols)
            prod = values[:, 0]
            if beta != 0 or alpha != 1:
                # y = beta * self + alpha * (mat @ vec); the copy of self into the result
                # (at::native::copy_, when they differ) is called, not dispatched
                prod = _gemv_scaled(result.dtype, b_self.array(), prod, beta, alpha)
                if note is not None and note.id == "matmul.bound":
                    note = _gemv_note(operand, vec, b_self, beta, alpha, cols)
            result.array(write=True)[...] = prod
            s.note(note)
            s.set(read=[touched(operand), touched(vec)]
                  + ([touched(b_self)] if beta != 0 else []), written=touched(result))
        s.set_result(result)
    return result


def opmath_scalar(x, dtype: D.dtype):
    """Scalar::to<scalar_t>: a float beta or alpha truncates toward zero for integers."""
    if dtype.is_floating_point:
        return x
    v = int(x)
    if dtype is not D.bool:
        info = np.iinfo(dtype.np)
        if not info.min <= v <= info.max:
            raise Refused(f"a beta or alpha of {x} overflows {dtype.name}, which torch "
                          "refuses; tidx does not model that message yet")
    return v


def _gemv_scaled(dtype: D.dtype, y: np.ndarray, prod: np.ndarray, beta, alpha) -> np.ndarray:
    """beta * y + alpha * prod in the dtype (beta 0: y is not read); integers wrap, so
    gemv's order gives these bits."""
    b, a = opmath_scalar(beta, dtype), opmath_scalar(alpha, dtype)
    with np.errstate(all="ignore"):
        out = np.asarray(a).astype(dtype.np) * prod
        if b != 0:
            out = np.asarray(b).astype(dtype.np) * y + out
    return out.astype(dtype.np, copy=False)


def _gemv_note(mat, vec, y, beta, alpha, k: int) -> Note:
    """gemv's bound with its scalars, as gemm's (Higham 3.5): gamma_{k+2} (|alpha||A||x|
    + |beta||y|), twice that between two orders."""
    dtype = y.dtype
    check_temporary("addmv", y.numel(), 24)
    mags = abs(alpha) * (np.abs(mat.array().astype(np.float64))
                         @ np.abs(vec.array().astype(np.float64)))
    if beta != 0:
        mags = mags + abs(beta) * np.abs(y.array().astype(np.float64))
    u = _UNIT[dtype.name]
    gamma = (k + 2) * u / (1 - (k + 2) * u)
    return Note("matmul.bound", k=k, bound=_up(2 * gamma * float(np.max(mags))),
                dtype=dtype.name)


@declare("mv(Tensor self, Tensor vec) -> Tensor", variants="function, method",
         native="at::native::mv", source=BLAS, meta=META_PYTHON)
def mv(self, vec):
    # mv: at::addmv_(at::empty({self.size(0)}, vec.options()), self, vec, 0, 1)
    result = aten.empty.memory_format([self.view.sizes[0] if self.dim() else 1],
                                      dtype=vec.dtype, device=vec.device_type)
    return aten.addmv_.default(result, self, vec, beta=0, alpha=1)


@declare("mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::mv_out", source=BLAS, meta=META_PYTHON)
def mv_out(self, vec, *, out):
    # addmv's self is never resized: unless the out= tensor can stand as self (one
    # element, or the product's length), a fresh one does; beta is 0, so it is not read
    rows = self.view.sizes[S.maybe_wrap_dim(0, self.dim(), wrap_scalar=False)]
    if out.dim() > 1 or (out.numel() != rows and out.numel() != 1):
        self_addmv = aten.empty.memory_format([rows], dtype=vec.dtype, device=vec.device_type)
        return aten.addmv.out(self_addmv, self, vec, beta=0, alpha=1, out=out)
    return aten.addmv.out(out, self, vec, beta=0, alpha=1, out=out)


# -- matmul: _matmul_impl ----------------------------------------------------------------------
MATMUL_IMPL = step("_matmul_impl", Layer.KERNEL, source=LINALG)


def _should_fold(t1, t2) -> bool:
    """should_fold: matmul can fold t1's batch dims into its rows and run mm/mv."""
    larger = t1.dim() >= t2.dim()
    first = t1 if larger else aten.mT.default(t2)
    dim_t2 = t2.dim() if larger else t1.dim()
    if not (first.dim() >= 3 and dim_t2 <= 2):
        return False
    if t1.dim() == 2:
        return False
    if first.numel() == 0:
        return True
    sizes, strides = first.view.sizes, first.view.strides
    return all(strides[i] == strides[i + 1] * sizes[i + 1] for i in range(first.dim() - 2))


@declare("matmul(Tensor self, Tensor other) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::matmul", source=LINALG)
def matmul(self, other):
    return _matmul_impl(None, self, other)


@declare("matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::matmul_out", source=LINALG)
def matmul_out(self, other, *, out):
    _matmul_impl(out, self, other)
    return out


def _matmul_impl(out, self, other):
    """_matmul_impl(out, tensor1, tensor2): with an out= tensor, each branch calls the
    out= form of its kernel (dot_out, mv_out, mm_out, bmm_out), the folded and batched
    ones into ``out`` resized and reshaped, copied back when the reshape had to copy."""
    d1, d2 = self.dim(), other.dim()
    check(d1 != 0 and d2 != 0, RuntimeError,
          f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    has_out = out is not None
    with span(MATMUL_IMPL, note=Note("matmul.dispatch", left=d1, right=d2)):
        pass
    if d1 == 1 and d2 == 1:
        return aten.dot.out(self, other, out=out) if has_out else aten.dot.default(self, other)
    if d1 == 2 and d2 == 1:
        return aten.mv.out(self, other, out=out) if has_out else aten.mv.default(self, other)
    if d1 == 1 and d2 == 2:
        row = aten.unsqueeze.default(self, 0)
        product = aten.mm.out(row, other, out=out) if has_out else aten.mm.default(row, other)
        return aten.squeeze_.dim(product, 0)
    if d1 == 2 and d2 == 2:
        return aten.mm.out(self, other, out=out) if has_out else aten.mm.default(self, other)
    if _should_fold(self, other):
        transpose = d2 > d1
        t1 = aten.mT.default(other) if transpose else self
        t2 = (aten.t.default(self) if d1 == 2 else self) if transpose else other
        shape = list(t1.view.sizes[:-1])
        folded = int(np.prod(shape))
        if t2.dim() == 2:
            shape.append(t2.view.sizes[1])
        t1_folded = aten.reshape.default(t1, [folded, t1.view.sizes[-1]])
        if not has_out:
            if t2.dim() == 2:
                output = aten._unsafe_view.default(aten.mm.default(t1_folded, t2), shape)
                return aten.contiguous.default(aten.mT.default(output)) if transpose else output
            return aten._unsafe_view.default(aten.mv.default(t1_folded, t2), shape)
        resize_output(out, tuple(shape), tuple(_contiguous(shape)))
        if t2.dim() == 2:
            reshaped = aten.reshape.default(out, [folded, t2.view.sizes[-1]])
            aten.mm.out(t1_folded, t2, out=reshaped)
        else:
            reshaped = aten.reshape.default(out, [folded])
            aten.mv.out(t1_folded, t2, out=reshaped)
        if reshaped.storage is not out.storage:     # !reshaped_out.is_alias_of(out)
            aten.copy_.default(out, reshaped)
        return out
    s1, s2 = self.view.sizes, other.view.sizes
    n = s1[-2] if d1 > 1 else 1
    m1 = s1[-1]
    m2 = s2[-2] if d2 > 1 else s2[0]
    p = s2[-1] if d2 > 1 else 1
    shape = list(shape_math.infer_broadcast(s1[:max(d1 - 2, 0)], s2[:max(d2 - 2, 0)]))
    product = int(np.prod(shape))
    t1 = aten.reshape.default(aten.expand.default(self, shape + [n, m1]), [product, n, m1])
    vector_rhs = d2 == 1
    t2 = aten.expand.default(other, shape + ([m2] if vector_rhs else [m2, p]))
    if vector_rhs:
        t2 = aten.unsqueeze.default(aten.reshape.default(t2, [product, m2]), 2)
    else:
        t2 = aten.reshape.default(t2, [product, m2, p])
    if d1 > 1:
        shape.append(n)
    if d2 > 1:
        shape.append(p)
    if not has_out:
        result = aten.bmm.default(t1, t2)
        if vector_rhs:
            result = aten.squeeze.dim(result, -1)
        return aten._unsafe_view.default(result, shape)
    resize_output(out, tuple(shape), tuple(_contiguous(shape)))
    reshaped = aten.reshape.default(out, [product, n, p])
    aten.bmm.out(t1, t2, out=reshaped)
    if vector_rhs:
        reshaped = aten.squeeze.dim(reshaped, -1)
    if reshaped.storage is not out.storage:
        aten.copy_.default(out, aten.view_as.default(reshaped, out))
    return out


# -- matrix_power: linalg_matrix_power_impl (LinearAlgebra.cpp) --------------------------------

@declare("matrix_power(Tensor self, int n) -> Tensor", variants="function, method",
         kind=COMPOSITE, native="at::native::matrix_power", source=LINALG)
def matrix_power(self, n: int):
    return _matrix_power_impl(self, n, None)


@declare("matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)",
         kind=COMPOSITE, native="at::native::matrix_power_out", source=LINALG)
def matrix_power_out(self, n: int, *, out):
    # linalg_matrix_power_out: linalg_matrix_power_impl(A, n, result)
    _matrix_power_impl(self, n, out)
    return out


def _can_cast(src: D.dtype, dst: D.dtype) -> bool:
    """c10::canCast for real dtypes: no float into an integer, nothing but bool into bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    return not (src is not D.bool and dst is D.bool)


def _matrix_power_impl(self, n: int, out):
    """linalg_matrix_power_impl(self, n, _out): with an out= tensor, its dtype must be one
    the result casts to safely and it is resized to self's shape; the last product goes
    into it (matmul_out), or a copy_ where there is no product."""
    # squareCheckInputs(self, "linalg.matrix_power")
    check(self.dim() >= 2, RuntimeError,
          "linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    rows, cols = self.view.sizes[-2:]
    check(rows == cols, RuntimeError, "linalg.matrix_power: A must be batches of square "
          f"matrices, but they are {rows} by {cols} matrices")
    if out is not None:
        check(_can_cast(self.dtype, out.dtype), RuntimeError,
              f"matrix_power: Expected result to be safely castable from "
              f"{D.cpp_name(self.dtype)} dtype, but got result with dtype "
              f"{D.cpp_name(out.dtype)}")
        resize_output(out, tuple(self.view.sizes), tuple(_contiguous(self.view.sizes)))
    if n <= 0:
        raise Refused("matrix_power with n <= 0 (the identity from eye, or an inverse) is "
                      "not modelled yet")
    if n == 1:
        if out is not None:
            return aten.copy_.default(out, self)
        return aten.clone.default(self, memory_format="contiguous_format")
    if n == 2:
        if out is not None:
            return aten.matmul.out(self, self, out=out)
        return aten.matmul.default(self, self)
    if n == 3:
        square = aten.matmul.default(self, self)
        if out is not None:
            return aten.matmul.out(square, self, out=out)
        return aten.matmul.default(square, self)
    # the binary decomposition of n: z runs through a^(2^i), result gathers the set bits
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = self if z is None else aten.matmul.default(z, z)
        if bit:
            if out is not None and n <= 0:
                # the last multiplication uses the out= version
                if result is None:
                    return aten.copy_.default(out, z)
                return aten.matmul.out(result, z, out=out)
            result = z if result is None else aten.matmul.default(result, z)
    return result
