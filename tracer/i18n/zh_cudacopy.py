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
    "cudacopy.temporaries.cast":
        "在 CPU 与 GPU 之间且需要类型转换:需要 dtype 相同的连续临时张量,因为 cudaMemcpyAsync "
        "只搬运字节,不做转换",
    "cudacopy.temporaries.strided":
        "在 CPU 与 GPU 之间且迭代器不连续:需要连续的临时张量,因为 cudaMemcpyAsync "
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
    # -- DistributionTemplates.h:其他 dtype 的随机核(engine/rng/philox.py)
    "cudacopy.normal_kernel.float64":
        "模拟 GPU 上 DistributionNormal.cu 的 normal_kernel,float64:curand_normal2_double,"
        "每个 Philox4x32-10 块给 2 个 double(字是精确的;double Box-Muller 的 log、sqrt、"
        "sincospi 是模拟的,末几位可能不同),再在 double 中做一次融合的 rand x std + mean",
    "cudacopy.uniform_kernel.float64":
        "模拟 GPU 上 DistributionUniform.cu 的 uniform_kernel,float64:curand_uniform2_double,"
        "每个 Philox4x32-10 块给 2 个 53 位的 double,逐位精确,再在 double 中做一次融合的 "
        "rand x (to - from) + from",
    "cudacopy.normal_kernel.float16":
        "模拟 GPU 上 DistributionNormal.cu 的 normal_kernel,float16:accscalar_t 是 float,"
        "所以和 float32 一样用 curand_normal4(Box-Muller 是模拟的),在 float 中算 "
        "rand x std + mean,再舍入为 half",
    "cudacopy.uniform_kernel.float16":
        "模拟 GPU 上 DistributionUniform.cu 的 uniform_kernel,float16:和 float32 一样用 "
        "curand_uniform4(逐位精确),在 float 中算 rand x (to - from) + from,再舍入为 half;"
        "等于 to 的值变成 from",
    "cudacopy.philox.normal2_double":
        "{threads} 个线程;线程 i 调用 curand_init(种子 {seed},子序列 i,偏移 {offset}),"
        "每轮一次 curand_normal2_double:一个 Philox4x32-10 块,对 (x, y, z, w) 做一次 "
        "Box-Muller,给元素 i、i + threads 两个正态数(模拟值:log、sqrt、sincospi 是近似的)",
    "cudacopy.philox.uniform2_double":
        "{threads} 个线程;线程 i 调用 curand_init(种子 {seed},子序列 i,偏移 {offset}),"
        "每轮一次 curand_uniform2_double:一个 Philox4x32-10 块,(x ^ y << 21) 与 "
        "(z ^ w << 21) x 2^-53 + 2^-54,落在 (0, 1],给元素 i、i + threads",
    "cudacopy.is_same_data":
        "self 与 src 是同一份数据的视图(同一存储,偏移、步长、尺寸和 dtype 都相同):"
        "copy_impl 立即返回,什么也不拷贝",
}
