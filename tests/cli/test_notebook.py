"""A trace shows itself in notebooks (SVG/HTML) and rich consoles."""

from __future__ import annotations


from rich.console import Console

import engine
from engine.interpreter import session
from tracer import record
from tracer.render.notebook import TraceView

# goldens must not depend on which test seeded the engine's generator first


def test_a_document_view_has_svg_html_and_rich_forms():
    view = TraceView(session.run_document("t[1, 2] = 3"))
    assert "<svg" in view.svg()
    html = view._repr_mimebundle_()["text/html"]
    assert html.startswith('<div class="tidx">') and html.count("<svg") == 1
    console = Console(width=120, record=True, file=open("/dev/null", "w"))
    console.print(view)
    assert "THPVariable_setitem" in console.export_text()


def test_a_recorded_trace_draws_itself():
    with record() as trace:
        t = engine.tensor([[1, 2, 3], [4, 5, 6]])
        t[1:, ::2]
    assert "aten::slice" in trace.view().svg()
    bundle = trace._repr_mimebundle_()
    # one drawing: the HTML view holds the diagram, no SVG copy beside it
    assert set(bundle) == {"text/html", "text/plain"}
    assert bundle["text/html"].count("<svg") == 1 and "aten::slice" in bundle["text/html"]
    assert "applySlice" in bundle["text/plain"]
    console = Console(width=120, record=True, file=open("/dev/null", "w"))
    console.print(trace)
    assert "applySlice" in console.export_text()


def test_without_any_graphviz_the_html_view_still_lists_the_steps(monkeypatch):
    from tracer.render import export

    def unavailable(graph, fmt):
        raise export.ExportError("no graphviz")
    monkeypatch.setattr(export, "render_image", unavailable)
    view = TraceView(session.run_document("t[1, 2] = 3"))
    assert view.svg() is None
    assert "THPVariable_setitem" in view._repr_html_()


# -- the %%tidx magic, through IPython's own test helpers ----------------------------------
import re  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(scope="module")
def ip():
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython()
    shell.run_line_magic("load_ext", "tidx")
    return shell


def _magic(ip, line: str, cell: str | None = None):
    """What the magic published: (outputs' data, stdout, stderr)."""
    from IPython.utils.capture import capture_output

    with capture_output() as captured:
        if cell is None:
            ip.run_line_magic("tidx", line)
        else:
            ip.run_cell_magic("tidx", line, cell)
    return [o.data for o in captured.outputs], captured.stdout, captured.stderr


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_line_magic_shows_the_lecture_view_and_the_storage_picture(ip):
    (data,), out, err = _magic(ip, "t[rows, cols] = 10")
    assert err == "" and out == ""
    html = data["text/html"]
    assert html.startswith('<div class="tidx">') and "<script" not in html
    text = _text(html)
    # the steps the seeds teach, the rest folded and counted
    assert "recordTensorIndex" in text and "aten::index_put_" in text and "more steps:" in text
    assert "check_size_nonnegative" not in text
    # the storage picture: the elements the kernel wrote, with their new value
    written = re.findall(r'<td class="cell written" data-offset="(\d+)">(\d+)</td>', html)
    assert written == [("1", "10"), ("7", "10")]
    # and a terminal IPython reads the tree
    assert "THPVariable_setitem" in data["text/plain"]


def test_cell_magic_takes_the_cli_options(ip):
    # (--new: a fresh session, whose storages are numbered from s$0)
    (data,), _, err = _magic(ip, "--new --seed 0 --full", "x = torch.randn(3, 4)\ny = x[0]")
    assert err == ""
    text = _text(data["text/html"])
    assert "check_size_nonnegative" in text          # --full: every step
    assert "storage s$0: 12 x f32 (48 bytes)" in text
    assert "1.541" in text                           # torch.manual_seed(0)'s first normal
    (lecture,), _, _ = _magic(ip, "", "t[rows, cols] = 10")
    (full,), _, _ = _magic(ip, "--full", "t[rows, cols] = 10")
    steps = [page["text/html"].count('<div class="step">') for page in (lecture, full)]
    assert steps[0] < steps[1] and "more steps:" in lecture["text/html"]
    (zh,), _, _ = _magic(ip, "--new --lang zh --layers python,dispatcher", "t[1, 2] = 3")
    text = _text(zh["text/html"])
    assert "存储 s$0" in text and "aten::copy_" in text and "applySelect" not in text


