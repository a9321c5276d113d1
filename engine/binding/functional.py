"""Functions torch writes in Python over its generated bindings (torch/functional.py,
torch/_tensor.py).

``torch.split`` (torch/functional.py) calls ``Tensor.split`` (torch/_tensor.py), which
picks ``_VF.split`` for an int size and ``_VF.split_with_sizes`` for a list: the
generated binding of split.Tensor/split.sizes is never reached with a list from here,
which is why torch.profiler records ``aten::split_with_sizes`` for ``torch.split(t, [1,
2])``.  ``torch.broadcast_tensors(a, b)`` and ``atleast_1d/2d/3d`` take their tensors as
varargs and hand the generated ``_VF`` binding one tuple (``atleast_1d(t)`` passes one
tensor on as itself).  ``broadcast_shapes`` runs no operator at all
(torch._refs._broadcast_shapes, plain Python over the shapes): torch.profiler records
nothing for it.  Python binds these functions' arguments itself, so a wrong call raises
Python's own TypeError (``split() missing 1 required positional argument ...``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce
from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding import linalg
from engine.binding import operators as O
from engine.binding.tensor import Tensor
from engine.core.device import Size
from engine.core.errors import Refused, as_torch_error, torch_error, tp_name

FUNCTIONAL = FUNCTIONAL_PY = "torch/functional.py"
TENSOR_PY = "torch/_tensor.py"
REFS = "torch/_refs/__init__.py"

_VF_SPLIT = O.function("split", "torch._VF.split")
_VF_SPLIT_WITH_SIZES = O.function("split_with_sizes", "torch._VF.split_with_sizes")


TENSOR_SPLIT = step("Tensor.split", Layer.PYTHON, source=TENSOR_PY, note="split.python_method")


def tensor_split_method(self, split_size, dim=0):
    """Tensor.split(split_size, dim=0): a one-element tensor size is read as an int
    first (a ValueError from int() leaves it a tensor, and the binding speaks)."""
    with span(TENSOR_SPLIT, split_size=lambda: O.shown_argument(split_size), dim=dim) as py:
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


TORCH_SPLIT = step("torch.split", Layer.PYTHON, source=FUNCTIONAL_PY, note="split.python_function")


def split(tensor, split_size_or_sections, dim=0):
    """torch.split: ``tensor.split(split_size_or_sections, dim)``."""
    with span(TORCH_SPLIT,
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



#: torch/functional.py's functions (``torch.<function>``: torch.broadcast_shapes ...)
TORCH_FUNCTIONAL = step("torch.<function>", Layer.PYTHON, source=FUNCTIONAL)


def _python(name: str, note: Any, args: tuple) -> Any:
    return span(TORCH_FUNCTIONAL, called=f"torch.{name}", note=note,
                args=lambda: [O.shown_argument(a) for a in args])


def broadcast_tensors(*tensors: Any) -> Any:
    """``_VF.broadcast_tensors(tensors)``: the varargs as one tuple."""
    with _python("broadcast_tensors", "functional.varargs", tensors) as py:
        result = O.function("broadcast_tensors", "torch._VF.broadcast_tensors")(tensors)
        py.set_result(result)
        return result


def _atleast(name: str) -> Callable[..., Any]:
    def fn(*tensors: Any) -> Any:
        with _python(name, "functional.atleast", tensors) as py:
            # one argument is passed on as it is (a tensor, or a list/tuple of them)
            result = O.function(name, f"torch._VF.{name}")(
                tensors[0] if len(tensors) == 1 else tensors)
            py.set_result(result)
            return result
    fn.__name__ = fn.__qualname__ = name
    return fn


atleast_1d, atleast_2d, atleast_3d = (_atleast(f"atleast_{n}d") for n in (1, 2, 3))


def _refs_broadcast_shapes(*shapes_: Any) -> list[int] | None:
    """torch._refs._broadcast_shapes on plain ints: right-aligned, a 1 takes the other's
    length, a negative length is a ValueError, any other mismatch torch._check's
    RuntimeError."""
    shapes = tuple((x,) if isinstance(x, int) else x for x in shapes_ if x is not None)
    if not shapes:
        return None
    for shape in shapes:
        if not isinstance(shape, Sequence):
            raise torch_error(RuntimeError, "Input shapes should be of type ints, a tuple of "
                                            f"ints, or a list of ints, got {shape}")
    common = [1] * reduce(max, (len(shape) for shape in shapes))
    for arg_idx, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise torch_error(ValueError, "Attempting to broadcast a dimension with "
                                                  "negative length!")
                common[idx] = shape[idx]
            if shape[idx] == 1:
                continue
            if common[idx] != shape[idx]:
                raise torch_error(RuntimeError,
                                  f"Attempting to broadcast a dimension of length {shape[idx]} "
                                  f"at {idx}! Mismatching argument at index {arg_idx} had "
                                  f"{shape}; but expected shape should be broadcastable to "
                                  f"{common}")
    return common


TORCH_REFS_BROADCAST_SHAPES = step("torch._refs._broadcast_shapes", Layer.PYTHON, source=REFS)


def broadcast_shapes(*shapes: Any) -> Size:
    """torch.broadcast_shapes: the shape the given shapes broadcast to, as a torch.Size."""
    with _python("broadcast_shapes", "functional.broadcast_shapes", shapes) as py:
        with span(TORCH_REFS_BROADCAST_SHAPES, note=Note("functional.refs_broadcast_shapes")) as s:
            try:
                result = _refs_broadcast_shapes(*shapes)
            except (TypeError, IndexError) as exc:
                # torch's Python comparing what it was given ("a" < 0): the same
                # Python error, the statement's own
                raise as_torch_error(exc)
            s.set_result(result)
        size = Size([] if result is None else result)
        py.set_result(size)
        return size


#: torch.* functions written in Python, by name (binding/functions.py adds them)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "split": split, "broadcast_tensors": broadcast_tensors,
    "broadcast_shapes": broadcast_shapes,
    "atleast_1d": atleast_1d, "atleast_2d": atleast_2d, "atleast_3d": atleast_3d,
    "norm": linalg.norm}
#: Tensor methods written in Python, by name
METHODS = {"split": tensor_split_method, "norm": linalg.tensor_norm}
