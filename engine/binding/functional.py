"""Python-level functions torch writes in Python over its generated bindings.

``torch.split`` (torch/functional.py) calls ``Tensor.split`` (torch/_tensor.py), which
picks ``_VF.split`` for an int size and ``_VF.split_with_sizes`` for a list: the
generated binding of split.Tensor/split.sizes is never reached with a list from here,
which is why torch.profiler records ``aten::split_with_sizes`` for ``torch.split(t, [1,
2])``.  ``torch.atleast_1d/2d/3d`` (torch/functional.py) take their tensors as varargs.
Python binds these functions' arguments itself, so a wrong call raises Python's own
TypeError (``split() missing 1 required positional argument ...``).
"""

from __future__ import annotations

from typing import Any

from tracer.recorder import span

from engine.binding import operators as O
from engine.binding.tensor import Tensor
from engine.core.errors import Refused, torch_error, tp_name

FUNCTIONAL_PY = "torch/functional.py"
TENSOR_PY = "torch/_tensor.py"

_VF_SPLIT = O.function("split", "torch._VF.split")
_VF_SPLIT_WITH_SIZES = O.function("split_with_sizes", "torch._VF.split_with_sizes")


def tensor_split_method(self, split_size, dim=0):
    """Tensor.split(split_size, dim=0): a one-element tensor size is read as an int
    first (a ValueError from int() leaves it a tensor, and the binding speaks)."""
    with span("Tensor.split", "python", source=TENSOR_PY, note="split.python_method",
              split_size=lambda: O.shown_argument(split_size), dim=dim) as py:
        if isinstance(split_size, Tensor):
            try:
                split_size = int(split_size)
            except ValueError:
                pass
        if isinstance(split_size, int):
            result = _VF_SPLIT(self, split_size, dim)
        else:
            result = _VF_SPLIT_WITH_SIZES(self, split_size, dim)
        py.set_result(result)
        return result


tensor_split_method.__name__ = "split"
tensor_split_method.__qualname__ = "Tensor.split"


def split(tensor, split_size_or_sections, dim=0):
    """torch.split: ``tensor.split(split_size_or_sections, dim)``."""
    with span("torch.split", "python", source=FUNCTIONAL_PY, note="split.python_function",
              split_size_or_sections=lambda: O.shown_argument(split_size_or_sections),
              dim=dim) as py:
        if not isinstance(tensor, Tensor):
            # torch goes on to ``tensor.split``: Python's AttributeError for most objects
            if not hasattr(tensor, "split"):
                raise torch_error(AttributeError, f"'{tp_name(tensor)}' object has no "
                                                  "attribute 'split'")
            raise Refused("torch.split of something other than a tensor is not modelled")
        result = tensor.split(split_size_or_sections, dim)
        py.set_result(result)
        return result


def _atleast(n: int):
    binding = O.function(f"atleast_{n}d", f"torch._VF.atleast_{n}d")

    def atleast(*tensors: Any) -> Any:
        # one argument is passed as it is (a tensor, or a list of them); several as a tuple
        with span(f"torch.atleast_{n}d", "python", source=FUNCTIONAL_PY,
                  note="split.python_atleast"):
            return binding(tensors[0] if len(tensors) == 1 else tensors)
    atleast.__name__ = atleast.__qualname__ = f"atleast_{n}d"
    return atleast


#: torch.* functions written in Python, by name
FUNCTIONS = {"split": split, "atleast_1d": _atleast(1), "atleast_2d": _atleast(2),
             "atleast_3d": _atleast(3)}
#: Tensor methods written in Python, by name
METHODS = {"split": tensor_split_method}
