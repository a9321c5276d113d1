"""engine.rng.wasm: the compiled NormalFill16 equals the numpy one bit for bit.

Three oracles: the exactly rounded (round-to-odd) reference of avx_mathfun
in :mod:`engine.rng.normal_fill`, the numpy kernel, and real torch.
``TIDX_RNG_EXHAUSTIVE=1`` compares all 2^24 inputs of each half.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch

import avx2_reference
from engine.rng import distributions as rng
from engine.rng import normal_fill as rng_normal
from engine.rng import wasm as rng_wasm


def same_bits(ours: np.ndarray, theirs: torch.Tensor | np.ndarray) -> bool:
    t = theirs.numpy() if isinstance(theirs, torch.Tensor) else theirs
    return (ours.dtype == t.dtype and ours.shape == t.shape
            and ours.tobytes() == t.tobytes())


def test_available_with_its_dependency() -> None:
    """wasmtime is a dependency of tidx: the compiled kernel must load."""
    assert rng_wasm.available()
    assert "{" not in rng_wasm.module_text()
    assert rng_wasm._module("fisher_yates") is not None


# The unit shortcut (mean +-0, std 1: the kernel adds +0 itself, or nothing for -0)
# and the general fmadd with float32-subnormal and zero parameters.
TINY_PARAMS = [(0.0, 1.0), (-0.0, 1.0), (-0.0, 2.0 ** -149), (0.0, 1e-45),
               (2.0 ** -149, 2.0 ** -140), (-(2.0 ** -149), 1e-40), (-0.0, 5e-324)]


@pytest.mark.parametrize("mean,std", TINY_PARAMS)
def test_matches_exact_fma_reference(mean: float, std: float) -> None:
    """The compiled kernel vs the round-to-odd reference (all 2^24 inputs with
    TIDX_RNG_EXHAUSTIVE=1); d = 0 is among the inputs (radius -0)."""
    avx2_reference.check_kernel(
        lambda blocks: rng_wasm.avx2_pairs(blocks, np.float32(mean), np.float32(std)),
        avx2_reference.inputs(seed=11, spread=200_000), mean, std)


@pytest.mark.parametrize("mean,std", [(3.5, 0.25), (-1e3, 7.0), (0.0, 0.0),
                                      (-0.0, 0.0), (1e30, 1e30)] + TINY_PARAMS)
def test_matches_numpy_kernel(mean: float, std: float) -> None:
    """Any mean/std (the general fmadd runs after the compiled part)."""
    d = avx2_reference.inputs(seed=11, spread=200_000)[:400_000]
    a = np.ascontiguousarray(np.stack([d[:d.size // 2].reshape(-1, 8),
                                       d[d.size // 2:].reshape(-1, 8)],
                                      axis=1).reshape(-1, 16))
    b = a.copy()
    fill, _ = rng_normal.block_kernel(np.float32, True, mean, std)
    fill(a)
    with np.errstate(over="ignore", invalid="ignore"):
        rng_wasm.avx2_pairs(b, np.float32(mean), np.float32(std))
    assert same_bits(b, a)


def _compiled_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = rng_wasm.avx2_pairs

    def spy(blocks: np.ndarray, mean: np.float32, std: np.float32) -> None:
        calls.append(blocks.shape[0])
        real(blocks, mean, std)
    monkeypatch.setattr(rng_wasm, "avx2_pairs", spy)
    return calls


#: the compiled kernel is the AVX2 build's NormalFill16: under ATEN_CPU_CAPABILITY=default
#: neither torch nor tidx runs it (tests/rng/test_rng.py compares the generic build)
avx2_build = pytest.mark.skipif(
    torch.backends.cpu.get_cpu_capability() == "DEFAULT",
    reason="ATEN_CPU_CAPABILITY=default: torch and tidx run the generic NormalFill16, not "
           "the AVX2 build this compiled kernel is")


@avx2_build
@pytest.mark.torch
@pytest.mark.parametrize("seed", [0, 7, 2 ** 63 + 5])
def test_large_randn_matches_torch(seed: int,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Above the threshold, on worker threads: torch's numbers, torch's state."""
    calls = _compiled_calls(monkeypatch)
    n = rng._COMPILED_MIN + 21                    # n % 16 != 0: the tail too
    torch.manual_seed(seed)
    gen = rng.CPUGenerator(seed)
    ours, variant = rng.normal(gen, n, np.float32)
    assert same_bits(ours, torch.randn(n))
    assert variant == rng_normal.AVX2_VARIANT
    ours, _ = rng.normal(gen, n, np.float32, -2.0, 3.0)
    assert same_bits(ours, torch.empty(n).normal_(-2.0, 3.0))
    # every full block, and the recomputed last one, ran compiled
    assert sum(calls) == 2 * (n // 16 + 1)
    # The generator goes on where torch's does.
    assert same_bits(rng.uniform(gen, 1000, np.float32), torch.rand(1000))


@pytest.mark.torch
def test_without_wasmtime_numpy_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _compiled_calls(monkeypatch)
    monkeypatch.setattr(rng_wasm, "available", lambda: False)
    n = rng._COMPILED_MIN
    torch.manual_seed(3)
    ours, _ = rng.normal(rng.CPUGenerator(3), n, np.float32)
    assert same_bits(ours, torch.randn(n))
    assert calls == []


@avx2_build
def test_worker_error_reaches_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error on a worker is raised by normal(), after every worker ended."""
    running = threading.Semaphore(0)

    def fail(blocks: np.ndarray, mean: np.float32, std: np.float32) -> None:
        running.release()
        raise MemoryError("no room")
    monkeypatch.setattr(rng_wasm, "avx2_pairs", fail)
    with pytest.raises(MemoryError, match="no room"):
        rng.normal(rng.CPUGenerator(0), rng._COMPILED_MIN, np.float32)
    assert running.acquire(blocking=False)


@pytest.mark.torch
@pytest.mark.parametrize("n", [rng._RANDPERM_COMPILED_MIN,
                               rng._RANDPERM_COMPILED_MIN + 1, 100_003,
                               1_000_000])
def test_randperm_compiled_matches_torch(n: int,
                                         monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    calls: list[int] = []
    real = rng_wasm.fisher_yates

    def spy(size: int, *args, **kwargs) -> bool:
        calls.append(size)
        return real(size, *args, **kwargs)
    monkeypatch.setattr(rng_wasm, "fisher_yates", spy)
    torch.manual_seed(n)
    gen = rng.CPUGenerator(n)
    assert same_bits(rng.randperm(gen, n), torch.randperm(n))
    assert calls == [n]
    assert same_bits(rng.uniform(gen, 100, np.float32), torch.rand(100))


def test_randperm_without_wasmtime_same_permutation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    n = 20_000
    compiled = rng.randperm(rng.CPUGenerator(9), n)
    monkeypatch.setattr(rng_wasm, "_module", lambda name, path=None: None)
    out = np.full(3, -1)
    assert rng_wasm.fisher_yates(3, lambda start, stop: np.zeros(stop - start), out) is False
    assert out.tolist() == [-1, -1, -1]
    assert same_bits(rng.randperm(rng.CPUGenerator(9), n), compiled)
    assert sorted(compiled.tolist()) == list(range(n))
