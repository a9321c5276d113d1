"""``--format gdb`` proven against the real libtorch: the seeds' statements run under
gdb in the torch 2.13 CPU wheel, and the steps tidx draws are the calls the binary makes.

The gdb runs (one per statement, and one that resolves every function the step specs
name) start together in one fixture: each loads libtorch's half a million symbols,
which takes most of its time.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pytest

from conftest import cli_run, require_gdb, require_torch
from engine.interpreter import lessons as L
from engine.interpreter import session
from tracer import symbols
from tracer.document import Document, walk as typed_walk
from tracer.events import walk
from tracer.render import gdb as render_gdb
from tracer.render.step import steps

#: The seeds' statements (seed 002's randn, seed 001's two assignments), with the
#: default t, rows, cols the file's program defines.
SEEDS = {"randn": "x = torch.randn(3, 4)", "select": "t[1, 2] = 3",
         "index_put": "t[rows, cols] = 10"}
#: ... and two statements, the second writing through the first's view: each statement's
#: breakpoints fire in it only
RUNS = {**SEEDS, "view": "y = t[1:, ::2]; y[0, 1] = 0"}

STEP_LINE = re.compile(r"^tidx step (\d+): (.+) \((.+)\)$")
TIMEOUT = 240


def _doc(text: str) -> Document:
    return session.run_document(text, seed=0)


def _breakpoints(gdb_text: str) -> dict[int, str]:
    """Step number -> gdb location, from the file's ``# step N`` / ``break`` pairs."""
    found = re.findall(r"^# step (\d+): .*\nbreak (.+?)(?: if .*)?$", gdb_text, re.M)
    return {int(n): loc for n, loc in found}


# -- the file, without gdb ---------------------------------------------------------------
def test_every_event_says_whether_gdb_can_stop_in_it():
    doc = _doc(SEEDS["randn"])
    for _depth, ev in typed_walk(doc.statements[0].events):
        info = ev.libtorch
        assert isinstance(info.breakable, bool)
        assert (info.why is None) == info.breakable, ev.name
        assert info.why in (None, symbols.INLINED, symbols.PART, symbols.PYTHON,
                            symbols.UNMAPPED), ev.name
    result = cli_run("explain", SEEDS["randn"], "--format", "json", "--seed", "0")
    assert '"libtorch": {' in result.output


def test_randn_file_breaks_on_the_seed_002_functions_and_lists_the_inlined_steps():
    doc = _doc(SEEDS["randn"])
    text = render_gdb.render(doc)
    flat = steps(doc)
    found = _breakpoints(text)
    for n, loc in found.items():
        info = flat[n - 1]["event"].libtorch
        assert info.breakable and info.function == loc
    for name in ("at::native::randn", "at::detail::empty_generic",
                 "at::detail::computeStorageNbytesContiguous", "at::native::normal_",
                 "THPVariable_Wrap", "torch::autograd::THPVariable_randn"):
        assert name in found.values(), name
    unbreakable = [n for n, item in enumerate(flat, 1)
                   if not item["event"].libtorch.breakable]
    assert unbreakable and not set(unbreakable) & set(found)
    for n in unbreakable:
        assert re.search(rf"^#   step {n}: {re.escape(flat[n - 1]['event'].name)} -- ",
                         text, re.M), n
    assert "inlined: c10::StorageImpl::StorageImpl is compiled into" in text
    # only the binding breakpoint starts enabled: it arms the rest
    assert text.count("disable $bpnum") == len(found) - 1
    assert "# step 2: THPVariable_randn -- the entry from Python: arms" in text
    assert ("#   gdb -x tidx.gdb --args python -c 'import torch; torch.manual_seed(0); "
            "x = torch.randn(3, 4)'") in text


def test_user_text_stays_in_comments_and_the_quoted_command():
    # a statement spanning lines must neither run as gdb commands nor be joined by ';'
    text = 's = """a\nshell touch /tmp/tidx-pwned\nrun"""'
    out = render_gdb.render(_doc(text))
    for line in out.splitlines():
        if not line.startswith("#"):
            assert "pwned" not in line and line.strip() != "shell touch /tmp/tidx-pwned"
    assert render_gdb.command(_doc(text)) is None
    assert "# | shell touch /tmp/tidx-pwned" in out


