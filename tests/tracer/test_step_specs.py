"""Step specs (tracer/steps.py): each traced step is declared once beside the engine code
that emits it, and what the lecture view shows and where gdb breaks come from the spec,
not from the step's name.  Renaming a step renames it and changes nothing else the user
sees; no table in tracer/ is keyed by step names."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

from conftest import cli_run

import engine  # noqa: F401 - every engine module declares its steps on import
from engine.binding import python_indexing
from engine.memory import empty
from engine.interpreter import lessons as L
from engine.interpreter import session
from tracer import steps
from tracer import i18n
from tracer.events import walk

ROOT = Path(__file__).resolve().parents[2]

# Steps whose name the tracer used to match: one the lecture hides (and gdb breaks on), one
# it shows on one line with its inside folded, one whose inside it shows once per document
RENAMED = [(python_indexing, "WRAP_TUPLE", "t[rows, cols] = 10"),
           (python_indexing, "VALUE_TO_TENSOR", "t[rows, cols] = 10"),
           (empty, "EMPTY_GENERIC", "a = torch.zeros(2, 3); b = torch.ones(4)")]


def _outputs(statement: str) -> dict[str, str]:
    """What the user sees of ``statement``: the lecture view, the gdb file, the JSON."""
    out = {}
    for key, args in {"lecture": [], "gdb": ["--format", "gdb"],
                      "json": ["--format", "json"]}.items():
        res = cli_run("explain", statement, "--seed", "0", *args)
        assert res.exit_code == 0, res.output
        out[key] = res.output
    return out


@pytest.mark.parametrize("module, var, statement", RENAMED,
                         ids=[var for _m, var, _s in RENAMED])
def test_renaming_a_step_changes_nothing_but_its_name(monkeypatch, module, var, statement):
    spec = getattr(module, var)
    before = _outputs(statement)
    # a new name of the same length, so that no line wraps differently
    new = spec.name[::-1]
    assert new != spec.name and new not in json.dumps(before)
    monkeypatch.setattr(module, var, dataclasses.replace(spec, name=new))
    after = _outputs(statement)
    assert new in after["json"]     # the step was renamed
    for key in before:
        assert after[key].replace(new, spec.name) == before[key], key


def test_the_event_carries_its_specs_lecture_treatment_and_libtorch_function():
    doc = session.run("t[rows, cols] = 10", seed=0)
    found = {ev["name"]: ev for _d, ev in walk(doc["statements"][0]["events"])}
    wrap, value = found["wrapTuple"], found["valueToTensor"]
    assert wrap["lecture"] == "hidden" and value["lecture"] == "fold_inside"
    assert wrap["libtorch"] == python_indexing.WRAP_TUPLE.libtorch.answer()
    assert wrap["libtorch"]["function"] == "torch::autograd::wrapTuple"


def _step_names() -> set[str]:
    """Every step name: the declared specs', and every name the lessons' traces hold (the
    members of families named at run time)."""
    names = {s.name for s in steps.declared()}
    for lesson in L.available():
        doc = session.run(lesson.text, seed=0)
        for st in doc["statements"]:
            names |= {ev["name"] for _d, ev in walk(st["events"])}
    return names


def _literal_strings(node: ast.AST) -> list[str]:
    """The string keys or elements of a dict, set, list or tuple literal (a frozenset or
    set call's argument too)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in ("frozenset", "set") and node.args:
        node = node.args[0]
    items = node.keys if isinstance(node, ast.Dict) else \
        node.elts if isinstance(node, (ast.Set, ast.List, ast.Tuple)) else []
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def test_no_table_or_comparison_in_tracer_is_keyed_by_step_names():
    names = _step_names()
    # the layers, and note ids that happen to be spelled as a step is (the language
    # tables are keyed by note ids: "pypto.index_select"), are no step's identity
    names -= {"python", "binding", "indexing", "dispatcher", "kernel", "memory", "rng"}
    names -= set(i18n.tables()["en"])
    found = []
    for path in sorted((ROOT / "tracer").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            keyed = [s for s in _literal_strings(node) if s in names]
            if isinstance(node, ast.Compare):
                keyed += [c.value for c in [node.left, *node.comparators]
                          if isinstance(c, ast.Constant) and c.value in names]
            if keyed:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {keyed}")
    assert not found, "\n".join(found)


def test_every_span_in_the_engine_passes_a_spec():
    """No ``span("name", "layer", ...)`` is left: the first argument is a spec."""
    wrong = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (
                    (isinstance(node.func, ast.Name) and node.func.id in ("span", "emit")) or
                    (isinstance(node.func, ast.Attribute) and node.func.attr in ("span", "emit")
                     and isinstance(node.func.value, ast.Name)
                     and node.func.value.id == "recorder")):
                first = node.args[0] if node.args else None
                if len(node.args) != 1 or isinstance(first, (ast.Constant, ast.JoinedStr)):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not wrong, wrong


def test_a_step_is_declared_once():
    """One spec per step: a name and layer declared twice must differ in where they come
    from (TORCH_WARN in two files) or in what they are (assert_no_overlap's two checks)."""
    seen: dict[tuple, steps.StepSpec] = {}
    twice = []
    for spec in steps.declared():
        key = (spec.name, spec.layer, spec.source, spec.note, spec.libtorch, spec.lecture)
        if key in seen and seen[key] is not spec:
            twice.append(spec.name)
        seen[key] = spec
    assert not twice, twice
