"""The first number a random kernel draws, worked out from the generator's words.

A learner sees ``torch.randn(3, 4)`` print ``1.5410`` and asks where it came from.  This
module records the answer as steps (layer ``rng``): the 32-bit words mt19937 gave, the
formula that turns them into uniforms, the transform (Box-Muller for a normal, the
modulo for an integer) with every intermediate number, and the value stored.

It draws nothing from the run's generator: the kernel takes a :func:`snapshot` of the
generator's state before it draws, and the words are regenerated from that copy
(:func:`engine.rng.mt19937.mt19937_words_numpy`).  The numbers are computed by the same
formulas, in the same precision, as the kernels of :mod:`engine.rng.distributions` and
:mod:`engine.rng.normal_fill`, which mirror torch's (links to
https://github.com/pytorch/pytorch/blob/v2.13.0/):

* ``uniform_real``, ``uniform_int_from_to``: aten/src/ATen/core/TransformationHelper.h
* ``uniform_real_distribution``, ``normal_distribution``,
  ``uniform_int_from_to_distribution``: aten/src/ATen/core/DistributionsHelper.h
* ``normal_fill``, ``normal_fill_16(_AVX2)``: aten/src/ATen/native/cpu/DistributionTemplates.h
* ``randperm_cpu``: aten/src/ATen/native/TensorFactories.cpp

Only the first element is explained: every other one is the same formula on later
words, and a trace must stay small however large the tensor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tracer.notes import Note
from tracer.recorder import active, emit, span
from tracer.steps import Layer, step

from engine.rng.fp import F32, F64, fma32, fma64
from engine.rng.libm import glibc_vector, logf, sincosf
from engine.rng.mt19937 import CPUGenerator, mt19937_words_numpy
from engine.rng.normal_fill import reference_log256_ps, reference_sincos256_ps

HELPER = "aten/src/ATen/core/DistributionsHelper.h"
TRANSFORM = "aten/src/ATen/core/TransformationHelper.h"
ENGINE = "aten/src/ATen/core/MT19937RNGEngine.h"
KERNELS = "aten/src/ATen/native/cpu/DistributionTemplates.h"
FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"

_MASK24 = (1 << 24) - 1
_MASK53 = (1 << 53) - 1


@dataclass(frozen=True)
class Snapshot:
    """The generator before a kernel drew: its 624 words, the next word's index, and the
    normal it cached from the last Box-Muller pair (or None)."""

    key: np.ndarray
    pos: int
    cached: float | None

    def words(self, n: int) -> list[int]:
        """The first ``n`` words ``random()`` returns from this state."""
        return [int(w) for w in mt19937_words_numpy(self.key, self.pos, n)[0]]


def snapshot(gen: CPUGenerator) -> Snapshot | None:
    """The state to explain from, taken only while a trace records (a copy: 2.5 KB)."""
    if not active():
        return None
    key, pos = gen.get_state()
    return Snapshot(key, pos, gen.next_double_normal_sample)


def _hex(words: list[int]) -> str:
    return ", ".join(f"0x{w:08X} ({w})" for w in words)


def _r(x: float | np.floating | np.ndarray) -> float:
    """A number as the trace keeps it: a Python float, shown as Python prints it."""
    return float(x)


MT19937 = step("mt19937", Layer.RNG, source=ENGINE)


def _drawn(words: list[int]) -> None:
    """The step for the words drawn: each in hex and decimal."""
    emit(MT19937, note=Note("rng.words", words=_hex(words)), result=words)


def _uniform_words(words: list[int], double: bool) -> list[float]:
    """``uniform_real(val, 0, 1)``: 24 bits of ``random()`` for float, 53 bits of
    ``random64()`` (two words, the first high) for double; both products exact."""
    if double:
        return [_r(F64(((words[i] << 32 | words[i + 1]) & _MASK53) * 2.0 ** -53))
                for i in range(0, len(words), 2)]
    return [_r(F32(F32(w & _MASK24) * F32(2.0 ** -24))) for w in words]


UNIFORM_REAL_DOUBLE = step("uniform_real_distribution<double>", Layer.RNG, source=TRANSFORM)
UNIFORM_REAL_FLOAT = step("uniform_real_distribution<float>", Layer.RNG, source=TRANSFORM)


def _uniform_step(words: list[int], double: bool, names: list[str]) -> list[float]:
    """The step turning words into uniforms, its formula with the numbers."""
    us = _uniform_words(words, double)
    shown = "; ".join(f"{n} = {u!r}" for n, u in zip(names, us))
    if double:
        note = Note("rng.uniform_double", values=shown)
    else:
        note = Note("rng.uniform_float", values=shown)
    # the uniforms as the step's result (their names are in the note): one short line
    emit(UNIFORM_REAL_DOUBLE if double else UNIFORM_REAL_FLOAT,
         note=note, result=us[0] if len(us) == 1 else tuple(us))
    return us


# -- normal_: the serial path (numel < 16 or not contiguous) ------------------------------
FIRST_ELEMENT = step("first element", Layer.RNG)
NEXT_DOUBLE_NORMAL_SAMPLE = step("next_double_normal_sample", Layer.RNG, source=HELPER)
NORMAL_DISTRIBUTION_DOUBLE = step("normal_distribution<double>", Layer.RNG, source=HELPER)


def normal_serial(snap: Snapshot | None, dtype: np.dtype, mean: float, std: float,
                  fused: bool, offset: int) -> None:
    """``normal_distribution<double>`` for the first element: the generator's cached
    value, or a fresh Box-Muller pair from 4 words; then ``z * std + mean``."""
    if snap is None:
        return
    with span(FIRST_ELEMENT, source=HELPER, note=Note("rng.first", offset=offset)) as s:
        if snap.cached is not None:
            z = snap.cached
            emit(NEXT_DOUBLE_NORMAL_SAMPLE, note=Note("rng.cached", z=z), result=z)
        else:
            words = snap.words(4)
            _drawn(words)
            u1, u2 = _uniform_step(words, True, ["u1", "u2"])
            radius = _r(math.sqrt(-2.0 * _r(glibc_vector("log1p")(np.array([-u2]))[0])))
            theta = 2.0 * math.pi * u1
            z = _r(radius * _r(glibc_vector("cos")(np.array([theta]))[0]))
            other = _r(radius * _r(glibc_vector("sin")(np.array([theta]))[0]))
            emit(NORMAL_DISTRIBUTION_DOUBLE,
                 note=Note("rng.box_muller", radius=radius, theta=theta, z=z, other=other),
                 result=z, radius=radius)
        if fused:
            x = z + mean if (std == 1 and mean == 0) else _r(fma64(z, std, mean))
        else:
            x = z * std + mean
        stored = _r(np.array(x, F64).astype(dtype))
        _to_normal(z, mean, std, x, stored, dtype)
        s.set_result(stored)


TRANSFORMATION_NORMAL = step("transformation::normal", Layer.RNG, source=TRANSFORM)


def _to_normal(z: float, mean: float, std: float, x: float, stored: float,
               dtype: np.dtype) -> None:
    emit(TRANSFORMATION_NORMAL,
         note=Note("rng.to_normal", z=z, std=std, mean=mean, x=x,
                   dtype=str(np.dtype(dtype)), stored=stored),
         result=stored)


# -- normal_: normal_fill (numel >= 16, contiguous) ----------------------------------------
#: normal_fill_16<double>, normal_fill_16<float>, normal_fill_16_AVX2: one family
NORMAL_FILL_16 = step("normal_fill_16<...>", Layer.RNG, source=KERNELS)


def normal_fill(snap: Snapshot | None, dtype: np.dtype, mean: float, std: float,
                avx2: bool, offset: int) -> None:
    """Element 0 of ``normal_fill``: uniforms 0 and 8 of the first block of 16 (words 0
    and 8 for float, word pairs 0-1 and 16-17 for double), ``normal_fill_16``'s
    Box-Muller on them, with avx_mathfun's log/sincos in the float AVX2 build."""
    if snap is None:
        return
    double = np.dtype(dtype) == F64
    with span(FIRST_ELEMENT, source=KERNELS, note=Note("rng.first", offset=offset)) as s:
        # the words are numbered from 0 in the stream; a double takes two
        if double:
            words = snap.words(18)
            words = words[0:2] + words[16:18]
            first, second = "0-1", "16-17"
        else:
            words = snap.words(9)
            words = [words[0], words[8]]
            first, second = "0", "8"
        emit(MT19937,
             note=Note("rng.words_fill", words=_hex(words), first=first, second=second),
             result=words)
        d0, d8 = _uniform_step(words, double, ["data[0]", "data[8]"])
        if double:
            u1, u2 = 1.0 - d0, d8
            radius = _r(math.sqrt(-2.0 * _r(glibc_vector("log")(np.array([u1]))[0])))
            theta = 2.0 * math.pi * u2
            cos = _r(glibc_vector("cos")(np.array([theta]))[0])
            z = radius * cos
            x = z + mean if (std == 1 and mean == 0) else _r(fma64(z, std, mean))
            name = "normal_fill_16<double>"
        else:
            m, sd = F32(mean), F32(std)
            u1a = np.array([F32(1) - F32(d0)], F32)
            if avx2:
                radius32 = np.sqrt(F32(-2) * reference_log256_ps(u1a))
                theta32 = np.array([F32(d8) * F32(2.0 * math.pi)], F32)
                cos32 = reference_sincos256_ps(theta32)[1]
                name = "normal_fill_16_AVX2"
            else:
                radius32 = np.sqrt(F32(-2) * logf(u1a))
                theta32 = np.array([2.0 * math.pi * float(d8)]).astype(F32)
                cos32 = sincosf(theta32)[1]
                name = "normal_fill_16<float>"
            z32 = radius32 * cos32
            x32 = z32 + m if (std == 1 and mean == 0) else fma32(z32, sd, m)
            u1, u2 = _r(u1a[0]), d8
            radius, theta, cos = _r(radius32[0]), _r(theta32[0]), _r(cos32[0])
            z, x = _r(z32[0]), _r(np.asarray(x32).reshape(-1)[0])
        # which functions compute ln and cos: the AVX2 build's are avx_mathfun's float
        # polynomials, not libm's (C names: the same in every language)
        how = ("log, cos" if double else
               "log256_ps, sincos256_ps (avx_mathfun)" if avx2 else "logf, sincosf")
        emit(NORMAL_FILL_16, called=name,
             note=Note("rng.normal_fill16", u1=u1, u2=u2, radius=radius, theta=theta, cos=cos,
                       z=z, how=how),
             result=z, radius=radius)
        stored = _r(np.array(x, F64).astype(dtype))
        _to_normal(z, mean, std, x, stored, dtype)
        s.set_result(stored)


