"""TORCH_WARN_ONCE (engine/core/warn_once.py): a warning torch shows the first time its
line runs in a process; a tidx run is that process.  Each program runs in a fresh torch
process (a test process may have shown the warning already), every warning recorded;
tidx must show the same number of UserWarning steps, the later calls' steps saying
nothing is shown."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import require_torch
from engine.interpreter import session

pytestmark = pytest.mark.torch

PROGRAMS = [
    "a = torch.ones(2, 3)\nfor i in range(3):\n    c = torch.cross(a, a)\nd = torch.cross(a, a)",
    "a = torch.ones(3)\nc = torch.cross(a, a, dim=0)\nd = torch.cross(a, a)",
    "z = torch.tensor([1 + 2j, 3j])\nr = torch.zeros(2)\nr.copy_(z)\nr.copy_(z)",
    "x = torch.zeros(3)\ni = torch.tensor([0, 1])\ns = torch.ones(2)\n"
    "y = x.scatter(0, i, s, reduce='add')\nw = x.scatter(0, i, s, reduce='multiply')",
]

_TORCH = r"""
import json, sys, warnings
import torch
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    exec(sys.stdin.read(), {"torch": torch})
print(json.dumps([str(w.category.__name__) for w in caught]))
"""


def _torch_warnings(program: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _TORCH], input=program, text=True,
                          capture_output=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children") or [])


@pytest.mark.parametrize("program", PROGRAMS)
def test_warn_once_shows_as_often_as_torch(program):
    require_torch()
    theirs = _torch_warnings(program)
    doc = session.run(program)
    steps = [e for s in doc["statements"] for e in _walk(s["events"])
             if e.get("name") == "TORCH_WARN_ONCE"]
    shown = [e for e in steps
             if ((e.get("args") or {}).get("category") or {}).get("value") == "UserWarning"]
    assert len(shown) == theirs.count("UserWarning")
    assert all(e.get("note_id") == "warn.once_again" for e in steps if e not in shown)
    assert len(steps) > len(shown) or len(steps) == 1
