"""One numbering of a document's steps (tracer/numbering.py), read from outside in every
view that says "step N": ``tidx step``'s pages, the exported HTML stepper in a real
headless Chromium, the GIF's frames and their captions, the gdb file's comments.

Before it, ``t[rows, cols] = 10`` had 15 steps in ``tidx step`` and the GIF, 22 in the
HTML stepper (it paged through folded runs) and the gdb file's "step N" matched only
``tidx step --full``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import cli_run, require_chromium

#: a seed's statement with folded runs; a lesson of statements, one without steps
#: (``t.stride()``) and one that raises
CASES = ["t[rows, cols] = 10",
         "y = t[1:, ::2]; y[0, 1] = 0; t.stride(); x = torch.randn(2, 2); t[5]"]

STEP_HEAD = re.compile(r"^step (\d+)/(\d+)  >>> ", re.M)


def _step_pages(statements: str, full: bool) -> list[tuple[int, int, str | None, int]]:
    """``tidx step``'s pages, printed without a terminal: (number, total, the step's
    name or None, the steps folded on its line)."""
    res = cli_run("step", statements, "--width", "1000", "--seed", "0",
                  *(["--full"] if full else []))
    assert res.exit_code in (0, 1), res.output
    out = []
    heads = list(STEP_HEAD.finditer(res.output))
    assert heads, res.output
    for head in heads:
        where = res.output[head.end():].split("\n")[1]
        found = re.match(r"^  (?:.*  >  )?(.+?)(?: \(\+(\d+) steps?\))?$", where)
        name, folded = (found.group(1), int(found.group(2) or 0)) if found else (None, 0)
        out.append((int(head.group(1)), int(head.group(2)), name, folded))
    return out


def _gif(tmp_path: Path, statements: str, full: bool) -> list[str]:
    from PIL import Image

    path = tmp_path / "steps.gif"
    res = cli_run("export", statements, "-o", str(path), "--seed", "0",
                  *(["--full"] if full else []))
    assert path.exists(), res.output
    with Image.open(path) as im:
        comments = []
        for k in range(im.n_frames):
            im.seek(k)
            comments.append(im.info["comment"].decode())
    return comments


def _gdb(statements: str, full: bool) -> str:
    res = cli_run("explain", statements, "--format", "gdb", "--seed", "0",
                  *(["--full"] if full else []))
    assert res.exit_code in (0, 1), res.output
    return res.output


@pytest.fixture(scope="module")
def browser():
    from cdp import Browser

    with Browser(require_chromium()) as b:
        yield b


@pytest.mark.chromium
@pytest.mark.parametrize("full", [False, True], ids=["lecture", "full"])
@pytest.mark.parametrize("statements", CASES)
def test_step_n_is_one_step_in_tidx_step_html_gif_and_gdb(tmp_path, browser, statements,
                                                          full):
    pages = _step_pages(statements, full)
    total = len(pages)
    assert [p[0] for p in pages] == list(range(1, total + 1))
    assert {p[1] for p in pages} == {total}
    names = {n: name for n, _, name, _ in pages}
    if not full and statements == CASES[0]:
        assert total == 15 and sum(1 + p[3] for p in pages) == 48   # 33 steps folded
    if full:
        assert not any(p[3] for p in pages)

    # the HTML stepper: its counter, its steps (templates) and the list's numbered lines
    page = tmp_path / "lesson.html"
    res = cli_run("export", statements, "-o", str(page), "--seed", "0",
                  *(["--full"] if full else []))
    assert page.exists(), res.output
    browser.open(page.as_uri())
    assert browser.js("document.getElementById('tidx-pos').textContent") == f"1 / {total}"
    shown = browser.js("Array.from(document.querySelectorAll('template.tidx-frame'))"
                       ".map(t => { const e = t.content.querySelector('.now .name');"
                       " return e && e.textContent; })")
    assert shown == [names[n] for n in range(1, total + 1)]
    folded = browser.js("Array.from(document.querySelectorAll('template.tidx-frame'))"
                        ".map(t => { const e = t.content.querySelector('.folded');"
                        " return e ? parseInt(e.textContent.match(/\\+(\\d+)/)[1]) : 0; })")
    assert folded == [p[3] for p in pages]
    listed = browser.js("Array.from(document.querySelectorAll('#tidx-list [data-step]'))"
                        ".map(e => parseInt(e.getAttribute('data-step')))")
    assert listed == list(range(total))
    browser.open(page.as_uri() + f"#step={total}")
    assert browser.js("document.getElementById('tidx-pos').textContent") == \
        f"{total} / {total}"

    # the GIF: one frame per step, each captioned with its number and name
    assert _gif(tmp_path, statements, full) == [
        f"step {n} / {total}" + (f": {names[n]}" if names[n] else "")
        for n in range(1, total + 1)]

    # the gdb file: every "step N" it names is tidx step's step N (or folded on its line)
    text = _gdb(statements, full)
    labelled = re.findall(r"^#(?: |   )step (\d+)(, folded)?: (.+?)(?: -- .*)?$", text, re.M)
    assert labelled
    for n, folded_mark, name in labelled:
        assert 1 <= int(n) <= total, (n, name)
        if not folded_mark:
            assert names[int(n)] == name, (n, name)
    assert bool(any(f for _, f, _ in labelled)) == (not full)
    gdb_steps = {int(n) for n, f, _ in labelled if not f}
    # every numbered step of a function libtorch has is in the file under its number
    assert gdb_steps <= set(names) and len(gdb_steps) > total // 2
