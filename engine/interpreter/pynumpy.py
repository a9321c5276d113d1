"""``import numpy as np``: the numpy a "PyTorch for numpy users" cell writes.

numpy comes in as ``math`` does (engine/interpreter/pymath.py): a lazily loaded
:class:`~engine.interpreter.pymath.Module` whose two tables are the only attributes a
statement reaches.  Its functions are numpy's own, run on the arrays' views
(engine/binding/ndarray.py), each behind a wrapper that

* asks the run's memory budget before numpy makes an array (``np.zeros(10**12)`` is
  refused in one line, never attempted), from the size the arguments ask for;
* gives numpy's errors to the statement (exit 1, numpy's class and words);
* hands back an :class:`~engine.binding.ndarray.NDArray` over a tidx Storage, so
  ``torch.from_numpy`` and ``t.numpy()`` share it;
* takes a tensor only where numpy calls its ``__array__`` (``np.array(t)`` copies,
  ``np.asarray(t)`` shares, as torch's ``Tensor.__array__`` is ``t.numpy()``).

``np.random`` and numpy's I/O are not offered.  The dtypes are numpy's own objects
(``np.float32`` prints ``<class 'numpy.float32'>``).
https://numpy.org/doc/stable/reference/routines.html
"""

from __future__ import annotations

import functools
import math
import operator
from typing import Any, Callable, NamedTuple

import numpy as np

from engine.binding import ndarray as A
from engine.binding.ndarray import NDArray
from engine.core.errors import Refused, tp_name, unknown_name
from engine.interpreter.pymath import Module

#: numpy's dtype objects a statement may name (np.float32 ...)
DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64", "bool_", "complex64", "complex128")
CONSTANTS: dict[str, Any] = {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan,
                             "newaxis": None} | {n: getattr(np, n) for n in DTYPES} | {
    "bool": np.bool_, "float_": np.float64, "int_": np.int64, "double": np.float64,
    "single": np.float32, "half": np.float16}
#: the largest shape a factory argument may name before the budget is asked
_ITEMSIZE = 16

#: what each function makes, in elements, from its arguments (asked of the budget first)
_SIZES: dict[str, Callable[..., int]] = {}


def _shape_numel(shape: Any = None, *_: Any, **kwargs: Any) -> int:
    """A shape as numpy takes it: an int or a list or tuple of ints (numpy's own errors
    for negative or non-integer ones)."""
    shape = kwargs.get("shape", shape)
    dims = shape if isinstance(shape, (list, tuple)) else [shape]
    if not all(isinstance(n, (int, float, str, np.integer)) or n is None for n in dims):
        raise Refused("a numpy shape is an int or a list or tuple of ints here")
    # a float or a string is numpy's TypeError, raised before it allocates anything
    return math.prod(max(int(n), 0) for n in dims if isinstance(n, (int, np.integer)))


def _arange_numel(*args: Any, **kwargs: Any) -> int:
    if args and all(isinstance(a, (int, float)) for a in args[:3]) and len(args) <= 3:
        start, stop, step = (0, args[0], 1) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else 1)
        if step:
            return max(0, math.ceil((stop - start) / step))
    return 1


def _linspace_numel(start: Any = 0, stop: Any = 0, num: Any = 50, *_: Any,
                    **kwargs: Any) -> int:
    num = kwargs.get("num", num)
    return int(num) if isinstance(num, int) else 1


def _eye_numel(n: Any = 1, m: Any = None, *_: Any, **kwargs: Any) -> int:
    m = kwargs.get("M", m)
    n_ = int(n) if isinstance(n, int) else 1
    return n_ * (int(m) if isinstance(m, int) else n_)


def _like_numel(a: Any = None, *_: Any, **__: Any) -> int:
    return a.size if isinstance(a, NDArray) else 1


def _total_numel(*args: Any, **kwargs: Any) -> int:
    """What joins its operands (concatenate, stack): their sizes added."""
    arrays = args[0] if args and isinstance(args[0], (list, tuple)) else args
    return sum(a.size for a in arrays if isinstance(a, NDArray)) or 1


def _product_numel(*args: Any, **kwargs: Any) -> int:
    """outer, dot, matmul: at most the product of their operands' sizes."""
    return math.prod(a.size if isinstance(a, NDArray) else 1 for a in args)


def _operands_numel(*args: Any, **kwargs: Any) -> int:
    """An elementwise function's result: the broadcast of its array operands."""
    shapes = [np.shape(A.unwrap(a)) for a in args if isinstance(a, (NDArray, list, tuple))]
    try:
        return math.prod(np.broadcast_shapes(*shapes)) if shapes else 1
    except ValueError:
        return 1            # numpy raises its own error when it runs


