"""Statements as tidx takes them: parsed with ``ast`` and checked against the allow-list
before any of them runs.

:func:`parse` turns text into :class:`Statement` objects, refusing (one clear line,
:class:`~engine.core.errors.Refused`) any syntax outside what the evaluator runs, any name
that is neither a default, a builtin tidx provides, nor bound by an earlier statement, and
any attribute or name with a leading underscore.  The evaluator
(:mod:`engine.interpreter.evaluator`) runs what comes out.
"""

from __future__ import annotations

import ast
import io
from dataclasses import dataclass, field
from typing import Any, Iterable

from engine.core.errors import Refused
from engine.interpreter import builtins
from engine.interpreter.sequences import SETTABLE
from engine.interpreter.defaults import BY_NAME

#: Names a statement cannot rebind: the two modules and the first builtins.
RESERVED = ("torch", "pypto", "Ellipsis") + builtins.FIXED
#: Statements longer than this are refused (a file of lessons is far smaller).
MAX_SOURCE = 100_000
#: How deeply one statement may nest (``x = -(-1)`` is 4 deep, ``t.abs().abs()`` 5): room
#: for torch.tensor's deepest list (128 dims, torch's MAX_DIMS) and past the 200 brackets
#: CPython's tokenizer takes, well within what the evaluator's recursion (and the
#: renderers' after it) walks under Python's default recursion limit (~450 levels).
MAX_DEPTH = 200
#: Integers wider than this are refused, literals and results alike (the evaluator's
#: limit): torch takes at most 64 bits, and a number of thousands of digits is past
#: what Python itself will print (sys.get_int_max_str_digits).
MAX_INT_BITS = 256

@dataclass
class Statement:
    """One parsed statement, its source text and what running it gave."""

    source: str
    node: ast.stmt
    comment: str | None = None  # the comment lines just above it in a file (its narrative)
    #: ``try: <stmt> except <Error> as e: print(e)`` in a lesson: the error classes that are
    #: caught (the run goes on), and the name the handler prints (None for ``pass``)
    catches: tuple[str, ...] = ()
    prints: str | None = None
    value: Any = None
    printed: list[str] = field(default_factory=list)
    assigned: list[str] = field(default_factory=list)  # names bound or written into
    bound: list[str] = field(default_factory=list)     # of those, the ones bound (x = ...)
    #: a for/while/if: the statements of its body and of its else (engine/interpreter/
    #: control.py runs them); a header's run state; the pass of the loop it ran in
    body: list["Statement"] = field(default_factory=list)
    orelse: list["Statement"] = field(default_factory=list)
    header: Any = None
    loop: dict[str, int] | None = None


def parse(text: str, names: Iterable[str] = ()) -> list[Statement]:
    """Parse statements; refuse anything outside the allow-list before running any.
    ``names``: those earlier statements of the same Session bound (a notebook's earlier
    cells), which these may read besides the defaults."""
    if len(text) > MAX_SOURCE:
        raise Refused(f"statements are {len(text)} characters long; tidx takes at most "
                      f"{MAX_SOURCE}")
    # a UTF-8 byte-order mark (a file saved by Windows Notepad) opens the text, as Python
    # itself accepts it at the start of a source file
    text = text.removeprefix("\ufeff")
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError as exc:
        where = f" (line {exc.lineno}, column {exc.offset})" if exc.lineno else ""
        raise Refused(f"syntax error: {exc.msg}{where}") from None
    except (RecursionError, MemoryError):
        # CPython's parser gives up on very deep nesting: a RecursionError while it
        # builds the tree, a MemoryError (its stack) past a few thousand levels
        raise Refused(f"statements nested too deeply for Python's parser; tidx takes at "
                      f"most {MAX_DEPTH} levels") from None
    out = []
    known = set(BY_NAME) | set(RESERVED) | set(builtins.NAMES) | set(names)
    lines = text.splitlines()
    segments = io.StringIO(text, newline="").readlines()  # as ast.get_source_segment splits
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str):
            continue  # a docstring: narrative for the reader, nothing to run
        catches: tuple[str, ...] = ()
        prints: str | None = None
        if isinstance(node, ast.Try):
            catches, prints = _check_try(node)
            comment = _comment_above(lines, node.lineno)
            node = node.body[0]
        else:
            comment = None
        _check_depth(node)
        _check_statement(node)
        bound = imported_name(node)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and bound is None:
            continue  # `import torch`: the engine is already the torch namespace
        if bound is not None:
            known.add(bound)        # `import math`, `... as F` bind the name, as in Python
        _check_names(node, known)
        out.append(_statement(segments, lines, node, comment, catches, prints))
    if not out:
        raise Refused("no statement to run")
    return out


