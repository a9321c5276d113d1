"""The HTML stepper in a real headless Chromium: keys move the step, the URL opens a
step, the storage picture changes where the statement writes, and the page asks the
network for nothing and logs no error.  Driven through the DevTools protocol
(tests/cdp.py says why not playwright)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cdp import Browser
from conftest import cli_run, require_chromium
from engine.interpreter import session
from tracer.render import stepper

pytestmark = pytest.mark.chromium


def _export(tmp_path: Path, statements: str, *options: str) -> Path:
    page = tmp_path / "lesson.html"
    res = cli_run("export", statements, "-o", str(page), *options)
    assert page.exists(), res.output
    return page


def _frames(statements: str, *, full: bool = False) -> list[dict]:
    """The steps the exported page walks through: the lecture view's unless --full."""
    return stepper.frames(session.run_document(statements), lecture=not full)


@pytest.fixture(scope="module")
def browser():
    with Browser(require_chromium()) as b:
        yield b


def _position(b: Browser) -> str:
    return b.js("document.getElementById('tidx-pos').textContent")


def _current_rows(b: Browser) -> list[str]:
    return b.js("Array.from(document.querySelectorAll('#tidx-list .current'))"
                ".map(e => e.getAttribute('data-step'))")


def _cell(b: Browser, offset: int) -> dict:
    return b.js(f"""(() => {{
        const c = document.querySelector('#tidx-pictures td.cell[data-offset="{offset}"]');
        return c && {{text: c.textContent, cls: c.className}};
    }})()""")


def test_arrow_keys_home_end_and_clicks_move_the_step(tmp_path, browser):
    page = _export(tmp_path, "t[1, 2] = 3")
    n = len(_frames("t[1, 2] = 3"))
    browser.open(page.as_uri())
    assert _position(browser) == f"1 / {n}"
    assert browser.js("location.hash") == "#step=1"
    assert _current_rows(browser) == ["0"]
    browser.press("ArrowRight")
    browser.press("ArrowRight")
    assert _position(browser) == f"3 / {n}" and browser.js("location.hash") == "#step=3"
    assert _current_rows(browser) == ["2"]
    browser.press("ArrowLeft")
    assert _position(browser) == f"2 / {n}"
    browser.press("End")
    assert _position(browser) == f"{n} / {n}"
    browser.press("ArrowRight")           # past the end: stays
    assert _position(browser) == f"{n} / {n}"
    assert browser.js("document.getElementById('tidx-next').disabled") is True
    browser.press("Home")
    browser.press("ArrowLeft")            # before the start: stays
    assert _position(browser) == f"1 / {n}"
    browser.press("PageDown")             # a presenter's clicker
    assert _position(browser) == f"2 / {n}"
    browser.js("document.querySelector('#tidx-list [data-step=\"7\"]').click()")
    assert _position(browser) == f"8 / {n}" and _current_rows(browser) == ["7"]
    browser.js("document.getElementById('tidx-prev').click()")
    assert _position(browser) == f"7 / {n}"


def test_the_url_opens_at_its_step_and_bad_fragments_fall_back(tmp_path, browser):
    page = _export(tmp_path, "t[1, 2] = 3")
    flat = _frames("t[1, 2] = 3")
    n = len(flat)
    browser.open(page.as_uri() + "#step=5")
    assert _position(browser) == f"5 / {n}"
    shown = browser.js("document.querySelector('#tidx-panel .now .name').textContent")
    assert shown == flat[4]["event"].name
    for fragment, expected in (("#step=0", 1), ("#step=99999", n), ("#step=abc", 1),
                               ("#whatever", 1), ("#step=-3", 1)):
        browser.open(page.as_uri() + fragment)
        assert _position(browser) == f"{expected} / {n}", fragment
        assert browser.js("location.hash") == f"#step={expected}", fragment
    # a fragment typed into the address bar of an open page moves it too
    browser.js("location.hash = '#step=9'")
    assert browser.js("new Promise(r => setTimeout(() => r(document.getElementById("
                      "'tidx-pos').textContent), 50))") == f"9 / {n}"


def test_the_storage_picture_changes_at_the_step_that_writes(tmp_path, browser):
    page = _export(tmp_path, "t[1, 2] = 3")
    names = [f["event"].name for f in _frames("t[1, 2] = 3")]
    copy = names.index("aten::copy_") + 1
    kernel = names.index("copy_kernel") + 1
    assert kernel > copy
    browser.open(page.as_uri() + "#step=1")
    assert _cell(browser, 5) == {"text": "6", "cls": "cell"}
    browser.open(page.as_uri() + f"#step={copy}")
    assert _cell(browser, 5) == {"text": "6", "cls": "cell"}      # copy_ has not written yet
    browser.press("End")
    browser.open(page.as_uri() + f"#step={kernel}")
    assert _cell(browser, 5) == {"text": "3", "cls": "cell written"}
    assert _cell(browser, 4) == {"text": "5", "cls": "cell"}       # its neighbour is untouched
    facts = browser.js("Array.from(document.querySelectorAll('#tidx-pictures p'))"
                       ".map(p => p.textContent)")
    assert "changed: offset 5: 6 -> 3" in facts
    assert "t[1, 2] → offset 0 + 1*3 + 2*1 = 5   holds 3" in facts
    # t's own grid, beside the storage row, shows the new value at [1, 2] too
    assert browser.js("document.querySelectorAll('#tidx-pictures .view-grid td.cell')[5]"
                      ".textContent") == "3"
    browser.press("ArrowLeft")                                     # and back again
    assert _cell(browser, 5)["text"] == "6"
    browser.press("ArrowRight")
    assert _cell(browser, 5)["text"] == "3"


