"""Chinese notes of Copy.cu's full copy path on the simulated CUDA device (issue 16):
engine/ops/cuda_copy.py.  Part of :data:`tracer.i18n.zh.TEXT`, which merges this table in.
Plain data, no logic; the same ids as en_cudacopy.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "cudacopy.copy_kernel":
        "copy_kernel_cuda(模拟):从 {src} 拷贝到 {dst}",
    "cudacopy.no_temporaries.same_gpu":
        "两端在同一块 GPU 上:从不需要临时张量(copy_device_to_device)",
    "cudacopy.temporaries":
        "在 CPU 与 GPU 之间且有{why}:需要连续的临时张量,因为 cudaMemcpyAsync "
        "只能搬运一段连续的字节",
    "cudacopy.plan.convert_src":
        "转换在源张量一侧({device}):在那里做 src.to({dtype}).expand_as(dst).contiguous(),"
        "dst 不连续时再分配一个连续的 empty_like(dst)",
    "cudacopy.plan.convert_dst":
        "转换在目标一侧:在 {device} 上做 src.expand_as(dst).contiguous()(仍是 {src_dtype}),"
        "除非 dst 连续且是该 dtype,否则分配 empty_like(dst, {src_dtype})",
    "cudacopy.copy_back":
        "dst_contig 不是 dst:在 {device} 上再把它拷进 dst",
    "cudacopy.memcpy_d2d":
        "copy_device_to_device(模拟):dtype 相同且迭代器连续:一次 {nbytes} 字节的 "
        "cudaMemcpyAsync,DeviceToDevice,在流 {stream} 上;不同步",
    "cudacopy.gpu_kernel":
        "copy_device_to_device(模拟):逐元素的 gpu_kernel,每个元素一个线程,"
        "{src} -> {dst},共 {numel} 个元素;不同步",
}
