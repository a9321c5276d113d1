"""Python's ``math`` module as a statement sees it, and the module stand-in it shares with
``pypto``.

Tutorials write ``math.sqrt(d_k)``, ``math.pi``, ``math.prod(t.shape)``: the pure
functions and constants of CPython's ``math`` are offered as they are (CPython's own
results, on the numbers a statement holds), each behind a small wrapper that

* turns CPython's errors (``math domain error``, ``factorial() not defined for negative
  values``) into errors the statement raised, shown as Python shows them (exit 1);
* keeps a run inside its budget: ``factorial``, ``comb`` and ``perm`` of huge numbers,
  and ``prod``/``lcm`` whose integer result would outgrow the interpreter's integer
  limit, are refused in one line instead of running for minutes;
* prints as CPython prints a builtin (``<built-in function sqrt>``).

A tensor given where a number goes converts as CPython converts it: ``float(t)`` (the
traced ``Tensor.__float__``, an ``aten::item``).  Nothing else of ``math`` exists for a
statement, and ``math`` has no attributes beyond these.
https://docs.python.org/3/library/math.html
"""

from __future__ import annotations

import ast
import functools
import math
from typing import Any, Callable

from engine.core.errors import Refused, is_torch_error, torch_error
from engine.interpreter.statements import imported_name, imported_path


class Module:
    """A module a statement may name (``math``, ``pypto``, ``torch.random``): attributes
    come only from its two tables, and it prints as ``repr_`` says.  ``load`` makes the
    tables the first time a statement reads one (a module a run never names is never
    imported)."""

    def __init__(self, name: str, repr_: str,
                 functions: dict[str, Callable[..., Any]] | None = None,
                 constants: dict[str, Any] | None = None,
                 load: Callable[[], tuple[dict[str, Callable[..., Any]], dict[str, Any]]]
                 | None = None) -> None:
        self.name, self._repr = name, repr_
        self._tables = None if load is not None else (functions or {}, constants or {})
        self._load = load

    def _loaded(self) -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
        if self._tables is None:
            assert self._load is not None
            self._tables = self._load()
        return self._tables

    @property
    def functions(self) -> dict[str, Callable[..., Any]]:
        return self._loaded()[0]

    @property
    def constants(self) -> dict[str, Any]:
        return self._loaded()[1]

    def __repr__(self) -> str:
        return self._repr

    def attribute(self, attr: str) -> Any:
        if attr in self.functions:
            return self.functions[attr]
        if attr in self.constants:
            return self.constants[attr]
        raise AttributeError(attr)


#: the largest n whose factorial, comb(n, k) or perm(n, k) a statement may ask for
MAX_COMBINATORIAL = 5000
#: the most items prod/fsum/dist/hypot/gcd/lcm take (a sequence a statement built)
MAX_ITEMS = 100_000
#: the largest integer result, in bits (as large as the interpreter's own ints go)
MAX_RESULT_BITS = 1 << 16

_ONE_NUMBER = ("sqrt", "exp", "exp2", "expm1", "log1p", "log2", "log10", "cbrt", "sin",
               "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
               "acosh", "atanh", "erf", "erfc", "gamma", "lgamma", "fabs", "degrees",
               "radians", "ceil", "floor", "trunc", "isfinite", "isinf", "isnan", "frexp",
               "modf", "isqrt")
_OTHERS = ("log", "pow", "atan2", "copysign", "fmod", "remainder", "ldexp", "isclose",
           "hypot", "dist", "fsum", "prod", "gcd", "lcm", "factorial", "comb", "perm")
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}


def _checked(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        _within_budget(name, args)
        try:
            result = fn(*args, **kwargs)
        except (ValueError, TypeError, OverflowError, ZeroDivisionError) as exc:
            if is_torch_error(exc):
                raise               # a tensor's own conversion raised it: already shown
            raise torch_error(type(exc), str(exc)) from None
        if type(result) is int and result.bit_length() > MAX_RESULT_BITS:
            raise Refused(f"math.{name}'s result has {result.bit_length()} bits: more than "
                          f"a statement may hold ({MAX_RESULT_BITS})")
        return result
    call.tidx_builtin = True      # type: ignore[attr-defined]  # prints <built-in function>
    return call


def _within_budget(name: str, args: tuple) -> None:
    """Refuse what would run for minutes before the result could be refused."""
    if name in ("factorial", "comb", "perm"):
        n = args[0] if args else 0
        if type(n) is int and n > MAX_COMBINATORIAL:
            raise Refused(f"math.{name}({n}, ...) is refused: more than "
                          f"{MAX_COMBINATORIAL} would take longer than a lesson")
    if name in ("prod", "fsum", "dist", "hypot", "gcd", "lcm"):
        items = args[0] if name in ("prod", "fsum") and args else args
        size = len(items) if hasattr(items, "__len__") else None
        if size is None or size > MAX_ITEMS:
            raise Refused(f"math.{name} takes a list, tuple, range or torch.Size of at most "
                          f"{MAX_ITEMS} items here")
        if name in ("prod", "lcm") and \
                sum(abs(int(v)).bit_length() for v in items if type(v) is int) > MAX_RESULT_BITS:
            raise Refused(f"math.{name}'s integer result would have more than "
                          f"{MAX_RESULT_BITS} bits")


MATH = Module("math", "<module 'math' (built-in)>",
              {name: _checked(name, getattr(math, name)) for name in _ONE_NUMBER + _OTHERS
               if hasattr(math, name)},
              CONSTANTS)


def _pypto_tables() -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    """pypto's functions and DT_* types, read from engine.pypto when a statement first
    names one: a statement without pypto does not import it (issue #25)."""
    from engine.pypto import index_select as pypto

    return ({name: getattr(pypto, name) for name in (
        "tensor", "from_engine", "index_select", "set_vec_tile_shapes", "set_ub_size")},
        {name: getattr(pypto, name) for name in (
            "DT_FP32", "DT_FP16", "DT_BF16", "DT_INT16", "DT_INT8", "DT_INT32", "DT_INT64")})


#: The value the name ``pypto`` evaluates to (seed 003's NPU library, emulated)
PYPTO = Module("pypto", "<module 'pypto' (tidx emulation of seed 003)>", load=_pypto_tables)


def _nn_functional_tables() -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    """torch.nn.functional's functions tidx runs (engine/binding/nn_functional.py)."""
    from engine.binding import nn_functional     # here: like pypto, only when named

    return nn_functional.functions(), {}


def autograd_tables() -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    """torch.autograd's function tidx runs (engine/binding/backward.py): imported with
    the backward engine when a statement first names it."""
    from engine.binding import backward

    return {"grad": backward.grad}, {}


#: ``torch.nn`` as a statement sees it: only its ``functional`` module
TORCH_NN = Module("torch.nn", "<module 'torch.nn' (tidx engine)>", {}, {
    "functional": Module("torch.nn.functional", "<module 'torch.nn.functional' (tidx engine)>",
                         load=_nn_functional_tables)})


def imported(node: ast.stmt, torch: Any, resolve: Callable[[Any, str], Any]) -> tuple[str, Any]:
    """The name an allowed import statement binds and its value: ``math``, or what its
    path from ``torch`` resolves to in the run's namespace (tidx's, or torch's own under
    --verify): ``F`` of ``import torch.nn.functional as F``."""
    value = torch
    for attr in imported_path(node):
        value = resolve(value, attr)
    return str(imported_name(node)), MATH if value is torch else value
