"""English notes of Copy.cu's full copy path on the simulated CUDA device (issue 16):
engine/ops/cuda_copy.py.  Part of :data:`tracer.i18n.en.TEXT`, which merges this table in.
Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "cudacopy.copy_kernel":
        "copy_kernel_cuda (simulated): a copy from {src} to {dst}",
    "cudacopy.no_temporaries.same_gpu":
        "both sides on the same GPU: never temporaries (copy_device_to_device)",
    "cudacopy.temporaries":
        "between the CPU and the GPU with {why}: contiguous temporaries, as cudaMemcpyAsync "
        "only moves one dense run of bytes",
    "cudacopy.plan.convert_src":
        "the conversion side is the source's ({device}): src.to({dtype}).expand_as(dst)"
        ".contiguous() there, and a contiguous empty_like(dst) unless dst is contiguous",
    "cudacopy.plan.convert_dst":
        "the conversion side is the destination's: src.expand_as(dst).contiguous() on "
        "{device} (still {src_dtype}), and empty_like(dst, {src_dtype}) unless dst is "
        "contiguous and of that dtype",
    "cudacopy.copy_back":
        "dst_contig is not dst: copy it into dst on {device}",
    "cudacopy.memcpy_d2d":
        "copy_device_to_device (simulated): same dtype, contiguous iterator: one "
        "cudaMemcpyAsync of {nbytes} bytes, DeviceToDevice, on stream {stream}; no "
        "synchronisation",
    "cudacopy.gpu_kernel":
        "copy_device_to_device (simulated): an elementwise gpu_kernel, one thread per "
        "element, {src} -> {dst} for {numel} element(s); no synchronisation",
}
