"""The simulated c10::cuda::CUDACachingAllocator (engine/memory/cuda_caching_allocator.py):
its arithmetic against the numbers PyTorch's source holds, worked sequences a learner can
follow on paper, the steps it records, and random malloc/free sequences that keep the
allocator's invariants."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule, run_state_machine_as_test)

from conftest import examples, require_torch
from engine.memory import cuda_caching_allocator as A
from engine.memory.cuda_caching_allocator import DeviceCachingAllocator
from tracer import i18n, record, walk
from tracer.document import Event
from tracer.i18n import en_cuda

MiB = 2**20


# -- the constants and the arithmetic ---------------------------------------------------
def test_the_constants_are_pytorchs():
    """PyTorch 2.13 keeps them in c10/core/AllocatorConfig.h (installed with the wheel, read
    here), except kLargeBuffer, defined in c10/cuda/CUDACachingAllocator.cpp:
    ``const size_t kLargeBuffer = 20971520; // "large" allocations may be packed in 20 MiB
    blocks``."""
    torch = require_torch()
    header = Path(torch.__file__).parent / "include/c10/core/AllocatorConfig.h"
    found = dict(re.findall(r"constexpr size_t (k\w+) = (\d+);", header.read_text()))
    assert {k: int(v) for k, v in found.items()} == {
        "kSmallBuffer": A.K_SMALL_BUFFER, "kMinBlockSize": A.K_MIN_BLOCK_SIZE,
        "kSmallSize": A.K_SMALL_SIZE, "kMinLargeAlloc": A.K_MIN_LARGE_ALLOC,
        "kRoundLarge": A.K_ROUND_LARGE}
    assert (A.K_MIN_BLOCK_SIZE, A.K_SMALL_SIZE, A.K_SMALL_BUFFER, A.K_LARGE_BUFFER,
            A.K_MIN_LARGE_ALLOC, A.K_ROUND_LARGE) == \
        (512, 1 * MiB, 2 * MiB, 20 * MiB, 10 * MiB, 2 * MiB)


def test_round_size():
    """DeviceCachingAllocator::round_size: ``if (size < kMinBlockSize) return
    kMinBlockSize; ... return kMinBlockSize * ((size + kMinBlockSize - 1) /
    kMinBlockSize);``"""
    assert [A.round_size(n) for n in (0, 1, 48, 511, 512, 513, 1024, 1025)] == \
        [512, 512, 512, 512, 512, 1024, 1024, 1536]
    assert A.round_size(12 * 4) == 512          # torch.randn(3, 4): 48 bytes
    assert A.round_size(MiB + 1) == MiB + 512


def test_roundup_power2_divisions():
    """roundup_power2_next_division, with the example of its comment in
    CUDACachingAllocator.cpp: "if we need to round-up 1200 and number of divisions is 4
    ... the values are 1024, 1280, 1536, and 1792. So the function will return 1280"; and
    round_size uses it only for sizes above kMinBlockSize * divisions."""
    assert A.roundup_power2_next_division(1200, 4) == 1280
    # 1200 is not above kMinBlockSize * 4 = 2048: a multiple of 512 as usual
    assert A.round_size(1200, 4) == A.round_size(1200) == 1536
    # 9000 lies between 8192 and 16384: steps of 2048
    assert A.round_size(9000, 4) == 10240 and A.round_size(9000) == 9216
    assert [A.round_size(n, 4) for n in (2048, 2049, 8192)] == [2048, 2560, 8192]
    assert A.round_size(10**6 + 1, 1) == A.round_size(10**6 + 1)   # 1 division: off
    a = DeviceCachingAllocator(roundup_power2_divisions=4)
    assert a.malloc(9000).size == 10240


def test_get_pool_and_get_allocation_size():
    """get_pool: ``if (size <= kSmallSize) return small_blocks;``.
    get_allocation_size: ``if (size <= kSmallSize) return kSmallBuffer; else if (size <
    kMinLargeAlloc) return kLargeBuffer; else return kRoundLarge * ((size + kRoundLarge -
    1) / kRoundLarge);``"""
    assert [A.pool_of(n) for n in (512, MiB, MiB + 512)] == [A.SMALL, A.SMALL, A.LARGE]
    assert A.get_allocation_size(512) == 2 * MiB
    assert A.get_allocation_size(MiB) == 2 * MiB
    assert A.get_allocation_size(MiB + 512) == 20 * MiB
    assert A.get_allocation_size(10 * MiB - 512) == 20 * MiB
    assert A.get_allocation_size(10 * MiB) == 10 * MiB
    assert A.get_allocation_size(11 * MiB) == 12 * MiB
    assert A.get_allocation_size(19 * MiB + 512) == 20 * MiB


def test_should_split():
    """should_split: ``if (block->pool->is_small ...) return remaining >= kMinBlockSize;
    else return (size < max_split_size()) && (remaining > kSmallSize);``"""
    assert A.should_split(A.SMALL, 2 * MiB, 512)
    assert A.should_split(A.SMALL, 1024, 512)
    assert not A.should_split(A.SMALL, 1024, 1024)
    assert A.should_split(A.LARGE, 20 * MiB, MiB + 512)
    assert not A.should_split(A.LARGE, 2 * MiB + 512, MiB + 512)   # exactly 1 MiB remains
    assert A.should_split(A.LARGE, 2 * MiB + 1024, MiB + 512)


# -- worked sequences --------------------------------------------------------------------
def test_48_bytes_take_a_512_byte_block_of_a_new_2_mib_segment():
    a = DeviceCachingAllocator()
    x = a.malloc(48)
    assert (x.size, x.requested_size, x.ptr) == (512, 48, A.SIMULATED_DEVICE_HEAP)
    assert a.cuda_mallocs == [2 * MiB]
    [segment] = a.segments()
    assert [(b.size, b.allocated) for b in segment] == [(512, True), (2 * MiB - 512, False)]
    assert a.pools[A.SMALL].blocks == [segment[1]]            # the rest stays cached
    stats = a.memory_stats()
    assert stats["allocated_bytes.all.current"] == 512
    assert stats["reserved_bytes.all.current"] == 2 * MiB
    assert stats["requested_bytes.all.current"] == 48
    assert stats["segment.small_pool.current"] == 1
    assert stats["active.all.current"] == 1
    assert stats["inactive_split.all.current"] == 1
    assert stats["inactive_split_bytes.all.current"] == 2 * MiB - 512
    assert stats["num_device_alloc"] == 1


def test_a_second_small_allocation_reuses_the_segment():
    a = DeviceCachingAllocator()
    x, y = a.malloc(48), a.malloc(4000)
    assert a.cuda_mallocs == [2 * MiB]
    assert (y.ptr - x.ptr, y.size) == (512, 4096)
    assert a.memory_stats()["allocated_bytes.all.current"] == 512 + 4096


def test_freeing_returns_the_block_to_the_cache_and_reallocating_reuses_it():
    a = DeviceCachingAllocator()
    x = a.malloc(48)
    y = a.malloc(48)
    address = x.ptr
    a.free(x)
    assert a.memory_reserved() == 2 * MiB                      # nothing went to the driver
    assert a.memory_allocated() == 512
    z = a.malloc(100)
    assert z.ptr == address and a.cuda_mallocs == [2 * MiB]   # best fit: the freed block
    a.free(y)
    a.free(z)
    [segment] = a.segments()
    assert [(b.size, b.allocated) for b in segment] == [(2 * MiB, False)]   # merged whole
    assert a.memory_stats()["inactive_split.all.current"] == 0


def test_a_1_mib_plus_1_allocation_goes_to_the_large_pool_with_a_20_mib_segment():
    a = DeviceCachingAllocator()
    x = a.malloc(MiB + 1)
    assert (x.pool, x.size) == (A.LARGE, MiB + 512)
    assert a.cuda_mallocs == [20 * MiB]
    [segment] = a.segments()
    assert [b.size for b in segment] == [MiB + 512, 19 * MiB - 512]
    assert a.memory_stats()["reserved_bytes.large_pool.current"] == 20 * MiB
    assert a.memory_stats()["reserved_bytes.small_pool.current"] == 0


def test_11_mib_gets_a_12_mib_segment_whose_last_mib_is_not_split_off():
    a = DeviceCachingAllocator()
    x = a.malloc(11 * MiB)
    assert a.cuda_mallocs == [12 * MiB]
    assert x.size == 12 * MiB                  # 1 MiB would remain: not > kSmallSize
    assert a.memory_allocated() == 12 * MiB
    assert a.memory_stats()["requested_bytes.all.current"] == 11 * MiB


def test_best_fit_takes_the_smallest_block_that_fits_then_the_lowest_address():
    a = DeviceCachingAllocator()
    blocks = [a.malloc(n) for n in (2048, 512, 1024, 512, 1024, 512)]
    for b in (blocks[0], blocks[2], blocks[4]):   # free 2048, 1024, 1024 (not neighbours)
        a.free(b)
    got = a.malloc(1000)                           # 1024 bytes: two fit exactly
    assert got.ptr == min(blocks[2].ptr, blocks[4].ptr) == blocks[2].ptr
    assert a.cuda_mallocs == [2 * MiB]


def test_blocks_belong_to_their_stream():
    a = DeviceCachingAllocator()
    x = a.malloc(48, stream=0)
    address, segment = x.ptr, x.segment
    a.free(x)
    y = a.malloc(48, stream=7)                     # the cached block is stream 0's
    assert a.cuda_mallocs == [2 * MiB, 2 * MiB]
    assert y.stream == 7 and y.segment != segment
    assert a.malloc(48, stream=0).ptr == address   # stream 0 gets its own block back


def test_empty_cache_releases_whole_free_segments_only():
    a = DeviceCachingAllocator()
    keep = a.malloc(48)
    big = a.malloc(11 * MiB)
    a.free(big)
    a.empty_cache()
    assert a.memory_reserved() == 2 * MiB          # the small segment still has a block
    assert a.memory_stats()["num_device_free"] == 1
    a.free(keep)
    a.empty_cache()
    assert a.memory_reserved() == 0 and a.segments() == []
    assert a.memory_stats()["segment.all.freed"] == 2


def test_zero_bytes_take_no_block():
    a = DeviceCachingAllocator()
    assert a.allocate(0) is None
    assert a.cuda_mallocs == [] and a.memory_reserved() == 0
    assert a.allocate(1).size == 512


def test_segments_are_2_mib_aligned_and_never_overlap():
    a = DeviceCachingAllocator()
    xs = [a.malloc(n) for n in (48, 11 * MiB, MiB + 1, 3 * MiB)]
    bases = sorted({x.segment for x in xs})
    assert all(b % (2 * MiB) == 0 for b in bases)
    spans = sorted((seg[0].ptr, seg[0].ptr + sum(b.size for b in seg)) for seg in a.segments())
    assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:]))


def test_the_statistics_are_named_as_torch_cuda_memory_stats_names_them():
    """torch 2.13's torch.cuda.memory_stats documents each name (a CPU build cannot call
    it: its docstring is the reference here)."""
    torch = require_torch()
    doc = torch.cuda.memory_stats.__doc__
    for name in A.STAT_ARRAYS:
        if name == "allocation":     # the C++ field; the docstring says "allocated"
            continue
        assert f'"{name}.{{all,large_pool,small_pool}}.{{current,peak,allocated,freed}}"' \
            in doc, name
    for name in A.COUNTERS:
        assert f'"{name}"' in doc, name
    stats = DeviceCachingAllocator().memory_stats()
    assert list(stats) == sorted(stats)            # memory_stats sorts its keys
    assert "allocated_bytes.all.current" in stats and "active.large_pool.peak" in stats


# -- the steps it records ----------------------------------------------------------------
def _run_everything():
    """One sequence reaching every note of the allocator."""
    a = DeviceCachingAllocator()
    with record() as tr:
        DeviceCachingAllocator(roundup_power2_divisions=4).malloc(9000)
        a.allocate(0)
        x, y = a.malloc(48), a.malloc(48)
        a.free(x)
        x = a.malloc(100)                     # the freed 512 bytes exactly: no split
        huge = a.malloc(11 * MiB)             # a 12 MiB segment, its last MiB not split
        big = a.malloc(MiB + 1)               # a 20 MiB segment, split
        a.free(y)
        a.free(x)
        a.free(big)
        a.free(huge)
        a.empty_cache()
    return tr.to_dict()["statements"][0]["events"]


def test_malloc_records_round_size_the_pool_the_cudamalloc_and_the_split():
    events = _run_everything()
    first = events[2]
    assert first["name"] == "DeviceCachingAllocator::malloc"
    assert first["layer"] == "memory" and first["source"] == A.SOURCE
    assert [c["name"] for c in first["children"]] == \
        ["round_size", "get_pool", "get_free_block", "alloc_block", "alloc_found_block"]
    notes = [c["note"] for c in first["children"]]
    assert notes[0] == "48 bytes round up to 512: a multiple of kMinBlockSize (512)"
    assert "the small pool" in notes[1]
    assert "2097152 bytes (2 MiB)" in notes[3]
    assert first["children"][3]["children"][0]["note"] == \
        "cudaMalloc(2097152): the driver gives a new segment at 0x7f0000000000 " \
        "(a simulated address)"
    assert "512 bytes at 0x7f0000000000 are handed out, the remaining 2096640 bytes" \
        in notes[4]
    second = events[3]
    assert [c["name"] for c in second["children"]] == \
        ["round_size", "get_pool", "get_free_block", "alloc_found_block"]   # no cudaMalloc


def test_every_allocator_note_is_reached_and_reads_in_every_language():
    from test_i18n import IDENTIFIER

    events = [ev for top in _run_everything() for _, ev in walk([top]) if ev.get("note")]
    # (cuda.device.*: the simulated device's factories; ui.*: labels, not notes)
    allocator_ids = {id for id in en_cuda.TEXT
                     if not id.startswith(("cuda.philox", "cuda.device.", "ui."))}
    assert {ev["note_id"] for ev in events} == allocator_ids
    for ev in events:
        assert ev["note"] == i18n.text(ev["note_id"], "en", **ev["note_args"])
        zh = i18n.note(Event.from_json(ev), "zh") or ""
        assert zh != ev["note"] and re.search(r"[\u4e00-\u9fff]", zh)
        assert all(tok in zh for tok in IDENTIFIER.findall(ev["note"])), ev["note_id"]


# -- random sequences keep the invariants ----------------------------------------------------
SIZES = st.one_of(st.integers(0, 4096), st.integers(0, 3 * MiB), st.integers(0, 24 * MiB),
                  st.sampled_from([512, MiB, MiB + 1, 10 * MiB, 11 * MiB]))


class AllocatorMachine(RuleBasedStateMachine):
    """Random malloc / free / empty_cache on two streams, checked after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.a = DeviceCachingAllocator()
        self.live: list[A.Block] = []

    @initialize(divisions=st.sampled_from([0, 0, 2, 4, 8]))
    def configure(self, divisions: int) -> None:
        """Most runs with the default rounding, some with roundup_power2_divisions."""
        self.a = DeviceCachingAllocator(roundup_power2_divisions=divisions)

    @rule(size=SIZES, stream=st.sampled_from([0, 1]))
    def malloc(self, size: int, stream: int) -> None:
        rounded = A.round_size(size, self.a.roundup_power2_divisions)
        pool = self.a.pools[A.pool_of(rounded)]
        fits = any(b.stream == stream and b.size >= rounded for b in pool.blocks)
        before = len(self.a.cuda_mallocs)
        block = self.a.allocate(size, stream)
        if size == 0:
            assert block is None and len(self.a.cuda_mallocs) == before
            return
        # cudaMalloc exactly when no free block of the pool and stream fits
        assert len(self.a.cuda_mallocs) == before + (not fits)
        assert block.size >= rounded >= size and block.stream == stream
        self.live.append(block)

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def free(self, data) -> None:
        block = self.live.pop(data.draw(st.integers(0, len(self.live) - 1)))
        self.a.free(block)

    @rule()
    def empty_cache(self) -> None:
        self.a.empty_cache()
        assert all(b.is_split() for p in self.a.pools.values() for b in p.blocks)

    @invariant()
    def segments_are_tiled_exactly(self) -> None:
        reserved, sizes = 0, Counter()
        for seg in self.a.segments():
            ptr = seg[0].ptr
            assert ptr == seg[0].segment and ptr % A.SEGMENT_ALIGNMENT == 0
            for b in seg:
                assert b.ptr == ptr and b.segment == seg[0].segment   # no gap, no overlap
                assert b.ptr % 512 == 0 and b.size % 512 == 0
                assert b.stream == seg[0].stream and b.pool == seg[0].pool
                ptr += b.size
            reserved += ptr - seg[0].ptr
            sizes[ptr - seg[0].ptr] += 1
        assert reserved == self.a.memory_reserved()
        assert not sizes - Counter(self.a.cuda_mallocs)     # each segment is a cudaMalloc's

    @invariant()
    def live_blocks_do_not_overlap(self) -> None:
        spans = sorted((b.ptr, b.ptr + b.size) for b in self.live)
        assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:]))
        assert {id(b) for b in self.live} == {id(b) for b in self.a.active_blocks}

    @invariant()
    def free_neighbours_are_merged(self) -> None:
        for seg in self.a.segments():
            for left, right in zip(seg, seg[1:]):
                assert left.allocated or right.allocated
                assert left.next is right and right.prev is left

    @invariant()
    def the_statistics_add_up(self) -> None:
        s = self.a.memory_stats()
        blocks = [b for seg in self.a.segments() for b in seg]
        allocated = sum(b.size for b in blocks if b.allocated)
        assert s["allocated_bytes.all.current"] == allocated == \
            sum(b.size for b in self.live)
        assert s["reserved_bytes.all.current"] >= s["allocated_bytes.all.current"]
        assert s["active.all.current"] == s["allocation.all.current"] == len(self.live)
        assert s["requested_bytes.all.current"] == sum(b.requested_size for b in self.live)
        split_free = [b for b in blocks if not b.allocated and b.is_split()]
        assert s["inactive_split.all.current"] == len(split_free)
        assert s["inactive_split_bytes.all.current"] == sum(b.size for b in split_free)
        assert s["segment.all.current"] == len(self.a.segments())
        for name in A.STAT_ARRAYS:
            assert s[f"{name}.all.current"] == \
                s[f"{name}.small_pool.current"] + s[f"{name}.large_pool.current"]
        assert s["num_device_alloc"] - s["num_device_free"] == len(self.a.segments())

    @invariant()
    def the_pool_is_ordered_by_stream_size_address(self) -> None:
        for pool in self.a.pools.values():
            keys = [b.key() for b in pool.blocks]
            assert keys == sorted(keys)
            assert all(not b.allocated for b in pool.blocks)


def test_random_malloc_and_free_sequences_keep_the_invariants():
    run_state_machine_as_test(
        AllocatorMachine,
        # too_slow: a shared machine's load, not the draws, makes the first steps slow
        settings=settings(max_examples=examples(60), stateful_step_count=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow]))


def test_the_simulated_machine_has_one_gpu():
    with pytest.raises(AssertionError):
        A.device_allocator(1)
    assert A.device_allocator(0) is A.device_allocator(0)
