"""The operator declarations against PyTorch 2.13's own: native_functions.yaml.

The yaml ships inside the torch wheel (torchgen/packaged), so it is the oracle here:
every aten schema tidx declares is one of its ``func:`` entries character for
character, with the same ``variants``, and tidx's kind agrees with how the yaml
dispatches it (a CompositeImplicitAutograd operator is a tidx COMPOSITE, and only
those).
"""

from __future__ import annotations

import os
from functools import lru_cache

import pytest

import engine  # noqa: F401  (imports every kernel, so every declaration)
from conftest import require_torch
from engine.dispatch.declarations import COMPOSITE, REGISTRY

pytestmark = pytest.mark.torch


@lru_cache(maxsize=None)
def _yaml() -> dict[str, dict]:
    require_torch()
    import torchgen
    import yaml

    path = os.path.join(os.path.dirname(torchgen.__file__),
                        "packaged/ATen/native/native_functions.yaml")
    with open(path, encoding="utf-8") as f:
        entries = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {e["func"]: e for e in entries}


@lru_cache(maxsize=None)
def _autogen() -> dict[str, dict]:
    """The out= overloads an entry's ``autogen:`` asks torchgen to write
    (``diagonal_copy.out``, ``slice_scatter.out``): torch binds those tagged view_copy
    in Python, so tidx declares them too; their schema is torchgen's, their kind is an
    out= kernel's (CompositeExplicitAutograd, never Implicit)."""
    from parser_oracle import load_yaml

    return {str(f.func): {"func": str(f.func), "dispatch": {"CompositeExplicitAutograd": ""},
                          "variants": ", ".join(sorted(v.name for v in f.variants))}
            for f in load_yaml().native_functions if "generated" in f.tags}


ATEN = sorted(name for name, d in REGISTRY.items() if d.namespace == "aten")


@pytest.mark.parametrize("name", ATEN)
def test_schema_and_variants_are_the_yamls(name):
    decl = REGISTRY[name]
    entry = _yaml().get(decl.schema) or _autogen().get(decl.schema)
    assert entry is not None, f"{decl.schema!r} is not a func: of native_functions.yaml"
    yaml_variants = [v.strip() for v in entry.get("variants", "function").split(",")]
    assert list(decl.variants) == yaml_variants
    # python_module: nn binds torch._C._nn.<name> (what torch.nn.functional calls), not torch.*
    assert decl.python_module == entry.get("python_module"), name


def _composite_implicit(entry: dict) -> bool:
    """No dispatch table and no structured delegate means CompositeImplicitAutograd."""
    dispatch = entry.get("dispatch")
    if dispatch is None:
        return "structured_delegate" not in entry
    return any("CompositeImplicitAutograd" == key.strip()
               for keys in dispatch for key in keys.split(","))


#: CompositeImplicitAutograd beside a structured_delegate: on CPU the structured kernel
#: wins (the dispatcher uses a composite kernel for an autograd key only where the backend
#: has no kernel of its own), so torch.profiler records the operator with nothing under it
CPU_KERNEL_OVER_COMPOSITE = {"aten::silu_backward"}


@pytest.mark.parametrize("name", ATEN)
def test_composite_kind_agrees_with_the_yaml(name):
    decl = REGISTRY[name]
    entry = _yaml().get(decl.schema) or _autogen().get(decl.schema)
    if entry is None:
        pytest.skip("schema mismatch is reported by the other test")
    if name in CPU_KERNEL_OVER_COMPOSITE:
        assert "structured_delegate" in entry and decl.kind != COMPOSITE
        return
    assert (decl.kind == COMPOSITE) == _composite_implicit(entry), (
        f"{name}: tidx kind {decl.kind}, yaml dispatch {entry.get('dispatch')}")


#: The operators whose kind is not what their schema says, each for a reason torch has:
#: lift_fresh returns Tensor(a) but is registered as a plain function (it makes no view);
#: _unsafe_view is a view whose schema says Tensor; detach_ is an Autograd kernel.
KIND_AGAINST_THE_SCHEMA = {"aten::lift_fresh": "functional", "aten::_unsafe_view": "view",
                           "aten::detach_": "autograd"}


def test_every_kind_is_the_schemas_unless_the_schema_cannot_say_it():
    # issue 25: kind= restated what the alias annotations say; declare() now reads it
    # off the schema, and an explicit kind is left only where the schema cannot say it
    from engine.dispatch.declarations import COMPOSITE, kind_of
    import engine.ops
    engine.ops.import_all()
    for d in REGISTRY.values():
        if d.kind == COMPOSITE or not d.modelled:
            continue
        expected = KIND_AGAINST_THE_SCHEMA.get(d.full_name, kind_of(d.schema))
        assert d.kind == expected, (d.schema, d.kind, expected)
