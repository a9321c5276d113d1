"""TORCH_WARN_ONCE (c10/util/Exception.h): a warning torch shows the first time its line
runs in a process and never again (a function-local static flag).  A tidx run is one
process, so the run remembers which it has shown: the first call's step carries the
UserWarning, a later one's step says torch shows nothing this time."""

from __future__ import annotations

from typing import Any

from tracer.recorder import span
from tracer.steps import StepSpec

from engine.core.context import current


class _Shown:
    """The TORCH_WARN_ONCE sites whose warning this run has shown."""

    def __init__(self) -> None:
        self.sites: set[str] = set()


def first_time(site: str) -> bool:
    """Whether the warning of ``site`` is shown now (its first time in this run)."""
    shown = current().local(_Shown).sites
    if site in shown:
        return False
    shown.add(site)
    return True


def warn_once(spec: StepSpec, site: str, note: Any = None, **fields: Any) -> Any:
    """The span of a TORCH_WARN_ONCE step: with its UserWarning (and ``note``, else the
    step's own) the first time ``site`` runs in this run, else with the note that torch
    shows nothing now."""
    if first_time(site):
        if note is not None:
            fields["note"] = note
        return span(spec, category="UserWarning", **fields)
    return span(spec, note="warn.once_again", **fields)
