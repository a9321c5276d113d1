"""c10::cuda::CUDACachingAllocator, simulated: how a CUDA tensor gets its memory.

Follows ``DeviceCachingAllocator`` of c10/cuda/CUDACachingAllocator.cpp (PyTorch 2.13; the
constants are in c10/core/AllocatorConfig.h) with the default configuration
(``PYTORCH_CUDA_ALLOC_CONF`` unset: no ``max_split_size``, no ``roundup_power2_divisions``,
no expandable segments, no CUDA graphs):

* ``malloc``: ``round_size`` (a multiple of kMinBlockSize = 512 bytes), ``get_pool``
  (the small pool for sizes <= kSmallSize = 1 MiB, else the large pool),
  ``get_free_block`` (best fit among the pool's cached free blocks of the same stream,
  ordered by (stream, size, address)), and only when none fits ``alloc_block``: one
  ``cudaMalloc`` of ``get_allocation_size`` bytes, a new segment; then
  ``alloc_found_block`` splits the block when ``should_split`` says the rest is worth
  keeping;
* ``free``: the block goes back to its pool (``free_block``), merged with free neighbours
  of the same segment (``try_merge_blocks``); no memory returns to the driver;
* ``emptyCache``: ``release_cached_blocks`` cudaFrees every segment that is one whole
  free block;
* the statistics ``torch.cuda.memory_stats()`` reports, by the same names.

Nothing here holds device bytes: it is the allocator's bookkeeping, which is what a learner
can see of it (addresses, blocks, segments, counters).  The addresses are simulated: a
real cudaMalloc answers wherever the driver has room (CUDA guarantees 256-byte
alignment; for these sizes the driver gives 2 MiB-aligned addresses in practice).  Here a
run's first segment starts at :data:`SIMULATED_DEVICE_HEAP` and each new segment at the
next 2 MiB boundary after the last (a freed segment's addresses are not handed out again,
so two segments never share an address in one run); a block is its segment's base plus an
offset, and since every block size is a multiple of 512, every block address is 512-byte
aligned.  The same statements give the same addresses in every run.

Each step is recorded (layer ``memory``) with its note: what a learner would otherwise
have to read the C++ for.  The state is an object (one per simulated device, kept by the
run: :func:`device_allocator`), never a module global.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from tracer.notes import Note
from tracer.recorder import emit, span
from tracer.steps import Counted, Layer, Lecture, step

from engine.core.context import current

SOURCE = "c10/cuda/CUDACachingAllocator.cpp"

#: c10/core/AllocatorConfig.h: all sizes are rounded to at least 512 bytes
K_MIN_BLOCK_SIZE = 512
#: largest "small" allocation is 1 MiB
K_SMALL_SIZE = 1048576
#: "small" allocations are packed in 2 MiB blocks
K_SMALL_BUFFER = 2097152
#: c10/cuda/CUDACachingAllocator.cpp: "large" allocations may be packed in 20 MiB blocks
K_LARGE_BUFFER = 20971520
#: allocations between 1 and 10 MiB may use kLargeBuffer
K_MIN_LARGE_ALLOC = 10485760
#: round up large allocations to 2 MiB
K_ROUND_LARGE = 2097152

#: Where the simulated device's first segment starts (see the module's docstring).
SIMULATED_DEVICE_HEAP = 0x7F00_0000_0000
#: The boundary each simulated segment starts on.
SEGMENT_ALIGNMENT = 2097152

#: The pools' names, as torch.cuda.memory_stats spells them.
SMALL, LARGE = "small_pool", "large_pool"
#: The statistics of DeviceStats that are broken down by pool (StatArray).
STAT_ARRAYS = ("allocation", "segment", "active", "inactive_split", "allocated_bytes",
               "reserved_bytes", "active_bytes", "inactive_split_bytes", "requested_bytes")
#: The plain event counters of DeviceStats.
COUNTERS = ("num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc",
            "num_device_free")


# -- the arithmetic: small pure functions ----------------------------------------------
def round_size(size: int, divisions: int = 0) -> int:
    """DeviceCachingAllocator::round_size: at least kMinBlockSize, else the next multiple
    of it; with ``divisions`` > 1 (``PYTORCH_CUDA_ALLOC_CONF=roundup_power2_divisions:N``,
    off by default) a size above 512 x N rounds up to the next of N equal steps between
    two powers of two instead (:func:`roundup_power2_next_division`).

    >>> round_size(48), round_size(512), round_size(513), round_size(1_000_000)
    (512, 512, 1024, 1000448)
    >>> round_size(600_000, divisions=4), round_size(1_000_000, divisions=4)
    (655360, 1048576)
    """
    if size < K_MIN_BLOCK_SIZE:
        return K_MIN_BLOCK_SIZE
    if divisions > 1 and size > K_MIN_BLOCK_SIZE * divisions:
        return roundup_power2_next_division(size, divisions)
    return K_MIN_BLOCK_SIZE * ((size + K_MIN_BLOCK_SIZE - 1) // K_MIN_BLOCK_SIZE)


def roundup_power2_next_division(size: int, divisions: int) -> int:
    """roundup_power2_next_division: the space between the powers of two around ``size``
    cut in ``divisions`` equal steps; ``size`` rounds up to the next step.  The C++'s own
    example: 1200 lies between 1024 and 2048; 4 divisions give 1024, 1280, 1536, 1792.

    >>> roundup_power2_next_division(1200, 4), roundup_power2_next_division(1024, 4)
    (1280, 1024)
    >>> roundup_power2_next_division(1000, 1024)    # a step below 1 byte: the next power
    1024
    """
    if size & (size - 1) == 0:
        return size
    assert divisions >= 2, "Only 2 or more divisions are supported"
    power2_floor = 1 << (size.bit_length() - 1)
    power2_division = power2_floor >> (divisions.bit_length() - 1)
    if power2_division == 0:
        return power2_floor << 1
    round_size_floor = size & ~(power2_division - 1)
    return size if round_size_floor == size else round_size_floor + power2_division


def pool_of(size: int) -> str:
    """get_pool: the small pool holds rounded sizes up to kSmallSize (1 MiB) included.

    >>> pool_of(512), pool_of(1048576), pool_of(1048576 + 512)
    ('small_pool', 'small_pool', 'large_pool')
    """
    return SMALL if size <= K_SMALL_SIZE else LARGE


def get_allocation_size(size: int) -> int:
    """get_allocation_size: how much one cudaMalloc asks for when nothing cached fits.

    Small sizes share a 2 MiB segment; up to 10 MiB a 20 MiB segment that later requests
    can split; from 10 MiB the size itself, rounded up to 2 MiB.

    >>> get_allocation_size(512), get_allocation_size(1048576 + 512)
    (2097152, 20971520)
    >>> get_allocation_size(11 * 2**20) == 12 * 2**20, get_allocation_size(10 * 2**20)
    (True, 10485760)
    """
    if size <= K_SMALL_SIZE:
        return K_SMALL_BUFFER
    if size < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return K_ROUND_LARGE * ((size + K_ROUND_LARGE - 1) // K_ROUND_LARGE)


def should_split(pool: str, block_size: int, size: int) -> bool:
    """should_split: keep the rest of a block as a free block of its own?  In the small
    pool when at least kMinBlockSize remains; in the large pool only when more than
    kSmallSize remains (max_split_size is unlimited by default).

    >>> should_split(SMALL, 2097152, 512), should_split(SMALL, 1024, 1024)
    (True, False)
    >>> should_split(LARGE, 20971520, 1049088), should_split(LARGE, 2097152, 1049088)
    (True, False)
    """
    remaining = block_size - size
    if pool == SMALL:
        return remaining >= K_MIN_BLOCK_SIZE
    return remaining > K_SMALL_SIZE


def next_segment_address(after: int) -> int:
    """The simulated address of a new segment: the first 2 MiB boundary at or after
    ``after`` (the end of the last segment).

    >>> hex(next_segment_address(0x7F00_0000_0000 + 512))
    '0x7f0000200000'
    """
    return -(-after // SEGMENT_ALIGNMENT) * SEGMENT_ALIGNMENT


def hex_ptr(ptr: int) -> str:
    """An address as C++ prints a pointer (``0x7f0000000000``); nullptr is ``0``."""
    return hex(ptr) if ptr else "0"


# -- blocks, pools, statistics ---------------------------------------------------------
@dataclass(eq=False)
class Block:
    """struct Block: a piece of one segment, allocated or cached (free)."""

    stream: int
    size: int
    ptr: int
    pool: str
    #: the segment's base address (the ptr of its first block)
    segment: int
    allocated: bool = False
    requested_size: int = 0
    #: the neighbours in the segment (not in the repr: a segment is a chain)
    prev: "Block | None" = field(default=None, repr=False)
    next: "Block | None" = field(default=None, repr=False)

    def is_split(self) -> bool:
        return self.prev is not None or self.next is not None

    def key(self) -> tuple[int, int, int]:
        """BlockComparatorSize: the pool's order, (stream, size, address)."""
        return (self.stream, self.size, self.ptr)


