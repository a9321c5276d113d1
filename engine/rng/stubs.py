"""The random distributions' DispatchStubs (aten/src/ATen/native/cpu/DistributionKernels.cpp).

Declared here, not beside the bit-exact kernels in :mod:`engine.rng.distributions` (which
load only when a run draws numbers), so that every stub exists from the start: torch 2.13's
x86 wheel has no AVX512 build of either, so an AVX512 CPU runs the AVX2 build (GCC's fused
multiply-adds in ``x * (to - from) + from`` and ``z * std + mean``).
"""

from __future__ import annotations

from engine.core.dispatch_stub import DispatchStub

_KERNELS = "aten/src/ATen/native/cpu/DistributionKernels.cpp"
NORMAL_STUB = DispatchStub("normal_stub", avx512=False, source=_KERNELS)
UNIFORM_STUB = DispatchStub("uniform_stub", avx512=False, source=_KERNELS)
