"""Exit codes and error lines as the README documents them, read from outside (click's
CliRunner, or a real process where the pipe, the terminal or the stream's encoding is
the point): 0 done, 1 a PyTorch error, 2 refused in one line (``tidx: ...``), 3 tidx's
bug, 141 a closed pipe; never click's usage block, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

import cli
from conftest import ROOT, cli_run, require_torch
from tracer.options import MIN_WIDTH


def _one_line(result) -> str:
    """The refusal's only line (stderr; nothing on stdout)."""
    assert result.exit_code == 2, result.output
    assert result.stdout == "", result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tidx: "), result.stderr
    return lines[0]


# -- every refusal is one line --------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["explain", "t["],                                    # syntax
    ["explain", "foo[1]"],                                # unknown name
    ["explain"],                                          # nothing to run
    ["explain", "t", "--wdth", "3"],                      # click: no such option
    ["explain", "t", "--format", "xx"],                   # click: bad choice
    ["explain", "t", "--layers", "nope"],
    ["explain", "t", "--max-bytes", "lots"],
    ["explain", "-f", "/nonexistent/lesson.py"],
    ["compare", "y = t[1:3]"],                            # click: missing argument
    ["compare", "y = t[1:3]", "t["],
    ["step", "t["],
    ["step", "t[1, 2] = 3", "--jump", "999"],
    ["lesson", "no_such_lesson"],
    ["lesson", "seed_001_indexing", "--format", "xx"],
    ["export", "t[1, 2] = 3", "-o", "x.unknown-suffix"],
    ["no-such-command"],
    ["--no-such-option"],
])
def test_every_refusal_is_one_line_with_exit_2(args):
    line = _one_line(cli_run(*args))
    assert "Usage:" not in line and "Traceback" not in line


def test_clicks_own_errors_keep_their_words_and_point_at_the_help():
    line = _one_line(cli_run("explain", "t", "--wdth", "3"))
    assert "No such option '--wdth'" in line and "--width" in line   # click's suggestion
    assert line.endswith("explain -h')")
    assert cli_run("explain", "-h").exit_code == 0
    assert "Usage:" in cli_run("explain", "--help").output


def test_an_internal_error_is_one_tidx_line_with_exit_3(monkeypatch):
    from tracer.render import tree

    def broken(*args, **kwargs):
        raise KeyError("shape")

    monkeypatch.setattr(tree, "render", broken)
    result = cli_run("explain", "t[1, 2] = 3")
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [
        f"tidx: internal error ({cli.REPORT}): KeyError: 'shape'"]


# -- --width -----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["explain", "t[1, 2] = 3"], ["step", "t[1, 2] = 3"],
                                     ["compare", "y = t[1:3]", "y = t[[1, 2]]"],
                                     ["lesson", "seed_001_indexing"]])
def test_a_width_too_narrow_to_draw_is_refused_and_the_narrowest_draws(command):
    for width in ("0", "-5", str(MIN_WIDTH - 1)):
        line = _one_line(cli_run(*command, "--width", width))
        assert f"{width} is not in the range x>={MIN_WIDTH}" in line
    result = cli_run(*command, "--width", str(MIN_WIDTH))
    assert result.exit_code == 0 and result.stdout, result.output


# -- --seed --------------------------------------------------------------------------------

def test_seeds_are_those_torch_manual_seed_takes():
    torch = require_torch()
    for seed in (2**70, 2**64, -2**63 - 1):
        with pytest.raises(ValueError) as raised:
            torch.manual_seed(seed)
        for command in (["explain", "torch.rand(2)"], ["compare", "torch.rand(2)", "t"],
                        ["lesson", "seed_002_randn"]):
            line = _one_line(cli_run(*command, "--seed", str(seed)))
            assert f"{seed} is not a seed torch.manual_seed takes" in line
            assert str(raised.value) in line
    for seed in (2**64 - 1, -1, -2**63):     # the ends and a negative seed, as torch's
        torch.manual_seed(seed)
        expected = repr(torch.rand(2))
        result = cli_run("explain", "y = torch.rand(2)", "--seed", str(seed), "--format",
                         "json")
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        assert doc["statements"][0]["bindings"]["y"]["repr"] == expected


