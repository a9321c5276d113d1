"""The distributions' argument checks against real torch 2.13, read from the command line:
uniform_'s CHECK_OUT_OF_BOUNDS on both ends (NaN and the infinities are out of every
dtype's range), its [from, to) and to-from checks, normal_'s std >= 0 (NaN fails it),
random_'s from < to (its ends moved as update_from/update_to move them, through the
float-to-int64 conversion x86 does), each before the empty-tensor return and on every
dtype torch checks them for; the meta device's random_ checks nothing.  Where torch raises, tidx
exits 1 with the same class and message; where it does not, the values are torch's.
"""

from __future__ import annotations

import json

import pytest

from conftest import cli_run, require_torch

pytestmark = pytest.mark.torch

NAN, INF = "float('nan')", "float('inf')"

RAISING = [
    f"torch.zeros(3).uniform_({NAN}, 1)",
    f"torch.zeros(3).uniform_(0, {NAN})",
    f"torch.zeros(3).uniform_(0, {INF})",
    f"torch.zeros(3).uniform_(-{INF}, 0)",
    "torch.zeros(3).uniform_(-1e39, 0)",
    "torch.zeros(3).uniform_(-3e38, 3e38)",
    "torch.zeros(3, dtype=torch.float64).uniform_(-1e308, 1e308)",
    f"torch.zeros(3, dtype=torch.float64).uniform_(0, {INF})",
    "torch.zeros(3, dtype=torch.float16).uniform_(0, 70000)",
    "torch.zeros(3, dtype=torch.float16).uniform_(-60000, 60000)",
    f"torch.zeros(0).uniform_({NAN}, 1)",
    f"torch.rand(0).uniform_(0, {INF})",
    "torch.zeros(0).uniform_(2, 1)",
    f"torch.zeros(3, dtype=torch.int64).uniform_({NAN}, 1)",
    f"torch.zeros(3).normal_(0, {NAN})",
    f"torch.zeros(3).normal_(0, -{INF})",
    "torch.zeros(3).normal_(0, -1)",
    f"torch.zeros(0).normal_(0, {NAN})",
    f"torch.zeros(3, dtype=torch.int64).normal_(0, {NAN})",
    f"torch.randn(2).normal_(0, {NAN})",
    "torch.zeros(3).random_(5, 5)",
    "torch.randint(5, 5, (2,))",
    "torch.randint(0, 2**25, (2,), dtype=torch.float16)",
]

RUNNING = [
    f"y = torch.zeros(3).normal_({NAN}, 1)",
    f"y = torch.zeros(3).normal_(0, {INF})",
    f"y = torch.zeros(3).normal_({INF}, 1)",
    "y = torch.zeros(3).uniform_(-3e38, 0)",
    "y = torch.empty(2, device='meta').random_(5, 5)",
    # from + 1 rounds to 2**63 in float, past int64: x86's conversion gives INT64_MIN
    "y = torch.zeros(3).random_(2**63 - 10, 2**63 - 1)",
    "y = torch.zeros(3, dtype=torch.float64).random_(2**63 - 2000, 2**63 - 1)",
]


def _torch_error(torch, statement: str) -> tuple[str, str]:
    try:
        exec(statement, {"torch": torch})   # the test's own statement, trusted
    except Exception as exc:  # noqa: BLE001 - the oracle's error is the answer
        return type(exc).__name__, str(exc)
    raise AssertionError(f"torch ran {statement}")


@pytest.mark.parametrize("statement", RAISING)
def test_bad_bounds_raise_torchs_error(statement):
    torch = require_torch()
    kind, message = _torch_error(torch, statement)
    result = cli_run("explain", statement, "--seed", "0")
    assert result.exit_code == 1, result.output
    assert f"raised {kind}: {message}" in result.output


@pytest.mark.parametrize("statement", RUNNING)
def test_bounds_torch_accepts_give_torchs_values(statement):
    torch = require_torch()
    names = {"torch": torch}
    torch.manual_seed(0)
    exec(statement, names)                  # the test's own statement, trusted
    result = cli_run("explain", statement, "--seed", "0", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["statements"][-1]["bindings"]["y"]["repr"] == repr(names["y"])