#: numpy's functions a statement may call (numpy's, not torch's operators), each with
#: how many elements its result may hold, asked of the budget before numpy runs
SIZED: dict[str, Callable[..., int]] = {**{
    "zeros": _shape_numel, "ones": _shape_numel, "full": _shape_numel,
    "empty": _shape_numel, "arange": _arange_numel, "linspace": _linspace_numel,
    "eye": _eye_numel, "identity": _eye_numel, "zeros_like": _like_numel,
    "ones_like": _like_numel, "full_like": _like_numel,
    "concatenate": _total_numel, "stack": _total_numel, "vstack": _total_numel,
    "hstack": _total_numel, "dot": _product_numel, "matmul": _product_numel,
    "outer": _product_numel}, **dict.fromkeys((
        # elementwise: the broadcast of the operands
        "add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "sqrt",
        "exp", "log", "abs", "absolute", "sin", "cos", "tanh", "negative", "where", "clip",
        "round", "floor", "ceil", "square", "sign", "isclose", "equal",
        # reductions and views: at most their operands' size
        "sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "allclose",
        "array_equal", "all", "any", "cumsum", "shares_memory", "may_share_memory",
        "reshape", "transpose", "squeeze", "expand_dims", "ravel", "flip", "copy",
        "ascontiguousarray"), _operands_numel)}


def _checked(name: str, numel: Callable[..., int]) -> Callable[..., Any]:
    fn = getattr(np, name)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        if "out" in kwargs and not isinstance(out, NDArray):
            raise Refused(f"np.{name}(out=...) takes one numpy array here")
        A.check_dtypes(args[1:], kwargs)
        A.check_new(numel(*args, **kwargs), _ITEMSIZE, f"np.{name}")
        args_ = A.unwrap(list(args))
        kwargs_ = {k: A.unwrap(v) for k, v in kwargs.items()}
        result = A.run(lambda: fn(*args_, **kwargs_))
        if out is not None:
            # numpy wrote into out's bytes (a tensor from_numpy'd from it sees the
            # write) and returns out itself
            out.storage.initialised = True
            return out
        source = next((a for a in args if isinstance(a, NDArray)), None)
        return A.adopt(result, source)
    call.tidx_builtin = True      # type: ignore[attr-defined]  # <function ...> in numpy
    return call


def _array(name: str, copy_default: bool) -> Callable[..., Any]:
    """``np.array(x)`` copies, ``np.asarray(x)`` shares when it can: a list's elements, an
    array, or a tensor through ``Tensor.__array__`` (which is ``t.numpy()``)."""
    fn = getattr(np, name)

    def call(obj: Any = None, dtype: Any = None, *args: Any, **kwargs: Any) -> Any:
        if args or set(kwargs) - {"copy"}:
            raise Refused(f"np.{name}(x, dtype=...) only is modelled by tidx")
        A.check_dtypes((dtype,), {})
        if type(obj).__name__ == "Tensor":
            obj = obj.numpy()           # Tensor.__array__ (torch/_tensor.py)
        copy = kwargs.get("copy", copy_default or None)
        if isinstance(obj, NDArray):
            A.check_new(obj.size, _ITEMSIZE, f"np.{name}")
            result = A.run(lambda: np.array(obj.array(), dtype=dtype, copy=copy))
            return A.adopt(result, obj)
        if not isinstance(obj, (list, tuple, int, float, bool)):
            raise Refused(f"np.{name} takes a list, a number, an array or a tensor here "
                          f"(got {tp_name(obj)})")
        data = A.unwrap(obj)
        return A.adopt(A.run(lambda: fn(data, dtype=dtype)), None)
    call.__name__ = call.__qualname__ = name
    call.tidx_builtin = True      # type: ignore[attr-defined]
    return call


def _no_random(*_: Any, **__: Any) -> Any:
    raise Refused("np.random is not modelled by tidx; torch's generator is "
                  "(torch.manual_seed, torch.rand ...)")


def _tables() -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    functions: dict[str, Callable[..., Any]] = {"array": _array("array", True),
                                                "asarray": _array("asarray", False)}
    for name, numel in SIZED.items():
        functions[name] = _checked(name, numel)
    functions["dtype"] = _dtype
    return functions, dict(CONSTANTS) | {"random": RANDOM}


