"""``numpy.ndarray`` as a statement holds it: numpy's own array, over a tidx Storage.

A tutorial's ``a = np.arange(6); t = torch.from_numpy(a)`` is a lesson on memory: the
tensor and the array are two views of one buffer, and a write through one shows through
the other (torch/csrc/utils/tensor_numpy.cpp).  So an array here is not a free-standing
numpy array but a window -- shape, strides in bytes, a byte offset, a dtype -- over the
same :class:`~engine.core.storage.Storage` a tensor's bytes live in.  Its values,
arithmetic, indexing and repr are numpy's own, computed on a numpy view of those bytes
(numpy is the oracle for numpy), so nothing is re-implemented; what tidx adds is

* the memory: every new array's bytes are checked against the run's budget before numpy
  makes them (engine/core/budget.py) and held by a Storage for as long as the array lives;
* the sharing: a result numpy made as a view of the array's bytes (``a[1:]``, ``a.T``,
  ``a.reshape(3, 2)``) is a window on the same Storage, so ``torch.from_numpy(a.T)`` and
  ``t.numpy()`` land on the storage the trace already knows;
* the allow-list: the attributes and methods a statement may use (:data:`ATTRIBUTES`,
  :data:`METHODS`); numpy's errors become the statement's own (exit 1).

Element reads (``a[0]``, ``a.sum()``) give numpy's scalars (``np.int64(3)``), as numpy does.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from engine.core.context import current
from engine.core.errors import Refused, as_torch_error, torch_error
from engine.core.storage import Storage
from engine.core.tensor_impl import plain_values
from engine.memory.allocator import allocate

#: the attributes a statement may read (numpy's ndarray has these; they copy nothing)
ATTRIBUTES = frozenset({"shape", "dtype", "strides", "ndim", "size", "itemsize", "nbytes",
                        "T"})
#: the methods a statement may call, numpy's own on the array's view
METHODS = frozenset({"reshape", "sum", "mean", "max", "min", "argmax", "argmin", "prod",
                     "cumsum", "std", "var", "copy", "astype", "tolist", "flatten", "ravel",
                     "transpose", "item", "fill", "all", "any", "squeeze", "dot"})
#: the most rows iterating an array gives (each row is an array)
MAX_ROWS = 10_000
#: what one element of ``tolist()`` costs as a Python number in a list
PY_NUMBER_BYTES = 40
#: numpy's errors a statement may raise (Python's classes, numpy's messages)
NUMPY_ERRORS = (ValueError, TypeError, IndexError, ZeroDivisionError, OverflowError,
                FloatingPointError)


class ndarray:
    """One numpy array: a window on a tidx Storage (the bytes torch.from_numpy shares)."""

    __tp_name__ = "numpy.ndarray"
    __slots__ = ("storage", "offset", "shape", "strides", "dtype", "writeable", "base",
                 "__weakref__")

    __hash__ = None             # type: ignore[assignment]  # as numpy's: unhashable

    def __init__(self, storage: Storage, offset: int, shape: tuple[int, ...],
                 strides: tuple[int, ...], dtype: np.dtype, *, writeable: bool = True,
                 base: Any = None) -> None:
        self.storage, self.offset = storage, int(offset)
        self.shape, self.strides = tuple(map(int, shape)), tuple(map(int, strides))
        self.dtype, self.writeable = np.dtype(dtype), writeable
        #: what keeps the bytes alive in numpy's sense (``a.base``): the array this one
        #: views, or the tensor ``t.numpy()`` was called on
        self.base = base

    # -- numpy's view of the bytes ----------------------------------------------------
    def array(self) -> np.ndarray:
        """numpy's ndarray over exactly these bytes (no copy): writes go to the storage."""
        data = self.storage.data
        assert data is not None, "an array always has bytes"
        if 0 in self.shape:
            # no element, so no byte to share (its offset may be past the storage's end,
            # as an empty tensor's may): an empty view keeping the strides numpy shows
            return np.lib.stride_tricks.as_strided(np.empty(0, self.dtype), self.shape,
                                                   self.strides, writeable=self.writeable)
        out = np.ndarray(self.shape, self.dtype, buffer=data, offset=self.offset,
                         strides=self.strides)
        out.flags.writeable = self.writeable
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """numpy's own view, for Python code outside a statement (``np.asarray(t.numpy())``
        in a library user's program or a test): the same bytes."""
        view = self.array()
        return view if dtype is None else view.astype(dtype)

    def __getattr__(self, name: str) -> Any:
        """Python code outside a statement (``import engine as torch``; tests) reads the
        rest of numpy's ndarray API from the view.  A statement never gets here: its
        attributes resolve through :data:`ATTRIBUTES` and :data:`METHODS` only."""
        if name.startswith("__") or name in NDArray.__slots__:
            raise AttributeError(name)
        return getattr(self.array(), name)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def tolist(self) -> Any:
        """The elements as Python numbers (engine code; a statement's ``a.tolist()`` goes
        through :meth:`method`, which asks the budget first)."""
        return self.array().tolist()

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        """What the recorder keeps of an array: its storage, numpy's geometry (bytes),
        numpy's repr, and its values when few (no reference to it)."""
        out: dict[str, Any] = {
            "kind": "ndarray", "storage_serial": self.storage.serial, "shape": list(self.shape),
            "strides": list(self.strides), "offset": self.offset, "dtype": self.dtype.name,
            "itemsize": self.dtype.itemsize, "nbytes": self.storage.nbytes, "repr": repr(self)}
        if self.size <= max_values:
            out["values"] = plain_values(self.array())
        return out

    def __repr__(self) -> str:
        return repr(self.array())

    def __str__(self) -> str:
        return str(self.array())

    def __format__(self, spec: str) -> str:
        return format(self.array(), spec)

    def __len__(self) -> int:
        if not self.shape:
            raise torch_error(TypeError, "len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Any:
        if not self.shape:
            raise torch_error(TypeError, "iteration over a 0-d array")
        if self.shape[0] > MAX_ROWS:
            raise Refused(f"iterating over {self.shape[0]} rows is more than tidx does "
                          f"({MAX_ROWS})")
        return iter([self[i] for i in range(self.shape[0])])

    def __bool__(self) -> bool:
        return bool(run(lambda: bool(self.array())))

    def __float__(self) -> float:
        return float(run(lambda: float(self.array())))

    def __int__(self) -> int:
        return int(run(lambda: int(self.array())))

    def __index__(self) -> int:
        return run(lambda: self.array().__index__())

    # -- indexing ---------------------------------------------------------------------
    def __getitem__(self, index: Any) -> Any:
        index = unwrap_index(index)
        return adopt(run(lambda: self.array()[index]), self)

    def __setitem__(self, index: Any, value: Any) -> None:
        index, value = unwrap_index(index), unwrap(value)
        view = self.array()

        def write() -> None:
            view[index] = value
        run(write)
        self.storage.initialised = True

    def __contains__(self, item: Any) -> bool:
        return bool(run(lambda: unwrap(item) in self.array()))

    # -- attributes and methods ---------------------------------------------------------
    def attribute(self, name: str) -> Any:
        """``a.shape``, ``a.T`` ...: numpy's own answer (a view stays on this storage)."""
        return adopt(getattr(self.array(), name), self)

    def method(self, name: str) -> Callable[..., Any]:
        """``a.sum(...)``: numpy's method on the view, its result adopted."""
        def call(*args: Any, **kwargs: Any) -> Any:
            view = self.array()
            if name == "tolist":
                current().budget.build(self.size * PY_NUMBER_BYTES,
                                       f"tolist() of {self.size} elements")
                return view.tolist()
            if name in ("copy", "astype", "flatten"):
                check_new(self.size, 16, f"a.{name}()")
            check_dtypes(args, kwargs)
            args, kwargs = unwrap(list(args)), {k: unwrap(v) for k, v in kwargs.items()}
            result = adopt(run(lambda: getattr(view, name)(*args, **kwargs)), self)
            if name == "fill":
                self.storage.initialised = True
            return result
        call.__name__ = call.__qualname__ = name
        call.__self__ = self        # type: ignore[attr-defined]  # the allow-list's owner
        return call

    # -- operators: numpy's, on the views ------------------------------------------------
    def _binary(self, fn: Callable[[Any, Any], Any], other: Any, reflected: bool) -> Any:
        if type(other).__name__ == "Tensor":
            raise Refused("an operator between a numpy array and a tensor is not modelled "
                          "by tidx; convert one first (torch.from_numpy(a) or t.numpy())")
        other = unwrap(other)
        try:
            shape = np.broadcast_shapes(self.shape, np.shape(other))
        except ValueError:
            shape = ()              # numpy's operator raises its own error below
        check_new(math.prod(shape), 16, "the result of an array operator")
        mine = self.array()
        return adopt(run(lambda: fn(other, mine) if reflected else fn(mine, other)), None)

    def _inplace(self, fn: Callable[[Any, Any], Any], other: Any) -> "NDArray":
        if type(other).__name__ == "Tensor":
            raise Refused("an operator between a numpy array and a tensor is not modelled "
                          "by tidx; convert one first (torch.from_numpy(a) or t.numpy())")
        other, mine = unwrap(other), self.array()
        run(lambda: fn(mine, other))
        self.storage.initialised = True
        return self

    def __neg__(self) -> Any:
        return self._unary(np.negative)

    def __pos__(self) -> Any:
        return self._unary(np.positive)

    def __abs__(self) -> Any:
        return self._unary(np.absolute)

    def __invert__(self) -> Any:
        return self._unary(np.invert)

    def _unary(self, fn: Callable[[Any], Any]) -> Any:
        check_new(self.size, 16, "the result of an array operator")
        mine = self.array()
        return adopt(run(lambda: fn(mine)), None)


def _operators() -> None:
    """The binary operators, their reflected and in-place forms (numpy's own)."""
    import operator
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
                 "or", "xor", "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge"):
        fn = getattr(operator, name + "_" if name in ("and", "or") else name)
        setattr(NDArray, f"__{name}__",
                lambda self, other, fn=fn: self._binary(fn, other, False))
        if name not in ("eq", "ne", "lt", "le", "gt", "ge"):
            setattr(NDArray, f"__r{name}__",
                    lambda self, other, fn=fn: self._binary(fn, other, True))
            ifn = getattr(operator, "i" + name)
            setattr(NDArray, f"__i{name}__",
                    lambda self, other, ifn=ifn: self._inplace(ifn, other))


