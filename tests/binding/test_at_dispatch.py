"""A kernel's AT_DISPATCH refuses a dtype outside its set in one place, with torch's text.

The "... not implemented for 'Bool'" NotImplementedError was formatted by hand at ~17
sites; then each site named its macro's dtype set; now the macro is a fact of the
operator's declaration (``declare(..., at_dispatch=AT_DISPATCH("arange_cpu",
"AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)"))``) and the kernel only says where it
switches (``dispatched(dtype)``).  Every site is compared with real torch: the error's
class and text, and the operators torch.profiler recorded up to it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine  # noqa: F401  (declares every operator)
from conftest import require_torch
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.declarations import REGISTRY
from oracle import compare

ROOT = Path(__file__).resolve().parents[2]


def test_the_message_is_formatted_in_one_place():
    hand_made = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.name == "at_dispatch.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            parts = [node] if isinstance(node, ast.Constant) else []
            if isinstance(node, ast.JoinedStr):
                parts = [v for v in node.values if isinstance(v, ast.Constant)]
            if any(isinstance(p.value, str) and "not implemented for " in p.value
                   and "'" in p.value for p in parts):
                hand_made.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hand_made == []


def _names(tree: ast.AST) -> set[str]:
    found = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found |= {a.name for a in node.names}
    return found


def test_the_dtype_sets_are_only_in_declarations():
    """No kernel names a dtype set or formats the error: outside engine/dispatch the
    AT_DISPATCH sets, the old ``at_dispatch(name, dtype, SET)`` and ``not_implemented``
    are not used, and ``pointwise.iterate`` takes no ``allowed=`` predicate."""
    banned = {"INTEGRAL_TYPES", "FLOATING_TYPES", "ALL_TYPES", "INDEX_TYPES",
              "not_implemented"}
    used = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.parent.name == "dispatch":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hits = banned & _names(tree)
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        hits |= {"at_dispatch(...)" for n in calls if getattr(n.func, "id", "") == "at_dispatch"}
        hits |= {"allowed=" for n in calls if getattr(n.func, "id", "") == "iterate"
                 and any(k.arg == "allowed" for k in n.keywords)}
        used += [f"{path.relative_to(ROOT)}: {h}" for h in sorted(hits)]
    assert used == []


def test_every_declared_dispatch_is_a_macro_with_dtypes():
    declared = {d.full_name: d.at_dispatch for d in REGISTRY.values() if d.at_dispatch}
    assert len(declared) >= 40     # the ~20 kernels, with their in-place and out= forms
    for full_name, dispatches in declared.items():
        names = [d.name for d in dispatches]
        assert len(set(names)) == len(names), full_name
        for d in dispatches:
            assert d.types and all(m.startswith(("AT_DISPATCH_", "if k")) for m in d.macros)
    # a structured group's forms share their one kernel's
    assert declared["aten::logaddexp"] == declared["aten::logaddexp.out"]
    assert declared["aten::clamp_.Tensor"] == declared["aten::clamp.Tensor_out"]


def test_a_macro_tidx_does_not_know_fails_when_declared():
    with pytest.raises(ValueError):
        AT_DISPATCH("x_cpu", "AT_DISPATCH_ALL_TYPES_AND2(kHalf)")   # _AND2 names two
    with pytest.raises(ValueError):
        AT_DISPATCH("x_cpu", "AT_DISPATCH_SOMETHING_ELSE")


@pytest.mark.parametrize("statements", [
    ["y = torch.arange(5, dtype=torch.bool)"],                     # arange_cpu
    ["y = torch.linspace(0, 1, 5, dtype=torch.bool)"],             # linspace_cpu
    ["y = torch.logspace(0, 1, 5, dtype=torch.bool)"],             # logspace_cpu
    ["y = torch.tril_indices(3, 3, dtype=torch.float32)"],         # INDEX_TYPES
    ["y = torch.triu_indices(3, 3, dtype=torch.int16)"],
    ["y = torch.repeat_interleave(torch.tensor([1.0, 2.0]))"],     # repeat_interleave_cpu
    ["y = torch.zeros(3, dtype=torch.bool).clamp(0, 1)"],          # clamp_scalar_cpu
    ["y = torch.zeros(3, dtype=torch.bool).clamp_min(0)"],
    ["y = torch.searchsorted(torch.tensor([False, True]), torch.tensor([True]))"],
    ["y = torch.tensor([True, False]).cumsum(0, dtype=torch.bool)"],  # cumsum_out_cpu
    ["y = torch.zeros(3, dtype=torch.int64).normal_()"],           # normal_kernel_cpu
    ["y = torch.zeros(3, dtype=torch.uint8).uniform_()"],          # check_uniform_bounds
    ["y = torch.randperm(3, dtype=torch.bool)"],                   # randperm
    ["y = torch.zeros(3, dtype=torch.bool).scatter_reduce(0, torch.tensor([0]), "
     "torch.tensor([True]), 'mean')"],
    ["y = torch.zeros(3, dtype=torch.bool).index_reduce_(0, torch.tensor([0]), "
     "torch.tensor([True]), 'prod')"],
    ["y = torch.tensor([1.5]) & 1"],                               # bitwise_and_cpu
    ["y = 5 ^ torch.tensor([1.5])"],                               # .Scalar_Tensor
    ["y = torch.tensor([1.5]).bitwise_not()"],                     # bitwise_not_cpu
    ["y = torch.tensor([True]).pow(torch.tensor([True]))"],        # pow
    ["y = torch.tensor([True]).abs()"],                            # abs_cpu
    ["y = torch.tensor([True]).remainder(True)"],                  # remainder_cpu
    ["y = torch.tensor([True]).fmod(torch.tensor([True]))"],       # fmod_cpu
    ["y = torch.tensor([True]) // torch.tensor([True])"],          # div_floor_cpu
    ["y = torch.tensor([True]).div(torch.tensor([True]), rounding_mode='trunc')"],
    ["y = torch.tensor([1]).logaddexp(torch.tensor([1]))"],        # logaddexp_cpu
    ["y = torch.zeros(3, dtype=torch.bool).clamp(min=torch.tensor(True), "
     "max=torch.tensor(True))"],                                   # clamp_cpu
    ["y = torch.bucketize(torch.tensor([True]), torch.tensor([False, True]))"],
    ["y = torch.zeros(3, dtype=torch.bool).index_reduce_(0, torch.tensor([0]), "
     "torch.tensor([True]), 'prod', include_self=False)"],
    ["y = torch.range(0, 3, dtype=torch.bool)"],                   # range_cpu
    # inside each set: no error, the same values
    ["y = torch.arange(5, dtype=torch.float16)"],
    ["y = torch.tril_indices(3, 3, dtype=torch.int32)"],
    ["y = torch.zeros(3, dtype=torch.int8).clamp(0, 1)"],
    ["y = torch.zeros(3, dtype=torch.bool).clamp(max=1)"],
    ["y = torch.tensor([True]) | torch.tensor([False])"],
    ["y = torch.tensor([7]).div(2, rounding_mode='trunc')"],
])
def test_each_dispatch_refuses_as_torch(statements):
    torch = require_torch()
    ours, theirs = compare(torch, statements, ["y"])
    assert ours.error == theirs.error
    assert ours.ops == theirs.ops
    assert ours.tensors == theirs.tensors
