"""Typed values: the one module that writes values into a trace and reads them back.

Every argument and result in a trace is a JSON object whose ``kind`` says what it is,
so a renderer switches on ``kind`` and never guesses a type from which keys a dict
has or from how a label is spelled.  This module has, per kind, a constructor (a small
function returning the JSON object), the converter :func:`typed` the recorder calls on
every value, the readers renderers use (:func:`plain`, :func:`tensors`, :func:`shown`
...) and :func:`text`, the value as Python's REPL prints it.

The kinds (``docs/trace-format.md`` has an example of each)::

    none bool int float str tuple list dict        Python's own values
    size dtype device memory_format                torch's small value types
    tensor storage tensor_index scalar elements    the engine's objects
    pypto_tensor                                   seed 003's tile-level tensor
    ndarray                                        a numpy array over a tidx storage
    object                                         anything else, as a bounded repr

Engine objects describe themselves with ``__tidx_summary__(self, max_values) -> dict``
(the tracer imports nothing from the engine).  The dict has a ``kind`` and, per kind,
these fields (serials are turned into trace-local labels here):

* ``tensor``: serial, storage_serial, shape, strides, offset, dtype (short: ``i64``),
  device, numel, nbytes; ``values`` (nested lists, nan/inf as strings) when small;
  ``uninitialised`` when its bytes were never written; ``conj`` when its conjugate bit
  is set (its values are then not its storage's).
* ``storage``: storage_serial, nbytes, device.
* ``tensor_index``: type (``Integer``, ``Slice``, ``Tensor``, ``None``, ``Ellipsis``,
  ``Boolean``), value (any value, converted in turn), cpp (its C++ spelling).
* ``scalar``: value (a Python number), dtype (short).
* ``elements``: storage_serial, count, offsets (sorted, only when few).
* ``dtype``: name (``int64``), short (``i64``).   ``device``: type, index.
* ``size``: dims.   ``memory_format``: name (``contiguous_format``).
* ``pypto_tensor``: shape, dtype, declared_only; view_shape and values when present.
* ``ndarray``: storage_serial, shape, strides and offset in bytes (numpy's), dtype
  (numpy's name: ``int64``), itemsize, nbytes (its storage's), repr (numpy's); values
  when small.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Callable, Iterator, Mapping

from tracer.element_text import elements_text

Value = dict[str, Any]

#: Items recorded of a tuple, list or dict; the rest are counted in ``more``.
MAX_ITEMS = 64
#: Items recorded of one value in all, however deep its containers nest: a list of 64
#: lists of 64 lists ... (``[[[1] * 64] * 64] * 64``) would otherwise be 64 ** depth.
MAX_NODES = 1024
#: Characters recorded of a string, and of an object's repr.
MAX_STR = 1000
MAX_REPR = 200

#: Short dtype names (as tensor summaries carry them) to torch's names.
DTYPES = {"b8": "bool", "u8": "uint8", "i8": "int8", "i16": "int16", "i32": "int32",
          "i64": "int64", "f16": "float16", "f32": "float32", "f64": "float64",
          "c64": "complex64", "c128": "complex128"}


# -- constructors: one per kind ---------------------------------------------------------
def none() -> Value:
    return {"kind": "none"}


def boolean(value: bool) -> Value:
    return {"kind": "bool", "value": bool(value)}


def integer(value: int) -> Value:
    return {"kind": "int", "value": int(value)}


def real(value: float) -> Value:
    """A float; JSON has no nan or infinity, so those are the strings torch prints.

    >>> real(0.25), real(float("-inf"))
    ({'kind': 'float', 'value': 0.25}, {'kind': 'float', 'value': '-inf'})
    """
    value = float(value)
    return {"kind": "float", "value": value if math.isfinite(value) else repr(value)}


def complex_number(value: complex) -> Value:
    """A Python complex, as its repr (JSON has no complex numbers; the repr keeps both
    doubles exactly and spells nan and inf as Python does).

    >>> complex_number(1 + 2j), text(complex_number(complex(0, -0.0)))
    ({'kind': 'complex', 'value': '(1+2j)'}, '-0j')
    """
    return {"kind": "complex", "value": repr(complex(value))}


def is_complex_text(value: Any) -> bool:
    """Whether ``value`` is a complex number's repr (a complex tensor element, a complex
    value): ``'(1+2j)'``, ``'-0j'``, ``'(nan+infj)'``.

    >>> is_complex_text("(1+2j)"), is_complex_text("2j"), is_complex_text("nan")
    (True, True, False)
    """
    if not isinstance(value, str) or not value.endswith(("j", "j)")):
        return False
    try:
        complex(value)
    except ValueError:
        return False
    return True


def string(value: str) -> Value:
    """A string, cut to :data:`MAX_STR` characters (``more`` counts the rest)."""
    out: Value = {"kind": "str", "value": value[:MAX_STR]}
    if len(value) > MAX_STR:
        out["more"] = len(value) - MAX_STR
    return out


def sequence(kind: str, items: list[Value], more: int = 0, *, name: str | None = None,
             fields: list[str] | None = None) -> Value:
    """A ``tuple`` or ``list`` of typed items; ``more`` items were not recorded.  A named
    tuple (``torch.return_types.max``) is a tuple with its type's ``name`` and ``fields``."""
    out: Value = {"kind": kind, "items": items}
    if more:
        out["more"] = more
    if name is not None:
        out["name"], out["fields"] = name, list(fields or [])
    return out


