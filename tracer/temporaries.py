"""What a temporary is: the short description a drawing calls it by (issue #28).

A tensor nothing names had only its trace label, ``t$1``, in every drawing; a learner
cannot tell what ``t$1`` is.  Each one now carries ``what`` beside its label (the label
stays the stable key of the JSON document, docs/trace-format.md):

* the source text of the subexpression that made it, when the interpreter evaluated one
  (``t > 5``, ``t * 2``, ``torch.tensor([0, 2])``): the interpreter hands it over;
* else what made it, read from the data of the outermost step whose result it is (no
  step is known by its name): ``5 as a tensor`` (a Python number an operator wrapped,
  or the value of ``t[...] = 5``; ``[0, 2] as a tensor``, an index list), ``t[1]`` (a view ``t[1, 2]`` makes on the way),
  ``rows on cuda`` (a copy to another device), else the step by its name and its first
  tensor, ``nonzero(t > 5)``.

A storage only temporaries are on is called by the first of them where a value names it
(``written=s$2 of (t > 5) elements [...]``).  Descriptions are cut to :data:`MAX_WHAT` characters; two temporaries of one statement
described alike keep apart by a count (``reshape``, ``reshape #2``).  A pure function
of the recorded events: the tracer imports nothing of the engine.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from tracer import values as V

#: Characters of a description; a longer one ends in "...".
MAX_WHAT = 32


def short(text: str) -> str:
    """One line of at most :data:`MAX_WHAT` characters.

    >>> short("t > 5"), short("torch.where(t > 0, t, torch.zeros_like(t))")
    ('t > 5', 'torch.where(t > 0, t, torch.z...')
    """
    text = " ".join(text.split())
    return text if len(text) <= MAX_WHAT else text[:MAX_WHAT - 3] + "..."


def describe(events: Iterable[Any], given: dict[str, str], also: Any = None) -> None:
    """Set ``what`` on every tensor summary of ``events`` (a statement's recorded
    :class:`tracer.events.Event` objects) that no user's name calls: ``given`` maps a
    label to the interpreter's source text for it; the others are described by the
    outermost step that returned them.  ``also``: typed values outside the steps (the
    statement's result, names, bindings), called alike.  In place, one walk to
    describe, one to write.

    >>> from tracer.events import Event
    >>> def t(label): return {"kind": "tensor", "label": label, "shape": [],
    ...                       "device": "cpu", "storage": "s$" + label[-1]}
    >>> five = {"kind": "int", "value": 5}
    >>> wrap = Event("wrapped_scalar_tensor", "binding", args={"value": five},
    ...              result=t("t$0"))
    >>> gt = Event("Tensor.gt", "python", args={"self": {**t("t"), "name": "t"}},
    ...            result=t("t$1"), children=[wrap])
    >>> describe([gt], {"t$1": "t > 5"})
    >>> gt.result["what"], wrap.result["what"], "what" in gt.args["self"]
    ('t > 5', '5 as a tensor', False)
    """
    events = list(events)
    whats: dict[str, str] = {}
    taken: set[str] = set()

    def settle(label: str, what: str) -> None:
        what = short(what)
        # two temporaries described alike stay apart: the second is `reshape #2`
        n = 1
        while (f"{what} #{n}" if n > 1 else what) in taken:
            n += 1
        whats[label] = f"{what} #{n}" if n > 1 else what
        taken.add(whats[label])

    def call(t: dict[str, Any]) -> str:
        return t.get("name") or whats.get(t["label"]) or t["label"]

    hints: dict[str, str] = {}
    for event in _preorder(events):
        hints.update(_sliced(event, call))
        for t in V.tensors(event.result):
            if V.name(t) or t["label"] in whats:
                continue
            text = given.get(t["label"]) or hints.get(t["label"])
            settle(t["label"], text if text is not None else _made_by(event, call))
    for text in given.values():        # a result no step returned (an expression's)
        taken.add(short(text))
    for label, text in given.items():
        whats.setdefault(label, short(text))
    values = [also] + [v for event in _preorder(events) for v in (event.result, event.args)]
    # a storage only temporaries are on is called by the first of them: `s$2 of (t > 5)`
    named: set[str] = set()
    first: dict[str, str] = {}
    for t in _all_tensors(values):
        if t.get("name"):
            named.add(t["storage"])
        elif t["label"] in whats:
            first.setdefault(t["storage"], whats[t["label"]])
    storages = {s: what for s, what in first.items() if s not in named}
    stack: list[Any] = list(values)
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            kind = item.get("kind")
            if kind == "tensor":
                if not item.get("name") and item["label"] in whats:
                    item["what"] = whats[item["label"]]
            elif kind in ("elements", "storage"):
                where = item.get("storage") if kind == "elements" else item.get("label")
                if where in storages:
                    item["what"] = storages[where]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _all_tensors(values: list[Any]) -> Iterator[dict[str, Any]]:
    """Every tensor summary inside typed values and dicts or lists of them, in order."""
    stack = list(reversed(values))
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("kind") == "tensor":
                yield item
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))


def _preorder(events: list[Any]) -> Iterator[Any]:
    stack = list(reversed(events))
    while stack:
        event = stack.pop()
        yield event
        stack.extend(reversed(event.children))


def _made_by(event: Any, call: Any) -> str:
    """What a step that returned a new tensor made, read from its data (never keyed by
    its name, tests/tracer/test_step_specs.py): a number made a 0-dim tensor (``5 as a
    tensor``: valueToTensor, wrapped_scalar_tensor ...), a tensor moved to another device
    (``rows on cuda``), else the step by its name and first tensor (``nonzero(t > 5)``)."""
    value, python = event.args.get("value"), event.args.get("python")
    made = next(V.tensors(event.result), None)
    if V.kind(value) in ("int", "float", "bool", "scalar") and made is not None \
            and not made["shape"]:
        return f"{V.text(value)} as a tensor"
    if V.kind(python) in ("list", "tuple"):     # an index list becoming a TensorIndex
        return f"{V.text(python)} as a tensor"
    first = next((t for v in event.args.values() for t in V.tensors(v)), None)
    # (an operator's op is "aten::name"; an autograd node's is its own name)
    name = (event.op.partition("::")[2] or event.op) if event.op else event.name
    if first is not None and made is not None and first["device"] != made["device"]:
        return f"{call(first)} on {made['device']}"
    if first is None or "(" in name:      # a step named as code already says it
        return name
    return f"{name}({call(first)})"


def _sliced(event: Any, call: Any) -> dict[str, str]:
    """The views a step indexing ``self`` one TensorIndex at a time makes (applySlicing:
    each handleDimInMultiDimIndexing child applies one more ``index``), called as Python
    indexes them: ``t[1]``, then ``t[1, 2]``."""
    self = event.args.get("self")
    if not V.is_tensor(self):
        return {}
    parts: list[str] = []
    out: dict[str, str] = {}
    kept = 0            # dims of the result so far: PyTorch skips a whole `:` (no step)
    for child in event.children:
        index = child.args.get("index")
        if V.kind(index) != "tensor_index":
            continue
        dim = V.plain(child.args.get("dim"))
        if parts and parts[-1] == "..." and isinstance(dim, int):
            kept = dim      # the dims `...` stood for
        while isinstance(dim, int) and kept < dim:
            parts.append(":")
            kept += 1
        kept += index["type"] in ("Slice", "None", "Tensor")
        # a tensor index is only recorded here (applied later by index/index_put_):
        # the view keeps that dim whole
        parts.append(":" if V.kind(index) == "tensor_index" and index["type"] == "Tensor"
                     else _index_text(index, call))
        for t in V.tensors(child.result):
            out.setdefault(t["label"], f"{call(self)}[{', '.join(parts)}]")
    for t in V.tensors(event.result):
        if parts:
            out[t["label"]] = f"{call(self)}[{', '.join(parts)}]"
    return out


def _index_text(index: Any, call: Any) -> str:
    """One TensorIndex as Python spells it (``1``, ``1:``, ``::2``, ``None``, ``...``).

    >>> _index_text({"kind": "tensor_index", "type": "Slice",
    ...              "value": {"kind": "str", "value": "1:PY_SSIZE_T_MAX:2"}}, str)
    '1::2'
    """
    if V.kind(index) != "tensor_index":
        return V.text(index)
    value, type_ = index["value"], index["type"]
    if type_ == "Ellipsis":
        return "..."
    if type_ == "Slice" and V.kind(value) == "str":
        start, stop, step = (value["value"].split(":") + ["", "", ""])[:3]
        start = "" if start == "0" else start
        stop = "" if "MAX" in stop else stop
        return f"{start}:{stop}" + ("" if step in ("", "1") else f":{step}")
    if V.is_tensor(value):
        return call(value)
    return V.text(value)
