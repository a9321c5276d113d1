"""Temporaries called by the text that made them (issue #28): the evaluator hands the
recorder each subexpression's source with the tensor it evaluated to, so every drawing
says ``(t > 5)`` where it said ``t$1`` (tracer/temporaries.py labels the rest)."""

from __future__ import annotations

import ast
from typing import Any

from tracer import recorder

from engine.binding.tensor import Tensor

#: expressions whose tensor has a name of its own already
ATOMS = (ast.Name, ast.Constant, ast.Starred)


def describe(value: Any, node: ast.AST) -> None:
    """``node`` evaluated to ``value``: a tensor nothing names is called by its source
    (unparsed only when the recorder needs it); a tensor the user names keeps the name."""
    trace = recorder.current()
    if trace is not None and type(value) is Tensor:
        trace.describe(value, lambda: ast.unparse(node))
