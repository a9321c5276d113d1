"""torch's CPU float sum, bit for bit: SumKernel.cpp's cascade_sum on TensorIterator's
reduction geometry (TensorIteratorReduce.cpp, TensorIterator.cpp).

The order of the additions decides a float sum's last bits, so every step that fixes
the order is modelled:

* the iterator's dimensions: reduced dims first (``reorder_dimensions`` of a reduction),
  then by stride, then merged where they are contiguous (``coalesce_dimensions``);
* ``serial_for_each``: the 2-D blocks (size0, size1) the loop is called with
  (``DimCounter::max_2d_step``), and above GRAIN_SIZE the threads' split
  (``two_pass_reduction`` for a one-element result, else ``parallel_dim_reduction``);
* in each block, ``cascade_sum``'s four paths: a contiguous inner reduction in SIMD
  lanes, a contiguous outer one over 4 vectors of columns, and two scalar ones --
  all built of ``multi_row_sum`` (four levels of partial sums, 2**level_power rows each)
  and ``row_sum`` (four interleaved partial sums, ``ilp_factor``);
* ``CastStoreAccumulate``: each block adds its sums into the output (``*ptr += value``).

Columns of a block are independent, so numpy computes them side by side; the rows of
one cascade level are added one after another with ``np.add.accumulate`` (a strict
left-to-right loop, unlike ``np.sum``'s pairwise one).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.core import view as S
from engine.memory.allocator import check_temporary
from engine.core.errors import Refused
from engine.core.dispatch_stub import Build, DispatchStub
from engine.ops.parallel import GRAIN_SIZE, chunks, num_threads

#: cascade_sum's stub: torch 2.13's x86 wheel has no AVX512 build of it, so an AVX512 CPU
#: sums in the AVX2 build's 8-float vectors
SUM_STUB = DispatchStub("sum_stub", avx512=False,
                        source="aten/src/ATen/native/cpu/SumKernel.cpp")

Geometry = tuple[list[int], list[int], list[int]]   # shape, input strides, output strides


def ceil_log2(x: int) -> int:
    """c10::utils::CeilLog2 (ATen/native/cpu/utils.h): 1 up to 2, else bits of x - 1.

    >>> [ceil_log2(n) for n in (0, 2, 3, 16, 17)]
    [1, 1, 2, 4, 5]
    """
    return 1 if x <= 2 else (x - 1).bit_length()


def _run(acc: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """acc += rows[0]; acc += rows[1]; ... strictly in order, column by column."""
    if len(rows) == 0:
        return acc
    return np.add.accumulate(np.concatenate([acc[None], rows]), axis=0)[-1]


def multi_row_sum(x: np.ndarray) -> np.ndarray:
    """multi_row_sum: the cascade over axis 0 of ``x`` (rows, columns), each column alone.

    Rows are added into level 0; every 2**level_power rows level 0 moves into level 1,
    and so on up to four levels, which are added together at the end.

    >>> multi_row_sum(np.ones((40, 2), np.float32)).tolist()
    [40.0, 40.0]
    """
    size = len(x)
    power = max(4, ceil_log2(size) // 4)
    step, mask = 1 << power, (1 << power) - 1
    acc = np.zeros((4,) + x.shape[1:], x.dtype)
    i = 0
    while i + step <= size:
        acc[0] = _run(acc[0], x[i:i + step])
        i += step
        for j in range(1, 4):
            acc[j] += acc[j - 1]
            acc[j - 1] = 0
            if i & (mask << (j * power)):
                break
    acc[0] = _run(acc[0], x[i:])
    for j in range(1, 4):
        acc[0] += acc[j]
    return acc[0]


def row_sum(x: np.ndarray) -> np.ndarray:
    """row_sum: axis 0 seen as (-1, 4) -- four interleaved cascades (ilp_factor), the
    rows left over added to the first, then the four added in order.

    >>> row_sum(np.arange(10, dtype=np.float32)[:, None]).tolist()
    [45.0]
    """
    n = len(x)
    ilp = n // 4
    parts = multi_row_sum(x[:ilp * 4].reshape((ilp, 4) + x.shape[1:]))
    first = _run(parts[0], x[ilp * 4:])
    for k in range(1, 4):
        first = first + parts[k]
    return first


def _block(x: np.ndarray, in_strides: tuple[int, int], acc_np: np.dtype,
           build: Build) -> tuple[str, np.ndarray]:
    """cascade_sum's loop on one block ``x`` (size0, size1) whose axis 0 is reduced:
    the path taken and the sum of each column (in acc_t).  ``build``: the kernel's
    build, whose vectors hold ``vec`` scalars and ``acc_lanes`` accumulators."""
    s0, s1 = in_strides
    vec = build.lanes(x.dtype.itemsize)
    acc_lanes = build.lanes(np.dtype(acc_np).itemsize)
    xa = x.astype(acc_np)
    if s0 == 1 and len(x) >= vec:
        # vectorized_inner_sum: lanes of whole vectors, the tail, then the lanes in order
        n, m = x.shape
        vs = n // vec
        loaded = xa[:vs * vec].reshape(vs, acc_lanes, vec // acc_lanes, m)
        # load_reduce_vec: neighbouring elements folded into a lane (Half: pairs)
        vacc = np.zeros((vs, acc_lanes, m), acc_np)
        for k in range(vec // acc_lanes):
            vacc = vacc + loaded[:, :, k]
        partials = row_sum(vacc)                     # (lanes, m)
        final = _run(np.zeros(m, acc_np), xa[vs * vec:])
        return "vectorized_inner_sum", _run(final, partials)
    if s1 == 1 and x.shape[1] >= vec:
        # vectorized_outer_sum: 4 vectors of columns by multi_row_sum, then one vector
        # at a time and the scalar tail by row_sum (each lane is a column)
        cut = x.shape[1] // (4 * acc_lanes) * (4 * acc_lanes)
        return "vectorized_outer_sum", np.concatenate([multi_row_sum(xa[:, :cut]),
                                                       row_sum(xa[:, cut:])])
    if s0 < s1:
        return "scalar_inner_sum", row_sum(xa)
    cut = x.shape[1] // 4 * 4
    return "scalar_outer_sum", np.concatenate([multi_row_sum(xa[:, :cut]),
                                               row_sum(xa[:, cut:])])


def geometry(sizes: Sequence[int], in_strides: Sequence[int],
             out_strides: Sequence[int]) -> Geometry:
    """A reduction TensorIterator's shape and strides (elements), innermost first:
    reorder_dimensions (reduced dims first, then by the input's strides) and
    coalesce_dimensions.

    >>> geometry((2, 3), (3, 1), (0, 0))
    ([6], [1], [0])
    >>> geometry((2, 3), (3, 1), (1, 0))
    ([3, 2], [1, 3], [0, 1])
    """
    nd = len(sizes)
    shape, ins, outs = list(sizes)[::-1], list(in_strides)[::-1], list(out_strides)[::-1]
    if nd > 1:
        def should_swap(d0: int, d1: int) -> int:
            if (outs[d0] == 0) != (outs[d1] == 0):
                return 1 if outs[d1] == 0 else -1
            for st in (outs, ins):
                a, b = st[d0], st[d1]
                if a == 0 or b == 0:
                    continue
                if a != b:
                    return -1 if a < b else 1
                if shape[d0] > shape[d1]:
                    return 1
            return 0
        perm = S.sort_dims(list(range(nd)), should_swap)
        shape = [shape[p] for p in perm]
        ins, outs = [ins[p] for p in perm], [outs[p] for p in perm]
        prev = 0
        for d in range(1, nd):
            a, b = shape[prev], shape[d]
            if a == 1 or b == 1 or (a * ins[prev] == ins[d] and a * outs[prev] == outs[d]):
                if shape[prev] == 1:
                    ins[prev], outs[prev] = ins[d], outs[d]
                shape[prev] *= shape[d]
            else:
                prev += 1
                shape[prev], ins[prev], outs[prev] = shape[d], ins[d], outs[d]
        shape, ins, outs = shape[:prev + 1], ins[:prev + 1], outs[:prev + 1]
    return shape, ins, outs


def _blocks(shape: Sequence[int], begin: int, end: int):
    """serial_for_each's DimCounter: (coordinates, size0, size1) of each loop call."""
    nd = len(shape)
    if nd <= 1:
        yield [begin] if nd else [], end - begin, 1
        return
    values, linear = [0] * nd, begin
    for d in range(nd):
        if shape[d] > 0:
            values[d], linear = linear % shape[d], linear // shape[d]
    offset = begin
    while offset < end:
        step0 = min(shape[0] - values[0], end - offset)
        step1 = min(shape[1] - values[1], (end - offset) // shape[0]) \
            if step0 == shape[0] else 1
        yield list(values), step0, step1
        offset += step0 * step1
        i, overflow = (1, step1) if step1 != 1 else (0, step0)
        while i < nd and overflow > 0:
            v = values[i] + overflow
            overflow = 1 if v >= shape[i] else 0
            values[i] = v - shape[i] if overflow else v
            i += 1


class Reduction:
    """One cascade_sum over flat numpy arrays: ``src`` (the input's storage elements,
    in the input dtype) and ``dst`` (the output's, in the output dtype).  ``stub``: the
    DispatchStub whose build runs (subclasses for prod, amax, amin name theirs)."""

    stub = SUM_STUB

    def __init__(self, src: np.ndarray, dst: np.ndarray, scalar_np: np.dtype) -> None:
        self.src, self.dst, self.np = src, dst, np.dtype(scalar_np)
        # acc_t = opmath_type<scalar_t>: float for Half, the type itself otherwise; a
        # c10::complex adds its real and imaginary parts each in IEEE (measured bit for bit
        # against torch's complex64/complex128 sums under AVX2 and DEFAULT)
        self.acc = self.np if self.np.kind == "c" else \
            np.dtype(np.float64 if self.np == np.float64 else np.float32)
        self.build = self.stub.build()
        self.vec = self.build.lanes(self.np.itemsize)
        self.paths: list[str] = []

    def loop(self, geo: Geometry, in_base: int, out_base: int, begin: int, end: int) -> None:
        """serial_for_each(loop, {begin, end}) over the geometry ``geo``."""
        shape, ins, outs = geo
        two = lambda st: (st + [0, 0])[:2]  # noqa: E731 - a 1-d loop has stride 0 on dim 1
        (i0, i1), (o0, o1) = two(ins), two(outs)
        for values, size0, size1 in _blocks(shape, begin, end):
            ib = in_base + sum(v * s for v, s in zip(values, ins))
            ob = out_base + sum(v * s for v, s in zip(values, outs))
            self._kernel(ib, ob, size0, size1, (i0, i1), (o0, o1))

    def _kernel(self, ib: int, ob: int, size0: int, size1: int,
                ins: tuple[int, int], outs: tuple[int, int]) -> None:
        if outs[0] != 0 and outs[1] == 0:      # move the reduction to the first dim
            ins, outs, size0, size1 = ins[::-1], outs[::-1], size1, size0
        x = self.src[ib + np.arange(size0)[:, None] * ins[0] + np.arange(size1)[None] * ins[1]]
        oidx = ob + np.arange(size1) * outs[1]
        if outs[0] != 0:
            # not a true reduction: out = out + in, element by element
            oidx2 = ob + np.arange(size0)[:, None] * outs[0] + np.arange(size1)[None] * outs[1]
            self.paths.append("basic_loop")
            self.dst[oidx2] = (self.dst[oidx2] + x).astype(self.np)
            return
        path, sums = _block(x, ins, self.acc, self.build)
        self.paths.append(path)
        if outs[1] != 0:                             # a column per output
            self.dst[oidx] = self._store(self.dst[oidx], sums)
        else:
            # every column into one output, in turn: each += rounds to scalar_t (a Half
            # step adds in float and rounds, as float16's add does)
            steps = np.concatenate([self.dst[ob:ob + 1], self._store(0, sums)])
            self.dst[ob] = np.add.accumulate(steps)[-1]

    def _store(self, old, value):
        """CastStoreAccumulate: ``*ptr += value`` in scalar_t (Half: value rounded to
        Half first, then added in float), element by element of arrays."""
        if self.np == self.acc:
            return np.asarray(old + value, dtype=self.np)
        return (np.asarray(old, np.float32)
                + np.asarray(value, dtype=self.np).astype(np.float32)).astype(self.np)


def cascade_sum(src: np.ndarray, in_base: int, dst: np.ndarray, out_base: int,
                sizes: Sequence[int], in_strides: Sequence[int], out_strides: Sequence[int],
                scalar_np: np.dtype) -> list[str]:
    """Sum ``src`` into ``dst`` (already zero) as cascade_sum and parallel_reduce do.
    ``out_strides`` are the result's strides seen with 0 on every reduced dim
    (review_reduce_result).  Returns the paths the loop took, for the trace."""
    geo = geometry(sizes, in_strides, out_strides)
    if np.dtype(scalar_np) == np.float16 and len(geo[0]) >= 2 and geo[2][0] == geo[2][1] == 0:
        # should_use_acc_buffer (ReduceOps.cpp): sum_out re-runs itself on a float copy
        # into a float result, then copies back -- operators tidx does not run here
        raise Refused("a float16 sum whose iterator keeps two reduced dims apart (torch "
                      "sums a float32 copy into a float32 buffer, should_use_acc_buffer) "
                      "is not modelled by tidx")
    return parallel_reduce(Reduction, src, in_base, dst, out_base, geo, scalar_np, 0)


def check_replay(what: str, numel: int, itemsize: int) -> None:
    """A replay gathers its block's elements with numpy (an int64 offset and the value
    for each, and as much again for the output offsets or the accumulators): ask the
    run's budget for the biggest block, the whole input, first."""
    check_temporary(what, numel, 16 + 2 * itemsize)


def parallel_reduce(kind: type["Reduction"], src: np.ndarray, in_base: int, dst: np.ndarray,
                    out_base: int, geo: Geometry, scalar_np: np.dtype, identity) -> list[str]:
    """TensorIteratorBase::parallel_reduce: serial below GRAIN_SIZE (or on one thread);
    else two_pass_reduction for a one-element result, parallel_dim_reduction otherwise.
    ``kind`` is the loop (a Reduction subclass); ``identity`` fills the two-pass buffer."""
    numel = S.numel(geo[0])
    red = kind(src, dst, scalar_np)
    threads = num_threads()
    if numel < GRAIN_SIZE or threads == 1:
        red.loop(geo, in_base, out_base, 0, numel)
    elif all(o == 0 for o in geo[2]):
        # each thread reduces its range into its own row of a buffer made of the
        # identity; the rows are then reduced into the result by the same loop
        buffer = np.full(threads, identity, red.np)
        sub = kind(src, buffer, scalar_np)
        for t, (b, e) in enumerate(chunks(numel)):
            sub.loop(geo, in_base, t, b, e)
        final = kind(buffer, dst, scalar_np)
        final.loop(geometry((threads,), (1,), (0,)), 0, out_base, 0, threads)
        red.paths = sub.paths + final.paths
    else:
        _parallel_dim(red, geo, in_base, out_base, threads)
    return red.paths


def _parallel_dim(red: Reduction, geo: Geometry, in_base: int, out_base: int,
                  threads: int) -> None:
    """parallel_dim_reduction: the outer-most output dim of at least ``threads`` columns
    (else the largest) is split across the threads, rounded to 128 bytes where the
    columns are adjacent; each part runs as a narrowed iterator."""
    shape, ins, outs = geo
    dim = len(shape) - 1
    best = dim
    while dim >= 0 and outs[dim] != 0:
        if shape[dim] >= threads:
            best = dim
            break
        if shape[dim] > shape[best]:
            best = dim
        dim -= 1
    cols = shape[best]
    multiple = 128 // red.np.itemsize if ins[best] == 1 else 1
    for b, e in chunks(cols, 1):
        b -= b % multiple
        if e != cols:
            e -= e % multiple
        if b == e:
            continue
        narrowed = (shape[:best] + [e - b] + shape[best + 1:], ins, outs)
        red.loop(narrowed, in_base + b * ins[best], out_base + b * outs[best], 0,
                 S.numel(narrowed[0]))
