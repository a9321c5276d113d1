"""A tensor's autograd attributes, as python_variable.cpp and
python_variable_methods.cpp bind them: ``requires_grad`` (read and set),
``requires_grad_()``, ``is_leaf``, ``grad_fn``, ``grad``, ``_version``, ``_base``,
``_is_view()``, ``is_inference()``, ``data``, ``output_nr`` and ``retains_grad``.

None of them is an operator (torch.profiler records nothing for them); each reads the
TensorImpl's autograd fields: its version counter and view base
(engine/dispatch/inplace_or_view.py), its ``grad_fn`` and output number
(engine/dispatch/autograd_graph.py).  The backward pass is not modelled yet (issue #27):
``.grad`` is None, as it is in torch before any backward, and ``backward()`` is refused.
A node (``y.grad_fn``) shows its ``name()``, its ``next_functions`` and, for an
AccumulateGrad, its ``variable``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.binding.hooks import is_hook_handle, register_hook
from engine.binding.arg_parser import PythonArgParser, check_noarg_method
from engine.binding.tensor import Tensor, wrap
from engine.binding.traced import traced
from engine.core.context import current
from engine.core.errors import Refused, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.autograd_graph import Node
from engine.dispatch.autograd_key import differentiable

GETTERS_CPP = "torch/csrc/autograd/python_variable.cpp"
METHODS_CPP = "torch/csrc/autograd/python_variable_methods.cpp"

_REQUIRES_GRAD_ = PythonArgParser(["requires_grad_(bool requires_grad=True)"])


def _data(impl: TensorImpl) -> TensorImpl:
    """VariableHooks::variable_data: the same storage and geometry, a fresh version
    counter, no autograd history and not a view (``x.data._version`` is 0)."""
    return impl.with_view(impl.view)


def _version(impl: TensorImpl) -> int:
    """TensorImpl::version_counter: an inference tensor has none."""
    if impl.is_inference:
        raise torch_error(RuntimeError, "Inference tensors do not track version counter.")
    return impl.version.value


_INFERENCE_REQUIRES_GRAD = ("Setting requires_grad=True on inference tensor outside "
                            "InferenceMode is not allowed.")


def _check_inference(impl: TensorImpl, value: bool) -> None:
    """TensorImpl::set_requires_grad: outside inference mode an inference tensor cannot
    start requiring grad (it has no autograd keys to record a history with)."""
    if value and impl.is_inference and not current().inference_mode:
        raise torch_error(RuntimeError, _INFERENCE_REQUIRES_GRAD)


#: The getters: name -> (the C++ getter, the field it reads, the reader).
PROPERTIES: dict[str, tuple[str, str, Callable[[TensorImpl], Any]]] = {
    "requires_grad": ("THPVariable_get_requires_grad", "requires_grad()",
                      lambda i: i.requires_grad),
    "is_leaf": ("THPVariable_is_leaf", "grad_fn()", lambda i: i.grad_fn is None),
    "grad_fn": ("THPVariable_get_grad_fn", "grad_fn()", lambda i: i.grad_fn),
    "grad": ("THPVariable_get_grad", "grad()",
             lambda i: None if i.grad is None else wrap(i.grad)),
    "retains_grad": ("THPVariable_retains_grad", "retains_grad()", lambda i: i.retains_grad),
    "output_nr": ("THPVariable_get_output_nr", "output_nr()", lambda i: i.output_nr),
    "_version": ("THPVariable_get_version", "_version()", lambda i: _version(i)),
    "_base": ("THPVariable_get_base", "_base()",
              lambda i: None if i.view_base is None else wrap(i.view_base)),
    "data": ("THPVariable_get_data", "variable_data()", lambda i: wrap(_data(i))),
}


def _getter(name: str, binding: str, reads: str,
            read: Callable[[TensorImpl], Any]) -> Callable[[Tensor], Any]:
    def get(self: Tensor) -> Any:
        return traced(f"Tensor.{name}", binding, GETTERS_CPP, lambda: read(self._impl),
                      reads=reads)
    get.__name__ = name
    return get


_NOT_A_LEAF = ("you can only change requires_grad flags of leaf variables. If you want to "
               "use a computed variable in a subgraph that doesn't require differentiation "
               "use var_no_grad = var.detach().")


def _set_requires_grad(self: Tensor, value: Any) -> None:
    """THPVariable_set_requires_grad: a bool, and only on a differentiable dtype."""
    if not isinstance(value, bool):
        raise torch_error(RuntimeError, "requires_grad must be a bool")
    if not value and self._impl.grad_fn is not None:
        raise torch_error(RuntimeError, _NOT_A_LEAF)
    if value and not differentiable(self._impl.dtype):
        raise torch_error(RuntimeError, "only Tensors of floating point and complex dtype "
                                        "can require gradients")
    _check_inference(self._impl, value)
    self._impl.requires_grad = value


def requires_grad_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """THPVariable_requires_grad_: the flag of a leaf, set in place; ``self`` back."""
    def body() -> Tensor:
        value = bool(_REQUIRES_GRAD_.parse(self, args, kwargs)["requires_grad"])
        if not value and self._impl.grad_fn is not None:
            raise torch_error(RuntimeError, _NOT_A_LEAF)
        if value and not differentiable(self._impl.dtype):
            raise torch_error(RuntimeError, "only Tensors of floating point dtype can "
                                            "require gradients")
        _check_inference(self._impl, value)
        if self._impl.grad_fn is None:
            self._impl.requires_grad = value
        return self
    return traced("Tensor.requires_grad_", "THPVariable_requires_grad_", METHODS_CPP, body,
                  reads="requires_grad()", args=args, kwargs=kwargs)


def retain_grad(self: Tensor, *args: Any, **kwargs: Any) -> None:
    """THPVariable_retain_grad: a tensor with a history keeps its .grad in backward; a
    leaf keeps it anyway."""
    check_noarg_method("retain_grad", args, kwargs)

    def body() -> None:
        impl = self._impl
        if not impl.requires_grad:
            raise torch_error(RuntimeError, "can't retain_grad on Tensor that has "
                                            "requires_grad=False")
        if impl.grad_fn is not None and not impl.retains_grad:
            impl.retains_grad = True
            impl.grad_fn.retained[impl.output_nr] = impl
    return traced("Tensor.retain_grad", "THPVariable_retain_grad", METHODS_CPP, body,
                  reads="retains_grad()")


def backward(self: Tensor, *args: Any, **kwargs: Any) -> None:
    """Tensor.backward (engine/binding/backward.py, imported with the engine the first
    time a statement runs a backward pass)."""
    from engine.binding.backward import backward as run
    run(self, *args, **kwargs)


def _is_view(self: Tensor, *args: Any, **kwargs: Any) -> bool:
    """THPVariable__is_view: made by a view operator above autograd (not detach)."""
    check_noarg_method("_is_view", args, kwargs)
    return traced("Tensor._is_view", "THPVariable__is_view", METHODS_CPP,
                  lambda: self._impl.view_base is not None, reads="is_view()")


def is_inference(self: Tensor, *args: Any, **kwargs: Any) -> bool:
    """Tensor.is_inference (manual_cpp_binding: TensorImpl::is_inference, no operator):
    made in inference mode, or a view of a tensor that was."""
    check_noarg_method("is_inference", args, kwargs)
    return traced("Tensor.is_inference", "THPVariable_is_inference", METHODS_CPP,
                  lambda: self._impl.is_inference, reads="is_inference()")


#: What a statement may read of a node (``y.grad_fn.next_functions``, ``.name()``,
#: an AccumulateGrad's ``.variable``)
NODE_ATTRIBUTES = frozenset({"name", "next_functions", "variable", "remove", "id"})


def is_graph_node(obj: Any) -> bool:
    """A ``grad_fn``: tidx's node, or (under --verify) torch's own, whose classes
    (``MulBackward0``, ``AccumulateGrad``) are made in C++ with these attributes; or a
    hook's handle (its ``remove()`` and ``id``)."""
    return is_hook_handle(obj) or isinstance(obj, Node) or (
        type(obj).__module__ == "builtins" and hasattr(type(obj), "next_functions")
        and hasattr(type(obj), "name"))


def node_attribute(obj: Any, attr: str) -> Any:
    """``node.attr``; an AccumulateGrad's ``variable`` is the leaf, as Python sees it."""
    value = getattr(obj, attr)
    return wrap(value) if isinstance(value, TensorImpl) else value


def install(cls: type) -> set[str]:
    """Put the attributes and methods on the Tensor type; their names."""
    for name, (binding, reads, read) in PROPERTIES.items():
        setter = _set_requires_grad if name == "requires_grad" else None
        setattr(cls, name, property(_getter(name, binding, reads, read), setter))
    for fn in (requires_grad_, retain_grad, backward, _is_view, register_hook, is_inference):
        setattr(cls, fn.__name__, fn)
    return {*PROPERTIES, "requires_grad_", "retain_grad", "backward", "_is_view",
            "register_hook", "is_inference"}
