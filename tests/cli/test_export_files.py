"""What ``tidx export -o`` may touch (issue 24): standard output with ``-o -``; a link,
a directory, a FIFO, a socket or a device refused in one line and left as it was; a
replaced file keeping its mode; and a set of files written whole or not at all, even
when a rename fails half-way or the process is sent SIGTERM or SIGINT while writing.
Each is checked from outside: the command's exit code and output, and the directory
afterwards."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, cli_run, require_dot
from tracer.render import export
from tracer.render import files as writes

CLI = str(ROOT / "cli.py")
THREE = "t[1, 2] = 3; y = t[1:]; t[0] = 5"       # three statements: three SVG files


def tidx(*args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    """The command line in a process of its own, as a shell runs it."""
    return subprocess.run([sys.executable, CLI, *args], cwd=cwd,
                          stdout=kwargs.pop("stdout", subprocess.PIPE), stderr=subprocess.PIPE,
                          timeout=300, env={**os.environ, "NO_COLOR": "1"}, **kwargs)


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# -- standard output -----------------------------------------------------------------

def test_dash_writes_the_export_to_standard_output(tmp_path):
    res = tidx("export", "t[1, 2] = 3", "-o", "-", "--format", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    ran = json.loads(res.stdout)
    assert ran["statements"][0]["source"] == "t[1, 2] = 3"
    # /dev/stdout is standard output too (not a file to replace), for any user
    res = tidx("export", "t[1, 2] = 3", "-o", "/dev/stdout", "--format", "mermaid",
               cwd=tmp_path)
    assert res.returncode == 0 and res.stdout.startswith(b"sequenceDiagram"), res.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.dot
def test_a_binary_format_goes_to_standard_output_only_when_it_is_not_a_terminal(tmp_path):
    require_dot()
    res = tidx("export", "t[1, 2] = 3", "-o", "-", "--format", "png", "--aspect", "free",
               cwd=tmp_path)
    assert res.returncode == 0 and res.stdout.startswith(b"\x89PNG"), res.stderr
    main, terminal = pty.openpty()
    try:
        res = tidx("export", "t[1, 2] = 3", "-o", "-", "--format", "png", "--aspect", "free",
                   cwd=tmp_path,
                   stdout=terminal)
    finally:
        os.close(terminal)
        os.close(main)
    assert res.returncode == 2
    assert "binary" in _one_line(res.stderr.decode()) and os.listdir(tmp_path) == []


def test_several_files_to_standard_output_are_refused_before_drawing(tmp_path):
    res = tidx("export", THREE, "-o", "-", "--format", "svg", cwd=tmp_path)
    assert res.returncode == 2 and res.stdout == b""
    assert "3 files" in _one_line(res.stderr.decode())


# -- targets that are not regular files ------------------------------------------------

def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    s.close()


def _device(path: Path) -> None:
    try:                 # /dev/null's numbers, made here: the test never touches /dev
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs CAP_MKNOD")


@pytest.mark.parametrize("make, kind, what", [
    (_fifo, stat.S_ISFIFO, "FIFO"), (_socket, stat.S_ISSOCK, "socket"),
    (_device, stat.S_ISCHR, "device"), (os.mkdir, stat.S_ISDIR, "directory")])
def test_a_target_that_is_no_regular_file_is_refused_and_left_alone(tmp_path, make, kind,
                                                                    what):
    target = tmp_path / "out.json"
    make(target)
    res = cli_run("export", "t[1, 2] = 3", "-o", str(target))
    assert res.exit_code == 2 and what in _one_line(res.output), res.output
    assert kind(os.lstat(target).st_mode) and os.listdir(tmp_path) == ["out.json"]


def test_a_member_of_a_set_that_is_a_directory_stops_the_whole_set(tmp_path):
    for k in (1, 3):
        (tmp_path / f"out-{k}.svg").write_text(f"old {k}")
    (tmp_path / "out-2.svg").mkdir()
    res = cli_run("export", THREE, "-o", str(tmp_path / "out.svg"))
    assert res.exit_code == 2 and "directory" in _one_line(res.output)
    assert sorted(os.listdir(tmp_path)) == ["out-1.svg", "out-2.svg", "out-3.svg"]
    assert [(tmp_path / f"out-{k}.svg").read_text() for k in (1, 3)] == ["old 1", "old 3"]


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symbolic_link_is_refused_not_followed_nor_replaced(tmp_path, dangling):
    real = tmp_path / "real.json"
    if not dangling:
        real.write_text("kept")
    link = tmp_path / "out.json"
    link.symlink_to(real.name)
    res = cli_run("export", "t[1, 2] = 3", "-o", str(link))
    assert res.exit_code == 2 and "symbolic link" in _one_line(res.output)
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert sorted(os.listdir(tmp_path)) == (["out.json"] if dangling else
                                            ["out.json", "real.json"])
    assert dangling or real.read_text() == "kept"


def test_a_missing_or_unwritable_directory_is_one_line_naming_it(tmp_path):
    res = cli_run("export", "t[1, 2] = 3", "-o", str(tmp_path / "missing" / "x.json"))
    assert res.exit_code == 2
    assert f"its directory '{tmp_path / 'missing'}' does not exist" in _one_line(res.output)
    if os.geteuid() == 0:    # root writes anywhere a file may be made: not in /proc
        res = cli_run("export", "t[1, 2] = 3", "-o", "/proc/tidx-export-test.json")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        res = cli_run("export", "t[1, 2] = 3", "-o", str(locked / "x.json"))
    assert res.exit_code == 2 and _one_line(res.output).startswith("tidx: cannot write")


@pytest.mark.parametrize("mode", [0o640, 0o600, 0o755])
def test_a_replaced_file_keeps_its_mode(tmp_path, mode):
    out = tmp_path / "out.json"
    out.write_text("old")
    out.chmod(mode)
    res = cli_run("export", "t[1, 2] = 3", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert json.loads(out.read_text())["statements"] and stat.S_IMODE(out.stat().st_mode) == mode
    assert os.listdir(tmp_path) == ["out.json"]


# -- a set of files: all or none -------------------------------------------------------

def test_a_rename_failing_half_way_puts_every_old_file_back(tmp_path, monkeypatch):
    """The second of three renames fails: the first file is put back as it was, the
    third (a new file) is not left, and nothing temporary stays."""
    for k in (1, 2):
        (tmp_path / f"out-{k}.svg").write_text(f"old {k}")
    real = os.replace
    done = []

    def replace(src, dst):
        if Path(src).name.endswith(".tmp") and len(done) == 1:
            done.append("failed")
            raise OSError(28, "No space left on device")
        real(src, dst)
        done.append(dst)
    monkeypatch.setattr(writes.os, "replace", replace)
    files = [(tmp_path / f"out-{k}.svg", f"new {k}".encode()) for k in (1, 2, 3)]
    with pytest.raises(export.ExportError) as err:
        export.write_all(files)
    assert "No space left on device" in str(err.value) and "\n" not in str(err.value)
    assert sorted(os.listdir(tmp_path)) == ["out-1.svg", "out-2.svg"]
    assert [(tmp_path / f"out-{k}.svg").read_text() for k in (1, 2)] == ["old 1", "old 2"]


def test_an_interrupt_while_committing_puts_the_old_files_back(tmp_path, monkeypatch):
    """A KeyboardInterrupt raised between renames (not from a signal, which is held)
    rolls back too: the set stays all old."""
    for k in (1, 2, 3):
        (tmp_path / f"out-{k}.svg").write_text(f"old {k}")
    real = os.replace
    done = []

    def replace(src, dst):
        real(src, dst)
        done.append(dst)
        if len(done) == 2:      # the second file is in place; the third is not
            raise KeyboardInterrupt
    monkeypatch.setattr(writes.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        export.write_all([(tmp_path / f"out-{k}.svg", b"new") for k in (1, 2, 3)])
    assert sorted(os.listdir(tmp_path)) == ["out-1.svg", "out-2.svg", "out-3.svg"]
    assert [(tmp_path / f"out-{k}.svg").read_text() for k in (1, 2, 3)] == \
        ["old 1", "old 2", "old 3"]


#: Runs the CLI with a pause at one point of writing the files: it prints READY and
#: waits for a line on stdin (the test sends its signal in between).
PAUSED = """
import os, sys
sys.path.insert(0, {root!r})
import cli
point, paused = sys.argv[1], []
real_replace, real_fsync = os.replace, os.fsync