def _dtype(name: Any) -> np.dtype:
    """``np.dtype('float32')``: numpy's dtype, for the names :data:`DTYPES` lists."""
    if isinstance(name, str) and name.rstrip("_") in {d.rstrip("_") for d in DTYPES} or \
            isinstance(name, type) and name in CONSTANTS.values():
        return np.dtype(name)
    raise Refused(f"np.dtype takes one of numpy's numeric dtype names here "
                  f"({', '.join(DTYPES)})")


_dtype.tidx_builtin = True       # type: ignore[attr-defined]

#: ``np.random``: refused in one line at its first attribute
RANDOM = Module("numpy.random", "<module 'numpy.random' (not modelled by tidx)>",
                load=_no_random)

#: The value ``import numpy as np`` binds
NUMPY = Module("numpy", "<module 'numpy' (tidx: numpy over tidx's memory)>", load=_tables)


class Library(NamedTuple):
    """numpy as one evaluator sees it: what ``import numpy`` binds, the array types it
    makes, and what a statement may read and call on them (real numpy's under --verify,
    engine/interpreter/verify.py)."""

    module: Module
    arrays: tuple[type, ...]
    attributes: frozenset[str]
    methods: frozenset[str]


ENGINE = Library(NUMPY, (NDArray, np.generic), A.ATTRIBUTES, A.METHODS)


def real_library() -> Library:
    """numpy itself, as --verify runs a statement beside real torch: the same names, real
    numpy's functions and arrays (engine/interpreter/verify.py)."""
    names = NUMPY.functions
    module = Module("numpy", repr(np), {name: getattr(np, name) for name in names
                                        if name != "dtype"} | {"dtype": _dtype},
                    dict(CONSTANTS) | {"random": RANDOM})
    return Library(module, (np.ndarray, np.generic), A.ATTRIBUTES, A.METHODS)
#: what a statement may read of a numpy dtype (``a.dtype.itemsize``)
DTYPE_ATTRIBUTES = frozenset({"name", "itemsize", "kind", "char", "str"})


def attribute(lib: Library, obj: Any, attr: str) -> Any:
    """``a.shape``, ``a.sum``, ``a.dtype.name``: through the allow-list only."""
    if isinstance(obj, np.dtype):
        if attr in DTYPE_ATTRIBUTES:
            return getattr(obj, attr)
        raise Refused(unknown_name("dtype", attr, DTYPE_ATTRIBUTES, "numpy dtype attributes"))
    if attr in lib.attributes:
        return obj.attribute(attr) if isinstance(obj, NDArray) else A.run(
            lambda: getattr(obj, attr))
    if attr in lib.methods:
        return obj.method(attr) if isinstance(obj, NDArray) else _scalar_method(obj, attr)
    raise Refused(unknown_name("ndarray", attr, lib.attributes | lib.methods,
                               "ndarray attributes and methods"))


def _scalar_method(obj: Any, name: str) -> Callable[..., Any]:
    """A numpy scalar's method (``x.item()``): numpy's, its errors the statement's."""
    method = getattr(obj, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        return A.run(lambda: method(*args, **kwargs))
    call.__name__ = call.__qualname__ = name
    call.__self__ = obj         # type: ignore[attr-defined]  # the allow-list's owner
    return call


def getitem(obj: Any, index: Any) -> Any:
    """``a[i]``: an array's own indexing; a numpy scalar's (``x[()]``), its errors."""
    return obj[index] if isinstance(obj, NDArray) else A.run(lambda: obj[index])


def setitem(obj: Any, index: Any, value: Any) -> None:
    """``a[i] = v``; a numpy scalar takes no item assignment (Python's TypeError)."""
    def store() -> None:
        obj[index] = value
    A.run(store)


def binop(fn: Callable[[Any, Any], Any], left: Any, right: Any, torch: Any) -> Any:
    """An operator with an array operand: numpy's own, unless the other is a tensor (which
    torch answers through ``__array_priority__`` and ``Tensor.__array__``: not modelled)."""
    if isinstance(left, torch.tensor) or isinstance(right, torch.tensor):
        raise Refused("an operator between numpy (an array or a scalar) and a tensor is not modelled by "
                      "tidx; convert one first (torch.from_numpy(a) or t.numpy())")
    return A.run(lambda: fn(left, right))


_UNARY: dict[str, Callable[[Any], Any]] = {"USub": operator.neg, "UAdd": operator.pos, "Invert": operator.invert,
          "Not": operator.not_}


def unary(op: str, value: Any) -> Any:
    """``-a``, ``+a``, ``~a``, ``not a`` (numpy's truth: one element only)."""
    return A.run(lambda: _UNARY[op](value))
