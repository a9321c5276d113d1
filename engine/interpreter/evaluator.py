"""Run PyTorch-syntax statements on the engine: parsed with ``ast``, never ``eval``.

The evaluator walks the syntax tree itself over an allow-list: names, number,
bool, None, Ellipsis and string literals, lists, tuples, slices, subscripts and
subscript assignment, calls of known ``torch.*`` functions and tensor methods
(with keyword arguments), a few operators on Python numbers, ``import torch``
and the builtins of :mod:`engine.interpreter.builtins` (``print``, ``len``, ``int``,
``float``, ``bool``).  Everything else is refused with one clear line
(:class:`~engine.core.errors.Refused`), before any of the statement runs.  Attribute
access resolves only through the tables below: no dunder, no ``getattr`` on
user-chosen names, no other builtins.
"""

from __future__ import annotations

import ast
import io
import math
import operator
from dataclasses import dataclass, field
from typing import Any, Callable

from tracer import recorder

from engine.core import dtypes as D
from engine.binding.functions import FUNCTIONS
from engine.binding.methods import PUBLIC as TENSOR_PUBLIC
from engine.binding import options as P
from engine.pypto import index_select as pypto
from engine.core.device import Size
from engine.core.errors import Refused, is_torch_error, torch_error, tp_name
from engine.interpreter import builtins
from engine.interpreter.defaults import BY_NAME
from engine.binding.tensor import UntypedStorage
from engine.binding.tensor import Tensor
from engine.binding.return_types import StructSeq

#: Names a statement cannot rebind: the two modules and the builtins.
RESERVED = ("torch", "pypto") + builtins.NAMES
#: Python-level integers are capped so that ``2**10**10`` is refused, not computed.
MAX_INT_BITS = 256
#: Statements longer than this are refused (a file of lessons is far smaller).
MAX_SOURCE = 100_000


class Namespace:
    """What the name ``torch`` evaluates to: attributes come only from its two tables.

    The engine's namespace is the default; ``engine.interpreter.verify`` builds one over real
    PyTorch, so the same allow-listed statements can run there too.
    """

    def __init__(self, label: str, functions: dict[str, Callable[..., Any]],
                 constants: dict[str, Any], *, tensor: type, storage: type, size: type,
                 dtype: type) -> None:
        self.label, self.functions, self.constants = label, functions, constants
        #: the library's own types, which the allow-lists apply to
        self.tensor, self.storage, self.size, self.dtype = tensor, storage, size, dtype
        #: callables a statement may call (by identity: builtins take no attributes)
        self.callables = frozenset(id(c) for c in functions.values())

    def __repr__(self) -> str:
        return f"<module 'torch' ({self.label})>"


class _Pypto:
    """The value the name ``pypto`` evaluates to (seed 003's NPU library, emulated)."""

    def __repr__(self) -> str:
        return "<module 'pypto' (tidx emulation of seed 003)>"


PYPTO = _Pypto()
PYPTO_FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: getattr(pypto, name) for name in ("tensor", "from_engine", "index_select",
                                            "set_vec_tile_shapes", "set_ub_size")
}
PYPTO_CONSTANTS: dict[str, Any] = {name: getattr(pypto, name) for name in (
    "DT_FP32", "DT_FP16", "DT_BF16", "DT_INT16", "DT_INT8", "DT_INT32", "DT_INT64")}

#: The torch functions a statement may call: every generated and hand-written binding.
TORCH_FUNCTIONS: dict[str, Callable[..., Any]] = dict(FUNCTIONS)
#: Constants ``torch.X`` may name (dtypes and memory formats).
CONSTANT_NAMES = tuple(d.name for d in D.ALL) + (
    "half", "float", "double", "long", "int", "short", "channels_last", "contiguous_format",
    "preserve_format")
TORCH_CONSTANTS: dict[str, Any] = {d.name: d for d in D.ALL} | {
    "half": D.float16, "float": D.float32, "double": D.float64, "long": D.int64,
    "int": D.int32, "short": D.int16, "channels_last": P.channels_last,
    "contiguous_format": P.contiguous_format, "preserve_format": P.preserve_format,
}
TORCH = Namespace("tidx engine", TORCH_FUNCTIONS, TORCH_CONSTANTS, tensor=Tensor,
                  storage=UntypedStorage, size=Size, dtype=D.dtype)

