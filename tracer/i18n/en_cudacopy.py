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
    "cudacopy.temporaries.cast":
        "between the CPU and the GPU with a cast: contiguous same-dtype temporaries, as "
        "cudaMemcpyAsync only moves bytes, it does not convert them",
    "cudacopy.temporaries.strided":
        "between the CPU and the GPU, and the iterator is not contiguous: contiguous "
        "temporaries, as cudaMemcpyAsync only moves one dense run of bytes",
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
    # -- DistributionTemplates.h: the random kernels in other dtypes (engine/rng/philox.py)
    "cudacopy.normal_kernel.float64":
        "normal_kernel of DistributionNormal.cu on the simulated GPU, float64: "
        "curand_normal2_double, 2 doubles per Philox4x32-10 block (the words exact; the "
        "double Box-Muller's log, sqrt and sincospi simulated, the last bits may differ), "
        "then one fused rand x std + mean in double",
    "cudacopy.uniform_kernel.float64":
        "uniform_kernel of DistributionUniform.cu on the simulated GPU, float64: "
        "curand_uniform2_double, 2 doubles of 53 bits per Philox4x32-10 block, bit-exact, "
        "then one fused rand x (to - from) + from in double",
    "cudacopy.normal_kernel.float16":
        "normal_kernel of DistributionNormal.cu on the simulated GPU, float16: accscalar_t "
        "is float, so curand_normal4 as for float32 (simulated Box-Muller), rand x std + "
        "mean in float, rounded to half",
    "cudacopy.uniform_kernel.float16":
        "uniform_kernel of DistributionUniform.cu on the simulated GPU, float16: "
        "curand_uniform4 as for float32 (bit-exact), rand x (to - from) + from in float, "
        "rounded to half; a value equal to to becomes from",
    "cudacopy.philox.normal2_double":
        "{threads} threads; thread i runs curand_init(seed {seed}, subsequence i, offset "
        "{offset}) and each round curand_normal2_double: one Philox4x32-10 block, one "
        "Box-Muller on (x, y, z, w), 2 normals for elements i, i + threads (simulated "
        "values: log, sqrt and sincospi approximated)",
    "cudacopy.philox.uniform2_double":
        "{threads} threads; thread i runs curand_init(seed {seed}, subsequence i, offset "
        "{offset}) and each round curand_uniform2_double: one Philox4x32-10 block, "
        "(x ^ y << 21) and (z ^ w << 21) x 2^-53 + 2^-54 in (0, 1], for elements i, "
        "i + threads",
    "cudacopy.is_same_data":
        "self and src are views of the same data (one storage, same offset, strides, sizes "
        "and dtype): copy_impl returns at once, nothing is copied",
}
