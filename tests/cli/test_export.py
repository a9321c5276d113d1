"""Exports: formats from suffixes, rendering with and without the dot program,
atomic writes."""

from __future__ import annotations

import os

import pytest

from conftest import require_dot
from engine.interpreter import session
from tracer.render import export

# goldens must not depend on which test seeded the engine's generator first


@pytest.fixture(scope="module")
def doc():
    return session.run_document("t[rows, cols] = 10")


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    """A PATH without Graphviz's programs, as on a fresh machine after pip install."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


@pytest.mark.parametrize("name, fmt", [("a.svg", "svg"), ("a.PNG", "png"), ("a.pdf", "pdf"),
                                       ("a.dot", "dot"), ("a.gv", "dot"), ("a.mmd", "mermaid"),
                                       ("a.md", "markdown"), ("a.json", "json"),
                                       ("a.html", "html")])
def test_the_suffix_picks_the_format(name, fmt):
    assert export.format_for(name) == fmt


def test_an_unknown_suffix_needs_format():
    with pytest.raises(export.ExportError, match="--format"):
        export.format_for("trace.txt")
    assert export.format_for("trace.txt", "json") == "json"


@pytest.mark.parametrize("fmt, start", [("dot", b"// tidx"), ("mermaid", b"sequenceDiagram"),
                                        ("markdown", b"# tidx"), ("json", b'{\n  "tidx"')])
def test_text_formats_need_no_graphviz_binary(doc, no_dot, fmt, start):
    assert export.content(doc, fmt).startswith(start)


def test_svg_renders_in_process_without_the_dot_program(doc, no_dot, tmp_path):
    out = tmp_path / "t.svg"
    export.export(doc, str(out))
    svg = out.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "aten::index_put_" in svg and "TensorIndexing" in svg


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_png_and_pdf_without_dot_say_what_to_install_and_write_nothing(doc, no_dot, tmp_path,
                                                                      suffix):
    out = tmp_path / f"t{suffix}"
    with pytest.raises(export.ExportError) as err:
        export.export(doc, str(out))
    message = str(err.value)
    assert "\n" not in message and "apt-get install graphviz" in message
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "empty-bin"]


def test_a_failed_export_keeps_the_old_file_whole(doc, no_dot, tmp_path):
    out = tmp_path / "t.png"
    out.write_bytes(b"old picture")
    with pytest.raises(export.ExportError):
        export.export(doc, str(out))
    assert out.read_bytes() == b"old picture"


def test_write_atomic_replaces_and_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "x.json"
    out.write_text("old")
    export.write_atomic(out, b"new")
    assert out.read_bytes() == b"new" and os.listdir(tmp_path) == ["x.json"]
    assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_write_atomic_refuses_missing_directories_and_directories(tmp_path):
    with pytest.raises(export.ExportError, match="does not exist"):
        export.write_atomic(tmp_path / "missing" / "x.svg", b"x")
    with pytest.raises(export.ExportError, match="is a directory"):
        export.write_atomic(tmp_path, b"x")


def test_write_atomic_cleans_up_when_interrupted(tmp_path, monkeypatch):
    def boom(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        export.write_atomic(tmp_path / "x.svg", b"data")
    assert os.listdir(tmp_path) == []


@pytest.mark.dot
@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"),
                                           (".svg", b"<?xml")])
def test_dot_renders_every_image_format(doc, tmp_path, suffix, magic):
    require_dot()
    out = tmp_path / f"t{suffix}"
    export.export(doc, str(out))
    assert out.read_bytes().startswith(magic)


@pytest.mark.dot
def test_dot_renders_a_200_step_trace(tmp_path):
    require_dot()
    big = session.run_document("; ".join(["t[rows, cols] = 10", "t[1, 2] = 3", "y = t[1:, ::2]",
                                 "b[idx_0, idx_1]", "torch.randn(3, 4)"] * 2), seed=0)
    from tracer.document import walk
    assert sum(1 for st in big.statements for _ in walk(st.events)) >= 200
    # one image of the whole document (what the HTML page and the notebook show) ...
    assert len(export.content(big, "svg")) > 100_000
    # ... and the export: one file per statement, each whole
    written = export.export(big, str(tmp_path / "big.svg"))
    assert written.paths == [str(tmp_path / f"big-{k}.svg") for k in range(1, 11)]
    assert all((tmp_path / f"big-{k}.svg").read_bytes().startswith(b"<?xml")
               for k in range(1, 11))


@pytest.mark.dot
def test_a_long_program_is_drawn_not_silently_dropped(tmp_path):
    """Graphviz ignores a file whose first line is longer than 16384 bytes (it exits 0
    having drawn nothing): the comment naming the statements is kept short."""
    require_dot()
    doc = session.run_document("; ".join([f"t[{i % 3}, 1] = {i}" for i in range(300)]),
                               seed=0)
    source = export.content(doc, "dot").decode()
    first = source.splitlines()[0]
    assert first.startswith("// tidx sequence diagram: t[0, 1] = 0; ")
    assert first.endswith("... (300 statements)") and len(first) < 2100
    assert export.content(doc, "svg").startswith(b"<?xml")


@pytest.mark.parametrize("failure, words", [
    (BrokenPipeError(32, "Broken pipe"), "stopped reading"),   # dot died mid-input
    (None, "drew nothing"),                                      # dot exited 0, no output
])
def test_graphviz_failing_silently_is_one_line_and_no_file(doc, tmp_path, monkeypatch,
                                                           failure, words):
    import graphviz

    def pipe(*args, **kwargs):
        if failure is not None:
            raise failure
        return b""
    monkeypatch.setattr(graphviz, "pipe", pipe)
    out = tmp_path / "t.svg"
    with pytest.raises(export.ExportError) as err:
        export.export(doc, str(out))
    assert words in str(err.value) and "\n" not in str(err.value)
    assert list(tmp_path.iterdir()) == []
