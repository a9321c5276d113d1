"""The CUDA generator, simulated: Philox4x32-10 with a seed and an offset, and the grid of
threads torch's random kernels launch.

What it follows (PyTorch 2.13 and cuRAND):

* ``CUDAGeneratorImpl`` (aten/src/ATen/cuda/CUDAGeneratorImpl.cpp): a seed and
  ``philox_offset_per_thread``; every random kernel asks ``philox_cuda_state(increment)``
  for (seed, offset) and the offset then advances by the increment rounded up to a multiple
  of 4 (``CUDAGeneratorState::increase``); ``set_current_seed`` sets the seed and resets the
  offset to 0.
* the Philox4x32-10 block function (aten/src/ATen/core/PhiloxRNGEngine.h, and cuRAND's
  ``curand_Philox4x32_10``): 10 rounds of two 32x32->64-bit multiplications (kPhiloxSA,
  kPhiloxSB) over a 128-bit counter, the 64-bit key bumped by (kPhilox10A, kPhilox10B)
  between rounds.
* ``curand_init(seed, subsequence, offset, &state)`` (cuRAND's curand_kernel.h): key =
  seed, counter = (0, 0, subsequence): skipahead_sequence puts the subsequence in the
  counter's high 64 bits, skipahead(offset) adds offset / 4 to its low 64 bits (the offset
  counts 32-bit numbers: a multiple of 4 lands on a whole counter).  ``curand4`` returns
  the 4 words of the current counter and steps it.
* ``distribution_nullary_kernel`` (aten/src/ATen/native/cuda/DistributionTemplates.h):
  blocks of 256 threads; ``calc_execution_policy`` caps the grid at (SM count x
  maxThreadsPerMultiProcessor / 256) blocks and asks for an offset increment of
  (rounds per thread) x 4; thread ``idx = blockIdx.x * blockDim.x + threadIdx.x`` runs
  ``curand_init(seed, idx, offset)`` and a grid-stride loop: each round one ``curand4``-based
  draw (``curand_normal4`` for normal_, ``curand_uniform4`` for uniform_) gives 4 values,
  the ``ii``-th of which goes to element ``linear_index + blockDim.x * gridDim.x * ii``
  (unroll_factor 4 for float32).  So element k's numbers come from the thread that owns
  it, i.e. from the launch configuration, not from k alone.

The launch depends on the GPU, so the simulated GPU is explicit: :data:`SIMULATED_GPU`
has the SM count and threads per SM of an NVIDIA A100 (108 SMs, 2048 threads each); the
same statement on another GPU can draw other numbers.

Exactness: the Philox words, the counters, the offsets and the uniform transform
(``x * 2^-32 + 2^-33``: a power-of-two scaling, exact in float32) are bit for bit what
CUDA computes.  The normal values are not guaranteed to be: curand's Box-Muller
(``_curand_box_muller``) takes ``sqrtf(-2 logf(u))`` and the GPU's fast approximate
``__sincosf``; tidx computes the same formula in float32 (numpy's logf, sine and cosine
rounded from double, fused multiply-adds where nvcc fuses them), so the last bits can
differ from a real GPU's (they agree with the four decimals a real GPU printed for three
seeded randn calls: tests/rng/test_philox.py).  Every step that shows such values says they
are simulated.
Other dtypes (normal_and_transform / uniform_and_transform): float64 draws pairs,
``curand_normal2_double`` / ``curand_uniform2_double`` (double2, so unroll_factor 2 and
half the elements per Philox block: the offset increment ``calc_execution_policy`` asks
for doubles); ``_curand_uniform_double_hq(x, y)`` = ``(x ^ y << 21) * 2^-53 + 2^-54`` is
bit-exact, the double Box-Muller (``log``, ``sqrt``, ``sincospi``) is simulated like the
float one.  float16 draws float4s as float32 does (its accscalar_t is float), transforms in
float and rounds to half (exact where the float32 path is).  The transform's
``rand * range + from`` is one fused multiply-add in the kernel's type (float or double).
Tensors are assumed to fit 32-bit indexing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

GENERATOR = "aten/src/ATen/cuda/CUDAGeneratorImpl.cpp"
TEMPLATES = "aten/src/ATen/native/cuda/DistributionTemplates.h"

#: PhiloxRNGEngine.h: the key schedule's Weyl constants and the round multipliers
K_PHILOX_10A = 0x9E3779B9
K_PHILOX_10B = 0xBB67AE85
K_PHILOX_SA = 0xD2511F53
K_PHILOX_SB = 0xCD9E8D57

#: DistributionTemplates.h
BLOCK_SIZE_BOUND = 256
MAX_GENERATOR_OFFSETS_PER_CURAND_CALL = 4
#: curand's float constants (curand_uniform.h, curand_normal_static.h): 2.3283064e-10f is
#: exactly 2^-32 in float32
CURAND_2POW32_INV = np.float32(2.3283064e-10)
CURAND_2POW32_INV_2PI = np.float32(np.float32(2.3283064e-10) * np.float32(6.2831855))

_M32 = 0xFFFFFFFF
_U32 = np.uint32
_U64 = np.uint64


@dataclass(frozen=True)
class SimulatedGPU:
    """The device properties ``calc_execution_policy`` reads (cudaDeviceProp)."""

    name: str
    multiProcessorCount: int
    maxThreadsPerMultiProcessor: int


#: The simulated device: an NVIDIA A100's SM count and threads per SM.
SIMULATED_GPU = SimulatedGPU("tidx simulated GPU (A100-like)", 108, 2048)


# -- Philox4x32-10 ----------------------------------------------------------------------
def _mulhilo32(a: int, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """mulhilo32: the high and low 32 bits of a 32x32-bit product."""
    product = _U64(a) * b.astype(_U64)
    return (product >> _U64(32)).astype(_U32), (product & _U64(_M32)).astype(_U32)


def single_round(ctr: np.ndarray, key: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """PhiloxRNGEngine.h single_round over counters of shape (..., 4)."""
    hi0, lo0 = _mulhilo32(K_PHILOX_SA, ctr[..., 0])
    hi1, lo1 = _mulhilo32(K_PHILOX_SB, ctr[..., 2])
    return np.stack([hi1 ^ ctr[..., 1] ^ key[0], lo1, hi0 ^ ctr[..., 3] ^ key[1], lo0],
                    axis=-1)


def philox4x32_10(ctr, key) -> np.ndarray:
    """The Philox4x32-10 block function: 4 output words per 128-bit counter.

    ``ctr``: uint32 words (..., 4), least significant first; ``key``: two uint32 words
    (or arrays of them).  Random123's first known answer:

    >>> [f"{w:08x}" for w in philox4x32_10([0, 0, 0, 0], [0, 0])]
    ['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']
    """
    ctr = np.asarray(ctr, dtype=_U64).astype(_U32)
    k0 = np.asarray(key[0], dtype=_U64).astype(_U32)
    k1 = np.asarray(key[1], dtype=_U64).astype(_U32)
    with np.errstate(over="ignore"):
        for _ in range(9):
            ctr = single_round(ctr, (k0, k1))
            k0 = (k0 + _U32(K_PHILOX_10A)).astype(_U32)
            k1 = (k1 + _U32(K_PHILOX_10B)).astype(_U32)
        return single_round(ctr, (k0, k1))


def counters(subsequence: np.ndarray, offset: int, draw: int) -> np.ndarray:
    """The counter of each thread's ``draw``-th curand4 after ``curand_init(seed,
    subsequence, offset)`` with ``offset`` a multiple of 4: the low 64 bits are
    offset / 4 + draw, the high 64 bits the subsequence (a carry out of the low half
    goes into it, as Philox_State_Incr's does).

    >>> counters(np.array([0, 5]), 8, 1).tolist()
    [[3, 0, 0, 0], [3, 0, 5, 0]]
    """
    assert offset % 4 == 0, "torch keeps the Philox offset a multiple of 4"
    low = offset // 4 + draw
    carry, low = divmod(low, 2**64)
    sub = np.asarray(subsequence, dtype=_U64)
    with np.errstate(over="ignore"):
        high = sub + _U64(carry)
    out = np.empty(sub.shape + (4,), dtype=_U32)
    out[..., 0] = low & _M32
    out[..., 1] = low >> 32
    out[..., 2] = (high & _U64(_M32)).astype(_U32)
    out[..., 3] = (high >> _U64(32)).astype(_U32)
    return out


# -- float32 arithmetic as the GPU does it ----------------------------------------------
def fma_f32(a, b, c) -> np.ndarray:
    """fmaf(a, b, c) for float32 values: a * b + c rounded once, what nvcc emits for
    ``a * b + c`` (it contracts by default).  a * b is exact in float64 (24 + 24 bits);
    the sum's rounding error is found with TwoSum, and a float64 sum that lands exactly
    halfway between two float32s is rounded the way the exact sum would be.

    >>> float(fma_f32(np.float32(1 + 2**-23), np.float32(1 - 2**-23), np.float32(-1)))
    -1.4210854715202004e-14
    """
    p = np.asarray(a, np.float32).astype(np.float64) * np.asarray(b, np.float32).astype(np.float64)
    c = np.asarray(c, np.float32).astype(np.float64)
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    r = s.astype(np.float32)
    r64 = r.astype(np.float64)
    direction = np.where(s > r64, np.float32(np.inf), np.float32(-np.inf)).astype(np.float32)
    toward = np.nextafter(r, direction)
    halfway = (s != r64) & ((s - r64) == (toward.astype(np.float64) - s))
    fix = halfway & (err != 0) & (np.sign(err) == np.sign(s - r64))
    return np.where(fix, toward, r).astype(np.float32)


def curand_uniform(x) -> np.ndarray:
    """_curand_uniform: ``x * CURAND_2POW32_INV + (CURAND_2POW32_INV/2.0f)``, a uint32 to
    a float32 in (0, 1] (exact: the scaling is by 2^-32).

    >>> curand_uniform(np.array([0, 2**31, 2**32 - 1], dtype=np.uint32)).tolist()
    [1.1641532182693481e-10, 0.5, 1.0]
    """
    xf = np.asarray(x, dtype=_U32).astype(np.float32)
    return fma_f32(xf, CURAND_2POW32_INV, CURAND_2POW32_INV / np.float32(2))


def box_muller(x, y) -> tuple[np.ndarray, np.ndarray]:
    """_curand_box_muller (simulated, see the module's docstring): u from x in (0, 1],
    v from y in (0, 2 pi]; s = sqrtf(-2 logf(u)); (sin(v) s, cos(v) s)."""
    u = curand_uniform(x)
    v = fma_f32(np.asarray(y, dtype=_U32).astype(np.float32), CURAND_2POW32_INV_2PI,
                CURAND_2POW32_INV_2PI / np.float32(2))
    s = np.sqrt(np.float32(-2.0) * np.log(u))
    sin = np.sin(v.astype(np.float64)).astype(np.float32)
    cos = np.cos(v.astype(np.float64)).astype(np.float32)
    return (sin * s).astype(np.float32), (cos * s).astype(np.float32)


def curand_normal4(words: np.ndarray) -> np.ndarray:
    """curand_normal4 (curand_box_muller4) of curand4's words (..., 4): Box-Muller on
    (w0, w1) and on (w2, w3), giving (sin, cos, sin, cos) x radius."""
    a = box_muller(words[..., 0], words[..., 1])
    b = box_muller(words[..., 2], words[..., 3])
    return np.stack([a[0], a[1], b[0], b[1]], axis=-1)


def curand_uniform4(words: np.ndarray) -> np.ndarray:
    """curand_uniform4: _curand_uniform of each of curand4's 4 words."""
    return curand_uniform(words)


# -- the generator ---------------------------------------------------------------------
def round_increment(increment: int) -> int:
    """CUDAGeneratorState::increase: ``increment = ((increment + 3) / 4) * 4``.

    >>> [round_increment(n) for n in (0, 1, 4, 5, 8)]
    [0, 4, 4, 8, 8]
    """
    return (increment + 3) // 4 * 4


CUDAGENERATOR_IMPL_SET_CURRENT_SEED = step("CUDAGeneratorImpl::set_current_seed", Layer.RNG,
                                           source=GENERATOR, note="cuda.philox.set_current_seed")
CUDAGENERATOR_IMPL_PHILOX_CUDA_STATE = step("CUDAGeneratorImpl::philox_cuda_state", Layer.RNG,
                                            source=GENERATOR)


class CUDAGenerator:
    """CUDAGeneratorImpl of the simulated GPU: a seed and philox_offset_per_thread."""

    __slots__ = ("seed", "philox_offset_per_thread")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.philox_offset_per_thread = 0

    def set_current_seed(self, seed: int) -> None:
        """set_current_seed: a new seed, and the offset back to 0."""
        with span(CUDAGENERATOR_IMPL_SET_CURRENT_SEED, seed=int(seed)):
            self.seed = int(seed) % 2**64
            self.philox_offset_per_thread = 0

    def philox_cuda_state(self, increment: int) -> tuple[int, int]:
        """philox_cuda_state: (seed, offset) for one kernel, the offset before this call;
        the generator's offset advances by the increment rounded up to a multiple of 4."""
        offset = self.philox_offset_per_thread
        step = round_increment(increment)
        with span(CUDAGENERATOR_IMPL_PHILOX_CUDA_STATE,
                  note=lambda: Note("cuda.philox.state", seed=self.seed, offset=offset,
                                    increment=increment, next_offset=offset + step),
                  increment=increment) as s:
            self.philox_offset_per_thread = offset + step
            s.set_result((self.seed, offset))
        return self.seed, offset


# -- the launch --------------------------------------------------------------------------
def calc_execution_policy(numel: int, unroll_factor: int,
                          gpu: SimulatedGPU = SIMULATED_GPU) -> tuple[int, int, int]:
    """calc_execution_policy: (counter_offset, grid, block) for ``numel`` elements.

    >>> calc_execution_policy(12, 4)                # torch.randn(3, 4): one block
    (4, 1, 256)
    >>> calc_execution_policy(10**6, 4)             # 108 SMs x 8 blocks of 256
    (8, 864, 256)
    """
    block = BLOCK_SIZE_BOUND
    grid = (numel + block - 1) // block
    blocks_per_sm = gpu.maxThreadsPerMultiProcessor // block
    grid = min(gpu.multiProcessorCount * blocks_per_sm, grid)
    counter_offset = ((numel - 1) // (block * grid * unroll_factor) + 1) * \
        MAX_GENERATOR_OFFSETS_PER_CURAND_CALL
    return counter_offset, grid, block


def element_sources(numel: int, grid: int, block: int, unroll_factor: int) -> np.ndarray:
    """For each element li: (thread idx, draw of that thread, component ii) in
    distribution_elementwise_grid_stride_kernel's loop.

    >>> element_sources(6, 1, 4, 4).tolist()      # 4 threads: elements 4, 5 reuse 0, 1
    [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [0, 0, 1], [1, 0, 1]]
    """
    stride = grid * block
    li = np.arange(numel, dtype=np.int64)
    q, idx = np.divmod(li, stride)
    draw, ii = np.divmod(q, unroll_factor)
    return np.stack([idx, draw, ii], axis=-1)


# -- double precision (curand_uniform2_double, curand_normal2_double) ----------------------
CURAND_2POW53_INV_DOUBLE = 2.0 ** -53


def uniform_double_hq(x, y) -> np.ndarray:
    """_curand_uniform_double_hq: 53 bits from two words (x ^ y << 21), times 2^-53 plus
    2^-54: a double in (0, 1], one IEEE rounding (exact as numpy's float64 does it).

    >>> uniform_double_hq(np.array([0, 2**21 - 1]), np.array([0, 2**32 - 1])).tolist()
    [5.551115123125783e-17, 1.0]
    """
    z = np.asarray(x, dtype=_U64) ^ (np.asarray(y, dtype=_U64) << _U64(21))
    return z.astype(np.float64) * CURAND_2POW53_INV_DOUBLE + CURAND_2POW53_INV_DOUBLE / 2.0


def curand_uniform2_double(words: np.ndarray) -> np.ndarray:
    """curand_uniform2_double: (x, y) and (z, w) of one curand4, two doubles."""
    return np.stack([uniform_double_hq(words[..., 0], words[..., 1]),
                     uniform_double_hq(words[..., 2], words[..., 3])], axis=-1)


def curand_normal2_double(words: np.ndarray) -> np.ndarray:
    """curand_normal2_double -> _curand_box_muller_double(x, y, z, w) (simulated: the
    GPU's log, sqrt and sincospi are approximated by numpy's): u = hq(x, y) in (0, 1],
    v = (z ^ w << 21) * 2^-52 + 2^-53 in (0, 2], s = sqrt(-2 log u),
    (sin(pi v) s, cos(pi v) s)."""
    u = uniform_double_hq(words[..., 0], words[..., 1])
    zy = np.asarray(words[..., 2], dtype=_U64) ^ (np.asarray(words[..., 3], dtype=_U64)
                                                 << _U64(21))
    v = zy.astype(np.float64) * (CURAND_2POW53_INV_DOUBLE * 2.0) + CURAND_2POW53_INV_DOUBLE
    s = np.sqrt(-2.0 * np.log(u))
    return np.stack([np.sin(np.pi * v) * s, np.cos(np.pi * v) * s], axis=-1)


def fma_f64(a, b, c) -> np.ndarray:
    """fma(a, b, c) for doubles, rounded once (what nvcc emits for ``a * b + c``): the exact
    value as a fraction, rounded by Python's correctly rounded int / int division.

    >>> float(fma_f64(np.float64(1 + 2**-52), np.float64(1 - 2**-52), np.float64(-1)))
    -4.930380657631324e-32
    """
    from fractions import Fraction

    a, b, c = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (a, b, c)))
    if np.all(b == 1.0) and np.all(c == 0.0):
        return a.copy()         # a * 1 + 0 is a: no rounding to find (rand, randn)
    out = np.empty(a.shape, dtype=np.float64)
    for i in np.ndindex(a.shape):
        exact = Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))
        out[i] = exact.numerator / exact.denominator
    return out


