"""add.Scalar, sub.Scalar and div.Scalar (aten/src/ATen/native/BinaryOps.cpp): C++'s
``tensor + number``, ``tensor - number`` and ``tensor / number`` (TensorOperators.h's
operators call ``x.add(y)`` with a Scalar ``y``), which the backward formulas write
(``result + 1``, ``exponent - 1``, ``grad / 2``).

Each calls its Tensor overload with the number wrapped (``wrapped_scalar_tensor``) as a
redispatch, so torch.profiler records one operator (its TensorIterator's cast of the
number, the ``to`` under it), as mul.Scalar in arithmetic.py; what differs is the node
autograd records: AddBackward1, SubBackward1, DivBackward1 (a create_graph=True backward
pass shows them).  Not bound in Python (gen_python_functions skips them: Python's
parser wraps the number and calls the Tensor overload).
"""

from __future__ import annotations

from typing import Any

from engine.dispatch.declarations import FUNCTIONAL, META_PYTHON, declare
from engine.ops.arithmetic import _add, _div, _sub_checks
from engine.ops.pointwise import BINARY


@declare("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
         variants="function, method", native="at::native::add", source=BINARY,
         meta=META_PYTHON, takes_complex=True)
def add_scalar(self, other, alpha: Any = 1):
    return _add("add", FUNCTIONAL, self, other, alpha, None)


@declare("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
         variants="function, method", native="at::native::sub", source=BINARY,
         meta=META_PYTHON, takes_complex=True)
def sub_scalar(self, other, alpha: Any = 1):
    _sub_checks(self, other)
    return _add("sub", FUNCTIONAL, self, other, alpha, None, negate=True)


@declare("div.Scalar(Tensor self, Scalar other) -> Tensor", variants="function, method",
         native="at::native::div", source=BINARY, meta=META_PYTHON, takes_complex=True)
def div_scalar(self, other):
    return _div("div", self, other, None)