@dataclass
class BlockPool:
    """struct BlockPool: the free blocks of one pool, sorted by (stream, size, address)."""

    is_small: bool
    blocks: list[Block] = field(default_factory=list)

    def insert(self, block: Block) -> None:
        bisect.insort(self.blocks, block, key=Block.key)

    def erase(self, block: Block) -> None:
        i = bisect.bisect_left(self.blocks, block.key(), key=Block.key)
        assert self.blocks[i] is block
        del self.blocks[i]

    def lower_bound(self, stream: int, size: int) -> Block | None:
        """The first block not less than the search key Block(stream, size, nullptr)."""
        i = bisect.bisect_left(self.blocks, (stream, size, 0), key=Block.key)
        return self.blocks[i] if i < len(self.blocks) else None


@dataclass
class Stat:
    """struct Stat: current value, its peak, and the running totals up and down."""

    current: int = 0
    peak: int = 0
    allocated: int = 0
    freed: int = 0

    def increase(self, amount: int) -> None:
        self.current += amount
        self.peak = max(self.peak, self.current)
        self.allocated += amount

    def decrease(self, amount: int) -> None:
        self.current -= amount
        assert self.current >= 0, "Negative tracked stat in CUDA allocator"
        self.freed += amount


# -- the allocator -----------------------------------------------------------------------
TRY_MERGE_BLOCKS = step("try_merge_blocks", Layer.MEMORY, source=SOURCE)
CUDA_CACHING_ALLOCATOR_ALLOCATE = step("CUDACachingAllocator::allocate", Layer.MEMORY,
                                      source=SOURCE, note="cuda.allocate_zero",
                                      lecture=Lecture.ALLOCATION_PATH,
                                      counted=Counted.CUDA_BLOCK)
