"""torch.nn.functional (engine/binding/nn_functional.py) against torch 2.13: the import
forms a tutorial writes, F.relu (bit for bit, in place too), F.sigmoid, F.tanh, F.softmax
and F.log_softmax (dim, dtype=, the implicit dim's UserWarning and its choice), the aten
operators torch.profiler records (the Python function adds none), Python's TypeError for
a wrong call, and a function tidx does not run refused in one line."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples, require_torch
from engine.core.errors import Refused
from engine.interpreter import session, verify
from oracle import assert_like_torch
from torch_worker import capability_workers, runnable, under_capability
import activation_cases
import engine
from engine.ops.activation_bounded import GELU_EPS, SILU_ULPS
from engine.core import dtypes as D

pytestmark = pytest.mark.torch

F = "import torch.nn.functional as F"
X = "x = torch.tensor([[-1.5, 2., 0.], [3., -0., -4.]])"


@pytest.mark.parametrize("statements", [
    [F, X, "y = F.relu(x)"], [F, X, "y = F.relu(x.t())"],
    [F, X, "y = F.relu(x, inplace=True)"], [F, X, "y = F.relu(x, True)"],
    ["from torch.nn import functional as F", X, "y = F.relu(x)"],
    ["from torch import nn", X, "y = nn.functional.relu(x)"],
    ["import torch.nn as nn", X, "y = nn.functional.relu(x)"],
    ["import torch.nn.functional", X, "y = torch.nn.functional.relu(x)"],
    [X, "y = torch.nn.functional.relu(x)"],
    [F, "y = F.relu(torch.tensor([-1, 0, 5]))"],
    [F, "y = F.relu(torch.tensor([True, False]))"],
    # values every exp gives exactly: equal elements, and sigmoid/tanh of 0 and inf
    [F, "y = F.softmax(torch.full((2, 3), 2.), dim=1)"],
    [F, "y = F.softmax(torch.full((2, 3), 2.), 0, dtype=torch.float64)"],
    [F, "y = F.log_softmax(torch.zeros(4), dim=0)"],
    [F, "y = F.softmax(torch.full((2, 3), 2.))"], [F, "y = F.softmax(torch.full((3,), 2.))"],
    [F, "y = F.softmax(torch.full((2, 3, 4), 2.))"],
    [F, "y = F.log_softmax(torch.zeros(2, 3, 4, 5))"],
    [F, "y = F.sigmoid(torch.tensor([0., float('inf'), float('-inf')]))"],
    [F, "y = F.tanh(torch.tensor([0., float('inf')]))"],
    # one_hot: aminmax, two item()s, zeros, unsqueeze, scatter_
    [F, "y = F.one_hot(torch.tensor([0, 2, 1]))"], [F, "y = F.one_hot(torch.tensor(1))"],
    [F, "y = F.one_hot(torch.tensor([[0, 2], [1, 1]]), num_classes=4)"],
    [F, "y = F.one_hot(torch.arange(6).reshape(2, 3).t(), 6)"],
    [F, "y = F.one_hot(torch.tensor([], dtype=torch.long), 3)"],
    [F, "y = F.one_hot(torch.tensor([], dtype=torch.long))"],
    [F, "y = F.one_hot(torch.tensor([0, 2]), 2)"], [F, "y = F.one_hot(torch.tensor([-1, 2]))"],
    [F, "y = F.one_hot(torch.tensor([0., 2.]))"], [F, "y = F.one_hot(torch.tensor([0, 1]).int())"],
    [F, "y = F.one_hot(torch.tensor([0, 2]), 0)"], [F, "y = F.one_hot(torch.tensor([0, 2]), -2)"],
    ["y = torch.aminmax(torch.tensor([[3, 1], [2, 5]]))"],
    ["y = torch.tensor([[3., 1.], [2., float('nan')]]).t().aminmax().max"],
    ["y = torch.aminmax(torch.tensor([]))"], ["y = torch.aminmax(torch.tensor([True, False])).min"],
    # embedding: index_select of weight's rows (reshape and view around it past 1 dim)
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([2, 0, 2]), w)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([[0, 2], [1, 1]]), w)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor(1), w)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([1]).int(), w.t().t())"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([0]), w, padding_idx=-1)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([5]), w)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([-1]), w)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([0.]), w)"],
    [F, "y = F.embedding(torch.tensor([0]), torch.ones(3))"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([0]), w, padding_idx=5)"],
    [F, "w = torch.arange(6.).reshape(3, 2)", "y = F.embedding(torch.tensor([0]), w, padding_idx=-4)"],
    ["w = torch.arange(6.).reshape(3, 2)", "y = torch.embedding(w, torch.tensor([[1]]))"],
    # pad: constant_pad_nd's narrows, empty, fill_, narrow, copy_
    [F, "x = torch.arange(4.).reshape(2, 2)", "y = F.pad(x, (1, 2))"],
    [F, "x = torch.arange(4.).reshape(2, 2)", "y = F.pad(x, (1, 1, 2, 0), value=3.5)"],
    [F, "x = torch.arange(4.).reshape(2, 2)", "y = F.pad(x, (-1, -1, 1, 0))"],
    [F, "x = torch.arange(4.).reshape(2, 2)", "y = F.pad(x, (0, -1))"],
    [F, "x = torch.arange(4.).reshape(2, 2)", "y = F.pad(x.t(), (1, 0))"],
    [F, "x = torch.arange(4.).reshape(2, 2)", "y = F.pad(x, [1, 1], 'constant', 2)"],
    [F, "x = torch.arange(4).reshape(2, 2)", "y = F.pad(x, (1, 1), value=2.5)"],
    [F, "x = torch.arange(8.).reshape(1, 2, 2, 2).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)", "y = F.pad(x, (1, 0))"],
    [F, "y = F.pad(torch.ones(2, 2, dtype=torch.bool), (1, 1), value=2.)"],
    [F, "y = F.pad(torch.ones(2, 2), (1,))"], [F, "y = F.pad(torch.ones(2, 2), (1, 1, 1, 1, 1, 1))"],
    [F, "y = F.pad(torch.ones(2, 2), (-3, 1))"], [F, "y = F.pad(torch.tensor(1.), (1, 1))"],
    [F, "y = F.pad(torch.ones(2, 2), (1, 1), mode='bogus')"],
    [F, "y = F.pad(torch.ones(2, 2), (1, 1), 'replicate', 1.)"],
    ["y = torch.constant_pad_nd(torch.ones(2), (1,))"],
    ["y = torch.constant_pad_nd(torch.ones(2), (1, 1, 1, 1))"],
    # nll_loss: nll_loss_nd -> nll_loss -> nll_loss_forward, a gather and torch's sums
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.nll_loss(x, torch.tensor([0, 2]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([0, 2]), reduction='none')"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([0, -100]), reduction='sum')"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([1, 2]), weight=torch.tensor([1., 2., 0.5]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([1, 2]), ignore_index=1)"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([-100, -100]))"],
    [F, "x = torch.tensor([0.5, -1., 2.])", "y = F.nll_loss(x, torch.tensor(2))"],
    [F, "x = torch.tensor([[0.5, -1., 2.]])", "y = F.nll_loss(x[:0], torch.tensor([], dtype=torch.long))"],
    [F, "x = torch.tensor([[0.5, -1., 2.]])",
     "y = F.nll_loss(x[:0], torch.tensor([], dtype=torch.long), reduction='sum')"],
    [F, "x = torch.tensor([[0.5, -1., 2.]], dtype=torch.float64)",
     "y = F.nll_loss(x.t().t(), torch.tensor([1]).byte())"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.nll_loss(x, torch.tensor([0, 5]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.nll_loss(x, torch.tensor([0, -1]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.nll_loss(x, torch.tensor([0]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.nll_loss(x, torch.tensor([0., 1.]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.nll_loss(x, torch.tensor([[0, 1]]))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([0, 1]), reduction='bogus')"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "y = F.nll_loss(x, torch.tensor([0, 1]), weight=torch.ones(2))"],
    [F, "y = F.nll_loss(torch.tensor([[1, 2]]), torch.tensor([0]))"],
    [F, "y = F.nll_loss(torch.tensor(1.), torch.tensor(0))"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])", "y = F.cross_entropy(x, torch.tensor([0, 5]))"],
    [F, "y = F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([0]))"],
    # mse_loss: broadcast_tensors, then (a - b)^2 over TensorIterator, mean or sum
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "z = torch.tensor([[0.25, 1., 2.5], [0., 3., -3.]])", "y = F.mse_loss(x, z)"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "z = torch.tensor([[0.25, 1., 2.5], [0., 3., -3.]])", "y = F.mse_loss(x, z, reduction='sum')"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]])",
     "z = torch.tensor([[0.25, 1., 2.5], [0., 3., -3.]])",
     "y = F.mse_loss(x.t(), z.t(), reduction='none')"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]], dtype=torch.float64)",
     "y = F.mse_loss(x, x[0])"],
    [F, "x = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]], dtype=torch.half)",
     "y = F.mse_loss(x, x * 0, reduction='none')"],
    [F, "y = F.mse_loss(torch.tensor([1, 2]), torch.tensor([0, 0]))"],
    [F, "y = F.mse_loss(torch.ones(3, 2), torch.ones(2, 3))"],
    [F, "y = F.mse_loss(torch.ones(2), torch.ones(2), reduction='mean_')"],
    # gelu and silu: exact values, errors
    [F, "y = F.gelu(torch.tensor([0., -0., 10.]))"], [F, "y = F.silu(torch.tensor([0., -0.]))"],
    [F, "y = F.gelu(torch.tensor([1, 2]))"], [F, "y = F.silu(torch.tensor([1, 2]))"],
    [F, "y = F.gelu(torch.ones(2), approximate='bogus')"],
    [F, "x = torch.zeros(2, 3)", "y = F.silu(x.t(), inplace=True)"],
    # errors: torch's, and Python's own for the call
    [F, "y = F.softmax(torch.arange(3), 0)"], [F, "y = F.softmax(torch.ones(3), 1)"],
    [F, "y = F.relu()"], [F, "y = F.softmax(torch.ones(3), dim=0, bogus=1)"],
])
def test_functional_is_torchs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("text", [
    "y = F.softmax(x, dim=1)", "y = F.log_softmax(x, 1)", "y = F.softmax(x)",
    "y = F.sigmoid(x)", "y = F.tanh(x)", "y = F.log_softmax(x.t(), dim=0)",
    "y = F.cross_entropy(x, torch.tensor([0, 2]))",
    "y = F.cross_entropy(x, torch.tensor([1, 2]), reduction='sum')",
    "y = F.cross_entropy(x, torch.tensor([1, -100]), reduction='none')",
    "y = F.cross_entropy(x * 30, torch.tensor([1, 0]), weight=torch.tensor([2., 0.5, 1.]))",
    "y = F.cross_entropy(x[0], torch.tensor(1))",
    "y = F.gelu(x)", "y = F.gelu(x * 10, approximate='tanh')", "y = F.silu(x)",
    "y = F.gelu(x.double() - 5)",
])
def test_bounded_functions_match_within_their_stated_bound(text):
    require_torch()
    program = f"{F}\n{X}\n{text}"
    rows = verify.verify(program, session.run(program))
    assert rows and all(row.ok for row in rows), [r.details for r in rows]


@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 300), classes=st.integers(1, 6), seed=st.integers(0, 2**16),
       reduction=st.sampled_from(["mean", "sum", "none"]), weighted=st.booleans(),
       dtype=st.sampled_from(["float32", "float64"]))
def test_nll_loss_gives_torchs_bits(rows, classes, seed, reduction, weighted, dtype):
    """Batches past 16 rows flush torch's cascade of partial sums: the bits are torch's
    for any batch, ignored rows and weights included."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, classes)) * 10).astype(dtype).tolist()
    t = rng.integers(0, classes, rows)
    t[rng.random(rows) < 0.2] = -100
    w = rng.random(classes).astype(dtype).tolist()
    weight = f", weight=torch.tensor({w}, dtype=torch.{dtype})" if weighted else ""
    assert_like_torch([F, f"x = torch.tensor({x}, dtype=torch.{dtype})",
                       f"y = F.nll_loss(x, torch.tensor({t.tolist()}){weight}, "
                       f"reduction='{reduction}')"])


