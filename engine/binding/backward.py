"""``Tensor.backward``: torch/_tensor.py's Python, then torch/autograd/__init__.py's
``backward`` (``_make_grads``: the implicit ``ones_like`` of a scalar output, the checks
on a given gradient) and the C++ engine under ``_engine_run_backward``
(:mod:`engine.autograd.engine`).

tidx runs one root (``y.backward(...)``).  ``create_graph=True`` and ``inputs=`` are
refused in one line.
"""

from __future__ import annotations

from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.autograd import engine as E
from engine.binding.tensor import Tensor
from engine.core.errors import Refused, torch_error, tp_name
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten

TENSOR_BACKWARD = step("Tensor.backward", Layer.PYTHON, source="torch/_tensor.py",
                       note="autograd.tensor_backward")
AUTOGRAD_BACKWARD = step("torch.autograd.backward", Layer.PYTHON,
                         source="torch/autograd/__init__.py", note="autograd.make_grads")
RUN_BACKWARD = step("THPEngine_run_backward", Layer.BINDING,
                    source="torch/csrc/autograd/python_engine.cpp",
                    note="autograd.run_backward",
                    libtorch=symbol("THPEngine_run_backward"))

_PARAMETERS = ("gradient", "retain_graph", "create_graph", "inputs")


def backward(self: Tensor, *args: Any, **kwargs: Any) -> None:
    """Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)."""
    values = _bind(args, kwargs)
    gradient, retain_graph, create_graph, inputs = (values.get(n) for n in _PARAMETERS)
    if create_graph:
        raise Refused("backward(create_graph=True) is not modelled by tidx yet (the backward "
                      "pass recording a graph of its own)")
    if inputs is not None:
        raise Refused("backward(inputs=...) is not modelled by tidx yet")
    keep_graph = bool(create_graph) if retain_graph is None else bool(retain_graph)
    out = self._impl
    with span(TENSOR_BACKWARD, gradient=_shown(gradient), retain_graph=retain_graph) as py:
        with span(AUTOGRAD_BACKWARD) as ab:
            grad = _make_grad(out, _one_gradient(gradient))
            with span(RUN_BACKWARD, keep_graph=keep_graph):
                if grad is None:
                    raise torch_error(RuntimeError, "element 0 of tensors does not require "
                                                    "grad and does not have a grad_fn")
                E.execute(out, grad, keep_graph)
            ab.set_result(None)
        py.set_result(None)


def _bind(args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Python's own binding of the arguments to torch/_tensor.py's signature."""
    if len(args) > len(_PARAMETERS):
        raise torch_error(TypeError, f"Tensor.backward() takes from 1 to 5 positional "
                                     f"arguments but {len(args) + 1} were given")
    values = dict(zip(_PARAMETERS, args))
    for k, v in kwargs.items():
        if k not in _PARAMETERS:
            raise torch_error(TypeError, f"Tensor.backward() got an unexpected keyword "
                                         f"argument '{k}'")
        if k in values:
            raise torch_error(TypeError, f"Tensor.backward() got multiple values for "
                                         f"argument '{k}'")
        values[k] = v
    return values


def _one_gradient(gradient: Any) -> Any:
    """_tensor_or_tensors_to_tuple(gradient, 1), then the first (zip with the one
    output; the C++ engine asks for at least as many gradients as outputs)."""
    if gradient is None or isinstance(gradient, Tensor):
        return gradient
    if not isinstance(gradient, (list, tuple, str)):
        raise torch_error(TypeError, f"'{tp_name(gradient)}' object is not iterable")
    items = list(gradient)
    if not items:
        raise torch_error(RuntimeError, "got 1 tensors and 0 gradients")
    return items[0]


def _make_grad(out: TensorImpl, gradient: Any) -> TensorImpl | None:
    """torch/autograd/__init__.py _make_grads for one output."""
    if isinstance(gradient, Tensor):
        grad = gradient._impl
        if tuple(grad.view.sizes) != tuple(out.view.sizes):
            raise torch_error(RuntimeError, (
                f"Mismatch in shape: grad_output[0] has a shape of {_size(grad)} and "
                f"output[0] has a shape of {_size(out)}."))
        if grad.dtype.is_complex != out.dtype.is_complex:
            raise torch_error(RuntimeError, (
                "For complex Tensors, both grad_output and output are required to have the "
                f"same dtype. Mismatch in dtype: grad_output[0] has a dtype of {grad.dtype} "
                f"and output[0] has a dtype of {out.dtype}."))
        return grad
    if gradient is not None:
        raise torch_error(TypeError, "gradients can be either Tensors or None, but got "
                                     f"{tp_name(gradient)}")
    if not out.requires_grad:
        return None
    if out.numel() != 1:
        raise torch_error(RuntimeError, "grad can be implicitly created only for scalar outputs")
    if not out.dtype.is_floating_point:
        raise torch_error(RuntimeError, "grad can be implicitly created only for real scalar "
                                        f"outputs but got {out.dtype}")
    ones: TensorImpl = aten.ones_like.default(out, memory_format="preserve_format")
    return ones


def _size(t: TensorImpl) -> str:
    return f"torch.Size([{', '.join(str(n) for n in t.view.sizes)}])"


def _shown(value: Any) -> Any:
    return value._impl if isinstance(value, Tensor) else value
