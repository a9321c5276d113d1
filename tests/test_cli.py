"""The command line, through click's CliRunner: output, exit codes, hostile input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cli
from engine import storage


@pytest.fixture(autouse=True)
def _restore_limit():
    saved = storage.MemoryLimit.limit
    yield
    storage.MemoryLimit.limit = saved


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args), env={"NO_COLOR": "1"})


def test_explain_advanced_assignment_shows_the_seed_001_path():
    res = run("explain", "t[rows, cols] = 10", "--width", "200")
    assert res.exit_code == 0, res.output
    out = res.output
    # the defaults the statement used, with their values, at the top
    assert out.index("t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])") < out.index(">>>")
    assert "rows = torch.tensor([0, 2])" in out and "cols = torch.tensor([1, 1])" in out
    for step in ("valueToTensor", "wrapTuple", "count_specified_dimensions", "applySlicing",
                 "recordTensorIndex", "dispatch_index_put_", "typeConvertIndices",
                 "aten::index_put_", "aten::_index_put_impl_", "cpu_index_put_kernel"):
        assert step in out, step
    # the dim counter of recordTensorIndex goes 0 -> 1 -> 2
    assert "recordTensorIndex  dim=0  dim_after=1" in out
    assert "recordTensorIndex  dim=1  dim_after=2" in out
    # the elements written, and the result
    assert "elements [1, 7]" in out
    assert "[ 7, 10,  9]]" in out


def test_explain_json_is_the_documented_document():
    res = run("explain", "t[1, 2] = 3", "--format", "json")
    assert res.exit_code == 0
    doc = json.loads(res.output)
    assert set(doc) >= {"tidx", "format", "statements"}
    st = doc["statements"][0]
    assert st["source"] == "t[1, 2] = 3" and st["error"] is None
    assert st["bindings"]["t"]["summary"]["values"] == [[1, 2, 3], [4, 5, 3], [7, 8, 9]]
    assert st["events"][0]["name"] == "Tensor.__setitem__"


def test_pytorch_error_exits_1_and_shows_the_step_that_raised():
    res = run("explain", "t[5]", "--width", "200")
    assert res.exit_code == 1
    assert "raised IndexError: index 5 is out of bounds for dimension 0 with size 3" in \
        res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("statement", [
    "__import__('os').system('touch /tmp/tidx_pwned')",
    "t.__class__",
    "t.__class__.__bases__",
    "open('/etc/passwd')",
    "eval('1')",
    "getattr(t, 'shape')",
    "import os",
    "from os import system",
    "[i for i in t]",
    "lambda: 1",
    "torch.empty(10**12)",
    "2**10**10",
    "t[",
    "t.numpy().tofile('/tmp/x')",
    "torch.ops",
    "f'{t}'",
    "[1] * 10**9",
    "torch.zeros(*t)",
])
def test_hostile_input_is_refused_with_one_line_and_exit_2(statement, tmp_path):
    res = run("explain", statement)
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert "Traceback" not in res.output
    assert lines[-1].startswith("Error: "), res.output


def test_refused_allocation_says_what_and_how_to_raise(tmp_path):
    res = run("explain", "torch.empty(10**12)")
    assert res.exit_code == 2
    assert "4000000000000 bytes" in res.output and "--max-bytes" in res.output


def test_max_bytes_raises_the_limit_and_bad_values_are_usage_errors():
    assert run("explain", "torch.empty(300, 300)", "--max-bytes", "100KiB").exit_code == 2
    assert run("explain", "torch.empty(300, 300)", "--max-bytes", "1MiB").exit_code == 0
    assert run("explain", "t", "--max-bytes", "lots").exit_code == 2


def test_unknown_name_lists_the_defaults():
    res = run("explain", "foo[1]")
    assert res.exit_code == 2
    assert "name 'foo' is not defined" in res.output and "rows" in res.output
