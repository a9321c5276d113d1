"""The English text of the exported images (the storage picture drawn with Graphviz,
the export command's messages): part of :data:`tracer.i18n.en.TEXT`, which merges this
table in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.export.wrote": "wrote {path} ({fmt})",
    "ui.export.wrote_pages": "wrote {path} ({fmt}, {count} pages)",
    "ui.export.wrote_files":
        "wrote {count} files, one per page: {first} ... {last} ({fmt})",
    "ui.export.progress.render": "rendering {fmt}",
    "ui.export.progress.run": "running the statements",
    "ui.export.progress.verify": "running in PyTorch",
}
