"""``Tensor.backward``: torch/_tensor.py's Python, then torch/autograd/__init__.py's
``backward`` (``_make_grads``: the implicit ``ones_like`` of a scalar output, the checks
on a given gradient) and the C++ engine under ``_engine_run_backward``
(:mod:`engine.autograd.engine`).

``torch.autograd.grad(outputs, inputs, ...)`` runs the same engine told where to stop
(only the nodes on a path to the inputs run; their gradients are returned, not
accumulated).  tidx runs one output (one root); ``inputs=`` of backward is refused in one
line.
"""

from __future__ import annotations

from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.autograd import engine as E
from engine.binding.tensor import Tensor, wrap
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

WARN = step("TORCH_WARN", Layer.DISPATCHER, source="torch/csrc/autograd/engine.cpp",
            note="autograd.create_graph_warning")
CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")

AUTOGRAD_GRAD = step("torch.autograd.grad", Layer.PYTHON, source="torch/autograd/__init__.py",
                     note="autograd.grad")
_GRAD_PARAMETERS = ("outputs", "inputs", "grad_outputs", "retain_graph", "create_graph",
                    "only_inputs", "allow_unused", "is_grads_batched", "materialize_grads")


def grad(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
    """torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None,
    create_graph=False, allow_unused=None, ...): the gradients of one output with respect
    to ``inputs``, returned as a tuple."""
    values = _bind(args, kwargs, _GRAD_PARAMETERS, "grad", 2)
    outputs, inputs = _tensors(values.get("outputs"), "outputs"), values.get("inputs")
    t_inputs = _tensors(inputs, "inputs")
    if len(outputs) != 1:
        raise Refused("torch.autograd.grad of several outputs at once is not modelled by tidx "
                      "yet (one output, one root)")
    if values.get("is_grads_batched") or values.get("materialize_grads"):
        raise Refused("torch.autograd.grad(is_grads_batched=, materialize_grads=) is not "
                      "modelled by tidx")
    create_graph = bool(values.get("create_graph", False))
    retain = values.get("retain_graph")
    keep_graph = create_graph if retain is None else bool(retain)
    allow_unused = bool(values.get("allow_unused") or False)
    out = outputs[0]._impl
    with span(AUTOGRAD_GRAD, allow_unused=allow_unused) as py:
        gradient = _one_gradient(values.get("grad_outputs"))
        g = _make_grad(out, gradient)
        with span(RUN_BACKWARD, keep_graph=keep_graph):
            if g is None:
                raise torch_error(RuntimeError, "element 0 of tensors does not require grad "
                                                "and does not have a grad_fn")
            for t in t_inputs:
                if not t._impl.requires_grad:
                    raise torch_error(RuntimeError, "One of the differentiated Tensors does "
                                                    "not require grad")
            found = E.execute(out, g, keep_graph, create_graph, [t._impl for t in t_inputs],
                              allow_unused) or []
        result = tuple(None if r is None else wrap(r) for r in found)
        py.set_result(result)
        return result


def _tensors(value: Any, what: str) -> list[Tensor]:
    """_tensor_or_tensors_to_tuple: a tensor, or a sequence of them."""
    items = [value] if isinstance(value, Tensor) else list(value) if isinstance(
        value, (list, tuple)) else None
    if items is None or not all(isinstance(v, Tensor) for v in items):
        raise Refused(f"torch.autograd.grad: {what} must be a tensor or a sequence of "
                      f"tensors (got {tp_name(value)})")
    return items


def backward(self: Tensor, *args: Any, **kwargs: Any) -> None:
    """Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)."""
    values = _bind(args, kwargs, _PARAMETERS, "Tensor.backward", 0)
    gradient, retain_graph, create_graph, inputs = (values.get(n) for n in _PARAMETERS)
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
                if create_graph:
                    # engine.cpp: backward() (not grad()) with create_graph warns
                    with span(WARN, category="UserWarning", message=CREATE_GRAPH_WARNING):
                        pass
                E.execute(out, grad, keep_graph, bool(create_graph))
            ab.set_result(None)
        py.set_result(None)


def _bind(args: tuple, kwargs: dict[str, Any], parameters: tuple[str, ...], name: str,
          required: int) -> dict[str, Any]:
    """Python's own binding of the arguments to the function's signature (a method
    counts its self among the positional arguments)."""
    method = name.startswith("Tensor.")
    if len(args) > len(parameters):
        shown = len(args) + method
        raise torch_error(TypeError, f"{name}() takes from {required + method} to "
                                     f"{len(parameters) + method} positional arguments but "
                                     f"{shown} were given")
    values = dict(zip(parameters, args))
    for k, v in kwargs.items():
        if k not in parameters:
            raise torch_error(TypeError, f"{name}() got an unexpected keyword argument '{k}'")
        if k in values:
            raise torch_error(TypeError, f"{name}() got multiple values for argument '{k}'")
        values[k] = v
    missing = [p for p in parameters[:required] if p not in values]
    if missing:
        raise torch_error(TypeError, f"{name}() missing {len(missing)} required positional "
                                     f"argument{'s' if len(missing) > 1 else ''}: "
                                     + " and ".join(f"'{m}'" for m in missing))
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