def test_each_statement_is_armed_by_the_one_before():
    doc = _doc(RUNS["view"])
    text = render_gdb.render(doc)
    breaks = re.findall(r"^break (.+?) if (.+)$", text, re.M)
    entries = [cond for _loc, cond in breaks if cond.startswith("$tidx_statement ==")
               and "&&" not in cond]
    assert entries == ["$tidx_statement == 0", "$tidx_statement == 1"]
    for _loc, cond in breaks:
        assert cond in entries or re.match(r"\$tidx_statement == [12] && \$tidx_calls_\d+ "
                                           r"(==|>=) \d+$", cond), cond
    # the first statement's entry is the one breakpoint enabled from the start
    assert text.count("set $tidx_first = $bpnum") == 1
    assert text.count("disable $bpnum") == len(breaks) - 1


def test_export_writes_the_gdb_file(tmp_path):
    out = tmp_path / "randn.gdb"
    result = cli_run("export", SEEDS["randn"], "-o", str(out), "--seed", "0")
    assert result.exit_code == 0, result.output
    assert out.read_text() == render_gdb.render(_doc(SEEDS["randn"]), lecture=True)


# -- the real binary ---------------------------------------------------------------------
def _resolver_script(locations: list[str]) -> str:
    """A gdb script that loads libtorch in a stopped python and reports, for each
    location, whether gdb finds a function there (a breakpoint that is not pending)."""
    return "\n".join([
        "set pagination off", "set confirm off", "set auto-load off",
        "set debuginfod enabled off", "set breakpoint pending on", "run",
        "python",
        "import json",
        f"locations = {json.dumps(locations)}",
        "found = {}",
        "for loc in locations:",
        "    bp = gdb.Breakpoint(loc, internal=True)",
        "    found[loc] = not bp.pending",
        "    bp.delete()",
        "print('TIDX-FOUND ' + json.dumps(found))",
        "end",
        "kill", ""])


