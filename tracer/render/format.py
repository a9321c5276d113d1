"""Short text for the values of a step: the vocabulary every renderer shares.

Values in a trace are typed (:mod:`tracer.values`); these functions switch on their
``kind`` and give the few words a learner reads beside a step's name:
``t$0: i64[3, 3] strides (3, 1) offset 0``, ``sizes=[3, 4]``, ``mean=0.0000``.  This is
the compact style of the step tree; :func:`tracer.values.text` is the REPL's.
"""

from __future__ import annotations

from typing import Any, Mapping

from tracer import i18n
from tracer import values as V
from tracer.document import Event, Statement

#: Keys of an event's args that renderers show after the step name, in this order
#: when present; the rest follow in recording order.
_FIRST = ("python", "dim", "dim_after", "index", "real_dim", "case", "keys", "route", "kernel")


def tensor(v: dict[str, Any], values: bool = True, geometry: bool = True, *,
           whole: bool = False) -> str:
    """``t$0: i64[3, 3] strides (3, 1) offset 0 = [[...]]``; without geometry ``t$0: i64[3]``.

    >>> v = V.tensor("t$0", "s$0", shape=[3], strides=[1], offset=0, dtype="i64",
    ...              device="cpu", numel=3, nbytes=24, values=[1, 2, 3])
    >>> tensor(v)
    't$0: i64[3] strides (1,) offset 0 = [1, 2, 3]'
    >>> tensor(V.with_name(v, "y"), geometry=False)
    'y: i64[3] = [1, 2, 3]'
    """
    text = f"{V.shown(v)}: {v['dtype']}{list(v['shape'])}"
    if geometry:
        strides = "(" + ", ".join(str(s) for s in v["strides"]) + (
            "," if len(v["strides"]) == 1 else "") + ")"
        text += f" strides {strides} offset {v['offset']}"
    if v["device"] == "meta":
        text += " (meta)"
    elif v["device"] == "cuda":
        text += " cuda:0 (simulated)"     # tidx's only CUDA device is simulated
    if v.get("uninitialised"):
        text += " (uninitialised)"
    if values and "values" in v:
        text += " = " + _values(v["values"], whole)
    return text


def on_device(p: dict[str, Any], lang: str = "en") -> str:
    """What a storage title adds for a storage on the simulated CUDA device (`` on cuda:0
    (simulated)``); nothing on the CPU.  ``p`` is a picture (tracer/picture.py)."""
    if p.get("device") != "cuda":
        return ""
    return " " + i18n.text("ui.cuda.storage_on_device", lang)


def number(v: Any) -> str:
    """Floats as torch prints them (4 decimals, scientific when far from 1).

    >>> number(1.5409960746765137), number(1e-07), number(3), number("nan")
    ('1.5410', '1.0000e-07', '3', 'nan')
    """
    if isinstance(v, float):
        if v != 0 and (abs(v) >= 1e8 or abs(v) < 1e-4):
            return f"{v:.4e}"
        return f"{v:.4f}"
    return str(v)


def _nested(vals: Any) -> str:
    if isinstance(vals, list):
        return "[" + ", ".join(_nested(v) for v in vals) + "]"
    return number(vals)


def values_text(vals: Any) -> str:
    """Recorded values (nested lists) as one line, cut to 60 characters."""
    return _values(vals)


def _values(vals: Any, whole: bool = False) -> str:
    """The recorded values, cut to 60 characters on a line of text; ``whole`` for a
    drawing that wraps them instead (the exported images)."""
    text = _nested(vals)
    return text if whole or len(text) <= 60 else text[:57] + "..."


def value(v: dict[str, Any] | None, geometry: bool = True, *, whole: bool = False) -> str:
    """Any typed value as a short string (sequences as ``[...]``, strings bare).

    >>> value(V.tensor_index("Integer", V.integer(1), "TensorIndex(1)"))
    'TensorIndex(1)'
    >>> value(V.sequence("tuple", [V.integer(1), V.string("undefined")]))
    '(1, undefined)'
    >>> value(V.elements("s$1", 2, [1, 7])), value(V.real(0.1)), value(V.real(2.0))
    ('s$1 elements [1, 7]', '0.1', '2.0')
    """
    if v is None:
        return "None"
    kind = v["kind"]
    if kind == "tensor":
        return tensor(v, geometry=geometry, whole=whole)
    if kind == "storage":
        return f"{V.storage_shown(v)} ({v['nbytes']} bytes, {v['device']})"
    if kind in ("int", "float"):
        # a Python number (an argument, item()'s result) as Python prints it: 2.5, 0.1,
        # 1e-07; a tensor's elements keep torch's 4 decimals (number())
        return V.text(v)
    if kind == "str":
        return v["value"] + ("..." if v.get("more") else "")
    if kind in ("tuple", "list"):
        items = ([value(x, geometry, whole=whole) for x in v["items"]] +
                 (["..."] if v.get("more") else []))
        if kind == "tuple":     # as Python prints it: (3, 1), (4,), ()
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "[" + ", ".join(items) + "]"
    if kind == "dict":
        items = [f"{k}: {value(x, geometry, whole=whole)}" for k, x in v["items"].items()]
        return "{" + ", ".join(items + (["..."] if v.get("more") else [])) + "}"
    if kind == "device":
        return v["type"] + ("" if v["index"] is None else f":{v['index']}") + (
            " (simulated)" if v.get("simulated") else "")
    if kind == "scalar":
        x = v["value"]      # a Python number, as Python prints it ("nan" kept as a string)
        if V.is_complex_text(x):
            return f"{x} (wrapped number)"
        return (repr(float(x)) if isinstance(x, (float, str)) else repr(x)) + \
            " (wrapped number)"
    if kind == "pypto_tensor":
        text = f"pypto {v['dtype']}{v['shape']}"
        if "view_shape" in v:
            text += f" view {v['view_shape']}"
        if v["declared_only"]:
            text += " (declared)"
        return text + (" = " + _values(v["values"], whole) if "values" in v else "")
    # none, bool, size, dtype, memory_format, tensor_index, elements, object: as Python
    # (or, for the engine's own objects, as their C++) shows them
    return V.text(v)