def test_the_lecture_folds_steps_and_full_shows_every_one(tmp_path, browser):
    lecture, every = _frames("t[1, 2] = 3"), _frames("t[1, 2] = 3", full=True)
    assert len(lecture) < len(every)
    browser.open(_export(tmp_path, "t[1, 2] = 3").as_uri())
    assert _position(browser) == f"1 / {len(lecture)}"
    folded = next(k for k, f in enumerate(lecture) if f["folded"])
    browser.open(_export(tmp_path, "t[1, 2] = 3").as_uri() + f"#step={folded + 1}")
    assert f"+{lecture[folded]['folded']} steps the lesson is not about, folded" in \
        browser.js("document.querySelector('#tidx-panel').textContent")
    browser.open(_export(tmp_path, "t[1, 2] = 3", "--full").as_uri())
    assert _position(browser) == f"1 / {len(every)}"


def test_a_fresh_tensor_appears_when_it_is_allocated_and_filled(tmp_path, browser):
    page = _export(tmp_path, "x = torch.randn(2, 2)", "--seed", "0")
    flat = _frames("x = torch.randn(2, 2)")
    names = [f["event"].name for f in flat]
    browser.open(page.as_uri() + "#step=1")
    assert browser.js("document.querySelectorAll('#tidx-pictures figure').length") == 0
    browser.open(page.as_uri() + f"#step={names.index('StorageImpl') + 1}")
    assert _cell(browser, 0) == {"text": "·", "cls": "cell unset"}   # allocated, not written
    # normal_kernel says it wrote every element (issue #28): its step shows them written,
    # with the values normal_'s result recorded, as torch prints them
    kernel = names.index("normal_kernel") + 1
    browser.open(page.as_uri() + f"#step={kernel - 1}")
    assert _cell(browser, 0) == {"text": "·", "cls": "cell unset"}
    browser.open(page.as_uri() + f"#step={kernel}")
    assert _cell(browser, 0) == {"text": "1.5410", "cls": "cell written"}
    browser.press("ArrowRight")
    assert _cell(browser, 0) == {"text": "1.5410", "cls": "cell earlier"}


def test_no_request_leaves_the_page_and_no_error_is_logged(tmp_path, browser):
    browser.events.clear()
    page = _export(tmp_path, "y = t[1:, ::2]; y[0, 1] = 0; t[5]", "--lang", "zh")
    browser.open(page.as_uri() + "#step=3")
    for key in ("End", "ArrowLeft", "Home", "ArrowRight"):
        browser.press(key)
    # the failing statement's section carries PyTorch's message
    assert "IndexError: index 5 is out of bounds for dimension 0 with size 3" in \
        browser.js("document.getElementById('tidx-list').textContent")
    assert browser.requests() == [page.as_uri()]
    assert browser.console_errors() == []


def test_the_step_and_its_storage_fit_a_projector_screen(tmp_path, browser):
    page = _export(tmp_path, "t[rows, cols] = 10")
    browser.open(page.as_uri() + "#step=20")
    box = browser.js("""(() => {
        const r = e => document.querySelector(e).getBoundingClientRect();
        return {panel: r('#tidx-panel').bottom, pictures: r('#tidx-pictures').bottom,
                width: document.documentElement.scrollWidth, font: parseFloat(
                getComputedStyle(document.querySelector('#tidx-panel')).fontSize)};
    })()""")
    assert box["pictures"] < 1080 and box["width"] <= 1920
    assert box["font"] >= 20      # readable from the back of a room at 1920 pixels
    browser.screenshot(str(tmp_path / "step.png"))


@pytest.mark.parametrize("statements", ["y = torch.arange(64)", "x = torch.randn(3, 4)",
                                        "y = torch.arange(100).view(10, 10)[::3, 1:]"])
def test_no_picture_is_wider_than_its_column(tmp_path, browser, statements):
    page = _export(tmp_path, statements, "--seed", "0")
    browser.open(page.as_uri() + "#step=99999")      # the last step: everything drawn
    widths = browser.js("Array.from(document.querySelectorAll('#tidx-pictures figure'))"
                        ".map(f => [f.scrollWidth, f.clientWidth])")
    assert widths and all(scroll <= client for scroll, client in widths), widths