NDArray = ndarray     # the name the rest of tidx uses
_operators()


# -- the helpers every array operation goes through ------------------------------------
def run(fn: Callable[[], Any]) -> Any:
    """Run numpy: its errors are the statement's own (Python's class, numpy's words)."""
    try:
        with np.errstate(all="ignore"):     # numpy's RuntimeWarnings: values are nan/inf
            return fn()
    except MemoryError:
        raise Refused("numpy could not allocate what this statement asks for") from None
    except NUMPY_ERRORS as exc:
        raise as_torch_error(exc) from None     # numpy's own class (AxisError ...)


def check_dtypes(args: Any, kwargs: dict[str, Any]) -> None:
    """A dtype a statement names (``dtype='U1000'``, ``a.astype('S9')``) must be one of
    numbers or bools, at most 16 bytes an element: the budget's estimates hold then, and
    nothing but numbers is ever stored.  ``args``: the arguments a dtype may be among (a
    function's first, its data or shape, is not: ``np.zeros('a')`` is numpy's error)."""
    for value in list(args) + list(kwargs.values()):
        if not isinstance(value, (str, type, np.dtype)):
            continue
        try:
            dtype = np.dtype(value)
        except (TypeError, ValueError):
            continue                # not a dtype (order='C'): numpy judges it
        if dtype.kind not in "biufc" or dtype.itemsize > 16:
            raise Refused(f"numpy arrays of dtype {dtype.name} are not modelled by tidx "
                          "(numbers and bools only)")


