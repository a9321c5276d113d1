"""A recorded trace that draws itself: what ``tracer.record()`` yields.

``with tracer.record() as tr: ...`` and then ``tr`` as a notebook cell's last line shows
the trace once: one output holding the HTML view (the diagram inside it, drawn once)
and the plain text; ``rich.print(tr)`` prints the tree.  The display hooks live here,
among the renderers, not on :class:`tracer.recorder.Trace`, which only records.

This module stays light (the tracer's package imports it for ``record``): the
renderers are imported when a trace is shown, never when one is recorded.
"""

from __future__ import annotations

import contextlib
from typing import Any

from tracer.recorder import Trace, recording


class DrawnTrace(Trace):
    """A :class:`Trace` with display hooks (:class:`tracer.render.notebook.TraceView`'s)."""

    def view(self) -> Any:
        """The trace so far as a :class:`~tracer.render.notebook.TraceView`."""
        from tracer.render.notebook import TraceView
        return TraceView(self.document())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return self.view()._repr_mimebundle_(include, exclude)

    def __rich__(self) -> Any:
        return self.view().__rich__()


def record() -> "contextlib.AbstractContextManager[DrawnTrace]":
    """Collect every step run inside the block: ``with record() as tr: ...``."""
    return recording(DrawnTrace())  # type: ignore[return-value]
