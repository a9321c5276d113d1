"""Python's classes as a statement sees them: ``type(x)``, ``isinstance``, ``id``.

``type(x)`` cannot hand out the real class: ``type(x).__subclasses__()`` and friends are
how sandboxes are escaped.  It gives a :class:`PyClass` instead, an opaque stand-in that
prints as Python prints the class (``<class 'int'>``, ``<class 'torch.Tensor'>``),
compares as Python compares classes (``type(3) == int``, ``type(t) is torch.Tensor``: the
builtin ``int`` *is* that stand-in, one per evaluator) and has no attribute the evaluator
resolves (``resolve_attribute`` knows no PyClass; names with ``_`` never parse).  Calling
one is allowed only where it is a builtin of :mod:`engine.interpreter.builtins`
(``type(3)("4")``), by the evaluator's identity allow-list.

``id(x)`` is simulated: CPython's is an address, different every run; tidx numbers the
objects in the order ``id`` first meets them (one table per evaluator, which keeps them
alive so a number is never reused, as CPython's never is while the object lives).
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core.errors import Refused, torch_error, tp_name

#: Where simulated ids start and how far apart they lie (a 64-bit heap address's look).
ID_BASE, ID_STEP = 0x7F3A_2C40_0000, 0x50


class PyClass:
    """A class as a statement holds it (see the module's docstring)."""

    __tp_name__ = "type"            # Py_TYPE(int)->tp_name: len(int) names 'type'

    def __init__(self, qualname: str, real: type | tuple[type, ...] | None,
                 convert: Callable[..., Any] | None = None,
                 check: Callable[[Any], bool] | None = None) -> None:
        self.qualname, self.real, self.convert = qualname, real, convert
        #: isinstance's test where it is not a Python class's (torch.FloatTensor's)
        self.check = check
        self.__name__ = self.__qualname__ = qualname.rpartition(".")[2]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.convert is None:        # max(xs, key=type(t)): Python would call it
            raise Refused(f"calling the class {self.qualname} is not supported")
        return self.convert(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<class '{self.qualname}'>"

    def __reduce__(self) -> Any:    # never pickled or copied out of the run
        raise TypeError("a PyClass stays in its run")


class OneShot:
    """``zip(...)``/``enumerate(...)``: Python's iterators, consumed by one pass (a
    second ``list(z)`` is ``[]``), printed as Python prints them but at a simulated
    address.  The items are made when it is made (a tensor's ``__iter__``, traced, runs
    then, as Python's ``zip`` calls ``iter()`` on its arguments at once)."""

    __slots__ = ("items", "address")
    __tp_name__ = "object"

    def __init__(self, items: list[Any], address: int) -> None:
        self.items, self.address = items, address

    def take(self) -> list[Any]:
        items, self.items = self.items, []
        return items

    def __repr__(self) -> str:
        return f"<{self.__tp_name__} object at {self.address:#x}>"


class Zip(OneShot):
    __slots__ = ()
    __tp_name__ = "zip"


class Enumerate(OneShot):
    __slots__ = ()
    __tp_name__ = "enumerate"


def callable_repr(fn: Any, is_tensor: Callable[[Any], bool]) -> str:
    """A function's repr as Python prints it, without the address it changes every run
    (``<built-in function len>`` is Python's own, it has none)."""
    if isinstance(fn, PyClass) or not hasattr(fn, "__name__"):
        return repr(fn)                 # a class; a def or lambda (functions.py)
    name = getattr(fn, "__name__", "function")
    owner = getattr(fn, "__self__", None)
    if is_tensor(owner):
        return f"<built-in method {name} of Tensor object>"
    if getattr(fn, "tidx_builtin", False):
        return f"<built-in function {name}>"
    return f"<built-in method {name} of type object>"


class Classes:
    """One evaluator's class stand-ins and its ``type``/``isinstance``/``id``."""

    def __init__(self, tensor: type, size: type, dtype: type) -> None:
        self.tensor = tensor
        self.by_name: dict[str, PyClass] = {}
        for qualname, real in (("bool", bool), ("int", int), ("float", float),
                               ("complex", complex), ("str", str), ("list", list),
                               ("tuple", tuple), ("range", range), ("NoneType", type(None)),
                               ("torch.Tensor", tensor), ("torch.Size", size),
                               ("torch.dtype", dtype), ("zip", Zip),
                               ("enumerate", Enumerate), ("type", PyClass)):
            self.by_name[qualname.rpartition(".")[2]] = PyClass(qualname, real)
        self.function = PyClass("builtin_function_or_method", None)
        self.module = PyClass("module", None)
        self.user_function = PyClass("function", None)
        self._ids: dict[int, tuple[Any, int]] = {}

    def builtin(self, name: str, convert: Callable[..., Any]) -> PyClass:
        """The builtin ``int``, ``list``...: the class stand-in, callable."""
        cls = self.by_name[name]
        cls.convert = convert
        return cls

    def legacy_type(self, qualname: str, ctor: Callable[..., Any],
                    check: Callable[[Any], bool]) -> PyClass:
        """``torch.FloatTensor`` and the other legacy types: callable (their
        constructor), true under ``isinstance`` for a CPU tensor of their dtype, never
        what ``type(x)`` gives (that is ``torch.Tensor``)."""
        cls = self.by_name[qualname.rpartition(".")[2]] = PyClass(qualname, None, ctor, check)
        return cls

    def type_of(self, obj: Any) -> PyClass:
        if isinstance(obj, self.tensor):            # a subclass (Parameter) is not modelled
            return self.by_name["Tensor"]
        for cls in self.by_name.values():
            if cls.real is not None and type(obj) is cls.real:
                return cls
        if callable(obj):   # a def or lambda (functions.py) has no __name__ attribute
            return self.function if hasattr(obj, "__name__") else self.user_function
        if type(obj).__name__ in ("Namespace", "Module", "CudaModule"):
            return self.module
        return PyClass(tp_name(obj), None)

    def isinstance_(self, obj: Any, classinfo: Any) -> bool:
        infos = classinfo if isinstance(classinfo, tuple) else (classinfo,)
        for info in infos:
            if isinstance(info, tuple):
                if self.isinstance_(obj, info):
                    return True
                continue
            if not isinstance(info, PyClass):
                raise torch_error(TypeError, "isinstance() arg 2 must be a type, a tuple of "
                                             "types, or a union")
            if info in (self.function, self.module, self.user_function):
                if self.type_of(obj) is info:
                    return True
            elif info.real is not None and isinstance(obj, info.real):
                return True
            elif info.check is not None and info.check(obj):
                return True
        return False

    def id_(self, obj: Any) -> int:
        entry = self._ids.get(id(obj))
        if entry is None:
            entry = (obj, ID_BASE + ID_STEP * len(self._ids))
            self._ids[id(obj)] = entry      # the object kept: its number is never reused
        return entry[1]