# -- a file saved with a byte-order mark -------------------------------------------------

def test_a_file_with_a_utf8_bom_runs_as_python_runs_it(tmp_path):
    plain, marked = tmp_path / "plain.py", tmp_path / "bom.py"
    plain.write_text("import torch\nt[1, 2] = 3\n", encoding="utf-8")
    marked.write_text("import torch\nt[1, 2] = 3\n", encoding="utf-8-sig")
    assert marked.read_bytes().startswith(b"\xef\xbb\xbf")
    # Python itself runs it
    assert subprocess.run([sys.executable, "-c", "import ast, sys; "
                           "compile(open(sys.argv[1], 'rb').read(), 'f', 'exec')",
                           str(marked)]).returncode == 0
    want = cli_run("explain", "-f", str(plain))
    got = cli_run("explain", "-f", str(marked))
    assert got.exit_code == 0, got.output
    assert got.output == want.output


def test_a_bom_inside_the_text_is_refused_as_python_refuses_it():
    line = _one_line(cli_run("explain", "x = 1\n\ufeffy = 2"))
    assert "U+FEFF" in line


# -- deep nesting and huge integers --------------------------------------------------------

DEEP = [
    "x = " + "-" * 50_000 + "1",
    "x = " + "~" * 50_000 + "1",
    "x = " + "not " * 20_000 + "1",
    "x = " + "-(" * 30_000 + "1" + ")" * 30_000,
    "x = " + "(" * 250 + "1" + ")" * 250,
    "x = " + "(" * 250 + "1" + ",)" * 250,
    "x = " + "[" * 250 + "1" + "]" * 250,
    "y = t" + "[0:]" * 20_000,
    "y = t" + "[0:]" * 250,
    "x = t" + ".abs()" * 300,
    "x = 1" + " + 1" * 900,
    "x = " + "-" * 2_000 + "1",
]


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_deep_nesting_is_refused_in_one_line_and_the_limit_draws(tmp_path):
    lesson = tmp_path / "deep.py"
    for text in DEEP:
        lesson.write_text(text)
        line = _one_line(cli_run("explain", "-f", str(lesson)))
        assert "nested" in line, text[:20]
    depth = 197                              # the Assign, 197 minuses, the name: 199
    for fmt in ("tree", "json", "dot", "mermaid", "markdown", "gdb"):
        result = cli_run("explain", "x = " + "-" * depth + "t", "--format", fmt)
        assert result.exit_code == 0, (fmt, result.output)


@pytest.mark.parametrize("text", [
    "x = 1" + "0" * 5_000,                   # Python's own parser refuses it
    "x = 0x" + "f" * 5_000,                  # Python parses it, but cannot print it
    "print(0x" + "f" * 5_000 + ")",
    "t[0x" + "f" * 5_000 + "]",
    "x = 10**5000",
    "print(10**5000)",
    "x = 2**200 * 2**200",
])
def test_integers_past_what_tidx_takes_are_refused_in_one_line(text):
    line = _one_line(cli_run("explain", text))
    assert "too large" in line or "Exceeds the limit" in line
    # up to the limit, Python's numbers print as Python prints them
    result = cli_run("explain", f"print({2**256 - 1})")
    assert result.exit_code == 0 and str(2**256 - 1) in result.stdout.replace("\n", "")


# -- a closed pipe: 141 in every command and format -------------------------------------

