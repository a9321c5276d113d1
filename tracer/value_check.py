"""Whether a typed value read back from a file has the documented shape
(docs/trace-format.md, "Values"): tracer/document.py checks every value of a document
before anything draws it, so a hand-edited file is refused in one line that names the
field, never a traceback in a renderer."""

from __future__ import annotations

from typing import Any, Callable


def _elements_ok(values: Any, depth: int = 0) -> bool:
    """A tensor's ``values``: nested lists of numbers, booleans and nan/inf spelled out."""
    if isinstance(values, list):
        return depth < 64 and all(_elements_ok(v, depth + 1) for v in values)
    return (isinstance(values, (bool, int, float))
            or values in ("nan", "inf", "-inf") or _complex(values))


def _complex(value: Any) -> bool:
    """A complex element or value: its Python repr (``'(1+2j)'``, ``'-0j'``)."""
    if not isinstance(value, str) or not value.endswith(("j", "j)")):
        return False
    try:
        complex(value)
    except ValueError:
        return False
    return True


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return _elements_ok(value) and not isinstance(value, list)


def _opt(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or check(v)


_STR: Callable[[Any], bool] = lambda v: isinstance(v, str)  # noqa: E731
#: per kind, its required fields and what each holds (docs/trace-format.md, "Values");
#: containers and tensor_index's value are checked item by item in :func:`problem`
_FIELDS: dict[str, dict[str, Callable[[Any], bool]]] = {
    "none": {}, "bool": {"value": lambda v: isinstance(v, bool)},
    "int": {"value": _is_int}, "float": {"value": _number}, "str": {"value": _STR},
    "complex": {"value": _complex},
    "tuple": {"items": lambda v: isinstance(v, list)},
    "list": {"items": lambda v: isinstance(v, list)},
    "dict": {"items": lambda v: isinstance(v, dict)},
    "size": {"dims": _ints}, "dtype": {"name": _STR, "short": _STR},
    "device": {"type": _STR, "index": _opt(_is_int)}, "memory_format": {"name": _STR},
    "tensor": {"label": _STR, "storage": _STR, "shape": _ints, "strides": _ints,
               "offset": _is_int, "dtype": _STR, "device": _STR, "numel": _is_int,
               "nbytes": _is_int},
    "storage": {"label": _STR, "nbytes": _is_int, "device": _STR},
    "tensor_index": {"type": _STR, "value": lambda v: isinstance(v, dict), "cpp": _STR},
    "scalar": {"value": _number, "dtype": _STR},
    "elements": {"storage": _STR, "count": _is_int},
    "pypto_tensor": {"shape": _ints, "dtype": _STR, "declared_only": lambda v: isinstance(v, bool)},
    "object": {"type": _STR, "repr": _STR},
    "ndarray": {"storage": _STR, "shape": _ints, "strides": _ints, "offset": _is_int,
                "dtype": _STR, "itemsize": _is_int, "nbytes": _is_int, "repr": _STR},
}
#: fields some values of a kind have, and what they hold when present
_OPTIONAL: dict[str, Callable[[Any], bool]] = {
    "more": _is_int, "name": _STR, "fields": lambda v: isinstance(v, list) and all(
        isinstance(f, str) for f in v), "values": _elements_ok, "offsets": _ints,
    "uninitialised": lambda v: isinstance(v, bool), "view_shape": _ints,
    "conj": lambda v: isinstance(v, bool),
    "simulated": lambda v: isinstance(v, bool),
    # a TypedStorage's (tensor.storage()): the dtype its bytes are read as, and the count
    "dtype": _STR, "elements": _is_int,
}


def problem(value: Any, where: str, depth: int = 0) -> str | None:
    """What makes ``value`` no typed value of the documented shape (``where.shape: ...``),
    or None: a document read back from a file is drawn only once every value is one."""
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        return f"{where}: expected a typed value (an object with a \"kind\"), found " \
               f"{_brief(value)}"
    kind = value["kind"]
    fields = _FIELDS.get(kind)
    if fields is None:
        return f"{where}.kind: expected one of {', '.join(_FIELDS)}, found {_brief(kind)}"
    for key, ok in fields.items():
        if key not in value:
            return f"{where}: a {kind} value without {key!r}"
        if not ok(value[key]):
            return f"{where}.{key}: not what a {kind} value holds: {_brief(value[key])}"
    for key, ok in _OPTIONAL.items():
        if key in value and not ok(value[key]):
            return f"{where}.{key}: not what a {kind} value holds: {_brief(value[key])}"
    if kind == "storage" and "dtype" in value and "elements" not in value:
        return f"{where}: a TypedStorage's storage value without 'elements'"
    if depth > 64:
        return f"{where}: values nested more than 64 deep"
    inner: list[tuple[str, Any]] = []
    if kind in ("tuple", "list"):
        inner = [(f"{where}.items[{i}]", v) for i, v in enumerate(value["items"])]
    elif kind == "dict":
        inner = [(f"{where}.items.{k}", v) for k, v in value["items"].items()]
    elif kind == "tensor_index":
        inner = [(f"{where}.value", value["value"])]
    for at, item in inner:
        found = problem(item, at, depth + 1)
        if found is not None:
            return found
    return None


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
