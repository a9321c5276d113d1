"""engine.binding.python_signatures against torchgen itself: for each Python name, the
PythonArgParser strings, their order and the overloads they dispatch to are the ones
gen_python_functions.py writes into torch 2.13's bindings."""

from __future__ import annotations


import pytest

from conftest import require_torch
from engine.binding.python_signatures import (DeprecatedSignature, manual_signatures,
                                              python_signatures)
from engine.binding.operators import generated_names
from engine.dispatch.schema import FunctionSchema
from parser_oracle import NAMES, load_yaml, our_signatures, torchgen_groups

pytestmark = pytest.mark.torch

#: torch binds these by hand (torchgen skips them); their strings are checked against
#: torch's messages in test_arg_parser_torch.py.
MANUAL = {("tensor", "function"), ("copy_", "method"), ("contiguous", "method"),
          ("nonzero", "function"), ("nonzero", "method")}


def _ours(name: str, variant: str) -> list[tuple[str, str, str | None]]:
    return [(s.text, str(s.schema), str(s.out_schema) if s.out_schema else None)
            for s in our_signatures(name, variant)]


@pytest.mark.parametrize("variant", ["function", "method"])
def test_tidx_names_match_torchgen(variant: str) -> None:
    require_torch()
    theirs = torchgen_groups(variant)
    compared = set()
    for name in NAMES:
        if (name, variant) in MANUAL:
            assert name not in theirs
            continue
        if name not in theirs:          # no such variant in torch (torch.expand, Tensor.eye)
            assert not load_yaml().schemas(name, variant) or not [
                s for s in our_signatures(name, variant)], (name, variant)
            continue
        assert _ours(name, variant) == theirs[name], (name, variant)
        compared.add(name)
    assert set(generated_names(variant)) <= compared   # every binding tidx generates


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["function", "method"])
def test_every_torch_name_matches_torchgen(variant: str) -> None:
    """All of torch's generated bindings (941 functions, 537 methods), not only tidx's."""
    require_torch()
    theirs = torchgen_groups(variant)
    for name, groups in theirs.items():
        assert _ours(name, variant) == groups, (name, variant)
    assert len(theirs) == {"function": 941, "method": 537}[variant]


def test_manual_bindings_are_torchs_hand_written_strings() -> None:
    """torchgen skips these names; python_signatures returns torch's own strings."""
    require_torch()
    y = load_yaml()
    for name, variant in MANUAL:
        schemas = [FunctionSchema.parse(t) for t in y.schemas(name, variant)]
        ours = python_signatures(schemas, variant) if schemas else manual_signatures(name,
                                                                                     variant)
        assert [s.text for s in ours] == [s.text for s in manual_signatures(name, variant)]
        assert ours
    copy_ = python_signatures([FunctionSchema.parse(t) for t in y.schemas("copy_", "method")],
                              "method")
    assert [s.schema.full_name for s in copy_] == ["aten::copy_", "aten::copy_"]
    assert copy_[1].deprecated and copy_[1].hidden


def test_brief_examples() -> None:
    gather = [FunctionSchema.parse(t) for t in load_yaml().schemas("gather", "function")]
    (sig,) = python_signatures(gather, "function")
    assert sig.text == ("gather(Tensor input, int64_t dim, Tensor index, *, "
                        "bool sparse_grad=False, Tensor out=None)")
    assert (sig.schema.full_name, sig.out_schema.full_name) == ("aten::gather",
                                                                "aten::gather.out")


def test_deprecated_entries_as_pairs_dicts_or_objects() -> None:
    y = load_yaml()
    add = [FunctionSchema.parse(t) for t in y.schemas("add", "function")
           if t.split("(")[0] not in y.generated]
    entries = [d for d in y.deprecated if d[1].startswith("add")]
    as_pairs = python_signatures(add, "function", deprecated=entries)
    as_dicts = python_signatures(add, "function",
                                 deprecated=[{"name": n, "aten": a} for n, a in entries])
    as_objects = python_signatures(add, "function",
                                   deprecated=[DeprecatedSignature.parse(*d) for d in entries])
    assert as_pairs == as_dicts == as_objects
    dep = [s for s in as_pairs if s.deprecated]
    assert [s.text for s in dep] == ["add(Tensor input, Scalar alpha, Tensor other, *, "
                                     "Tensor out=None)|deprecated"]
    assert dep[0].deprecated_call == ("self", "other", "alpha")
    assert dep[0].out_schema.full_name == "aten::add.out"
    # entries of other names are ignored
    assert python_signatures(add, "function", deprecated=y.deprecated) == as_pairs


def test_one_name_at_a_time() -> None:
    y = load_yaml()
    mixed = [FunctionSchema.parse(t) for t in y.schemas("add", "method")
             + y.schemas("add_", "method")]
    with pytest.raises(ValueError, match="one Python name at a time"):
        python_signatures(mixed, "method")
    with pytest.raises(ValueError, match="variant"):
        python_signatures(mixed, "functions")


@pytest.mark.parametrize("variant", ["function", "method"])
def test_the_declarations_hold_every_overload_torch_binds(variant: str) -> None:
    """For every Python name tidx binds, the parser built from tidx's own declarations
    (engine/ops) holds exactly torchgen's strings, in torch's order, dispatching to the
    same overloads: no overload torch binds is missing from the declarations (those tidx
    does not model are declared not_modelled), none is invented."""
    require_torch()
    from engine.binding.operators import OperatorBinding, generated_names

    theirs = torchgen_groups(variant)
    names = generated_names(variant)
    assert len(names) > 40
    for name in names:
        ours = [(s.text, str(s.schema), str(s.out_schema) if s.out_schema else None)
                for s in OperatorBinding(name, variant).signatures]
        assert ours == theirs[name], (name, variant)