def draw_float32(kind: str, numel: int, seed: int, offset: int, grid: int, block: int,
                 unroll_factor: int = 4) -> np.ndarray:
    """The value each element gets from its thread: curand_normal4 (``kind`` "normal") or
    curand_uniform4 ("uniform"), before the distribution's own transform; with
    ``unroll_factor`` 2, curand_normal2_double / curand_uniform2_double (float64)."""
    src = element_sources(numel, grid, block, unroll_factor)
    double = unroll_factor == 2
    out = np.empty(numel, dtype=np.float64 if double else np.float32)
    if numel == 0:
        return out
    key = (np.uint32(seed & _M32), np.uint32(seed >> 32))
    if double:
        transform = curand_normal2_double if kind == "normal" else curand_uniform2_double
    else:
        transform = curand_normal4 if kind == "normal" else curand_uniform4
    for draw in range(int(src[:, 1].max()) + 1):
        mine = src[:, 1] == draw
        words = philox4x32_10(counters(src[mine, 0].astype(np.uint64), offset, draw), key)
        out[mine] = transform(words)[np.arange(int(mine.sum())), src[mine, 2]]
    return out


def normal_kernel(gen: CUDAGenerator, numel: int, mean: float = 0.0, std: float = 1.0,
                  gpu: SimulatedGPU = SIMULATED_GPU, dtype: str = "float32",
                  store=None) -> np.ndarray:
    """normal_kernel: normal_and_transform with ``rand * std + mean`` in accscalar_t (double
    for float64, float for float32 and float16), cast to the tensor's dtype.  ``store``
    writes the values into the tensor inside the grid-stride kernel's step and says
    which elements it wrote."""
    if dtype == "float64":
        return _nullary("normal", gen, numel, gpu, lambda r: fma_f64(r, std, mean), 2,
                        store)
    return _nullary("normal", gen, numel, gpu, lambda r: fma_f32(
        r, np.float32(std), np.float32(mean)).astype(dtype), store=store)


