"""Every property test runs under the hypothesis profile tests/conftest.py loads.

A test's own ``settings(max_examples=...)`` takes the values it does not name from
the profile loaded when the settings object is made, so under CI (``ci`` profile)
each must come out derandomized, without an example database and printing its
reproduction blob; a test that named ``derandomize`` or a ``database`` itself, or
settings made before the profile was loaded, would escape it and could flake.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import settings

from conftest import (FAST_DIVISOR, LONG, LONG_FACTOR, TIER, UNDER_CI, examples, scaled,
                      selects_fast_tier)

TESTS = Path(__file__).resolve().parent


def _property_tests() -> dict[str, settings]:
    found: dict[str, settings] = {}
    for path in sorted(TESTS.rglob("test_*.py")):     # tests/ and its wings
        try:
            module = importlib.import_module(path.stem)
        except ImportError as exc:      # e.g. no torch here: conftest fails under CI
            if UNDER_CI:
                raise
            pytest.skip(f"{path.name} does not import: {exc}")
        for name, obj in vars(module).items():
            used = getattr(obj, "_hypothesis_internal_use_settings", None)
            if name.startswith("test") and used is not None:
                found[f"{path.name}::{name}"] = used
    return found


def test_the_profile_for_this_run(request: pytest.FixtureRequest) -> None:
    if request.config.getoption("hypothesis_profile", None):
        pytest.skip("a profile was chosen with --hypothesis-profile")
    loaded = settings.default
    assert loaded.derandomize == UNDER_CI
    assert loaded.print_blob == UNDER_CI
    if UNDER_CI:
        assert loaded.database is None and loaded.deadline is None
    ci = settings.get_profile("ci")
    assert ci.derandomize and ci.database is None and ci.print_blob
    assert ci.deadline is None
    assert not settings.get_profile("local").derandomize


def test_every_property_test_takes_the_profile() -> None:
    profile = settings.default
    tests = _property_tests()
    assert len(tests) >= 10, sorted(tests)
    for name, used in tests.items():
        assert used.derandomize == profile.derandomize, name
        assert used.print_blob == profile.print_blob, name
        if profile.derandomize:
            assert used.database is None, name
        assert used.deadline is None, name


def test_long_runs_multiply_the_example_counts() -> None:
    assert examples(7) == scaled(7, long=LONG, fast=TIER["fast"])
    assert settings.default.max_examples == examples(100)


def test_the_fast_tier_divides_them_and_a_long_hunt_wins() -> None:
    assert [scaled(n, long=False, fast=False) for n in (1, 7, 400)] == [1, 7, 400]
    assert [scaled(n, long=False, fast=True) for n in (1, 7, 400)] == [1, 1, 400 // FAST_DIVISOR]
    assert scaled(7, long=True, fast=True) == 7 * LONG_FACTOR
    assert [selects_fast_tier(e) for e in ("fast", "fast and torch", "torch and fast", "",
                                           "not fast", "slow", "not fast and torch",
                                           "breakfast")] == [True] * 3 + [False] * 5


def test_this_run_knows_its_tier(request: pytest.FixtureRequest) -> None:
    assert TIER["fast"] == selects_fast_tier(request.config.getoption("markexpr") or "")


def test_slow_tests_run_by_default_and_under_ci() -> None:
    """``slow`` marks the long property runs; nothing deselects them: pytest's
    default options do not, and .ci/run runs the README's test command as it is."""
    import re
    import tomllib

    root = TESTS.parent
    options = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["pytest"]
    assert "slow" in " ".join(options["ini_options"]["markers"])
    assert "slow" not in options["ini_options"]["addopts"]
    readme = (root / "README.md").read_text()
    command = re.search(r"(pip install -e '\.\[test\]'[^&\n]*) && (python3? -m pytest)\n",
                        readme)
    assert command, "README's test command moved"
    ci = (root / ".ci" / "run").read_text().strip().splitlines()
    # CI installs as the README says: torch's CPU wheel, from PyTorch's index
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in command[1]
    assert f"python3 -m {command[1]}" in ci
    assert re.fullmatch(r"python3? -m pytest", ci[-1]), ci[-1]


def test_conftest_is_imported_under_one_name() -> None:
    # `from tests.conftest import ...` imported conftest a second time, whose own
    # load_profiles() (made before the tier was known) put back 100 examples under -m fast
    twice = [p.name for p in sorted(TESTS.rglob("*.py"))
             if "tests.conftest" in p.read_text(encoding="utf-8")
             and p.name != Path(__file__).name]
    assert twice == []
