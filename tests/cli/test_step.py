"""tidx step: one step at a time, in a real terminal (pexpect gives it a pty)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
from conftest import cli_run, require_torch
from engine.interpreter import session
from tracer.render import step as render_step

ROOT = Path(__file__).resolve().parents[2]


def test_steps_flatten_every_event_in_call_order():
    doc = session.run_document("t[1, 2] = 3")
    flat = render_step.steps(doc)
    names = [item["event"].name for item in flat]
    assert names[0] == "Tensor.__setitem__"
    assert names.index("applySelect") < names.index("aten::copy_")
    assert flat[names.index("aten::copy_")]["path"][-1] == "copy_to"


def test_without_a_terminal_every_step_is_printed():
    res = CliRunner().invoke(cli.main, ["step", "t[rows, cols] = 10", "--width", "120",
                                          "--full"], env={"NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    count = res.output.count("step ")
    assert "step 1/" in res.output and f"/{len(render_step.steps(session.run_document('t[rows, cols] = 10')))}" in res.output
    assert count >= 40
    # the kernel step draws t's storage with the two written elements marked
    last = res.output[res.output.rindex("cpu_index_put_kernel"):]
    assert "storage s$" in last and "W" in last


def test_keys_move_forward_back_and_quit_in_a_real_terminal():
    """(A terminal tall enough for every step: a taller step is paged first,
    tests/cli/test_step_screen.py.)"""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "step", "t[1, 2] = 3"],
                          cwd=str(ROOT), env={"NO_COLOR": "1", "COLUMNS": "120",
                                              "LINES": "200", "PATH": "/usr/bin:/bin"},
                          dimensions=(200, 120), timeout=30, encoding="utf-8")
    child.expect(r"step 1/(\d+)")
    total = int(child.match.group(1))
    child.send("n")
    child.expect("step 2/")
    child.send("n")
    child.expect("step 3/")
    child.send("p")
    child.expect("step 2/")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and total > 10


# -- exit codes: as explain's ----------------------------------------------------------


@pytest.mark.torch
def test_a_pytorch_error_is_pytorchs_at_the_step_that_raised_and_exits_1():
    torch = require_torch()
    with pytest.raises(IndexError) as raised:
        torch.zeros(2)[5]
    message = f"IndexError: {raised.value}"
    assert message == "IndexError: index 5 is out of bounds for dimension 0 with size 2"

    res = cli_run("step", "torch.zeros(2)[5]", "--width", "120", "--full")
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output and "internal error" not in res.output
    # the last step drawn is the one that raised (applySelect's bounds check) ...
    last = res.output[res.output.rindex("step "):]
    assert last.startswith(f"step {len(render_step.steps(session.run_document('torch.zeros(2)[5]')))}/")
    assert "applySelect" in last and f"raised {message}" in last
    # ... and the command ends as explain does, with torch's class and message
    # (with the line explaining it in the statement's terms under it)
    assert res.output.rstrip().splitlines()[-2:] == [
        f"tidx: 'torch.zeros(2)[5]' raised {message}",
        "→ torch.zeros(2) has size 2 in dimension 0, so an index there must be between -2 "
        "and 1; 5 is not."]


def test_an_error_the_program_catches_is_no_failure():
    res = cli_run("step", "try:\n    t[5]\nexcept IndexError as e:\n    print(e)")
    assert res.exit_code == 0, res.output
    assert "index 5 is out of bounds for dimension 0 with size 3" in res.output


def test_an_internal_error_while_drawing_a_step_is_one_line_exit_3(monkeypatch):
    """A renderer that breaks is tidx's bug: one line saying so, exit 3, no traceback,
    and never reported as a PyTorch error."""
    def broken(*args, **kwargs):
        raise KeyError("storage")

    monkeypatch.setattr(render_step, "render", broken)
    res = cli_run("step", "t[1, 2] = 3")
    assert res.exit_code == 3
    assert res.output.strip().splitlines() == [
        "tidx: internal error (a bug in tidx, please report it with the command that caused "
        "it): KeyError: 'storage'"]


def test_an_internal_error_midway_ends_with_one_line_exit_3(monkeypatch):
    """The storage picture breaks only once index_put_ restrided t (a view with a
    stride 0, drawn lazily, while printing): the steps before are printed whole, then
    the one line.  (Step 1 already draws the elements the statement writes: their
    state before and after it.)"""
    from tracer.render import storage as RS

    draw = RS.StoragePicture.__rich_console__

    def broken(self, console, options):
        if any(0 in v["strides"] for v in self.p["views"]):
            raise ValueError("cannot draw")
        yield from draw(self, console, options)

    monkeypatch.setattr(RS.StoragePicture, "__rich_console__", broken)
    res = cli_run("step", "t[rows, cols] = 10", "--width", "120", "--full")
    assert res.exit_code == 3, res.output
    assert "Traceback" not in res.output and "step 1/" in res.output
    assert res.output.strip().splitlines()[-1] == (
        "tidx: internal error (a bug in tidx, please report it with the command that caused "
        "it): ValueError: cannot draw")


@pytest.mark.parametrize("key", ["\x04", "\x03"], ids=["ctrl-d", "ctrl-c"])
def test_ctrl_d_and_ctrl_c_quit_like_q(key):
    """click.getchar raises EOFError for Ctrl-D and KeyboardInterrupt for Ctrl-C: the user
    quitting, not tidx's bug (exit 3) nor a PyTorch error (click's Aborted!, exit 1)."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "step", "t[1, 2] = 3"],
                          cwd=str(ROOT), env={"NO_COLOR": "1", "COLUMNS": "120",
                                              "LINES": "40", "PATH": "/usr/bin:/bin"},
                          dimensions=(40, 120), timeout=30, encoding="utf-8")
    child.expect(r"step 1/")
    child.send(key)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "internal error" not in child.before and "Aborted" not in child.before


