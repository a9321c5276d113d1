"""What a cold ``tidx explain "t[1, 2] = 3"`` imports, counted (issue #25).

The goal is a wall time of at most 1.3x ``import numpy, rich.console, click``
(benchmarks/bench_startup.py measures it); a test never times anything, so these count
the modules a fresh interpreter has imported once the explain has printed.  A module
that comes back into a cold start shows here, on any machine, however quiet.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from conftest import ROOT

# Runs the CLI as the ``tidx`` console script does (its arguments are the probe's), then
# prints the names of the modules that are loaded, after a marker, as a Python literal
# (the probe itself imports nothing tidx does not: no json).
_PROBE = """
import sys
from cli import main
sys.argv = ["tidx"] + sys.argv[1:]
try:
    main()
except SystemExit as exit:
    code = exit.code
else:
    code = 0
names = sorted(sys.modules)
sys.stdout.write("\\n@@modules@@" + repr({"code": code, "modules": names}) + "\\n")
"""


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> str:
    """An operator cache written by a first run, as a user's second run finds it (the
    first run after an edit imports every ops module to write it)."""
    folder = str(tmp_path_factory.mktemp("cache"))
    subprocess.run([sys.executable, "-c", "import engine"], cwd=ROOT, check=True,
                   env={**os.environ, "TIDX_CACHE_DIR": folder}, timeout=120)
    return folder


def _cold_any(cache: str, *args: str) -> set[str]:
    """The modules a fresh interpreter has imported once ``tidx ARGS`` ended (however)."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TIDX_CACHE_DIR": cache})
    assert done.returncode == 0, done.stderr
    return set(ast.literal_eval(done.stdout.rsplit("@@modules@@", 1)[1])["modules"])


def _cold(cache: str, *args: str) -> set[str]:
    """The same, for a run that succeeded."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TIDX_CACHE_DIR": cache})
    assert done.returncode == 0, done.stderr
    found = ast.literal_eval(done.stdout.rsplit("@@modules@@", 1)[1])
    assert found["code"] in (0, None), done.stdout
    return set(found["modules"])


@pytest.fixture(scope="module")
def explain_en(cache_dir) -> set[str]:
    return _cold(cache_dir, "explain", "t[1, 2] = 3")


def test_an_english_explain_imports_no_other_language(explain_en):
    # the Chinese tables (every zh_* module) are imported only for --lang zh
    assert not {m for m in explain_en if m.startswith("tracer.i18n.zh")}
    assert "tracer.i18n.en" in explain_en


def test_lang_zh_still_imports_its_tables(cache_dir):
    assert "tracer.i18n.zh" in _cold(cache_dir, "explain", "--lang", "zh", "t[1, 2] = 3")


def test_an_explain_imports_the_kernel_modules_of_the_operators_it_runs(explain_en):
    # t[1, 2] = 3 runs empty (the default t), to, select, as_strided, copy_ and
    # lift_fresh: their modules (factories, copy, views) and what they import, not the
    # modules a first call once went through (advanced indexing for copy_, gather and
    # split for select)
    ops = {m for m in explain_en if m.startswith("engine.ops.")}
    assert {"engine.ops.factories", "engine.ops.copy", "engine.ops.views"} <= ops
    assert not ops & {"engine.ops.advanced", "engine.ops.gather", "engine.ops.split",
                      "engine.ops.cuda_indexing"}


def test_an_explain_without_cuda_or_pypto_imports_neither(explain_en):
    # torch.cuda (and the simulated GPU's caching allocator) and seed 003's pypto are
    # imported when a statement first names them, not by every start
    assert not explain_en & {"engine.binding.torch_cuda", "engine.memory.cuda_caching_allocator",
                             "engine.pypto.index_select"}


def test_naming_torch_cuda_or_pypto_imports_them(cache_dir):
    # a CUDA tensor made and dropped: its block is freed through the allocator
    dropped = _cold(cache_dir, "explain", "x = torch.zeros(2, device='cuda'); x = 1")
    assert "engine.memory.cuda_caching_allocator" in dropped
    assert "engine.binding.torch_cuda" in _cold(cache_dir, "explain",
                                                "torch.cuda.is_available()")
    assert "engine.pypto.index_select" in _cold(
        cache_dir, "explain", "import pypto; pypto.set_ub_size(1024)")


def test_the_lifetime_module_names_the_allocator_s_source():
    # cuda_lifetime keeps the allocator's file name itself, to leave the module unloaded
    from engine.memory import cuda_caching_allocator, cuda_lifetime

    assert cuda_lifetime.SOURCE == cuda_caching_allocator.SOURCE


def test_the_invalid_arguments_message_is_imported_only_for_a_call_that_matches_none(
        explain_en, cache_dir):
    # torch's "received an invalid combination of arguments" (invalid_arguments.cpp) is
    # formatted only when no signature matches
    assert "engine.binding.invalid_arguments" not in explain_en
    failed = _cold_any(cache_dir, "explain", "torch.sum(t, 'a')")
    assert "engine.binding.invalid_arguments" in failed


_AT_EXIT = """
import atexit, gc, sys
from click.testing import CliRunner
from cli import main
if sys.argv[1] == "runner":
    CliRunner().invoke(main, ["explain", "t[1, 2] = 3"])
else:
    sys.argv = ["tidx", "explain", "t[1, 2] = 3"]
    try:
        main()
    except SystemExit:
        pass
atexit._run_exitfuncs()
sys.stderr.write(f"@@frozen@@{gc.get_freeze_count()}")
"""


@pytest.mark.parametrize("how, frozen", [("command line", True), ("runner", False)])
def test_the_command_line_leaves_the_imports_objects_to_the_os_at_exit(how, frozen,
                                                                       cache_dir):
    # tidx's own process freezes the collector's objects at exit, so CPython's last
    # collection does not walk every object the imports made; a caller that passes the
    # arguments (click's CliRunner, a test) keeps its collector as it is
    done = subprocess.run([sys.executable, "-c", _AT_EXIT, how], cwd=ROOT, timeout=120,
                          capture_output=True, text=True,
                          env={**os.environ, "TIDX_CACHE_DIR": cache_dir})
    assert done.returncode == 0, done.stderr
    count = int(done.stderr.rsplit("@@frozen@@", 1)[1])
    assert (count > 10_000) if frozen else count == 0
    assert "t[1, 2] = 3" in done.stdout or how == "runner"


def test_a_statement_drawing_no_random_number_imports_no_generator(explain_en):
    # the default generator (mt19937) is made, and its module imported, at a run's
    # first draw; t[1, 2] = 3 only starts the run (its seed)
    assert "engine.rng.generator" in explain_en
    assert not {m for m in explain_en if m.startswith("engine.rng.")} - {"engine.rng.generator"}


def test_an_explain_imports_neither_json_nor_signal(explain_en):
    # json only reads a document back (tracer.document.read_json; --format json writes
    # through tracer.render.json); signal only names the exit code of a closed pipe or
    # Ctrl-C, and makes its enums when imported
    assert not explain_en & {"json", "signal"}
