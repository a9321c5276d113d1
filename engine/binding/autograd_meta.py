"""A tensor's autograd attributes, as python_variable.cpp and
python_variable_methods.cpp bind them: ``requires_grad`` (read and set),
``requires_grad_()``, ``is_leaf``, ``grad_fn``, ``grad``, ``_version``, ``_base``,
``_is_view()``, ``data``, ``output_nr`` and ``retains_grad``.

None of them is an operator (torch.profiler records nothing for them); each reads the
TensorImpl's AutogradMeta or its version counter (engine/dispatch/inplace_or_view.py
keeps both).  tidx does not build autograd graphs yet (issue #27): an operator whose
result would get a ``grad_fn`` is refused at the dispatcher, so every tensor a program
can hold is a leaf with no ``grad_fn`` and no ``.grad``; these attributes answer what
torch answers for such tensors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.binding.arg_parser import PythonArgParser, check_noarg_method
from engine.binding.tensor import Tensor, wrap
from engine.binding.traced import traced
from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl

GETTERS_CPP = "torch/csrc/autograd/python_variable.cpp"
METHODS_CPP = "torch/csrc/autograd/python_variable_methods.cpp"

_REQUIRES_GRAD_ = PythonArgParser(["requires_grad_(bool requires_grad=True)"])


def _differentiable(impl: TensorImpl) -> bool:
    """isDifferentiableType: floating point and complex dtypes."""
    return impl.dtype.is_floating_point or impl.dtype.name.startswith("complex")


def _data(impl: TensorImpl) -> TensorImpl:
    """VariableHooks::variable_data: the same storage and geometry, a fresh version
    counter, no autograd history and not a view (``x.data._version`` is 0)."""
    return impl.with_view(impl.view)


#: The getters: name -> (the C++ getter, the field it reads, the reader).
PROPERTIES: dict[str, tuple[str, str, Callable[[TensorImpl], Any]]] = {
    "requires_grad": ("THPVariable_get_requires_grad", "requires_grad()",
                      lambda i: i.requires_grad),
    "is_leaf": ("THPVariable_is_leaf", "grad_fn()", lambda i: True),
    "grad_fn": ("THPVariable_get_grad_fn", "grad_fn()", lambda i: None),
    "grad": ("THPVariable_get_grad", "grad()", lambda i: None),
    "retains_grad": ("THPVariable_retains_grad", "retains_grad()", lambda i: False),
    "output_nr": ("THPVariable_get_output_nr", "output_nr()", lambda i: 0),
    "_version": ("THPVariable_get_version", "_version()", lambda i: i.version.value),
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


def _set_requires_grad(self: Tensor, value: Any) -> None:
    """THPVariable_set_requires_grad: a bool, and only on a differentiable dtype."""
    if not isinstance(value, bool):
        raise torch_error(RuntimeError, "requires_grad must be a bool")
    if value and not _differentiable(self._impl):
        raise torch_error(RuntimeError, "only Tensors of floating point and complex dtype "
                                        "can require gradients")
    self._impl.requires_grad = value


def requires_grad_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """THPVariable_requires_grad_: the flag of a leaf, set in place; ``self`` back."""
    def body() -> Tensor:
        value = bool(_REQUIRES_GRAD_.parse(self, args, kwargs)["requires_grad"])
        if value and not _differentiable(self._impl):
            raise torch_error(RuntimeError, "only Tensors of floating point dtype can "
                                            "require gradients")
        self._impl.requires_grad = value
        return self
    return traced("Tensor.requires_grad_", "THPVariable_requires_grad_", METHODS_CPP, body,
                  reads="requires_grad()", args=args, kwargs=kwargs)


def _is_view(self: Tensor, *args: Any, **kwargs: Any) -> bool:
    """THPVariable__is_view: made by a view operator above autograd (not detach)."""
    check_noarg_method("_is_view", args, kwargs)
    return traced("Tensor._is_view", "THPVariable__is_view", METHODS_CPP,
                  lambda: self._impl.view_base is not None, reads="is_view()")


def install(cls: type) -> set[str]:
    """Put the attributes and methods on the Tensor type; their names."""
    for name, (binding, reads, read) in PROPERTIES.items():
        setter = _set_requires_grad if name == "requires_grad" else None
        setattr(cls, name, property(_getter(name, binding, reads, read), setter))
    for fn in (requires_grad_, _is_view):
        setattr(cls, fn.__name__, fn)
    return {*PROPERTIES, "requires_grad_", "_is_view"}
