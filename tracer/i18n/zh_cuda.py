"""模拟 CUDA 设备的中文注释 (issue 16):缓存分配器与 Philox 生成器。
由 :data:`tracer.i18n.zh.TEXT` 合并进来;与 en_cuda.py 的 id 一一对应。
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- c10/cuda/CUDACachingAllocator.cpp ------------------------------------------------
    "cuda.allocate_zero": "0 字节:不取任何块,DataPtr 是 nullptr",
    "cuda.malloc":
        "在模拟 GPU 的 stream {stream} 上申请 {nbytes} 字节:先从分配器的缓存里找,"
        "只有没有合适的缓存块时才调用 cudaMalloc",
    "cuda.round_size": "{nbytes} 字节向上取整为 {rounded}:kMinBlockSize (512) 的倍数",
    "cuda.round_size.power2":
        "{nbytes} 字节向上取整为 {rounded}:roundup_power2_divisions 把相邻两个 2 的幂之间"
        "等分成 {divisions} 段",
    "cuda.get_pool.small": "{size} 字节 <= kSmallSize (1 MiB):小块池",
    "cuda.get_pool.large": "{size} 字节 > kSmallSize (1 MiB):大块池",
    "cuda.get_free_block.found":
        "最佳匹配:stream {stream} 上至少 {size} 字节的最小缓存块是位于 {ptr} 的 "
        "{block_size} 字节块:无需 cudaMalloc",
    "cuda.get_free_block.none": "{pool} 里没有 stream {stream} 的、至少 {size} 字节的缓存块",
    "cuda.alloc_size.small":
        "新段大小为 kSmallBuffer = {alloc_size} 字节 (2 MiB):之后的小块也从这里切出",
    "cuda.alloc_size.medium":
        "介于 1 MiB 和 kMinLargeAlloc (10 MiB) 之间:新段大小为 kLargeBuffer = "
        "{alloc_size} 字节 (20 MiB),之后的请求可以再切分它",
    "cuda.alloc_size.large":
        "10 MiB 或更大:段的大小向上取整为 kRoundLarge (2 MiB) 的倍数,{alloc_size} 字节",
    "cuda.cudaMalloc": "cudaMalloc({nbytes}):驱动在 {ptr} 给出一个新段(模拟地址)",
    "cuda.split":
        "切分这个 {block_size} 字节的块:{ptr} 处的 {size} 字节交给调用者,"
        "{rest} 处剩下的 {remaining} 字节作为空闲块留在缓存里",
    "cuda.no_split.small":
        "只会剩下 {remaining} 字节(少于 kMinBlockSize,512):整个 {size} 字节的块都交出去",
    "cuda.no_split.large":
        "只会剩下 {remaining} 字节(大块只有剩余超过 kSmallSize,1 MiB,时才切分):"
        "整个 {size} 字节的块都交出去",
    "cuda.free":
        "张量已释放:{ptr} 处 {size} 字节的块回到 stream {stream} 的缓存,而不是还给驱动",
    "cuda.try_merge_blocks":
        "同一段里 {subsumed} 字节的空闲邻居并入:合成 {ptr} 处一个 {size} 字节的块",
    "cuda.free_block": "缓存到 {pool}:{ptr} 处一个 {size} 字节的空闲块",
    "cuda.emptyCache": "empty_cache:没有任何块在用的缓存段全部还给驱动",
    "cuda.cudaFree": "cudaFree 释放 {ptr} 处 {nbytes} 字节的段",
    # -- aten/src/ATen/cuda/CUDAGeneratorImpl.cpp, native/cuda/DistributionTemplates.h ----
    "cuda.philox.set_current_seed": "CUDA 生成器的 Philox 密钥设为新种子;偏移量归 0",
    "cuda.philox.state":
        "philox_cuda_state({increment}):这个 kernel 用种子 {seed}、偏移量 {offset} 取随机数;"
        "生成器的偏移量移到 {next_offset}(增量向上取整为 4 的倍数),"
        "这样下一个 kernel 的随机数不会与这些重叠",
    "cuda.philox.policy":
        "{numel} 个元素:grid 为 {grid} x {block} 个线程(每个 block {block} 个线程;"
        "模拟 GPU 上最多 {sms} 个 SM x 每个 SM {per_sm} 个 block);"
        "每个线程最多用 {counter_offset} 个 Philox 随机数",
    "cuda.philox.normal4":
        "{threads} 个线程;线程 i 执行 curand_init(种子 {seed}, 子序列 i, 偏移量 {offset}),"
        "每轮调用 curand_normal4:一个 Philox4x32-10 块,对两对数做 Box-Muller,"
        "得到 4 个正态数,分给元素 i、i + threads、……"
        "(模拟值:GPU 的 __sincosf 和 logf 只是近似,最后几位可能不同)",
    "cuda.philox.uniform4":
        "{threads} 个线程;线程 i 执行 curand_init(种子 {seed}, 子序列 i, 偏移量 {offset}),"
        "每轮调用 curand_uniform4:一个 Philox4x32-10 块,每个字 x 2^-32 + 2^-33 落在 (0, 1],"
        "分给元素 i、i + threads、……",
    # -- 模拟设备的工厂函数
    "cuda.device.empty_cuda":
        "at::detail::empty_cuda:与 CPU 上相同的 empty_generic 步骤,只是用模拟 GPU 的缓存分配器"
        "和 CUDA 分派键(这里没有 GPU:tidx 模拟 cuda:0)",
    "cuda.device.empty_generic":
        "先由形状算出字节数,再从 CUDA 缓存分配器取得这些字节;张量的元素存放在模拟的设备内存中",
    "cuda.device.allocate":
        "从 c10::cuda::CUDACachingAllocator(模拟)取 {nbytes} 字节:一个缓存的块,"
        "或者由 cudaMalloc 得到的新段",
    "cuda.device.fill_kernel":
        "fill_kernel_cuda(模拟):一个 GPU 内核把 {value} 写入每个元素;没有 scalar_fill 捷径,"
        "那是单个 CPU 元素才走的路",
    "cuda.device.zero_fill":
        "在 CUDA 上 zero_ 就是 fill_(0):memset 路径只用于 CPU 张量",
    "cuda.device.normal_kernel":
        "模拟 GPU 上 DistributionNormal.cu 的 normal_kernel:Philox4x32-10 随机数(精确),"
        "float32 的 Box-Muller(模拟:GPU 的 logf 和 __sincosf 末位可能不同),再乘 std 加 mean",
    "cuda.device.uniform_kernel":
        "模拟 GPU 上 DistributionUniform.cu 的 uniform_kernel:Philox4x32-10 随机数和均匀变换,"
        "两者都逐位精确,再乘 (to - from) 加 from",
    "cuda.device.randn":
        "在模拟 GPU 上 randn = empty + normal_(0, 1):标准正态随机数来自它的 CUDA 生成器"
        "(Philox4x32-10)",
    "ui.cuda.storage_on_device": "位于 cuda:0(模拟)",
    "cuda.device.copy_kernel":
        "copy_kernel_cuda(模拟):一端在 CPU 上,dtype 相同且连续:不需要临时张量,一次 {kind} 拷贝",
    "cuda.device.memcpy":
        "cudaMemcpyAsync(模拟):{nbytes} 字节,{kind},在当前流 {stream} 上",
    "cuda.device.stream_sync":
        "阻塞拷贝(non_blocking=False):memcpy_and_sync 等待流 {stream} 完成",
    "cuda.device.fill_from_cpu":
        "值在 CPU 上、self 在 CUDA 上:fill_ 用 item() 读出它,再用这个标量填充(fill_out),不走 copy_",
    "cuda.device.value_on_cpu":
        "self 在 CUDA 上:值变成 CPU 上的 0 维张量,再由 copy_ 拷过去",
    "cuda.device.to_device":
        "dispatch_to:self.to({device}, 自身的 dtype):只有设备不同时才拷贝",
    "ui.lecture.simulated":
        "模拟:cuda:0 是 tidx 模拟的 GPU(这里没有 GPU),依照 PyTorch 的 CUDA 代码",
}