# -- uniform_ ---------------------------------------------------------------------------
UNIFORM_REAL = step("uniform_real", Layer.RNG, source=TRANSFORM)


def uniform(snap: Snapshot | None, dtype: np.dtype, low: float, high: float, fused: bool,
            offset: int) -> None:
    """``uniform_real_distribution`` for the first element: one word (float) or two
    (double), ``x * (to - from) + from`` in the dtype."""
    if snap is None:
        return
    double = np.dtype(dtype) == F64
    dt = np.dtype(dtype).type
    with span(FIRST_ELEMENT, source=KERNELS, note=Note("rng.first", offset=offset)) as s:
        words = snap.words(2 if double else 1)
        _drawn(words)
        (u,) = _uniform_step(words, double, ["u"])
        frm, to = dt(low), dt(high)
        span_ = dt(to - frm)
        if span_ == 1 and frm == 0:
            x = dt(u)
        elif not fused:
            x = dt(dt(u) * span_) + frm
        elif double:
            x = F64(fma64(u, float(span_), float(frm)))
        else:
            x = F32(fma32(F32(u), span_, frm))
        x = frm if x == to else x
        emit(UNIFORM_REAL,
             note=Note("rng.uniform_range", u=u, low=_r(frm), high=_r(to), x=_r(x)),
             result=_r(x))
        s.set_result(_r(x))


