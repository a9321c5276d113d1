"""Python's builtins as statements may call them: ``print``, ``len``, ``int``, ``float``,
``bool``, ``abs``, ``range``, ``list``, ``tuple``, ``type``, ``isinstance``, ``id``, and
those over iterables (:mod:`engine.interpreter.iterables`: ``max``, ``min``, ``sum``,
``sorted``, ``zip``, ``enumerate``, ``round``).  The classes among them (``int``,
``list``...) are :class:`~engine.interpreter.pyclasses.PyClass` stand-ins, what
``type(x)`` gives back.

They take the values a statement can hold (the session's tensors, numbers, strings,
None, lists, tuples, ``torch.Size``, dtypes) and answer as Python does.  A tensor
answers through its own special methods (``int(t)`` is ``Tensor.__int__``, so
``aten::item`` runs and is recorded); plain data gets Python's answer, and Python's
errors become the statement's own (exit 1, as the same line raises under real
PyTorch), worded with torch's type names (``'torch.Size'``, not ``'Size'``).
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core.context import current
from engine.core.errors import Refused, as_torch_error, torch_error, tp_name
from engine.interpreter import iterables
from engine.interpreter import python_memory as M
from engine.interpreter.formatting import Formatter
from engine.interpreter.pyclasses import Classes, OneShot, callable_repr

#: Builtins a statement cannot rebind (as tidx has always kept them).
FIXED = ("print", "len", "int", "float", "bool", "abs", "range", "list", "tuple")
#: The names statements may call without ``torch.``.  The later ones may be rebound, as
#: in Python (``sum = t.sum()``, ``id = 3`` are common in lessons).
NAMES = FIXED + ("type", "isinstance", "id", "format", "str", "repr", "complex") + \
    iterables.NAMES
#: The longest list ``list(...)``/``tuple(...)`` builds (index lists are short).
MAX_ITEMS = 10_000


def _no_keywords(name: str, kwargs: dict[str, Any]) -> None:
    if kwargs:
        raise Refused(f"{name}() keyword arguments are not supported")


def _at_most_one(name: str, args: tuple) -> None:
    """float(a, b) and bool(a, b) are Python's own TypeErrors; int(x, base) is valid
    Python that tidx does not take."""
    if len(args) > 1:
        if name == "int":
            if len(args) > 2:
                raise torch_error(TypeError, f"int() takes at most 2 arguments ({len(args)} "
                                             f"given)")
            raise Refused("int(x, base) is not supported")
        raise torch_error(TypeError, f"{name} expected at most 1 argument, got {len(args)}")


def _python(fn: Callable[[Any], Any], value: Any) -> Any:
    """Python's builtin on plain data: its ValueError/OverflowError is the statement's."""
    try:
        return fn(value)
    except (ValueError, OverflowError) as exc:
        raise torch_error(type(exc), str(exc)) from None


def make(tensor: type[Any], size: type[Any], on_print: Callable[[str], None],
         classes: Classes, formatter: Formatter,
         arrays: tuple[type, ...] = ()) -> dict[str, Callable]:
    """The builtins of one evaluator, over its namespace's tensor and Size types, its
    class stand-ins and numpy's array and scalar types (which answer through their own
    special methods, as a tensor does)."""
    numbers = (bool, int, float)

    def sized_array(x: Any) -> bool:
        """A numpy array (it has rows), not a numpy scalar."""
        return isinstance(x, arrays) and hasattr(type(x), "__len__")

    def shown(a: Any) -> str:
        """str(a), a function as Python prints it but at no address (a real one differs
        every run and tells where tidx's objects lie)."""
        if callable(a) and not isinstance(a, tensor):
            return callable_repr(a, lambda o: isinstance(o, tensor))
        return str(a)

    def print_(*args: Any, **kwargs: Any) -> None:
        _no_keywords("print", kwargs)
        # the text is built whole before it is printed: the run's budget is asked first
        current().budget.build(M.text_bytes(*args), "print(...)")
        text = " ".join(shown(a) for a in args)
        try:
            text.encode("utf-8")          # print('\ud800') fails in Python's own stdout
        except UnicodeEncodeError as exc:
            raise as_torch_error(exc) from None
        on_print(text)

    def len_(*args: Any, **kwargs: Any) -> int:
        obj: Any = iterables.one_argument("len", args, kwargs)
        if isinstance(obj, (tensor, list, tuple, size, str)) or sized_array(obj):
            return len(obj)
        if type(obj).__name__ in ("UntypedStorage", "TypedStorage"):
            return len(obj)     # bytes, or elements of its dtype (tidx's or torch's own)
        raise torch_error(TypeError, f"object of type '{tp_name(obj)}' has no len()")

    def number(cls: type, accepted: str) -> Callable[..., Any]:
        """int() and float(): a tensor through its own __int__/__float__ (item(), torch's
        errors), a number or string as Python converts it, anything else refused in
        CPython's words."""
        def convert(*args: Any, **kwargs: Any) -> Any:
            _no_keywords(cls.__name__, kwargs)
            _at_most_one(cls.__name__, args)
            if not args:
                return cls()
            x = args[0]
            if isinstance(x, tensor):
                return cls(x)
            if isinstance(x, (*numbers, str, *arrays)):
                return _python(cls, x)
            raise torch_error(TypeError, f"{cls.__name__}() argument must be {accepted}, "
                                         f"not '{tp_name(x)}'")
        return convert

    int_ = number(int, "a string, a bytes-like object or a real number")
    float_ = number(float, "a string or a real number")

    def complex_(*args: Any, **kwargs: Any) -> complex:
        """complex(real=0, imag=0) of numbers, or of one string; a tensor through
        Tensor.__complex__ (item(), traced) where the binding has it."""
        if set(kwargs) - {"real", "imag"}:
            raise torch_error(TypeError, f"complex() got an unexpected keyword argument "
                                         f"'{next(iter(set(kwargs) - {'real', 'imag'}))}'")
        parts = list(args)
        if len(parts) > 2:
            raise torch_error(TypeError, f"complex() takes at most 2 arguments "
                                         f"({len(parts) + len(kwargs)} given)")
        for x in parts + list(kwargs.values()):
            if isinstance(x, tensor):
                if not hasattr(type(x), "__complex__"):
                    raise Refused("complex() of a tensor (Tensor.__complex__) is not "
                                  "supported yet")
            elif not isinstance(x, (*numbers, complex, str)):
                raise torch_error(TypeError, f"complex() first argument must be a string or "
                                             f"a number, not '{tp_name(x)}'")
        try:
            return complex(*parts, **kwargs)
        except (ValueError, TypeError, OverflowError) as exc:
            raise torch_error(type(exc), str(exc)) from None

    def bool_(*args: Any, **kwargs: Any) -> bool:
        _no_keywords("bool", kwargs)
        _at_most_one("bool", args)
        return bool(args[0]) if args else False   # a tensor: Tensor.__bool__, is_nonzero

    def abs_(*args: Any, **kwargs: Any) -> Any:
        x = iterables.one_argument("abs", args, kwargs)
        if isinstance(x, tensor):
            if not hasattr(type(x), "__abs__"):
                raise Refused("abs() of a tensor (Tensor.__abs__) is not supported yet")
            return abs(x)               # Tensor.__abs__: torch.abs, traced
        if isinstance(x, (*numbers, complex, *arrays)):
            return _python(abs, x)
        raise torch_error(TypeError, f"bad operand type for abs(): '{tp_name(x)}'")

    def range_(*args: Any, **kwargs: Any) -> range:
        if kwargs:
            raise torch_error(TypeError, "range() takes no keyword arguments")
        if not 1 <= len(args) <= 3:
            raise torch_error(TypeError, f"range expected at {'least 1' if not args else 'most 3'}"
                                         f" argument{'s' if args else ''}, got {len(args)}")
        ints = []
        for a in args:
            if isinstance(a, (tensor, *arrays)):
                ints.append(_python(lambda v: v.__index__(), a))   # one integer element
            elif isinstance(a, int):
                ints.append(a)
            else:
                raise torch_error(TypeError, f"'{tp_name(a)}' object cannot be interpreted as "
                                             f"an integer")
        try:
            return range(*ints)
        except ValueError as exc:            # range(0, 5, 0)
            raise torch_error(ValueError, str(exc)) from None

    def sequence(cls: type) -> Callable[..., Any]:
        """list() and tuple(): a tensor's rows through its own __iter__ (unbind, traced)."""
        def build(*args: Any, **kwargs: Any) -> Any:
            _no_keywords(cls.__name__, kwargs)
            if len(args) > 1:
                raise torch_error(TypeError, f"{cls.__name__} expected at most 1 argument, "
                                             f"got {len(args)}")
            if not args:
                return cls()
            x: Any = args[0]
            if isinstance(x, OneShot):
                return cls(x.take())        # list(zip(...)): made already, in the budget
            if sized_array(x):
                if not x.shape:             # a numpy array's rows: numpy's scalars
                    raise torch_error(TypeError, "iteration over a 0-d array")
                if len(x) > MAX_ITEMS:
                    raise Refused(f"a {cls.__name__} of {len(x)} items is longer than tidx "
                                  f"builds ({MAX_ITEMS})")
                current().budget.build(M.list_bytes(len(x)), f"a {cls.__name__} of "
                                                             f"{len(x)} items")
                return cls(x)
            if isinstance(x, (tensor, list, tuple, range, size, str)):
                rows = not (isinstance(x, tensor) and x.dim() == 0)  # 0-d: torch's error
                if rows and len(x) > MAX_ITEMS:
                    raise Refused(f"a {cls.__name__} of {len(x)} items is longer than tidx "
                                  f"builds ({MAX_ITEMS})")
                if rows and not isinstance(x, tensor):
                    current().budget.build(M.items_bytes(x),
                                           f"a {cls.__name__} of {len(x)} items")
                return cls(x)
            raise torch_error(TypeError, f"'{tp_name(x)}' object is not iterable")
        return build

    def type_(*args: Any, **kwargs: Any) -> Any:
        _no_keywords("type", kwargs)
        if len(args) != 1:      # type(name, bases, dict) makes a class: not here
            raise Refused("type() takes one argument in tidx")
        return classes.type_of(args[0])

    def isinstance_(*args: Any, **kwargs: Any) -> bool:
        if kwargs:
            raise torch_error(TypeError, "isinstance() takes no keyword arguments")
        if len(args) != 2:
            raise torch_error(TypeError, f"isinstance expected 2 arguments, got {len(args)}")
        return classes.isinstance_(*args)

    def id_(*args: Any, **kwargs: Any) -> int:
        return classes.id_(iterables.one_argument("id", args, kwargs))

    fns = {"print": print_, "len": len_, "int": int_, "float": float_, "bool": bool_,
           "abs": abs_, "range": range_, "list": sequence(list), "tuple": sequence(tuple),
           "type": type_, "isinstance": isinstance_, "id": id_}
    fns.update(formatter.builtins())
    fns["complex"] = complex_
    fns.update(iterables.make(tensor, size, classes.id_))
    for name, fn in fns.items():
        fn.__name__ = fn.__qualname__ = name
        fn.tidx_builtin = True      # type: ignore[attr-defined]  # printed as Python's
    for name in ("int", "float", "bool", "range", "list", "tuple", "type", "str", "complex"):
        fns[name] = classes.builtin(name, fns[name])   # the class stand-in, callable
    assert tuple(fns) == NAMES
    return fns
