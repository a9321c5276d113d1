"""Set-up papercuts of issue 28: a built-in lesson exported by name, the help where it is
asked for and one line elsewhere, stdin read without click's deprecated stream helper,
click's major version pinned."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import click
import pytest

from conftest import ROOT, cli_run


@pytest.mark.parametrize("suffix", ["html", "json", "md"])
def test_a_lesson_is_exported_by_name_as_its_file_would_be(tmp_path, suffix):
    by_name, by_file = tmp_path / f"by_name.{suffix}", tmp_path / f"by_file.{suffix}"
    res = cli_run("lesson", "seed_001_indexing", "--seed", "0", "-o", str(by_name))
    assert res.exit_code == 0, res.output
    assert res.output == f"tidx: wrote {by_name} ({ {'md': 'markdown'}.get(suffix, suffix)})\n"
    res = cli_run("export", "-f", str(ROOT / "samples" / "seed_001_indexing.py"), "--seed", "0",
                  "-o", str(by_file))
    assert res.exit_code == 0, res.output
    assert by_name.read_bytes() == by_file.read_bytes()


def test_a_lesson_takes_exports_options(tmp_path):
    out = tmp_path / "lesson.txt"
    res = cli_run("lesson", "seed_001_indexing", "--seed", "0", "--format", "mermaid",
                  "--ops", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith("sequenceDiagram")


def test_a_lesson_takes_every_option_export_takes():
    import cli

    def opts(command):
        return {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
    missing = opts(cli.main.commands["export"]) - opts(cli.main.commands["lesson"])
    assert missing == {"-f", "--file"}       # the statements: the lesson's own


def test_a_lesson_s_memory_budget_is_the_one_given(tmp_path):
    res = cli_run("lesson", "seed_002_randn", "--max-bytes", "16", "--seed", "0",
                  "-o", str(tmp_path / "x.json"))
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "memory limit of 16 B" in res.output and not (tmp_path / "x.json").exists()


def test_a_file_format_without_a_file_is_one_line():
    res = cli_run("lesson", "seed_001_indexing", "--format", "svg")
    assert res.exit_code == 2
    assert res.output.startswith("tidx: --format svg writes a file") and \
        res.output.count("\n") == 1


def test_export_without_output_is_one_line():
    res = cli_run("export", "t[1]")
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith("tidx: Missing option '-o' / '--output'.")


def test_tidx_alone_prints_its_help_not_an_escaped_line():
    res = subprocess.run([sys.executable, str(ROOT / "cli.py")], capture_output=True,
                         text=True, cwd=ROOT)
    shown = res.stdout + res.stderr
    assert "\\n" not in shown and shown.count("\n") > 5
    assert "Commands:" in shown and "explain" in shown
    assert res.returncode in (0, 2)       # click's own code for a group without a command


def test_help_is_click_s_help():
    res = cli_run("lesson", "-h")
    assert res.exit_code == 0 and res.output.startswith("Usage: ")
    assert "-o, --output FILE" in res.output


def test_statements_from_stdin_need_no_deprecated_click_helper(monkeypatch):
    # click.get_text_stream is gone from click 9's API: tidx reads '-' without it.  Any
    # use of it fails here (click 8.2+ serves it through a module __getattr__ with a
    # deprecation warning, which delattr cannot remove: it is shadowed instead)
    def gone(*args, **kwargs):
        raise AssertionError("tidx used click.get_text_stream")
    monkeypatch.setattr(click, "get_text_stream", gone, raising=False)
    from click.testing import CliRunner

    import cli
    res = CliRunner().invoke(cli.main, ["explain", "-", "--format", "json"],
                             input="t[1, 2] = 3\n", env={"NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    assert '"source": "t[1, 2] = 3"' in res.output


def test_click_s_next_major_version_is_kept_out():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (click_pin,) = [d for d in project["dependencies"] if d.startswith("click")]
    assert "<9" in click_pin
