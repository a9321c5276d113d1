"""A kernel's AT_DISPATCH refuses a dtype outside its set in one place, with torch's text.

The "... not implemented for 'Bool'" NotImplementedError was formatted by hand at ~17
sites; each now names its macro's dtype set (engine/dispatch/at_dispatch.py), and the
source holds no other copy of the message.  Every site is compared with real torch:
the error's class and text, and the operators torch.profiler recorded up to it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import require_torch
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
    # inside each set: no error, the same values
    ["y = torch.arange(5, dtype=torch.float16)"],
    ["y = torch.tril_indices(3, 3, dtype=torch.int32)"],
    ["y = torch.zeros(3, dtype=torch.int8).clamp(0, 1)"],
])
def test_each_dispatch_refuses_as_torch(statements):
    torch = require_torch()
    ours, theirs = compare(torch, statements, ["y"])
    assert ours.error == theirs.error
    assert ours.ops == theirs.ops
    assert ours.tensors == theirs.tensors