def _vendor_draws() -> bool:
    """bernoulli_(float p) is torch's own loop (replayed) on a CPU that is not Intel's;
    on Intel's it is MKL's stream, which tidx refuses (engine/ops/bernoulli.py)."""
    from engine.core import capability as C
    machine = C.machine()
    return not (machine.x86 and machine.vendor in ("intel", ""))


@pytest.mark.parametrize("statements", [
    ["torch.manual_seed(0)", "x = torch.arange(12.).reshape(3, 4)", "y = F.dropout(x, 0.5)"],
    ["torch.manual_seed(3)", "x = torch.arange(12.).reshape(3, 4)",
     "y = F.dropout(x.t(), p=0.3, inplace=True)"],
    ["torch.manual_seed(1)", "x = torch.randn(5, 7, dtype=torch.float64)",
     "y = F.dropout(x, 0.1, True)"],
    ["torch.manual_seed(2)", "x = torch.randn(4, 4)", "y = torch.dropout(x[:, ::2], 0.7, True)"],
    ["x = torch.arange(12.).reshape(3, 4)", "y = F.dropout(x, 0.25, training=False)",
     "z = y is x"],
    ["x = torch.arange(12.).reshape(3, 4)", "y = torch.dropout(x, 1., True)"],
    ["x = torch.arange(12).reshape(3, 4)", "y = torch.dropout(x, 1., True)"],
    ["x = torch.arange(12.).reshape(3, 4)", "y = torch.dropout_(x, 0., True)", "z = y is x"],
    ["y = torch.dropout(torch.ones(0), 0.5, True)"],
    ["x = torch.ones(3)", "y = torch.dropout(x, 1.5, True)"],
    ["x = torch.ones(3)", "y = F.dropout(x, -0.5)"],
])
def test_dropout_draws_torchs_mask(statements):
    """aten::dropout -> empty_like, bernoulli_(1 - p), div_, mul: the same mask bit for
    bit from torch's generator, scaled as torch scales it."""
    drawn = any("0." in st and "dropout" in st and "1.5" not in st for st in statements)
    assert_like_torch([F, *statements], names=("y", "z"),
                      refused=not _vendor_draws() and drawn)


