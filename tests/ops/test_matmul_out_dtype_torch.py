"""The matmul family's out_dtype overloads on the CPU (engine/ops/matmul_out_dtype.py):
torch 2.13's CPU build has no kernel for them, and the dispatcher's NotImplementedError is
torch's -- the class, the operators torch.profiler records, and the message's first
paragraph word for word (the operator, the backend, every dispatch key it has a kernel
for); the registration lines torch adds after it (its build's files, its install path)
are left out, as the step's note says."""

from __future__ import annotations

import pytest

from conftest import require_torch
from oracle import compare

pytestmark = pytest.mark.torch

H = "a = torch.randn(2, 3).half(); b = torch.randn(3, 2).half(); c = torch.zeros(2, 2).half()"
PROGRAMS = [
    "y = torch.mm(a, b, out_dtype=torch.float32)",
    "y = torch.mm(a, b, out_dtype=torch.float32, out=torch.empty(0))",
    "y = torch.bmm(a[None], b[None], out_dtype=torch.float32)",
    "y = torch.bmm(a[None], b[None], out_dtype=torch.float32, out=torch.empty(0))",
    "y = torch.addmm(c, a, b, out_dtype=torch.float32)",
    "y = torch.addmm(c, a, b, out_dtype=torch.float32, beta=2, out=torch.empty(0))",
    "y = torch.baddbmm(c, a[None], b[None], out_dtype=torch.float32)",
    "y = torch.baddbmm(c, a[None], b[None], out_dtype=torch.float16, alpha=3, "
    "out=torch.empty(0))",
    "y = torch.mm(a.float().requires_grad_(), b.float(), out_dtype=torch.float32)",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_no_cpu_kernel_is_torchs_error(program):
    torch = require_torch()
    mine, theirs = compare(torch, [*H.split("; "), program], ["y"])
    assert mine.ops == theirs.ops
    assert theirs.error is not None and mine.error is not None
    assert mine.error[0] == theirs.error[0] == "NotImplementedError"
    first, _, registrations = theirs.error[1].partition("\n\n")
    assert mine.error[1] == first
    # what tidx leaves out is what the note says: one registration line per key
    assert registrations.count("registered at") >= 40


def test_the_step_says_what_it_left_out():
    from engine.interpreter import session

    doc = session.run(f"{H}\ny = torch.mm(a, b, out_dtype=torch.float32)")
    notes = [e.get("note_id") for s in doc["statements"] for e in _walk(s["events"])]
    assert "dispatch.no_kernel" in notes


def _walk(events):
    for e in events:
        yield e
        yield from _walk(e.get("children", []))
