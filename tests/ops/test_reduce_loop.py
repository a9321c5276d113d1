"""engine.ops.reduce_loop: binary_kernel_reduce_vec's loops (prod, amax, amin) computed
with whole-array folds give, bit for bit, what the loops of Reduce.h give one element
after another.  The oracle is that element-by-element replay, written out below with the
kernels' own scalar ``op`` and vector ``vop``, on random blocks of every path (inner,
outer and basic loops; outputs shared by columns, rows or nothing), with NaN, signed
zeros and products whose rounding shows the order.  Then the work is counted: a large
reduction calls ``op`` on no element (an expanded amax of 10**7 elements took 21 s).
cascade_sum's stores (engine/ops/sum_kernel.py), a block at a time now, are held to the
same standard: the one-by-one stores are their oracle, and their calls are counted.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from engine.ops import reduce_loop as RL
from engine.ops import sum_kernel as K


def replay(cls, src, dst, ib, ob, size0, size1, ins, outs):
    """The loops of Reduce.h, one element at a time (tidx's code before the folds)."""
    (i0, i1), (o0, o1) = ins, outs
    x = src[ib + np.arange(size0)[:, None] * i0 + np.arange(size1)[None] * i1]
    kernel = cls(src, dst, src.dtype)     # the run's build: its lanes, its vector NaN
    vec = kernel.vec
    op, vop = kernel.op, kernel.vop
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if o0 == 0 and i0 == 1:
            for j in range(size1):
                row, o = x[:, j], ob + j * o1
                count = len(row) // (4 * vec)
                if count:
                    acc = row[:4 * vec].reshape(4, vec).copy()
                    for i in range(1, count):
                        acc = vop(acc, row[i * 4 * vec:(i + 1) * 4 * vec].reshape(4, vec))
                    lanes = vop(vop(acc[0], acc[1]), vop(acc[2], acc[3]))
                    first = lanes[0]
                    for v in lanes[1:]:
                        first = op(first, v)
                    dst[o] = op(dst[o], first)
                for v in row[count * 4 * vec:]:
                    dst[o] = op(dst[o], v)
        elif o0 == 0 and o1 == 1 and i1 == 1:
            cut = x.shape[1] // (4 * vec) * (4 * vec)
            if cut:
                acc = x[0, :cut].copy()
                for i in range(1, len(x)):
                    acc = vop(acc, x[i, :cut])
                idx = ob + np.arange(cut)
                dst[idx] = vop(acc, dst[idx])
            for j in range(cut, x.shape[1]):
                for i in range(len(x)):
                    dst[ob + j] = op(dst[ob + j], x[i, j])
        else:
            for j in range(size1):
                for i in range(size0):
                    o = ob + j * o1 + i * o0
                    dst[o] = op(dst[o], x[i, j])


INNER, OUTER, BASIC = "vectorized_inner_reduction", "vectorized_outer_reduction", "basic_loop"

LAYOUTS = {
    # name: (path, (in strides, out strides) of a block of size0 x size1)
    "inner, an output per column": (INNER, lambda s0, s1: ((1, s0), (0, 1))),
    "inner, one output": (INNER, lambda s0, s1: ((1, s0), (0, 0))),
    "outer": (OUTER, lambda s0, s1: ((s1, 1), (0, 1))),
    "basic, an output per column": (BASIC, lambda s0, s1: ((s1 + 1, 1), (0, 2))),
    "basic, an output per row": (BASIC, lambda s0, s1: ((s1, 1), (1, 0))),
    "basic, one output": (BASIC, lambda s0, s1: ((2, 2 * s0), (0, 0))),
    "basic, an output per element": (BASIC, lambda s0, s1: ((2, 2 * s0), (1, s0))),
}


@st.composite
def blocks(draw):
    cls = draw(st.sampled_from([RL.ProductLoop, RL.MaxLoop, RL.MinLoop]))
    dtype = draw(st.sampled_from([np.float32, np.float64, np.float16]))
    size0 = draw(st.sampled_from([1, 2, 7, 31, 32, 33, 64, 65, 130, 300]))
    size1 = draw(st.sampled_from([1, 2, 3, 17, 33, 40]))
    layout = draw(st.sampled_from(sorted(LAYOUTS)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    special = draw(st.sampled_from([0.0, 0.05, 0.3]))
    return cls, dtype, size0, size1, layout, rng, special


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(blocks())
def test_folds_are_the_element_by_element_loop(block):
    cls, dtype, size0, size1, layout, rng, special = block
    ins, outs = LAYOUTS[layout][1](size0, size1)
    n = 3 + (size0 - 1) * ins[0] + (size1 - 1) * ins[1] + 1
    src = (1 + (rng.random(n) - 0.5) * 0.2).astype(dtype)       # products round
    if cls is not RL.ProductLoop:
        src = rng.integers(-3, 4, n).astype(dtype)              # many ties
    for value in (np.nan, 0.0, -0.0):
        src[rng.random(n) < special / 3] = value
    m = 2 + (size0 - 1) * outs[0] + (size1 - 1) * outs[1] + 1
    start = rng.choice([1.0, -0.0, 0.0, -np.inf, np.inf]) if cls is not RL.ProductLoop else 1
    ours, theirs = np.full(m, start, dtype), np.full(m, start, dtype)
    kernel = cls(src, ours, dtype)
    kernel._kernel(3, 2, size0, size1, ins, outs)
    replay(cls, src, theirs, 3, 2, size0, size1, ins, outs)
    assert ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_each_layout_takes_its_loop(layout):
    """The layouts above reach every loop of Reduce.h (on blocks of any length)."""
    path, strides = LAYOUTS[layout]
    ins, outs = strides(100, 40)
    src = np.ones(100 * 40 * 3, np.float32)
    kernel = RL.MaxLoop(src, np.zeros(100 * 40 * 2, np.float32), np.float32)
    kernel._kernel(0, 0, 100, 40, ins, outs)
    assert kernel.paths == [path]


@pytest.mark.parametrize("statement", [
    lambda: engine.ones(1).expand(10**6).amax(),           # basic_loop, one output
    lambda: engine.ones(1).expand(10**6).prod(),
    lambda: engine.rand(10**6).amin(),                     # inner reduction
    lambda: engine.rand(1000, 1000).amax(0),               # outer reduction
    lambda: engine.rand(1000, 1000).t().prod(1),
])
def test_no_element_runs_through_python(statement, monkeypatch):
    """Counted, not timed: the scalar op runs on no element of a million."""
    calls = []
    for cls in (RL.ProductLoop, RL.MaxLoop, RL.MinLoop):
        real = cls.op
        monkeypatch.setattr(cls, "op", staticmethod(lambda a, b, real=real:
                                                    calls.append(1) or real(a, b)))
    statement()
    assert calls == []


@pytest.mark.parametrize("statement", [
    lambda: engine.rand(10**5, 2).sum(1),
    lambda: engine.rand(2, 10**5).mean(0),
    lambda: engine.rand(10**5, 2).half().sum(1),
])
def test_sums_store_a_block_at_once(statement, monkeypatch):
    """cascade_sum's stores (CastStoreAccumulate) go a block at a time, not one Python
    call per output: summing (10**5, 2) along dim 1 made 10**5 calls and took a second
    per million outputs."""
    calls = []
    real = K.Reduction._store

    def count(self, old, value):
        calls.append(np.size(value))
        return real(self, old, value)
    monkeypatch.setattr(K.Reduction, "_store", count)
    statement()
    assert 0 < len(calls) <= 16 and sum(calls) == 10**5


def store_replay(red, dst, ib, ob, size0, size1, ins, outs):
    """cascade_sum's kernel with its stores one output at a time, in order."""
    if outs[0] != 0 and outs[1] == 0:
        ins, outs, size0, size1 = ins[::-1], outs[::-1], size1, size0
    x = red.src[ib + np.arange(size0)[:, None] * ins[0] + np.arange(size1)[None] * ins[1]]
    if outs[0] != 0:
        o = ob + np.arange(size0)[:, None] * outs[0] + np.arange(size1)[None] * outs[1]
        dst[o] = (dst[o] + x).astype(red.np)
        return
    _, sums = K._block(x, ins, red.acc, red.build)
    for j in range(size1):
        o, value = ob + j * outs[1], sums[j]
        if red.np == red.acc:
            dst[o] = red.np.type(dst[o] + value)
        else:
            dst[o] = red.np.type(np.float32(dst[o]) + np.float32(red.np.type(value)))


@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([np.float32, np.float64, np.float16]), st.integers(1, 80),
       st.integers(1, 40), st.sampled_from(sorted(LAYOUTS)), st.integers(0, 2**32 - 1))
def test_sum_stores_are_the_one_by_one_stores(dtype, size0, size1, layout, seed):
    rng = np.random.default_rng(seed)
    ins, outs = LAYOUTS[layout][1](size0, size1)
    src = (rng.random(3 + (size0 - 1) * ins[0] + (size1 - 1) * ins[1] + 1) * 100).astype(dtype)
    m = 2 + (size0 - 1) * outs[0] + (size1 - 1) * outs[1] + 1
    ours = (rng.random(m) * 10).astype(dtype)
    theirs = ours.copy()
    with np.errstate(over="ignore"):
        K.Reduction(src, ours, dtype)._kernel(3, 2, size0, size1, ins, outs)
        store_replay(K.Reduction(src, theirs, dtype), theirs, 3, 2, size0, size1, ins, outs)
    assert ours.tobytes() == theirs.tobytes()
