"""模拟 CUDA 设备上高级索引的中文注释 (issue 16:engine/ops/cuda_indexing.py)。
由 :data:`tracer.i18n.zh.TEXT` 合并进来;与 en_cudaindex.py 的 id 一一对应。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "cudaindex.value_to_device":
        "值是 CPU 上的 0 维张量(setitem 在那里创建它),self 在 {device} 上:"
        "_index_put_impl_ 用 value.to(self.device()) 把它拷到设备上,一次主机到设备的拷贝(模拟)",
    "cudaindex.index_to_device":
        "第 {dim} 个索引在 CPU 上,self 在 {device} 上:make_info 用 indice.to(self.device()) "
        "把它移过去,主机到设备 {nbytes} 字节(模拟)",
    "cudaindex.index_kernel":
        "IndexKernel.cu 的 index_kernel,即 CUDA 的 index_stub:按元素大小启动一次 "
        "gpu_index_kernel(模拟)",
    "cudaindex.index_put_kernel":
        "IndexKernel.cu 的 index_put_kernel,即 CUDA 的 index_put_stub(accumulate=False):"
        "按元素大小启动一次 gpu_index_kernel(模拟)",
    "cudaindex.gpu_index_kernel.read":
        "gpu_index_kernel(模拟):{numel} 个 GPU 线程;线程 i 把每个索引张量的 index * stride "
        "加到自己的偏移上(由 CUDA_KERNEL_ASSERT 检查),再把那个元素读到 out[i]",
    "cudaindex.gpu_index_kernel.write":
        "gpu_index_kernel(模拟):{numel} 个 GPU 线程;线程 i 把每个索引张量的 index * stride "
        "加到自己的偏移上(由 CUDA_KERNEL_ASSERT 检查),再把自己的值写到那里",
}
