"""The storage picture as plain data: one storage, the user's tensors over it, and
what a statement (or one step) did to it.

That picture is the lesson of ``t[1:, ::2]`` (a view picks elements, nothing moves)
and of ``t[rows, cols] = 10`` (the kernel writes elements 1 and 7).  It is built from
the trace document alone: kernels record the elements they touch, every tensor summary
carries its storage, sizes, strides and offset, and each statement records the user's
tensors on the storages it touched (``names``), so the base ``t`` of a view ``y`` is
drawn and called ``t``.  Every drawing (terminal, HTML, SVG, GIF) reads the same dict,
so they all show the same facts; :func:`picture` documents its fields.
"""

from __future__ import annotations

import re
from typing import Any

from tracer import values as V
from tracer.document import Document, Event, Statement, walk
from tracer.lecture import fold_statements
from tracer.replay import MISSING, changes, offsets, values_of

MAX_CELLS = 64      # a larger storage is cut (its values are not recorded anyway)
MAX_VIEWS = 6
MAX_STORAGES = 3

#: The marks a picture may use, in the order a legend lists them: the symbol every
#: drawing shows for it and the i18n id of what it means.  ``legend`` lists those a
#: picture uses, so no drawing shows a mark it does not explain.
MARKS: dict[str, dict[str, str]] = {
    "written": {"symbol": "W", "text_id": "ui.picture.mark.written"},
    "read": {"symbol": "R", "text_id": "ui.picture.mark.read"},
    "selected": {"symbol": "i,j", "text_id": "ui.picture.mark.selected"},
    "repeated": {"symbol": "+n", "text_id": "ui.picture.mark.repeated"},
    "unrecorded": {"symbol": "·", "text_id": "ui.picture.mark.unrecorded"},
}


def touched(ev: Event, marks: dict[str, dict[int, str]]) -> None:
    """Add the elements step ``ev`` read or wrote to ``marks`` (storage -> offset ->
    "written"|"read"); written wins over read: the write is what the statement did."""
    for how, val in V.touches(ev.args):
        where = marks.setdefault(val["storage"], {})
        for off in val.get("offsets", []):
            where[off] = "written" if how == "written" else where.get(off, "read")