def test_quitting_a_statement_that_raised_still_exits_1():
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "step", "t[5]"],
                          cwd=str(ROOT), env={"NO_COLOR": "1", "COLUMNS": "120",
                                              "LINES": "40", "PATH": "/usr/bin:/bin"},
                          dimensions=(40, 120), timeout=30, encoding="utf-8")
    child.expect(r"step 1/")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "raised IndexError: index 5 is out of bounds for dimension 0 with size 3" in \
        child.before


# -- for a class: the state at each step, filters, a jump ---------------------------------


def _steps_of(output: str) -> list[str]:
    """The printed steps, each from its ``step K/N`` line to the next."""
    import re

    starts = [m.start() for m in re.finditer(r"(?m)^step \d+/\d+", output)]
    return [output[a:b] for a, b in zip(starts, starts[1:] + [len(output)])]


def _name(step: str, part: int = 2) -> str:
    """The step's name (``part=1``: its layer), from its label line: layer, then name."""
    import re

    return re.search(r"(?m)^(python|binding|indexing|dispatcher|kernel|memory|rng)\s+(\S+)",
                     step).group(part)


def test_each_step_shows_the_storage_as_it_is_then_before_and_after():
    res = cli_run("step", "t[1, 2] = 3", "--width", "100")
    assert res.exit_code == 0, res.output
    printed = _steps_of(res.output)
    copy = next(s for s in printed if _name(s) == "aten::copy_")
    before, after = copy.split("after this step:")
    assert "before this step:" in before
    assert "│   6 │   7 │" in before and "│   3 │   7 │" in after
    assert "changed: offset 5: 6 -> 3" in after
    # no step before the write shows the written value
    first_write = printed.index(next(s for s in printed if "changed: offset 5" in s))
    for s in printed[1:first_write]:
        assert "│   3 │   7 │" not in s
    # step 1 draws t as it is when the statement starts, then after the whole statement
    assert "│   6 │   7 │" in printed[0].split("after this step:")[0]


def test_only_seed_keeps_the_taught_steps_and_the_outcome():
    every = _steps_of(cli_run("step", "t[rows, cols] = 10", "--width", "100",
                              "--full").output)
    res = cli_run("step", "t[rows, cols] = 10", "--width", "100", "--only", "seed")
    # the lecture view's steps are the default, as explain's tree
    assert _steps_of(cli_run("step", "t[rows, cols] = 10", "--width", "100").output) == \
        _steps_of(res.output)
    assert res.exit_code == 0, res.output
    taught = _steps_of(res.output)
    assert 5 < len(taught) < len(every)
    names = [_name(s) for s in taught]
    for name in ("recordTensorIndex", "aten::index_put_", "cpu_index_put_kernel"):
        assert name in names, names
    assert "check_size_nonnegative" not in names
    assert taught[-1].rstrip().endswith("[ 7, 10,  9]])")      # t after the statement


def test_layers_and_ops_keep_those_steps_in_call_order():
    res = cli_run("step", "t[1, 2] = 3", "--layers", "dispatcher,kernel", "--width", "100")
    assert res.exit_code == 0, res.output
    layers = {_name(s, 1) for s in _steps_of(res.output)}
    assert layers == {"dispatcher", "kernel"}
    ops = _steps_of(cli_run("step", "t[1, 2] = 3", "--ops", "--width", "100").output)
    assert [_name(s) for s in ops] == [
        "aten::lift_fresh", "aten::select", "aten::as_strided", "aten::select",
        "aten::as_strided", "aten::copy_"]
    bad = cli_run("step", "t[1, 2] = 3", "--layers", "nope")
    assert bad.exit_code == 2 and "unknown layer 'nope'" in bad.output


