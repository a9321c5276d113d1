"""English notes of the simulated CUDA runtime (issue 16): a CUDA tensor's death giving
its block back to the caching allocator (engine/memory/cuda_lifetime.py) and the
torch.cuda namespace (engine/binding/torch_cuda.py).  Part of :data:`tracer.i18n.en.TEXT`,
which merges this table in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- a storage's last reference goes ----------------------------------------------------
    "cudart.died.rebound":
        "{names} was rebound: no name holds its old tensor any more, so CPython drops the "
        "last reference and the storage dies",
    "cudart.died.result":
        "the statement's value was shown and nothing keeps it: its storage dies",
    "cudart.died.temporary":
        "a temporary of this statement: no name holds it, so its storage dies",
    "cudart.tensor_impl_dtor":
        "the TensorImpl goes and drops its reference to the StorageImpl (the last one)",
    "cudart.storage_impl_dtor":
        "the StorageImpl of {nbytes} bytes goes: its DataPtr's deleter runs",
    "cudart.local_raw_delete":
        "the DataPtr's deleter is the caching allocator's local_raw_delete: {ptr} goes back "
        "to the allocator, not to the driver",
    "cudart.native_free":
        "NativeCachingAllocator::free: the block at {ptr} ({size} bytes) returns to the "
        "cache; no cudaFree",
    "cudart.get_allocated_block":
        "allocated_blocks maps {ptr} to its block of {size} bytes (removed from the map)",
    # -- the torch.cuda namespace (torch/cuda/*.py over torch/csrc/cuda/Module.cpp) ---
    "cudart.is_available":
        "tidx's simulated GPU: this machine has one simulated device, cuda:0, so the answer is True here; your own torch answers for your machine (a CPU build, like the torch 2.13.0+cpu tidx is checked against, says False)",
    "cudart.device_count":
        "c10::cuda::device_count asks the driver (cudaGetDeviceCount) once and keeps the answer: 1 simulated GPU",
    "cudart.device_count.python":
        "the number of GPUs torch can use: torch._C._cuda_getDeviceCount()",
    "cudart.current_device":
        "the device new CUDA tensors go to when none is named: cuda:0, the only one",
    "cudart.get_device_name":
        "get_device_properties(device).name: cudaGetDeviceProperties' name; tidx's device is simulated and says so",
    "cudart.get_stats":
        "the caching allocator's DeviceStats: {key} is {value}",
    "cudart.memory_allocated":
        "bytes in blocks tensors hold now (allocated_bytes.all.current): each block counts its rounded size, a multiple of 512",
    "cudart.memory_reserved":
        "bytes in segments cudaMalloc gave the cache (reserved_bytes.all.current), used or not",
    "cudart.max_memory_allocated":
        "the peak of memory_allocated since the run began (allocated_bytes.all.peak)",
    "cudart.max_memory_reserved":
        "the peak of memory_reserved since the run began (reserved_bytes.all.peak)",
    "cudart.empty_cache":
        "give cached segments back to the driver: only a segment that is one whole free block goes back with cudaFree; blocks tensors hold stay",
    "cudart.synchronize":
        "wait until every kernel queued on the device has finished",
    "cudart.device_synchronize":
        "cudaDeviceSynchronize: the simulated device runs each kernel when it is launched, so nothing is left to wait for",
    "cudart.manual_seed":
        "seed the current GPU's default generator (CUDAGeneratorImpl) with {seed}",
    "cudart.manual_seed_all":
        "seed every GPU's default generator with {seed}; the simulated machine has one",
    "cudart.initial_seed":
        "the seed the current GPU's default generator started from (or was last given)",
    "cudart.torch_device":
        "a torch.device value: a device type and an optional index; nothing is allocated",
    # -- the allocation footer, the CPU and the simulated GPU apart (tracer/allocated.py)
    "ui.allocated.on_cpu": "{what} on the CPU",
    "ui.allocated.on_cuda": "; {what} on cuda:0 (simulated)",
    "ui.allocated.freed": "; {what} freed back to the cache",
}
