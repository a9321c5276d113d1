"""Notes are ids: the engine names each step's note by a literal id (with parameters),
every id it uses is in every language's table and every table entry is used; the
recorder stores the English, the id and plain parameters."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from tracer.document import Event
from tracer.steps import Layer, StepSpec
from tracer import Note, i18n, record, span
from tracer.notes import is_id, plain
from tracer.recorder import emit

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = i18n.tables()["en"]
#: Where ids are used: the engine's notes, the renderers' and the command line's labels (and
#: i18n's layer titles); each TOPIC table (en_operators.py ...) is a table, not a use.
SOURCES = [p for p in sorted((ROOT / "engine").rglob("*.py"))] + \
    [p for p in sorted((ROOT / "tracer").rglob("*.py"))
     if not re.fullmatch(r"tracer/i18n/(en|zh)(_\w+)?\.py", p.relative_to(ROOT).as_posix())] + \
    [ROOT / "cli.py"]   # the command line's own labels (tidx step's prompts)


def _trees() -> dict[str, ast.AST]:
    return {p.relative_to(ROOT).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in SOURCES}


TREES = _trees()


def _strings(tree: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)]


def _used_ids(tree: ast.AST) -> set[str]:
    """The ids a module uses: its string literals that are ids of the tables."""
    return {s for s in _strings(tree) if s in ENGLISH}


def _ids_passed(path: str, tree: ast.AST) -> set[str]:
    """Literals that must be ids: the notes the engine passes (ids or typos), and the
    renderers' ``ui.*`` labels and the defaults' ``origin.*`` wherever they are written."""
    found = {s for s in _strings(tree) if is_id(s) and s.startswith(("ui.", "origin."))}
    if path.startswith("engine/"):
        found |= {v.value for p in _note_positions(tree) for v in _note_values(p)
                  if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return found


def _note_positions(tree: ast.AST) -> list[ast.AST]:
    """What is passed as a note: ``note=...`` (and a declaration's ``python_note=...``),
    ``s.note(...)``, ``Note(...)``'s id."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        # python_note=: a declaration's note of its Python step
        found += [kw.value for kw in node.keywords if kw.arg in ("note", "python_note")]
        if isinstance(node.func, ast.Attribute) and node.func.attr == "note" and node.args:
            found.append(node.args[0])
        if isinstance(node.func, ast.Name) and node.func.id == "Note" and node.args:
            found.append(node.args[0])
    return found


def _note_values(node: ast.AST) -> list[ast.AST]:
    """The expressions a note position can evaluate to: both branches of a conditional,
    a lambda's body, a ``Note(...)``'s id; a literal or an f-string is a leaf."""
    if isinstance(node, ast.IfExp):
        return _note_values(node.body) + _note_values(node.orelse)
    if isinstance(node, ast.Lambda):
        return _note_values(node.body)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Note":
        return _note_values(node.args[0]) if node.args else []
    if isinstance(node, (ast.Constant, ast.JoinedStr)):
        return [node]
    return []  # a name: a variable holding an id (its literal is checked where it is written)


# -- the source and the tables ------------------------------------------------------------
def test_every_id_the_source_uses_is_in_every_language():
    used = set().union(*(_ids_passed(path, tree) for path, tree in TREES.items()))
    assert len(used) > 150
    for lang, table in i18n.tables().items():
        missing = sorted(used - set(table))
        assert not missing, (lang, missing)


def test_every_note_the_engine_passes_is_a_literal_id_of_the_tables():
    """No sentence, no f-string, no typo: a literal id each language's table holds."""
    wrong = []
    for path, tree in TREES.items():
        if not path.startswith("engine/"):
            continue
        for position in _note_positions(tree):
            for value in _note_values(position):
                if not (isinstance(value, ast.Constant) and value.value in ENGLISH):
                    wrong.append(f"{path}:{value.lineno}: {ast.unparse(value)}")
    assert not wrong, "\n".join(wrong)


def test_no_table_entry_is_dead():
    """Every id is used, literally, somewhere in the source."""
    used = set().union(*(_used_ids(tree) for tree in TREES.values()))
    dead = sorted(set(ENGLISH) - used)
    assert not dead, dead


def test_every_note_call_passes_exactly_the_fields_of_its_template():
    wrong = []
    for path, tree in TREES.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Note" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                continue
            id = node.args[0].value
            given = {kw.arg for kw in node.keywords}
            fields = {f for _, f, _, _ in string.Formatter().parse(ENGLISH[id]) if f}
            if given != fields:
                wrong.append(f"{path}:{node.lineno}: {id} {sorted(given)} != {sorted(fields)}")
    assert not wrong, "\n".join(wrong)


def test_ids_are_short_and_dotted():
    for id in ENGLISH:
        assert is_id(id) and len(id) <= 48, id


# -- the value type -------------------------------------------------------------------------
def test_note_is_an_immutable_value():
    n = Note("select.geometry", dim=0, index=1, stride=3, moved=3)
    assert n == Note("select.geometry", dim=0, index=1, stride=3, moved=3)
    assert n != Note("select.geometry", dim=1, index=1, stride=3, moved=3)
    assert repr(Note("indexing.applySelect")) == "Note('indexing.applySelect')"
    with pytest.raises(AttributeError):
        n.id = "x"  # type: ignore[misc]


def test_parameters_become_plain_json_that_formats_the_same():
    class Dtype:
        def __str__(self) -> str:
            return "torch.int64"
    args = {"shape": (3, 3), "dtype": Dtype(), "v": float("inf"), "n": 2**70, "b": False}
    assert plain(args) == {"shape": [3, 3], "dtype": "torch.int64", "v": "inf", "n": 2**70,
                           "b": False}
    assert json.loads(json.dumps(plain(args))) == plain(args)


# -- the recorder ---------------------------------------------------------------------------
def _events(tr) -> list[dict]:
    return tr.to_dict()["statements"][0]["events"]


def test_the_recorder_stores_english_id_and_parameters():
    with record() as tr:
        with span(StepSpec("select geometry", Layer.KERNEL),
                  note=Note("select.geometry", dim=0, index=1, stride=3, moved=3)):
            pass
        with span(StepSpec("applySelect", Layer.INDEXING), note="indexing.applySelect"):
            pass
        emit(StepSpec("no note", Layer.KERNEL))
    geometry, select, bare = _events(tr)
    assert geometry["note"] == "drop dim 0; the offset moves 1 x stride 3 = 3 elements"
    assert geometry["note_id"] == "select.geometry"
    assert geometry["note_args"] == {"dim": 0, "index": 1, "stride": 3, "moved": 3}
    assert (select["note"], select["note_id"], select["note_args"]) == \
        ("an integer removes the dim: check bounds, then select", "indexing.applySelect", {})
    assert (bare["note"], bare["note_id"], bare["note_args"]) == (None, None, None)
    keys = list(geometry)
    assert keys[keys.index("note"):keys.index("note") + 3] == ["note", "note_id", "note_args"]


def test_a_lambda_note_is_built_only_while_recording():
    calls = []

    def build() -> Note:
        calls.append(1)
        return Note("transpose.geometry", dim0=0, dim1=1)
    with span(StepSpec("x", Layer.KERNEL), note=lambda: build()):
        pass
    assert calls == []
    with record() as tr:
        with span(StepSpec("x", Layer.KERNEL), note=lambda: build()):
            pass
    assert calls == [1]
    assert _events(tr)[0]["note"] == "swap dims 0 and 1: their sizes and strides trade places"


def test_a_step_can_change_its_note():
    with record() as tr:
        with span(StepSpec("applySlice", Layer.INDEXING), note="indexing.applySlice") as s:
            s.note("indexing.applySlice.whole")
    assert _events(tr)[0]["note_id"] == "indexing.applySlice.whole"


def test_a_saved_trace_renders_the_note_it_recorded():
    with record() as tr:
        emit(StepSpec("x", Layer.KERNEL),
             note=Note("copy.cast", src="torch.int64", dst="torch.float32"))
        emit(StepSpec("y", Layer.KERNEL),
             note=Note("pointwise.TensorIterator", shape=(3, 3), dtype="x"))
    for ev in json.loads(json.dumps(tr.to_dict()))["statements"][0]["events"]:
        assert ev["note"] == i18n.text(ev["note_id"], "en", **ev["note_args"])
        assert i18n.note(Event.from_json(ev), "zh") != ev["note"]
