"""English notes of the simulated CUDA device (issue 16): the caching allocator
(engine/memory/cuda_caching_allocator.py) and the Philox generator (engine/rng/philox.py).
Part of :data:`tracer.i18n.en.TEXT`, which merges this table in.  Plain data, no logic;
the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- c10/cuda/CUDACachingAllocator.cpp ------------------------------------------------
    "cuda.allocate_zero": "0 bytes: no block is taken, the DataPtr is nullptr",
    "cuda.malloc":
        "{nbytes} bytes on stream {stream} of the simulated GPU: from the allocator's cache, "
        "with cudaMalloc only when no cached block fits",
    "cuda.round_size":
        "{nbytes} bytes round up to {rounded}: a multiple of kMinBlockSize (512)",
    "cuda.round_size.power2":
        "{nbytes} bytes round up to {rounded}: roundup_power2_divisions cuts the space "
        "between two powers of two in {divisions} equal steps",
    "cuda.get_pool.small": "{size} bytes <= kSmallSize (1 MiB): the small pool",
    "cuda.get_pool.large": "{size} bytes > kSmallSize (1 MiB): the large pool",
    "cuda.get_free_block.found":
        "best fit: the smallest cached block of stream {stream} with at least {size} bytes "
        "is {block_size} bytes at {ptr}: no cudaMalloc",
    "cuda.get_free_block.none":
        "no cached block of stream {stream} in the {pool} has {size} bytes",
    "cuda.alloc_size.small":
        "a new segment of kSmallBuffer = {alloc_size} bytes (2 MiB): later small blocks are "
        "carved from it too",
    "cuda.alloc_size.medium":
        "between 1 MiB and kMinLargeAlloc (10 MiB): a new segment of kLargeBuffer = "
        "{alloc_size} bytes (20 MiB) that later requests can split",
    "cuda.alloc_size.large":
        "10 MiB or more: a segment of the size rounded up to a multiple of kRoundLarge "
        "(2 MiB), {alloc_size} bytes",
    "cuda.cudaMalloc":
        "cudaMalloc({nbytes}): the driver gives a new segment at {ptr} (a simulated address)",
    "cuda.split":
        "the {block_size}-byte block is split: {size} bytes at {ptr} are handed out, the "
        "remaining {remaining} bytes at {rest} stay cached as a free block",
    "cuda.no_split.small":
        "only {remaining} bytes would remain (less than kMinBlockSize, 512): the whole "
        "{size}-byte block is handed out",
    "cuda.no_split.large":
        "only {remaining} bytes would remain (a large block is split only when more than "
        "kSmallSize, 1 MiB, remains): the whole {size}-byte block is handed out",
    "cuda.free":
        "the tensor is gone: its {size}-byte block at {ptr} goes back to the cache of stream "
        "{stream}, not to the driver",
    "cuda.try_merge_blocks":
        "a free neighbour of {subsumed} bytes in the same segment joins it: one block of "
        "{size} bytes at {ptr}",
    "cuda.free_block": "cached in the {pool}: a free block of {size} bytes at {ptr}",
    "cuda.emptyCache":
        "empty_cache: every cached segment with no block in use goes back to the driver",
    "cuda.cudaFree": "cudaFree of the {nbytes}-byte segment at {ptr}",
    # -- aten/src/ATen/cuda/CUDAGeneratorImpl.cpp, native/cuda/DistributionTemplates.h ----
    "cuda.philox.set_current_seed":
        "the CUDA generator's Philox key is the new seed; its offset goes back to 0",
    "cuda.philox.state":
        "philox_cuda_state({increment}): this kernel draws with seed {seed} at offset "
        "{offset}; the generator's offset moves to {next_offset} (the increment rounded up "
        "to a multiple of 4), so the next kernel's numbers do not overlap these",
    "cuda.philox.policy":
        "{numel} elements: a grid of {grid} x {block} threads (blocks of {block}; at most "
        "{sms} SMs x {per_sm} blocks on the simulated GPU); each thread may use "
        "{counter_offset} Philox numbers",
    "cuda.philox.normal4":
        "{threads} threads; thread i runs curand_init(seed {seed}, subsequence i, offset "
        "{offset}) and each round curand_normal4: one Philox4x32-10 block, Box-Muller on two "
        "pairs, 4 normals for elements i, i + threads, ... (simulated values: the GPU's "
        "__sincosf and logf are approximated, the last bits may differ)",
    "cuda.philox.uniform4":
        "{threads} threads; thread i runs curand_init(seed {seed}, subsequence i, offset "
        "{offset}) and each round curand_uniform4: one Philox4x32-10 block, each word x "
        "2^-32 + 2^-33 in (0, 1], for elements i, i + threads, ...",
    # -- the simulated device's factories (engine/memory/empty.py, engine/ops/cuda_kernels.py)
    "cuda.device.empty_cuda":
        "at::detail::empty_cuda: the same empty_generic steps as on the CPU, with the "
        "simulated GPU's caching allocator and the CUDA dispatch key (no GPU here: tidx "
        "simulates cuda:0)",
    "cuda.device.empty_generic":
        "shape to bytes, then the bytes from the CUDA caching allocator; the tensor's "
        "elements live in the simulated device memory",
    "cuda.device.allocate":
        "{nbytes} bytes from c10::cuda::CUDACachingAllocator (simulated): a cached block, "
        "or a new segment from cudaMalloc",
    "cuda.device.fill_kernel":
        "fill_kernel_cuda (simulated): a GPU kernel writes {value} to every element; no "
        "scalar_fill shortcut, that one is for a single CPU element",
    "cuda.device.zero_fill":
        "on CUDA zero_ is fill_(0): the memset path is for CPU tensors only",
    "cuda.device.normal_kernel":
        "normal_kernel of DistributionNormal.cu on the simulated GPU: Philox4x32-10 numbers "
        "(exact), Box-Muller in float32 (simulated: the GPU's logf and __sincosf may differ "
        "in the last bits), times std plus mean",
    "cuda.device.uniform_kernel":
        "uniform_kernel of DistributionUniform.cu on the simulated GPU: Philox4x32-10 "
        "numbers and the uniform transform, both bit-exact, times (to - from) plus from",
    "cuda.device.randn":
        "randn = empty + normal_(0, 1) on the simulated GPU: standard normal numbers from "
        "its CUDA generator (Philox4x32-10)",
    "ui.cuda.storage_on_device": "on cuda:0 (simulated)",
    # -- aten/src/ATen/native/cuda/Copy.cu, torch/csrc/autograd/python_variable_indexing.cpp
    "cuda.device.copy_kernel":
        "copy_kernel_cuda (simulated): one side is on the CPU, same dtype, contiguous: no "
        "temporaries, a {kind} copy",
    "cuda.device.memcpy":
        "cudaMemcpyAsync (simulated): {nbytes} bytes, {kind}, on the current stream {stream}",
    "cuda.device.stream_sync":
        "a blocking copy (non_blocking=False): memcpy_and_sync waits for stream {stream}",
    "cuda.device.fill_from_cpu":
        "the value is on the CPU, self on CUDA: fill_ reads it with item() and fills with "
        "the scalar (fill_out), no copy_",
    "cuda.device.value_on_cpu":
        "self is on CUDA: the value becomes a 0-dim tensor on the CPU, copied over by copy_",
    "cuda.device.to_device":
        "dispatch_to: self.to({device}, its own dtype): a copy only when the device differs",
    "ui.lecture.simulated":
        "simulated: cuda:0 is tidx's simulated GPU (no GPU here), following PyTorch's "
        "CUDA code",
}
