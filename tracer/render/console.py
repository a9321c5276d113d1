"""The terminal: a rich Console whose text shows user strings as data.

A lesson's printed text, its source and PyTorch's messages quoting it reach the
terminal through rich; an ESC in them would drive the terminal (colours, a new window
title, a cleared screen, a hyperlink), a carriage return would overwrite the line, and
a right-to-left override would show the line in another order than it holds.  Every
segment of text rich writes goes through :func:`tracer.render.visible.visible` at the
one place rich turns segments into output; rich's own control segments (cursor moves
of ``tidx step``) and its styling, which it writes around the text, pass as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment

from tracer.render.visible import visible


class SafeConsole(Console):
    """A rich Console that writes control and invisible characters of its text as their
    Python escapes (``\\x1b``), never as the characters."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            seg if seg.control or seg.text.isprintable() or seg.text == "\n"
            else Segment(visible(seg.text), seg.style, seg.control) for seg in buffer)


def console(**options: Any) -> SafeConsole:
    """A SafeConsole with ``options`` (width, file, stderr ...), highlighting off."""
    options.setdefault("highlight", False)
    return SafeConsole(**options)