def mapping(items: dict[str, Value], more: int = 0) -> Value:
    """A ``dict`` of typed values by string key (a step's structured argument)."""
    out: Value = {"kind": "dict", "items": items}
    if more:
        out["more"] = more
    return out


def size(dims: list[int]) -> Value:
    return {"kind": "size", "dims": [int(d) for d in dims]}


def dtype(name: str, short: str) -> Value:
    return {"kind": "dtype", "name": f"torch.{name}", "short": short}


def device(type_: str, index: int | None = None, simulated: bool = False) -> Value:
    """A torch.device; ``simulated`` marks tidx's simulated CUDA device (no GPU ran)."""
    out: Value = {"kind": "device", "type": type_, "index": index}
    if simulated:
        out["simulated"] = True
    return out


def memory_format(name: str) -> Value:
    return {"kind": "memory_format", "name": f"torch.{name}"}


def tensor(label: str, storage: str, *, shape: list[int], strides: list[int], offset: int,
           dtype: str, device: str, numel: int, nbytes: int, name: str | None = None,
           values: Any = None, uninitialised: bool = False, conj: bool = False,
           requires_grad: bool = False, grad_fn: str | None = None,
           grad: Any = None) -> Value:
    """A tensor: ``label`` is trace-local (``t$3``); ``name`` is the user's name for it
    when known (then the label may be that name too).  ``values`` only when small;
    ``conj``: the conjugate bit is set, so its values are the conjugates of the stored
    elements (a storage picture does not draw them).  ``requires_grad``,
    ``grad_fn`` (its node's name) and ``grad`` (the values of its ``.grad``) only where
    autograd has a part."""
    out: Value = {"kind": "tensor", "label": label}
    if name is not None:
        out["name"] = name
    out.update(storage=storage, shape=list(shape), strides=list(strides), offset=offset,
               dtype=dtype, device=device, numel=numel, nbytes=nbytes)
    if requires_grad:
        out["requires_grad"] = True
    if grad_fn is not None:
        out["grad_fn"] = grad_fn
    if grad is not None:
        out["grad"] = grad
    if uninitialised:
        out["uninitialised"] = True
    elif values is not None:
        out["values"] = values
    if conj:
        out["conj"] = True
    return out


def storage(label: str, nbytes: int, device: str, dtype: str | None = None,
            elements: int | None = None) -> Value:
    """A storage; a TypedStorage (``tensor.storage()``) also has the dtype its bytes are
    read as and how many elements that makes."""
    out: Value = {"kind": "storage", "label": label, "nbytes": nbytes, "device": device}
    if dtype is not None:
        out.update(dtype=dtype, elements=elements)
    return out


