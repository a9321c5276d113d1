"""Chinese notes of the simulated CUDA runtime (issue 16); the ids of en_cudart.py.
Part of :data:`tracer.i18n.zh.TEXT`, which merges this table in.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "cudart.died.rebound":
        "{names} 被重新绑定：再没有名字持有它原来的张量，CPython 释放最后一个引用，存储随之销毁",
    "cudart.died.result":
        "语句的值已显示，之后无人持有：它的存储随之销毁",
    "cudart.died.temporary":
        "本语句的临时张量：没有名字持有它，它的存储随之销毁",
    "cudart.tensor_impl_dtor":
        "TensorImpl 销毁，放开它对 StorageImpl 的引用（最后一个）",
    "cudart.storage_impl_dtor":
        "{nbytes} 字节的 StorageImpl 销毁：运行其 DataPtr 的删除函数",
    "cudart.local_raw_delete":
        "DataPtr 的删除函数是缓存分配器的 local_raw_delete：{ptr} 还给分配器，而不是驱动",
    "cudart.native_free":
        "NativeCachingAllocator::free：{ptr} 处的块（{size} 字节）回到缓存；不调用 cudaFree",
    "cudart.get_allocated_block":
        "allocated_blocks 把 {ptr} 映射到它的 {size} 字节块（并从表中移除）",
    # -- the torch.cuda namespace (torch/cuda/*.py over torch/csrc/cuda/Module.cpp) ---
    "cudart.is_available":
        "tidx 的模拟 GPU：这台机器有一个模拟设备 cuda:0，所以这里答 True；你自己的 torch 按你的机器回答（CPU 版本，例如 tidx 对照的 torch 2.13.0+cpu，答 False）",
    "cudart.device_count":
        "c10::cuda::device_count 向驱动询问一次（cudaGetDeviceCount）并记住答案：1 个模拟 GPU",
    "cudart.device_count.python":
        "torch 可用的 GPU 数：torch._C._cuda_getDeviceCount()",
    "cudart.current_device":
        "未指定设备时新的 CUDA 张量所在的设备：cuda:0，唯一的一个",
    "cudart.get_device_name":
        "get_device_properties(device).name：cudaGetDeviceProperties 给出的名字；tidx 的设备是模拟的，名字也这么说",
    "cudart.get_stats":
        "缓存分配器的 DeviceStats：{key} 为 {value}",
    "cudart.memory_allocated":
        "张量当前持有的块的字节数（allocated_bytes.all.current）：每块按取整后的大小计，是 512 的倍数",
    "cudart.memory_reserved":
        "cudaMalloc 交给缓存的段的字节数（reserved_bytes.all.current），无论是否在用",
    "cudart.max_memory_allocated":
        "本次运行以来 memory_allocated 的峰值（allocated_bytes.all.peak）",
    "cudart.max_memory_reserved":
        "本次运行以来 memory_reserved 的峰值（reserved_bytes.all.peak）",
    "cudart.empty_cache":
        "把缓存的段还给驱动：只有整段都是一个空闲块的段才会用 cudaFree 归还；张量持有的块保留",
    "cudart.synchronize":
        "等待设备上排队的所有内核执行完毕",
    "cudart.device_synchronize":
        "cudaDeviceSynchronize：模拟设备在启动内核时就执行完它，没有需要等待的",
    "cudart.manual_seed":
        "用 {seed} 设置当前 GPU 默认生成器（CUDAGeneratorImpl）的种子",
    "cudart.manual_seed_all":
        "用 {seed} 设置每个 GPU 默认生成器的种子；模拟机器只有一个",
    "cudart.initial_seed":
        "当前 GPU 默认生成器开始时（或最近一次设定）的种子",
    "cudart.torch_device":
        "一个 torch.device 值：设备类型加可选的序号；不分配任何内存",
    # -- the allocation footer, the CPU and the simulated GPU apart (tracer/allocated.py)
    "ui.allocated.on_cpu": "CPU 上 {what}",
    "ui.allocated.on_cuda": "；cuda:0（模拟）上 {what}",
    "ui.allocated.freed": "；{what} 释放回缓存",
}