@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.lists(st.integers(1, 45), min_size=1, max_size=2), seed=st.integers(0, 2**16),
       reduction=st.sampled_from(["mean", "sum"]), dtype=st.sampled_from(["float32", "float64"]))
def test_mse_loss_reduces_with_torchs_bits(shape, seed, reduction, dtype):
    """The mean and sum are torch's cascade sum over the squared differences: bit for bit
    for any size (vector tails, several blocks)."""
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 3).round(3).astype(dtype).tolist()
    b = (rng.standard_normal(shape)).round(3).astype(dtype).tolist()
    assert_like_torch([F, f"a = torch.tensor({a}, dtype=torch.{dtype})",
                       f"b = torch.tensor({b}, dtype=torch.{dtype})",
                       f"y = F.mse_loss(a, b, reduction='{reduction}')"])


@pytest.mark.parametrize("ndim, name", [(1, "softmax"), (2, "softmax"), (3, "log_softmax"),
                                        (4, "softmax")])
def test_the_implicit_dim_warns_as_torch_does(ndim, name):
    torch = require_torch()
    import torch.nn.functional as tf
    shape = (2, 3, 4, 5)[:ndim]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(tf, name)(torch.ones(shape))
    doc = session.run(f"{F}\ny = F.{name}(torch.ones{shape})")
    said = [e["args"]["message"]["value"] if isinstance(e["args"]["message"], dict)
            else e["args"]["message"]
            for s in doc["statements"] for e in _walk(s["events"])
            if e["name"] == "PyErr_WarnEx"]
    assert said == [str(w.message) for w in caught]


