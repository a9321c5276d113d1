"""engine.dispatch.schema: every func: of torch 2.13's native_functions.yaml parses, prints
back exactly, and reads as torchgen reads it; malformed text is refused by name."""

from __future__ import annotations

import pytest

from conftest import require_torch
from engine.dispatch.schema import Annotation, Argument, FunctionSchema, Type


@pytest.mark.torch
def test_every_native_function_round_trips_and_agrees_with_torchgen() -> None:
    require_torch()
    from parser_oracle import load_yaml

    funcs = load_yaml().native_functions
    assert len(funcs) > 2500
    for f in funcs:
        text = str(f.func)
        s = FunctionSchema.parse(text)
        assert str(s) == text
        assert [a.name for a in s.arguments] == [a.name for a in f.func.arguments.flat_all]
        assert [str(a.type.without_annotation()) for a in s.arguments] == [
            str(a.type) for a in f.func.arguments.flat_all]
        assert [a.name for a in s.positional] == [a.name for a in f.func.arguments.flat_positional]
        assert [a.name for a in s.kwarg_only] == [
            a.name for a in f.func.arguments.flat_kwarg_only]
        assert [a.name for a in s.out] == [a.name for a in f.func.arguments.out]
        assert [a.default for a in s.arguments] == [a.default for a in f.func.arguments.flat_all]
        assert [a.is_write for a in s.arguments] == [a.is_write for a in f.func.arguments.flat_all]
        assert [str(r) for r in s.returns] == [str(r) for r in f.func.returns]
        assert s.is_out == f.func.is_out_fn()
        assert s.is_inplace == f.func.name.name.inplace
        assert s.kind == f.func.kind().name
        assert (s.name, s.overload) == (str(f.func.name.name), f.func.name.overload_name)


@pytest.mark.torch
def test_deprecated_yaml_schemas_round_trip() -> None:
    require_torch()
    from parser_oracle import load_yaml

    for name, _ in load_yaml().deprecated:
        assert str(FunctionSchema.parse(name)) == name


EXAMPLES = [
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> "
    "Tensor(a!)",
    "randn.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
    "-> Tensor",
    "gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) "
    "-> Tensor(a!)",
    "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    "_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
    "__and__.Tensor(Tensor self, Tensor other) -> Tensor",
    "__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_examples_round_trip(text: str) -> None:
    assert str(FunctionSchema.parse(text)) == text


def test_the_parts_of_the_brief_examples() -> None:
    add, index_put_, randn, sum_, gather_out = map(FunctionSchema.parse, EXAMPLES[:5])
    assert (add.name, add.overload, add.full_name, add.op_name) == (
        "add", "Tensor", "aten::add.Tensor", "aten::add")
    assert add.arguments[2] == Argument("alpha", Type("Scalar"), "1", kwarg_only=True)
    assert index_put_.full_name == "aten::index_put_" and index_put_.is_inplace
    assert index_put_.arguments[0].type == Type("Tensor", annotation=Annotation(("a",), True))
    assert index_put_.arguments[1].type == Type("Tensor", elem_optional=True, is_list=True)
    assert str(randn.arguments[1].type) == "Generator?" and randn.arguments[1].default is None
    assert [a.name for a in randn.kwarg_only] == ["generator", "dtype", "layout", "device",
                                                  "pin_memory"]
    assert randn.arguments[0].type == Type("SymInt", is_list=True)
    assert sum_.arguments[1].type == Type("int", is_list=True, size=1, optional=True)
    assert not sum_.arguments[1].kwarg_only and sum_.arguments[3].kwarg_only
    assert gather_out.is_out and not gather_out.is_inplace and not gather_out.is_view
    assert [a.name for a in gather_out.out] == ["out"] and gather_out.out[0].is_out
    assert [a.name for a in gather_out.kwarg_only] == ["sparse_grad"]
    assert gather_out.kind == "out" and add.kind == "functional" and index_put_.kind == "inplace"


def test_views_inplace_and_dunders() -> None:
    chunk, _, foreach, and_, iand = map(FunctionSchema.parse, EXAMPLES[5:])
    assert chunk.is_view and not chunk.is_inplace
    assert FunctionSchema.parse("select.int(Tensor(a) self, int dim, SymInt index) -> "
                                "Tensor(a)").is_view
    assert not FunctionSchema.parse("clone(Tensor self, *, MemoryFormat? memory_format=None) "
                                    "-> Tensor").is_view
    assert foreach.returns == () and foreach.is_inplace
    assert not and_.is_inplace and iand.is_inplace and iand.full_name == "aten::__iand__.Tensor"


@pytest.mark.parametrize("text, complaint", [
    ("add.Tensor(Tensor self, Tensr other) -> Tensor", "unknown type 'Tensr'"),
    ("add.Tensor(Tensor self, Tensor other)", "not a function schema"),
    ("add.Tensor(Tensor self, Tensor) -> Tensor", "argument 'Tensor' has no type or no name"),
    ("add(Tensor self, *, int a, *, int b) -> Tensor", "'*' appears twice"),
    ("add(Tensor self, Tensor self) -> Tensor", "argument name 'self' appears twice"),
    ("add(Tensor self, int a==1) -> Tensor", "more than one '='"),
    ("add(Tensor self, int a=) -> Tensor", "empty default"),
    ("add(Tensor(A!) self) -> Tensor", "malformed alias annotation '(A!)'"),
    ("add(int(a) self) -> Tensor", "unknown type 'int(a)'"),
    ("add(int[0] self) -> Tensor", "malformed list size"),
    ("add(int[][] self) -> Tensor", "nested lists"),
    ("add(Tensor self,  Tensor other) -> Tensor", "unknown type ' Tensor'"),
    ("add(Tensor self, *, Tensor(a!) out, int x) -> Tensor(a!)", "follows the out arguments"),
    ("a-b(Tensor self) -> Tensor", "malformed operator name 'a-b'"),
    ("add.T-1(Tensor self) -> Tensor", "malformed overload name 'T-1'"),
    ("add(Tensor self) -> Tensr", "unknown type 'Tensr' in return 'Tensr'"),
    ("add(Tensor self) -> (Tensor)", "not in canonical form"),
])
def test_malformed_schemas_are_refused_by_name(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=None) as info:
        FunctionSchema.parse(text)
    assert complaint in str(info.value), str(info.value)
