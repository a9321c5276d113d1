"""torch.multinomial without replacement (or of one sample), torch.poisson and
Tensor.log_normal_ (engine/ops/samplers.py, engine/ops/samplers2.py) compared with torch:
the draws bit for bit with torch's CPU generator, under both CPU capabilities; the aten
tree torch.profiler records (multinomial: aminmax, ge, lt, bitwise_and, _assert_async,
sum, eq, [any,] bitwise_not, _assert_async, empty_like, exponential_, div, then argmax or
empty and topk); errors word for word and in torch's order."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.core import capability as C
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

INTEL = C.machine().vendor in ("intel", "")
needs_torchs_own_loop = pytest.mark.skipif(
    INTEL, reason="torch runs MKL's exponential stream on an Intel CPU (refused by tidx)")

#: weights with zeros, ties, strided rows, doubles, rows of one category
PROBS = ["torch.ones(4)", "torch.tensor([0.1, 0.0, 0.7, 0.2])", "torch.rand(3, 5)",
         "torch.rand(5, 3).t()", "torch.rand(2, 6, dtype=torch.float64)",
         "torch.tensor([[0., 3., 0., 3.], [1e-30, 1., 1., 0.]])", "torch.tensor([5.])",
         "torch.rand(10)[::2] * 100", "torch.tensor([0., 0., 2., 0., 0.])",
         "torch.arange(1., 200.)", "torch.ones(2, 1)"]


@needs_torchs_own_loop
@pytest.mark.fast
@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(PROBS), st.sampled_from([1, 2, 3, 5]), st.sampled_from([0, 5]),
       st.sampled_from(["torch.multinomial(p, {n})", "p.multinomial({n})",
                        "torch.multinomial(p, {n}, replacement=False)",
                        "torch.multinomial(p, 1, True)"]))
def test_multinomial_without_replacement_is_torchs(p, n, seed, form):
    assert_like_torch([f"torch.manual_seed({seed})", f"p = {p}", f"y = {form.format(n=n)}",
                       "w = torch.rand(2)"], names=("y", "w"))


@pytest.mark.fast
@pytest.mark.parametrize("statement", [
    "y = torch.multinomial(torch.ones(3), 4)",
    "y = torch.multinomial(torch.tensor([1., -1.]), 1)",
    "y = torch.multinomial(torch.tensor([1., float('inf')]), 2)",
    "y = torch.multinomial(torch.tensor([1., float('nan')]), 1)",
    "y = torch.multinomial(torch.zeros(3), 2)",
    "y = torch.multinomial(torch.tensor([[1., 1.], [0., 0.]]), 1)",
    "y = torch.multinomial(torch.tensor([[1., 1.], [0., 0.]]), 2)",
    "y = torch.multinomial(torch.zeros(0, 3), 2)",
    "y = torch.multinomial(torch.ones(3, dtype=torch.long), 2)",
    "y = torch.multinomial(torch.ones(3), 0)",
    "y = torch.multinomial(torch.ones(3), 2, out=torch.empty(0))",
])
def test_multinomial_errors_are_torchs(statement):
    assert_like_torch(["torch.manual_seed(0)", statement], names=("y",))


RATES = ["torch.tensor([1., 20., 0., 3.5, 100., 9.99, 10.])", "torch.rand(3, 4) * 5",
         "torch.rand(4, 3).t() * 30", "torch.tensor([0.5, 1e-3, 1e4], dtype=torch.float64)",
         "(torch.rand(6) * 15).half()", "torch.empty(0)", "torch.tensor(12.)",
         "torch.full((2, 2), 1e7)",
         # more draws than one block tidx reads ahead (4096): the generator ends where
         # torch's does
         "torch.full((1500,), 4.)", "torch.rand(3000) * 20"]


@pytest.mark.fast
@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(RATES), st.sampled_from([0, 5, 123]))
def test_poisson_is_torchs(rates, seed):
    assert_like_torch([f"torch.manual_seed({seed})", f"r = {rates}", "y = torch.poisson(r)",
                       "w = torch.rand(2)"], names=("y", "w"))


SELVES = ["torch.empty(3, 4)", "torch.empty(4, 3).t()", "torch.empty(8, dtype=torch.float64)",
          "torch.empty(5, dtype=torch.half)", "torch.empty(6)[::2]", "torch.empty(0)",
          "torch.empty(())", "torch.empty(20)", "torch.empty(17, dtype=torch.float64)"]


@pytest.mark.fast
@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(SELVES), st.sampled_from(["", "0., 1.", "mean=-2., std=0.25", "3, 1e-3"]),
       st.sampled_from([0, 5]), st.booleans())
def test_log_normal_is_torchs(self_, args, seed, cached):
    # a normal draw before leaves the generator's cached double for the first element
    before = ["a = torch.randn(3, dtype=torch.float64)"] if cached else []
    assert_like_torch([f"torch.manual_seed({seed})", *before, f"y = {self_}",
                       f"z = y.log_normal_({args})", "w = torch.randn(3, dtype=torch.float64)"],
                      names=("y", "z", "w"))


@pytest.mark.fast
@pytest.mark.parametrize("statement", [
    "y = torch.poisson(torch.tensor([1., -2.]))",
    "y = torch.poisson(torch.tensor([3., 15., float('nan')]))",
    "y = torch.poisson(torch.tensor([1, 2]))",
    "y = torch.poisson(torch.ones(0, dtype=torch.long))",
    "y = torch.poisson(torch.ones(2, dtype=torch.bool))",
    "y = torch.ones(3).log_normal_(std=0)",
    "y = torch.ones(3).log_normal_(1, -1)",
    "y = torch.ones(3, dtype=torch.long).log_normal_()",
    "y = torch.ones(0, dtype=torch.long).log_normal_()",
    "y = torch.zeros(1).expand(3).log_normal_()",
])
def test_poisson_and_log_normal_errors_are_torchs(statement):
    assert_like_torch(["torch.manual_seed(0)", statement, "w = torch.rand(2)"],
                      names=("y", "w"))


# -- under every CPU capability this machine runs (both sides under each) ----------------
@pytest.fixture(scope="module")
def workers():
    from torch_worker import capability_workers, runnable
    yield from capability_workers(runnable() + [None])


@st.composite
def sampler_cases(draw):
    op = draw(st.sampled_from(["multinomial", "poisson", "log_normal_"]))
    if op == "multinomial":
        shape = draw(st.sampled_from([(7,), (3, 5), (2, 40)]))
        params = {"k": draw(st.integers(1, shape[-1])), "replacement": draw(st.booleans())}
    elif op == "poisson":
        shape = draw(st.sampled_from([(9,), (4, 5)]))
        params = {"scale": draw(st.sampled_from([3.0, 30.0, 1e4]))}
    else:
        shape = draw(st.sampled_from([(5,), (16,), (33,), (4, 5)]))
        params = {"mean": draw(st.sampled_from([0.0, 1.0, -2.5])),
                  "std": draw(st.sampled_from([1.0, 2.0, 0.3]))}
    dtype = draw(st.sampled_from(["float32", "float64"]))
    return (op, dtype, shape, "contiguous", draw(st.integers(0, 2**32 - 1)), params)


@needs_torchs_own_loop
@pytest.mark.slow
@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=sampler_cases())
def test_samplers_bit_for_bit_under_every_capability(workers, case):
    import capability_cases as cases
    import engine
    from torch_worker import under_capability
    for cap, worker in workers.items():
        theirs = worker.call("capability_cases", "run", case)
        assert under_capability(cap, cases.run, engine, case) == theirs, (cap, case)


@pytest.mark.fast
@pytest.mark.parametrize("program", [
    ["x = torch.ones(3, requires_grad=True)", "y = torch.poisson(x)", "g = str(y.grad_fn.name())"],
    ["x = torch.ones(3, requires_grad=True)", "y = (x * 2).log_normal_()",
     "g = str(y.grad_fn.name())"],
    ["x = torch.ones(3, requires_grad=True)", "y = x.log_normal_()"],
    ["x = torch.ones(3, requires_grad=True)", "y = torch.multinomial(x, 2)",
     "g = y.requires_grad"],
])
def test_autograd_sees_the_samplers_as_torch_does(program):
    assert_like_torch(["torch.manual_seed(0)", *program], names=("y", "g"))
