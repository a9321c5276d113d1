"""The user's own functions: ``def`` and ``lambda``.

A function is a :class:`UserFunction`: its parameters, the default values evaluated
once when it is defined (as Python does), its body (statements for a ``def``, one
expression for a ``lambda``) and the scopes it was defined in (lexical scoping: a
function sees its own locals, then those of the functions around it, then the session's
names, never its caller's).  A call binds the arguments as CPython does, with its
TypeErrors word for word (``f() missing 1 required positional argument: 'a'``), and runs
the body in the statement that called it: its PyTorch steps are that statement's.
Calls in progress are bounded (:class:`~engine.core.work_budget.WorkBudget`), so a
recursion stops in one refusal line, never at Python's own RecursionError.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core.context import current
from engine.core.errors import Refused, torch_error
from engine.core.work_budget import WorkBudget


@dataclass(eq=False)
class UserFunction:
    """A ``def`` or ``lambda`` of the user's; called through its evaluator."""

    name: str
    args: ast.arguments
    defaults: list[Any]
    body: list[ast.stmt] | ast.expr
    closure: list[dict[str, Any]]
    call: Callable[..., Any] = field(repr=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call(self, args, kwargs)

    def __repr__(self) -> str:   # Python's, without the address that changes every run
        return f"<function {self.name}>"


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


def bind(fn: UserFunction, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
    """CPython's argument binding for positional-or-keyword parameters with defaults."""
    names = [a.arg for a in fn.args.args]
    first_default = len(names) - len(fn.defaults)
    if len(args) > len(names):
        given = len(args)
        if fn.defaults:
            takes = f"from {first_default} to {len(names)} positional arguments"
        else:
            takes = f"{len(names)} positional argument{'s' if len(names) != 1 else ''}"
        was = "was" if given == 1 else "were"
        raise torch_error(TypeError, f"{fn.name}() takes {takes} but {given} {was} given")
    local = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            raise torch_error(TypeError, f"{fn.name}() got an unexpected keyword argument "
                                         f"'{key}'")
        if key in local:
            raise torch_error(TypeError, f"{fn.name}() got multiple values for argument "
                                         f"'{key}'")
        local[key] = value
    missing = [n for i, n in enumerate(names) if n not in local and i < first_default]
    if missing:
        quoted = [f"'{n}'" for n in missing]
        listed = quoted[0] if len(quoted) == 1 else (
            ", ".join(quoted[:-1]) + (" and " if len(quoted) == 2 else ", and ") + quoted[-1])
        raise torch_error(TypeError, f"{fn.name}() missing {len(missing)} required positional "
                                     f"argument{'s' if len(missing) > 1 else ''}: {listed}")
    for i, n in enumerate(names):
        if n not in local:
            local[n] = fn.defaults[i - first_default]
    return local


class Functions:
    """The evaluator's part (a mixin of :class:`engine.interpreter.evaluator.Evaluator`)."""

    _scopes: list[dict[str, Any]]

    def define(self, node: ast.FunctionDef, st: Any) -> None:
        fn = self._make(node.name, node.args, node.body)
        self.names[node.name] = fn              # type: ignore[attr-defined]
        st.assigned.append(node.name)
        st.bound.append(node.name)

    def _e_Lambda(self, node: ast.Lambda) -> UserFunction:
        return self._make("<lambda>", node.args, node.body)

    def _make(self, name: str, args: ast.arguments,
              body: list[ast.stmt] | ast.expr) -> UserFunction:
        defaults = [self.eval_expr(d) for d in args.defaults]  # type: ignore[attr-defined]
        return UserFunction(name, args, defaults, body, list(self._scopes), self.call_user)

    def call_user(self, fn: UserFunction, args: tuple, kwargs: dict[str, Any]) -> Any:
        local = bind(fn, args, kwargs)
        work = current().local(WorkBudget)
        work.enter_call(fn.name)
        saved, self._scopes = self._scopes, [*fn.closure, local]
        try:
            if isinstance(fn.body, ast.expr):
                return self.eval_expr(fn.body)  # type: ignore[attr-defined]
            try:
                self._exec(fn.body, local, work)
            except _Return as r:
                return r.value
            return None
        except RecursionError:
            # deep expressions in each of many calls: past Python's own stack before
            # MAX_CALL_DEPTH; one line, as the bound's own
            raise Refused(f"{fn.name}() nests calls deeper than tidx evaluates") from None
        finally:
            self._scopes = saved
            work.leave_call()

    def _exec(self, body: list[ast.stmt], local: dict[str, Any], work: WorkBudget) -> None:
        """A function's statements, in its own scope (break/continue as exceptions)."""
        for node in body:
            if isinstance(node, ast.Return):
                raise _Return(None if node.value is None else self.eval_expr(node.value))  # type: ignore[attr-defined]
            if isinstance(node, ast.Expr):
                self.eval_expr(node.value)      # type: ignore[attr-defined]
            elif isinstance(node, ast.Assign):
                value = self.eval_expr(node.value)  # type: ignore[attr-defined]
                for target in node.targets:
                    self._store(target, value, local)
            elif isinstance(node, ast.AugAssign):
                if isinstance(node.target, ast.Name):
                    current_ = self.lookup(node.target.id)  # type: ignore[attr-defined]
                    local[node.target.id] = self.inplace(  # type: ignore[attr-defined]
                        type(node.op).__name__, current_, self.eval_expr(node.value))  # type: ignore[attr-defined]
                else:
                    assert isinstance(node.target, ast.Subscript)  # statements.py's check
                    obj = self.eval_expr(node.target.value)  # type: ignore[attr-defined]
                    index = self.eval_expr(node.target.slice)  # type: ignore[attr-defined]
                    result = self.inplace(type(node.op).__name__,  # type: ignore[attr-defined]
                                          self.subscript(obj, index),  # type: ignore[attr-defined]
                                          self.eval_expr(node.value))  # type: ignore[attr-defined]
                    self.store_subscript(obj, index, result)  # type: ignore[attr-defined]
            elif isinstance(node, ast.If):
                test = self._truth(self.eval_expr(node.test))  # type: ignore[attr-defined]
                self._exec(node.body if test else node.orelse, local, work)
            elif isinstance(node, (ast.For, ast.While)):
                self._loop(node, local, work)
            elif isinstance(node, ast.Break):
                raise _Break
            elif isinstance(node, ast.Continue):
                raise _Continue
            # pass: nothing

    def _loop(self, node: ast.For | ast.While, local: dict[str, Any],
              work: WorkBudget) -> None:
        items = (self.iterate(self.eval_expr(node.iter),  # type: ignore[attr-defined]
                              "'{}' object is not iterable")
                 if isinstance(node, ast.For) else None)
        k = 0
        while True:
            if items is not None:
                if k >= len(items):
                    break
                self._store(node.target, items[k], local)  # type: ignore[union-attr]
            elif not self._truth(self.eval_expr(node.test)):  # type: ignore[attr-defined, union-attr]
                break
            work.iterate()
            k += 1
            try:
                self._exec(node.body, local, work)
            except _Break:
                return
            except _Continue:
                continue
        self._exec(node.orelse, local, work)

    def _store(self, target: ast.expr, value: Any, local: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            local[target.id] = value
        elif isinstance(target, ast.Subscript):
            self.assign_subscript(target, value)  # type: ignore[attr-defined]
        else:
            assert isinstance(target, (ast.Tuple, ast.List))
            for element, item in zip(target.elts, self.unpack(value, target.elts)):  # type: ignore[attr-defined]
                self._store(element.value if isinstance(element, ast.Starred) else element,
                            item, local)


class _Break(Exception):
    pass


class _Continue(Exception):
    pass
