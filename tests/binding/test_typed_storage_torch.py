"""``tensor.storage()``: the whole storage read as the tensor's dtype, a TypedStorage, with
torch's deprecation warning once per run.  Compared with torch: the repr (every element,
then what it is), its facts, and the errors of wrong calls."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from oracle import assert_like_torch

BASES = ["torch.arange(6.).reshape(2, 3)", "torch.arange(6).reshape(2, 3)[:, 1]",
         "torch.tensor([True, False])", "torch.tensor([0.1, -0.0, float('inf')])",
         "torch.arange(4, dtype=torch.float16)[2:]", "torch.ones(2, 2, device='meta')",
         "torch.zeros(0)", "torch.arange(3, dtype=torch.uint8).expand(2, 3)"]
CALLS = ["t.storage()", "t.storage().size()", "t.storage().nbytes()",
         "t.storage().element_size()", "t.storage().dtype", "t.storage().device",
         "t.storage().untyped()", "len(t.storage())", "(t.storage(), t.storage())",
         "t.storage(1)", "t.storage().size(2)", "t.storage().nbytes(x=1)"]


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(BASES), st.sampled_from(CALLS))
def test_a_typed_storage_is_torch_s(base, call):
    assert_like_torch([f"t = {base}", f"y = {call}"], names=("y",))


def test_the_deprecation_warning_is_a_step_once_per_run():
    cli = Path(__file__).resolve().parents[2] / "cli.py"
    run = subprocess.run([sys.executable, str(cli), "explain", "--format", "json",
                          "t = torch.ones(2); a = t.storage(); b = t.storage()"],
                         capture_output=True, text=True, check=True)
    import json
    doc = json.loads(run.stdout)

    def names(events):
        for e in events:
            yield e["name"]
            yield from names(e["children"])
    warned = [sum(n == "_warn_typed_storage_removal" for n in names(st["events"]))
              for st in doc["statements"]]
    assert warned == [0, 1, 0]
