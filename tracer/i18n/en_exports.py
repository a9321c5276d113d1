"""The English text of the exported images (the storage picture drawn with Graphviz,
the export command's messages): part of :data:`tracer.i18n.en.TEXT`, which merges this
table in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "export.legend.written": "the statement wrote this element",
    "export.legend.read": "the statement read this element",
    "export.legend.view": "a view's row: the index of its element stored at that offset",
    "export.legend.more": "+{count}: {count} more of the view's indices address this element",
    "export.legend.unknown": "·: a value the trace did not record",
    "export.wrote": "wrote {path} ({fmt})",
    "export.wrote_pages": "wrote {path} ({fmt}, {count} pages: one per statement)",
    "export.wrote_files":
        "wrote {count} files, one per statement: {first} ... {last} ({fmt})",
    "export.progress.render": "rendering {fmt}",
    "export.progress.verify": "running in PyTorch",
}