def _table_locations() -> list[str]:
    """Every function the step specs name (tracer/steps.py, declared in the engine), and
    every function the lessons' traces and the declared kernels would break on."""
    from engine.binding.traced import GETTERS
    from engine.dispatch.declarations import REGISTRY
    from tracer.steps import FROM_KERNEL, declared

    locs = set(GETTERS.values())
    for spec in declared():
        lib = spec.libtorch
        if lib.rule is None and lib.why is None:
            locs.add(lib.function)
        if lib.why in (symbols.INLINED, symbols.PART):
            locs.add(lib.into)
    for decl in REGISTRY.values():
        info = symbols.answer(FROM_KERNEL, {"name": decl.schema, "layer": "dispatcher",
                                            "args": {"kernel": {"kind": "str",
                                                                "value": decl.native}}})
        if info["breakable"]:
            locs.add(info["function"])
    for lesson in L.available():
        doc = session.run(lesson.text, seed=0)
        for st in doc["statements"]:
            for _d, ev in walk(st["events"]):
                if ev["libtorch"]["breakable"]:
                    locs.add(ev["libtorch"]["function"])
    return sorted(locs)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Run every program of RUNS with its file, and the resolver, under gdb at once."""
    gdb = require_gdb()
    require_torch()
    tmp = tmp_path_factory.mktemp("gdb")
    procs = {}
    for key, statement in RUNS.items():
        doc = _doc(statement)
        path = tmp / f"{key}.gdb"
        path.write_text(render_gdb.render(doc))
        # the header's own command, with this interpreter (not a wrapper script)
        cmd = shlex.split(render_gdb.command(doc, str(path), batch=True, python=sys.executable))
        assert cmd[0] == "gdb"
        procs[key] = (doc, path, subprocess.Popen([gdb, "-nx", *cmd[1:]], text=True,
                                                  stdout=subprocess.PIPE,
                                                  stderr=subprocess.STDOUT))
    resolver = tmp / "resolve.gdb"
    resolver.write_text(_resolver_script(_table_locations()))
    procs["resolve"] = (None, resolver, subprocess.Popen(
        [gdb, "-nx", "-batch", "-x", str(resolver), "--args", sys.executable, "-c",
         "import torch, os, signal; os.kill(os.getpid(), signal.SIGSTOP)"],
        text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
    out = {}
    try:
        for key, (doc, path, proc) in procs.items():
            output, _ = proc.communicate(timeout=TIMEOUT)
            out[key] = (doc, path.read_text(), output)
    finally:
        for _doc_, _path, proc in procs.values():
            if proc.poll() is None:
                proc.kill()
    return out


@pytest.mark.gdb
@pytest.mark.torch
@pytest.mark.parametrize("key", list(RUNS))
def test_the_binary_takes_the_steps_in_the_trace_order(runs, key):
    doc, text, output = runs[key]
    flat = steps(doc)
    breaks = _breakpoints(text)
    hits = [STEP_LINE.match(line) for line in output.splitlines()]
    hits = [(int(m[1]), m[2], m[3]) for m in hits if m]
    assert hits, output[-3000:]
    for n, name, loc in hits:
        assert breaks.get(n) == loc, (n, loc)
        assert render_gdb.plain(flat[n - 1]["event"].name) == name
    first = list(dict.fromkeys(n for n, _name, _loc in hits))
    missed = sorted(set(breaks) - set(first))
    assert len(first) >= 0.8 * len(breaks), f"missed steps {missed}\n{output[-3000:]}"
    assert first == sorted(first), f"first hits out of the trace's order: {first}"
    # the breakpoints were armed by the statement's own binding, not by import torch
    assert first[0] == min(breaks)
    assert flat[first[0] - 1]["event"].layer == "binding"


def _after(output: str, step_name: str) -> list[str]:
    """The argument lines gdb printed under the first hit of a step."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if STEP_LINE.match(line) and f": {step_name} (" in line)
    found = []
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        found.append(line.strip())
    return found


def _arg(doc: Document, step_name: str, arg: str):
    for st in doc.statements:
        for _d, ev in typed_walk(st.events):
            if ev.name == step_name:
                return ev.args[arg]
    raise KeyError(step_name)


@pytest.mark.gdb
@pytest.mark.torch
@pytest.mark.parametrize("key", ["randn", "select"])
def test_gdb_reads_the_sizes_and_bytes_tidx_recorded(runs, key):
    if not _x86_64():
        pytest.skip("the argument lines read x86-64 registers")
    doc, _text, output = runs[key]
    sizes = [item["value"] for item in _arg(doc, "computeStorageNbytesContiguous",
                                            "sizes")["items"]]
    shown = "{" + ", ".join(map(str, sizes)) + "}"
    itemsize = _arg(doc, "computeStorageNbytesContiguous", "itemsize")["value"]
    assert _after(output, "computeStorageNbytesContiguous") == [
        f"sizes = {shown}", f"itemsize = {itemsize}"]
    nbytes = _arg(doc, "DefaultCPUAllocator::allocate", "nbytes")["value"]
    assert _after(output, "DefaultCPUAllocator::allocate") == [f"nbytes = {nbytes}"]
    assert _after(output, "_empty_generic") == [f"size = {shown}"]
    if key == "randn":
        assert _after(output, "aten::normal_") == ["mean = 0", "std = 1"]


def _x86_64() -> bool:
    import platform

    return platform.machine() in ("x86_64", "AMD64")


@pytest.mark.gdb
@pytest.mark.torch
def test_every_function_tidx_names_is_in_the_wheel(runs):
    _doc_, _text, output = runs["resolve"]
    line = next((x for x in output.splitlines() if x.startswith("TIDX-FOUND ")), None)
    assert line is not None, output[-3000:]
    found = json.loads(line[len("TIDX-FOUND "):])
    missing = sorted(loc for loc, ok in found.items() if not ok)
    assert not missing, f"gdb finds no function for: {missing}"
    assert len(found) > 100


def test_the_file_is_drawn_from_the_document_alone():
    # a document read back from JSON gives the same file: no engine at drawing time
    doc = _doc(SEEDS["index_put"])
    assert render_gdb.render(doc) == render_gdb.render(
        Document.from_json(json.loads(json.dumps(doc.to_json()))))
