"""Shared test set-up.

Under CI (``CI`` set), a test that needs torch or graphviz must fail, never skip:
the oracle is the point of the suite.  Locally, missing oracles skip with a reason.

Hypothesis runs under the ``ci`` profile there (derandomized: the same examples on
every run, no example database, the reproduction blob printed on failure) and under
``local`` elsewhere (random examples, as usual).  ``TIDX_LONG=1`` multiplies every
property test's example count by ``LONG_FACTOR`` for long local runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

UNDER_CI = bool(os.environ.get("CI"))
LONG = os.environ.get("TIDX_LONG", "") not in ("", "0")
LONG_FACTOR = 10


def examples(n: int) -> int:
    """A property test's ``max_examples``: ``n``, or ``LONG_FACTOR * n`` under TIDX_LONG=1."""
    return n * LONG_FACTOR if LONG else n


# A test's own settings(...) are made when its module is imported, after this file,
# and take every value they do not name (derandomize, database, print_blob) from
# the profile loaded here; tests/test_hypothesis_settings.py checks that each does.
_DEFAULT = settings.get_profile("default")     # both start from hypothesis' defaults
settings.register_profile("ci", _DEFAULT, derandomize=True, database=None,
                          print_blob=True, deadline=None, max_examples=examples(100))
settings.register_profile("local", _DEFAULT, max_examples=examples(100))
# (pytest --hypothesis-profile=NAME still wins: this file is loaded first.)
settings.load_profile("ci" if UNDER_CI else "local")


def cli_run(*args: str):
    """Invoke tidx's command line in-process, without colour."""
    from click.testing import CliRunner

    import cli

    return CliRunner().invoke(cli.main, list(args), env={"NO_COLOR": "1"})


def require_torch():
    """Import torch for an oracle test: fail under CI, skip elsewhere."""
    try:
        import torch  # noqa: F401
    except ImportError:
        if UNDER_CI:
            pytest.fail("torch==2.13.0 is required under CI (pip install -e '.[test]')")
        pytest.skip("torch not installed")
    return sys.modules["torch"]


GOLDEN = Path(__file__).resolve().parent / "golden"


def golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/<name>`` exactly.

    Golden files change only when asked: ``TIDX_UPDATE_GOLDEN=1 pytest`` rewrites them,
    and the diff is then reviewed like code.
    """
    path = GOLDEN / name
    if os.environ.get("TIDX_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with TIDX_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def require_dot() -> str:
    """The path of Graphviz's ``dot`` program: fail under CI, skip elsewhere."""
    import shutil

    found = shutil.which("dot")
    if found is None:
        if UNDER_CI:
            pytest.fail("Graphviz's dot is required under CI (.ci/run installs graphviz)")
        pytest.skip("Graphviz's dot is not installed")
    return found


def require_gdb() -> str:
    """The path of gdb (with its Python, as Debian builds it): fail under CI, skip
    elsewhere."""
    import shutil

    found = shutil.which("gdb")
    if found is None:
        if UNDER_CI:
            pytest.fail("gdb is required under CI (.ci/run installs it)")
        pytest.skip("gdb is not installed")
    return found


def require_chromium() -> str:
    """The path of a headless-capable Chromium: fail under CI, skip elsewhere."""
    import shutil

    found = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                                "google-chrome")) if p), None)
    if found is None:
        if UNDER_CI:
            pytest.fail("chromium is required under CI (.ci/run installs it)")
        pytest.skip("chromium is not installed")
    return found


def screenshot(html_path: Path, png_path: Path, width: int = 1280,
               height: int = 1600) -> Path:
    """A headless Chromium screenshot of a local page (flags that work in a sandbox)."""
    import subprocess
    import tempfile

    chromium = require_chromium()
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--window-size={width},{height}",
                        f"--screenshot={png_path}", html_path.resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
    return png_path
