"""--verify: the same statements in real PyTorch, compared check by check."""

from __future__ import annotations

import copy

import pytest
from click.testing import CliRunner

import cli
from conftest import require_torch
from engine.interpreter import session
from engine.interpreter import verify


@pytest.mark.torch
@pytest.mark.parametrize("text", ["t[rows, cols] = 10", "y = t[1:, ::2]",
                                  "torch.randn(3, 4)", "t[5]", "y = a[index_2, 1]",
                                  "y = torch.arange(0, 1, 0.1)",
                                  # the legacy constructors run torch's own there, not tidx's
                                  "y = torch.Tensor([1, 2]); z = torch.LongTensor(2, 3); "
                                  "w = isinstance(y, torch.FloatTensor); s = torch.Size([2])",
                                  "torch.random.manual_seed(0); y = torch.rand(2)"])
def test_statements_verify_against_torch(text):
    require_torch()
    doc = session.run(text)
    rows = verify.verify(text, doc)
    # every statement compared (a row torch could not run is "ok" with nothing checked)
    assert rows and all(row.compared and row.ok for row in rows), [row.details for row in rows]


@pytest.mark.torch
def test_a_wrong_trace_is_reported():
    require_torch()
    doc = session.run("t[1, 2] = 3")
    wrong = copy.deepcopy(doc)
    wrong["statements"][0]["bindings"]["t"]["summary"]["values"][1][2] = 99
    wrong["statements"][0]["events"] = []  # as if no operator had run
    (row,) = verify.verify("t[1, 2] = 3", wrong)
    assert row.results["values"] is False and row.results["aten ops"] is False
    assert not row.ok and any("values of t" in d for d in row.details)


def test_a_wrong_grad_fn_is_reported():
    """--verify compares autograd's part with the values: requires_grad and the node."""
    require_torch()
    text = "x = torch.ones(2, requires_grad=True); y = x * 2"
    doc = session.run(text)
    assert doc["statements"][1]["bindings"]["y"]["summary"]["grad_fn"] == "MulBackward0"
    assert all(r.ok for r in verify.verify(text, doc))
    wrong = copy.deepcopy(doc)
    wrong["statements"][1]["bindings"]["y"]["summary"]["grad_fn"] = "AddBackward0"
    row = verify.verify(text, wrong)[1]
    assert row.results["values"] is False and any("autograd of y" in d for d in row.details)


@pytest.mark.torch
def test_cli_verify_prints_the_table():
    require_torch()
    res = CliRunner().invoke(cli.main, ["explain", "t[rows, cols] = 10", "--verify", "--ops"],
                             env={"NO_COLOR": "1"})
    assert res.exit_code == 0
    assert "tidx against PyTorch 2.13.0" in res.output
    assert "agree on every check" in res.output


def test_cli_verify_without_torch_says_so_in_one_line(monkeypatch):
    monkeypatch.setattr(verify, "_torch", lambda: None)
    res = CliRunner().invoke(cli.main, ["explain", "t[1, 2] = 3", "--verify"],
                             env={"NO_COLOR": "1"})
    assert res.exit_code == 0
    assert "--verify: PyTorch is not installed here" in res.output
    assert "Traceback" not in res.output


@pytest.mark.torch
def test_cli_verify_of_pypto_says_what_was_not_compared():
    """pypto is not PyTorch: its statements (and those after them, which may use what
    they made) are listed as not compared, once, and the verdict does not claim they
    agree."""
    require_torch()
    text = "pypto.set_vec_tile_shapes(4, 4); y = pypto.index_select(x, 1, indices); z = t[0]"
    res = CliRunner().invoke(cli.main, ["explain", text, "--verify", "--ops", "--width", "200"],
                             env={"NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    assert res.output.count("is pypto (Huawei CANN's, not PyTorch's)") == 1
    assert "3 statement(s) not compared with PyTorch" in res.output
    assert "agree on every check" not in res.output and "internal error" not in res.output


@pytest.mark.torch
def test_verify_compares_what_comes_before_pypto():
    require_torch()
    text = "z = t[0]; pypto.set_vec_tile_shapes(4, 4)"
    rows = verify.verify(text, session.run(text))
    assert rows[0].compared and rows[0].ok and rows[0].results["values"] is True
    assert not rows[1].compared and set(rows[1].results.values()) == {None}


@pytest.mark.torch
def test_manual_seed_returns_the_generator_as_torch_does():
    """torch.manual_seed returns the default generator: its repr carries an address,
    simulated in tidx, so --verify compares it by nothing but agrees on the rest."""
    torch = require_torch()
    doc = session.run("g = torch.manual_seed(3)")
    summary = doc["statements"][0]["bindings"]["g"]["summary"]
    assert summary["type"] == type(torch.manual_seed(3)).__name__ == "Generator"
    assert summary["repr"].startswith("<torch._C.Generator object at 0x")
    (row,) = verify.verify("g = torch.manual_seed(3)", doc)
    assert row.ok and row.results["aten ops"] is True


def test_an_empty_tensor_with_a_huge_dim_verifies():
    """torch.eye(2**62, 0) has no element but 2**62 rows: reading its values in Python
    (tolist) would make 2**62 empty lists (a MemoryError, found by the fuzz hunt)."""
    require_torch()
    result = CliRunner().invoke(cli.main, ["explain", "v1 = torch.eye(2**62, 0)", "--verify"])
    assert result.exit_code == 0, result.output
    assert "agree on every check" in result.output
