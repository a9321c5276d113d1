"""Every sample runs under tidx and under real PyTorch and prints the same thing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import require_torch
from engine.interpreter import session

SAMPLES = sorted(p for p in (Path(__file__).parents[2] / "samples").glob("*.py")
                 if not p.name.startswith("_"))
pytestmark = pytest.mark.torch


def test_there_are_samples_for_the_seeds():
    names = " ".join(p.name for p in SAMPLES)
    for seed in ("seed_001", "seed_002", "seed_004"):
        assert seed in names


TORCH_SAMPLES = [p for p in SAMPLES if "import pypto" not in p.read_text()]


@pytest.mark.parametrize("path", TORCH_SAMPLES, ids=[p.name for p in TORCH_SAMPLES])
def test_sample_prints_what_torch_prints(path):
    require_torch()
    doc = session.run(path.read_text())
    # errors a lesson catches itself (try/except ... print(e)) are part of the lesson
    assert all(st["error"] is None or st["error"].get("caught") for st in doc["statements"])
    ours = [line for st in doc["statements"] for line in st.get("printed", [])]
    theirs = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            check=True).stdout
    assert "\n".join(ours) + "\n" == theirs


def test_pypto_sample_matches_torch_index_select():
    """pypto is not installed anywhere but in tidx: its lesson is checked against
    torch.index_select on the seed's data instead."""
    torch = require_torch()
    doc = session.run((Path(__file__).parents[2] / "samples" /
                       "seed_003_pypto_index_select.py").read_text())
    assert all(st["error"] is None for st in doc["statements"])
    printed = [line for st in doc["statements"] for line in st.get("printed", [])]
    x = torch.tensor([[0.1427, 0.0231, -0.5414, -1.0009], [-0.4664, 0.2647, -0.1228, -1.1068],
                      [-1.1734, -0.6571, 0.7230, -0.6004]])
    index = torch.tensor([0, 2])
    assert printed == [repr(torch.index_select(x, 0, index)),
                       repr(torch.index_select(x, 1, index))]