#: the statements with a body of statements (engine/interpreter/control.py runs them)
BRANCHING = (ast.For, ast.While, ast.If)
COMPOUND = (*BRANCHING, ast.With)

#: The imports a statement may write, as (module, name imported from it): torch, math,
#: pypto, and torch.nn / torch.nn.functional (engine/interpreter/evaluator.py binds them;
#: the module is torch's own under --verify)
IMPORTS = frozenset({("torch", None), ("pypto", None), ("math", None), ("numpy", None),
                     ("torch.nn", None),
                     ("torch.nn.functional", None), ("torch.nn", "functional"),
                     ("torch", "nn")})


def _import_form(node: ast.stmt) -> tuple[str, str | None, str | None] | None:
    """``import a.b as c`` -> (a.b, None, c); ``from a import b as c`` -> (a, b, c); None
    for anything with several names or a relative import."""
    if isinstance(node, ast.Import) and len(node.names) == 1:
        return (node.names[0].name, None, node.names[0].asname)
    if isinstance(node, ast.ImportFrom) and len(node.names) == 1 and not node.level:
        return (node.module or "", node.names[0].name, node.names[0].asname)
    return None


def imported_name(node: ast.stmt) -> str | None:
    """The name an allowed import binds besides ``torch`` and ``pypto`` (which every
    statement has): ``math``, ``F`` of ``import torch.nn.functional as F``, ``nn`` of
    ``from torch import nn``; None for ``import torch``, ``import torch.nn`` (which bind
    ``torch``) and ``import pypto``."""
    form = _import_form(node)
    if form is None:
        return None
    module, name, asname = form
    if name is not None:
        return asname or name
    if module in ("math", "numpy"):
        return asname or module
    return asname if module.startswith("torch.") else None


def imported_path(node: ast.stmt) -> list[str]:
    """The attribute path from ``torch`` of what the import binds: ``["nn",
    "functional"]`` for ``import torch.nn.functional as F``; ``[]`` for math and pypto."""
    form = _import_form(node)
    assert form is not None
    module, name, _ = form
    if not module.startswith("torch"):
        return []
    return module.split(".")[1:] + ([name] if name else [])


def _statement(segments: list[str], lines: list[str], node: ast.stmt, comment: str | None,
               catches: tuple[str, ...] = (), prints: str | None = None) -> Statement:
    """One checked statement; a for/while/if with its body's and else's, each with its
    own source and comment."""
    source = _source_segment(segments, node) or ast.unparse(node)
    st = Statement(source, node, comment or _comment_above(lines, node.lineno),
                   catches=catches, prints=prints)
    if isinstance(node, COMPOUND):
        st.body = [_statement(segments, lines, n, None) for n in node.body]
        st.orelse = [_statement(segments, lines, n, None) for n in getattr(node, "orelse", [])]
    return st


def _source_segment(lines: list[str], node: ast.stmt) -> str:
    """``ast.get_source_segment(text, node)`` from ``text``'s lines split once: the ast
    function splits the whole text again at every call, which made parsing N statements
    cost N times the text (quadratic; 624 statements took 13 s).  ``lines`` keep their
    ends (``io.StringIO(text, newline="").readlines()``, which splits where ast does);
    columns are UTF-8 byte offsets, as ast gives them.

    >>> text = "a = 1; b = [1,\\n     2]"
    >>> _source_segment(io.StringIO(text, newline="").readlines(), ast.parse(text).body[1])
    'b = [1,\\n     2]'
    """
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode()
    return "".join([lines[first].encode()[node.col_offset:].decode(), *lines[first + 1:last],
                    lines[last].encode()[:node.end_col_offset].decode()])