DEVICE_CACHING_ALLOCATOR_MALLOC = step("DeviceCachingAllocator::malloc", Layer.MEMORY,
                                       source=SOURCE)
ROUND_SIZE = step("round_size", Layer.MEMORY, source=SOURCE, counted=Counted.ROUNDED)
GET_POOL = step("get_pool", Layer.MEMORY, source=SOURCE)
GET_FREE_BLOCK = step("get_free_block", Layer.MEMORY, source=SOURCE)
ALLOC_BLOCK = step("alloc_block", Layer.MEMORY, source=SOURCE, lecture=Lecture.ALLOCATION_PATH)
CUDA_MALLOC = step("cudaMalloc", Layer.MEMORY, source=SOURCE, lecture=Lecture.ALLOCATION_PATH)
ALLOC_FOUND_BLOCK = step("alloc_found_block", Layer.MEMORY, source=SOURCE)
DEVICE_CACHING_ALLOCATOR_FREE = step("DeviceCachingAllocator::free", Layer.MEMORY, source=SOURCE,
                                     counted=Counted.CUDA_FREE)
FREE_BLOCK = step("free_block", Layer.MEMORY, source=SOURCE)
DEVICE_CACHING_ALLOCATOR_EMPTY_CACHE = step("DeviceCachingAllocator::emptyCache", Layer.MEMORY,
                                            source=SOURCE, note="cuda.emptyCache")
RELEASE_BLOCK = step("release_block", Layer.MEMORY, source=SOURCE)
CUDA_FREE = step("cudaFree", Layer.MEMORY, source=SOURCE)


