"""torch.unique and torch.unique_consecutive: Python functions of torch/functional.py,
and their Tensor methods (torch/_tensor.py).

Neither is a generated binding.  torch.unique is ``boolean_dispatch`` twice over: the
values of ``return_inverse`` (argument 2) and ``return_counts`` (argument 3) pick one of
four Python functions, each of which calls ``torch._unique2`` (or ``_VF.unique_dim``
when ``dim`` is given) and returns one tensor or a plain tuple.  torch.unique_consecutive
does the same around ``_VF.unique_consecutive`` -- with the argument positions 2 and 1,
as torch/functional.py has them.  The functions below keep torch's names and
parameters, so a wrong call fails with the TypeError CPython gives torch's
(``_return_output() got an unexpected keyword argument 'foo'``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding.operators import OperatorBinding
from engine.core.errors import is_torch_error, torch_error

FUNCTIONAL = "torch/functional.py"
TENSOR_PY = "torch/_tensor.py"

_UNIQUE2 = OperatorBinding("_unique2", "function")
_UNIQUE_DIM = OperatorBinding("unique_dim", "function")
_UNIQUE_CONSECUTIVE = OperatorBinding("unique_consecutive", "function")


def _unique_impl(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    kwargs = {"sorted": sorted, "return_inverse": return_inverse,
              "return_counts": return_counts}
    if dim is not None:
        return _UNIQUE_DIM(None, (input, dim), kwargs)
    return _UNIQUE2(None, (input,), kwargs)


def _return_output(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _unique_impl(input, sorted, return_inverse, return_counts, dim)[0]


def _return_inverse(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    output, inverse_indices, _ = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output, inverse_indices


def _return_counts(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    output, _, counts = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output, counts


def _return_inverse_and_counts(input, sorted=True, return_inverse=False, return_counts=False,
                               dim=None):
    return tuple(_unique_impl(input, sorted, return_inverse, return_counts, dim))


def _unique_consecutive_impl(input, return_inverse=False, return_counts=False, dim=None):
    return _UNIQUE_CONSECUTIVE(None, (input,), {"return_inverse": return_inverse,
                                                "return_counts": return_counts, "dim": dim})


def _consecutive_return_output(input, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive_impl(input, return_inverse, return_counts, dim)[0]


def _consecutive_return_inverse(input, return_inverse=False, return_counts=False, dim=None):
    output, inverse_indices, _ = _unique_consecutive_impl(input, return_inverse,
                                                          return_counts, dim)
    return output, inverse_indices


def _consecutive_return_counts(input, return_inverse=False, return_counts=False, dim=None):
    output, _, counts = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output, counts


def _consecutive_return_inverse_and_counts(input, return_inverse=False, return_counts=False,
                                           dim=None):
    return tuple(_unique_consecutive_impl(input, return_inverse, return_counts, dim))


def boolean_dispatch(arg_name: str, arg_index: int, if_true: Callable[..., Any],
                     if_false: Callable[..., Any]) -> Callable[..., Any]:
    """torch/_jit_internal.py boolean_dispatch: the flag's truth picks the function."""
    def fn(*args: Any, **kwargs: Any) -> Any:
        flag = False
        if arg_name in kwargs:
            flag = kwargs[arg_name]
        elif arg_index < len(args):
            flag = args[arg_index]
        return (if_true if flag else if_false)(*args, **kwargs)
    return fn


_unique = boolean_dispatch(
    "return_inverse", 2,
    boolean_dispatch("return_counts", 3, _return_inverse_and_counts, _return_inverse),
    boolean_dispatch("return_counts", 3, _return_counts, _return_output))

# torch/functional.py's positions for unique_consecutive (return_counts at 1,
# return_inverse at 2), kept as they are
_unique_consecutive = boolean_dispatch(
    "return_inverse", 2,
    boolean_dispatch("return_counts", 1, _consecutive_return_inverse_and_counts,
                     _consecutive_return_inverse),
    boolean_dispatch("return_counts", 1, _consecutive_return_counts,
                     _consecutive_return_output))


#: The frames whose calls bind torch's Python functions' arguments.
_CALLERS = frozenset({"fn", "_python_call", "_tensor_unique", "_tensor_unique_consecutive"})


def _binding_error(exc: TypeError) -> bool:
    """Did CPython raise this while binding arguments to one of torch's functions (and
    not from deeper inside)?"""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_name in _CALLERS


#: torch's Python functions that call the unique operators (torch/functional.py's
#: ``unique``, torch/_tensor.py's ``Tensor.unique`` ...)
PYTHON_CALL = step("torch.<unique function> / Tensor.<unique method>", Layer.PYTHON)


def _python_call(where: str, source: str, note: str, fn: Callable[..., Any], args: tuple,
                 kwargs: dict) -> Any:
    """Run torch's Python function; CPython's own TypeErrors (a wrong keyword, too many
    arguments) are torch's errors too."""
    with span(PYTHON_CALL, called=where, source=source, note=note) as s:
        try:
            result = fn(*args, **kwargs)
        except TypeError as exc:
            if is_torch_error(exc) or not _binding_error(exc):
                raise
            raise torch_error(TypeError, str(exc)) from None
        s.set_result(result)
        return result


def unique(*args: Any, **kwargs: Any) -> Any:
    """torch.unique (torch/functional.py)."""
    return _python_call("torch.unique", FUNCTIONAL, "function.unique", _unique, args, kwargs)


def unique_consecutive(*args: Any, **kwargs: Any) -> Any:
    """torch.unique_consecutive (torch/functional.py)."""
    return _python_call("torch.unique_consecutive", FUNCTIONAL, "function.unique_consecutive",
                        _unique_consecutive, args, kwargs)


def _tensor_unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _unique(self, sorted=sorted, return_inverse=return_inverse,
                   return_counts=return_counts, dim=dim)


def _tensor_unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    return _unique_consecutive(self, return_inverse=return_inverse,
                               return_counts=return_counts, dim=dim)


# CPython names a method by its qualified name in its TypeErrors ("Tensor.unique() got an
# unexpected keyword argument 'foo'")
_tensor_unique.__qualname__ = "Tensor.unique"
_tensor_unique_consecutive.__qualname__ = "Tensor.unique_consecutive"


def tensor_unique(self: Any, *args: Any, **kwargs: Any) -> Any:
    """Tensor.unique (torch/_tensor.py): torch.unique with keywords."""
    return _python_call("Tensor.unique", TENSOR_PY, "function.unique", _tensor_unique,
                        (self, *args), kwargs)


def tensor_unique_consecutive(self: Any, *args: Any, **kwargs: Any) -> Any:
    """Tensor.unique_consecutive (torch/_tensor.py)."""
    return _python_call("Tensor.unique_consecutive", TENSOR_PY, "function.unique_consecutive",
                        _tensor_unique_consecutive, (self, *args), kwargs)


tensor_unique.__name__ = "unique"
tensor_unique_consecutive.__name__ = "unique_consecutive"
