"""Measure how far numpy's elementwise math is from torch's, bit by bit: the numbers in
docs/fidelity-math.md and the bounds in engine/ops/math_unary.py's FIDELITY come from here.

Run once per CPU capability (torch reads it at its first kernel):

    for cap in avx512 avx2 default; do ATEN_CPU_CAPABILITY=$cap python benchmarks/measure_math_fidelity.py; done

For each operator and float dtype: 2**20 values per range (wide magnitudes, the
function's own domain), computed by torch on a contiguous tensor (the vector body) and on
every second element of a longer one (the strided path: a scalar loop, or vml's copy into
a buffer), and on sizes 1-40 (the vector loop's tails); float16 over all 65,536 values.
Prints the share of results whose bits differ and the largest distance in ulp.
"""

from __future__ import annotations

import math

import numpy as np
import torch

N = 1 << 20
RNG = np.random.default_rng(1234)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64))


OPS = {"exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
       "log10": np.log10, "log1p": np.log1p, "sin": np.sin, "cos": np.cos, "tan": np.tan,
       "tanh": np.tanh, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
       "sinh": np.sinh, "cosh": np.cosh, "sqrt": np.sqrt, "erf": _erf,
       "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "rsqrt": lambda x: 1 / np.sqrt(x),
       "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc, "round": np.rint,
       "frac": lambda x: x - np.trunc(x)}
INTS = {np.float16: np.int16, np.float32: np.int32, np.float64: np.int64}


def sample(dt) -> np.ndarray:
    top = 30 if dt == np.float32 else 300
    v = np.concatenate([
        RNG.standard_normal(N // 2) * 10.0 ** RNG.uniform(-3, 2.5, N // 2),
        RNG.choice([-1.0, 1.0], N // 2) * 10.0 ** RNG.uniform(-top, top, N // 2)])
    with np.errstate(over="ignore"):
        v = v.astype(dt)
    v[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5]
    return v


def ulps(a: np.ndarray, b: np.ndarray) -> int:
    it = INTS[a.dtype.type]
    lo = np.iinfo(it).min
    ai, bi = (np.where(x.view(it) < 0, lo - x.view(it).astype(np.int64),
                       x.view(it).astype(np.int64)) for x in (a, b))
    fin = np.isfinite(a) & np.isfinite(b)
    return int(np.abs(ai - bi)[fin].max()) if fin.any() else 0


def compare(name: str, x: np.ndarray) -> tuple[float, int]:
    with np.errstate(all="ignore"):
        ref = np.asarray(OPS[name](x.astype(np.float32) if x.dtype == np.float16
                                   else x)).astype(x.dtype)
    big = np.zeros(2 * len(x), x.dtype)
    big[::2] = x
    differ, worst = 0, 0
    for t in (torch.from_numpy(x.copy()), torch.from_numpy(big)[::2]):
        got = getattr(torch, name)(t).numpy()
        same = (got.view(INTS[x.dtype.type]) == ref.view(INTS[x.dtype.type])) | (
            np.isnan(got) & np.isnan(ref))
        differ = max(differ, int((~same).sum()))
        worst = max(worst, ulps(got, ref) if (np.isfinite(got) == np.isfinite(ref)).all()
                    else 2**62)
    for n in range(1, 41):
        xs = x[1000:1000 + n].copy()
        got = getattr(torch, name)(torch.from_numpy(xs)).numpy()
        worst = max(worst, ulps(got, ref[1000:1000 + n]))
    return differ / len(x), worst


def main() -> None:
    print(f"# torch {torch.__version__}, capability {torch.backends.cpu.get_cpu_capability()}")
    every_half = np.arange(65536, dtype=np.uint16).view(np.float16)
    for name in OPS:
        for dt in (np.float32, np.float64):
            share, worst = compare(name, sample(dt))
            print(f"{name:8s} {np.dtype(dt).name:8s} differ {share:7.2%}  max ulp {worst}")
        share, worst = compare(name, every_half)
        print(f"{name:8s} float16  differ {share:7.2%}  max ulp {worst}")


if __name__ == "__main__":
    main()