class DeviceCachingAllocator:
    """One simulated device's caching allocator (device index ``device``)."""

    def __init__(self, device: int = 0, roundup_power2_divisions: int = 0) -> None:
        self.device = device
        #: PYTORCH_CUDA_ALLOC_CONF's roundup_power2_divisions as one number for every
        #: size (the per-size-interval list form is not modelled); 0: off, the default
        self.roundup_power2_divisions = roundup_power2_divisions
        self.pools = {SMALL: BlockPool(True), LARGE: BlockPool(False)}
        #: every allocated block (ska::flat_hash_set<Block*> active_blocks)
        self.active_blocks: list[Block] = []
        #: StatArray per name: "all", "small_pool", "large_pool"
        self.stats = {name: {kind: Stat() for kind in ("all", SMALL, LARGE)}
                      for name in STAT_ARRAYS}
        self.counters = {name: 0 for name in COUNTERS}
        #: the size of every simulated cudaMalloc, in order (num_device_alloc counts them)
        self.cuda_mallocs: list[int] = []
        self._next_segment = SIMULATED_DEVICE_HEAP

    # -- statistics ------------------------------------------------------------------
    def _increase(self, name: str, pool: str, amount: int) -> None:
        for kind in ("all", pool):
            self.stats[name][kind].increase(amount)

    def _decrease(self, name: str, pool: str, amount: int) -> None:
        for kind in ("all", pool):
            self.stats[name][kind].decrease(amount)

    def memory_stats(self) -> dict[str, int]:
        """torch.cuda.memory_stats(), for the statistics modelled: the flattened, sorted
        names (``allocated_bytes.all.current`` ...), the event counters, and max_split_size
        unlimited (-1, SIZE_MAX as memory_stats reports it).  Not modelled: the oversize_*
        counters (no max_split_size), num_oom_rejections, private pools."""
        out: dict[str, int] = {}
        for name, by_pool in self.stats.items():
            for kind, stat in by_pool.items():
                for metric in ("current", "peak", "allocated", "freed"):
                    out[f"{name}.{kind}.{metric}"] = getattr(stat, metric)
        out.update(self.counters)
        out["max_split_size"] = -1
        return dict(sorted(out.items()))

    def memory_allocated(self) -> int:
        """torch.cuda.memory_allocated(): bytes in blocks handed out (rounded sizes)."""
        return self.stats["allocated_bytes"]["all"].current

    def memory_reserved(self) -> int:
        """torch.cuda.memory_reserved(): bytes in segments cudaMalloc gave the cache."""
        return self.stats["reserved_bytes"]["all"].current

    # -- malloc ----------------------------------------------------------------------
    def allocate(self, nbytes: int, stream: int = 0) -> Block | None:
        """NativeCachingAllocator::allocate: a zero-byte request gets no block (its DataPtr
        is nullptr); any other goes to :meth:`malloc`."""
        if nbytes == 0:
            emit(CUDA_CACHING_ALLOCATOR_ALLOCATE, nbytes=0)
            return None
        return self.malloc(nbytes, stream)

    def malloc(self, orig_size: int, stream: int = 0) -> Block:
        """DeviceCachingAllocator::malloc: a block of at least ``orig_size`` bytes."""
        with span(DEVICE_CACHING_ALLOCATOR_MALLOC,
                  note=lambda: Note("cuda.malloc", nbytes=orig_size, stream=stream),
                  device=self.device, nbytes=orig_size, stream=stream) as s:
            divisions = self.roundup_power2_divisions
            size = round_size(orig_size, divisions)
            plain = size == round_size(orig_size)
            emit(ROUND_SIZE,
                 note=lambda: Note("cuda.round_size", nbytes=orig_size, rounded=size)
                 if plain else Note("cuda.round_size.power2", nbytes=orig_size, rounded=size,
                                    divisions=divisions),
                 nbytes=orig_size, result=size)
            pool = pool_of(size)
            emit(GET_POOL,
                 note=lambda: Note("cuda.get_pool.small" if pool == SMALL
                                   else "cuda.get_pool.large", size=size),
                 size=size, result=pool)
            alloc_size = get_allocation_size(size)
            block = self._get_free_block(pool, stream, size)
            if block is None:
                block = self._alloc_block(pool, stream, size, alloc_size)
            block = self._alloc_found_block(block, size, orig_size)
            s.set(size=block.size)
            s.set_result(hex_ptr(block.ptr))
        return block

    def _get_free_block(self, pool: str, stream: int, size: int) -> Block | None:
        """get_free_block: the best fit, i.e. the first cached block of the pool not less
        than (stream, size, nullptr); none when that block is another stream's."""
        with span(GET_FREE_BLOCK, pool=pool, stream=stream, size=size) as s:
            found = self.pools[pool].lower_bound(stream, size)
            if found is None or found.stream != stream:
                s.note(Note("cuda.get_free_block.none", stream=stream, pool=pool, size=size))
                s.set_result(False)
                return None
            self.pools[pool].erase(found)
            s.note(Note("cuda.get_free_block.found", stream=stream, size=size,
                        block_size=found.size, ptr=hex_ptr(found.ptr)))
            s.set_result(True)
        return found

    def _alloc_block(self, pool: str, stream: int, size: int, alloc_size: int) -> Block:
        """alloc_block: one cudaMalloc of ``alloc_size`` bytes (get_allocation_size of the
        rounded ``size``), a new segment that is one free block until it is split."""
        small, medium = pool == SMALL, size < K_MIN_LARGE_ALLOC
        with span(ALLOC_BLOCK,
                  note=lambda: Note("cuda.alloc_size.small" if small
                                    else "cuda.alloc_size.medium" if medium
                                    else "cuda.alloc_size.large", alloc_size=alloc_size),
                  alloc_size=alloc_size):
            ptr = next_segment_address(self._next_segment)
            self._next_segment = ptr + alloc_size
            emit(CUDA_MALLOC,
                 note=lambda: Note("cuda.cudaMalloc", nbytes=alloc_size, ptr=hex_ptr(ptr)),
                 nbytes=alloc_size, result=hex_ptr(ptr))
            self.cuda_mallocs.append(alloc_size)
            self.counters["num_device_alloc"] += 1
            self._increase("segment", pool, 1)
            self._increase("reserved_bytes", pool, alloc_size)
        return Block(stream, alloc_size, ptr, pool, segment=ptr)

    def _alloc_found_block(self, block: Block, size: int, orig_size: int) -> Block:
        """alloc_found_block: split the rest off when should_split says so, then mark the
        block allocated and count it."""
        pool = block.pool
        split = should_split(pool, block.size, size)
        remaining_size = block.size - size
        with span(ALLOC_FOUND_BLOCK, size=size, block_size=block.size) as s:
            already_split = block.is_split()
            if split:
                remaining = block
                block = Block(remaining.stream, size, remaining.ptr, pool,
                              segment=remaining.segment, prev=remaining.prev, next=remaining)
                if block.prev is not None:
                    block.prev.next = block
                remaining.prev = block
                remaining.ptr += size
                remaining.size -= size
                self.pools[pool].insert(remaining)
                if already_split:
                    self._decrease("inactive_split_bytes", pool, block.size)
                else:
                    self._increase("inactive_split_bytes", pool, remaining.size)
                    self._increase("inactive_split", pool, 1)
                s.note(Note("cuda.split", block_size=size + remaining.size, size=size,
                            ptr=hex_ptr(block.ptr), remaining=remaining.size,
                            rest=hex_ptr(remaining.ptr)))
            else:
                if already_split:
                    self._decrease("inactive_split_bytes", pool, block.size)
                    self._decrease("inactive_split", pool, 1)
                s.note(Note("cuda.no_split.small" if pool == SMALL else "cuda.no_split.large",
                            remaining=remaining_size, size=block.size))
            block.allocated = True
            block.requested_size = orig_size
            self.active_blocks.append(block)
            self._increase("allocation", pool, 1)
            self._increase("allocated_bytes", pool, block.size)
            self._increase("active", pool, 1)
            self._increase("active_bytes", pool, block.size)
            self._increase("requested_bytes", pool, orig_size)
            s.set_result(hex_ptr(block.ptr))
        return block

    # -- free --------------------------------------------------------------------------
    def free(self, block: Block) -> None:
        """DeviceCachingAllocator::free: the tensor died; its block returns to the cache
        (no event to wait for: the simulated device uses a block on its own stream only)."""
        assert block.allocated, "free of a block that is not allocated"
        with span(DEVICE_CACHING_ALLOCATOR_FREE,
                  note=lambda: Note("cuda.free", size=block.size, ptr=hex_ptr(block.ptr),
                                    stream=block.stream),
                  ptr=hex_ptr(block.ptr), size=block.size, stream=block.stream):
            block.allocated = False
            self._decrease("allocation", block.pool, 1)
            self._decrease("allocated_bytes", block.pool, block.size)
            self._free_block(block)

    def _free_block(self, block: Block) -> None:
        """free_block: merge with the free neighbours, back into the pool, count it."""
        pool = block.pool
        original_size, requested = block.size, block.requested_size
        with span(FREE_BLOCK) as s:
            change_blocks = change_bytes = 0
            for candidate in (block.prev, block.next):
                subsumed = self._try_merge_blocks(block, candidate)
                if subsumed:
                    change_blocks -= 1
                    change_bytes -= subsumed
            self.active_blocks.remove(block)
            self.pools[pool].insert(block)
            if block.is_split():
                change_blocks += 1
                change_bytes += block.size
            for name, change in (("inactive_split", change_blocks),
                                 ("inactive_split_bytes", change_bytes)):
                if change > 0:
                    self._increase(name, pool, change)
                elif change < 0:
                    self._decrease(name, pool, -change)
            self._decrease("active", pool, 1)
            self._decrease("active_bytes", pool, original_size)
            self._decrease("requested_bytes", pool, requested)
            s.note(Note("cuda.free_block", pool=pool, size=block.size,
                        ptr=hex_ptr(block.ptr)))

    def _try_merge_blocks(self, dst: Block, src: Block | None) -> int:
        """try_merge_blocks: absorb ``src`` (a neighbour in the same segment) into ``dst``
        when it is free; the bytes absorbed, or 0."""
        if src is None or src.allocated:
            return 0
        assert dst.is_split() and src.is_split()
        if dst.prev is src:          # [src dst]
            dst.ptr = src.ptr
            dst.prev = src.prev
            if dst.prev is not None:
                dst.prev.next = dst
        else:                        # [dst src]
            dst.next = src.next
            if dst.next is not None:
                dst.next.prev = dst
        subsumed = src.size
        dst.size += subsumed
        self.pools[dst.pool].erase(src)
        emit(TRY_MERGE_BLOCKS,
             note=lambda: Note("cuda.try_merge_blocks", subsumed=subsumed, size=dst.size,
                               ptr=hex_ptr(dst.ptr)),
             subsumed=subsumed)
        return subsumed

    # -- emptyCache ------------------------------------------------------------------------
    def empty_cache(self) -> None:
        """emptyCache -> release_cached_blocks: cudaFree every segment that is one whole
        free block (a segment with any block in use stays)."""
        with span(DEVICE_CACHING_ALLOCATOR_EMPTY_CACHE):
            for pool in (LARGE, SMALL):          # release_blocks(large), then (small)
                for block in list(self.pools[pool].blocks):
                    if not block.is_split():
                        self._release_block(block)

    def _release_block(self, block: Block) -> None:
        """release_block: cudaFree the segment and uncount it."""
        with span(RELEASE_BLOCK, size=block.size):
            emit(CUDA_FREE,
                 note=lambda: Note("cuda.cudaFree", nbytes=block.size, ptr=hex_ptr(block.ptr)),
                 ptr=hex_ptr(block.ptr))
            self.counters["num_device_free"] += 1
            self._decrease("segment", block.pool, 1)
            self._decrease("reserved_bytes", block.pool, block.size)
            self.pools[block.pool].erase(block)

    # -- reading the state -----------------------------------------------------------------
    def segments(self) -> list[list[Block]]:
        """Every segment's blocks in address order (what torch.cuda.memory_snapshot lists),
        segments sorted by address."""
        heads = [b for b in self.active_blocks if b.prev is None]
        heads += [b for p in self.pools.values() for b in p.blocks if b.prev is None]
        out: list[list[Block]] = []
        for head in sorted(heads, key=lambda b: b.ptr):
            chain: list[Block] = []
            b: Block | None = head
            while b is not None:
                chain.append(b)
                b = b.next
            out.append(chain)
        return out


def device_allocator(device: int = 0) -> DeviceCachingAllocator:
    """The run's allocator of simulated device ``device`` (made on first use).

    Only device 0 exists on the simulated machine, so one allocator per run suffices."""
    assert device == 0, "the simulated machine has one GPU, cuda:0"
    return current().local(DeviceCachingAllocator)
