"""The HTML stepper on the screens a class has: 1024x768 and 1280x800 projectors, a
1366x768 laptop, a 1920x1080 screen, in a real headless Chromium.  Nothing scrolls
sideways (the page, or a storage picture inside it), every storage row is whole
inside its column, and the first storage row is above the fold.  Before, the storage
row was cut at 1366x768 and 1280x800 (its picture scrolled inside its column) and
at 1024x768 the pictures were stacked under the step, below the fold."""

from __future__ import annotations

from pathlib import Path

import pytest

from cdp import Browser
from conftest import cli_run, require_chromium
from engine.interpreter import session
from tracer.render import stepper

pytestmark = pytest.mark.chromium

SCREENS = [(1024, 768), (1280, 800), (1366, 768), (1920, 1080)]
#: a seed's 3x3 storage; a 64-element storage of wide numbers (rows of few cells);
#: 16 floats of randn, read through a transposed view
LESSONS = ["t[rows, cols] = 10",
           "y = torch.arange(64).view(8, 8); y[1:, ::3] = -1000000",
           "x = torch.randn(4, 4); z = x.t()[1]"]

MEASURE = """(() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; };
  const figures = Array.from(document.querySelectorAll('#tidx-pictures figure.storage'));
  return {page: document.documentElement.scrollWidth, width: innerWidth, height: innerHeight,
          figures: figures.map(f => ({scroll: f.scrollWidth, client: f.clientWidth,
                                      box: box(f),
                                      rows: Array.from(f.querySelectorAll(':scope > table.grid'))
                                                 .map(box)}))};
})()"""


def _export(tmp_path: Path, statements: str) -> tuple[Path, int]:
    page = tmp_path / "lesson.html"
    res = cli_run("export", statements, "-o", str(page), "--seed", "0")
    assert page.exists(), res.output
    flat = stepper.frames(session.run_document(statements, seed=0), lecture=True)
    # the steps that draw a storage (the last one of each statement at least)
    drawn = [k + 1 for k, f in enumerate(flat) if f["pictures"]]
    return page, drawn


@pytest.mark.parametrize("width,height", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_storage_rows_fit_every_screen_and_the_first_is_above_the_fold(tmp_path, width,
                                                                        height):
    with Browser(require_chromium(), width, height) as browser:
        for statements in LESSONS:
            page, drawn = _export(tmp_path, statements)
            assert drawn, statements
            for step in sorted({drawn[0], drawn[len(drawn) // 2], drawn[-1]}):
                browser.open(page.as_uri() + f"#step={step}")
                m = browser.js(MEASURE)
                where = f"{statements!r} step {step} at {width}x{height}"
                assert m["width"] == width and m["height"] == height
                assert m["page"] <= width, where               # no sideways scroll
                assert m["figures"], where
                for fig in m["figures"]:
                    assert fig["scroll"] <= fig["client"], where   # nor inside a picture
                    for left, _top, right, _bottom in fig["rows"]:
                        assert fig["box"][0] <= left and right <= fig["box"][2] + 0.5, where
                first = m["figures"][0]["rows"][0]
                assert first[3] <= height, f"{where}: the storage row ends at {first[3]}"
