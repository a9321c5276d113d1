"""``tidx step``: the trace one step at a time, with the tensors of that step as pictures.

Pure functions from the trace document: :func:`steps` flattens the events in call
order (with the path of calls above each), :func:`render` draws step ``k``: where it
is, what it did, and the storage of every tensor it touched with the elements it
read or wrote marked.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from tracer import values as V
from tracer.render import format as F
from tracer.render import storage as RS
from tracer import i18n
from tracer.render.tree import LAYER_STYLE, label


def steps(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every event in call order: ``{"statement", "path": [names above], "event",
    "outcome", "earlier"}``.  The last step of a statement carries the statement's
    outcome (what Python prints after it); a statement that recorded no step
    (``t.stride()``) is one item whose ``event`` is None, so its value is shown too.
    ``earlier`` holds, for each storage the step names without a tensor on it, the
    tensor earlier steps showed on that storage (see :func:`_pictures`)."""
    out: list[dict[str, Any]] = []

    def visit(events: list[dict[str, Any]], path: list[str], source: str) -> None:
        for ev in events:
            out.append({"statement": source, "path": path, "event": ev, "outcome": [],
                        "earlier": {}})
            visit(ev.get("children", []), path + [ev["name"]], source)

    for st in doc["statements"]:
        first = len(out)
        visit(st["events"], [], st["source"])
        if len(out) == first:
            out.append({"statement": st["source"], "path": [], "event": None, "outcome": [],
                        "earlier": {}})
        # an error is already on the step that raised it (and the command ends with it)
        out[-1]["outcome"] = (list(st.get("printed") or []) if st.get("error")
                              else F.outcome(st))
    _remember(out)
    return out


def _key(t: dict[str, Any]) -> tuple[bool, int]:
    """Which tensor stands for a storage: the user's own tensor if one was seen, else
    the view covering most (the first of equals)."""
    return V.name(t) is not None, t["numel"]


def _remember(flat: list[dict[str, Any]]) -> None:
    """Fill every step's ``earlier`` in one pass over the steps, keeping for each
    storage the best tensor seen so far: linear in the steps, where looking back over
    all earlier steps at each step was quadratic (a 320-statement program took
    minutes)."""
    best: dict[str, dict[str, Any]] = {}
    for item in flat:
        ev = item["event"]
        if ev is None:
            continue
        tensors = _step_tensors(ev)
        item["earlier"] = {s: best[s] for s in _storages(ev, tensors)
                           if s in best and not any(t["storage"] == s for t in tensors)}
        for t in tensors:
            if t["storage"] not in best or _key(t) > _key(best[t["storage"]]):
                best[t["storage"]] = t


def _step_tensors(ev: dict[str, Any]) -> list[dict[str, Any]]:
    """The tensors among a step's arguments and result."""
    found = [t for val in (ev.get("args") or {}).values() for t in V.tensors(val)]
    return found + list(V.tensors(ev.get("result")))


def _storages(ev: dict[str, Any], tensors: list[dict[str, Any]],
              touched: dict[str, dict[int, str]] | None = None) -> list[str]:
    """The storages step ``ev`` draws: those of its tensors, then those it only names
    (a kernel's written elements), at most :data:`RS.MAX_STORAGES`."""
    if touched is None:
        touched = {}
        RS.touched(ev, touched)
    return list(dict.fromkeys([t["storage"] for t in tensors] +
                              list(touched)))[:RS.MAX_STORAGES]


def _pictures(ev: dict[str, Any], earlier: dict[str, dict[str, Any]], lang: str = "en"
              ) -> list[RenderableType]:
    """The storages this one step touched, drawn as render_storage draws a statement's.
    A storage the step only names (a kernel's written elements) is drawn from
    ``earlier``: the tensor earlier steps showed on it (the user's own tensor if one
    was seen, else the view covering most)."""
    tensors = _step_tensors(ev)
    touched: dict[str, dict[int, str]] = {}
    RS.touched(ev, touched)
    storages = _storages(ev, tensors, touched)
    tensors += [earlier[s] for s in storages if s in earlier]
    return [RS.StoragePicture(RS.picture(s, tensors, [], touched.get(s, {})), lang=lang)
            for s in storages]


def _context(item: dict[str, Any]) -> dict[str, Any] | None:
    """Where the step's error happened, for the line explaining it: the statement and
    the calls above the step name the learner's tensor."""
    ev = item["event"]
    if not ev.get("error"):
        return None
    return i18n.error_context(event=ev, source=item["statement"], path=item["path"])


def render(flat: list[dict[str, Any]], k: int, *, interactive: bool = False,
           lang: str = "en") -> RenderableType:
    """Step ``k`` (0-based) of ``flat``; ``lang`` (``"zh"``) adds the translations."""
    item = flat[k]
    ev = item["event"]
    shown, step = i18n.pair("ui.step.position", lang, number=k + 1, total=len(flat))
    head = Text(f"{shown}  ", style="bold")
    if shown != step:
        head.append(f"{step}  ", style="dim")
    head.append(f">>> {item['statement']}", style="bold")
    parts: list[RenderableType] = [head]
    if ev is None:
        parts.append(Text("  " + i18n.text("ui.step.none", lang), style="dim"))
    else:
        parts += [Text("  " + "  >  ".join(item["path"] + [ev["name"]]),
                       style=LAYER_STYLE.get(ev["layer"], "")),
                  label(ev, notes=True, links=False, lang=lang, context=_context(item))]
        parts += _pictures(ev, item["earlier"], lang)
    parts += [Text(line) for line in item["outcome"]]
    if interactive:
        parts.append(Text(i18n.text("ui.step.keys", lang), style="dim"))
    return Group(*parts)
