"""The application layer's drawing side: a run's document shown as Options ask.

Every front end ends here (``cli.py``, the ``%%tidx`` magic in ``tidx.py``): the run
side (``engine.interpreter.application.run``) made the document; :func:`shown`
applies the filters every format honours, :func:`show` writes one of the text formats
on a stream, and :func:`view` is the notebook's HTML display object.
"""

from __future__ import annotations

from typing import IO, Any

from tracer import filters
from tracer import lecture as L
from tracer.document import Document
from tracer.options import Options


def explained(message: str, lang: str, context: dict[str, Any] | None = None) -> str:
    """``message`` (a refusal, PyTorch's error) and, under it, the line explaining it in
    plain words (``context``: where the trace says it happened,
    :func:`tracer.i18n.error_context`)."""
    from tracer.i18n import explain_error

    why = explain_error(message, lang, context)
    return f"{message}\n→ {why}" if why else message


def shown(doc: Document, options: Options) -> Document:
    """``doc`` through the filters ``options`` name (--layers, --depth, --ops,
    --no-values), in their one order (:func:`tracer.filters.apply`)."""
    return filters.apply(doc, keep_layers=options.layers, max_depth=options.depth,
                         ops_only=options.ops, values=options.values)


def show(doc: Document, options: Options, out: IO[str] | Any) -> Document:
    """Write the run ``doc`` on ``out`` as ``options.format`` asks; the filtered
    document shown.  ``out``: a text stream, or a rich Console to print the tree on (the
    command line's, which ends a closed pipe as SIGPIPE would).

    tree: the lecture view unless ``options.lecture`` is false; html: the notebook's
    view; json, mermaid, dot, markdown, gdb: :func:`tracer.render.export.content` (the
    dot source draws the lecture view's steps as the images do; JSON, mermaid,
    markdown and gdb are the whole trace)."""
    filtered = shown(doc, options)
    if options.format == "tree":
        from rich.console import Console

        from tracer.render import tree as render_tree
        from tracer.render.console import console as safe_console

        console = out if isinstance(out, Console) else safe_console(
            file=out, width=options.width, soft_wrap=False, force_jupyter=False)
        console.print(render_tree.render(L.fold(filtered) if options.lecture else filtered,
                                         notes=options.notes, full=doc, lang=options.lang,
                                         brief=options.lecture))
    elif options.format == "html":
        from tracer.render.notebook import lesson_html

        out.write(lesson_html(filtered, lang=options.lang, lecture=options.lecture))
    else:
        from tracer.render import export

        out.write(export.content(filtered, options.format, options.diagram,
                                 lang=options.lang, lecture=options.lecture).decode())
    return filtered


def view(doc: Document, options: Options) -> Any:
    """What a notebook displays for the run ``doc``: one object whose display hooks give
    the lecture view and storage pictures as HTML, and the tree as plain text."""
    from tracer.render.notebook import LessonView

    return LessonView(shown(doc, options), lang=options.lang,
                      lecture=options.lecture)