def test_a_pytorch_error_shows_its_message_without_a_traceback(ip):
    (data,), out, err = _magic(ip, "", "y = t[1:]\nt[5]")
    text = _text(data["text/html"])
    assert "IndexError: index 5 is out of bounds for dimension 0 with size 3" in text
    assert "Traceback" not in out + err + text


@pytest.mark.parametrize("line, message", [
    ("--bogus t[1]", "tidx: No such option '--bogus'"),
    ("--depth x t[1]", "tidx: Invalid value for '--depth'"),
    ("--layers nothing t[1]", "tidx: Invalid value for --layers"),
    ("", "tidx: no statements to run"),
    (f"--seed {2**70} torch.rand(2)", f"tidx: Invalid value for '--seed': {2**70} is not a "
                                      "seed torch.manual_seed takes"),
    ("--format tree --width 0 t[1]", "tidx: Invalid value for '--width': 0 is not in the range"),
    ("import os; os.system('true')", "tidx: "),
    ("t[1]; x = '\udcff'", "tidx: the statements are not UTF-8 text"),
])
def test_bad_options_and_refused_input_are_one_line(ip, line, message):
    outputs, out, err = _magic(ip, line)
    assert outputs == [] and out == ""
    assert err.startswith(message) and err.count("\n") == 1, err


def test_other_formats_print(ip):
    _, out, _ = _magic(ip, "--format json", "t[1, 2] = 3")
    assert '"source": "t[1, 2] = 3"' in out
    _, out, _ = _magic(ip, "--format tree --full t[1, 2] = 3")
    assert "check_size_nonnegative" in out
    _, out, _ = _magic(ip, "--help")
    assert out.startswith("Usage: %tidx [OPTIONS]")


def test_statements_keep_their_spelling_after_the_options():
    import tidx

    assert tidx.split_line("--seed 0 torch.zeros(2, 3, device='meta')") == (
        ["--seed", "0"], "torch.zeros(2, 3, device='meta')")
    assert tidx.split_line("  t[rows,  cols] = 10") == ([], "t[rows,  cols] = 10")


# -- one Session across cells, as Python cells share one kernel -----------------------------

def test_cells_share_one_session_and_new_starts_another(ip):
    _magic(ip, "--new --seed 0", "carried = torch.arange(4)")
    (data,), _, err = _magic(ip, "", "print(carried[1:])")
    assert err == "" and "tensor([1, 2, 3])" in data["text/plain"]
    # a refused cell runs nothing and leaves the session as it was
    _, _, err = _magic(ip, "", "carried = 1\nimport os")
    assert err.startswith("tidx: ") and err.count("\n") == 1
    (data,), _, err = _magic(ip, "", "print(carried)")
    assert "tensor([0, 1, 2, 3])" in data["text/plain"]
    # --new forgets it, as a restarted kernel would
    _, _, err = _magic(ip, "--new", "print(carried)")
    assert err.startswith("tidx: ") and "carried" in err


def test_a_cell_cannot_switch_the_session_s_cpu_capability(ip):
    _magic(ip, "--new --cpu-capability default", "t[1, 2] = 3")
    outputs, _, err = _magic(ip, "--cpu-capability avx512", "t[1, 2] = 3")
    assert outputs == [] and err.count("\n") == 1
    assert "new session" in err
    (data,), _, err = _magic(ip, "--new --cpu-capability avx512", "t[1, 2] = 3")
    assert err == ""
