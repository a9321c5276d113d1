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
import re
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
# the shared harnesses' asserts show both sides on failure, as a test's own do
pytest.register_assert_rewrite("oracle", "parser_oracle")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# Tests in wings (tests/ops/ ..., tests/tools/move_to_wings.py) import the shared helpers
# here (oracle, torch_worker ...) and each other (from test_i18n import ...) by module
# name, whichever file pytest was given: every wing is on the path, after tests/.
for _wing in sorted(Path(__file__).resolve().parent.iterdir()):
    if _wing.is_dir() and any(_wing.glob("test_*.py")) and str(_wing) not in sys.path:
        sys.path.append(str(_wing))

UNDER_CI = bool(os.environ.get("CI"))
LONG = os.environ.get("TIDX_LONG", "") not in ("", "0")
LONG_FACTOR = 10
FAST_DIVISOR = 4
# the tier this run selects, set from `-m` by pytest_configure before any test module is
# imported (a test's settings(max_examples=examples(n)) are made at import)
TIER = {"fast": False}


def scaled(n: int, *, long: bool, fast: bool) -> int:
    """``n`` examples, times LONG_FACTOR for a long hunt, a FAST_DIVISOR-th (at least
    one) in the fast tier."""
    if long:
        return n * LONG_FACTOR
    return max(1, n // FAST_DIVISOR) if fast else n


def examples(n: int) -> int:
    """A property test's ``max_examples``: ``n``; ``LONG_FACTOR * n`` under TIDX_LONG=1;
    ``n // FAST_DIVISOR`` in the fast tier (``-m fast``), whose point is a quick answer."""
    return scaled(n, long=LONG, fast=TIER["fast"])


def selects_fast_tier(markexpr: str) -> bool:
    """Whether a ``-m`` expression runs the fast tier (``fast``, ``fast and torch`` ...)."""
    return bool(re.search(r"\bfast\b", markexpr)) and not re.search(r"\bnot\s+fast\b",
                                                                      markexpr)


def load_profiles() -> None:
    # A test's own settings(...) are made when its module is imported, after this, and
    # take every value they do not name (derandomize, database, print_blob) from the
    # profile loaded here; tests/test_hypothesis_settings.py checks that each does.
    default = settings.get_profile("default")     # both start from hypothesis' defaults
    settings.register_profile("ci", default, derandomize=True, database=None,
                              print_blob=True, deadline=None, max_examples=examples(100))
    settings.register_profile("local", default, max_examples=examples(100))
    # (pytest --hypothesis-profile=NAME still wins: this file is loaded first.)
    settings.load_profile("ci" if UNDER_CI else "local")


load_profiles()


def pytest_configure(config):
    TIER["fast"] = selects_fast_tier(config.getoption("markexpr", "") or "")
    load_profiles()


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


# -- markers by what a test needs --------------------------------------------------------------
# A test is marked by what it reaches, not by a hand list: the names its code, the code of
# the tests' own helpers it calls (oracle.assert_like_torch -> require_torch) and its
# fixtures load. pyproject.toml registers the markers; `-m fast` is the developer's tier.
NEEDS = {
    "torch": {"require_torch"},                    # real torch in this process
    "kernel": {"TorchWorker"},                     # torch in worker processes per CPU capability
    "dot": {"require_dot"},                        # Graphviz's dot program
    "browser": {"require_chromium", "screenshot"},  # headless Chromium
    "gdb": {"require_gdb"},                        # gdb over the wheel's libtorch
    "subprocess": {"subprocess", "pexpect", "Popen"},  # a child python, tidx's CLI or torch
    # every call or allocation counted (cProfile, tracemalloc: Python runs 2-5x slower),
    # and the program run at scale to see it grow
    "profiled": {"cProfile", "tracemalloc", "setprofile", "settrace"},
}
# what keeps a test out of the fast tier: another process (each child pays Python's and
# numpy's or torch's start-up: 0.3-3 s), or `slow` by hand
NOT_FAST = {"kernel", "dot", "browser", "gdb", "subprocess", "profiled", "slow"}
TESTS = Path(__file__).resolve().parent


def _code_names(code, seen: set) -> set[str]:
    """Every global or attribute name ``code`` and the code nested in it load."""
    if code in seen:
        return set()
    seen.add(code)
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _code_names(const, seen)
    return names


def _reached(fn, seen: set) -> set[str]:
    """The names ``fn`` loads, and those of every function of tests/ it names."""
    fn = getattr(fn, "hypothesis", None) and fn.hypothesis.inner_test or fn
    fn = getattr(fn, "__wrapped__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return set()
    names = _code_names(code, seen)
    scope = getattr(fn, "__globals__", {})
    for name in list(names):
        value = scope.get(name)
        if value is None or value is fn:
            continue
        if getattr(value, "__name__", None) == "torch" and name == "torch":
            names.add("require_torch")              # a module-level `import torch`
        module = getattr(value, "__module__", None) or ""
        source = getattr(sys.modules.get(module), "__file__", None) or ""
        if callable(value) and source and Path(source).is_relative_to(TESTS):
            names |= _reached(value, seen)
            for member in vars(value).values() if isinstance(value, type) else ():
                if callable(member):
                    names |= _reached(member, seen)
    return names


def needs(item) -> set[str]:
    """The markers of NEEDS ``item`` reaches through its code and its fixtures."""
    seen: set = set()
    names = _reached(getattr(item, "obj", None), seen)
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        for fixture in defs:
            names |= _reached(fixture.func, seen)
    return {marker for marker, calls in NEEDS.items() if names & calls}


#: A parametrized test function with more cases than this keeps an evenly spread sample of
#: about this many in the fast tier (the whole suite runs every case): the fast tier's
#: point is a quick answer over every function, not every row of a long table.
FAST_CASES = 24


def _thin(items) -> set[int]:
    """The ids of the parametrized cases beyond each function's fast sample."""
    by_function: dict[tuple, list] = {}
    for item in items:
        if getattr(item, "callspec", None) is not None:
            by_function.setdefault((item.fspath, item.originalname), []).append(item)
    out: set[int] = set()
    for cases in by_function.values():
        if len(cases) > FAST_CASES:
            step = len(cases) / FAST_CASES
            keep = {int(i * step) for i in range(FAST_CASES)}
            out.update(id(c) for i, c in enumerate(cases) if i not in keep)
    return out


def pytest_collection_modifyitems(config, items):
    beyond = _thin(items)
    for item in items:
        if id(item) in beyond and not item.get_closest_marker("fast"):
            item.add_marker("slow")
        found = needs(item)
        if item.get_closest_marker("chromium"):
            found.add("browser")                   # the marker's old name
        for marker in sorted(found):
            item.add_marker(marker)
        if not {m.name for m in item.iter_markers()} & NOT_FAST:
            item.add_marker("fast")
