"""Plain-language explanations of PyTorch's error messages, in the learner's own terms.

PyTorch's messages are torch's, not ours, so they are matched by pattern: each
language's ``ERRORS`` (:mod:`tracer.i18n.en_errors`, :mod:`tracer.i18n.zh_errors`) is a
list of ``(regex, template)`` or ``(regex, template, when)``.  A template is
``str.format``-ed with

* the match's groups, by position (``{0}``) and by name (``{index}``);
* fields derived from them, so that a template never does arithmetic: for a number
  group ``size``, ``size_neg`` (-size) and ``size_last`` (size - 1); for a list group
  ``shape`` (``[4, 2]``), ``shape_numel`` (their product, when no size is -1); for a
  list ``mask`` and a number ``mask_at``, ``mask_size`` (the size at that position, and
  ``mask_size_neg``, ``mask_size_last``); with a -1 in it, ``shape_known`` (the product
  of the other sizes);
  for a dtype name ``dst`` (``Long``), ``dst_torch`` (``torch.int64``);
* what the trace recorded about where it happened (:func:`context`): ``subject``
  (the tensor the failing call was made on, as the statement spells it: ``t``,
  ``t[0]``, ``t.t()``; "the tensor" when the statement does not say), ``indexed``
  (the whole subscript, ``t[rows, cols]``), ``call`` (``t.sum``, ``torch.cat``) and
  the raising step's values as ``arg_<name>``.

A template needing a field the context cannot give (a message explained without its
trace) is skipped, so the entry after it, a plainer one, explains it instead; ``when``
(``{"type": "IndexError"}``) limits an entry to errors whose context matches, since
torch words differently-behaving operators' errors the same way.

Pure: it reads the trace document (plain dicts) and never runs the statement — the
source is only parsed, with :mod:`ast`, to find how it names the tensor.
"""

from __future__ import annotations

import ast
import math
import re
from typing import TYPE_CHECKING, Any, Iterator

from tracer import values as V

if TYPE_CHECKING:
    from tracer.document import Error, Event, Statement

__all__ = ["context", "explain"]

#: torch's ScalarType names (as error messages print them) as the Python dtype.
DTYPES: dict[str, str] = {
    "Bool": "torch.bool", "Byte": "torch.uint8", "Char": "torch.int8",
    "Short": "torch.int16", "Int": "torch.int32", "Long": "torch.int64",
    "Half": "torch.float16", "BFloat16": "torch.bfloat16", "Float": "torch.float32",
    "Double": "torch.float64", "ComplexFloat": "torch.complex64",
    "ComplexDouble": "torch.complex128",
}

#: A subject longer than this reads worse than "the tensor".
_LONGEST_SUBJECT = 40


def _walk(events: "tuple[Event, ...]", path: "tuple[Event, ...]" = ()
          ) -> "Iterator[tuple[tuple[Event, ...], Event]]":
    for ev in events:
        yield path, ev
        yield from _walk(ev.children, path + (ev,))


def context(statement: "Statement | None" = None, *,
            event: "Event | None" = None,
            source: str | None = None, path: list[str] | None = None,
            err: "Error | None" = None) -> dict[str, Any]:
    """What the trace says about where an error happened, for :func:`explain`.

    From a ``statement`` of the document: its source, the step that raised (the one
    event carrying ``error``), the outermost Python-layer step above it (``call``:
    ``"Tensor.sum"``).  Without the statement, from what a caller has: the ``event``
    that raised, the statement's ``source``, and the ``path`` of step names above the
    event (the outermost first).  Every key is optional.
    """
    ctx: dict[str, Any] = {}
    if statement is not None:
        source = statement.source if source is None else source
        err = err or statement.error
        found = next(((p, ev) for p, ev in _walk(statement.events)
                      if ev.error is not None), None)
        if found is not None and event is None:
            event = found[1]
            path = [p.name for p in found[0]]
            ctx["layers"] = [str(p.layer) for p in found[0]] + [str(event.layer)]
    if event is not None:
        err = err or event.error
        ctx["step"] = event.name
        ctx["args"] = dict(event.args)
    names = list(path or []) + ([event.name] if event is not None else [])
    calls = [n for n in names if n.startswith(("Tensor.", "torch."))]
    if calls:
        ctx["call"] = calls[0]
    if source:
        ctx["source"] = source
    if err:
        ctx["type"] = err.type
    return ctx


