"""The typed document (tracer/document.py): read back from JSON and written again, it is
the same JSON byte for byte, for the goldens' and seeds' statements and every lesson;
what is not a document of the documented shape is refused with the field that is not.
"""

from __future__ import annotations

import json
import warnings

import pytest

from engine.interpreter import lessons
from engine.interpreter.session import Session
from tracer import lecture
from tracer.document import Document, DocumentError, Event, Statement
from tracer.steps import Layer, Lecture

#: the goldens' statements (tests/golden), the seeds' (tests/test_render_storage.py,
#: tests/test_gdb_libtorch.py), an error, a caught error, the simulated GPU and a print
STATEMENTS = [
    "t[1, 2] = 3", "t[rows, cols] = 10", "y = t[1:, ::2]", "t[0, 5] = 1",
    "y = t[1:, ::2]; y[0, 1] = 0", "x = torch.randn(3, 4)", "a[index_0]",
    "m = torch.empty(2, 3, device='meta')",
    "c = torch.zeros(3, device='cuda'); c[1] = 2", "print(t.sum())", "t.max(0)",
    "t.masked_fill_(t > 4, -1)", "u = torch.empty(2)", "s = t.storage(); s.size()",
]


def _json(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1)


def _documents():
    for text in STATEMENTS:
        yield text, Session(seed=0).run(text)
    for lesson in lessons.available():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield lesson.name, Session(seed=0).run(lesson.text)


@pytest.fixture(scope="module")
def documents():
    out = []
    for name, doc in _documents():
        out.append((name, doc))
    return out


def test_every_document_reads_back_to_the_same_json(documents):
    for name, doc in documents:
        typed = Document.from_json(doc)
        assert _json(typed.to_json()) == _json(doc), name
        assert typed.statements and isinstance(typed.statements[0], Statement)


def test_the_lecture_view_reads_back_too(documents):
    """The lecture view's folded events (their ``folded`` and ``steps``) keep their shape."""
    for name, doc in documents:
        folded = lecture.fold(Document.from_json(doc)).to_json()
        assert _json(Document.from_json(folded).to_json()) == _json(folded), name


def test_fields_are_typed_and_frozen(documents):
    doc = Document.from_json(dict(documents)["t[0, 5] = 1"])
    st = doc.statements[-1]
    assert st.error is not None and st.error.type == "IndexError"
    first = st.events[0]
    assert isinstance(first, Event) and isinstance(first.layer, Layer)
    assert isinstance(first.lecture, Lecture) and isinstance(first.children, tuple)
    with pytest.raises(AttributeError):
        first.name = "other"   # type: ignore[misc]
    assert doc.run is not None and doc.run.cpu is not None


def test_an_older_format_2_document_reads_with_the_documented_defaults():
    """docs/trace-format.md, "Fields added within format 2": a missing note_id is null,
    libtorch unmapped, lecture shown, names and names_more {}."""
    old = {"tidx": "0.0.9", "format": 2, "statements": [
        {"source": "t[1, 2] = 3", "error": None, "bindings": {},
         "events": [{"name": "applySelect", "layer": "indexing", "op": None,
                     "source": None, "args": {}, "result": None, "note": "drop dim 0",
                     "error": None, "children": []}],
         "comment": None, "defaults": {}, "result": None, "printed": [], "written": ["t"],
         "shares_storage_with": {}, "allocated": {"bytes": 8, "blocks": 1}}],
        "allocated": {"bytes": 8, "blocks": 1}, "seed": None}
    doc = Document.from_json(old)
    ev = doc.statements[0].events[0]
    assert ev.note_id is None and ev.libtorch.why == "unmapped"
    assert ev.lecture is Lecture.SHOWN
    assert doc.statements[0].session is not None
    assert doc.statements[0].session.names == {}
    assert doc.run is not None and doc.run.cpu is None


@pytest.mark.parametrize("edit, where", [
    (lambda d: d.update(format=1), "format 1"),
    (lambda d: d.update(format="2"), "format: expected 2, found '2'"),
    (lambda d: d.pop("statements"), "missing 'statements'"),
    (lambda d: d["statements"][0]["events"][0].update(layer="gpu"),
     "statements[0].events[0].layer: expected one of python, binding"),
    (lambda d: d["statements"][0]["events"][0]["children"][0].update(name=3),
     "statements[0].events[0].children[0].name: expected a string, found 3"),
    (lambda d: d["statements"][0]["events"][0].update(args={"x": 3}),
     "statements[0].events[0].args.x: expected a typed value"),
    (lambda d: d["statements"][0].update(error={"type": "IndexError"}),
     "statements[0].error: missing 'message'"),
    (lambda d: d["statements"][0]["allocated"].update(bytes=True),
     "statements[0].allocated.bytes: expected an integer, found True"),
    (lambda d: d.update(statements={}), "statements: expected a list, found {}"),
])
def test_a_hand_edited_document_is_refused_naming_the_field(documents, edit, where):
    doc = json.loads(json.dumps(dict(documents)["t[1, 2] = 3"]))
    edit(doc)
    with pytest.raises(DocumentError, match=None) as raised:
        Document.from_json(doc)
    assert where in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("value", [None, [], "x", 3])