def itemsize(dtype: str) -> int:
    bits = re.search(r"\d+", dtype)
    return max(1, int(bits.group()) // 8) if bits else 1


def named(st: Statement) -> list[dict[str, Any]]:
    """The statement's tensors as they are after it, each called by the user's name:
    its bindings (a bound view: ``y``, not ``t$1``), the user's tensors on the storages
    it touched (``names``: the base ``t`` of ``y``), then its result."""
    out: list[dict[str, Any]] = []
    for name, b in st.bindings.items():
        if b is not None and V.is_tensor(b.summary):
            t = b.summary
            out.append(t if V.name(t) else V.with_name(t, name))
        elif b is not None and V.kind(b.summary) == "ndarray":
            # a numpy array: drawn over its storage as a view is (from_numpy's tensor
            # and the array on the same bytes)
            out += [v for v in [V.array_view(b.summary, name)] if v is not None]
        elif b is not None:  # a tuple of tensors, say: each keeps its label
            out += V.tensors(b.summary)
    facts = st.session
    for name, t in (facts.names if facts is not None else {}).items():
        if V.is_tensor(t):
            out.append(t if V.name(t) else V.with_name(t, name))
    if facts is not None and facts.result is not None:
        out += V.tensors(facts.result.summary)
    return out


def collect(st: Statement, prev: Statement | None = None) -> list[dict[str, Any]]:
    """The storages a statement touched, bound or returned, as :func:`picture` dicts.
    ``prev`` (the statement before it) gives the values its writes replaced when no
    step of ``st`` recorded them."""
    after = named(st)
    during: list[dict[str, Any]] = []
    marks: dict[str, dict[int, str]] = {}
    # the storages a kernel wrote, then those it read (as data, not as an index), the
    # latest read first: a[mask] reads the mask (nonzero) before a (the index kernel)
    wrote: dict[str, None] = {}
    read: dict[str, None] = {}
    for _, ev in walk(st.events):
        touched(ev, marks)
        for how, v in V.touches(ev.args, index=False):
            (wrote if how == "written" else read).pop(v["storage"], None)
            (wrote if how == "written" else read)[v["storage"]] = None
        for val in ev.args.values():
            during += V.tensors(val)
        during += V.tensors(ev.result)
    data = list(wrote) + [s for s in reversed(read) if s not in wrote]
    # what it bound or printed first, then what it read or wrote; the user's other
    # tensors (``names``) only join these storages (an index tensor's own storage is
    # not the lesson, and its values are in the steps that read it)
    result = st.session.result if st.session is not None else None
    made = [t["storage"] for b in list(st.bindings.values()) + [result]
            if b is not None for t in V.tensors(b.summary)] + [
        b.summary["storage"] for b in st.bindings.values()
        if b is not None and V.kind(b.summary) == "ndarray"]
    # the user's tensors' storages before temporaries' (a CUDA index's copy on the
    # device is written before the indexed tensor is read, and only three are drawn)
    user = {t["storage"] for t in after}
    # a temporary's storage only where the lecture shows the step that made or took it
    # (the scalar a comparison wraps, index_put_'s stride-0 restriding stay folded)
    shown, made_shown = lecture_labels(st)
    # (one element, a wrapped scalar, is its value, which that step's line shows)
    temps = {t["storage"] for t in during if t["label"] in made_shown and
             t["nbytes"] > itemsize(t["dtype"])}
    wanted = made + [s for s in data if s in user] + [s for s in data
                                                      if s not in user and s in temps]
    storages = list(dict.fromkeys(wanted))[:MAX_STORAGES]
    # every element the statement changed, those its kernels name and those a kernel
    # that names none filled (randn's normal_, add_): the replay finds both
    changed = changes(st, prev)
    for s, offs in changed.items():
        for off in offs:
            marks.setdefault(s, {})[off] = "written"
    return [only_views(picture(s, after, during, marks.get(s, {}), old={
        off: old for off, (old, _) in changed.get(s, {}).items() if old is not MISSING},
        hidden=hidden(st, s)), shown) for s in storages]


def lecture_labels(st: Statement) -> tuple[set[str], set[str]]:
    """The tensors the lecture view's steps of ``st`` take or return, and those they
    return, by label: every drawing of a statement shows the temporaries of those steps
    and no others (so the terminal, the images, the HTML and ``compare`` agree), and
    draws a temporary's storage only when a step it shows made it (the mask of ``t >
    0.5``, not the scalar ``0.5`` wrapped in a tensor by a folded step)."""
    (folded,) = fold_statements(Document("", (st,)))
    found: set[str] = set()
    made: set[str] = set()
    for _, ev in walk(folded.events):
        for val in ev.args.values():
            found.update(t["label"] for t in V.tensors(val))
        made.update(t["label"] for t in V.tensors(ev.result))
    return found | made, made


def hidden(st: Statement, storage: str) -> int:
    """How many of the user's tensors on ``storage`` statement ``st`` did not record
    (``names_more``: a storage 3,000 names share keeps 6 of them)."""
    return st.session.names_more.get(storage, 0) if st.session is not None else 0


def picture(storage: str, after: list[dict[str, Any]], during: list[dict[str, Any]],
            touched: dict[int, str], *, cells: dict[int, Any] | None = None,
            old: dict[int, Any] | None = None, focus: str | None = None,
            hidden: int = 0) -> dict[str, Any]:
    """One storage as plain data (JSON-able but for int dict keys):

    * ``storage``, ``dtype``, ``nbytes``, ``size`` (elements);
    * ``cells``: offset -> value, the newest recorded (``after`` first, then ``during``
      newest first), or ``cells`` when given (a step's state, see tracer.timeline);
      an offset missing from it was not recorded;
    * ``touched``: offset -> "written" | "read";
    * ``views``: the tensors over the storage (summaries), the base first, then the
      user's names, then temporaries in the order they were made; ``more_views``: how
      many more there are, those :data:`MAX_VIEWS` leaves out and ``hidden`` (the
      user's tensors on it the statement did not record);
    * ``base``: how the base is called (the view that covers the whole storage,
      contiguous from offset 0), or None;
    * ``grids``: per view (same order), its logical grid: ``{"name", "shape",
      "strides", "offset", "rows": [{"index", "cells": [{"offset", "value", "mark"}]}],
      "more"}`` (the last dim varies along a row; ``index`` is the row's leading
      indices; ``mark`` "written"/"read"/None), and ``selects``: ``[[index, offset],
      ...]``, which storage element each of its elements is;
    * ``changes``: ``[{"offset", "old", "new", "old_known", "new_known"}]`` for every
      written element (old: before the write, when the trace recorded it);
    * ``arithmetic``: one highlighted element's offset worked out (:func:`arithmetic`;
      ``focus``, a tensor's label, says which view to work it through when nothing was
      touched: a step's own result);
    * ``legend``: ``[{"key", "symbol", "text_id"}]``, every mark the picture uses.
    """
    mine = [t for t in after + during if t["storage"] == storage and t["device"] != "meta"]
    dtype = mine[0]["dtype"] if mine else "?"
    if any(itemsize(t["dtype"]) != itemsize(dtype) for t in mine):
        # one storage seen as elements of two sizes (a complex tensor and its
        # view_as_real, .real, .imag): offsets, recorded cells and the marks of writes
        # count different units, so only the views of the first one's dtype are drawn,
        # their cells from their own values, unmarked (never a cell mislabelled)
        after = [t for t in after if t["dtype"] == dtype or t["storage"] != storage]
        during = [t for t in during if t["dtype"] == dtype or t["storage"] != storage]
        mine = [t for t in mine if t["dtype"] == dtype]
        cells, touched, old = None, {}, {}
    nbytes = mine[0]["nbytes"] if mine else 0
    size = nbytes // itemsize(dtype) if nbytes else 0
    if cells is None:
        cells = _newest(storage, after, during)
    views, more = _views(storage, after, during, size)
    base = next((t for t in views if covers(t, size)), None)
    if base is not None and len(views) > 1:
        views.remove(base)
        views.insert(0, base)
    grids = [grid(t, cells, touched) for t in views]
    shown = min(size, MAX_CELLS)
    out = {"storage": storage, "dtype": dtype, "nbytes": nbytes, "size": size,
           "device": mine[0]["device"] if mine else "cpu",
           "cells": cells, "touched": touched, "views": views, "more_views": more + hidden,
           "base": V.shown(base) if base is not None and len(views) > 1 else None,
           "grids": grids,
           "changes": _changes(touched, cells, old or {}),
           "arithmetic": arithmetic(views, touched, cells, base, focus)}
    out["legend"] = _legend(out, shown)
    return out


def only_views(p: dict[str, Any], labels: set[str]) -> dict[str, Any]:
    """Picture ``p`` with only the views a reader sees: those labelled in ``labels``
    and the user's own (a lecture view leaves out the temporaries of the steps it folds,
    index_put_'s stride-0 restriding, say); its base, worked element and legend follow.

    >>> t = {"label": "t", "name": "t", "shape": [2], "strides": [1], "offset": 0,
    ...      "numel": 2, "storage": "s$0", "dtype": "i64"}
    >>> tmp = {**t, "label": "t$1", "name": None, "strides": [0]}
    >>> p = {"size": 2, "cells": {0: 1, 1: 2}, "touched": {}, "views": [t, tmp],
    ...      "grids": [grid(t, {0: 1, 1: 2}, {}), grid(tmp, {0: 1, 1: 2}, {})]}
    >>> [v["label"] for v in only_views(p, set())["views"]], only_views(p, set())["legend"]
    (['t'], [{'key': 'selected', 'symbol': 'i,j', 'text_id': 'ui.picture.mark.selected'}])
    """
    kept = [(t, g) for t, g in zip(p["views"], p["grids"])
            if t["label"] in labels or V.name(t)]
    if len(kept) == len(p["views"]):
        return p
    views = [t for t, _ in kept]
    base = next((t for t in views if covers(t, p["size"])), None)
    out = {**p, "views": views, "grids": [g for _, g in kept],
           "base": V.shown(base) if base is not None and len(views) > 1 else None,
           "arithmetic": arithmetic(views, p["touched"], p["cells"], base)}
    out["legend"] = _legend(out, min(p["size"], MAX_CELLS))
    return out


def _newest(storage: str, after: list[dict[str, Any]], during: list[dict[str, Any]]
            ) -> dict[int, Any]:
    """Values after the statement first, then the newest recorded ones: never a stale
    value (an older record of a view already seen sets no cell: skip it, big traces
    have many)."""
    cells: dict[int, Any] = {}
    seen: set[tuple] = set()
    for t in after + during[::-1]:
        if t["storage"] != storage or "values" not in t:
            continue
        view = (tuple(t["shape"]), tuple(t["strides"]), t["offset"])
        if view in seen:
            continue
        seen.add(view)
        for off, v in values_of(t):
            cells.setdefault(off, v)
    return cells


def _views(storage: str, after: list[dict[str, Any]], during: list[dict[str, Any]],
           size: int) -> tuple[list[dict[str, Any]], int]:
    """The tensors over ``storage``, each once as it is now, the user's names first."""
    # one record per tensor, its last: a tensor whose geometry changed in place (arange's
    # empty({0}) resized, resize_, squeeze_, as_strided_) is drawn as it is now
    latest: dict[str, dict[str, Any]] = {}
    for t in during + after:
        if t["storage"] == storage:
            name = V.name(latest[t["label"]]) if t["label"] in latest else None
            if name and not V.name(t):
                t = V.with_name(t, name)
            latest.pop(t["label"], None)
            latest[t["label"]] = t
    # a temporary with a named tensor's exact geometry is that tensor, as far as the
    # picture can tell: drawn once, under the user's name
    views: dict[tuple, dict[str, Any]] = {}
    for t in latest.values():
        key = (tuple(t["shape"]), tuple(t["strides"]), t["offset"])
        if key not in views or (V.name(t) and not V.name(views[key])):
            views[key] = t
    ordered = sorted(views.values(), key=V.order)
    base = [t for t in ordered if covers(t, size)][:1]
    keep = base + [t for t in ordered if t not in base][:MAX_VIEWS - len(base)]
    return sorted(keep, key=V.order), len(ordered) - len(keep)


def covers(t: dict[str, Any], size: int) -> bool:
    """Whether ``t`` is its storage's base: every element, contiguous, from offset 0."""
    if t["offset"] != 0 or t["numel"] != size or size == 0:
        return False
    expected = 1
    for n, s in zip(reversed(t["shape"]), reversed(t["strides"])):
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


def grid(t: dict[str, Any], cells: dict[int, Any], touched: dict[int, str]
         ) -> dict[str, Any]:
    """A view's own grid (see :func:`picture`), its values read from the storage's
    ``cells`` so the grid and the storage row always agree."""
    rows: list[dict[str, Any]] = []
    selects: list[list[Any]] = []
    count = 0
    for index, off in offsets(t):
        if count == MAX_CELLS:
            break
        count += 1
        selects.append([list(index), off])
        lead = list(index[:-1])
        if not rows or rows[-1]["index"] != lead or not index:
            rows.append({"index": lead, "cells": []})
        rows[-1]["cells"].append({"offset": off, "value": cells.get(off),
                                  "known": off in cells, "mark": touched.get(off)})
    return {"name": V.shown(t), "label": t["label"], "shape": list(t["shape"]),
            "strides": list(t["strides"]), "offset": t["offset"], "dtype": t["dtype"],
            "rows": rows, "selects": selects, "more": max(0, t["numel"] - count)}


def _changes(touched: dict[int, str], cells: dict[int, Any], old: dict[int, Any]
             ) -> list[dict[str, Any]]:
    return [{"offset": off, "old": old.get(off), "old_known": off in old,
             "new": cells.get(off), "new_known": off in cells}
            for off in sorted(touched) if touched[off] == "written"]


def arithmetic(views: list[dict[str, Any]], touched: dict[int, str],
               cells: dict[int, Any], base: dict[str, Any] | None = None,
               focus: str | None = None) -> dict[str, Any] | None:
    """One element's storage offset worked out: ``{"view", "index", "offset",
    "strides", "result", "value", "known"}`` where ``result == offset + sum(index[d] *
    strides[d])``.

    The element: a written (else read) one, the last of the first view that has one,
    the user's views first and the base last (the view the statement spells: ``y[0,
    1]``).  With nothing touched, the last element (it uses every stride) of a view
    other than the base, ``focus`` first, then a named one: what a view picks is the
    lesson.  None when that would only be a lone 0-d base (a scalar's ``offset 0``)."""
    views = [t for t in views if t["numel"]]
    is_base = lambda t: t is base and len(views) > 1  # noqa: E731
    for kind in ("written", "read"):
        wanted = {o for o, k in touched.items() if k == kind}
        for t in sorted(views, key=lambda t: (V.name(t) is None, is_base(t))) if wanted else ():
            # the view's last such element: it uses every stride (x[2, 3], not x[0, 0])
            found = None
            for count, (index, off) in enumerate(offsets(t)):
                if off in wanted:
                    found = list(index)
                if count >= MAX_CELLS * 4:
                    break
            if found is not None:
                return _worked(t, found, cells)
    order = sorted(views, key=lambda t: (t["label"] != focus, t is base,
                                         V.name(t) is None))
    if not order or (not order[0]["shape"] and order[0] is base):
        return None
    return _worked(order[0], [n - 1 for n in order[0]["shape"]], cells)


def _worked(t: dict[str, Any], index: list[int], cells: dict[int, Any]) -> dict[str, Any]:
    result = t["offset"] + sum(i * s for i, s in zip(index, t["strides"]))
    return {"view": V.shown(t), "index": index, "offset": t["offset"],
            "strides": list(t["strides"]), "result": result, "value": cells.get(result),
            "known": result in cells}


def arithmetic_terms(a: dict[str, Any]) -> str:
    """``3 + 0*3 + 1*2``: the sum every drawing shows (a 0-d view: its offset alone).

    >>> arithmetic_terms({"offset": 3, "index": [0, 1], "strides": [3, 2]})
    '3 + 0*3 + 1*2'
    """
    return " + ".join([str(a["offset"])] + [f"{i}*{s}" for i, s in
                                             zip(a["index"], a["strides"])])


def selected(g: dict[str, Any]) -> dict[int, list[str]]:
    """Offset -> the indices (``"0,1"``, ``"()"`` for a 0-d view) of a grid's elements
    that are that storage element, in the view's order: a stride of 0 makes several.

    >>> selected({"selects": [[[0, 0], 3], [[1, 0], 3], [[0, 1], 4]]})
    {3: ['0,0', '1,0'], 4: ['0,1']}
    """
    where: dict[int, list[str]] = {}
    for index, off in g["selects"]:
        where.setdefault(off, []).append(",".join(map(str, index)) if index else "()")
    return where


def selected_labels(g: dict[str, Any], more: str = "+") -> dict[int, str]:
    """:func:`selected` as every drawing writes it under a storage element: the first
    index, then ``+n`` when n more elements of the view are that element too.

    >>> selected_labels({"selects": [[[0, 0], 3], [[1, 0], 3], [[0, 1], 4]]}, " +")
    {3: '0,0 +1', 4: '0,1'}
    """
    return {off: ix[0] + (f"{more}{len(ix) - 1}" if len(ix) > 1 else "")
            for off, ix in selected(g).items()}


def index_text(index: list[int]) -> str:
    """The index as Python subscripts it: ``[0, 1]``, ``[2]``, ``[()]`` for a 0-d view."""
    return "[" + (", ".join(map(str, index)) if index else "()") + "]"


def _legend(p: dict[str, Any], shown: int) -> list[dict[str, str]]:
    used = set(p["touched"].values()) & {"written", "read"}
    if p["views"]:
        used.add("selected")
    if any(_repeats(g) for g in p["grids"]):
        used.add("repeated")
    if any(off not in p["cells"] for off in range(shown)) or any(
            not c["known"] for g in p["grids"] for r in g["rows"] for c in r["cells"]):
        used.add("unrecorded")
    return [{"key": k, **m} for k, m in MARKS.items() if k in used]


def _repeats(g: dict[str, Any]) -> bool:
    """Whether two elements of a view are the same storage element (a stride 0)."""
    offs = [off for _, off in g["selects"]]
    return len(set(offs)) < len(offs)
