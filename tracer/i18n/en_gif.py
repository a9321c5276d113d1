"""The English labels of the GIF animation (:mod:`tracer.render.gif`), merged into
:data:`tracer.i18n.en.TEXT`.  Plain data."""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.gif.step": "step {number} / {total}",
    "ui.gif.not_allocated": "(not allocated yet)",
    "ui.gif.changed": "changed in this step",
    "ui.gif.earlier": "changed earlier in this statement",
    "ui.gif.soon": "written by the steps inside this one",
    "ui.gif.read": "read in this step",
    "ui.gif.absent": "not allocated yet",
    "ui.gif.unknown": "· value not recorded",
}
