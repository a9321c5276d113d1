"""The filters every format shares: pure doc -> doc functions."""

from __future__ import annotations

import copy

import pytest

from engine.interpreter import session
from tracer import events
from tracer import filters

# goldens must not depend on which test seeded the engine's generator first


@pytest.fixture(scope="module")
def doc():
    return session.run("t[rows, cols] = 10")


def names(doc, key="name"):
    return [ev[key] for _, ev in events.walk(doc["statements"][0]["events"])]


def test_filters_never_mutate_their_input(doc):
    before = copy.deepcopy(doc)
    filters.apply(doc, keep_layers=["python"], max_depth=1, ops_only=True, values=False)
    assert doc == before


def test_ops_keeps_exactly_what_the_profiler_lists(doc):
    shown = filters.ops(doc)
    ops = [(d, ev["op"]) for d, ev in events.walk(shown["statements"][0]["events"])]
    assert ops == events.op_tree(doc["statements"][0]["events"])
    assert ops[:2] == [(0, "aten::lift_fresh"), (0, "aten::index_put_")]


def test_layers_hoist_the_children_of_hidden_steps(doc):
    shown = filters.layers(doc, ["python", "dispatcher"])
    top = shown["statements"][0]["events"][0]
    assert top["name"] == "Tensor.__setitem__"
    assert [c["name"] for c in top["children"]] == ["aten::lift_fresh", "aten::index_put_"]
    assert {ev["layer"] for _, ev in events.walk(shown["statements"][0]["events"])} == \
        {"python", "dispatcher"}


def test_depth_cuts_below_n_levels(doc):
    shown = filters.depth(doc, 2)
    assert max(d for d, _ in events.walk(shown["statements"][0]["events"])) == 1
    assert names(shown) == ["Tensor.__setitem__", "THPVariable_setitem"]


def test_no_values_keeps_names_and_drops_values(doc):
    shown = filters.no_values(doc)
    assert names(shown) == names(doc)
    assert all(ev["args"] == {} and ev["result"] is None
               for _, ev in events.walk(shown["statements"][0]["events"]))


def test_a_hidden_step_that_raised_passes_its_error_to_a_shown_one():
    doc = session.run("t[0, 5] = 1")
    shown = filters.layers(doc, ["python", "binding"])
    errors = [ev["error"] for _, ev in events.walk(shown["statements"][0]["events"])
              if ev.get("error")]
    assert errors and errors[0]["type"] == "IndexError"


@pytest.mark.parametrize("text, message", [("foo", "unknown layer 'foo'"),
                                           (" , ", "at least one layer")])
def test_parse_layers_refuses_bad_lists(text, message):
    with pytest.raises(ValueError, match=message):
        filters.parse_layers(text)