def _comment_above(lines: list[str], lineno: int) -> str | None:
    """The run of ``#`` comment lines directly above line ``lineno`` (1-based).

    >>> _comment_above(["# select twice", "t[1, 2] = 3"], 2)
    'select twice'
    """
    found: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        found.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    return " ".join(reversed(found)) or None


_ALLOWED_EXPR = (ast.Lambda, ast.arguments, ast.arg, ast.IfExp, ast.JoinedStr, ast.FormattedValue, ast.ListComp, ast.comprehension, ast.BoolOp, ast.And, ast.Or, ast.Is, ast.IsNot, ast.In, ast.NotIn,
                 ast.BitXor, ast.LShift, ast.RShift, ast.MatMult,
                 ast.Constant, ast.Name, ast.List, ast.Tuple, ast.Slice, ast.Subscript,
                 ast.Call, ast.Attribute, ast.UnaryOp, ast.BinOp, ast.keyword, ast.Load,
                 ast.Store, ast.USub, ast.UAdd, ast.Not, ast.Add, ast.Sub, ast.Mult, ast.Div,
                 ast.FloorDiv, ast.Mod, ast.Pow, ast.Compare, ast.Gt, ast.GtE, ast.Lt,
                 ast.LtE, ast.Eq, ast.NotEq, ast.BitAnd, ast.BitOr, ast.Invert, ast.Starred)


def _check_depth(node: ast.stmt) -> None:
    """Refuse a statement nested deeper than MAX_DEPTH, measured without recursion (the
    checks after this one, the evaluator and the renderers recurse)."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(node, 1)]
    while stack:
        sub, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(sub)
                     if not isinstance(child, (ast.expr_context, ast.operator, ast.unaryop,
                                               ast.cmpop, ast.boolop)))
    if deepest > MAX_DEPTH:
        raise Refused(f"line {node.lineno}: a statement nested {deepest} levels deep; tidx "
                      f"takes at most {MAX_DEPTH}")


def _check_arguments(args: ast.arguments, lineno: int) -> None:
    """Parameters a learner's function has: positional-or-keyword, with defaults."""
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg:
        raise Refused(f"line {lineno}: a function takes plain parameters here (a, b=2); "
                      f"no /, *args, keyword-only or **kwargs")
    for a in args.args:
        if a.annotation is not None:
            raise Refused(f"line {lineno}: annotations are not supported")
        if a.arg in RESERVED or a.arg.startswith("__"):
            raise Refused(f"line {lineno}: cannot rebind the name '{a.arg}'")
    for d in args.defaults:
        _check_expr(d)


