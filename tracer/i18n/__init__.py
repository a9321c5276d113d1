"""Notes, headings and error explanations in each language (``--lang zh``), by id.

Each language is a module holding one table of ids (:mod:`tracer.i18n.en`,
:mod:`tracer.i18n.zh`): ``TEXT`` maps an id to a ``str.format`` template with named
fields.  The engine records a note as an id and parameters (:class:`tracer.notes.Note`);
the recorder stores the English text too (:func:`recorded`), so a JSON reader needs no
table, and a renderer shows the note in any language from its id (:func:`note`), never
by matching English text.  The renderers' own headings and labels are ids (``ui.*``) in
the same tables.

Pure: it knows nothing of the engine.

* :func:`text` — one id in a language, formatted with its parameters.
* :func:`note` — a recorded event's note in a language (:func:`origin`: where a
  default name comes from, recorded the same way).
* :func:`pair` — one id in a language and in English (to show both when they differ).
* :func:`both` — a short label with its English after it: ``"层 (layers)"``.
* :func:`layer` — a layer's title as a label (:func:`both`).
* :func:`explain_error` — a line explaining one of PyTorch's error messages in the
  learner's terms (:func:`error_context`: where the trace says it happened).  Those
  messages are torch's, not ours, so they are matched by pattern (each table's
  ``ERRORS``, filled by :mod:`tracer.i18n.explain`); the message is never translated.
* :func:`recorded` — what the recorder stores for a note: English text, id, parameters.

>>> text("select.geometry", "zh", dim=0, index=1, stride=3, moved=3)
'去掉第 0 维;偏移移动 1 x 步长 3 = 3 个元素'
>>> from tracer.document import Event
>>> note(Event.from_json({"name": "fill_", "layer": "kernel", "note": "fill with 0"}), "zh")
'fill with 0'
>>> both("ui.layers", "zh"), both("ui.layers", "en")
('层 (layers)', 'layers')
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, Mapping

from tracer.i18n import en as i18n_en
from tracer.i18n import explain as _explain
from tracer.notes import Note, is_id, plain

if TYPE_CHECKING:
    from tracer.document import Default, Event, Statement

__all__ = ["LANGS", "both", "error_context", "explain_error", "layer", "note", "origin", "pair",
           "recorded", "tables", "text"]

#: The languages ``--lang`` accepts; English is the language of the trace itself.
LANGS: tuple[str, ...] = ("en", "zh")



def _table(lang: str) -> ModuleType | None:
    """The table module of ``lang`` (None for a language tidx does not have).

    Imported on first use, not with this package: a run in English never reads the
    other tables, and importing them all cost every cold start (issue #25).  Python's
    module cache keeps each one, so there is no state here.
    """
    if lang == "en":
        return i18n_en
    if lang not in LANGS:
        return None
    return importlib.import_module(f"{__name__}.{lang}")

#: The title of each layer of ``tracer.events.LAYERS``, as a label id.
_LAYERS: dict[str, str] = {
    "python": "ui.layer.python",
    "binding": "ui.layer.binding",
    "indexing": "ui.layer.indexing",
    "dispatcher": "ui.layer.dispatcher",
    "kernel": "ui.layer.kernel",
    "memory": "ui.layer.memory",
    "rng": "ui.layer.rng",
}


def tables() -> dict[str, dict[str, str]]:
    """Every language's table of ids (for tests and tools): ``{"en": {...}, "zh": {...}}``."""
    return {lang: (_table(lang) or i18n_en).TEXT for lang in LANGS}  # every LANGS has one


def text(id: str, lang: str = "en", /, **args: Any) -> str:
    """The text of ``id`` in ``lang``, formatted with ``args``.

    An id missing from ``lang`` reads in English; an id missing everywhere reads as
    itself.  A template whose fields ``args`` do not fill raises ``KeyError`` (the
    tests run every call site, so that is a bug in tidx, not a user's mistake).
    """
    template = (_table(lang) or i18n_en).TEXT.get(id)
    if template is None:
        template = i18n_en.TEXT.get(id)
        if template is None:
            return id
    return template.format(**args)


def _recorded_text(english: str | None, found: str | None, args: Mapping[str, Any] | None,
                   lang: str) -> str | None:
    """A recorded sentence (``english``, as recorded) in ``lang``, by its id ``found``
    and ``args``; without an id (a trace saved before ids, or a sentence no table
    knows) the recorded English."""
    if found is None or lang == "en":
        return english
    try:
        return text(found, lang, **(args or {}))
    except (KeyError, IndexError, ValueError):  # a saved trace of another version
        return english


def note(event: "Event", lang: str) -> str | None:
    """The note of a recorded step in ``lang``."""
    return _recorded_text(event.note, event.note_id, event.note_args, lang)


def pair(id: str, lang: str, /, **args: Any) -> tuple[str, str]:
    """``(text in lang, text in English)``: what a renderer needs to show a heading in
    ``lang`` with its English beside it when the two differ."""
    return text(id, lang, **args), text(id, "en", **args)


def _label(shown: str, english: str) -> str:
    return shown if english in shown else f"{shown} ({english})"


def both(id: str, lang: str, /, **args: Any) -> str:
    """A short label in ``lang`` followed by its English: ``"层 (layers)"`` (the label
    alone when it already holds the English: ``"Python 层"``, or in English)."""
    return _label(*pair(id, lang, **args))


def origin(default: "Default", lang: str) -> str:
    """Where a default name comes from (a statement's ``defaults[name]``), as a label
    like :func:`both`.

    >>> from tracer.document import Default
    >>> origin(Default("torch.tensor(...)", "seed 001", "origin.seed", {"seed": "001"},
    ...                ""), "zh")
    'seed 001'
    """
    english = default.origin or ""
    shown = _recorded_text(english, default.origin_id, default.origin_args, lang)
    return _label(shown or english, english)


def layer(name: str, lang: str) -> str:
    """A layer's title as a label in ``lang``; an unknown layer shows its own name."""
    found = _LAYERS.get(name)
    return name if found is None else both(found, lang)


def explain_error(message: str, lang: str, context: dict[str, Any] | None = None
                  ) -> str | None:
    """A line explaining PyTorch's error ``message`` in ``lang``, or None.

    ``context`` (:func:`error_context`) is what the trace recorded about where it
    happened: the statement's source, the step that raised and its values.  With it
    the line names the learner's tensor (``t`` rather than "the tensor") and the values
    the message leaves out; without it the line is plainer.

    >>> explain_error("index 5 is out of bounds for dimension 0 with size 3", "en",
    ...               {"type": "IndexError", "source": "t[5]", "call": "Tensor.__getitem__"})
    't has size 3 in dimension 0, so an index there must be between -3 and 2; 5 is not.'
    >>> explain_error("too many indices for tensor of dimension 2", "zh")[:5]
    '索引过多:'
    >>> explain_error("a brand new error", "en") is None
    True
    """
    module = _table(lang) if isinstance(lang, str) else None
    if module is None or not isinstance(message, str):
        return None
    return _explain.explain(module.ERRORS, (module.SUBJECT, module.NO_SUBJECT), message,
                            context)


def error_context(statement: "Statement | None" = None, **known: Any
                  ) -> dict[str, Any]:
    """What :func:`explain_error` needs to know about where an error happened, from a
    statement of the trace document (or, without it, from ``event=``, ``source=``,
    ``path=`` and ``err=``; see :func:`tracer.i18n.explain.context`)."""
    return _explain.context(statement, **known)


def recorded(value: Any) -> tuple[str | None, str | None, dict[str, Any] | None]:
    """What the recorder stores for a step's note: ``(note, note_id, note_args)``.

    ``value`` is a :class:`Note`, an id, or None.  ``note_args`` are plain JSON values and
    ``note`` is the English formatted with them, so re-rendering a saved trace gives the
    same text.

    >>> recorded(Note("transpose.geometry", dim0=0, dim1=(1,)))[1:]
    ('transpose.geometry', {'dim0': 0, 'dim1': [1]})
    >>> recorded("scalar.scalar_fill")
    ('store the one value', 'scalar.scalar_fill', {})
    """
    if value is None:
        return None, None, None
    if isinstance(value, str):
        assert is_id(value), f"a note is an id of the language tables, not {value!r}"
        value = Note(value)
    args = plain(value.args)
    try:
        english = text(value.id, "en", **args)
    except (KeyError, IndexError, ValueError):  # a call site that misses a field: tests fail
        english = value.id
    return english, value.id, args
