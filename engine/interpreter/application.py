"""The application layer's run side: statements in, a trace document out, as Options ask.

tidx has two front ends, the command line (``cli.py``) and the notebook magic
(``tidx.py``); both are adapters over the same three steps:

1. their options become one :class:`tracer.options.Options` (checked there, once);
2. :func:`run` runs the statements and returns the trace document;
3. :func:`tracer.render.show.show` draws it (the drawing side, in the tracer).

The command line runs each command in a new :class:`Session`; the notebook keeps one
Session per kernel and passes it to every cell's :func:`run`, so a cell goes on where
the one before left off (its names, its generator, its memory), as Python cells do.

Input tidx refuses raises :class:`engine.core.errors.Refused`, before anything runs;
a PyTorch error is recorded in the document, where every front end shows it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tracer.document import Document
from tracer.options import Options

from engine.core import capability as C
from engine.core.errors import Refused
from engine.interpreter.session import Session

__all__ = ["Options", "Refused", "Verified", "new_session", "record", "run", "verify"]


def new_session(options: Options) -> Session:
    """A Session as ``options`` ask: its seed, memory budget, CPU capability, language."""
    return Session(seed=options.seed, max_bytes=options.max_bytes,
                   cpu_capability=options.cpu_capability, lang=options.lang)


def run(text: str, options: Options, session: Session | None = None) -> dict[str, Any]:
    """:func:`record`'s document as JSON (docs/trace-format.md)."""
    return record(text, options, session).to_json()


def record(text: str, options: Options, session: Session | None = None) -> Document:
    """Run ``text`` and return the typed document of its statements
    (:class:`tracer.document.Document`).

    Without ``session``: in a new one (what every command of the command line does).
    With it: continuing it, as the next cell of a notebook continues the kernel —
    ``options.seed`` reseeds its generator (``torch.manual_seed``) before the first
    statement, ``options.max_bytes`` is its memory budget from here on, and a CPU
    capability other than the one it replays is refused (torch chooses once per
    process; a new session may choose another).
    """
    try:
        # a lone surrogate (bytes that were not UTF-8, as a shell or a notebook passes
        # them on) would fail only when the trace is written out
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("the statements are not UTF-8 text") from None
    if session is None:
        return new_session(options).run_document(text)
    asked = options.cpu_capability
    chosen = session.context.cpu.name
    if asked is not None and C.ENV_VALUES[asked] != chosen:
        raise Refused(f"this session replays the {chosen} kernels (a process chooses its "
                      f"CPU capability once); start a new session to replay {asked}")
    if options.max_bytes is not None:
        session.context.max_bytes = options.max_bytes
    return session.run_document(text, seed=options.seed)


@dataclasses.dataclass(frozen=True)
class Verified:
    """``--verify``'s answer: the rows comparing tidx with real PyTorch (dicts, as the
    table draws them), what each checks, and which torch ran them."""

    rows: list[dict[str, Any]]
    checks: Any
    torch_version: str


def cannot_verify(doc: dict[str, Any]) -> str | None:
    """Why real PyTorch here cannot run what ``doc`` ran (a simulated CPU capability),
    or None."""
    from engine.interpreter import verify as V   # (subprocess: only --verify pays it)
    return V.cannot_run(doc)


def verify(text: str, doc: dict[str, Any]) -> Verified | None:
    """Run ``text`` in real PyTorch and compare with ``doc`` (tidx's run of it); None
    when PyTorch is not installed here."""
    from engine.interpreter import verify as V
    rows = V.verify(text, doc)
    if rows is None:
        return None
    return Verified([dataclasses.asdict(r) for r in rows], V.CHECKS, V.torch_version() or "?")
