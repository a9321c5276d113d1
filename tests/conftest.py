"""Shared test set-up.

Under CI (``CI`` set), a test that needs torch or graphviz must fail, never skip:
the oracle is the point of the suite.  Locally, missing oracles skip with a reason.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

UNDER_CI = bool(os.environ.get("CI"))


def require_torch():
    """Import torch for an oracle test: fail under CI, skip elsewhere."""
    try:
        import torch  # noqa: F401
    except ImportError:
        if UNDER_CI:
            pytest.fail("torch==2.13.0 is required under CI (pip install -e '.[test]')")
        pytest.skip("torch not installed")
    return sys.modules["torch"]