# -- random_(from, to) / randint ----------------------------------------------------------
UNIFORM_INT_FROM_TO = step("uniform_int_from_to", Layer.RNG, source=TRANSFORM)


def randint(snap: Snapshot | None, dtype: np.dtype, low: int, high: int,
            offset: int) -> None:
    """``uniform_int_from_to_distribution`` for the first element: ``random()`` (or
    ``random64()`` from a range of 2^28), ``val % range + from``."""
    if snap is None:
        return
    rng = (high - low) % (1 << 64)
    wide = rng >= 1 << 28
    with span(FIRST_ELEMENT, source=HELPER, note=Note("rng.first", offset=offset)) as s:
        words = snap.words(2 if wide else 1)
        _drawn(words)
        val = words[0] << 32 | words[1] if wide else words[0]
        value = ((val % rng) + low % (1 << 64)) % (1 << 64)
        value = value - (1 << 64) if value >= 1 << 63 else value
        stored = np.array(value, np.int64).astype(dtype).item()
        emit(UNIFORM_INT_FROM_TO,
             note=Note("rng.randint", val=val, range=rng, low=low, value=value),
             result=stored, val=val, range=rng)
        s.set_result(stored)


# -- randperm ---------------------------------------------------------------------------
RANDPERM_CPU_SWAP = step("randperm_cpu: swap", Layer.RNG, source=FACTORIES)


def randperm(snap: Snapshot | None, n: int) -> None:
    """``randperm_cpu`` (n < 2^32/20): the first swap exchanges r[0] and
    r[random() % n], and no later swap touches r[0]: that is the first element."""
    if snap is None or n < 2:
        return
    with span(FIRST_ELEMENT, source=FACTORIES, note=Note("rng.first", offset=0)) as s:
        words = snap.words(1)
        _drawn(words)
        j = words[0] % n
        emit(RANDPERM_CPU_SWAP, note=Note("rng.randperm_first", word=words[0], n=n, j=j), result=j)
        s.set_result(j)
