"""``torch.Tensor(2, 3)``, ``torch.FloatTensor([1, 2])``: the legacy constructors
(tensor_new.cpp, legacy_tensor_generic_ctor_new), compared with torch: which form the
arguments bind to (sizes, data, a tensor to alias, nothing), the dtype, the layout, the
aten operators the profiler records, the errors word for word, ``isinstance`` with the
legacy types -- and the lecture's note on the uninitialised memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oracle import assert_like_torch

ROOT = Path(__file__).resolve().parents[2]
TYPES = ["Tensor", "FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor",
         "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]
# what the constructor is given: sizes, data, a tensor, nothing, and wrong things
ARGS = ["2, 3", "0", "(2, 3)", "[1, 2]", "[[1, 2], [3, 4]]", "[1.5, -2.5]", "[True, False]",
        "()", "[]", "", "torch.Size([2, 3])", "range(3)", "torch.arange(3)",
        "torch.arange(3.)", "torch.ones(2, dtype=torch.bool)", "torch.arange(3)[::2]",
        "2.0", "None", "'ab'", "2, 3.0", "2, -3", "[2, 'a']", "[[1], [2, 3]]", "[300]",
        "[-1]", "2, dtype=torch.int", "2, device='meta'", "2, device='cpu'",
        "torch.arange(3), device='cpu'", "size=(2, 1)", "data=[1]", "[1, 2], device='cpu'"]


def _uninitialised(args: str) -> bool:
    # sizes give fresh memory; its bytes are whatever the allocator held
    head = args.split(",")[0].strip()
    return head.lstrip("-").isdigit() or head.startswith(("(2", "torch.Size", "size="))


@pytest.mark.parametrize("args", ARGS)
@pytest.mark.parametrize("cls", TYPES)
def test_a_legacy_constructor_is_torch_s(cls, args):
    # every type with every argument form: 320 small cases, each against torch
    assert_like_torch(f"y = torch.{cls}({args})", names=("y",),
                      uninitialised=("y",) if _uninitialised(args) else ())


@pytest.mark.parametrize("statement", [
    "y = isinstance(torch.ones(2), torch.FloatTensor)",
    "y = isinstance(torch.ones(2), torch.LongTensor)",
    "y = isinstance(torch.arange(2), (torch.IntTensor, torch.LongTensor))",
    "y = isinstance(torch.ones(2, device='meta'), torch.FloatTensor)",
    "y = type(torch.ones(2)) is torch.FloatTensor",
    "y = torch.FloatTensor == torch.Tensor",
    "y = repr(torch.BoolTensor)",
    "y = type(torch.ones(1))([1, 2])",
    "t = torch.arange(4.); y = torch.Tensor(t); y[0] = 7.; z = t[0].item()",
    "y = torch.Size([2, 3])", "y = torch.Size()", "y = torch.Size(range(3))",
    "y = torch.Size([True, -1])", "y = torch.Size([torch.tensor(2)])", "y = torch.Size([2.0])",
    "y = torch.Size(3)", "y = torch.Size('ab')", "y = torch.Size([1], [2])",
    "y = torch.Size(x=1)", "y = torch.ones(torch.Size([2]))",
])
def test_the_legacy_types_as_values_are_torch_s(statement):
    assert_like_torch(statement.split("; "), names=("y", "z"))


def _ctor_note(statement: str) -> tuple[str, str]:
    out = subprocess.run([sys.executable, "cli.py", "explain", statement, "--format", "json"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    events = json.loads(out.stdout)["statements"][0]["events"]
    (ctor,) = [child for ev in events for child in ev["children"]
               if child["name"] == "legacy_tensor_generic_ctor_new"]
    return ctor["note_id"], ctor["note"]


@pytest.mark.parametrize("statement, note_id, says", [
    ("x = torch.Tensor(2, 3)", "binding.legacy.sizes", "memory left uninitialised"),
    ("x = torch.Tensor([1, 2])", "binding.legacy.data", "no type inference"),
    ("x = torch.Tensor(torch.arange(2))", "binding.legacy.alias", "nothing copied"),
    ("x = torch.LongTensor()", "binding.legacy.empty", "an empty tensor"),
])
def test_the_lecture_says_which_form_bound(statement, note_id, says):
    """What the arguments mean is the lesson: sizes are empty() (not zeros), a list is
    data of the type's dtype, a tensor is aliased."""
    got_id, text = _ctor_note(statement)
    assert got_id == note_id and says in text
