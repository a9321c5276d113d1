"""The recorder: nesting from the call stack, errors on the step that raised,
summaries at record time, nothing kept alive, next to no cost when off."""

from __future__ import annotations

import gc
import weakref

import pytest

import engine as torch
from tracer.steps import Layer, StepSpec
from tracer import record, span
from tracer.recorder import _NULL


def test_nesting_follows_the_call_stack():
    with record() as tr:
        with span(StepSpec("outer", Layer.PYTHON)):
            with span(StepSpec("inner", Layer.BINDING), x=1) as s:
                s.set_result(2)
            with span(StepSpec("sibling", Layer.KERNEL)):
                pass
    (ev,) = tr.to_dict()["statements"][0]["events"]
    assert ev["name"] == "outer"
    assert [c["name"] for c in ev["children"]] == ["inner", "sibling"]
    assert ev["children"][0]["args"] == {"x": {"kind": "int", "value": 1}}
    assert ev["children"][0]["result"] == {"kind": "int", "value": 2}


def test_error_lands_on_the_innermost_step_and_spans_close():
    with record() as tr:
        with pytest.raises(IndexError):
            with span(StepSpec("outer", Layer.PYTHON)):
                with span(StepSpec("inner", Layer.INDEXING)):
                    raise IndexError("index 5 is out of bounds")
        with span(StepSpec("after", Layer.PYTHON)):
            pass
    outer, after = tr.to_dict()["statements"][0]["events"]
    assert outer["error"] is None
    assert outer["children"][0]["error"] == {"type": "IndexError",
                                             "message": "index 5 is out of bounds"}
    assert after["children"] == []  # the stack unwound: 'after' is top level


def test_summaries_are_taken_at_record_time_and_keep_nothing_alive():
    t = torch.tensor([1, 2, 3])
    with record() as tr:
        with span(StepSpec("step", Layer.KERNEL), tensor=t):
            pass
    ref = weakref.ref(t)
    t[0] = 100
    del t
    gc.collect()
    assert ref() is None
    summary = tr.to_dict()["statements"][0]["events"][0]["args"]["tensor"]
    assert summary["values"] == [1, 2, 3]  # the value when recorded, not the later write
    assert summary["label"] == "t$0" and summary["storage"] == "s$0"
    assert "name" not in summary  # a trace label, not the user's name for it


def test_views_share_a_storage_label():
    t = torch.tensor([[1, 2], [3, 4]])
    with record() as tr:
        row = t[1]
    doc = tr.to_dict()
    getitem = doc["statements"][0]["events"][0]
    assert getitem["result"]["storage"] == "s$0"
    assert getitem["result"]["offset"] == 2
    assert row.data_ptr() == t.data_ptr() + 2 * 8


def test_large_tensors_record_no_values():
    big = torch.zeros(1000, 1000)
    with record() as tr:
        with span(StepSpec("step", Layer.KERNEL), tensor=big):
            pass
    summary = tr.to_dict()["statements"][0]["events"][0]["args"]["tensor"]
    assert "values" not in summary and summary["numel"] == 10**6


def test_no_recorder_means_the_shared_null_span():
    assert span(StepSpec("x", Layer.PYTHON), a=1) is _NULL
    with span(StepSpec("x", Layer.PYTHON)) as s:
        s.set_result(1)
        s.set(a=2)


def test_the_recorded_version_is_the_installed_one():
    # the document's "tidx" field is read from tracer/version.py (no importlib.metadata
    # at start-up); pyproject takes its version from there, so they cannot drift
    from importlib.metadata import version

    from tracer.version import __version__
    assert __version__ == version("tidx")
