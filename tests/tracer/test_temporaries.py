"""Internal temporaries appear only where the lecture shows the step that made them
(issue #28): index_put_'s restriding of t (``t$1 = [1, 1]``, strides (0,)) was hidden
by the terminal but drawn by the images, the HTML stepper and ``compare``."""

from __future__ import annotations

import pytest

from conftest import cli_run, require_dot

STATEMENT = "t[rows, cols] = 10"


@pytest.mark.parametrize("suffix", ["html", "svg"])
def test_exports_draw_no_stride_0_restriding(tmp_path, suffix):
    if suffix == "svg":
        require_dot()
    out = tmp_path / f"lesson.{suffix}"
    res = cli_run("export", STATEMENT, "-o", str(out), "--seed", "0")
    assert res.exit_code == 0, res.output
    # an SVG is slide pages (lesson-1.svg, lesson-2.svg ...) since --aspect 16:9
    pages = [out] if out.exists() else sorted(tmp_path.glob(f"lesson-*.{suffix}"))
    assert pages
    text = "".join(p.read_text(encoding="utf-8") for p in pages)
    assert "storage s$0" in text            # t's storage is drawn ...
    assert "strides (0,)" not in text       # ... without the kernel's stride-0 view


def test_compare_draws_no_stride_0_restriding():
    res = cli_run("compare", STATEMENT, "t[1, 1] = 10", "--width", "100", "--seed", "0")
    assert res.exit_code == 0, res.output
    assert "strides (0,)" not in res.output
