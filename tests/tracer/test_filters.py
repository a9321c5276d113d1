"""The filters every format shares: pure doc -> doc functions."""

from __future__ import annotations

import copy

import pytest

from engine.interpreter.session import Session
from tracer import filters
from tracer.document import Document, walk

# goldens must not depend on which test seeded the engine's generator first


@pytest.fixture(scope="module")
def doc():
    return Session().run_document("t[rows, cols] = 10")


def names(doc: Document) -> list[str]:
    return [ev.name for _, ev in walk(doc.statements[0].events)]


def op_tree(doc: Document) -> list[tuple[int, str]]:
    """The operators as torch.profiler nests them, from the JSON form (tracer.events)."""
    from tracer import events

    return events.op_tree(doc.to_json()["statements"][0]["events"])


def test_filters_never_mutate_their_input(doc):
    before = copy.deepcopy(doc.to_json())
    filters.apply(doc, keep_layers=["python"], max_depth=1, ops_only=True, values=False)
    assert doc.to_json() == before


def test_ops_keeps_exactly_what_the_profiler_lists(doc):
    shown = filters.ops(doc)
    ops = [(d, ev.op) for d, ev in walk(shown.statements[0].events)]
    assert ops == op_tree(doc)
    assert ops[:2] == [(0, "aten::lift_fresh"), (0, "aten::index_put_")]


def test_layers_hoist_the_children_of_hidden_steps(doc):
    shown = filters.layers(doc, ["python", "dispatcher"])
    top = shown.statements[0].events[0]
    assert top.name == "Tensor.__setitem__"
    assert [c.name for c in top.children] == ["aten::lift_fresh", "aten::index_put_"]
    assert {ev.layer for _, ev in walk(shown.statements[0].events)} == \
        {"python", "dispatcher"}


def test_depth_cuts_below_n_levels(doc):
    shown = filters.depth(doc, 2)
    assert max(d for d, _ in walk(shown.statements[0].events)) == 1
    assert names(shown) == ["Tensor.__setitem__", "THPVariable_setitem"]


def test_no_values_keeps_names_and_drops_values(doc):
    shown = filters.no_values(doc)
    assert names(shown) == names(doc)
    assert all(ev.args == {} and ev.result is None
               for _, ev in walk(shown.statements[0].events))


def test_a_hidden_step_that_raised_passes_its_error_to_a_shown_one():
    doc = Session().run_document("t[0, 5] = 1")
    shown = filters.layers(doc, ["python", "binding"])
    errors = [ev.error for _, ev in walk(shown.statements[0].events) if ev.error]
    assert errors and errors[0].type == "IndexError"


@pytest.mark.parametrize("text, message", [("foo", "unknown layer 'foo'"),
                                           (" , ", "at least one layer")])
def test_parse_layers_refuses_bad_lists(text, message):
    with pytest.raises(ValueError, match=message):
        filters.parse_layers(text)
