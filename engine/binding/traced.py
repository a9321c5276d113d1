"""The hand-written bindings' two steps (python_variable_methods.cpp, python_variable.cpp's
getters): the Python method or property (``Tensor.stride``) and the C++ function under it
(``THPVariable_stride``), recorded as the generated bindings' are.

Both are families of steps named at run time (one member per method), so their specs are
declared here, with the one fact per member a name cannot give: which getter of
python_variable.cpp (static, outside any namespace) gdb stops in for a property.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer import recorder
from tracer.notes import Note
from tracer.steps import Layer, Libtorch, UNMAPPED, step, symbol

from engine.binding import operators as O

TENSOR_PY = "torch/_tensor.py"

#: ``Tensor.<method>``: Python code in torch/_tensor.py, or the entry of a C++ method
PYTHON_METHOD = step("Tensor.<method>", Layer.PYTHON, source=TENSOR_PY)
#: ``THPVariable_<method>`` (torch/csrc/autograd, namespace torch::autograd), or a
#: property's getter ``THPVariable_get_<property>``
BINDING_METHOD = step("THPVariable_<method>", Layer.BINDING)

#: The property getters of python_variable.cpp tidx matched in the wheel: the property ->
#: its getter (``dtype``'s is THPVariable_dtype, no ``get_``).
GETTERS: dict[str, str] = {
    "dtype": "THPVariable_dtype", "device": "THPVariable_device",
    "layout": "THPVariable_layout", "shape": "THPVariable_get_shape",
    "ndim": "THPVariable_get_ndim", "nbytes": "THPVariable_get_nbytes",
    "itemsize": "THPVariable_get_itemsize",
}

#: Methods bound to a C++ function of another name: Tensor.untyped_storage is bound to
#: THPVariable_storage (python_variable_methods.cpp's method table)
BOUND_AS: dict[str, str] = {"THPVariable_untyped_storage": "THPVariable_storage"}


def binding_symbol(binding: str) -> Libtorch:
    """Where gdb stops for the binding step ``binding``: a getter by its property, any
    other THPVariable_ function in torch::autograd (the generated bindings and the
    indexing ones are there too)."""
    if binding.startswith("THPVariable_get_"):
        getter = GETTERS.get(binding.removeprefix("THPVariable_get_"))
        return symbol(getter) if getter else UNMAPPED
    if binding.startswith("THPVariable_"):
        return symbol(f"torch::autograd::{BOUND_AS.get(binding, binding)}")
    return UNMAPPED


def traced(python: str, binding: str, source: str, body: Callable[[], Any], *,
           note: Any = "binding.readsTensorImpl", args: tuple = (),
           kwargs: dict | None = None, reads: str | None = None) -> Any:
    """One hand-written binding call, recorded as the generated ones are: the Python
    step (``Tensor.stride``), the C++ binding under it (``THPVariable_stride``), and
    whatever the body dispatches inside.  ``reads`` names the TensorImpl field a fact
    comes from (torch.profiler sees no operator for those)."""
    if not recorder.active():
        return body()
    shown: dict[str, Any] = {"kwargs": lambda: {k: O.shown_argument(v)
                                                for k, v in kwargs.items()}} if kwargs else {}
    with recorder.span(PYTHON_METHOD.named(python),
                       args=lambda: [O.shown_argument(a) for a in args], **shown) as py:
        with recorder.span(BINDING_METHOD.named(binding, binding_symbol(binding)), source=source,
                           note=Note(note, reads=reads) if reads else note) as b:
            result = body()
            b.set_result(result)
        py.set_result(result)
        return result
