"""The English labels of the interactive HTML stepper (``tidx export ... -o lesson.html``)
and its storage pictures: part of :data:`tracer.i18n.en.TEXT`, which merges this table
in.  Plain data, no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.stepper.prev": "Previous",
    "ui.stepper.lesson": "a lesson of {count} statements",
    "ui.stepper.next": "Next",
    "ui.stepper.step": "step",
    "ui.stepper.keys": "← → or a clicker: step · Home/End: first/last · a click on a step in the list jumps there",
    "ui.stepper.statement": "statement {number} of {total}",
    "ui.stepper.folded": "+{count} steps the lesson is not about, folded into this one; --full steps through each",
    "ui.stepper.storage_now": "The storage at this step",
    "ui.stepper.no_storage": "Nothing to draw yet: the statement has made, read or written no storage so far.",
    "ui.stepper.returns": "returns",
    "ui.stepper.outcome": "After the statement",
    "ui.stepper.diagram": "Sequence diagram",
    "ui.stepper.diagram_script": "The diagram is stored compressed; the page's script draws it here.",
    "ui.stepper.steps": "Every step",
    "ui.stepper.legend.earlier": "written by an earlier step",
}
