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
    "import torch.nn.functional as F\ny = F.one_hot(torch.tensor([0, 1]))",
    "y = torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]))",
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
