"""tidx's tracer: the event model, the recorder and the renderers.

It knows nothing of the engine: it records plain data and draws plain data.
Renderers are imported from their own modules (``tracer.render.tree`` ...) so
that recording never pays for rich or graphviz.
"""

# first: the methods of every dataclass of tidx compiled once, not at each start
from tracer import dataclass_code as _dataclass_code

_dataclass_code.install()

from tracer.events import LAYERS, Event, op_tree, source_url, walk
from tracer.notes import Note
from tracer.recorder import Trace, active, emit, paused, recording, span, summarize
from tracer.render.display import record

__all__ = ["LAYERS", "Event", "Note", "Trace", "active", "emit", "op_tree", "paused", "record",
           "recording", "source_url", "span", "summarize", "walk"]
