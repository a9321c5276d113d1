"""Every sample runs under tidx and under real PyTorch and prints the same thing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import require_torch
from engine import session

SAMPLES = sorted((Path(__file__).parent.parent / "samples").glob("*.py"))
pytestmark = pytest.mark.torch


def test_there_are_samples_for_the_seeds():
    names = " ".join(p.name for p in SAMPLES)
    for seed in ("seed_001", "seed_002", "seed_004"):
        assert seed in names


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_prints_what_torch_prints(path):
    require_torch()
    doc = session.run(path.read_text())
    assert all(st["error"] is None for st in doc["statements"])
    ours = [line for st in doc["statements"] for line in st.get("printed", [])]
    theirs = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                            check=True).stdout
    assert "\n".join(ours) + "\n" == theirs