def _check_statement(node: ast.stmt, in_loop: bool = False, in_def: bool = False,
                     top: bool = True) -> None:
    if isinstance(node, ast.FunctionDef):
        if not top:
            raise Refused(f"line {node.lineno}: def is supported at the top level only")
        if node.decorator_list or node.returns is not None or node.type_comment:
            raise Refused(f"line {node.lineno}: decorators and annotations are not supported")
        if node.name in RESERVED:
            raise Refused(f"line {node.lineno}: cannot rebind the name '{node.name}'")
        _check_arguments(node.args, node.lineno)
        for sub in node.body:
            _check_statement(sub, False, True, False)
        return
    if isinstance(node, ast.Return):
        if not in_def:
            raise Refused(f"line {node.lineno}: 'return' outside function")
        if node.value is not None:
            _check_expr(node.value)
        return
    if isinstance(node, ast.With):
        # with torch.no_grad(): ... (engine/interpreter/control.py enters and leaves it)
        if in_def:
            raise Refused(f"line {node.lineno}: 'with' inside a def is not supported yet")
        for item in node.items:
            _check_expr(item.context_expr)
            if item.optional_vars is not None:
                _check_target(item.optional_vars, node.lineno)
        for sub in node.body:
            _check_statement(sub, in_loop, in_def, False)
        return
    if isinstance(node, BRANCHING):
        # for/while/if over the same allow-list (engine/interpreter/control.py)
        if isinstance(node, ast.For):
            if node.type_comment or isinstance(node, ast.AsyncFor):
                raise Refused(f"line {node.lineno}: async for is not supported")
            _check_target(node.target, node.lineno)
            _check_expr(node.iter)
        else:
            _check_expr(node.test)
        loop = in_loop or not isinstance(node, ast.If)
        for sub in node.body:
            _check_statement(sub, loop, in_def, False)
        for sub in node.orelse:
            _check_statement(sub, in_loop, in_def, False)
        return
    if isinstance(node, (ast.Break, ast.Continue)):
        if not in_loop:
            raise Refused(f"line {node.lineno}: '{type(node).__name__.lower()}' outside loop")
        return
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        form = _import_form(node)
        if form is None or form[:2] not in IMPORTS or (
                form[0] in ("torch", "pypto") and form[1] is None
                and form[2] not in (None, form[0])):
            raise Refused(f"line {node.lineno}: only `import torch`, `import math`, "
                          "`import numpy as np`, `import pypto` and "
                          "`import torch.nn.functional as F` (or `from "
                          "torch.nn import functional as F`) are allowed")
        return
    if isinstance(node, ast.Expr):
        _check_expr(node.value)
        return
    if isinstance(node, ast.Assign):
        for target in node.targets:
            _check_target(target, node.lineno)
        _check_expr(node.value)
        return
    if isinstance(node, ast.AugAssign):
        # t += 1, t[0] *= 2: the target is read, combined in place, and written back
        if not isinstance(node.target, (ast.Name, ast.Subscript)):
            raise Refused(f"line {node.lineno}: augmented assignment to a name or a "
                          f"subscript only (got {type(node.target).__name__.lower()})")
        _check_expr(node.target)
        _check_expr(ast.BinOp(ast.Constant(0), node.op, node.value))
        return
    if isinstance(node, ast.Pass):
        return
    raise Refused(f"line {node.lineno}: {_describe(node)} is not supported; tidx runs "
                  "expressions, assignments and `import torch`")


def _check_target(target: ast.expr, lineno: int, *, nested: bool = False) -> None:
    """``x = ``, ``t[i] = ``, and tuple unpacking ``a, b = `` / ``a, *rest = `` of those."""
    if isinstance(target, (ast.Tuple, ast.List)):
        if sum(isinstance(e, ast.Starred) for e in target.elts) > 1:
            raise Refused(f"line {lineno}: multiple starred expressions in assignment")
        for e in target.elts:
            _check_target(e.value if isinstance(e, ast.Starred) else e, lineno, nested=True)
        return
    if isinstance(target, ast.Attribute) and target.attr in SETTABLE:
        _check_expr(target.value)
        return
    if not isinstance(target, (ast.Name, ast.Subscript)):
        raise Refused(f"line {lineno}: assign to a name{',' if nested else ' or'} a subscript"
                      f"{' or a tuple of those' if not nested else ''} (got "
                      f"{type(target).__name__.lower()})")
    _check_expr(target)