@pytest.mark.parametrize("text", [
    "import torch.nn.functional as F\ny = F.gelu(torch.tensor([1., float('inf')]))",
    "import torch.nn.functional as F\ny = F.silu(torch.ones(2, dtype=torch.half))",
    "import torch.nn.functional as F\ny = F.elu(torch.ones(2))",
    "import torch.nn.functional as F\ny = F.cross_entropy(torch.ones(2, 3), torch.ones(2, 3))",
    "import torch.nn.functional as F\ny = F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), label_smoothing=0.1)",
    "import torch.nn.functional as F\ny = F.nll_loss(torch.ones(2, 3, 4), torch.zeros(2, 4, dtype=torch.long))",
    "import torch.nn.functional as F\ny = F.nll_loss(torch.ones(2, 3), torch.tensor([0, 1]), size_average=True)",
    "import torch.nn.functional as F\ny = F.embedding(torch.tensor([0]), torch.ones(2, 2), max_norm=1.)",
    "import torch.nn.functional as F\nimport os",
    "import torch.nn.functional as F, math",
    "from torch.nn import Linear",
])
def test_what_tidx_does_not_run_is_refused_in_one_line(text):
    with pytest.raises(Refused) as exc:
        session.run(text)
    assert "\n" not in str(exc.value)


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children") or [])


