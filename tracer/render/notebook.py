"""A trace that shows itself: an SVG/HTML view in Jupyter, the tree in rich consoles.

``TraceView(doc)`` wraps a trace document (what ``engine.interpreter.session.run`` returns or a
saved JSON file holds); :func:`tracer.record`'s trace answers the same display
hooks through it (tracer.render.display), so ``with record() as tr: ...`` and then
``tr`` in a cell draws.
``LessonView(doc)`` is what the ``%%tidx`` magic shows (the top-level ``tidx`` module):
the lecture view's steps and, under each statement, its storage picture.
"""

from __future__ import annotations

import io
from typing import Any

from tracer import lecture as L
from tracer.document import Document
from tracer.render import dot as render_dot
from tracer.render import export
from tracer.render import html as render_html
from tracer.render import storage as render_storage
from tracer.render import storage_html
from tracer.render import tree as render_tree


class TraceView:
    """Display hooks for a trace document: ``_repr_mimebundle_`` (the HTML view and the
    tree as text), ``_repr_html_``, ``__rich__``; :meth:`svg`, the diagram alone."""

    def __init__(self, doc: Document, diagram: str = "sequence") -> None:
        self.doc = doc
        self.diagram = diagram

    def svg(self) -> str | None:
        """The diagram as SVG text, or None when no Graphviz can render it here."""
        try:
            return export.render_image(render_dot.render(self.doc, self.diagram),
                                       "svg").decode()
        except export.ExportError:
            return None

    def _repr_html_(self) -> str:
        return render_html.fragment(self.doc, self.svg())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        # one bundle, the diagram drawn once: the HTML view holds the SVG, so an SVG
        # entry beside it would be a second copy in the notebook file (and a second
        # Graphviz run); IPython asks no other hook for a type the bundle has
        return {"text/html": self._repr_html_(), "text/plain": _plain(self.__rich__())}

    def __rich__(self) -> Any:
        return render_tree.render(self.doc)


def lesson_html(typed: Document, *, lang: str = "en", lecture: bool = True) -> str:
    """A notebook cell's view of a (filtered) document: each statement's steps — the
    lecture view's unless ``lecture`` is false — its outcome (PyTorch's error message
    included) and the storage picture of what it touched, as one ``.tidx`` block.  No
    diagram and no script: a notebook shows it as it is, and keeps it in the file."""
    shown = L.fold(typed) if lecture else typed
    # the pictures come from the recorded steps: a folded run keeps no arguments
    sts = typed.statements
    pictures = [storage_html.render_all(render_storage.collect(st, sts[i - 1] if i else None),
                                        lang=lang) for i, st in enumerate(sts)]
    return render_html.fragment(shown, None, lang=lang, css=storage_html.CSS,
                                after=pictures, brief=lecture)


def _plain(renderable: Any, width: int = 100) -> str:
    """What a renderable prints as plain text (a notebook's ``text/plain``).  The
    Console must not take itself for Jupyter's: it would publish its own copy of the
    output beside the one returned (issue 28: every cell shown twice)."""
    from tracer.render.console import console as safe_console

    console = safe_console(file=io.StringIO(), width=width, record=True,
                           force_jupyter=False, color_system=None)
    console.print(renderable)
    return console.export_text()


class LessonView:
    """What ``%%tidx`` displays: :func:`lesson_html` for Jupyter, the tree elsewhere."""

    def __init__(self, doc: Document, *, lang: str = "en", lecture: bool = True) -> None:
        self.doc = doc
        self.lang = lang
        self.lecture = lecture

    def _repr_html_(self) -> str:
        return lesson_html(self.doc, lang=self.lang, lecture=self.lecture)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        # the HTML for Jupyter, the tree as text for a terminal IPython: one output
        return {"text/html": self._repr_html_(), "text/plain": _plain(self.__rich__())}

    def __rich__(self) -> Any:
        doc = L.fold(self.doc) if self.lecture else self.doc
        return render_tree.render(doc, lang=self.lang, brief=self.lecture, full=self.doc)