def _number(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def _sizes(text: str) -> list[int] | None:
    inner = re.fullmatch(r"\[\s*(-?\d+(?:\s*,\s*-?\d+)*)?\s*\]", text)
    if inner is None:
        return None
    return [int(x) for x in re.findall(r"-?\d+", inner.group(1) or "")]


def _derived(groups: dict[str, str]) -> dict[str, Any]:
    """The fields a template may use besides the groups themselves (module docstring)."""
    out: dict[str, Any] = {}
    for key, val in groups.items():
        if val is None:
            continue
        n = _number(val)
        if n is not None:
            out[f"{key}_neg"], out[f"{key}_last"] = -n, n - 1
        sizes = _sizes(val)
        if sizes is not None:
            out[f"{key}_ndim"] = len(sizes)
            if all(s >= 0 for s in sizes):
                out[f"{key}_numel"] = math.prod(sizes)
            elif math.prod(s for s in sizes if s >= 0):  # view(-1, 2): what the other
                out[f"{key}_known"] = math.prod(s for s in sizes if s >= 0)  # sizes hold
            at = _number(groups.get(f"{key}_at") or "")
            if at is not None and 0 <= at < len(sizes):
                size = sizes[at]
                out[f"{key}_size"], out[f"{key}_size_neg"] = size, -size
                out[f"{key}_size_last"] = size - 1
        if val in DTYPES:
            out[f"{key}_torch"] = DTYPES[val]
    return out


def _segment(source: str, node: ast.AST) -> str | None:
    text = ast.get_source_segment(source, node)
    return text if text and len(text) <= _LONGEST_SUBJECT and "\n" not in text else None


def _token(number: str | None, text: str) -> bool:
    return number is not None and re.search(rf"(?<![\w.]){re.escape(number)}(?![\w.])",
                                            text) is not None


def _named(source: str, call: str, index: str | None) -> dict[str, str]:
    """``subject``, ``indexed`` and ``call`` as the statement spells them, when exactly
    one place in it can be the failing call."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    owner, _, method = call.rpartition(".")
    if owner == "torch":
        return {"call": call}
    if method in ("__getitem__", "__setitem__"):
        store = method == "__setitem__"
        subs = [n for n in ast.walk(tree) if isinstance(n, ast.Subscript)
                and isinstance(n.ctx, ast.Store) == store]
        # t[0][7]: the subscript whose index is the one the message names
        named = [n for n in subs if _token(index, _segment(source, n.slice) or "")]
        subs = named if len(named) == 1 else subs
        if len(subs) != 1:
            return {}
        found = {"subject": _segment(source, subs[0].value),
                 "indexed": _segment(source, subs[0])}
        return {k: v for k, v in found.items() if v}
    builtin = method.strip("_")   # bool(t), int(t): Tensor.__bool__, Tensor.__int__
    if method == f"__{builtin}__" and builtin in ("bool", "int", "float", "index"):
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
                 and isinstance(n.func, ast.Name) and n.func.id == builtin]
        subject = _segment(source, calls[0].args[0]) if len(calls) == 1 else None
        return {"subject": subject} if subject else {}
    funcs = [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and n.func.attr == method]
    if len(funcs) != 1 or not isinstance(funcs[0], ast.Attribute):
        return {}
    subject = _segment(source, funcs[0].value)
    return {"subject": subject, "call": f"{subject}.{method}"} if subject else {}


def _fields(groups: dict[str, str], ctx: dict[str, Any], subject: tuple[str, str]
            ) -> dict[str, Any]:
    fields: dict[str, Any] = {k: v for k, v in groups.items() if v is not None}
    fields.update(_derived(groups))
    for key, val in (ctx.get("args") or {}).items():
        fields[f"arg_{key}"] = V.text(val) if isinstance(val, dict) else str(val)
    if ctx.get("call"):
        fields["call"] = ctx["call"]
    if ctx.get("source") and ctx.get("call"):
        fields.update(_named(ctx["source"], ctx["call"], groups.get("index")))
    named, unnamed = subject
    if fields.get("subject"):
        fields["subject"] = fields["Subject"] = named.format(expr=fields["subject"])
    else:
        fields["subject"], fields["Subject"] = unnamed, unnamed[:1].upper() + unnamed[1:]
    return fields


def _applies(when: dict[str, str], ctx: dict[str, Any]) -> bool:
    return all(isinstance(ctx.get(k), str) and re.fullmatch(rx, ctx[k])
               for k, rx in when.items())


def explain(table: list[tuple], subject: tuple[str, str], message: str,
            ctx: dict[str, Any] | None) -> str | None:
    """The first entry of ``table`` that matches ``message`` and that ``ctx`` can fill.

    ``subject`` is the language's ``(SUBJECT, NO_SUBJECT)``: how it names a tensor the
    statement spells (``"{expr}"``) and one it does not (``"the tensor"``).
    """
    ctx = ctx or {}
    for entry in table:
        rx, template = entry[0], entry[1]
        when = entry[2] if len(entry) > 2 else {}
        match = re.search(rx, message)
        if match is None or not _applies(when, ctx):
            continue
        try:
            return template.format(*match.groups(),
                                   **_fields(match.groupdict(), ctx, subject))
        except (IndexError, KeyError, ValueError):
            continue  # this template needs more than we know: a plainer entry follows
    return None
