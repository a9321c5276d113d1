"""The matmul family's ``out_dtype`` overloads (``torch.mm(a, b, out_dtype=torch.float32)``:
a half or bfloat16 product kept in float), which torch 2.13 runs on CUDA and on the meta
device only (aten/src/ATen/native/cuda/Blas.cpp; torch/_meta_registrations.py).

On the CPU the dispatcher finds no kernel for them: after the autograd key (which has
nothing to record: derivatives.yaml has no entry) torch raises OperatorEntry::reportError's
NotImplementedError, which tidx raises with the same first paragraph
(engine/dispatch/missing_kernel.py).  On tidx's simulated GPU and on the meta device they
are refused in one line: what CUDA computes (cuBLAS's order in float) is not modelled.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import Refused
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, OUT, declare
from engine.dispatch.missing_kernel import no_kernel

BLAS = "aten/src/ATen/native/cuda/Blas.cpp"

#: the dispatch keys torch 2.13's CPU wheel has kernels for, for each of the eight
#: overloads (the same list for all of them, read from torch's own message)
REGISTERED = (
    "Meta", "BackendSelect", "Python", "FuncTorchDynamicLayerBackMode", "Functionalize",
    "Conjugate", "Negative", "ZeroTensor", "ADInplaceOrView", "AutogradOther", "AutogradCPU",
    "AutogradCUDA", "AutogradHIP", "AutogradXLA", "AutogradMPS", "AutogradIPU", "AutogradXPU",
    "AutogradHPU", "AutogradVE", "AutogradLazy", "AutogradMTIA", "AutogradMAIA",
    "AutogradPrivateUse1", "AutogradPrivateUse2", "AutogradPrivateUse3", "AutogradMeta",
    "AutogradNestedTensor", "Tracer", "AutocastCPU", "AutocastMTIA", "AutocastMAIA",
    "AutocastXPU", "AutocastMPS", "AutocastCUDA", "FuncTorchBatched", "BatchedNestedTensor",
    "FuncTorchVmapMode", "Batched", "VmapMode", "FuncTorchGradWrapper", "PythonTLSSnapshot",
    "FuncTorchDynamicLayerFrontMode", "PreDispatch", "PythonDispatcher")


def _run(full_name: str, *tensors: Any) -> Any:
    devices = {t.device_type for t in tensors if t is not None}
    if devices <= {"cpu"}:
        no_kernel(full_name, "CPU", REGISTERED)
    raise Refused(f"{full_name} (out_dtype=) on the {'/'.join(sorted(devices))} device is not "
                  "modelled: tidx does not compute CUDA's product of half or bfloat16 "
                  "matrices kept in float")


_NATIVE = "at::native::_mm_dtype_cuda (no CPU kernel)"


@declare("mm.dtype(Tensor self, Tensor mat2, ScalarType out_dtype) -> Tensor",
         native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def mm_dtype(self, mat2, out_dtype):
    return _run("aten::mm.dtype", self, mat2)


@declare("mm.dtype_out(Tensor self, Tensor mat2, ScalarType out_dtype, *, Tensor(a!) out) "
         "-> Tensor(a!)", kind=OUT, native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def mm_dtype_out(self, mat2, out_dtype, *, out):
    return _run("aten::mm.dtype_out", self, mat2, out)


@declare("bmm.dtype(Tensor self, Tensor mat2, ScalarType out_dtype) -> Tensor",
         native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def bmm_dtype(self, mat2, out_dtype):
    return _run("aten::bmm.dtype", self, mat2)


@declare("bmm.dtype_out(Tensor self, Tensor mat2, ScalarType out_dtype, *, Tensor(a!) out) "
         "-> Tensor(a!)", kind=OUT, native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def bmm_dtype_out(self, mat2, out_dtype, *, out):
    return _run("aten::bmm.dtype_out", self, mat2, out)


@declare("addmm.dtype(Tensor self, Tensor mat1, Tensor mat2, ScalarType out_dtype, *, "
         "Scalar beta=1, Scalar alpha=1) -> Tensor", native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def addmm_dtype(self, mat1, mat2, out_dtype, *, beta=1, alpha=1):
    return _run("aten::addmm.dtype", self, mat1, mat2)


@declare("addmm.dtype_out(Tensor self, Tensor mat1, Tensor mat2, ScalarType out_dtype, *, "
         "Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", kind=OUT,
         native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def addmm_dtype_out(self, mat1, mat2, out_dtype, *, beta=1, alpha=1, out):
    return _run("aten::addmm.dtype_out", self, mat1, mat2, out)


@declare("baddbmm.dtype(Tensor self, Tensor batch1, Tensor batch2, ScalarType out_dtype, *, "
         "Scalar beta=1, Scalar alpha=1) -> Tensor", native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def baddbmm_dtype(self, batch1, batch2, out_dtype, *, beta=1, alpha=1):
    return _run("aten::baddbmm.dtype", self, batch1, batch2)


@declare("baddbmm.dtype_out(Tensor self, Tensor batch1, Tensor batch2, ScalarType out_dtype,"
         " *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", kind=OUT,
         native=_NATIVE, source=BLAS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER)
def baddbmm_dtype_out(self, batch1, batch2, out_dtype, *, beta=1, alpha=1, out):
    return _run("aten::baddbmm.dtype_out", self, batch1, batch2, out)