def uniform_kernel(gen: CUDAGenerator, numel: int, low: float = 0.0, high: float = 1.0,
                   gpu: SimulatedGPU = SIMULATED_GPU, dtype: str = "float32",
                   store=None) -> np.ndarray:
    """uniform_kernel: from and to in the tensor's dtype, range = to - from in opmath_t
    (float for float16), ``value = scalar_t(rand * range + from)``, and a value equal to
    ``to`` becomes ``from`` (curand's (0, 1] turned into [from, to))."""
    if dtype == "float64":
        frm64, to64 = float(low), float(high)

        def transform64(r: np.ndarray) -> np.ndarray:
            value = fma_f64(r, to64 - frm64, frm64)
            return np.where(value == to64, frm64, value)
        return _nullary("uniform", gen, numel, gpu, transform64, 2, store)
    scalar = np.dtype(dtype).type
    frm, to = scalar(low), scalar(high)
    # c10::Half's operator- computes in float and rounds the difference to Half
    rng = np.float32(scalar(np.float32(to) - np.float32(frm)))

    def transform(r: np.ndarray) -> np.ndarray:
        value = fma_f32(r, rng, np.float32(frm)).astype(dtype)
        return np.where(value == to, frm, value).astype(dtype)
    return _nullary("uniform", gen, numel, gpu, transform, store=store)


