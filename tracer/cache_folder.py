"""Where tidx keeps what it computes once and reads at every start (issue #25).

The operator declarations (engine.dispatch.operator_cache) and the code
:mod:`dataclasses` compiles for tidx's classes (tracer.dataclass_code) live in one
folder: ``$TIDX_CACHE_DIR`` when it is set (empty: keep nothing), else
``$XDG_CACHE_HOME/tidx`` or ``~/.cache/tidx``.  Each cache reads only files it wrote
for this very source and Python, and a missing or unwritable folder only costs time.
"""

from __future__ import annotations

import os


def folder() -> str | None:
    """The cache folder, or None when ``TIDX_CACHE_DIR`` is empty (no cache)."""
    chosen = os.environ.get("TIDX_CACHE_DIR")
    if chosen is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        chosen = os.path.join(base, "tidx")
    return chosen or None
