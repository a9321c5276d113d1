"""torch.return_types: the named tuples an operator with named returns gives Python.

``values, indices = t.max(0)`` — an aten operator whose schema names its returns
(``max.dim(...) -> (Tensor values, Tensor indices)``) comes back to Python as a
PyStructSequence, ``torch.return_types.max``: a tuple whose items are also reachable by
field name, printed one field a line.  torchgen generates one type per operator
(tools/autograd/gen_python_functions.py, ``structseq_fieldnames``; the ``_out`` twin for
the out= overloads), built by torch/csrc/utils/structseq.cpp, whose ``returned_structseq_repr``
is the repr below.  Here one small class per name is made on first use and kept in the
module's type cache (types are immutable; a run's state is not kept here).
"""

from __future__ import annotations

from functools import cache
from typing import Any


class StructSeq(tuple):
    """A tuple with field names: the shape of every ``torch.return_types.X``."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    n_fields = n_sequence_fields = 0

    def __new__(cls, items: Any) -> "StructSeq":
        items = tuple(items)
        assert len(items) == len(cls._fields), (cls.__name__, items)
        return super().__new__(cls, items)

    def __repr__(self) -> str:
        # structseq.cpp returned_structseq_repr: "name(\nfield=repr,\nfield=repr)"
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{body})"

    __str__ = __repr__

    def __tidx_fields__(self) -> tuple[str, tuple[str, ...]]:
        """The name and field names a trace records beside the items."""
        return f"torch.return_types.{type(self).__name__}", self._fields


@cache
def _field(i: int) -> property:
    """The i-th item as a named attribute (tuple's own item)."""
    return property(lambda self: tuple.__getitem__(self, i))


def return_type(name: str, fields: tuple[str, ...]) -> type[StructSeq]:
    """The ``torch.return_types.<name>`` class with these fields.

    >>> Max = return_type("max", ("values", "indices"))
    >>> r = Max((3, 1)); r.indices, r[0], isinstance(r, tuple)
    (1, 3, True)
    >>> print(r)
    torch.return_types.max(
    values=3,
    indices=1)
    """
    attrs: dict[str, Any] = {"__slots__": (), "_fields": fields, "n_fields": len(fields),
                             "n_sequence_fields": len(fields)}
    for i, field in enumerate(fields):
        attrs[field] = _field(i)
    cls = type(name, (StructSeq,), attrs)
    cls.__module__ = "torch.return_types"
    return cls


def structseq_for(op_name: str, return_names: list[str | None], is_out: bool,
                  value: Any) -> Any:
    """Wrap a kernel's tuple result as torchgen's generated binding does: only when the
    schema names every one of several returns."""
    if (not isinstance(value, tuple) or len(return_names) < 2
            or any(n is None for n in return_names)):
        return value
    name = op_name + ("_out" if is_out else "")
    return return_type(name, tuple(n for n in return_names if n is not None))(value)