def tensor_index(type_: str, value: Value, cpp: str) -> Value:
    return {"kind": "tensor_index", "type": type_, "value": value, "cpp": cpp}


def scalar(value: Any, dtype: str) -> Value:
    """A Python number inside an operator (a "wrapped number": a 0-dim tensor in torch)."""
    if isinstance(value, float) and not math.isfinite(value):
        value = repr(value)
    if isinstance(value, complex):      # its repr, as a complex tensor element
        value = repr(value)
    return {"kind": "scalar", "value": value, "dtype": dtype}


def elements(storage: str, count: int, offsets: list[int] | None = None) -> Value:
    """Storage elements a kernel read or wrote: their storage's label, how many, and
    their element offsets when few."""
    out: Value = {"kind": "elements", "storage": storage, "count": count}
    if offsets is not None:
        out["offsets"] = list(offsets)
    return out


def pypto_tensor(shape: list[int], dtype: str, declared_only: bool,
                 view_shape: list[int] | None = None, values: Any = None) -> Value:
    out: Value = {"kind": "pypto_tensor", "shape": list(shape), "dtype": dtype,
                  "declared_only": declared_only}
    if view_shape is not None:
        out["view_shape"] = list(view_shape)
    if values is not None:
        out["values"] = values
    return out


def ndarray(storage: str, *, shape: list[int], strides: list[int], offset: int, dtype: str,
            itemsize: int, nbytes: int, shown: str, values: Any = None) -> Value:
    """A numpy array: the storage its bytes are in (a tensor's, after from_numpy or
    numpy()), numpy's geometry in bytes, and its repr as numpy prints it."""
    out: Value = {"kind": "ndarray", "storage": storage, "shape": list(shape),
                  "strides": list(strides), "offset": offset, "dtype": dtype,
                  "itemsize": itemsize, "nbytes": nbytes, "repr": shown[:MAX_STR]}
    if len(shown) > MAX_STR:
        out["more"] = len(shown) - MAX_STR
    if values is not None:
        out["values"] = values
    return out


