"""The command line, through click's CliRunner: output, exit codes, hostile input."""

from __future__ import annotations

import json
import re
import os

import pytest
from click.testing import CliRunner

import cli
from conftest import ROOT, cli_run


run = cli_run


def test_explain_advanced_assignment_shows_the_seed_001_path():
    res = run("explain", "t[rows, cols] = 10", "--width", "200", "--full")
    assert res.exit_code == 0, res.output
    out = res.output
    # the defaults the statement used, with their values, at the top
    assert out.index("t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])") < out.index(">>>")
    assert "rows = torch.tensor([0, 2])" in out and "cols = torch.tensor([1, 1])" in out
    for step in ("valueToTensor", "wrapTuple", "count_specified_dimensions", "applySlicing",
                 "recordTensorIndex", "dispatch_index_put_", "typeConvertIndices",
                 "aten::index_put_", "aten::_index_put_impl_", "cpu_index_put_kernel"):
        assert step in out, step
    # the dim counter of recordTensorIndex goes 0 -> 1 -> 2
    assert "recordTensorIndex  dim=0  dim_after=1" in out
    assert "recordTensorIndex  dim=1  dim_after=2" in out
    # the elements written, and the result
    assert "elements [1, 7]" in out
    assert "[ 7, 10,  9]]" in out


def test_explain_json_is_the_documented_document():
    res = run("explain", "t[1, 2] = 3", "--format", "json")
    assert res.exit_code == 0
    doc = json.loads(res.output)
    assert set(doc) >= {"tidx", "format", "statements"}
    st = doc["statements"][0]
    assert st["source"] == "t[1, 2] = 3" and st["error"] is None
    assert st["bindings"]["t"]["summary"]["values"] == [[1, 2, 3], [4, 5, 3], [7, 8, 9]]
    assert st["events"][0]["name"] == "Tensor.__setitem__"


def test_pytorch_error_exits_1_and_shows_the_step_that_raised():
    res = run("explain", "t[5]", "--width", "200")
    assert res.exit_code == 1
    assert "raised IndexError: index 5 is out of bounds for dimension 0 with size 3" in \
        res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("statement", [
    "__import__('os').system('touch /tmp/tidx_pwned')",
    "t.__class__",
    "t.__class__.__bases__",
    "open('/etc/passwd')",
    "eval('1')",
    "getattr(t, 'shape')",
    "import os",
    "from os import system",
    "[i for i in t for j in t]", "{i: i for i in t}",
    "y = [[i for i in range(5000)] for j in range(5000)]",
    "lambda: 1",
    "torch.empty(10**12)",
    "2**10**10",
    "t[",
    "t.numpy().tofile('/tmp/x')",
    "torch.ops",
    "f'{t.__class__}'", "f'{1:>999999999}'",  # f-strings run now (issue #26); no escape
    "while True: pass", "def f(n): return f(n)\nf(1)",
    "[1] * 10**9",
    "torch.zeros(*t)",
])
def test_hostile_input_is_refused_with_one_line_and_exit_2(statement, tmp_path):
    res = run("explain", statement)
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert "Traceback" not in res.output
    assert len(lines) == 1 and lines[0].startswith("tidx: "), res.output


def test_refused_allocation_says_what_and_how_to_raise(tmp_path):
    res = run("explain", "torch.empty(10**12)")
    assert res.exit_code == 2
    assert "4000000000000 bytes" in res.output and "--max-bytes" in res.output


def test_max_bytes_raises_the_limit_and_bad_values_are_usage_errors():
    assert run("explain", "torch.empty(300, 300)", "--max-bytes", "100KiB").exit_code == 2
    assert run("explain", "torch.empty(300, 300)", "--max-bytes", "1MiB").exit_code == 0
    for bad in ("lots", "inf", "nan", "-inf", "1e400", "0.5", "0", "-3", "9EiB"):
        res = run("explain", "t", "--max-bytes", bad)
        assert res.exit_code == 2, (bad, res.output)
        assert "Invalid value for '--max-bytes'" in res.output
        assert "Traceback" not in res.output


def test_stdin_that_is_not_utf8_is_one_line_and_exit_2():
    res = CliRunner().invoke(cli.main, ["explain", "-"], input=b"t[1]\xff")
    assert res.exit_code == 2 and "stdin is not UTF-8 text" in res.output


def test_an_internal_error_anywhere_is_one_line_exit_3(monkeypatch):
    """Whatever breaks inside tidx (here: the tree renderer) is said in one line that
    names it as tidx's bug, exit 3, never a traceback and never a PyTorch error."""
    from tracer.render import tree

    def broken(*args, **kwargs):
        raise KeyError("shape")

    monkeypatch.setattr(tree, "render", broken)
    res = run("explain", "t[1, 2] = 3")
    assert res.exit_code == 3
    assert res.output.strip().splitlines() == [
        "tidx: internal error (a bug in tidx, please report it with the command that caused "
        "it): KeyError: 'shape'"]


