"""torch.logaddexp (torch.logaddexp, Tensor.logaddexp, out=; torch has no in-place form):
one structured group in engine/ops/arithmetic.py, compared with torch 2.13 -- values bit
for bit, layout, errors word for word, the aten operators torch.profiler records.

torch computes max(a, b) + log1p(exp(-|a - b|)) with Sleef's vectorised exp and log1p,
whose last bit numpy's differ from on about one float32 result in five (measured: 423,106
of 2,000,000 standard-normal pairs); tidx runs the kernel only where exp(-|a - b|) is 0 in
both (a NaN, equal infinities, operands more than 104 apart in float, 1000 in double) and
refuses the rest in one line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.core.errors import Refused
from engine.dispatch.declarations import REGISTRY
from engine.interpreter import session
from oracle import assert_like_torch, call, forms

pytestmark = pytest.mark.torch

INF = "float('inf')"
A = f"a = torch.tensor([[0., -{INF}, {INF}], [-{INF}, 1e3, -200.]]); "
B = f"b = torch.tensor([[-{INF}, 2., {INF}], [-{INF}, -5., float('nan')]]); "


@pytest.mark.parametrize("statements", [
    A + B + "y = torch.logaddexp(a, b)",
    A + B + "y = a.logaddexp(b)",
    A + B + "o = torch.empty(0); y = torch.logaddexp(a, b, out=o)",
    A + B + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.logaddexp(a, b, out=o)",
    A + B + "y = torch.logaddexp(a.t(), b.t())",
    A + "y = torch.logaddexp(a, torch.tensor(-500.))",
    A + "y = torch.logaddexp(a.double(), torch.tensor([-2000., 3000., 2000.]))",
    A + "y = torch.logaddexp(a.half(), torch.tensor(-1000., dtype=torch.half))",
    A + "y = torch.logaddexp(a, torch.tensor([-500, 3000, 500]))",
    A + B + "y = torch.logaddexp(a, b, out=a)",
    # AT_DISPATCH_FLOATING_TYPES (and the reduced floats): no integer, no bool
    "i = torch.tensor([1, 2]); y = torch.logaddexp(i, i)",
    "i = torch.tensor([True]); y = torch.logaddexp(i, i)",
    "i = torch.tensor([1, 2], dtype=torch.int8); y = i.logaddexp(i)",
    # safe casting to the out= tensor
    A + "o = torch.empty(2, 3, dtype=torch.long); y = torch.logaddexp(a, a, out=o)",
    A + B + "o = torch.empty(2, 3); y = torch.logaddexp(a.double(), b, out=o)",
    A + "y = torch.logaddexp(a, torch.ones(4))",
    A + "y = torch.logaddexp(a, -5000.)",
])
def test_logaddexp_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


def test_there_is_no_in_place_form():
    assert_like_torch(lambda lib: lib.ones(2).logaddexp_(lib.ones(2)))
    assert not [n for n in REGISTRY if n.startswith("aten::logaddexp_")]


@given(form=forms("function", "method", "out"),
       dtype=st.sampled_from(["float32", "float64", "float16"]),
       pairs=st.lists(st.tuples(
           st.one_of(st.floats(-6e4, 6e4, width=16), st.sampled_from([float("inf"),
                                                                      -float("inf")])),
           st.floats(1001, 6e4, width=16), st.booleans()), min_size=0, max_size=12))
@settings(max_examples=examples(80), deadline=None)
def test_far_apart_operands_give_torchs_bits(form, dtype, pairs):
    """Every pair is further apart than the threshold (or infinite): the values are
    compared bit for bit (the oracle compares floats by repr, -0.0 apart from 0.0)."""
    def program(lib):
        a = lib.tensor([p[0] for p in pairs], dtype=getattr(lib, dtype))
        gaps = lib.tensor([p[1] if p[2] else -p[1] for p in pairs], dtype=lib.float64)
        b = (a.double() + gaps).to(a.dtype)
        return call(lib, form, "logaddexp", a, b)
    assert_like_torch(program)


@pytest.mark.parametrize("gap", ["0.5", "100.", "-103.9"])
def test_close_operands_are_refused_in_one_line(gap):
    with pytest.raises(Refused, match="Sleef's vectorised exp and log1p"):
        session.run(f"a = torch.zeros(3); y = torch.logaddexp(a, a + {gap})")
