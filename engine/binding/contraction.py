"""torch.einsum and torch.tensordot: Python in torch/functional.py over ``_VF``.

``torch.einsum(*args)`` takes the equation and the operands as varargs (or one list of
them), or the sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` which it spells as an
equation first (0-25 are A-Z, 26-51 a-z, ``...`` the ellipsis).  With three operands or
more it would ask opt_einsum for a contraction path when ``torch.backends.opt_einsum``
is enabled; torch 2.13 here has no opt_einsum beside it, so ``enabled`` is False and
``_VF.einsum(equation, operands)`` gets no path: Linear.cpp contracts left to right.
``torch.tensordot(a, b, dims=2, out=None)`` turns ``dims`` (an int n: the last n dims of
a with the first n of b; or two lists) into the two lists ``_VF.tensordot`` takes.
"""

from __future__ import annotations

from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding import operators as O
from engine.binding.tensor import Tensor
from engine.core.errors import Refused, torch_error, tp_name

FUNCTIONAL = "torch/functional.py"

TORCH_EINSUM = step("torch.einsum", Layer.PYTHON, source=FUNCTIONAL, note="einsum.python")
TORCH_TENSORDOT = step("torch.tensordot", Layer.PYTHON, source=FUNCTIONAL,
                       note="tensordot.python")

_VF_EINSUM = O.function("einsum", "torch._VF.einsum")
_VF_TENSORDOT = O.function("tensordot", "torch._VF.tensordot")


def _parse_subscript(n: Any) -> str:
    if n is Ellipsis:
        return "..."
    if isinstance(n, bool) or not isinstance(n, int):
        raise Refused(f"einsum's sublist format with a subscript of type {tp_name(n)} "
                      "is not modelled")
    if 0 <= n < 26:
        return chr(ord("A") + n)
    if 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise torch_error(ValueError, "einsum(): subscript in subscript list is not within the "
                                  "valid range [0, 52)")


def _sublist(lst: Any) -> str:
    if isinstance(lst, (int, float, bool)) or lst is None:
        # "".join(parse_subscript(s) for s in l): Python iterating what cannot be
        raise torch_error(TypeError, f"'{tp_name(lst)}' object is not iterable")
    if not isinstance(lst, (list, tuple)):
        raise Refused("einsum's sublist format with a subscript list of type "
                      f"{tp_name(lst)} is not modelled")
    return "".join(_parse_subscript(s) for s in lst)


def einsum(*args: Any) -> Any:
    """torch.einsum (torch/functional.py)."""
    with span(TORCH_EINSUM, args=lambda: [O.shown_argument(a) for a in args]) as py:
        if len(args) < 2:
            raise torch_error(ValueError,
                              "einsum(): must specify the equation string and at least one "
                              "operand, or at least one operand and its subscripts list")
        if isinstance(args[0], Tensor):
            equation = ",".join(_sublist(lst) for lst in args[1::2])
            if len(args) % 2 == 1:
                equation += "->" + _sublist(args[-1])
                operands = args[:-1:2]
            else:
                operands = args[::2]
        else:
            equation, operands = args[0], args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            result = einsum(equation, *operands[0])
        else:
            # opt_einsum is not available: no path, whatever the number of operands
            result = _VF_EINSUM(equation, operands)
        py.set_result(result)
        return result


def tensordot(a: Any, b: Any, dims: Any = 2, out: Any = None) -> Any:
    """torch.tensordot (torch/functional.py)."""
    with span(TORCH_TENSORDOT, dims=lambda: O.shown_argument(dims)) as py:
        if isinstance(dims, Tensor):
            raise Refused("torch.tensordot with dims given as a tensor is not modelled yet")
        if not isinstance(dims, (tuple, list, int)):
            raise torch_error(RuntimeError,
                              "tensordot expects dims to be int or tuple[list[int], list[int]] "
                              "or list[list[int]] containing two lists, but got "
                              f"dims={dims}")
        dims_a: Any = []
        dims_b: Any = []
        if isinstance(dims, (tuple, list)):
            if len(dims) != 2:
                raise torch_error(ValueError, f"{'too many' if len(dims) > 2 else 'not enough'}"
                                  f" values to unpack (expected 2"
                                  + (")" if len(dims) > 2 else f", got {len(dims)})"))
            dims_a, dims_b = dims
        if isinstance(dims, int):
            for t in (a, b):
                if not isinstance(t, Tensor):
                    raise torch_error(AttributeError, f"'{tp_name(t)}' object has no "
                                                      "attribute 'dim'")
            if dims < 0:
                raise torch_error(RuntimeError,
                                  f"tensordot expects dims >= 0, but got dims={dims}")
            if dims > min(a.dim(), b.dim()):
                raise torch_error(RuntimeError,
                                  f"tensordot expects dims < ndim_a or ndim_b, but got "
                                  f"dims={dims}")
            dims_a = list(range(-dims, 0))
            dims_b = list(range(dims))
        if out is None:
            result = _VF_TENSORDOT(a, b, dims_a, dims_b)
        else:
            result = _VF_TENSORDOT(a, b, dims_a, dims_b, out=out)
        py.set_result(result)
        return result


#: torch.* functions written in Python, by name (binding/functions.py adds them)
FUNCTIONS = {"einsum": einsum, "tensordot": tensordot}
