"""mypy finds no error in the program, at the strictness pyproject.toml's [tool.mypy] states.

Every module of engine/, tracer/, cli.py and tidx.py is checked (mypy's defaults, which
leave the bodies of unannotated functions unchecked, plus warn_unused_ignores and
warn_redundant_casts); what tidx generates at import (the aten handles, Tensor's
methods, the torch.* functions) mypy reads from the stubs engine/binding/stubs.py writes
from the declarations, here, first (they are generated, not committed).  mypy is in the
test extra, so CI has it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import UNDER_CI

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error():
    try:
        import mypy  # noqa: F401
    except ImportError:
        if UNDER_CI:
            pytest.fail("mypy is required under CI (pip install -e '.[test]')")
        pytest.skip("mypy not installed")
    stubs = subprocess.run([sys.executable, "-m", "engine.binding.stubs"], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert stubs.returncode == 0, stubs.stderr
    # the configuration's own file list; no cache (a stale one hides nothing, but a
    # shared one is written to by every worktree)
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                           "--cache-dir", "/dev/null"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found")
