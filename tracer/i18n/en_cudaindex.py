"""English notes of advanced indexing on the simulated CUDA device (issue 16:
engine/ops/cuda_indexing.py).  Part of :data:`tracer.i18n.en.TEXT`, which merges this
table in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- TensorAdvancedIndexing.cpp / TensorAdvancedIndexingUtils.h on a CUDA self ----------
    "cudaindex.value_to_device":
        "the value is a 0-dim tensor on the CPU (setitem made it there) and self is on "
        "{device}: _index_put_impl_ moves it with value.to(self.device()), a host-to-device "
        "copy (simulated)",
    "cudaindex.index_to_device":
        "index {dim} is on the CPU and self on {device}: make_info moves it with "
        "indice.to(self.device()), {nbytes} bytes host to device (simulated)",
    # -- aten/src/ATen/native/cuda/IndexKernel.cu ------------------------------------------
    "cudaindex.index_kernel":
        "index_kernel of IndexKernel.cu, the CUDA index_stub: one gpu_index_kernel launch "
        "for the element size (simulated)",
    "cudaindex.index_put_kernel":
        "index_put_kernel of IndexKernel.cu, the CUDA index_put_stub (accumulate=False): one "
        "gpu_index_kernel launch for the element size (simulated)",
    "cudaindex.gpu_index_kernel.read":
        "gpu_index_kernel (simulated): {numel} GPU threads; thread i adds index * stride of "
        "every index tensor to its offset, checked by CUDA_KERNEL_ASSERT, and reads that "
        "element into out[i]",
    "cudaindex.gpu_index_kernel.write":
        "gpu_index_kernel (simulated): {numel} GPU threads; thread i adds index * stride of "
        "every index tensor to its offset, checked by CUDA_KERNEL_ASSERT, and writes its "
        "value there",
}
