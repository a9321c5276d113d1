"""The terminal is a format too: a lesson's printed text, its source and PyTorch's
messages quoting it are shown as data, their control characters (ESC, which drives the
terminal: colours, a window title, a cleared screen) and bidirectional overrides as
their Python escapes (tracer/render/console.py), in every command that prints."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LESSON = ('print("\\x1b[31mRED\\x1b]0;title\\x07 \\u202eevil")\n'
          'x = torch.zeros(2)  # \x1b[2J\n'
          'x["\\x1b[1m"]\n')


def _tidx(*args: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args, "-f", str(path)],
                          capture_output=True, text=True, cwd=str(ROOT),
                          env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})


@pytest.mark.parametrize("command", [["explain"], ["explain", "--full"], ["step"],
                                     ["explain", "--verify"]])
def test_control_characters_reach_the_terminal_as_escapes(tmp_path, command):
    path = tmp_path / "lesson.py"
    path.write_text(LESSON, encoding="utf-8")
    res = _tidx(*command, path=path)
    assert res.returncode == 1, res.stderr          # x["..."] raises torch's IndexError
    for stream in (res.stdout, res.stderr):
        assert "\x1b" not in stream and "\u202e" not in stream, repr(stream[:400])
    assert "\\x1b[31mRED" in res.stdout and "\\u202eevil" in res.stdout
    assert res.stderr.startswith("tidx: ") and "IndexError" in res.stderr