def test_jump_opens_at_step_n():
    total = len(render_step.steps(session.run_document("t[1, 2] = 3")))
    res = cli_run("step", "t[1, 2] = 3", "--jump", "30", "--width", "100", "--full")
    assert res.exit_code == 0, res.output
    printed = _steps_of(res.output)
    assert printed[0].startswith(f"step 30/{total}") and len(printed) == total - 29
    assert cli_run("step", "t[1, 2] = 3", "--start", "2", "--full").output.startswith(
        f"step 2/{total}")
    far = cli_run("step", "t[1, 2] = 3", "--jump", str(total + 1), "--full")
    assert far.exit_code == 2
    assert f"there is no step {total + 1}: the steps are 1 to {total}" in far.output


@pytest.mark.torch
def test_a_filtered_walk_still_ends_on_pytorchs_error_and_exits_1():
    torch = require_torch()
    with pytest.raises(IndexError) as raised:
        torch.zeros(2)[5]
    res = cli_run("step", "torch.zeros(2)[5]", "--only", "seed", "--width", "120")
    assert res.exit_code == 1, res.output
    last = _steps_of(res.output)[-1]
    assert "applySelect" in last and f"raised IndexError: {raised.value}" in last
    # (the line explaining it in the statement's terms under it)
    assert res.output.rstrip().splitlines()[-2:] == [
        f"tidx: 'torch.zeros(2)[5]' raised IndexError: {raised.value}",
        "→ torch.zeros(2) has size 2 in dimension 0, so an index there must be between -2 "
        "and 1; 5 is not."]


def test_g_and_a_number_jump_in_a_real_terminal():
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "step", "t[1, 2] = 3",
                                           "--only", "seed"],
                          cwd=str(ROOT), env={"NO_COLOR": "1", "COLUMNS": "120",
                                              "LINES": "60", "PATH": "/usr/bin:/bin"},
                          dimensions=(60, 120), timeout=30, encoding="utf-8")
    child.expect(r"step 1/(\d+)")
    total = int(child.match.group(1))
    child.send("g")
    child.expect("step number: ")
    child.send("5\r")
    child.expect(f"step 5/{total}")
    child.send("g")
    child.expect("step number: ")
    child.send("99\r")
    child.expect(f"step 5/{total}")
    child.expect(f"there is no step 99: the steps are 1 to {total}")
    child.send("n")
    child.expect(f"step 6/{total}")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_statement_the_filters_empty_says_so():
    res = cli_run("step", "t[1, 2] = 3; n = 3", "--layers", "rng")
    assert res.exit_code == 0, res.output
    printed = _steps_of(res.output)
    assert len(printed) == 2
    assert "(no step of this statement matches these filters)" in printed[0]
    assert "(no steps recorded for this statement)" in printed[1]


def test_jump_opens_the_terminal_walk_at_step_n():
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [str(ROOT / "cli.py"), "step", "t[1, 2] = 3",
                                           "--jump", "3"],
                          cwd=str(ROOT), env={"NO_COLOR": "1", "COLUMNS": "120",
                                              "LINES": "60", "PATH": "/usr/bin:/bin"},
                          dimensions=(60, 120), timeout=30, encoding="utf-8")
    child.expect(r"step 3/\d+")
    child.send("p")
    child.expect(r"step 2/\d+")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_only_seed_walks_the_steps_the_lecture_view_shows():
    """--only seed and the lecture view (tracer.lecture) show the same steps, in order."""
    from tracer import lecture as L
    from tracer.document import walk

    for source in ("t[rows, cols] = 10", "x = torch.randn(3, 4)", "torch.zeros(2)[5]"):
        doc = session.run_document(source, seed=0)
        lectured = [ev.name for st in L.fold(doc).statements
                    for _, ev in walk(st.events) if not L.is_folded(ev)]
        walked = [item["event"].name for item in render_step.only(doc, "seed")]
        assert walked == lectured


def test_a_lesson_walked_step_by_step_takes_the_filters_too():
    res = cli_run("lesson", "seed_002_randn", "--step", "--layers", "rng", "--width", "100")
    assert res.exit_code == 0, res.output
    printed = _steps_of(res.output)
    names = [_name(s) for s in printed if "no step" not in s]
    assert names[:3] == ["CPUGeneratorImpl::set_current_seed", "CPUGeneratorImpl",
                         "normal_kernel"]
    # then how normal_kernel's first element came from mt19937's words
    assert "first" in names[3:] and "mt19937" in names[3:]
    assert {_name(s, 1) for s in printed if "no step" not in s} == {"rng"}