def _into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess:
    """Run tidx with stdout a pipe nobody reads (``tidx ... | head -1`` once head has
    gone), so the first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], stdout=write,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=300,
                              env={**os.environ, "NO_COLOR": "1"})
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [
    ["explain", "t[1, 2] = 3"],
    ["explain", "t[1, 2] = 3", "--full"],
    ["explain", "t[1, 2] = 3", "--lang", "zh"],
    *[["explain", "t[1, 2] = 3", "--format", fmt]
      for fmt in ("json", "mermaid", "dot", "markdown", "gdb")],
    ["explain", "t[5]"],
    ["explain", "print(t)"],
    ["step", "t[1, 2] = 3"],
    ["lesson", "seed_001_indexing"],
    ["lesson", "seed_001_indexing", "--format", "json"],
    ["lesson", "seed_001_indexing", "--step"],
    ["lesson", "seed_001_indexing", "--source"],
    ["lessons"],
    ["compare", "y = t[1:3]", "y = t[[1, 2]]"],
    ["explain", "--help"],
    ["--version"],
], ids=" ".join)
def test_output_cut_short_exits_141(args):
    done = _into_a_closed_pipe(*args)
    assert done.returncode == 141, done.stderr.decode()
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr


def test_verify_cut_short_exits_141():
    require_torch()
    done = _into_a_closed_pipe("explain", "t[1, 2] = 3", "--verify")
    assert done.returncode == 141, done.stderr.decode()


# -- a stream that cannot encode what tidx prints ----------------------------------------

@pytest.mark.parametrize("args, code", [
    (["explain", "t[1, 2] = 3"], 0),
    (["explain", "t[1, 2] = 3", "--lang", "zh"], 0),
    (["explain", "t[1, 2] = 3", "--full", "--lang", "zh"], 0),
    (["explain", "t[5]", "--lang", "zh"], 1),
    (["explain", "print('é ☃ 中')"], 0),
    (["explain", "t[1, 2] = 3", "--format", "markdown", "--lang", "zh"], 0),
    (["step", "t[1, 2] = 3", "--lang", "zh"], 0),
    (["compare", "y = t[1:3]", "y = t[[1, 2]]", "--lang", "zh"], 0),
    (["lesson", "seed_001_indexing", "--lang", "zh"], 0),
    (["lessons"], 0),
])
def test_an_ascii_stream_degrades_the_output_instead_of_failing(args, code):
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True,
                          cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "ascii", "NO_COLOR": "1"})
    assert done.returncode == code, done.stderr.decode(errors="replace")
    assert b"internal error" not in done.stderr
    # rich's tree shows '?' for what ASCII lacks; click's echo writes UTF-8 whatever the
    # stream says (click.utils: a misconfigured ASCII stream is rewrapped)
    done.stdout.decode("utf-8")


# -- tidx step's jump takes ASCII digits only ---------------------------------------------

def test_step_jump_ignores_a_digit_int_cannot_read():
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "step", "t[1, 2] = 3"],
                          cwd=str(ROOT), env={"NO_COLOR": "1", "COLUMNS": "120",
                                              "LINES": "60", "PATH": "/usr/bin:/bin"},
                          dimensions=(60, 120), timeout=30, encoding="utf-8")
    child.expect(r"step 1/(\d+)")
    total = int(child.match.group(1))
    child.send("g")
    child.expect("step number: ")
    child.send("²")                          # str.isdigit() says yes, int() says no
    child.send("2\r")
    child.expect(f"step 2/{total}")
    child.send("g")
    child.expect("step number: ")
    child.send("9" * 30 + "\r")
    child.expect(f"there is no step {'9' * 30}")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


def test_ctrl_c_during_a_run_is_130_and_one_line():
    """SIGINT while a statement runs: the user stopping tidx (130, as a shell reports a
    process SIGINT stopped), not click's "Aborted!" with exit 1, which the README keeps
    for PyTorch errors."""
    import signal
    import subprocess
    import sys
    import time

    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    # statements that run for a while (about a second each), well inside the memory limit
    program = "; ".join(["y = torch.rand(2 * 10**6).sort()"] * 100)
    proc = subprocess.Popen([sys.executable, str(root / "cli.py"), "explain", program,
                             "--format", "json"], cwd=str(root), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    assert proc.poll() is None, "the program should still be running"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["tidx: interrupted"]