#: Longest element list :func:`brief` writes after a tensor (a slide's line holds it).
BRIEF_VALUES = 24


def brief(v: dict[str, Any] | None, geometry: bool = False) -> str:
    """A value as one line of the lecture view: tensors by name, dtype and shape (their
    strides and offset with ``geometry``), their elements only when they are few.

    >>> v = V.tensor("t$0", "s$0", shape=[2], strides=[1], offset=3, dtype="i64",
    ...              device="cpu", numel=2, nbytes=72, values=[4, 6])
    >>> brief(v), brief(v, geometry=True)
    ('t$0: i64[2] = [4, 6]', 't$0: i64[2] strides (1,) offset 3 = [4, 6]')
    >>> brief(V.sequence("list", [v, v]))
    '[t$0: i64[2] = [4, 6], t$0: i64[2] = [4, 6]]'
    """
    if v is None:
        return "None"
    kind = v["kind"]
    if kind == "tensor":
        text = tensor(v, values=False, geometry=geometry)
        if "values" in v:
            shown = _nested(v["values"])
            if len(shown) <= BRIEF_VALUES:
                text += " = " + shown
        return text
    if kind in ("tuple", "list"):
        items = [brief(x, geometry) for x in v["items"]] + (["..."] if v.get("more") else [])
        if kind == "tuple":
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "[" + ", ".join(items) + "]"
    return value(v, geometry)


def args(event: Event, skip: tuple[str, ...] = (), *,
         whole: bool = False) -> list[tuple[str, str]]:
    """The event's key values as (key, text) pairs, important ones first (``whole``:
    tensor values not cut, see :func:`_values`)."""
    items = event.args
    # Arguments name tensors briefly; a step's result shows the full geometry.
    return [(k, value(items[k], geometry=False, whole=whole)) for k in _ordered(items)
            if k not in skip]


def brief_args(event: Event, skip: tuple[str, ...] = (),
               first: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """:func:`args` as the lecture view writes them (:func:`brief`): ``first`` before the
    rest, no empty keyword dict (``torch.randn(3, 4)`` has ``kwargs={}``)."""
    items = event.args
    keys = [k for k in first if k in items] + [k for k in _ordered(items) if k not in first]
    return [(k, brief(items[k])) for k in keys
            if k not in skip and not (k == "kwargs" and not items[k].get("items"))]


def _ordered(items: Mapping[str, Any]) -> list[str]:
    """The keys of a step's args, the important ones (:data:`_FIRST`) first."""
    return [k for k in _FIRST if k in items] + [k for k in items if k not in _FIRST]


def outcome(st: Statement) -> list[str]:
    """What the statement printed, raised, returned or assigned, as Python shows it."""
    facts = st.session
    out = list(facts.printed) if facts is not None else []
    if st.error is not None:
        return out + [f"{st.error.type}: {st.error.message}"]
    if facts is not None and facts.result is not None:
        out += facts.result.repr.splitlines()
    for name, val in st.bindings.items():
        if val is not None:
            pad = " " * (len(name) + 3)
            out += f"{name} = {val.repr}".replace("\n", "\n" + pad).splitlines()
    return out


def value_lines(st: Statement, tensors: bool = False) -> list[str]:
    """The statement's values, one line each as Python's REPL prints them: its result
    (``(3, 1)``) and what it bound (``n = torch.Size([3, 3])``).  Without ``tensors``
    only values that are not tensors: diagrams draw tensors on their arrows, and these
    would otherwise appear nowhere.

    >>> from tracer.document import Binding
    >>> value_lines(Statement("n = t.shape", bindings={"n": Binding(V.size([3, 3]), "")}))
    ['n = torch.Size([3, 3])']
    """
    if st.error is not None:
        return []
    lines = []
    result = st.session.result if st.session is not None else None
    if result is not None and (tensors or not V.is_tensor(result.summary)):
        lines.append(V.text(result.summary))
    for name, val in st.bindings.items():
        if val is not None and (tensors or not V.is_tensor(val.summary)):
            lines.append(f"{name} = {V.text(val.summary)}")
    return lines
