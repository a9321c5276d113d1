"""Operators call each other through typed handles, and every handle names a declaration.

``aten.select.int(t, 0, 1)`` (engine/dispatch/aten.py) replaced ~525
``call("aten::select.int", ...)`` strings that no tool could follow: a typo was an exit 3
at run time.  The source is read with ``ast`` (not regexes over text), so each
``aten.<name>.<overload>`` attribute chain in the code is checked against the registry
here, before any statement reaches it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine.interpreter.session  # noqa: F401  (imports every ops module: all declared)
from engine.dispatch import dispatcher
from engine.dispatch.aten import (NAMESPACES, OpOverload, OpOverloadPacket, aten,
                                  attribute_name, handle, overload_name, prims)
from engine.dispatch.declarations import REGISTRY

ROOT = Path(__file__).resolve().parents[2]


def _sources() -> list[Path]:
    files = [p for pkg in ("engine", "tracer") for p in (ROOT / pkg).rglob("*.py")]
    return sorted(files) + [ROOT / "cli.py", ROOT / "tidx.py"]


def _handles() -> list[tuple[str, int, str, str, str | None]]:
    """(file, line, namespace, name, overload attribute or None for a bare packet) of
    every ``aten.X`` / ``aten.X.Y`` / ``prims.X.Y`` chain in the code."""
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # the names this file binds to engine.dispatch.aten's namespaces (elsewhere
        # `aten` may be a local name, e.g. a signature's aten call)
        bound = {a.asname or a.name for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module == "engine.dispatch.aten"
                 for a in node.names if a.name in NAMESPACES}
        parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in bound:
                parent = parents.get(id(node))
                overload = parent.attr if isinstance(parent, ast.Attribute) and \
                    parent.value is node else None
                found.append((str(path.relative_to(ROOT)), node.lineno, node.value.id,
                              node.attr, overload))
    return found


HANDLES = _handles()


def test_the_code_calls_operators_through_handles():
    # hundreds of them, in every family (a scan that found none would prove nothing)
    assert len(HANDLES) > 500
    assert {f.split("/")[1] for f, *_ in HANDLES} >= {"ops", "binding", "indexing"}


@pytest.mark.parametrize("where", HANDLES, ids=lambda h: f"{h[0]}:{h[1]}")
def test_every_handle_in_the_code_names_a_declaration(where):
    path, line, namespace, name, attribute = where
    base = f"{namespace}::{name}"
    assert any(key == base or key.startswith(base + ".") for key in REGISTRY), \
        f"{path}:{line}: {namespace}.{name} is no declared operator"
    if attribute is None:
        return
    overload = overload_name(attribute)
    full = f"{base}.{overload}" if overload else base
    assert full in REGISTRY, f"{path}:{line}: {namespace}.{name}.{attribute} ({full}) " \
                             "is not declared"
    op = getattr(getattr(NAMESPACES[namespace], name), attribute)
    assert isinstance(op, OpOverload) and op.decl is REGISTRY[full]


def test_no_operator_is_called_by_its_name_string():
    strings = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "call" and node.args and \
                    isinstance(node.args[0], (ast.Constant, ast.JoinedStr)):
                strings.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert strings == []
    # the string entry point is gone: dispatch takes the declaration a handle holds
    assert not hasattr(dispatcher, "call")


def test_handles_are_named_as_torch_ops_aten():
    # the empty overload is `default`, a keyword overload takes a trailing underscore
    assert aten.copy_.default.decl.full_name == "aten::copy_"
    assert aten.random_.from_.decl.full_name == "aten::random_.from"
    assert aten.__and__.Tensor.decl.full_name == "aten::__and__.Tensor"
    assert repr(aten.random_.from_) == "aten.random_.from_"
    assert isinstance(aten.select, OpOverloadPacket) and repr(aten.select) == "aten.select"
    assert "int" in aten.select.overloads()
    assert any(d.namespace == "prims" for d in REGISTRY.values())
    name = next(d for d in REGISTRY.values() if d.namespace == "prims")
    assert handle(name).decl is name and repr(prims) == "<namespace prims>"
    # a handle is looked up once and kept
    assert aten.select.int is aten.select.int


def test_every_declaration_has_its_handle():
    for decl in REGISTRY.values():
        op = handle(decl)
        assert op.decl is decl
        assert overload_name(attribute_name(decl.overload)) == decl.overload


def test_a_misspelt_handle_is_an_attribute_error_naming_what_is_declared():
    with pytest.raises(AttributeError, match=r"no operator aten::selectt is declared"):
        aten.selectt  # noqa: B018
    with pytest.raises(AttributeError, match=r"aten::select has no overload 'Int' "
                                             r"\(declared: .*int"):
        aten.select.Int  # noqa: B018
    # copy's and pickle's protocol probes find nothing either
    assert not hasattr(aten, "__deepcopy__")
    assert not hasattr(aten.select, "__deepcopy__")


def test_dynamic_handles_name_declared_operators():
    # the few calls whose packet is chosen at run time (one composite per bitwise
    # operator, logical_and/or/xor's out=, linspace/logspace's Tensor overloads): every
    # name they can take is declared with the overloads they call
    for inner in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        for overload in ("Tensor", "Scalar"):
            assert getattr(getattr(aten, inner), overload).decl.modelled
            assert getattr(getattr(aten, f"{inner}_"), overload).decl.modelled
    for name in ("logical_and", "logical_or", "logical_xor"):
        assert getattr(aten, name).out.decl.modelled
    for name in ("linspace", "logspace"):
        assert getattr(aten, name).default.decl.modelled
        assert getattr(aten, name).out.decl.modelled
