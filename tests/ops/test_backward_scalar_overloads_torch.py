"""The overloads the backward formulas call, compared with torch 2.13 under
create_graph=True: a C++ number beside a tensor in derivatives.yaml or FunctionsManual.cpp
(``grad * alpha``, ``2 * result``, ``grad / n``) is TensorOperators.h's Scalar operator,
i.e. mul.Scalar / div.Scalar, which records MulBackward1 / DivBackward1 on the gradient,
not the Tensor overload's MulBackward0 / DivBackward0.  Each program's gradient graph
(node names, edge by edge, a few levels down) is compared with torch's; the incoming
gradient ``v`` requires grad so that every formula's operators record nodes.
"""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

pytestmark = pytest.mark.torch

#: one small program per formula that writes a number beside a tensor
PROGRAMS = [
    "x.sqrt()", "x.mean()", "x.mean(0)", "torch.add(w, x, alpha=2)", "torch.sub(w, x, alpha=3)",
    "x * 2", "x / 2", "x.var()", "x.std()", "x.var(0)", "x.std(0)",
    "torch.var_mean(x, 0)[0]", "torch.std_mean(x, 0)[0]", "x.pow(3)",
]


def _walk(node, depth: int = 0) -> list:
    if node is None or depth > 4:
        return []
    return [node.name(), *(_walk(n, depth + 1) for n, _ in node.next_functions
                           if n is not None and n.name() != "torch::autograd::AccumulateGrad")]


def _graph(lib, expression: str) -> list:
    x = lib.arange(1., 7.).reshape(2, 3).requires_grad_()
    w = lib.ones(2, 3)
    y = eval(expression, {"torch": lib, "x": x, "w": w})    # noqa: S307 - the test's own text
    v = lib.ones(y.shape).requires_grad_()
    y.backward(v, create_graph=True)
    return _walk(x.grad.grad_fn)


@pytest.mark.parametrize("expression", PROGRAMS)
def test_backward_formulas_call_torchs_scalar_overloads(expression):
    assert_like_torch(_graph, expression)
