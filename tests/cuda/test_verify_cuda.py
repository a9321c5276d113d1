"""--verify of statements on the simulated CUDA device, compared on the CPU (issue 16).

The torch here has no GPU: the statement runs in real torch with every device mapped to
the CPU, and what does not depend on the device is compared (shapes, strides, offsets,
dtypes, errors, values of deterministic operators, the aten operators minus the device
copies).  Random draws are not compared (Philox is not mt19937), nor a mixed-device error
(only a GPU run raises it).
"""

from __future__ import annotations

import ast
import copy
import re

import pytest

from conftest import cli_run, require_torch
from engine.interpreter import session, verify
from engine.interpreter import verify_cuda as C
from engine.interpreter.statements import parse

pytestmark = pytest.mark.torch

ON_CPU = "compared on the CPU (no GPU here): shapes, strides, dtypes, values of deterministic ops"

DETERMINISTIC = [
    "x = torch.zeros(3, device='cuda')",
    "x = torch.ones(2, 3, device='cuda:0'); y = x.t(); z = y[1:]",
    "x = torch.full((2, 3), 7, device='cuda', dtype=torch.int64); y = x.view(3, 2)",
    "t = torch.zeros(3, 4, device='cuda'); t[1, 2] = 3; y = t.cpu()",
    "x = torch.arange(6.0).cuda(); y = x.view(2, 3).t(); z = x.to('cpu')",
    "x = torch.arange(6.0).to('cuda'); y = x.cuda(); z = x.reshape(2, 3).unsqueeze(0)",
    "t = torch.zeros(2, 3, device='cuda'); t[1:] = 5; y = t.expand(2, 2, 3)",
    "x = torch.empty(2, 3, device='cuda').fill_(2.5); y = torch.zeros_like(x)",
]


@pytest.mark.parametrize("text", DETERMINISTIC)
def test_deterministic_cuda_statements_agree_with_the_cpu_on_every_check(text):
    require_torch()
    rows = verify.verify(text, session.run(text))
    assert rows and all(row.compared and row.ok for row in rows), \
        [(row.source, row.details) for row in rows]
    assert all(row.said == [{"id": "ui.verify.cuda_on_cpu", "args": {}}] for row in rows)
    # the values were compared (on the CPU), not skipped
    assert all(row.results["values"] is True for row in rows if row.source.startswith(("x", "t")))


def test_random_draws_compare_metadata_only_and_say_why():
    require_torch()
    text = "x = torch.randn(3, 4, device='cuda'); y = x[1:, ::2]; z = torch.rand(2)"
    rows = verify.verify(text, session.run(text, seed=0))
    assert [r.results["values"] for r in rows] == [None, None, None]
    for row in rows:
        assert row.compared and row.ok, row.details
        assert all(row.results[c] is True for c in ("shape", "strides", "offset", "dtype"))
    assert [r.said[0]["id"] for r in rows] == ["ui.verify.cuda_random", "ui.verify.cuda_random",
                                               "ui.verify.after_cuda_random"]


def test_a_wrong_cuda_trace_is_reported():
    """The comparison is real: a trace with wrong strides and values is caught."""
    require_torch()
    text = "x = torch.ones(2, 3, device='cuda'); y = x.t()"
    doc = session.run(text)
    wrong = copy.deepcopy(doc)
    summary = wrong["statements"][1]["bindings"]["y"]["summary"]
    summary["strides"] = [3, 1]
    summary["values"][0][0] = 9.0
    rows = verify.verify(text, wrong)
    assert rows[1].results["strides"] is False and rows[1].results["values"] is False


def test_a_mixed_device_error_is_not_compared_and_stops_the_comparison():
    require_torch()
    text = ("x = torch.zeros(3, 4, device='cuda'); y = x.index_select(0, torch.tensor([0])); "
            "z = x[0]")
    rows = verify.verify(text, session.run(text))
    assert [r.compared for r in rows] == [True, False]
    assert "only a GPU run can raise" in rows[1].details[0]


def test_devices_are_mapped_to_the_cpu():
    (st,) = parse("y = x.cuda(0).to('cuda:0').to(device=torch.device('cuda'))")
    assert ast.unparse(C.on_cpu(st).node) == \
        "y = x.cpu().to('cpu').to(device=torch.device('cpu'))"
    assert ast.unparse(st.node).count("cuda") == 3  # the statement itself is unchanged


def test_the_device_copies_are_left_out_of_the_operator_tree():
    tree = [(0, "aten::to"), (1, "aten::_to_copy"), (2, "aten::empty_strided"),
            (2, "aten::copy_"), (0, "aten::zeros"), (1, "aten::empty"), (1, "aten::zero_"),
            (2, "aten::fill_"), (0, "aten::select")]
    assert C.without_moves(tree) == [(0, "aten::to"), (0, "aten::zeros"), (1, "aten::empty"),
                                     (1, "aten::zero_"), (0, "aten::select")]


def test_cli_says_plainly_what_was_compared():
    require_torch()
    result = cli_run("explain", "x = torch.zeros(3, device='cuda'); y = x[1:]", "--verify",
                     "--width", "200")
    assert result.exit_code == 0, result.output
    text = " ".join(re.sub("[│├└─]", " ", result.output).split())
    assert f"x = torch.zeros(3, device='cuda'): {ON_CPU}" in text
    assert f"y = x[1:]: {ON_CPU}" in text
    assert "agree on every check" in text and "not compared" not in text


def test_fill_from_a_cpu_value_branches_on_the_device():
    """Fill.cpp's fill_(Tensor): item() into a CUDA tensor, copy_ into a CPU one; the rest
    of the two trees is the same and compared."""
    cuda = [(0, "aten::fill_"), (1, "aten::item"), (2, "aten::_local_scalar_dense")]
    cpu = [(0, "aten::fill_"), (1, "aten::copy_")]
    assert C.without_moves(cuda, "cuda") == C.without_moves(cpu, "cpu") == [(0, "aten::fill_")]


def test_a_value_that_is_the_device_is_not_compared_and_the_row_says_so():
    require_torch()
    text = "x = torch.zeros(3, device='cuda'); d = x.device; c = x.is_cuda"
    rows = verify.verify(text, session.run(text))
    assert all(row.ok for row in rows), [row.details for row in rows]
    assert [r.results["values"] for r in rows] == [True, None, None]
    assert [r.said[0]["id"] for r in rows[1:]] == ["ui.verify.cuda_device_value"] * 2
