"""The evaluator's allow-list: what a statement may contain, checked before anything runs."""

from __future__ import annotations

import pytest

from engine.interpreter import session
from engine.core.errors import Refused
from engine.interpreter.statements import parse


@pytest.mark.parametrize("text", [
    "try:\n    t[5]\nexcept IndexError as e:\n    import os\n",
    "try:\n    t[5]\n    t[6]\nexcept IndexError as e:\n    print(e)\n",
    "try:\n    t[5]\nexcept OSError as e:\n    print(e)\n",
    "try:\n    t[5]\nexcept IndexError as e:\n    print(e)\nfinally:\n    pass\n",
    "try:\n    t[5]\nexcept IndexError as e:\n    print(e.args)\n",
])
def test_only_the_lesson_try_form_is_accepted(text):
    with pytest.raises(Refused):
        parse(text)


def test_a_caught_error_is_recorded_and_the_run_goes_on():
    doc = session.run("try:\n    t[5]\nexcept IndexError as e:\n    print(e)\ny = t[0]\n")
    first, second = doc["statements"]
    assert first["error"] == {"type": "IndexError", "caught": True,
                              "message": "index 5 is out of bounds for dimension 0 with size 3"}
    assert first["printed"] == ["index 5 is out of bounds for dimension 0 with size 3"]
    assert second["error"] is None and second["bindings"]["y"]["summary"]["values"] == [1, 2, 3]


def test_an_error_of_another_class_still_stops_the_run():
    doc = session.run("try:\n    t[5]\nexcept RuntimeError as e:\n    print(e)\ny = t[0]\n")
    assert len(doc["statements"]) == 1
    assert doc["statements"][0]["error"]["type"] == "IndexError"
    assert "caught" not in doc["statements"][0]["error"]


@pytest.mark.parametrize("text, expected", [
    ("torch.ad(t, 1)", "torch.ad is not available in tidx (did you mean torch.add? tidx runs "),
    ("t.sum1()", "Tensor.sum1 is not available in tidx (did you mean Tensor.sum? tidx runs "),
    ("torch.fft(t)", "torch.fft is not available in tidx (tidx runs "),
])
def test_an_unknown_name_is_one_short_line_with_the_closest_names(text, expected):
    """Not the list of hundreds of names it once was: a typo gets its likely fix."""
    with pytest.raises(Refused) as info:
        session.run(text)
    message = str(info.value)
    assert message.startswith(expected) and len(message) < 110 and "\n" not in message


@pytest.mark.parametrize("text", ["torch.zeros", "t.sum"])
def test_a_function_left_uncalled_is_refused_in_one_line(text):
    """Not an internal error (it once was called with no arguments to be drawn).  Bound
    to a name (``y = torch.zeros``) it is a name for the function, as in Python
    (tests/interpreter/test_python_builtins_torch.py)."""
    with pytest.raises(Refused, match=r"is a function; call it to run it"):
        session.run(text)
