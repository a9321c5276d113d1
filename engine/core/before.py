"""The values a statement's writes replaced, kept for its pictures.

A picture says ``offset 7: 7.0 -> -1.0``; the new value is in the trace (the next
summary after the kernel's write), the old one only if some step of the statement
recorded the tensor before the write.  ``t.masked_fill_(m, -1.0)`` has none: its
steps take ``m`` and give back ``t`` written.  So the first time a statement writes
into a small tensor that existed before it, the tensor as it was is kept (its summary,
the bytes it had) and the statement records it as ``before``
(engine/interpreter/session.py); tracer/replay.py starts the statement's cells from
it.  Per run (``RunContext.local``), bounded: only tensors of at most
:data:`MAX_VALUES` elements, the most a picture draws (tracer/picture.py MAX_CELLS),
once per tensor and statement.
"""

from __future__ import annotations

from typing import Any

#: A tensor of more elements is not kept: no picture shows its values.
MAX_VALUES = 64


class Summary:
    """A summary taken earlier, handed to the recorder as it was then."""

    __slots__ = ("summary",)

    def __init__(self, summary: dict[str, Any]) -> None:
        self.summary = summary

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        return self.summary


class WritesBefore:
    """The tensors a statement wrote into, as they were before its first write."""

    def __init__(self) -> None:
        self.watermark: int | None = None     # serials below it existed before
        self.kept: dict[int, dict[str, Any]] = {}

    def start(self, watermark: int) -> None:
        self.watermark, self.kept = watermark, {}

    def note(self, t) -> None:
        """``t`` is about to be written (TensorImpl.elements(write=True))."""
        st = t.storage
        if self.watermark is None or st.serial >= self.watermark or not st.initialised \
                or t.serial in self.kept or st.device != "cpu" or t.numel() > MAX_VALUES:
            return
        self.kept[t.serial] = t.__tidx_summary__(MAX_VALUES)

    def take(self) -> dict[int, Summary]:
        """Tensor serial -> its summary before the first write; the statement is over."""
        out = {serial: Summary(s) for serial, s in self.kept.items()}
        self.watermark, self.kept = None, {}
        return out
