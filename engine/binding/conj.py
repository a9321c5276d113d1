"""``Tensor.conj()`` / ``torch.conj`` and ``Tensor.is_conj()`` / ``torch.is_conj``.

Both are ``manual_cpp_binding`` in native_functions.yaml: the Python binding calls
``TensorBase::conj()`` and ``is_conj()``, written inline in TensorBody.h, so no aten::conj
or aten::is_conj reaches the dispatcher (torch.profiler records none): ``conj()`` of a
real tensor is the tensor itself, of a complex one ``_conj()``, a view with the
conjugate bit flipped (engine/ops/complex_parts.py); ``is_conj()`` reads the bit.
"""

from __future__ import annotations

from typing import Any

from engine.binding.arg_parser import PythonArgParser
from engine.binding.tensor import Tensor, unpack, wrap_result
from engine.dispatch.aten import aten

_METHOD = PythonArgParser(["conj()"])


def _conj(t: Tensor) -> Tensor:
    impl = unpack(t)
    return wrap_result(aten._conj.default(impl)) if impl.dtype.is_complex else t


def conj(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Tensor.conj(): TensorBase::conj, before the dispatcher."""
    _METHOD.parse(self, args, kwargs)
    return _conj(self)


def conj_function(input: Tensor) -> Tensor:  # noqa: A002 - torch's parameter name
    """torch.conj(input): the same, on the parsed tensor."""
    return _conj(input)