def test_what_is_not_an_object_is_refused(value):
    with pytest.raises(DocumentError, match="the document: expected an object"):
        Document.from_json(value)


# -- tidx render: a saved document drawn later ------------------------------------------------
@pytest.mark.parametrize("view", [[], ["--format", "json"], ["--format", "mermaid"],
                                  ["--full"], ["--format", "gdb"], ["--ops"]])
def test_render_draws_a_saved_document_as_explain_drew_the_run(tmp_path, view):
    from conftest import cli_run

    saved = cli_run("explain", "y = t[1:, ::2]; y[0, 1] = 0", "--format", "json")
    assert saved.exit_code == 0
    path = tmp_path / "trace.json"
    path.write_text(saved.output, encoding="utf-8")
    drawn = cli_run("render", str(path), *view)
    assert drawn.exit_code == 0, drawn.output
    assert drawn.output == cli_run("explain", "y = t[1:, ::2]; y[0, 1] = 0", *view).output


def test_render_of_a_document_whose_statement_raised_exits_1(tmp_path):
    from conftest import cli_run

    path = tmp_path / "trace.json"
    # (the command line's output holds the error line too: the document itself)
    path.write_text(json.dumps(Session(seed=0).run("t[0, 5] = 1")))
    drawn = cli_run("render", str(path))
    assert drawn.exit_code == 1
    assert "raised IndexError: index 5 is out of bounds" in drawn.output


@pytest.mark.parametrize("text, said", [
    ("{", "is not JSON: line 1 column 2"),
    ("[]", "the document: expected an object, found []"),
    ('{"tidx": "0.1.0", "format": 2, "statements": [{"source": 3, "events": []}]}',
     "statements[0].source: expected a string, found 3"),
    ('{"tidx": "0.1.0", "format": 2, "statements": [{"source": null, "events": [{"name": '
     '"aten::select", "layer": "dispatcher", "args": {"route": {"kind": "list", "items": '
     '[{"kind": "int", "value": 2}]}}}]}]}',
     "statements[0].events[0].args.route: expected a list of str values"),
    ('{"tidx": "0.1.0", "format": 2, "statements": [{"source": null, "events": [{"name": '
     '"x", "layer": "kernel", "result": {"kind": "tensor", "label": "t"}}]}]}',
     "statements[0].events[0].result: a tensor value without 'storage'"),
    ("[" * 100_000, "nests its JSON too deeply"),
    ('{"tidx": "0.1.0", "format": 2, "statements": [{"source": null, "events": [{"name": '
     '"x", "layer": "kernel", "result": {"kind": "storage", "label": "s$0", "nbytes": 8, '
     '"device": "cpu", "dtype": "torch.int64"}}]}]}',
     "statements[0].events[0].result: a TypedStorage's storage value without 'elements'"),
])
def test_render_refuses_what_is_no_document_in_one_line(tmp_path, text, said):
    from conftest import cli_run

    path = tmp_path / "edited.json"
    path.write_text(text, encoding="utf-8")
    drawn = cli_run("render", str(path))
    assert drawn.exit_code == 2, drawn.output
    assert drawn.output.count("\n") == 1 and drawn.output.startswith("tidx: ")
    assert said in drawn.output


def test_render_refuses_bytes_that_are_not_utf8(tmp_path):
    from conftest import cli_run

    path = tmp_path / "edited.json"
    path.write_bytes(b'{"tidx": "\xff"}')
    drawn = cli_run("render", str(path))
    assert drawn.exit_code == 2 and "is not UTF-8 text" in drawn.output


def test_the_recorded_document_is_the_documented_json_byte_for_byte():
    """tests/golden/document_seeds.json was written by the code before the typed document
    (the recorder's dicts): the typed document writes the same bytes (the machine's
    ``cpu`` left out)."""
    from pathlib import Path

    golden = Path(__file__).parents[1] / "golden" / "document_seeds.json"
    doc = Session(seed=0)
    made = doc.run("y = t[1:, ::2]; y[0, 1] = 0\nt[0, 5] = 1")
    typed = doc.record()
    assert isinstance(typed, Document)
    assert typed.to_json() == made
    made.pop("cpu")
    assert json.dumps(made, indent=1, ensure_ascii=False) + "\n" == golden.read_text("utf-8")
