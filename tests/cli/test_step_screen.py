"""``tidx step`` in a real 80x24 terminal (tmux), read from its screen: a step taller
than the terminal is paged under a heading that stays, and ``n`` on the last step
stays there with a note instead of ending the command (the next key used to land in
the shell).  Before tracer/render/step_screen.py a step of ``t[rows, cols] = 10``
printed its 50-odd lines into 24 and scrolled its heading away."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import UNDER_CI

ROOT = Path(__file__).resolve().parents[2]
HEAD = "step {n}/{total}  >>> t[rows, cols] = 10"


def _tmux() -> str:
    found = shutil.which("tmux")
    if found is None:
        if UNDER_CI:
            pytest.fail("tmux is required under CI")
        pytest.skip("tmux is not installed")
    return found


class Pane:
    """One tmux server of this test's own (its own socket), one 80x24 window running
    ``tidx step``; the window stays after the command ends, to read how it ended."""

    def __init__(self, tmp_path: Path, *args: str, lang: str = "en") -> None:
        self.tmux = [_tmux(), "-L", f"tidx-step-{os.getpid()}-{tmp_path.name}", "-f",
                     "/dev/null"]
        done = tmp_path / "done"
        command = " ".join([sys.executable, str(ROOT / "cli.py"), "step", *map(_quote, args),
                            "--lang", lang, f"; echo $? > {done}"])
        self.done = done
        subprocess.run([*self.tmux, "new-session", "-d", "-x", "80", "-y", "24", "-s", "t",
                        "-e", "NO_COLOR=1", "sh", "-c", command + "; sleep 60"], check=True,
                       cwd=ROOT)

    def screen(self) -> list[str]:
        out = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "t"], check=True,
                             capture_output=True, text=True).stdout
        return out.rstrip("\n").split("\n")

    def wait(self, predicate, what: str) -> list[str]:
        """The screen once ``predicate(lines)`` holds (polled: the command draws when
        it is ready, not after a fixed time)."""
        for _ in range(300):
            lines = self.screen()
            if predicate(lines):
                return lines
            time.sleep(0.1)
        raise AssertionError(f"never {what}:\n" + "\n".join(self.screen()))

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", "t", *keys], check=True)

    def exit_code(self) -> int | None:
        return int(self.done.read_text()) if self.done.exists() else None

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


@pytest.fixture
def pane(tmp_path):
    made: list[Pane] = []

    def start(*args: str, lang: str = "en") -> Pane:
        made.append(Pane(tmp_path, *args, lang=lang))
        return made[-1]

    yield start
    for p in made:
        p.close()


def _heading(n: int):
    """The screen of step ``n``, drawn whole (its last line is the status line)."""
    return lambda lines: lines[0].startswith(f"step {n}/") and len(lines) == 24


def test_a_tall_step_is_paged_under_its_heading_in_80x24(pane):
    p = pane("t[rows, cols] = 10")
    lines = p.wait(_heading(1), "showed step 1")
    total = int(lines[0].split("/")[1].split()[0])
    assert lines[0] == HEAD.format(n=1, total=total)
    seen: list[str] = []
    pages = 0
    while True:
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert lines[0] == HEAD.format(n=1, total=total)         # the heading stays
        assert lines[-2].startswith("n/space/enter: next")      # the keys too
        status = lines[-1]
        assert status.startswith("lines "), status
        seen += lines[1:-2]
        pages += 1
        if "shows more" not in status:
            break
        p.keys("n")
        first = status.split()[1]
        lines = p.wait(lambda ls, first=first: ls[0].startswith("step 1/") and
                       ls[-1].startswith("lines ") and ls[-1].split()[1:2] != [first],
                       "turned the page")
    assert pages >= 2
    # the pages hold the whole step, in order: what --width 80 prints without a terminal
    printed = subprocess.run([sys.executable, str(ROOT / "cli.py"), "step",
                              "t[rows, cols] = 10", "--width", "80"], cwd=ROOT,
                             env={**os.environ, "NO_COLOR": "1"}, capture_output=True,
                             text=True).stdout
    step1 = printed[:printed.index(f"step 2/{total}")].rstrip("\n").split("\n")[1:]
    # (the last page is filled to its height with empty lines: the keys stay at the bottom)
    while seen and not seen[-1].strip():
        seen.pop()
    assert [line.rstrip() for line in seen] == [line.rstrip() for line in step1]
    # the next page of the last page is the next step, from its first line
    p.keys("n")
    lines = p.wait(_heading(2), "went on to step 2")
    assert lines[1].startswith("  Tensor.__setitem__  >  THPVariable_setitem")
    p.keys("p")                  # back: step 1 from its top
    lines = p.wait(_heading(1), "went back to step 1")
    assert lines[1] == "  Tensor.__setitem__"


def test_n_on_the_last_step_stays_with_a_note_and_q_quits(pane):
    p = pane("t[rows, cols] = 10")
    lines = p.wait(_heading(1), "showed step 1")
    total = int(lines[0].split("/")[1].split()[0])
    p.keys("g", str(total), "Enter")
    lines = p.wait(_heading(total), f"jumped to step {total}")
    for _ in range(10):          # past every page of the last step, and on
        p.keys("n")
    lines = p.wait(lambda ls: ls[-1] == "this is the last step: p goes back, q quits",
                   "said it is the last step")
    # on the terminal's last line, under the keys, however short the step's last page
    assert lines[0] == HEAD.format(n=total, total=total) and len(lines) == 24
    assert lines[-2].startswith("n/space/enter: next")
    time.sleep(0.5)
    assert p.exit_code() is None                      # still there: no key reached a shell
    p.keys("q")
    for _ in range(100):
        if p.exit_code() is not None:
            break
        time.sleep(0.1)
    assert p.exit_code() == 0


def test_chinese_pages_fit_80_columns_too(pane):
    p = pane("t[rows, cols] = 10", lang="zh")
    lines = p.wait(lambda ls: len(ls) == 24 and ls[-1].startswith("这一步的第 1-"),
                   "showed step 1")
    # CJK characters are two columns wide: the keys and status lines are laid out in
    # columns, not characters, so the screen neither wraps nor scrolls the heading away
    assert lines[0].startswith("第 1/15 步  step 1/15  >>> t[rows, cols] = 10")
    assert lines[-2].startswith("n/空格/回车")


def test_keys_typed_at_once_are_each_taken(pane):
    """A terminal hands over every key typed since the last read at once ("nnn" from a
    quick hand or a clicker): each is a key, none is dropped."""
    p = pane("t[rows, cols] = 10")
    lines = p.wait(_heading(1), "showed step 1")
    pages = -(-int(lines[-1].split()[3]) // int(lines[-1].split()[1].split("-")[1]))
    p.keys("n" * pages)         # every page of step 1, then step 2
    lines = p.wait(_heading(2), "went on to step 2")
    assert lines[-1].startswith("lines 1-")