def target_names(target: ast.expr) -> list[str]:
    """The names an assignment target binds: ``a, (b, *c) = ...`` binds a, b, c."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in target_names(e)]
    return []


def _target_subscripts(target: ast.expr) -> list[ast.Subscript]:
    if isinstance(target, ast.Subscript):
        return [target]
    if isinstance(target, ast.Starred):
        return _target_subscripts(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return [s for e in target.elts for s in _target_subscripts(e)]
    return []


#: The error classes a lesson's ``except`` may name (the ones PyTorch raises).
CATCHABLE: dict[str, type[BaseException]] = {
    cls.__name__: cls for cls in (IndexError, RuntimeError, TypeError, ValueError,
                                  NotImplementedError, AssertionError, Exception)}


def _check_try(node: ast.Try) -> tuple[tuple[str, ...], str | None]:
    """The one try/except form lessons may use to show an error and go on:

        try:
            t[5]
        except IndexError as e:
            print(e)
    """
    where = f"line {node.lineno}"
    if len(node.body) != 1 or node.orelse or node.finalbody or len(node.handlers) != 1:
        raise Refused(f"{where}: try takes one statement and one `except Error as e: print(e)`")
    handler = node.handlers[0]
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = []
    for kind in kinds:
        if not isinstance(kind, ast.Name) or kind.id not in CATCHABLE:
            raise Refused(f"{where}: except names one of {', '.join(CATCHABLE)}")
        names.append(kind.id)
    body = handler.body
    if len(body) == 1 and isinstance(body[0], ast.Pass):
        return tuple(names), None
    ok = (len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Call)
          and isinstance(body[0].value.func, ast.Name) and body[0].value.func.id == "print"
          and len(body[0].value.args) == 1 and not body[0].value.keywords
          and isinstance(body[0].value.args[0], ast.Name)
          and body[0].value.args[0].id == handler.name)
    if not ok:
        raise Refused(f"{where}: the except block may only `print({handler.name or 'e'})` "
                      "or `pass`")
    return tuple(names), handler.name


def _check_names(node: ast.stmt, known: set[str]) -> None:
    """Every name read must be a default, ``torch``, a builtin we provide, or assigned by
    an earlier statement (or by the comprehension it is read in); checked before anything
    runs."""
    if isinstance(node, ast.FunctionDef):
        for d in node.args.defaults:
            _check_reads(d, known)
        known.add(node.name)        # recursion reads it
        # Python's locals: the parameters and every name the body binds
        inner = known | {a.arg for a in node.args.args} | {
            n.id for n in ast.walk(node) if isinstance(n, ast.Name) and
            isinstance(n.ctx, ast.Store)}
        for sub in node.body:
            _check_names(sub, inner)
        return
    if isinstance(node, ast.Return):
        if node.value is not None:
            _check_reads(node.value, known)
        return
    if isinstance(node, ast.With):
        for item in node.items:
            _check_reads(item.context_expr, known)
            _bind_names([item.optional_vars] if item.optional_vars else [], known)
        for sub in node.body:
            _check_names(sub, known)
        return
    if isinstance(node, BRANCHING):
        _check_reads(node.iter if isinstance(node, ast.For) else node.test, known)
        if isinstance(node, ast.For):
            _bind_names([node.target], known)
        for sub in [*node.body, *node.orelse]:
            _check_names(sub, known)
        return
    if isinstance(node, ast.AugAssign):
        reads, targets = [node.target, node.value], []
    elif isinstance(node, ast.Assign):
        subscripts = [s for t in node.targets for s in _target_subscripts(t)]
        reads = [node.value] + [s.value for s in subscripts] + [s.slice for s in subscripts]
        targets = node.targets
    else:
        reads, targets = ([node.value] if isinstance(node, ast.Expr) else []), []
    later = frozenset(n for t in targets for n in target_names(t))
    for tree in reads:
        _check_reads(tree, known, later)
    _bind_names(targets, known)


def _bind_names(targets: list[ast.expr], known: set[str]) -> None:
    for t in targets:
        for name in target_names(t):
            if name in RESERVED:
                raise Refused(f"line {t.lineno}: cannot rebind the name '{name}'")
            known.add(name)


def _check_reads(tree: ast.AST, known: set[str], later: frozenset[str] = frozenset()) -> None:
    """``later``: the names the statement itself binds, which a lambda's body may read
    (it runs when called: ``f = lambda n: f(n - 1)``)."""
    if isinstance(tree, ast.Lambda):
        for d in tree.args.defaults:
            _check_reads(d, known, later)
        _check_reads(tree.body, known | later | {a.arg for a in tree.args.args})
        return
    if isinstance(tree, ast.ListComp):
        # the first iterable is read outside; the loop variables are known inside
        gen = tree.generators[0]
        _check_reads(gen.iter, known, later)
        inner = known | set(target_names(gen.target))
        for part in [tree.elt, *gen.ifs]:
            _check_reads(part, inner, later)
        return
    if isinstance(tree, ast.Name):
        if tree.id not in known:
            raise Refused(f"line {tree.lineno}: name '{tree.id}' is not defined (default "
                          f"names: {', '.join(sorted(BY_NAME))})")
        return
    for child in ast.iter_child_nodes(tree):
        _check_reads(child, known, later)


def _describe(node: ast.AST) -> str:
    names = {ast.For: "a for loop", ast.While: "a while loop", ast.FunctionDef: "def",
             ast.Lambda: "lambda", ast.ImportFrom: "from-import", ast.With: "with",
             ast.ListComp: "a comprehension", ast.GeneratorExp: "a generator expression",
             ast.DictComp: "a comprehension", ast.SetComp: "a comprehension",
             ast.AugAssign: "augmented assignment", ast.ClassDef: "class",
             ast.Dict: "a dict literal", ast.JoinedStr: "an f-string", ast.If: "if",
             ast.IfExp: "a conditional expression", ast.Starred: "* unpacking",
             ast.Compare: "a comparison", ast.BoolOp: "and/or", ast.NamedExpr: ":=",
             ast.Await: "await", ast.Yield: "yield", ast.Set: "a set literal",
             ast.Delete: "del", ast.Global: "global", ast.Try: "try", ast.Raise: "raise"}
    return names.get(type(node), type(node).__name__)


#: The attributes whose names begin with an underscore that tutorials read: autograd's
#: version counter and view base (engine/binding/autograd_meta.py).  Every other one is
#: refused before anything runs.
_UNDERSCORED = frozenset({"_version", "_base", "_is_view"})


def _check_expr(node: ast.AST) -> None:
    for sub in ast.walk(node):
        if isinstance(sub, ast.ListComp):
            _check_comprehension(sub)
        if isinstance(sub, ast.Lambda):
            _check_arguments(sub.args, sub.lineno)
        if not isinstance(sub, _ALLOWED_EXPR):
            line = getattr(sub, "lineno", getattr(node, "lineno", "?"))
            raise Refused(f"line {line}: {_describe(sub)} is "
                          "not supported")
        if isinstance(sub, ast.Attribute) and sub.attr.startswith("_") and \
                sub.attr not in _UNDERSCORED:
            raise Refused(f"line {sub.lineno}: attribute '{sub.attr}' is not available")
        if isinstance(sub, ast.Name) and sub.id.startswith("__"):
            raise Refused(f"line {sub.lineno}: name '{sub.id}' is not available")
        if isinstance(sub, ast.Constant) and not isinstance(
                sub.value, (int, float, complex, bool, str, type(None), type(Ellipsis))):
            raise Refused(f"line {sub.lineno}: {type(sub.value).__name__} literals are not "
                          "supported")
        if isinstance(sub, ast.Constant) and isinstance(sub.value, int) and \
                sub.value.bit_length() > MAX_INT_BITS:
            raise Refused(f"line {sub.lineno}: an integer literal of "
                          f"{sub.value.bit_length()} bits is too large for tidx (more than "
                          f"{MAX_INT_BITS} bits)")
        if isinstance(sub, ast.keyword) and sub.arg is None:
            raise Refused(f"line {sub.lineno}: ** unpacking is not supported")


def _check_comprehension(node: ast.ListComp) -> None:
    """``[i * 2 for i in range(3) if i != 1]``: as far as a learner needs one for an index
    list — one ``for`` over names, any number of ``if``s."""
    if len(node.generators) != 1:
        raise Refused(f"line {node.lineno}: a comprehension takes one `for` here")
    gen = node.generators[0]
    if gen.is_async:
        raise Refused(f"line {node.lineno}: async comprehensions are not supported")
    for name in ast.walk(gen.target):
        if not isinstance(name, (ast.Name, ast.Tuple, ast.Store)):
            raise Refused(f"line {node.lineno}: a comprehension's `for` binds names only")
        if isinstance(name, ast.Name) and name.id in RESERVED:
            raise Refused(f"line {node.lineno}: cannot rebind the name '{name.id}'")


def root_name(node: ast.expr) -> str | None:
    """The name a subscript target writes into: ``t`` for ``t[1:][0] = 2``."""
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None