def check_new(numel: int, itemsize: int, what: str) -> None:
    """numpy is about to make ``numel`` elements: refuse first if they do not fit."""
    current().budget.check(int(numel) * int(itemsize), f"{what} ({int(numel)} elements)")


def unwrap(value: Any) -> Any:
    """A value as numpy takes it: an array's view; lists and tuples item by item."""
    if isinstance(value, NDArray):
        return value.array()
    if isinstance(value, (list, tuple)):
        return type(value)(unwrap(v) for v in value)
    if type(value).__name__ == "Tensor":
        raise Refused("numpy is given a tensor here, which tidx does not model; convert it "
                      "first (t.numpy())")
    return value


def unwrap_index(index: Any) -> Any:
    """An index: arrays inside a tuple too (a list stays a list: numpy's fancy index)."""
    if isinstance(index, tuple):
        return tuple(unwrap(i) for i in index)
    return unwrap(index)


def adopt(result: Any, source: "NDArray | None") -> Any:
    """What numpy returned, as a statement holds it: a view of ``source``'s bytes stays on
    its storage; a new array gets a Storage of its own (charged to the budget); a numpy
    scalar stays numpy's (``np.int64(3)``)."""
    if isinstance(result, tuple):
        return tuple(adopt(r, source) for r in result)
    if not isinstance(result, np.ndarray):
        return result
    if result.dtype.kind not in "biufc":
        raise Refused(f"numpy arrays of dtype {result.dtype.name} are not modelled by tidx "
                      "(numbers and bools only)")
    if source is not None:
        data = source.storage.data
        assert data is not None
        start = data.__array_interface__["data"][0]
        here = result.__array_interface__["data"][0]
        if np.may_share_memory(result, data) and start <= here:
            return NDArray(source.storage, here - start, result.shape, result.strides,
                           result.dtype, writeable=bool(result.flags.writeable), base=source)
    return fresh(result)


def fresh(result: np.ndarray) -> NDArray:
    """A new array (numpy made it): its bytes in a new Storage, laid out as numpy laid
    them (``np.zeros((2, 3), order='F')`` keeps strides (8, 16); ``a.T + 1`` numpy's
    K order), C-contiguous only where numpy's layout has holes."""
    current().budget.check(result.nbytes, "a numpy array")
    if result.flags.c_contiguous:
        raw = result.reshape(-1).view(np.uint8)         # numpy's own bytes, no copy
        strides = result.strides
    else:
        raw = allocate(result.nbytes)
        strides = result.strides if _dense(result) else \
            np.empty(result.shape, result.dtype).strides
        np.ndarray(result.shape, result.dtype, buffer=raw, strides=strides)[...] = result
    storage = Storage(raw.nbytes, "cpu", data=raw)
    storage.initialised = True
    return NDArray(storage, 0, result.shape, strides, result.dtype)


def _dense(a: np.ndarray) -> bool:
    """Every byte from the first element on belongs to one element, strides not
    negative: a permutation of a contiguous layout, which a buffer of ``a.nbytes`` holds
    with ``a``'s own strides."""
    dims = sorted((st, n) for st, n in zip(a.strides, a.shape) if n > 1)
    step = a.itemsize
    for st, n in dims:
        if st != step:
            return False
        step *= n
    return True