#: The tensor methods and attributes a statement may use: those the binding installs.
TENSOR_METHODS = TENSOR_PUBLIC
STORAGE_METHODS = frozenset({"nbytes", "data_ptr", "size"})


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


def parse(text: str) -> list[Statement]:
    """Parse statements; refuse anything outside the allow-list before running any."""
    if len(text) > MAX_SOURCE:
        raise Refused(f"statements are {len(text)} characters long; tidx takes at most "
                      f"{MAX_SOURCE}")
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError as exc:
        where = f" (line {exc.lineno}, column {exc.offset})" if exc.lineno else ""
        raise Refused(f"syntax error: {exc.msg}{where}") from None
    out = []
    known = set(BY_NAME) | set(RESERVED)
    lines = text.splitlines()
    segments = io.StringIO(text, newline="").readlines()  # as ast.get_source_segment splits
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str):
            continue  # a docstring: narrative for the reader, nothing to run
        catches, prints = (), None
        if isinstance(node, ast.Try):
            catches, prints = _check_try(node)
            comment = _comment_above(lines, node.lineno)
            node = node.body[0]
        else:
            comment = None
        _check_statement(node)
        if isinstance(node, ast.Import):
            continue  # `import torch`: the engine is already the torch namespace
        _check_names(node, known)
        source = _source_segment(segments, node) or ast.unparse(node)
        out.append(Statement(source, node, comment or _comment_above(lines, node.lineno),
                             catches=catches, prints=prints))
    if not out:
        raise Refused("no statement to run")
    return out


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
    first, last = node.lineno - 1, node.end_lineno - 1
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


_ALLOWED_EXPR = (ast.Constant, ast.Name, ast.List, ast.Tuple, ast.Slice, ast.Subscript,
                 ast.Call, ast.Attribute, ast.UnaryOp, ast.BinOp, ast.keyword, ast.Load,
                 ast.Store, ast.USub, ast.UAdd, ast.Not, ast.Add, ast.Sub, ast.Mult, ast.Div,
                 ast.FloorDiv, ast.Mod, ast.Pow, ast.Compare, ast.Gt, ast.GtE, ast.Lt,
                 ast.LtE, ast.Eq, ast.NotEq, ast.BitAnd, ast.BitOr, ast.Invert, ast.Starred)


