"""Run PyTorch-syntax statements on the engine: parsed with ``ast``, never ``eval``.

The evaluator walks the syntax tree itself over an allow-list
(:mod:`engine.interpreter.statements` checks it before anything runs): names, number,
bool, None, Ellipsis and string literals, lists, tuples, slices, subscripts, assignment
to names and subscripts and tuple unpacking (``a, *rest = t``: a tensor unpacks through
its own ``__iter__``, i.e. ``unbind``), augmented assignment (``t += 1`` is the tensor's
``__iadd__``, in place, as in Python), calls of known ``torch.*`` functions and tensor
methods (with keyword arguments), Python's operators (a tensor answers through its own
special methods), ``is``/``in``, ``and``/``or``, one-``for`` list comprehensions for
index lists, ``import torch`` and the builtins of :mod:`engine.interpreter.builtins`.
Everything else is refused with one clear line (:class:`~engine.core.errors.Refused`).
Attribute access resolves only through the tables below: no dunder, no ``getattr`` on
user-chosen names, no other builtins.
"""

from __future__ import annotations

import ast
import math
import operator
from typing import Any, Callable

from tracer import recorder

from engine.core import dtypes as D
from engine.binding.functions import FUNCTIONS
from engine.binding import legacy_ctor, linalg, torch_device
from engine.binding.autograd_meta import NODE_ATTRIBUTES, is_graph_node, node_attribute
from engine.binding.methods import PUBLIC as TENSOR_PUBLIC
from engine.binding import options as P
from engine.core.context import current
from engine.core.device import Size
from engine.core.errors import Refused, is_torch_error, torch_error, tp_name, unknown_name
from engine.interpreter import builtins, lists, pyclasses
from engine.interpreter.pymath import PYPTO, TORCH_NN, Module, autograd_tables, imported
from engine.interpreter import pynumpy
from engine.interpreter.pyoperators import COMPARE, NO_INPLACE, OPERATORS, REFLECT
from engine.interpreter.control import Control
from engine.interpreter.expressions import Expressions
from engine.interpreter.functions import Functions, UserFunction
from engine.interpreter.formatting import Formatter
from engine.interpreter import python_memory as M
from engine.interpreter.defaults import BY_NAME
from engine.interpreter.sequences import MAX_SEQUENCE, sequence_op, setattr_checked, \
    unpack_items
from engine.interpreter.statements import MAX_INT_BITS, Statement, root_name
from engine.interpreter.described import ATOMS, describe
from engine.binding.tensor import Tensor, UntypedStorage
from engine.binding.typed_storage import TypedStorage
from engine.binding.return_types import StructSeq


class Namespace:
    """What the name ``torch`` evaluates to: attributes come only from its two tables.

    The engine's namespace is the default; ``engine.interpreter.verify`` builds one over real
    PyTorch, so the same allow-listed statements can run there too.
    """

    def __init__(self, label: str, functions: dict[str, Callable[..., Any]],
                 constants: dict[str, Any], *, tensor: type[Any],
                 storage: tuple[type[Any], ...], size: type[Any], dtype: type[Any],
                 constructors: dict[str, tuple[Callable[..., Any], Callable[[Any], bool]]]
                 | None = None) -> None:
        self.label, self.functions, self.constants = label, functions, constants
        #: the classes a statement may call: torch.Tensor(...) (the legacy constructor),
        #: torch.Size(...), and the legacy types (torch.FloatTensor ...), each with its
        #: isinstance test (a Python class's own for Tensor and Size)
        self.constructors = constructors or {}
        #: the library's own types, which the allow-lists apply to
        self.tensor, self.storage, self.size, self.dtype = tensor, storage, size, dtype
        #: callables a statement may call (by identity: builtins take no attributes)
        self.callables = frozenset(id(c) for c in functions.values())

    def __repr__(self) -> str:
        return f"<module 'torch' ({self.label})>"