def array_view(a: Value, name: str) -> Value | None:
    """A numpy array as the storage picture draws the views of a storage: a tensor's
    geometry in elements (numpy's strides and offset are bytes), called by its name;
    None for a dtype torch has no short name for here."""
    short = {long: s for s, long in DTYPES.items()}.get(a["dtype"])
    item = a["itemsize"]
    if short is None or a["offset"] % item or any(s % item for s in a["strides"]):
        return None
    return tensor(name, a["storage"], name=name, shape=a["shape"],
                  strides=[s // item for s in a["strides"]], offset=a["offset"] // item,
                  dtype=short, device="cpu", numel=math.prod(a["shape"]), nbytes=a["nbytes"],
                  values=a.get("values"))


def obj(type_name: str, shown: str) -> Value:
    """Anything else: its type's name and its repr, cut to :data:`MAX_REPR` characters."""
    return {"kind": "object", "type": type_name,
            "repr": shown if len(shown) <= MAX_REPR else shown[:MAX_REPR - 3] + "..."}


# -- the converter the recorder calls -----------------------------------------------------
#: ``labels(kind, serial) -> (label, is_the_users_name)``: the recorder's trace-local
#: names, ``kind`` "t" for tensors and "s" for storages.
Labels = Callable[[str, int], tuple[str, bool]]


def typed(value: Any, labels: Labels, max_values: int = MAX_ITEMS,
          budget: list[int] | None = None) -> Value:
    """Any Python or engine value as a typed value (small and bounded).

    Python's values by their exact type first (the common case, one dict lookup), then
    an engine object's ``__tidx_summary__(max_values)``: a tensor records its elements
    only up to ``max_values``.  Containers keep :data:`MAX_ITEMS` items, and a value
    :data:`MAX_NODES` items in all (``budget``: how many are left, shared by the
    containers inside it).

    >>> def labels(kind, serial): return (f"{kind}${serial}", False)
    >>> typed((4, 1), labels)
    {'kind': 'tuple', 'items': [{'kind': 'int', 'value': 4}, {'kind': 'int', 'value': 1}]}
    >>> typed(list(range(70)), labels)["more"]
    6
    >>> deep = typed([[[1] * 64] * 64] * 64, labels)     # 64 ** 3 items: the first 1,024
    >>> deep["more"], deep["items"][0]["more"], len(deep["items"][0]["items"][0]["items"])
    (63, 48, 64)
    """
    if budget is None:
        budget = [MAX_NODES]
    convert = _BY_TYPE.get(type(value))
    if convert is not None:
        return convert(value, labels, max_values, budget)
    hook = getattr(type(value), "__tidx_summary__", None)
    if hook is not None:
        return _from_hook(hook(value, max_values), labels, max_values)
    if isinstance(value, bool):
        return boolean(value)
    if isinstance(value, numbers.Integral):   # numpy's integers too
        return integer(int(value))
    if isinstance(value, numbers.Real):
        return real(float(value))
    if isinstance(value, numbers.Complex):    # numpy's complex64/complex128 scalars
        return complex_number(complex(value))
    named = getattr(type(value), "__tidx_fields__", None)
    if named is not None:  # torch.return_types.X: a tuple with field names
        name, fields = named(value)
        return sequence("tuple", *_items(tuple(value), labels, max_values, budget), name=name,
                        fields=list(fields))
    for base in (str, tuple, list, dict):  # subclasses of the builtins
        if isinstance(value, base):
            return _BY_TYPE[base](value, labels, max_values, budget)
    return obj(type(value).__name__, repr(value))


def _items(values: Any, labels: Labels, max_values: int, budget: list[int]
           ) -> tuple[list[Value], int]:
    head = []
    for v in values[:MAX_ITEMS]:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        head.append(typed(v, labels, max_values, budget))
    return head, len(values) - len(head)


def _dict(value: dict, labels: Labels, max_values: int, budget: list[int]) -> Value:
    keys = list(value)[:MAX_ITEMS]
    items, _ = _items([value[k] for k in keys], labels, max_values, budget)
    return mapping({str(k): v for k, v in zip(keys, items)}, len(value) - len(items))


_BY_TYPE: dict[type, Callable[[Any, Labels, int, list[int]], Value]] = {
    type(None): lambda v, _l, _m, _b: none(),
    bool: lambda v, _l, _m, _b: boolean(v),
    int: lambda v, _l, _m, _b: integer(v),
    float: lambda v, _l, _m, _b: real(v),
    complex: lambda v, _l, _m, _b: complex_number(v),
    str: lambda v, _l, _m, _b: string(v),
    tuple: lambda v, lab, m, b: sequence("tuple", *_items(tuple(v), lab, m, b)),
    list: lambda v, lab, m, b: sequence("list", *_items(list(v), lab, m, b)),
    dict: _dict,
}


def _from_hook(data: dict[str, Any], labels: Labels, max_values: int) -> Value:
    """An engine object's ``__tidx_summary__`` dict (shapes in the module docstring)."""
    kind = data.get("kind")
    if kind == "tensor":
        label, is_name = labels("t", data["serial"])
        return tensor(label, labels("s", data["storage_serial"])[0],
                      name=label if is_name else None, shape=data["shape"],
                      strides=data["strides"], offset=data["offset"], dtype=data["dtype"],
                      device=data["device"], numel=data["numel"], nbytes=data["nbytes"],
                      values=data.get("values"), uninitialised=data.get("uninitialised", False),
                      conj=data.get("conj", False),
                      requires_grad=data.get("requires_grad", False),
                      grad_fn=data.get("grad_fn"), grad=data.get("grad"))
    if kind == "storage":
        return storage(labels("s", data["storage_serial"])[0], data["nbytes"], data["device"],
                       data.get("dtype"), data.get("elements"))
    if kind == "elements":
        return elements(labels("s", data["storage_serial"])[0], data["count"],
                        data.get("offsets"))
    if kind == "tensor_index":
        return tensor_index(data["type"], typed(data["value"], labels, max_values), data["cpp"])
    if kind == "scalar":
        return scalar(data["value"], data["dtype"])
    if kind == "dtype":
        return dtype(data["name"], data["short"])
    if kind == "device":
        return device(data["type"], data.get("index"), data.get("simulated", False))
    if kind == "size":
        return size(data["dims"])
    if kind == "memory_format":
        return memory_format(data["name"])
    if kind == "ndarray":
        return ndarray(labels("s", data["storage_serial"])[0], shape=data["shape"],
                       strides=data["strides"], offset=data["offset"], dtype=data["dtype"],
                       itemsize=data["itemsize"], nbytes=data["nbytes"], shown=data["repr"],
                       values=data.get("values"))
    if kind == "pypto_tensor":
        return pypto_tensor(data["shape"], data["dtype"], data["declared_only"],
                            data.get("view_shape"), data.get("values"))
    return obj(str(kind), repr(data))


# -- readers ----------------------------------------------------------------------------
def kind(value: Value | None) -> str | None:
    """The kind of a typed value; None for a missing one (a step with no result)."""
    return None if value is None else value["kind"]


def plain(value: Value | None) -> Any:
    """A typed value back as plain Python data: numbers, strings, None, tuples, lists
    and dicts of those; a size as a tuple, a dtype or device as its text, anything
    else as the typed value itself.

    >>> plain({"kind": "list", "items": [{"kind": "str", "value": "CPU"}]})
    ['CPU']
    >>> plain({"kind": "float", "value": "nan"})
    nan
    """
    if value is None or value["kind"] == "none":
        return None
    k = value["kind"]
    if k in ("bool", "int", "str"):
        return value["value"]
    if k == "float":
        return float(value["value"])
    if k == "complex":
        return complex(value["value"])
    if k == "tuple":
        return tuple(plain(v) for v in value["items"])
    if k == "list":
        return [plain(v) for v in value["items"]]
    if k == "dict":
        return {key: plain(v) for key, v in value["items"].items()}
    if k == "size":
        return tuple(value["dims"])
    if k in ("dtype", "device", "memory_format"):
        return text(value)
    return value


def children(value: Value | None) -> list[Value]:
    """The typed values directly inside a container (tuple, list, dict, tensor_index)."""
    if value is None:
        return []
    k = value["kind"]
    if k in ("tuple", "list"):
        return value["items"]
    if k == "dict":
        return list(value["items"].values())
    if k == "tensor_index":
        return [value["value"]]
    return []


def tensors(value: Value | None) -> Iterator[Value]:
    """Every tensor inside a typed value (itself, or inside containers), in order."""
    if value is not None and value["kind"] == "tensor":
        yield value
    for child in children(value):
        yield from tensors(child)


def touches(args: Mapping[str, Value] | None, index: bool = True
            ) -> Iterator[tuple[str, Value]]:
    """``("read" | "written", elements)`` for every ``elements`` value a step's
    arguments hold: its ``written`` ones, and those under any other key (``read``, and
    ``read_index``: the index elements an indexing kernel loads; left out with ``index=False``,
    as a picture does when it picks the storages to draw: an index's own storage is not
    the lesson), each an ``elements`` value or a list of them (``sort`` writes two).

    >>> e, f = elements("s$0", 1, [3]), elements("s$1", 2, [0, 1])
    >>> [(how, v["storage"]) for how, v in touches({"read": sequence("list", [e, f]),
    ...                                                   "written": e, "dim": integer(0)})]
    [('read', 's$0'), ('read', 's$1'), ('written', 's$0')]
    """
    for key, val in (args or {}).items():
        if key == "read_index" and not index:
            continue
        how = "written" if key == "written" else "read"
        if kind(val) == "elements":
            yield how, val
        elif kind(val) == "list" and val["items"] and all(
                kind(v) == "elements" for v in val["items"]):
            for v in val["items"]:
                yield how, v


def is_tensor(value: Value | None) -> bool:
    return kind(value) == "tensor"


def name(t: Value) -> str | None:
    """The user's name for a tensor (``t``, ``y``), or None if the trace only labels it."""
    return t.get("name")


def shown(t: Value) -> str:
    """How a tensor is called on screen: the user's name, else what the temporary is
    (tracer/temporaries.py: ``t > 5``), else its trace label.

    A description with a space outside brackets is parenthesised, as Python would
    (``(t > 5)[2, 2]``, ``index=(t > 5): b8[3, 3]``).

    >>> shown({"kind": "tensor", "label": "t$1", "name": "y"}), shown({"label": "t$2"})
    ('y', 't$2')

    >>> shown({"kind": "tensor", "label": "t$3", "what": "t > 5"})
    '(t > 5)'
    >>> shown({"label": "t$4", "what": "torch.tensor([0, 2])"})
    'torch.tensor([0, 2])'
    """
    what = t.get("what")
    if t.get("name") or not what:
        return t.get("name") or t["label"]
    return f"({what})" if _spaced(what) else what


def storage_shown(value: Value) -> str:
    """How an ``elements`` or ``storage`` value names its storage: its label, and the
    temporary on it when only a temporary is (tracer/temporaries.py).

    >>> storage_shown({"kind": "elements", "storage": "s$2", "what": "t > 5"})
    's$2 of (t > 5)'
    """
    label = value["storage"] if value["kind"] == "elements" else value["label"]
    what = value.get("what")
    return label if not what else f"{label} of " + (f"({what})" if _spaced(what) else what)


def _spaced(text: str) -> bool:
    """Whether ``text`` has a space outside brackets and quotes (``t > 5``, not
    ``torch.tensor([0, 2])``)."""
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == " " and depth <= 0:
            return True
    return False


def with_name(t: Value, user_name: str) -> Value:
    """A copy of a tensor summary called by the user's name (a bound view: ``y``)."""
    return {**t, "name": user_name}


def rename(value: Any, label: str | dict[str, str], user_name: str = "") -> None:
    """Call every tensor summary labelled ``label`` inside ``value`` (typed values, and
    lists/dicts of them: a statement's events) by ``user_name``, in place; ``label`` a
    dict of label -> user's name renames them all in one pass.  The Session does this
    when a statement binds its result (``y = t[1:]``: the trace made ``t$1``, the user
    calls it ``y``), so every view of that statement says ``y``.

    >>> ev = {"args": {"self": {"kind": "tensor", "label": "t$1"}}, "children": []}
    >>> rename([ev], "t$1", "y"); ev["args"]["self"]["name"]
    'y'
    """
    names = label if isinstance(label, dict) else {label: user_name}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("kind") == "tensor" and item.get("label") in names \
                    and not item.get("name"):
                item["name"] = names[item["label"]]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def label(kind_letter: str, n: int) -> str:
    """The trace-local label of the n-th tensor (``t``) or storage (``s``) of a trace.

    >>> label("t", 3)
    't$3'
    """
    return f"{kind_letter}${n}"


def order(t: Value) -> tuple[bool, int, str]:
    """Sort key: the user's names first, then labels in the order they were made.

    >>> ts = [{"label": "t$10"}, {"label": "t$1"}, {"label": "t", "name": "t"}]
    >>> [shown(t) for t in sorted(ts, key=order)]
    ['t', 't$1', 't$10']
    """
    if name(t) is not None:
        return (False, 0, shown(t))
    serial = t["label"].rpartition("$")[2]
    return (True, int(serial) if serial.isdigit() else 0, t["label"])


# -- text: as Python's REPL prints it ---------------------------------------------------
def text(value: Value | None) -> str:
    """A typed value as Python's REPL prints it (tensor elements as torch prints them).

    >>> text(typed((4, 1), lambda k, s: ("", False)))
    '(4, 1)'
    >>> text(size([3, 3])), text(dtype("int64", "i64")), text(device("cpu"))
    ('torch.Size([3, 3])', 'torch.int64', "device(type='cpu')")
    >>> text(none()), text(boolean(True)), text(sequence("list", [integer(1), integer(2)]))
    ('None', 'True', '[1, 2]')
    >>> text(tensor("t$0", "s$0", shape=[2], strides=[1], offset=0, dtype="f32",
    ...             device="cpu", numel=2, nbytes=8, values=[1.5, -0.25]))
    'tensor([ 1.5000, -0.2500])'
    """
    if value is None or value["kind"] == "none":
        return "None"
    k = value["kind"]
    if k in ("bool", "int"):
        return repr(value["value"])
    if k == "float":
        return repr(float(value["value"]))
    if k == "complex":
        return value["value"]
    if k == "str":
        return repr(value["value"]) + ("..." if value.get("more") else "")
    if k in ("tuple", "list"):
        parts = [text(v) for v in value["items"]] + (["..."] if value.get("more") else [])
        if k == "list":
            return "[" + ", ".join(parts) + "]"
        if value.get("name"):  # structseq.cpp: "name(\nfield=repr,\nfield=repr)"
            body = ",\n".join(f"{f}={p}" for f, p in zip(value["fields"], parts))
            return f"{value['name']}(\n{body})"
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if k == "dict":
        parts = [f"{key!r}: {text(v)}" for key, v in value["items"].items()]
        return "{" + ", ".join(parts + (["..."] if value.get("more") else [])) + "}"
    if k == "size":
        return "torch.Size([" + ", ".join(map(str, value["dims"])) + "])"
    if k in ("dtype", "memory_format"):
        return value["name"]
    if k == "device":
        index = "" if value["index"] is None else f", index={value['index']}"
        return f"device(type='{value['type']}'{index})"
    if k == "tensor":
        return _tensor_text(value)
    if k == "storage" and "dtype" in value:
        return f"[torch.storage.TypedStorage(dtype={value['dtype']}, device=" \
               f"{value['device']}) of size {value['elements']}]"
    if k == "storage":
        return f"[torch.storage.UntypedStorage(device={value['device']}) of size " \
               f"{value['nbytes']}]"
    if k == "tensor_index":
        return value["cpp"]
    if k == "scalar":
        return repr(value["value"]) if not isinstance(value["value"], str) else value["value"]

    if k == "elements":
        where = storage_shown(value)
        if "offsets" in value:
            return f"{where} elements {value['offsets']}"
        return f"{where}: {value['count']} elements"
    if k == "pypto_tensor":
        return f"pypto.tensor({value['shape']}, pypto.{value['dtype']})"
    return value["repr"]


def _tensor_text(t: Value) -> str:
    """``tensor([...])`` on one line, with torch's dtype and device suffixes; a tensor
    whose values were not recorded (large, meta, uninitialised) shows ``...``."""
    # torch names the dtype unless it is the default for its values; an empty tensor has
    # no values to tell, so only float32 goes unnamed
    default = t["dtype"] == "f32" or (t["numel"] > 0 and t["dtype"] in ("i64", "b8", "c64"))
    suffix = []
    if t["device"] != "cpu":
        suffix.append(f"device='{t['device']}'")
    if "values" not in t:
        body = "..."
        suffix.append("size=(" + ", ".join(map(str, t["shape"])) +
                      ("," if len(t["shape"]) == 1 else "") + ")")
    else:
        body = elements_text(t["values"], t["dtype"])
        if t["numel"] == 0 and len(t["shape"]) != 1:
            suffix.append("size=(" + ", ".join(map(str, t["shape"])) + ")")
    if not default:
        suffix.append(f"dtype=torch.{DTYPES.get(t['dtype'], t['dtype'])}")
    return "tensor(" + ", ".join([body] + suffix) + ")"
