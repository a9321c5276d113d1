"""Every kernel records the storage elements it reads and writes (issue #28), checked
operator by operator against a replay that does not look at the marks.

For each declared operator with a kernel, tests/kernel_marks.py generates small inputs
from its schema, runs it traced and compares the recorded ``written`` / ``read`` /
``read_index`` elements with what the run did to the bytes: every element that changed
is marked written, every output value that is an input element's own code was marked
read, and every input element whose change changes the result was marked read.  Then
the pictures of issue #28 are checked as a teacher sees them, against real torch.
"""

from __future__ import annotations

import pytest
import torch

import kernel_marks as K
from engine.interpreter import session
from tracer import picture as P
from tracer import timeline as TL

#: Operators no generated input runs, each with why.
NOT_GENERATED = {
    "aten::searchsorted.Scalar_out": "needs 1-D boundaries and an int64 out= tensor; the generated boundaries are 2-d or the out= tensor float",
    "aten::bucketize.Tensor_out": "needs 1-D boundaries and an int64 out= tensor; the generated boundaries are 2-d or the out= tensor float",
    "aten::isin.Tensor_Tensor_out": "needs a bool out= tensor; the generated out= tensors are float",
    "aten::isin.Tensor_Scalar_out": "needs a bool out= tensor; the generated out= tensors are float",
    "aten::isin.Scalar_Tensor_out": "needs a bool out= tensor; the generated out= tensors are float",
    "aten::mm.dtype": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::mm.dtype_out": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::bmm.dtype": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::bmm.dtype_out": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::addmm.dtype": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::addmm.dtype_out": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::baddbmm.dtype": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::baddbmm.dtype_out": "no CPU kernel in torch 2.13 (the dispatcher's NotImplementedError)",
    "aten::binary_cross_entropy": "needs its input and target in [0, 1]; the generated "
                                  "inputs are not",
    "aten::imag": "needs a complex tensor; the generated inputs are real",
    "aten::view_as_real": "needs a complex tensor; the generated inputs are real",
    "aten::view_as_complex": "needs a last dim of size 2; the generated inputs have not",
    "aten::bincount": "needs 1-d non-negative integers; the generated int data is 2-d",
    "aten::linalg_matrix_norm": "the generated Scalar (0.25) is no matrix norm's order",
    "aten::linalg_matrix_norm.out": "the generated Scalar (0.25) is no matrix norm's order",
    "aten::linalg_norm.ord_str": "the generated str ('sum') is no matrix norm's order",
    "aten::linalg_norm.ord_str_out": "the generated str ('sum') is no matrix norm's order",
    "aten::multinomial.out": "needs a Long out= tensor; the generic out= input is float",
    "aten::unique_dim": "tidx refuses unique(dim=...) (torch compares whole slices)",
    "aten::index_select_backward": "needs a grad as long as the index along dim; the "
                                   "generated grad has the sizes of self_sizes",
    "aten::nll_loss_backward": "needs a class-index target and total_weight; the "
                               "generated tensors are of another kind",
    "aten::trace_backward": "needs a 0-dim grad and two sizes; the generated grad is 3-d "
                            "(index_fill_'s value must be 0-dim)",
}


def _machine_refuses() -> dict[str, str]:
    """Operators tidx refuses on this machine's CPU: bernoulli_(float) on Intel (MKL)."""
    from engine.core import capability as C

    machine = C.machine()
    if machine.x86 and machine.vendor in ("intel", ""):
        why = "on an Intel CPU torch draws bernoulli_(float) with MKL, which tidx refuses"
        return {"aten::bernoulli_.float": why, "aten::bernoulli.p": why}
    return {}


@pytest.mark.parametrize("op", K.declared())
def test_every_kernel_marks_exactly_what_it_read_and_wrote(op):
    run = K.run(op)
    not_generated = NOT_GENERATED | _machine_refuses()
    if isinstance(run, list):
        assert op in not_generated, "no generated input runs it:\n" + "\n".join(run)
        pytest.skip(not_generated[op])
    assert op not in not_generated, f"{op} runs now ({run.profile}): drop its entry"
    assert K.problems(run) == [], run.profile


def test_the_replay_sees_a_kernel_that_marks_nothing(monkeypatch):
    """The check is not vacuous: a scatter whose kernel recorded no marks is caught."""
    from engine.ops import scatter
    real = scatter.scatter_touch
    monkeypatch.setattr(scatter, "scatter_touch",
                        lambda self, coords, reached: real(self, tuple(c[:0] for c in
                                                                       coords), None))
    problems = K.problems(K.run("aten::scatter_.src"))
    assert problems and "not marked written" in problems[0]


def _pictures(text: str, index: int = -1):
    doc = session.run_document(text, seed=0)
    sts = doc.statements
    i = index % len(sts)
    return P.collect(sts[i], sts[i - 1] if i else None)


def _torch_scatter():
    z = torch.zeros(3, 3, dtype=torch.long)
    before = z.clone()
    z.scatter_(1, torch.tensor([[0], [1], [2]]), 5)
    return before.reshape(-1).tolist(), z.reshape(-1).tolist()


def test_scatter_marks_the_three_elements_it_wrote_not_nine():
    (p,) = _pictures("z = torch.zeros(3, 3, dtype=torch.long); i = torch.tensor([[0], "
                     "[1], [2]]); z.scatter_(1, i, 5)")
    before, after = _torch_scatter()
    changed = [o for o in range(9) if before[o] != after[o]]
    assert sorted(o for o, m in p["touched"].items() if m == "written") == changed
    assert [(c["offset"], c["new"]) for c in p["changes"]] == [(o, after[o]) for o in changed]


def test_every_view_of_scatter_marks_the_same_three_cells():
    """The step a stepper, a GIF and `tidx step` draw: the kernel's step."""
    doc = session.run_document("z = torch.zeros(3, 3, dtype=torch.long); i = torch.tensor("
                               "[[0], [1], [2]]); z.scatter_(1, i, 5)", seed=0)
    items = TL.timeline(doc, 2)
    (kernel,) = [it for it in items if it["event"].name == "scatter_kernel"]
    before, after = _torch_scatter()
    (z,) = [p for p in kernel["after"] if p["cells"].get(4) == after[4]]
    assert sorted(o for o, m in z["touched"].items() if m == "written") == [0, 4, 8]


def test_put_with_a_named_index_marks_the_elements_it_put():
    (p,) = [q for q in _pictures("t = torch.zeros(2, 3); idx = torch.tensor([1, 5]); "
                                 "t.put_(idx, torch.tensor([9., 8.]))")
            if any(v.get("name") == "t" for v in q["views"])]
    t = torch.zeros(2, 3)
    t.put_(torch.tensor([1, 5]), torch.tensor([9., 8.]))
    assert sorted(o for o, m in p["touched"].items() if m == "written") == [1, 5]
    assert [c["new"] for c in p["changes"]] == [t.reshape(-1)[1].item(),
                                                t.reshape(-1)[5].item()]


def test_masked_fill_after_an_unrelated_statement_knows_the_old_values():
    (p,) = [q for q in _pictures("t = torch.arange(12.).reshape(3, 4); u = t + 1; "
                                 "t.masked_fill_(t > 6.5, -1.0)") if q["base"] is None
            and any(v.get("name") == "t" for v in q["views"])]
    t = torch.arange(12.).reshape(3, 4)
    old = t.reshape(-1).tolist()
    t.masked_fill_(t > 6.5, -1.0)
    new = t.reshape(-1).tolist()
    assert [(c["offset"], c["old"], c["new"]) for c in p["changes"]] == [
        (o, old[o], new[o]) for o in range(12) if old[o] != new[o]]


def test_a_write_no_step_saw_before_still_knows_what_it_replaced():
    """Issue #28: ``t.masked_fill_(m, -1.0)`` after an unrelated statement: no step of
    it records t before the kernel writes (it takes m, gives back t written), so the
    picture said "written where no value was recorded before".  The session keeps what
    the write replaced (engine/core/before.py)."""
    doc = session.run_document("t = torch.arange(12.).reshape(3, 4); m = t > 6.5; "
                               "u = m.sum(); t.masked_fill_(m, -1.0)", seed=0)
    st = doc.statements[-1]
    assert st.session is not None and [b["name"] for b in st.session.before] == ["t"]
    (p,) = [q for q in P.collect(st, doc.statements[-2])
            if any(v.get("name") == "t" for v in q["views"])]
    t = torch.arange(12.).reshape(3, 4)
    old = t.reshape(-1).tolist()
    t.masked_fill_(t > 6.5, -1.0)
    new = t.reshape(-1).tolist()
    assert [(c["offset"], c["old"], c["new"]) for c in p["changes"]] == [
        (o, old[o], new[o]) for o in range(12) if old[o] != new[o]]
    # the steps too: the kernel's before-picture holds 7.0 where it will write -1.0
    (kernel,) = [it for it in TL.timeline(doc, 3)
                 if it["event"].name == "masked_fill_kernel"]
    (before,) = [q for q in kernel["before"] if q["dtype"] == "f32"]
    assert before["cells"][7] == 7.0


@pytest.mark.parametrize("text, read", [
    ("t.gather(1, torch.tensor([[0, 0], [1, 0], [2, 2]]))", None),
    ("t.index_select(0, torch.tensor([2, 0]))", None),
    ("torch.take(t, torch.tensor([0, 4, 8]))", None),
])
def test_a_gathering_read_draws_the_source_with_the_elements_read(text, read):
    """gather, index_select and take draw t's storage with exactly the elements they
    read marked R (as t[[1, 2]] does), found from torch: the elements whose value is in
    the result, t holding distinct values."""
    pictures = _pictures(text)
    t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    result = eval(text, {"torch": torch, "t": t})
    expected = sorted({v - 1 for v in result.reshape(-1).tolist()})
    (source,) = [p for p in pictures if any(v.get("name") == "t" for v in p["views"])]
    assert sorted(o for o, m in source["touched"].items() if m == "read") == expected
