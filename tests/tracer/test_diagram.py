"""The sequence model shared by the Graphviz and mermaid drawings."""

from __future__ import annotations


from engine.interpreter import session
from tracer.render import diagram

# goldens must not depend on which test seeded the engine's generator first


def test_lifelines_are_the_layers_the_trace_touches_in_pytorch_order():
    seq = diagram.build(session.run_document("torch.randn(3, 4)", seed=0))
    assert seq.lanes == ["python", "binding", "dispatcher", "kernel", "memory", "rng"]


def test_every_call_row_has_a_bar_and_bars_nest_on_their_lifeline():
    seq = diagram.build(session.run_document("t[rows, cols] = 10"))
    calls = [i for i, r in enumerate(seq.rows) if r.kind == "call"]
    assert sorted(a.start for a in seq.activations) == calls
    for a in seq.activations:
        inner = [b for b in seq.activations if b.lane == a.lane and a.start < b.start <= a.end]
        assert all(b.level > a.level and b.end <= a.end for b in inner)


def test_returns_cross_lifelines_carry_values_and_self_calls_show_their_result():
    seq = diagram.build(session.run_document("t[1, 2] = 3"))
    returns = [r for r in seq.rows if r.kind == "return"]
    assert all(r.src != r.dst for r in returns)
    assert returns[-1].dst is None and returns[-1].name.startswith("t: i64[3, 3]")
    value = next(r for r in seq.rows if r.name == "valueToTensor")
    assert value.detail.endswith("→ (3 as a tensor): i64[] strides () offset 0 = 3")


def test_an_error_returns_from_the_step_that_raised_up_to_the_user():
    seq = diagram.build(session.run_document("t[0, 5] = 1"))
    failing = [r for r in seq.rows if r.error]
    assert failing[0].name == ("raises IndexError: index 5 is out of bounds for dimension 1 "
                               "with size 3")
    assert failing[-1].dst is None and failing[-1].name == "raises IndexError"


def test_labels_are_bounded():
    seq = diagram.build(session.run_document("t[rows, cols] = 10"))
    assert all(len(r.name) + len(r.detail) <= diagram.MAX_LABEL + 1 for r in seq.rows)


def test_the_full_model_for_images_cuts_nothing_and_ends_with_the_error():
    doc = session.run_document("y = t[1:, ::2]; t[0, 5] = 1")
    cut = diagram.build(doc)
    full = diagram.build(doc, full=True)
    assert any("…" in r.name + r.detail for r in cut.rows)      # mermaid's short labels
    assert not any("…" in r.name + r.detail for r in full.rows)
    applied = next(r for r in full.rows if r.name == "applySlicing")
    assert "self=t: i64[3, 3] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]" in applied.detail
    last, why = full.rows[-2:]
    assert last.kind == "value" and last.error
    assert last.name == "IndexError: index 5 is out of bounds for dimension 1 with size 3"
    # then the line explaining it, as the terminal's (issue 28: the error's page says why)
    assert why.kind == "value" and not why.error
    assert why.name.startswith("t has size 3 in dimension 1")