def pause():
    if not paused:
        paused.append(1)
        print("READY", flush=True)
        sys.stdin.readline()

def replace(src, dst):
    real_replace(src, dst)
    if point == "commit" and os.path.basename(dst).startswith("out-"):
        pause()

def fsync(fd):
    real_fsync(fd)
    if point == "stage":
        pause()

from tracer.render import export
real_content = export.render_images

def content(*args, **kwargs):
    if point == "render":
        pause()
    return real_content(*args, **kwargs)

os.replace, os.fsync, export.render_images = replace, fsync, content
sys.argv = ["tidx"] + sys.argv[2:]
cli.main()
"""


@pytest.mark.dot
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("point", ["render", "stage", "commit"])
def test_a_signal_while_writing_leaves_all_old_or_all_new_and_no_temporary(tmp_path, sig,
                                                                           point):
    require_dot()
    for k in (1, 2, 3):
        (tmp_path / f"out-{k}.svg").write_text(f"old {k}")
    proc = subprocess.Popen(
        [sys.executable, "-c", PAUSED.format(root=str(ROOT)), point, "export", THREE,
         "-o", str(tmp_path / "out.svg"), "--aspect", "free"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline() == b"READY\n", proc.stderr.read()
        proc.send_signal(sig)
        with contextlib.suppress(BrokenPipeError):    # (rendering, it ends at once)
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
        proc.wait(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert sorted(os.listdir(tmp_path)) == ["out-1.svg", "out-2.svg", "out-3.svg"]
    contents = {(tmp_path / f"out-{k}.svg").read_bytes()[:5] for k in (1, 2, 3)}
    assert contents == {b"<?xml"} or all(c.startswith(b"old") for c in contents), contents
    # the signal still does what it does once the files are whole
    assert proc.returncode in (-sig, 128 + sig), proc.returncode  # SIGINT: 130
