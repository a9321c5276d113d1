"""torch.nn.functional (engine/binding/nn_functional.py) against torch 2.13: the import
forms a tutorial writes, F.relu (bit for bit, in place too), F.sigmoid, F.tanh, F.softmax
and F.log_softmax (dim, dtype=, the implicit dim's UserWarning and its choice), the aten
operators torch.profiler records (the Python function adds none), Python's TypeError for
a wrong call, and a function tidx does not run refused in one line."""

from __future__ import annotations

import warnings

import pytest

from conftest import require_torch
from engine.core.errors import Refused
from engine.interpreter import session, verify
from oracle import assert_like_torch

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
    # errors: torch's, and Python's own for the call
    [F, "y = F.softmax(torch.arange(3), 0)"], [F, "y = F.softmax(torch.ones(3), 1)"],
    [F, "y = F.relu()"], [F, "y = F.softmax(torch.ones(3), dim=0, bogus=1)"],
])
def test_functional_is_torchs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("text", [
    "y = F.softmax(x, dim=1)", "y = F.log_softmax(x, 1)", "y = F.softmax(x)",
    "y = F.sigmoid(x)", "y = F.tanh(x)", "y = F.log_softmax(x.t(), dim=0)",
])
def test_bounded_functions_match_within_their_stated_bound(text):
    require_torch()
    program = f"{F}\n{X}\n{text}"
    rows = verify.verify(program, session.run(program))
    assert rows and all(row.ok for row in rows), [r.details for r in rows]


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
    "import torch.nn.functional as F\ny = F.gelu(torch.ones(2))",
    "y = torch.nn.functional.pad(torch.ones(2, 2), (1, 1), mode='reflect')",
    "y = torch.aminmax(torch.ones(2, 2), dim=0)",
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