#: The grid-stride kernel's note: which curand call each round makes.
_DRAW_NOTES = {("normal", 4): "cuda.philox.normal4", ("uniform", 4): "cuda.philox.uniform4",
               ("normal", 2): "cudacopy.philox.normal2_double",
               ("uniform", 2): "cudacopy.philox.uniform2_double"}


CALC_EXECUTION_POLICY = step("calc_execution_policy", Layer.RNG, source=TEMPLATES)
DISTRIBUTION_ELEMENTWISE_GRID_STRIDE_KERNEL = step("distribution_elementwise_grid_stride_kernel",
                                                   Layer.RNG, source=TEMPLATES)


def _nullary(kind: str, gen: CUDAGenerator, numel: int, gpu: SimulatedGPU,
             transform, unroll: int = 4, store=None) -> np.ndarray:
    """distribution_nullary_kernel: the launch, the generator's state, the grid-stride
    kernel; every element written by its thread's draw.  ``unroll``:
    sizeof(dist_func_return_t) / sizeof(accscalar_t), 4 for float4, 2 for double2."""
    if numel == 0:
        return np.empty(0, dtype=np.float32)
    counter_offset, grid, block = calc_execution_policy(numel, unroll, gpu)
    with span(CALC_EXECUTION_POLICY,
              note=lambda: Note("cuda.philox.policy", numel=numel, grid=grid, block=block,
                                sms=gpu.multiProcessorCount,
                                per_sm=gpu.maxThreadsPerMultiProcessor // block,
                                counter_offset=counter_offset),
              numel=numel, gpu=gpu.name) as s:
        s.set_result((counter_offset, grid, block))
    seed, offset = gen.philox_cuda_state(counter_offset)
    with span(DISTRIBUTION_ELEMENTWISE_GRID_STRIDE_KERNEL,
              note=lambda: Note(_DRAW_NOTES[kind, unroll], threads=grid * block,
                                seed=seed, offset=offset),
              grid=grid, block=block, unroll_factor=unroll) as s:
        out = transform(draw_float32(kind, numel, seed, offset, grid, block, unroll))
        s.set(simulated=kind == "normal")
        if store is not None:
            # the threads write the elements here (the kernel's own step, not its caller)
            s.set(written=store(out))
    return out
