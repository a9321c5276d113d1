"""Operators that hand values to Python: item, _local_scalar_dense, is_nonzero,
_assert_async (is_nonzero's value checked in C++: what multinomial checks its
probabilities with), and the resolve_neg that ``tolist()`` runs after resolve_conj (engine/ops/complex_parts.py).

Mirrors aten/src/ATen/native/Scalar.cpp, prim_native_functions.cpp and UnaryOps.cpp.
tidx has no negative views, so resolve_neg returns ``self`` as torch's does when the
bit is unset.
"""

from __future__ import annotations

from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.core.errors import check, torch_error
from engine.dispatch.declarations import CHECK_WRAPPER, COMPOSITE, META_PYTHON_ALONE, declare
from engine.dispatch.aten import aten
from engine.ops.touch import touched

SCALAR = "aten/src/ATen/native/Scalar.cpp"
UNARY = "aten/src/ATen/native/UnaryOps.cpp"


@declare("item(Tensor self) -> Scalar", variants="method", kind=COMPOSITE,
         native="at::native::item", source=SCALAR)
def item(self):
    numel = self.numel()
    check(numel == 1, RuntimeError,
          f"a Tensor with {numel} elements cannot be converted to Scalar")
    return aten._local_scalar_dense.default(self)


#: the CPU kernel reading the one element into a C++ Scalar
LOCAL_SCALAR_DENSE_CPU = step("_local_scalar_dense_cpu", Layer.KERNEL, source=SCALAR,
                              libtorch=symbol("at::native::_local_scalar_dense_cpu"))


@declare("_local_scalar_dense(Tensor self) -> Scalar",
         native="at::native::_local_scalar_dense_cpu", source=SCALAR,
         meta=META_PYTHON_ALONE, device_check=CHECK_WRAPPER, takes_complex=True)
def _local_scalar_dense(self):
    if self.is_meta:
        raise torch_error(RuntimeError, "Tensor.item() cannot be called on meta tensors")
    with span(LOCAL_SCALAR_DENSE_CPU) as s:
        value = self.array().reshape(-1)[0]
        s.set(read=touched(self))    # the one element, read into a C++ scalar
    return value.item()


@declare("is_nonzero(Tensor self) -> bool", variants="function, method", kind=COMPOSITE,
         native="at::native::is_nonzero", source="aten/src/ATen/native/prim_native_functions.cpp")
def is_nonzero(self):
    """``bool(t)``: exactly one element, compared with zero after item()."""
    n = self.numel()
    check(n != 0, RuntimeError, "Boolean value of Tensor with no values is ambiguous")
    check(n < 2, RuntimeError, "Boolean value of Tensor with more than one value is ambiguous")
    return bool(aten.item.default(self))


COMPARE = "aten/src/ATen/native/TensorCompare.cpp"


def _assert_nonzero(self, message: str) -> None:
    # _assert_async_cpu calls native::is_nonzero directly (no aten::is_nonzero recorded:
    # its item() sits right under _assert_async)
    check(is_nonzero(self), RuntimeError, message)


@declare("_assert_async(Tensor self) -> ()", native="at::native::_assert_async_cpu",
         source=COMPARE, meta=META_PYTHON_ALONE, device_check=CHECK_WRAPPER)
def _assert_async(self):
    _assert_nonzero(self, "Expected Tensor with single nonzero value, but got zero")


@declare("_assert_async.msg(Tensor self, str assert_msg) -> ()",
         native="at::native::_assert_async_msg_cpu", source=COMPARE, meta=META_PYTHON_ALONE,
         device_check=CHECK_WRAPPER)
def _assert_async_msg(self, assert_msg):
    _assert_nonzero(self, assert_msg or "Assertion is failed")


@declare("resolve_neg(Tensor(a) self) -> Tensor(a)", variants="function, method",
         kind=COMPOSITE, native="at::native::resolve_neg", source=UNARY)
def resolve_neg(self):
    """No negative bit set: ``self``, nothing copied."""
    return self