#: The torch functions a statement may call: every generated and hand-written binding.
TORCH_FUNCTIONS: dict[str, Callable[..., Any]] = dict(FUNCTIONS)
TORCH_FUNCTIONS["device"] = torch_device.torch_device
#: Constants ``torch.X`` may name (dtypes and memory formats).
CONSTANT_NAMES = tuple(d.name for d in D.ALL) + D.ALIASES + (
    "channels_last", "contiguous_format", "preserve_format")
TORCH_CONSTANTS: dict[str, Any] = {n: D.from_name(n) for n in CONSTANT_NAMES[:-3]} | {
    "channels_last": P.channels_last, "contiguous_format": P.contiguous_format,
    "preserve_format": P.preserve_format}
#: ``torch.random``: the generator's module (torch/random.py), as a tutorial seeds it
TORCH_CONSTANTS["random"] = Module("torch.random", "<module 'torch.random' (tidx engine)>",
                                   {"manual_seed": FUNCTIONS["manual_seed"]}, {})
TORCH_CONSTANTS["nn"] = TORCH_NN     # torch.nn.functional (pymath.py)
#: ``torch.autograd``: its two functions (engine/binding/backward.py)
TORCH_CONSTANTS["autograd"] = Module("torch.autograd", "<module 'torch.autograd' (tidx engine)>",
                                     load=autograd_tables)
TORCH_CONSTANTS["linalg"] = Module("torch.linalg", "<module 'torch.linalg' (tidx engine)>",
                                   linalg.FUNCTIONS, {})     # engine/binding/linalg.py
TORCH = Namespace("tidx engine", TORCH_FUNCTIONS, TORCH_CONSTANTS, tensor=Tensor,
                  storage=(UntypedStorage, TypedStorage), size=Size, dtype=D.dtype,
                  constructors=legacy_ctor.constructors())

#: The tensor methods and attributes a statement may use: those the binding installs.
TENSOR_METHODS = TENSOR_PUBLIC
STORAGE_METHODS = frozenset({"nbytes", "data_ptr", "size", "device"})
#: ``tensor.storage()``'s (engine/binding/typed_storage.py)
TYPED_STORAGE_METHODS = STORAGE_METHODS | {"dtype", "element_size", "untyped"}