# -- gelu and silu: within the stated bound under every CPU capability ------------------------
RUNNABLE = runnable()


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(RUNNABLE)


def _ulps(a: np.ndarray, b: np.ndarray) -> int:
    ints = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    lo = np.iinfo(ints).min

    def ordinal(x):
        i = x.view(ints).astype(np.int64)
        return np.where(i < 0, lo - i, i)
    return int(np.abs(ordinal(a) - ordinal(b)).max()) if a.size else 0


ACTIVATION_CASES = [(op, approximate, dtype, n, layout, seed)
                    for op, approximate in (("silu", None), ("gelu", "none"), ("gelu", "tanh"))
                    for dtype in ("float32", "float64")
                    for n, layout, seed in ((37, "contiguous", 1), (500, "strided", 2),
                                            (4000, "contiguous", 3))]


@pytest.mark.parametrize("case", ACTIVATION_CASES, ids=lambda c: "-".join(map(str, c)))
def test_activations_within_the_stated_bound_under_every_capability(workers, case):
    """silu within its ulp bound; gelu within K eps |x| (no ulp bound where 1 + erf
    cancels), in a vector body, a tail (37) and a strided tensor."""
    op, approximate, dtype = case[0], case[1], case[2]
    np_type = np.dtype(dtype)
    for cap, worker in workers.items():
        theirs = worker.call("activation_cases", "run", case)
        ours = under_capability(cap, activation_cases.run, engine, case)
        assert ours[:2] == theirs[:2]
        a, b = np.array(ours[2], np_type), np.array(theirs[2], np_type)
        if op == "silu":
            assert _ulps(a, b) <= SILU_ULPS[getattr(D, dtype)], (cap, case)
        else:
            x = np.abs(np.array(ours[0], np_type))
            k = GELU_EPS[(approximate, getattr(D, dtype))]
            assert np.all(np.abs(a - b) <= k * np.finfo(np_type).eps * x.max()), (cap, case)
