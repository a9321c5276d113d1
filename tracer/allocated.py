"""The bytes a statement allocated: one record per statement and one per document.

``{"bytes": 48, "blocks": 1}`` sums the blocks memory was allocated in, as
``torch.profiler`` (``profile_memory=True``) counts them (which steps count, and for
what, their specs say: :class:`tracer.steps.Counted`): each
``DefaultCPUAllocator::allocate`` step of a new storage, each reallocation of a
storage that ``resize_`` grew (``resize_bytes_cpu`` asks the same allocator), and on the
simulated GPU each block the caching allocator hands out (its rounded size).  A block
of 0 bytes is not one: c10's memory reporter skips it, and it holds nothing.  Meta
tensors have no memory and count nothing.

The session writes the record (:func:`summary` over a statement's steps, :func:`total`
over the statements); renderers print it with :func:`line`, never re-counting steps.
Pure: plain data in, plain data out; it reads recorded events or their dicts.
"""

from __future__ import annotations

from typing import Any, Iterable

from tracer import i18n
from tracer import values as V
from tracer.document import Allocated
from tracer.steps import Counted

__all__ = ["summary", "total", "line", "amount"]


def _get(ev: Any, key: str) -> Any:
    """A field of an event, recorded (an :class:`~tracer.events.Event`) or read back."""
    return ev.get(key) if isinstance(ev, dict) else getattr(ev, key)


def _counted(ev: Any) -> str | None:
    """What a step counts for, from its spec (tracer.steps.Counted), never its name."""
    return ev.get("counted") if isinstance(ev, dict) else getattr(ev, "counted", None)


def _blocks(events: Iterable[Any], device: str = "cpu") -> Iterable[int]:
    """The sizes of the blocks allocated on ``device`` ("cpu" or "cuda")."""
    for ev in events:
        counted, args = _counted(ev), _get(ev, "args") or {}
        if counted == Counted.BLOCK and "nbytes" in args:
            if device == "cpu":
                yield int(V.plain(args["nbytes"]))
        elif (counted == Counted.REALLOC and V.plain(args.get("realloc")) is True
              and "nbytes" in args):
            if device == "cpu":
                yield int(V.plain(args["nbytes"]))
        elif counted == Counted.CUDA_BLOCK:
            # the simulated GPU: the block the caching allocator hands out, as its
            # reportMemoryUsageToProfiler(block->ptr, block->size) counts it (48 bytes
            # asked are a 512-byte block); its own steps are not counted again
            size = _rounded(_get(ev, "children") or [])
            if size is not None and device == "cuda":
                yield size
            continue
        yield from _blocks(_get(ev, "children") or [], device)


def _freed(events: Iterable[Any]) -> Iterable[int]:
    """The sizes of the simulated GPU's blocks given back to the cache (a tensor died)."""
    for ev in events:
        args = _get(ev, "args") or {}
        if _counted(ev) == Counted.CUDA_FREE and "size" in args:
            yield int(V.plain(args["size"]))
            continue
        yield from _freed(_get(ev, "children") or [])


def _touches_cuda(events: Iterable[Any]) -> bool:
    return any(_counted(ev) in (Counted.CUDA_BLOCK, Counted.CUDA_FREE)
               or _touches_cuda(_get(ev, "children") or []) for ev in events)


def _rounded(events: Iterable[Any]) -> int | None:
    """The size ``round_size`` gave inside a caching allocator's steps."""
    for ev in events:
        if _counted(ev) == Counted.ROUNDED and _get(ev, "result") is not None:
            return int(V.plain(_get(ev, "result")))
        found = _rounded(_get(ev, "children") or [])
        if found is not None:
            return found
    return None


def summary(events: Iterable[Any]) -> dict[str, Any]:
    """The bytes and blocks allocated on the CPU by these steps and the steps they ran;
    when they touch the simulated GPU, its blocks handed out and freed back to the cache
    under ``cuda``.

    >>> summary([{"name": "DefaultCPUAllocator::allocate", "counted": "block",
    ...           "children": [], "args": {"nbytes": V.integer(48)}}])
    {'bytes': 48, 'blocks': 1}
    """
    events = list(events)
    sizes = [n for n in _blocks(events) if n > 0]
    out: dict[str, Any] = {"bytes": sum(sizes), "blocks": len(sizes)}
    if _touches_cuda(events):
        cuda = [n for n in _blocks(events, "cuda") if n > 0]
        freed = list(_freed(events))
        out["cuda"] = {"bytes": sum(cuda), "blocks": len(cuda),
                       "freed_bytes": sum(freed), "freed_blocks": len(freed)}
    return out


def total(records: list[dict[str, Any]]) -> dict[str, Any]:
    """A document's record: the sum of its statements' records."""
    out: dict[str, Any] = {"bytes": sum(r["bytes"] for r in records),
                           "blocks": sum(r["blocks"] for r in records)}
    cuda = [r["cuda"] for r in records if "cuda" in r]
    if cuda:
        out["cuda"] = {key: sum(c[key] for c in cuda) for key in cuda[0]}
    return out


def line(record: Allocated, lang: str = "en") -> str:
    """``allocated: 48 bytes in 1 block`` in ``lang`` (plurals as the language has them).

    >>> line(Allocated(8, 1)), line(Allocated(0, 0))
    ('allocated: 8 bytes in 1 block', 'allocated: 0 bytes in 0 blocks')
    """
    return i18n.text("ui.allocated", lang, what=amount(record, lang))


def amount(record: Allocated, lang: str = "en") -> str:
    """``48 bytes in 1 block``: the record without its heading (a table cell); with the
    simulated GPU, the CPU's and cuda:0's apart, and what went back to the cache.

    >>> amount(Allocated(1, 2))
    '1 byte in 2 blocks'
    >>> amount(Allocated(48, 1, {"bytes": 512, "blocks": 1, "freed_bytes": 512,
    ...                          "freed_blocks": 1}))
    '48 bytes in 1 block on the CPU; 512 bytes in 1 block on cuda:0 (simulated); 512 bytes in 1 block freed back to the cache'
    >>> amount(Allocated(0, 0, {"bytes": 512, "blocks": 1, "freed_bytes": 0,
    ...                         "freed_blocks": 0}))
    '512 bytes in 1 block on cuda:0 (simulated)'
    """
    cpu = _amount(record.bytes, record.blocks, lang)
    cuda = record.cuda
    if cuda is None:
        return cpu
    on_cuda = i18n.text("ui.allocated.on_cuda", lang,
                        what=_amount(cuda["bytes"], cuda["blocks"], lang))
    # nothing from the CPU's allocator: the GPU's part alone (its separator dropped)
    parts = [i18n.text("ui.allocated.on_cpu", lang, what=cpu) if record.blocks else "",
             on_cuda if record.blocks else on_cuda.lstrip("；; ")]
    if cuda["freed_blocks"]:
        parts.append(i18n.text("ui.allocated.freed", lang,
                               what=_amount(cuda["freed_bytes"], cuda["freed_blocks"], lang)))
    return "".join(parts)     # each later part begins with its separator


def _amount(n: int, k: int, lang: str) -> str:
    size = (i18n.text("ui.allocated.byte", lang) if n == 1
            else i18n.text("ui.allocated.bytes", lang, n=n))
    count = (i18n.text("ui.allocated.block", lang) if k == 1
             else i18n.text("ui.allocated.blocks", lang, n=k))
    return i18n.text("ui.allocated.amount", lang, amount=size, count=count)