def test_unknown_name_lists_the_defaults():
    res = run("explain", "foo[1]")
    assert res.exit_code == 2
    assert "name 'foo' is not defined" in res.output and "rows" in res.output


# -- formats, filters and export ------------------------------------------------------


@pytest.mark.parametrize("fmt, start", [("mermaid", "sequenceDiagram\n"),
                                        ("dot", "// tidx sequence diagram"),
                                        ("markdown", "# tidx")])
def test_explain_prints_every_text_format(fmt, start):
    res = run("explain", "t[1, 2] = 3", "--format", fmt)
    assert res.exit_code == 0, res.output
    assert res.output.startswith(start)


def test_explain_ops_shows_only_aten_operators():
    res = run("explain", "t[rows, cols] = 10", "--ops", "--format", "json")
    ops = [ev["name"] for st in json.loads(res.output)["statements"]
           for ev in st["events"]]
    assert ops == ["aten::lift_fresh", "aten::index_put_"]


def test_filters_apply_to_the_tree_too():
    res = run("explain", "t[1, 2] = 3", "--depth", "2", "--no-values", "--width", "120")
    assert res.exit_code == 0
    assert "THPVariable_setitem" in res.output and "valueToTensor" not in res.output
    assert "index=" not in res.output
    assert "storage s$0" in res.output  # the storage picture reads the unfiltered trace


def test_the_tree_honours_no_color_and_narrow_terminals():
    res = run("explain", "t[rows, cols] = 10", "--width", "60")
    assert "\x1b[" not in res.output
    assert max(len(line) for line in res.output.splitlines()) <= 60


@pytest.mark.parametrize("args", [["--layers", "python,nope"], ["--depth", "0"],
                                  ["--diagram", "flow"]])
def test_bad_filters_are_usage_errors(args):
    res = run("explain", "t[1, 2] = 3", *args)
    assert res.exit_code == 2 and "Traceback" not in res.output


@pytest.mark.parametrize("suffix, start", [(".dot", b"// tidx"), (".mmd", b"sequenceDiagram"),
                                           (".json", b"{"), (".md", b"# tidx"),
                                           (".svg", b"<?xml"), (".html", b"<!DOCTYPE html>")])
def test_export_writes_the_format_its_suffix_names(tmp_path, suffix, start):
    out = tmp_path / f"trace{suffix}"
    res = run("export", "t[rows, cols] = 10", "-o", str(out))
    assert res.exit_code == 0, res.output
    # an SVG of several slide pages is one file a page, numbered beside the name
    written = [out] if out.exists() else sorted(tmp_path.glob(f"trace-*{suffix}"))
    assert written and all(p.read_bytes().startswith(start) for p in written)


def test_export_reads_statements_from_a_file_and_from_stdin(tmp_path):
    lesson = tmp_path / "lesson.py"
    lesson.write_text("import torch\n# fancy\nt = torch.tensor([[1, 2], [3, 4]])\nt[0, 1] = 7\n")
    out = tmp_path / "a.json"
    assert run("export", "-f", str(lesson), "-o", str(out)).exit_code == 0
    assert [st["source"] for st in json.loads(out.read_text())["statements"]][-1] == \
        "t[0, 1] = 7"
    res = CliRunner().invoke(cli.main, ["export", "-", "-o", str(tmp_path / "b.mmd")],
                             input="t[1, 2] = 3\n")
    assert res.exit_code == 0 and (tmp_path / "b.mmd").read_text().startswith("sequence")


def test_export_of_a_failing_statement_writes_the_trace_and_exits_1(tmp_path):
    out = tmp_path / "err.mmd"
    res = run("export", "t[0, 5] = 1", "-o", str(out))
    assert res.exit_code == 1
    assert "--x" in out.read_text()


@pytest.mark.parametrize("target", ["missing-dir/x.svg", "a-directory.svg"])
def test_export_to_an_unwritable_path_exits_2_in_one_line(tmp_path, target):
    (tmp_path / "a-directory.svg").mkdir()
    res = run("export", "t[1, 2] = 3", "-o", str(tmp_path / target))
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert [ln for ln in res.output.splitlines() if ln.startswith("tidx: cannot write")]


def test_export_png_without_dot_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    res = run("export", "t[1, 2] = 3", "-o", str(tmp_path / "x.png"))
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1].startswith("tidx: PNG export needs Graphviz")
    assert not (tmp_path / "x.png").exists()


def test_export_with_an_unknown_suffix_is_a_usage_error(tmp_path):
    res = run("export", "t[1, 2] = 3", "-o", str(tmp_path / "x.txt"))
    assert res.exit_code == 2 and "--format" in res.output
    assert run("export", "t[1, 2] = 3", "-o", str(tmp_path / "x.txt"),
               "--format", "json").exit_code == 0


def test_lessons_lists_every_sample_with_its_title():
    res = run("lessons")
    assert res.exit_code == 0
    assert "seed_001_indexing" in res.output and "Seed 001: tensor indexing" in res.output
    assert "views_and_copies" in res.output and "triangles_and_diagonals" in res.output


