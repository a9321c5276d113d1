"""engine.binding.arg_parser against real torch 2.13: every way of passing a factory its
arguments binds as PythonArgParser binds it, and every wrong way raises torch's
TypeError, word for word (through tidx's evaluator, as a user's statement runs)."""

from __future__ import annotations

import pytest

from conftest import require_torch
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

CALLS = [
    # sizes: varargs, one sequence, the size= keyword; bools after the first element
    "torch.zeros(size=(2, 3))", "torch.ones(size=[2])", "torch.empty(size=(2, 3))",
    "torch.zeros(size=())", "torch.zeros(2, True)", "torch.zeros((2, True))",
    "torch.randn(size=(2, 3))", "torch.rand(size=(2,), dtype=torch.float64)",
    "torch.zeros(size=(2,), dtype=torch.int32)",
    "torch.empty(size=(2, 3), memory_format=torch.contiguous_format)",
    "torch.full(size=(2,), fill_value=3)", "torch.full((2,), fill_value=2.5)",
    "torch.full(fill_value=3, size=(2,))",
    "torch.empty_strided(size=(2, 3), stride=(1, 2))",
    "torch.randint(10, size=(3,))", "torch.randint(0, 10, size=(3,))",
    "torch.randint(low=2, high=5, size=(4,))", "torch.randint(high=5, size=(2,))",
    "torch.randint(3, size=(2,), high=9)",
    "torch.arange(end=5)", "torch.arange(start=1, end=5)", "torch.arange(1, end=5, step=2)",
    "torch.arange(1, 5, step=0.5)", "torch.arange(start=0.5, end=2)",
    "torch.eye(n=2, m=3)", "torch.eye(2, m=3)", "torch.randperm(n=4)",
    "torch.randperm(n=4, dtype=torch.float32)",
    "torch.zeros_like(input=t)", "torch.full_like(t, fill_value=7)",
    "torch.randint_like(t, high=4)", "torch.randint_like(t, 2, 4)",
    # missing, extra and repeated arguments
    "torch.zeros()", "torch.ones()", "torch.empty()", "torch.randn()", "torch.rand()",
    "torch.full()", "torch.full((2,))", "torch.full(size=(2,))", "torch.full((2,), size=(3,))",
    "torch.full((2,), 3, 4)", "torch.full((2,), 3, fill_value=4)", "torch.zeros((2,), (3,))",
    "torch.ones(2.5, 3)", "torch.zeros(2, size=(3,))", "torch.randn(2, size=(3,))",
    "torch.empty_strided((2,))", "torch.empty_strided()", "torch.eye()", "torch.randperm()",
    "torch.arange()", "torch.arange(1, 2, 3, 4)", "torch.arange(start=1)",
    "torch.arange(end=5, step=2)", "torch.randint()", "torch.randint(5)",
    "torch.randint(0, 5, (2,), 3)", "torch.randint(low=0, size=(2,))",
    "torch.randint(high=5)", "torch.randint(high=1, low=2)", "torch.zeros_like()",
    "torch.full_like(t)", "torch.rand_like()",
    # unexpected keywords
    "torch.zeros(2, foo=1)", "torch.zeros(size=(2,), foo=1)", "torch.zeros(2, names=None)",
    "torch.empty(2, 3, foo=1)", "torch.randn(a=1, b=2, c=3)", "torch.randn(c=1, b=2, a=3)",
    "torch.randn(dtype=1, device=2, size=3, foo=4)", "torch.zeros_like(t, names=None)",
    "torch.empty_like(t, out=None)", "torch.empty_strided(size=(2,), stride=(1,), foo=2)",
    # wrong types, positional and keyword, whole and per element
    "torch.ones((2, 'a'))", "torch.ones(2, 'a')", "torch.ones(2, 2.5)", "torch.ones((2, 2.5))",
    "torch.ones([2.5])", "torch.ones(2.5)", "torch.ones('a')", "torch.ones(size=[2.5])",
    "torch.ones(size=(2, 'a'))", "torch.ones(size=2)", "torch.ones(size=None)",
    "torch.ones(2, None)", "torch.ones((2, None))", "torch.randn(2, 2.5)",
    "torch.randn((2, 'a'))", "torch.randn(size=(2, 'a'))", "torch.randn(size=3)",
    "torch.zeros(True)", "torch.zeros((True,))", "torch.zeros(2, 2.5, dtype=torch.float64)",
    "torch.full((2, 'a'), 1)", "torch.full(2, 1)", "torch.full(2, 1, names=None)",
    "torch.empty_strided((2,), (1.5,))", "torch.empty_strided((2,), 1)",
    "torch.randint(0, 5, (2, 'a'))", "torch.randint(0, 5, 3)", "torch.randint(0.5, 5, (2,))",
    "torch.randint(5, (2.5,))", "torch.zeros(2, dtype='float')", "torch.zeros(2, dtype=None)",
    "torch.zeros(2, requires_grad=1)", "torch.eye(2.5)", "torch.randperm(2.5)",
    "torch.arange('a')", "torch.zeros_like(3)", "torch.full_like(t, 'a')",
    # parsers derived from native_functions.yaml: None for bool? and Layout?, keywords torch
    # 2.13 dropped (names=), one-element tensors in sizes, bools after the first element
    "torch.ones(2, requires_grad=None)", "torch.zeros(2, pin_memory=None)",
    "torch.zeros(2, layout=None)", "torch.zeros(2, layout=1)", "torch.zeros(2, device=True)",
    "torch.tensor(1, names=None)", "torch.full((2,), 3, names=None)", "torch.tensor()",
    "torch.tensor(1, 2)", "torch.tensor([1, 2], dtype=torch.float64, device='cpu')",
    "torch.randint(3, (2,), dtype=None)", "torch.randperm(3, generator=None)",
    "torch.eye(2, 3, out=None)", "torch.empty_strided((2, 'a'), (1, 'b'))",
    "torch.zeros((2,), (3,), dtype=torch.int32)", "torch.full(size=(2,), fill_value=True)",
    "torch.randn(2, 3, foo=1, bar=2)", "torch.zeros([2, t[0, 0]])", "torch.zeros(t[0, 0], 2)",
    "torch.ones(t[0], 2)", "torch.zeros([True, 2])", "torch.zeros((), dtype=torch.int64)",
    "torch.full([], 1.5)", "torch.empty(2, memory_format=torch.channels_last)",
    # TensorOptions are read before the sizes are unpacked
    # (device='cuda' runs on tidx's simulated GPU, which this CPU torch lacks:
    # tests/cuda/test_cuda_device.py compares it with the CPU's)
    "torch.zeros((2, 'a'), device='foo')",
]


@pytest.mark.parametrize("call", CALLS)
def test_binds_like_torch(call: str) -> None:
    # uninitialised memory (empty): everything but the bytes
    assert_like_torch(["torch.manual_seed(0)", f"y = {call}"],
                      uninitialised=["y"] if "empty" in call else [])


def test_every_signature_parses() -> None:
    """Every generated parser comes from native_functions.yaml schemas: every signature
    has named parameters, and the counts PythonArgParser checks agree."""
    from engine.binding.operators import OperatorBinding, generated_names

    for fname in generated_names("function"):
        parser = OperatorBinding(fname, "function").parser
        assert parser.function_name == fname
        for sig in parser.signatures:
            assert sig.params and all(p.name.isidentifier() for p in sig.params)
            assert sig.toString().startswith("(") and sig.toString().endswith(")")
            assert sig.min_args <= sig.max_pos_args + sum(p.keyword_only and not p.optional
                                                          for p in sig.params)
