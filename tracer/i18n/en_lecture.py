"""English text of the lecture view (:mod:`tracer.lecture`): its folded steps."""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.lecture.folded": "… {count} more steps: {names}",
    "ui.lecture.inside": "(+{count} steps)",
    "ui.lecture.raised": "raised {error}",
    "ui.lecture.hint": "{shown} of {total} steps shown; --full shows every step with its note",
    "ui.lecture.folded_one": "… 1 more step: {names}",
    "ui.lecture.inside_one": "(+1 step)",
    "ui.lecture.storage": "storage {storage}: {size} x {dtype} ({nbytes} bytes) holds {name} row by row",
    "ui.lecture.all_written": ", all {count} elements written by this statement",
    "ui.lecture.one_written": ", its one element written by this statement",
}
