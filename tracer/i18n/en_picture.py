"""The English text of the storage picture and of ``tidx step``'s timeline: part of
:data:`tracer.i18n.en.TEXT`, which merges this table in.  Plain data, no logic; the
same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    "ui.picture.views": "tensors over it: {names}",
    "ui.picture.strides": "strides ({strides}) offset {offset}",
    "ui.picture.base": "base",
    "ui.picture.more_views": "... {count} more views of this storage",
    "ui.picture.changed": "changed",
    "ui.picture.change": "offset {offset}: {old} -> {new}",
    "ui.picture.unknown": "not recorded",
    "ui.picture.more_changes": "{count} more changed (marked W)",
    "ui.picture.fresh": "{count} written where no value was recorded before, at offsets {offsets}",
    "ui.picture.arithmetic": "offset {terms} = {result}",
    "ui.picture.holds": "holds {value}",
    "ui.picture.legend": "legend",
    "ui.picture.mark.written": "written: the element this changed",
    "ui.picture.mark.read": "read: an element this read",
    "ui.picture.mark.selected": "under a cell: the index of the view's element stored there",
    "ui.picture.mark.repeated": "n more of the view's elements are stored there too (a stride 0)",
    "ui.picture.mark.unrecorded": "a value the trace did not record",
    "ui.step.before": "before this step",
    "ui.step.after": "after this step",
    "ui.step.unchanged": "this step changed no element",
    "ui.step.lines": "lines {first}-{last} of {total} of this step: n/space shows more",
    "ui.step.lines_end": "lines {first}-{last} of {total} of this step",
    "ui.step.last": "this is the last step: p goes back, q quits",
    "ui.step.jump": "step number: ",
    "ui.step.no_such_step": "there is no step {number}: the steps are 1 to {total}",
    "ui.step.none_left": "(no step of this statement matches these filters)",
}