def _check_statement(node: ast.stmt) -> None:
    if isinstance(node, ast.Import):
        if [(a.name, a.asname) for a in node.names] not in (
                [("torch", None)], [("torch", "torch")], [("pypto", None)]):
            raise Refused(f"line {node.lineno}: only `import torch` and `import pypto` are "
                          "allowed")
        return
    if isinstance(node, ast.Expr):
        _check_expr(node.value)
        return
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if not isinstance(target, (ast.Name, ast.Subscript)):
                raise Refused(f"line {node.lineno}: assign to a name or a subscript "
                              f"(got {type(target).__name__.lower()})")
            _check_expr(target)
        _check_expr(node.value)
        return
    if isinstance(node, ast.Pass):
        return
    raise Refused(f"line {node.lineno}: {_describe(node)} is not supported; tidx runs "
                  "expressions, assignments and `import torch`")


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
    an earlier statement; checked before anything runs."""
    reads = node.value if isinstance(node, (ast.Expr, ast.Assign)) else None
    targets = node.targets if isinstance(node, ast.Assign) else []
    for tree in ([reads] if reads is not None else []) + [
            t.value for t in targets if isinstance(t, ast.Subscript)] + [
            t.slice for t in targets if isinstance(t, ast.Subscript)]:
        for sub in ast.walk(tree):
            if isinstance(sub, ast.Name) and sub.id not in known:
                raise Refused(f"line {sub.lineno}: name '{sub.id}' is not defined (default "
                              f"names: {', '.join(sorted(BY_NAME))})")
    for t in targets:
        if isinstance(t, ast.Name):
            if t.id in RESERVED:
                raise Refused(f"line {t.lineno}: cannot rebind the name '{t.id}'")
            known.add(t.id)


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


def _check_expr(node: ast.AST) -> None:
    for sub in ast.walk(node):
        if not isinstance(sub, _ALLOWED_EXPR):
            raise Refused(f"line {getattr(sub, 'lineno', node.lineno)}: {_describe(sub)} is "
                          "not supported")
        if isinstance(sub, ast.Attribute) and sub.attr.startswith("_"):
            raise Refused(f"line {sub.lineno}: attribute '{sub.attr}' is not available")
        if isinstance(sub, ast.Name) and sub.id.startswith("__"):
            raise Refused(f"line {sub.lineno}: name '{sub.id}' is not available")
        if isinstance(sub, ast.Constant) and not isinstance(
                sub.value, (int, float, bool, str, type(None), type(Ellipsis))):
            raise Refused(f"line {sub.lineno}: {type(sub.value).__name__} literals are not "
                          "supported")
        if isinstance(sub, ast.keyword) and sub.arg is None:
            raise Refused(f"line {sub.lineno}: ** unpacking is not supported")


def _root_name(node: ast.expr) -> str | None:
    """The name a subscript target writes into: ``t`` for ``t[1:][0] = 2``."""
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


class Evaluator:
    """Holds the names of one session and runs statements against the engine."""

    def __init__(self, on_default: Callable[[Any, str], None] | None = None,
                 torch: Namespace = TORCH) -> None:
        #: called with (value, name) when a default name is first made
        self.on_default = on_default
        self.torch = torch
        self.names: dict[str, Any] = {}
        self.defaults_used: list[str] = []
        self._printed: list[str] | None = None

        def on_print(text: str) -> None:
            if self._printed is not None:
                self._printed.append(text)

        self.builtins = builtins.make(torch.tensor, torch.size, on_print)
        self._allowed = ({id(fn) for fn in self.builtins.values()} | torch.callables
                         | {id(fn) for fn in PYPTO_FUNCTIONS.values()})

    # -- names -----------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if name == "torch":
            return self.torch
        if name == "pypto":
            return PYPTO
        if name in self.builtins:
            return self.builtins[name]
        default = BY_NAME.get(name)
        if default is not None:
            with recorder.paused():
                value = self.eval_expr(ast.parse(default.source, mode="eval").body)
            self.names[name] = value
            self.defaults_used.append(name)
            if self.on_default is not None:
                self.on_default(value, name)
            return value
        known = ", ".join(sorted(BY_NAME))
        raise Refused(f"name '{name}' is not defined (default names: {known})")

    # -- statements ------------------------------------------------------------------
    def run(self, st: Statement) -> None:
        node = st.node
        self._printed = st.printed
        try:
            if isinstance(node, (ast.Import, ast.Pass)):
                return
            if isinstance(node, ast.Expr):
                st.value = self.eval_expr(node.value)
                return
            assert isinstance(node, ast.Assign)
            value = self.eval_expr(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    if target.id == "torch":
                        raise Refused("cannot rebind the name 'torch'")
                    self.names[target.id] = value
                    st.assigned.append(target.id)
                    st.bound.append(target.id)
                else:
                    self.assign_subscript(target, value)
                    root = _root_name(target)
                    if root is not None:
                        st.assigned.append(root)
            st.value = value if any(isinstance(t, ast.Name) for t in node.targets) else None
        finally:
            self._printed = None

    def assign_subscript(self, target: ast.Subscript, value: Any) -> None:
        obj = self.eval_expr(target.value)
        index = self.eval_expr(target.slice)
        if not isinstance(obj, self.torch.tensor):
            raise Refused(f"only tensors support item assignment here (got "
                          f"{self.type_name(obj)})")
        obj[index] = value

    # -- expressions -----------------------------------------------------------------
    def eval_expr(self, node: ast.AST) -> Any:
        method = getattr(self, "_e_" + type(node).__name__)
        return method(node)

    def _e_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _e_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id)

    def _e_List(self, node: ast.List) -> list:
        return self._elements(node.elts)

    def _e_Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self._elements(node.elts))

    def _elements(self, elts: list[ast.expr]) -> list:
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                seq = self.eval_expr(e.value)
                if not isinstance(seq, (list, tuple)):
                    raise Refused(f"* unpacks lists and tuples only (got {self.type_name(seq)})")
                out.extend(seq)
            else:
                out.append(self.eval_expr(e))
        return out

    def _e_Starred(self, node: ast.Starred) -> Any:
        raise Refused(f"line {node.lineno}: * unpacking is allowed in calls and lists only")

    def _e_Slice(self, node: ast.Slice) -> slice:
        part = lambda n: None if n is None else self.eval_expr(n)  # noqa: E731
        return slice(part(node.lower), part(node.upper), part(node.step))

    def _e_Subscript(self, node: ast.Subscript) -> Any:
        obj = self.eval_expr(node.value)
        index = self.eval_expr(node.slice)
        if isinstance(obj, (self.torch.tensor, list, tuple, self.torch.size)):
            if not isinstance(obj, self.torch.tensor) and not isinstance(index, (int, slice)):
                raise torch_error(TypeError, f"{self.type_name(obj)} indices must be integers or "
                                             f"slices, not {self.type_name(index)}")
            if not isinstance(obj, self.torch.tensor) and isinstance(index, int) and \
                    not -2**63 <= index < 2**63:
                raise torch_error(IndexError, "cannot fit 'int' into an index-sized integer")
            if not isinstance(obj, self.torch.tensor) and isinstance(index, int) and \
                    not -len(obj) <= index < len(obj):
                # Python's own error for a tuple, list or torch.Size
                kind = "list" if isinstance(obj, list) else "tuple"
                raise torch_error(IndexError, f"{kind} index out of range")
            return obj[index]
        raise Refused(f"'{self.type_name(obj)}' object is not subscriptable here")

    def _e_Attribute(self, node: ast.Attribute) -> Any:
        obj = self.eval_expr(node.value)
        return self.resolve_attribute(obj, node.attr)

    def _e_Call(self, node: ast.Call) -> Any:
        fn = self.eval_expr(node.func)
        if not callable(fn) or not self._may_call(fn):
            raise Refused(f"'{ast.unparse(node.func)}' cannot be called")
        args = self._elements(node.args)  # f(*prefix): lists and tuples unpack
        kwargs = {k.arg: self.eval_expr(k.value) for k in node.keywords}
        try:
            return fn(*args, **kwargs)
        except TypeError as exc:
            tb = exc.__traceback__
            if is_torch_error(exc) or tb is None or tb.tb_next is not None:
                raise       # PyTorch's own error, or one inside tidx (an internal error)
            # Raised while Python bound the arguments, before fn's body ran: the call's
            # own signature error (``torch.manual_seed()``), as Python reports it.
            raise torch_error(TypeError, str(exc)) from None

    def _e_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.eval_expr(node.operand)
        if isinstance(value, self.torch.tensor) and isinstance(node.op, (ast.USub, ast.Invert)):
            return -value if isinstance(node.op, ast.USub) else ~value
        if isinstance(node.op, ast.Not):
            if isinstance(value, self.torch.tensor):
                return not value          # Tensor.__bool__: is_nonzero, as Python asks
            return not self._number(value, "not")
        if isinstance(node.op, ast.Invert):
            value = self._number(value, "~")
            if isinstance(value, float):
                raise torch_error(TypeError, "bad operand type for unary ~: 'float'")
            return ~value
        value = self._number(value, "unary " + type(node.op).__name__)
        return -value if isinstance(node.op, ast.USub) else +value

    def _tensor_binop(self, op: str, left: Any, right: Any) -> Any:
        fn = _TENSOR_BINOPS.get(op)
        if fn is None:
            raise Refused(f"tensor operator {op} is not supported yet")
        if not isinstance(left, self.torch.tensor) and not hasattr(self.torch.tensor,
                                                                     _REFLECTED[op]):
            raise Refused(f"a number {op.lower()} a tensor (Tensor.{_REFLECTED[op]}) is not "
                          "supported yet")
        try:
            return fn(left, right)
        except TypeError as exc:
            tb = exc.__traceback__
            if is_torch_error(exc) or tb is None or tb.tb_next is not None:
                raise
            # Python's own answer when neither operand takes the other (t + None)
            message = str(exc)
            if message.startswith("unsupported operand"):
                message = (f"unsupported operand type(s) for {_SYMBOLS[op]}: "
                           f"'{tp_name(left)}' and '{tp_name(right)}'")
            raise torch_error(TypeError, message) from None

    def _e_Compare(self, node: ast.Compare) -> Any:
        if len(node.ops) != 1:
            raise Refused(f"line {node.lineno}: chained comparisons are not supported")
        left, right = self.eval_expr(node.left), self.eval_expr(node.comparators[0])
        op = type(node.ops[0]).__name__
        if not isinstance(left, self.torch.tensor) and not isinstance(right, self.torch.tensor):
            return _COMPARE[op](self._number(left, op), self._number(right, op))
        if not isinstance(left, self.torch.tensor):  # 4 < t is t > 4, as Python reflects it
            left, right, op = right, left, _REFLECT[op]
        if not isinstance(right, (self.torch.tensor, bool, int, float)):
            raise Refused(f"cannot compare a tensor with {self.type_name(right)}")
        return _COMPARE[op](left, right)

    def _e_BinOp(self, node: ast.BinOp) -> Any:
        left, right = self.eval_expr(node.left), self.eval_expr(node.right)
        op = type(node.op).__name__
        if isinstance(left, self.torch.tensor) or isinstance(right, self.torch.tensor):
            return self._tensor_binop(op, left, right)
        if op in ("Mult", "Add") and (isinstance(left, (list, tuple)) or
                                      isinstance(right, (list, tuple))):
            return _sequence_op(op, left, right, self.torch.size)
        a, b = self._number(left, op), self._number(right, op)
        if isinstance(node.op, ast.Pow) and isinstance(a, int) and isinstance(b, int):
            if b > 0 and abs(a) > 1 and b * math.log2(abs(a)) > MAX_INT_BITS:
                raise Refused(f"{a} ** {b} is too large a number for tidx (more than "
                              f"{MAX_INT_BITS} bits)")
        try:
            result = _BINOPS[op](a, b)
        except (ZeroDivisionError, OverflowError) as exc:
            raise torch_error(type(exc), str(exc)) from None
        if isinstance(result, int) and result.bit_length() > MAX_INT_BITS:
            raise Refused(f"an integer of {result.bit_length()} bits is too large for tidx")
        return result


    # -- the allow-list, over this namespace's types ------------------------------------
    def type_name(self, obj: Any) -> str:
        return "Tensor" if isinstance(obj, self.torch.tensor) else type(obj).__name__

    def _number(self, value: Any, op: str) -> int | float:
        if isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, self.torch.tensor):
            raise Refused(f"tensor arithmetic ({op}) is not supported yet")
        raise Refused(f"operator {op} needs numbers here (got {self.type_name(value)})")

    def _may_call(self, fn: Any) -> bool:
        if id(fn) in self._allowed:
            return True
        owner = getattr(fn, "__self__", None)
        name = getattr(fn, "__name__", "")
        if isinstance(owner, self.torch.tensor):
            return name in TENSOR_METHODS
        if isinstance(owner, self.torch.storage):
            return name in STORAGE_METHODS
        return False

    def resolve_attribute(self, obj: Any, attr: str) -> Any:
        """The only way an attribute resolves: through the allow-list tables."""
        if isinstance(obj, Namespace):
            if attr in obj.functions:
                return obj.functions[attr]
            if attr in obj.constants:
                return obj.constants[attr]
            raise Refused(f"torch.{attr} is not available in tidx (available: "
                          f"{', '.join(sorted(obj.functions))} and the dtypes)")
        if obj is PYPTO:
            if attr in PYPTO_FUNCTIONS:
                return PYPTO_FUNCTIONS[attr]
            if attr in PYPTO_CONSTANTS:
                return PYPTO_CONSTANTS[attr]
            raise Refused(f"pypto.{attr} is not available in tidx (available: "
                          f"{', '.join(sorted(PYPTO_FUNCTIONS))} and the DT_* types)")
        if isinstance(obj, self.torch.tensor):
            if attr in TENSOR_METHODS:
                return getattr(obj, attr)
            raise Refused(f"Tensor.{attr} is not available in tidx")
        if isinstance(obj, self.torch.storage) and attr in STORAGE_METHODS:
            return getattr(obj, attr)
        if isinstance(obj, self.torch.dtype) and attr in ("itemsize", "is_floating_point",
                                                          "is_signed"):
            return getattr(obj, attr)
        if isinstance(obj, tuple) and attr in (obj._fields if isinstance(obj, StructSeq)
                                               else getattr(type(obj), "__match_args__", ())):
            # torch.return_types.X (tidx's, or torch's own under --verify): a named
            # tuple's fields (sort(...).values)
            return getattr(obj, attr)
        raise Refused(f"attribute '{attr}' of {self.type_name(obj)} is not available in tidx")


_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "Gt": lambda a, b: a > b, "GtE": lambda a, b: a >= b, "Lt": lambda a, b: a < b,
    "LtE": lambda a, b: a <= b, "Eq": lambda a, b: a == b, "NotEq": lambda a, b: a != b,
}
_REFLECT = {"Gt": "Lt", "GtE": "LtE", "Lt": "Gt", "LtE": "GtE", "Eq": "Eq", "NotEq": "NotEq"}
#: Tensor operators the engine has, by AST operator name.
#: Python's operators on tensors (C functions, so a TypeError of the operator protocol
#: itself is raised right where it is called), their reflected methods and symbols.
_TENSOR_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "Add": operator.add, "Sub": operator.sub, "Mult": operator.mul,
    "Div": operator.truediv, "BitAnd": operator.and_, "BitOr": operator.or_,
}
_REFLECTED = {"Add": "__radd__", "Sub": "__rsub__", "Mult": "__rmul__", "Div": "__rtruediv__",
              "BitAnd": "__rand__", "BitOr": "__ror__"}
_SYMBOLS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "BitAnd": "&", "BitOr": "|"}

_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "Add": lambda a, b: a + b, "Sub": lambda a, b: a - b, "Mult": lambda a, b: a * b,
    "Div": lambda a, b: a / b, "FloorDiv": lambda a, b: a // b, "Mod": lambda a, b: a % b,
    "Pow": lambda a, b: a ** b, "BitAnd": lambda a, b: a & b, "BitOr": lambda a, b: a | b,
}


#: Longest list ``[1] * n`` or ``a + b`` may build (shapes and index lists are short).
MAX_SEQUENCE = 10_000


def _sequence_op(op: str, left: Any, right: Any, size: type = Size) -> Any:
    """``[1] * k`` and ``prefix + [3]``, as arange_at_dim in seed 004 writes them."""
    if op == "Add":
        if isinstance(left, size) or (isinstance(right, size) and isinstance(left, tuple)):
            result = left + right       # torch.Size's own concatenation (and its errors)
        elif not isinstance(left, (list, tuple)):
            # int + tuple: the int has no __add__ for it, the tuple no __radd__
            raise torch_error(TypeError, f"unsupported operand type(s) for +: "
                                         f"'{tp_name(left)}' and '{tp_name(right)}'")
        elif type(left) is not type(right):
            raise torch_error(TypeError, f"can only concatenate {tp_name(left)} (not "
                                         f"\"{tp_name(right)}\") to {tp_name(left)}")
        else:
            result = left + right
    else:
        seq, n = (left, right) if isinstance(left, (list, tuple)) else (right, left)
        if not isinstance(n, int):      # bools are ints here, as in Python: [1] * True
            raise torch_error(TypeError, f"can't multiply sequence by non-int of type "
                                         f"'{tp_name(n)}'")
        if len(seq) * max(n, 0) > MAX_SEQUENCE:
            raise Refused(f"a list of {len(seq) * n} elements is longer than tidx builds "
                          f"({MAX_SEQUENCE})")
        result = seq * n
    if len(result) > MAX_SEQUENCE:
        raise Refused(f"a list of {len(result)} elements is longer than tidx builds "
                      f"({MAX_SEQUENCE})")
    return result