class Evaluator(Expressions, Control, Functions):
    """Holds the names of one session and runs statements against the engine."""

    def __init__(self, on_default: Callable[[Any, str], None] | None = None,
                 torch: Namespace = TORCH, numpy: pynumpy.Library = pynumpy.ENGINE) -> None:
        #: called with (value, name) when a default name is first made
        self.on_default = on_default
        self.torch = torch
        self.names: dict[str, Any] = {}
        self.defaults_used: list[str] = []
        self._printed: list[str] | None = None
        #: the names the running statement writes into (a list's append writes into it)
        self._assigned: list[str] | None = None
        #: the names of the comprehensions being evaluated, innermost last
        self._scopes: list[dict[str, Any]] = []
        #: comprehension steps taken by the statement running (bounded, nested ones too)
        self._comprehension_steps = 0
        #: the Python values the names keep, in the run's memory budget
        self._kept = M.KeptValues()

        def on_print(text: str) -> None:
            if self._printed is not None:
                self._printed.append(text)

        #: the stand-ins type(x) gives and isinstance takes; id's numbering
        self.classes = pyclasses.Classes(torch.tensor, torch.size, torch.dtype)
        # torch.Tensor(2, 3), torch.Size([2]), torch.FloatTensor([1, 2]): callable classes
        called = [self.classes.builtin(name, ctor) if name in ("Tensor", "Size") else
                  self.classes.legacy_type(f"torch.{name}", ctor, check)
                  for name, (ctor, check) in torch.constructors.items()]
        self.formatter = Formatter(torch.tensor)
        #: what ``import numpy`` binds and the arrays it makes (real numpy's under --verify)
        self.numpy = numpy
        self.builtins = builtins.make(torch.tensor, torch.size, on_print, self.classes,
                                      self.formatter, numpy.arrays)
        #: what a statement may call; a module's functions (pypto, math, torch.random)
        #: and torch.cuda's join once a statement reads them (resolve_attribute, the only
        #: way to them)
        self._allowed = ({id(fn) for fn in self.builtins.values()} | torch.callables
                         | {id(cls) for cls in called})
        self._cuda: Any = None

    # -- names -----------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        for scope in reversed(self._scopes):     # a comprehension's own names first
            if name in scope:
                return scope[name]
        if name in self.names:
            return self.names[name]
        if name == "torch":
            return self.torch
        if name == "pypto":
            return PYPTO
        if name in self.builtins:
            return self.builtins[name]
        if name == "Ellipsis":      # the builtin constant `...` spells
            return Ellipsis
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
        self._printed, self._assigned = st.printed, st.assigned
        self._comprehension_steps = 0
        current().budget.begin_statement()
        try:
            self._run(st, node)
            self._check_shown(st)
        finally:
            self._printed = self._assigned = None
            # what the statement built goes back; what the names keep is charged
            self._kept.settle(self.names, st.assigned)

    def _run(self, st: Statement, node: ast.stmt) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):  # statements.IMPORTS
            if isinstance(node, ast.Import) and node.names[0].name == "numpy":
                self.names[node.names[0].asname or "numpy"] = self.numpy.module
                return
            name, value = imported(node, self.torch, self.resolve_attribute)
            self.names[name] = value
            return
        if isinstance(node, (ast.Pass, ast.Break, ast.Continue)):
            return                      # break/continue: control.py acts on them
        if isinstance(node, ast.FunctionDef):   # def: functions.py
            self.define(node, st)
            return
        if st.header is not None:       # for/while/if: its header (control.py)
            self.run_header(st, node)
            return
        if isinstance(node, ast.Expr):
            st.value = self._not_a_function(self.eval_expr(node.value), node.value)
            return
        if isinstance(node, ast.AugAssign):
            self.augmented(node, st)
            return
        assert isinstance(node, ast.Assign)
        value = self.eval_expr(node.value)     # a function may be named: f = torch.ones
        for target in node.targets:
            self.assign(target, value, st)
        st.value = value if any(not isinstance(t, (ast.Subscript, ast.Attribute))
                                for t in node.targets) else None

    def _check_shown(self, st: Statement) -> None:
        """The statement's result and the values it bound are shown as their ``repr``."""
        M.check_shown([("its result", st.value)] if not st.assigned else
                      [(n, self.names[n]) for n in dict.fromkeys(st.assigned)
                       if n in self.names])

    def _not_a_function(self, value: Any, node: ast.expr) -> Any:
        """A function itself (``torch.zeros``, ``t.sum`` without parentheses) is no value
        tidx draws: Python would print ``<built-in method ...>`` at an address."""
        if callable(value) and not isinstance(value, (self.torch.tensor, type)):
            text = ast.unparse(node)
            raise Refused(f"{text} is a function; call it to run it, e.g. {text}(...)")
        return value

    def assign(self, target: ast.expr, value: Any, st: Statement) -> None:
        """``x = v``, ``t[i] = v``, and unpacking ``a, *rest = v`` into those."""
        if isinstance(target, ast.Name):
            if target.id == "torch":
                raise Refused("cannot rebind the name 'torch'")
            self.names[target.id] = value
            st.assigned.append(target.id)
            st.bound.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element, item in zip(target.elts, self.unpack(value, target.elts)):
                self.assign(element.value if isinstance(element, ast.Starred) else element,
                            item, st)
        elif isinstance(target, ast.Attribute):
            # ``x.requires_grad = True``: the one attribute statements.py lets be set
            setattr_checked(self.eval_expr(target.value), target.attr, value)
            st.assigned.extend(n for n in [root_name(target.value)] if n is not None)
        else:
            assert isinstance(target, ast.Subscript)    # statements.py allows no other target
            self.assign_subscript(target, value)
            root = root_name(target)
            if root is not None:
                st.assigned.append(root)

    def unpack(self, value: Any, targets: list[ast.expr]) -> list[Any]:
        """Python's UNPACK_SEQUENCE / UNPACK_EX, with its errors: a tensor unpacks through
        its own ``__iter__`` (``t.unbind(0)``, traced), a starred target takes a list."""
        items = self.iterate(value, "cannot unpack non-iterable {} object")
        star = next((i for i, t in enumerate(targets) if isinstance(t, ast.Starred)), None)
        return unpack_items(items, len(targets), star)

    def iterate(self, value: Any, not_iterable: str) -> list[Any]:
        """The items Python's ``iter(value)`` gives, for the values a statement holds."""
        if isinstance(value, pyclasses.OneShot):
            return value.take()         # zip(...), enumerate(...): made and bounded already
        if isinstance(value, (self.torch.tensor, *self.numpy.arrays)):
            return list(iter(value))   # type: ignore[call-overload]  # its own __iter__
        if isinstance(value, (list, tuple, str, range, self.torch.size)):
            if len(value) > MAX_SEQUENCE:
                raise Refused(f"iterating over {len(value)} items is more than tidx does "
                              f"({MAX_SEQUENCE})")
            current().budget.build(M.items_bytes(value),
                                   f"the {len(value)} items of a {self.type_name(value)}")
            return list(value)
        raise torch_error(TypeError, not_iterable.format(tp_name(value)))

    def augmented(self, node: ast.AugAssign, st: Statement) -> None:
        """``x += v`` and ``t[i] += v`` in Python's order: read the target (``t[i]`` is a
        getitem), evaluate ``v``, combine in place (``Tensor.__iadd__`` is ``add_``), then
        store back (a setitem for a subscript, as Python does: torch copies the view into
        itself)."""
        op = type(node.op).__name__
        target = node.target
        if isinstance(target, ast.Name):
            current = self.lookup(target.id)
            result = self.inplace(op, current, self.eval_expr(node.value))
            self.names[target.id] = result
            st.assigned.append(target.id)
            st.bound.append(target.id)
            st.value = result
            return
        assert isinstance(target, ast.Subscript)
        obj, index = self.eval_expr(target.value), self.eval_expr(target.slice)
        current = self.subscript(obj, index)
        describe(current, target)
        result = self.inplace(op, current, self.eval_expr(node.value))
        self.store_subscript(obj, index, result)
        root = root_name(target)
        if root is not None:
            st.assigned.append(root)

    def inplace(self, op: str, left: Any, right: Any) -> Any:
        """Python's in-place operator: a tensor's own ``__iadd__`` (in place, as torch's);
        for numbers and tuples a new value; a list is extended in place."""
        spec = OPERATORS[op]
        if isinstance(left, self.numpy.arrays):     # numpy's a += 1 writes in place
            return pynumpy.binop(getattr(operator, spec.inplace_fn), left, right, self.torch)
        if isinstance(left, self.torch.tensor):
            if op in NO_INPLACE:
                # torch.Tensor defines no __imatmul__: Python runs ``x = x @ v``
                return self.binop(op, left, right, augmented=True)
            if not hasattr(type(left), spec.inplace):
                raise Refused(f"tensor operator {spec.symbol}= (Tensor.{spec.inplace}) is "
                              "not supported yet")
            return self._call_operator(getattr(operator, spec.inplace_fn), left, right, op)
        if isinstance(left, list) and op in ("Add", "Mult"):
            grown = sequence_op(op, left, right if op == "Mult" or isinstance(
                right, list) else list(self.iterate(right, "'{}' object is not iterable")),
                self.torch.size)
            left[:] = grown             # list.__iadd__ / __imul__: the same list, longer
            return left
        return self.binop(op, left, right, augmented=True)
    def assign_subscript(self, target: ast.Subscript, value: Any) -> None:
        obj = self.eval_expr(target.value)
        index = self.eval_expr(target.slice)
        self.store_subscript(obj, index, value)

    def store_subscript(self, obj: Any, index: Any, value: Any) -> None:
        if isinstance(obj, list) and isinstance(index, int) and not isinstance(index, bool):
            if not -len(obj) <= index < len(obj):   # an index list, edited in place
                raise torch_error(IndexError, "list assignment index out of range")
            obj[index] = value
            return
        if isinstance(obj, self.numpy.arrays):
            return pynumpy.setitem(obj, index, value)
        if not isinstance(obj, self.torch.tensor):
            raise Refused(f"only tensors support item assignment here (got "
                          f"{self.type_name(obj)})")
        obj[index] = value

    # -- expressions -----------------------------------------------------------------
    def eval_expr(self, node: ast.AST) -> Any:
        method = getattr(self, "_e_" + type(node).__name__)
        value = method(node)
        if type(value) is Tensor and not isinstance(node, ATOMS):
            describe(value, node)
        return value

    def _e_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _e_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id)

    def _e_List(self, node: ast.List) -> list:
        current().budget.build(M.list_bytes(len(node.elts)), "a list")
        return self._elements(node.elts)

    def _e_Tuple(self, node: ast.Tuple) -> tuple:
        current().budget.build(M.TUPLE_BYTES + M.SLOT_BYTES * len(node.elts), "a tuple")
        return tuple(self._elements(node.elts))

    def _elements(self, elts: list[ast.expr]) -> list:
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                seq = self.eval_expr(e.value)
                if not isinstance(seq, (list, tuple)):
                    raise Refused(f"* unpacks lists and tuples only (got {self.type_name(seq)})")
                current().budget.build(M.SLOT_BYTES * len(seq),
                                       f"unpacking {len(seq)} items with *")
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
        return self.subscript(self.eval_expr(node.value), self.eval_expr(node.slice))

    def subscript(self, obj: Any, index: Any) -> Any:
        if isinstance(obj, self.numpy.arrays):
            return pynumpy.getitem(obj, index)
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
        # (a ** mapping, the keyword without a name, is refused by statements.py)
        kwargs = {k.arg: self.eval_expr(k.value) for k in node.keywords if k.arg is not None}
        try:
            result = fn(*args, **kwargs)
        except TypeError as exc:
            tb = exc.__traceback__
            if is_torch_error(exc) or tb is None or tb.tb_next is not None:
                raise       # PyTorch's own error, or one inside tidx (an internal error)
            # Raised while Python bound the arguments, before fn's body ran: the call's
            # own signature error (``torch.manual_seed()``), as Python reports it.
            raise torch_error(TypeError, str(exc)) from None
        lists.mark_changed(fn, node.func, self._assigned)     # y.append(v) writes into y
        return result

    def _e_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.eval_expr(node.operand)
        if isinstance(value, self.numpy.arrays):
            return pynumpy.unary(type(node.op).__name__, value)
        if isinstance(value, self.torch.tensor) and isinstance(node.op, (ast.USub, ast.Invert)):
            return -value if isinstance(node.op, ast.USub) else ~value
        if isinstance(node.op, ast.Not):
            if isinstance(value, self.torch.tensor):
                return not value          # Tensor.__bool__: is_nonzero, as Python asks
            return not self._number(value, "not")
        if isinstance(node.op, ast.Invert):
            value = self._number(value, "~")
            if not isinstance(value, int):      # (a bool is an int)
                raise torch_error(TypeError, f"bad operand type for unary ~: '{tp_name(value)}'")
            return ~value
        value = self._number(value, "unary " + type(node.op).__name__)
        return -value if isinstance(node.op, ast.USub) else +value

    def _call_operator(self, fn: Callable[[Any, Any], Any], left: Any, right: Any,
                       op: str) -> Any:
        try:
            return fn(left, right)
        except TypeError as exc:
            tb = exc.__traceback__
            if is_torch_error(exc) or tb is None or tb.tb_next is not None:
                raise       # PyTorch's own error, or one inside tidx (an internal error)
            # Python's own answer when neither operand takes the other (t + None)
            message = str(exc)
            if message.startswith("unsupported operand"):
                symbol = OPERATORS[op].symbol + ("=" if "=" in message.split(":")[0] else "")
                message = (f"unsupported operand type(s) for {symbol}: "
                           f"'{tp_name(left)}' and '{tp_name(right)}'")
            raise torch_error(TypeError, message) from None

    def _tensor_binop(self, op: str, left: Any, right: Any) -> Any:
        spec = OPERATORS[op]
        if isinstance(left, self.torch.tensor):
            if not hasattr(type(left), spec.dunder):
                raise Refused(f"tensor operator {spec.symbol} (Tensor.{spec.dunder}) is not "
                              "supported yet")
        elif not hasattr(type(right), spec.reflected):
            raise Refused(f"a number {spec.symbol} a tensor (Tensor.{spec.reflected}) is not "
                          "supported yet")
        elif op == "Mod" and isinstance(left, str):
            # str.__mod__ formats the tensor: '%3000000000s' % t is a 3 GB string
            current().budget.build(M.format_bytes(left, right),
                                   f"formatting {M.clip(left)} % a tensor")
        return self._call_operator(getattr(operator, spec.fn), left, right, op)

    def _e_Compare(self, node: ast.Compare) -> Any:
        if len(node.ops) != 1:
            raise Refused(f"line {node.lineno}: chained comparisons are not supported")
        left, right = self.eval_expr(node.left), self.eval_expr(node.comparators[0])
        op = type(node.ops[0]).__name__
        if op in ("Is", "IsNot"):       # identity: `v is t` after a view or a copy
            return (left is right) == (op == "Is")
        if op in ("In", "NotIn"):
            return self.contains(right, left) == (op == "In")
        if isinstance(left, self.numpy.arrays) or isinstance(right, self.numpy.arrays):
            return pynumpy.binop(COMPARE[op], left, right, self.torch)
        if not isinstance(left, self.torch.tensor) and not isinstance(right, self.torch.tensor):
            if op in ("Eq", "NotEq") and not (isinstance(left, (bool, int, float)) and
                                              isinstance(right, (bool, int, float))):
                return COMPARE[op](left, right)    # type(x) == int, s == 'a': Python's
            try:                # 1j < 2: Python's own TypeError
                return COMPARE[op](self._number(left, op), self._number(right, op))
            except TypeError as exc:
                raise torch_error(TypeError, str(exc)) from None
        if not isinstance(left, self.torch.tensor):  # 4 < t is t > 4, as Python reflects it
            left, right, op = right, left, REFLECT[op]
        if not isinstance(right, (self.torch.tensor, bool, int, float, complex)):
            raise Refused(f"cannot compare a tensor with {self.type_name(right)}")
        return COMPARE[op](left, right)

    def contains(self, container: Any, item: Any) -> bool:
        """``x in c``: a tensor answers with its own ``__contains__`` (torch/_tensor.py);
        lists, tuples, sizes, ranges and strings as Python does."""
        if isinstance(container, self.torch.tensor):
            if not hasattr(type(container), "__contains__"):
                raise Refused("`in` on a tensor (Tensor.__contains__) is not supported yet")
            return operator.contains(container, item)
        if isinstance(container, (list, tuple, range, self.torch.size)):
            return item in container
        if isinstance(container, self.numpy.arrays):        # numpy's (a == item).any()
            return pynumpy.binop(lambda c, i: i in c, container, item, self.torch)
        if isinstance(container, str):
            if not isinstance(item, str):
                raise torch_error(TypeError, f"'in <string>' requires string as left operand, "
                                             f"not {tp_name(item)}")
            return item in container
        raise torch_error(TypeError, f"argument of type '{tp_name(container)}' is not iterable")

    def _e_BinOp(self, node: ast.BinOp) -> Any:
        left, right = self.eval_expr(node.left), self.eval_expr(node.right)
        return self.binop(type(node.op).__name__, left, right)

    def binop(self, op: str, left: Any, right: Any, *, augmented: bool = False) -> Any:
        if isinstance(left, self.numpy.arrays) or isinstance(right, self.numpy.arrays):
            return pynumpy.binop(getattr(operator, OPERATORS[op].fn), left, right, self.torch)
        if isinstance(left, self.torch.tensor) or isinstance(right, self.torch.tensor):
            return self._tensor_binop(op, left, right)
        if op in ("Mult", "Add") and (isinstance(left, (list, tuple)) or
                                      isinstance(right, (list, tuple))):
            return sequence_op(op, left, right, self.torch.size)
        numbers = (bool, int, float, complex)
        if not (isinstance(left, (str, *numbers)) and isinstance(right, (str, *numbers))):
            # None + 1, [1] - 1: Python's own TypeError
            symbol = OPERATORS[op].symbol + ("=" if augmented else "")
            raise torch_error(TypeError, f"unsupported operand type(s) for {symbol}: "
                                         f"'{tp_name(left)}' and '{tp_name(right)}'")
        a, b = self._number(left, op), self._number(right, op)
        if op == "Pow" and isinstance(a, int) and isinstance(b, int):
            if b > 0 and abs(a) > 1 and b * math.log2(abs(a)) > MAX_INT_BITS:
                raise Refused(f"{a} ** {b} is too large a number for tidx (more than "
                              f"{MAX_INT_BITS} bits)")
        if op == "LShift" and isinstance(b, int) and b > MAX_INT_BITS:
            raise Refused(f"{a} << {b} is too large a number for tidx (more than "
                          f"{MAX_INT_BITS} bits)")
        try:
            result = getattr(operator, OPERATORS[op].fn)(a, b)
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            raise torch_error(type(exc), str(exc)) from None
        except TypeError as exc:        # 1.5 & 2, 2 @ 3: Python's own message
            raise torch_error(TypeError, str(exc)) from None
        if isinstance(result, int) and result.bit_length() > MAX_INT_BITS:
            raise Refused(f"an integer of {result.bit_length()} bits is too large for tidx")
        return result

    def _e_ListComp(self, node: ast.ListComp) -> list:
        """``[i * 2 for i in range(3) if i != 1]``: one ``for``; its names live only inside
        (a scope pushed on top of the session's names, as Python 3 scopes them)."""
        gen = node.generators[0]
        items = self.iterate(self.eval_expr(gen.iter), "'{}' object is not iterable")
        current().budget.build(M.list_bytes(len(items)), "a list comprehension")
        out: list[Any] = []
        scope: dict[str, Any] = {}
        self._scopes.append(scope)
        try:
            for item in items:
                # nested comprehensions multiply: one budget for the whole statement
                self._comprehension_steps += 1
                if self._comprehension_steps > MAX_SEQUENCE:
                    raise Refused(f"comprehensions in one statement step more than "
                                  f"{MAX_SEQUENCE} times; tidx stops there")
                self._bind_local(gen.target, item, scope)
                if all(self._truth(self.eval_expr(cond)) for cond in gen.ifs):
                    out.append(self.eval_expr(node.elt))
        finally:
            self._scopes.pop()
        return out

    def _bind_local(self, target: ast.expr, value: Any, scope: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            scope[target.id] = value
            return
        assert isinstance(target, ast.Tuple)
        for element, item in zip(target.elts, self.unpack(value, target.elts)):
            self._bind_local(element, item, scope)

    def _e_BoolOp(self, node: ast.BoolOp) -> Any:
        """``a and b`` / ``a or b``: Python's short circuit, each operand's truth asked
        once (a tensor's is Tensor.__bool__, traced)."""
        value = self.eval_expr(node.values[0])
        for operand in node.values[1:]:
            if self._truth(value) == isinstance(node.op, ast.Or):
                return value
            value = self.eval_expr(operand)
        return value

    def _truth(self, value: Any) -> bool:
        return bool(value)              # a tensor: Tensor.__bool__ (is_nonzero), traced

    # -- the allow-list, over this namespace's types ------------------------------------
    def type_name(self, obj: Any) -> str:
        return "Tensor" if isinstance(obj, self.torch.tensor) else type(obj).__name__

    def _number(self, value: Any, op: str) -> int | float | complex:
        if isinstance(value, (bool, int, float, complex)):
            return value
        if isinstance(value, self.torch.tensor):
            raise Refused(f"tensor arithmetic ({op}) is not supported yet")
        raise Refused(f"operator {op} needs numbers here (got {self.type_name(value)})")

    def _may_call(self, fn: Any) -> bool:
        if id(fn) in self._allowed or isinstance(fn, UserFunction):
            return True
        owner = getattr(fn, "__self__", None)
        name = getattr(fn, "__name__", "")
        if isinstance(owner, self.torch.tensor):
            return name in TENSOR_METHODS
        if isinstance(owner, self.torch.storage):
            return name in _storage_methods(owner)
        if isinstance(owner, list):
            return name in lists.METHODS
        if isinstance(owner, complex):
            return name == "conjugate"  # Python's own, pure
        if isinstance(owner, self.numpy.arrays):
            return name in self.numpy.methods
        return is_graph_node(owner) and name in ("name", "remove")

    def resolve_attribute(self, obj: Any, attr: str) -> Any:
        """The only way an attribute resolves: through the allow-list tables."""
        if isinstance(obj, Namespace):
            if attr == "cuda" and obj is TORCH:
                if self._cuda is None:      # imported here, with the GPU's allocator
                    from engine.binding import torch_cuda
                    self._cuda = torch_cuda
                    self._allowed |= {id(fn) for fn in torch_cuda.FUNCTIONS.values()}
                return self._cuda.CUDA       # the simulated GPU's runtime
            if attr in obj.functions:
                return obj.functions[attr]
            if attr in obj.constants:
                return obj.constants[attr]
            if attr in ("Tensor", "Size", "dtype") or attr in obj.constructors:
                # the classes, as type(x) gives them; the legacy tensor types
                return self.classes.by_name[attr]
            raise Refused(unknown_name("torch", attr, obj.functions, "torch functions and "
                                                                  "the dtypes"))
        if self._cuda is not None and obj is self._cuda.CUDA:
            if attr in self._cuda.FUNCTIONS:
                return self._cuda.FUNCTIONS[attr]
            raise Refused(unknown_name("torch.cuda", attr, self._cuda.FUNCTIONS,
                                       "torch.cuda functions"))
        if isinstance(obj, Module):         # pypto, math, torch.random
            if attr in obj.functions or attr in obj.constants:
                self._allowed |= {id(fn) for fn in obj.functions.values()}
                return obj.attribute(attr)
            raise Refused(unknown_name(obj.name, attr, obj.functions,
                                       f"{obj.name} functions and constants"))
        if isinstance(obj, (*self.numpy.arrays, pynumpy.np.dtype)):
            return pynumpy.attribute(self.numpy, obj, attr)
        if isinstance(obj, self.torch.tensor):
            if attr in TENSOR_METHODS:
                return getattr(obj, attr)
            raise Refused(unknown_name("Tensor", attr, TENSOR_METHODS, "Tensor methods"))
        if isinstance(obj, self.torch.storage) and attr in _storage_methods(obj):
            return getattr(obj, attr)
        if isinstance(obj, self.torch.dtype) and attr in ("itemsize", "is_floating_point",
                                                          "is_signed", "is_complex"):
            return getattr(obj, attr)
        if isinstance(obj, tuple) and attr in (obj._fields if isinstance(obj, StructSeq)
                                               else getattr(type(obj), "__match_args__", ())):
            # torch.return_types.X (tidx's, or torch's own under --verify): a named
            # tuple's fields (sort(...).values)
            return getattr(obj, attr)
        if isinstance(obj, complex) and attr in ("real", "imag", "conjugate"):
            return getattr(obj, attr)       # a Python complex's parts, as Python has them
        if isinstance(obj, list) and attr in lists.METHODS:
            return lists.method(obj, attr, self.builtins["list"], self.builtins["sorted"])
        if is_graph_node(obj) and attr in NODE_ATTRIBUTES and hasattr(obj, attr):
            return node_attribute(obj, attr)       # y.grad_fn.next_functions
        if obj is None:
            # x.grad.zero_() before any backward (x.grad is None): Python's own error
            raise torch_error(AttributeError, f"'NoneType' object has no attribute '{attr}'")
        raise Refused(f"attribute '{attr}' of {self.type_name(obj)} is not available in tidx")


def _storage_methods(storage: Any) -> frozenset[str]:
    """What a statement may read of a storage: a TypedStorage has a dtype (tidx's or, under
    --verify, torch's own)."""
    typed = type(storage).__name__ == "TypedStorage"
    return TYPED_STORAGE_METHODS if typed else STORAGE_METHODS
