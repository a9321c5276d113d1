"""The %%tidx magic and tracer.record() in a real Jupyter kernel (issue 28): a small
notebook executed by nbclient, its outputs counted as a notebook file keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import UNDER_CI

ROOT = Path(__file__).resolve().parents[2]


def _execute(cells: list[str]) -> list[list[dict]]:
    """Run ``cells`` in a fresh python3 kernel started in this checkout; each cell's
    outputs."""
    try:
        import nbclient
        import nbformat
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    except ImportError as exc:
        if UNDER_CI:
            pytest.fail(f"the notebook tests need nbclient, nbformat and ipykernel: {exc}")
        pytest.skip(str(exc))
    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        if UNDER_CI:
            pytest.fail("no python3 Jupyter kernel (pip install ipykernel)")
        pytest.skip("no python3 Jupyter kernel")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    # the kernel's working directory is this checkout, first on its sys.path: the
    # tidx it imports is the one under test
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(ROOT)}}).execute()
    return [cell.outputs for cell in nb.cells]


@pytest.fixture(scope="module")
def notebook():
    return _execute([
        "%load_ext tidx",
        "%%tidx --seed 0\nmine = torch.arange(6)",
        "%%tidx\nview = mine[1:]\nprint(view)",
        "%tidx mine[9]",
        "%tidx --width 80 --format tree view.sum()",
        "import engine, tracer\n"
        "with tracer.record() as tr:\n"
        "    t = engine.tensor([[1, 2, 3], [4, 5, 6]])\n"
        "    t[1:, ::2]\n"
        "tr",
        "import tidx, tracer\nprint(tidx.__file__, tracer.__file__)",
    ])


def test_the_kernel_runs_the_tidx_under_test(notebook):
    (out,) = notebook[6]
    assert out["text"].split() == [str(ROOT / "tidx.py"), str(ROOT / "tracer" / "__init__.py")]


def _shown(outputs: list[dict]) -> list[dict]:
    """The outputs a reader sees (not the kernel's stderr)."""
    return [o for o in outputs if not (o["output_type"] == "stream" and o["name"] == "stderr")]


def test_each_tidx_cell_shows_one_output(notebook):
    for outputs in notebook[1:4]:
        assert len(outputs) == 1, outputs
        (out,) = outputs
        assert out["output_type"] == "display_data"
        assert set(out["data"]) == {"text/html", "text/plain"}
        assert out["data"]["text/html"].count('<div class="tidx"') == 1


def test_names_carry_over_from_cell_to_cell(notebook):
    # the cell ran (no refusal of 'mine', which the cell before bound) and printed what
    # torch prints
    (second,) = notebook[2]
    assert ">>> view = mine[1:]" in second["data"]["text/plain"]
    assert "tensor([1, 2, 3, 4, 5])" in second["data"]["text/plain"]
    # and the line magic after it reads both
    assert "view.sum()" in notebook[4][0]["text"] and "tensor(15)" in notebook[4][0]["text"]


def test_a_pytorch_error_is_shown_once_in_the_cell(notebook):
    (out,) = notebook[3]
    text = out["data"]["text/plain"]
    assert "IndexError" in text and "index 9 is out of bounds for dimension 0 with size 6" \
        in text


def test_the_tree_format_prints_once(notebook):
    outputs = _shown(notebook[4])
    assert [o["output_type"] for o in outputs] == ["stream"]
    # the statement's line once (its result is called `view.sum()` in its steps too)
    assert outputs[0]["text"].count(">>> view.sum()") == 1


def test_a_recorded_trace_draws_once(notebook):
    outputs = notebook[5]
    assert len(outputs) == 1, outputs
    data = outputs[0]["data"]
    assert outputs[0]["output_type"] == "execute_result"
    assert "image/svg+xml" not in data
    assert data["text/html"].count("<svg") == 1 and "aten::slice" in data["text/html"]