def test_lesson_runs_a_sample_in_any_format():
    res = run("lesson", "seed_001_indexing", "--format", "json")
    assert res.exit_code == 0
    doc = json.loads(res.output)
    sources = [st["source"] for st in doc["statements"]]
    assert "t[rows, cols] = 10" in sources
    assert doc["statements"][0]["comment"].startswith("An integer index selects")


def test_unknown_lesson_is_a_usage_error_naming_the_lessons():
    res = run("lesson", "nope")
    assert res.exit_code == 2
    assert "seed_002_randn" in res.output


def test_compare_shows_view_versus_copy_and_where_paths_part():
    res = run("compare", "y = t[1:3]", "y = t[[1, 2]]", "--width", "160")
    assert res.exit_code == 0, res.output
    assert "y: view of t" in res.output and "y: a copy (new storage)" in res.output
    # the view allocates nothing; the copy allocates the index list and the result
    assert "│ 0 " in res.output and "│ 64 " in res.output
    assert "The paths part after 2 shared steps" in res.output


def test_compare_shows_the_statements_as_typed_and_what_a_write_did():
    """Brackets in a statement are not rich markup (``t[rows, cols]`` was shown as
    ``t``), and a tensor written into is not 'a copy': it keeps its storage."""
    res = run("compare", "t[rows, cols] = 10", "y = t[[0, 2], [1, 1]]", "--width", "160")
    assert res.exit_code == 0, res.output
    assert "┃ t[rows, cols] = 10 " in res.output and "┃ y = t[[0, 2], [1, 1]] " in res.output
    assert "t: written in place (same storage)" in res.output
    assert "y: a copy (new storage)" in res.output


def test_compare_of_identical_paths():
    res = run("compare", "y = t[0]", "y = t[1]")
    assert res.exit_code == 0
    assert "exactly the same steps" in res.output


def test_the_errors_lesson_exits_0_and_shows_each_error_where_it_was_raised():
    res = run("lesson", "errors", "--width", "200", "--full")
    assert res.exit_code == 0, res.output
    assert "raised IndexError: index 5 is out of bounds for dimension 0 with size 3" in \
        res.output
    assert "raised RuntimeError: Storage size calculation overflowed" in res.output
    # the lecture view marks the step that raised on its line, and prints PyTorch's
    # message under the tree
    lecture = run("lesson", "errors", "--width", "200").output
    assert re.search(r"applySelect .*raised IndexError", lecture)
    assert "IndexError: index 5 is out of bounds for dimension 0 with size 3" in lecture
    assert re.search(r"computeStorageNbytesContiguous .*raised RuntimeError", lecture)


def test_a_closed_pipe_ends_quietly() -> None:
    """``tidx explain -f long_lesson | head -1``: the reader stops after one line; tidx
    stops too, with no traceback and no 'internal error' (rich's console ends quietly,
    with 0; anything else that meets the closed pipe ends as SIGPIPE would, 141)."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "explain", "--seed", "0", "-f",
         "samples/seed_004_masks_and_fancy.py"],   # 300 kB of output: more than a pipe holds
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ,
                                                                       "NO_COLOR": "1"})
    assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() in (0, 141)
    assert "Traceback" not in err and "internal error" not in err


def test_a_closed_pipe_after_plain_output_is_sigpipe(monkeypatch, capsys) -> None:
    """Output written without rich (the lesson list) meets the closed pipe in the guard."""
    def closed(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")
    monkeypatch.setattr(cli.click, "echo", closed)
    runner = CliRunner()
    result = runner.invoke(cli.main, ["lessons"])
    assert result.exit_code == 141
    assert "internal error" not in result.output


@pytest.mark.parametrize("args", [["explain", "t[\udcff]"], ["compare", "t", "t[\udcff]"],
                                  ["export", "t[\udcff]", "-o", "x.svg"]])
def test_bytes_that_are_not_utf8_in_arguments_are_refused_in_one_line(args) -> None:
    """A shell passes undecodable bytes to Python as lone surrogates."""
    result = cli_run(*args)
    assert result.exit_code == 2
    assert "is not UTF-8 text" in result.output and "internal error" not in result.output


def test_printing_a_lone_surrogate_is_the_statements_own_error() -> None:
    result = cli_run("explain", "print('\\ud800')")
    assert result.exit_code == 1
    assert "UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800'" in result.output


@pytest.mark.parametrize("statement", ["y = torch.eye(2**62, 0)", "y = torch.zeros(2**62, 0)"])
def test_an_empty_tensor_with_a_huge_dim_is_shown(statement):
    """torch makes these (no elements, 2**62 rows); numpy cannot hold them, so tidx never
    asks it to: the shape and strides are shown, the values are not."""
    res = run("explain", statement, "--width", "120")
    assert res.exit_code == 0, res.output
    assert "[4611686018427387904, 0]" in res.output or "(4611686018427387904, 0)" in res.output
