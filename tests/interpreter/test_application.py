"""The application layer every front end shares: one checked Options value, and run(),
which may go on in one Session from call to call as a notebook's cells go on."""

from __future__ import annotations

import pytest

from engine.core import capability
from engine.interpreter import application as A
from tracer import i18n
from tracer.options import CAPABILITIES, OptionError, Options

from conftest import require_torch


# -- Options: checked once, errors name the option and the value ---------------------------

@pytest.mark.parametrize("kwargs, option, value", [
    ({"seed": 2**64}, "--seed", str(2**64)),
    ({"seed": "3"}, "--seed", "'3'"),
    ({"max_bytes": "lots"}, "--max-bytes", "'lots'"),
    ({"max_bytes": "0.1b"}, "--max-bytes", "'0.1b'"),
    ({"cpu_capability": "sse"}, "--cpu-capability", "'sse'"),
    ({"lang": "fr"}, "--lang", "'fr'"),
    ({"layers": "python,cuda"}, "--layers", "cuda"),
    ({"depth": 0}, "--depth", "0"),
    ({"width": 5}, "--width", "5"),
    ({"format": "pptx"}, "--format", "'pptx'"),
    ({"diagram": "flow"}, "--diagram", "'flow'"),
    ({"full": "yes"}, "--full", "'yes'"),
])
def test_a_wrong_option_is_refused_naming_the_option_and_the_value(kwargs, option, value):
    with pytest.raises(OptionError) as caught:
        Options(**kwargs)
    assert caught.value.option == option
    assert str(caught.value).startswith(f"{option}: ")
    assert value in str(caught.value)


def test_options_read_sizes_and_layer_lists_once():
    o = Options(max_bytes="512MiB", layers="kernel, python")
    assert o.max_bytes == 512 * 2**20
    assert o.layers == ("python", "kernel")      # the trace's order, as filters keep them
    assert Options(layers=o.layers) == o.__class__(layers=["python", "kernel"])


def test_the_option_choices_are_the_engine_and_tracer_ones():
    # Options sits in the tracer, which imports nothing of the engine: held here instead
    assert set(CAPABILITIES) == set(capability.ENV_VALUES)
    from tracer.options import LANGS
    assert LANGS == i18n.LANGS


# -- run(): a new Session, or the next cell of one -----------------------------------------

def test_run_without_a_session_is_a_fresh_run_each_time():
    first = A.run("mine = torch.arange(3)", Options(seed=0))
    assert [st["source"] for st in first["statements"]] == ["mine = torch.arange(3)"]
    with pytest.raises(A.Refused, match="mine"):
        A.run("y = mine + 1", Options(seed=0))


def test_a_session_goes_on_from_cell_to_cell_as_python_does():
    session = A.new_session(Options(seed=0))
    A.run("mine = torch.arange(6)", Options(), session)
    doc = A.run("y = mine[1:]\nprint(y)", Options(), session)
    # the document is the cell's own statements, and they saw the earlier cell's names
    assert [st["source"] for st in doc["statements"]] == ["y = mine[1:]", "print(y)"]
    assert all(st["error"] is None for st in doc["statements"])
    assert doc["statements"][1]["printed"] == ["tensor([1, 2, 3, 4, 5])"]


def test_an_error_stops_its_own_cell_not_the_next():
    session = A.new_session(Options(seed=0))
    doc = A.run("x = torch.arange(3)\nx[5]\nz = 1", Options(), session)
    assert [st["source"] for st in doc["statements"]] == ["x = torch.arange(3)", "x[5]"]
    assert doc["statements"][1]["error"]["type"] == "IndexError"
    again = A.run("print(x)", Options(), session)
    assert again["statements"][0]["error"] is None


def test_the_generator_goes_on_across_cells_and_a_seed_restarts_it_as_torch():
    torch = require_torch()
    torch.manual_seed(7)
    want = [repr(torch.randn(2)), repr(torch.randn(2))]
    torch.manual_seed(7)
    want.append(repr(torch.randn(2)))

    session = A.new_session(Options(seed=7))
    got = [A.run("print(torch.randn(2))", Options(), session)["statements"][0]["printed"][0],
           A.run("print(torch.randn(2))", Options(), session)["statements"][0]["printed"][0],
           A.run("print(torch.randn(2))", Options(seed=7), session)
           ["statements"][0]["printed"][0]]
    assert got == want


def test_a_session_keeps_the_cpu_capability_it_chose():
    session = A.new_session(Options(cpu_capability="default"))
    with pytest.raises(A.Refused, match="new session"):
        A.run("t[1, 2] = 3", Options(cpu_capability="avx512"), session)
    assert A.run("t[1, 2] = 3", Options(cpu_capability="default"), session)["statements"]


def test_every_option_reaches_options_from_the_command_line():
    # what click parsed for explain, every value other than its default: each lands in
    # its own field of Options (a field no front end can set would be dead)
    from dataclasses import fields

    from tracer.click_options import options_from
    parsed = {"seed": 1, "max_bytes": 4096, "cpu_capability": "avx2", "lang": "zh",
              "layers": ("kernel",), "depth": 2, "ops_only": True, "no_values": True,
              "full": True, "diagram": "calls", "fmt": "json", "width": 90,
              "no_notes": True, "verify": True}
    got, default = options_from(parsed), Options()
    assert [f.name for f in fields(Options)
            if getattr(got, f.name) == getattr(default, f.name)] == []
