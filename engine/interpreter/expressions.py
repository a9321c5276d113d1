"""The evaluator's Python expressions beyond operators and calls: conditional expressions
(``a if c else b``) and f-strings (``f"{x:.2f}"``).

A mixin of :class:`engine.interpreter.evaluator.Evaluator` (which dispatches a node to
``_e_<NodeName>``), kept apart so each module stays one concept.
"""

from __future__ import annotations

import ast
from typing import Any

from engine.core.context import current
from engine.interpreter import python_memory as M
from engine.interpreter.formatting import Formatter, converted


class Expressions:
    """``_e_IfExp``, ``_e_JoinedStr``, ``_e_FormattedValue`` over the evaluator's own
    ``eval_expr``, ``_truth`` and ``formatter``."""

    formatter: Formatter

    def eval_expr(self, node: ast.AST) -> Any:    # the evaluator's
        raise NotImplementedError

    def _truth(self, value: Any) -> bool:         # the evaluator's
        raise NotImplementedError

    def _e_IfExp(self, node: ast.IfExp) -> Any:
        """``a if c else b``: only the branch the condition's truth picks is evaluated
        (a tensor's truth is Tensor.__bool__, traced)."""
        chosen = node.body if self._truth(self.eval_expr(node.test)) else node.orelse
        return self.eval_expr(chosen)

    def _e_JoinedStr(self, node: ast.JoinedStr) -> str:
        """An f-string: its parts in order, each field formatted (BUILD_STRING)."""
        parts = [self.eval_expr(v) for v in node.values]
        current().budget.build(M.str_bytes(sum(len(p) for p in parts)), "an f-string")
        return "".join(parts)

    def _e_FormattedValue(self, node: ast.FormattedValue) -> str:
        """One ``{value!conversion:spec}`` field: FORMAT_VALUE, the spec an f-string of
        its own (``{x:>{width}}``)."""
        value = converted(self.formatter, self.eval_expr(node.value), node.conversion)
        spec = self.eval_expr(node.format_spec) if node.format_spec is not None else ""
        return self.formatter.format(value, spec)
