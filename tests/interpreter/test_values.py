"""Typed values (tracer/values.py): every kind survives JSON and prints as Python does.

Each kind is made from a real value (a Python value, or the engine object whose
``__tidx_summary__`` describes it), written as JSON and read back, then printed with
:func:`tracer.values.text`; where torch has the same value, its ``repr`` is the oracle.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import engine
from engine.binding.tensor import unpack
from conftest import require_torch
from engine.binding import options
from engine.core.device import Size, device
from engine.memory.allocator import new_storage
from engine.indexing.tensor_indexing import Slice, TensorIndex
from engine.ops.pointwise import Wrapped
from engine.ops.touch import elements, touched
from engine.pypto import index_select as pypto
from tracer.steps import Layer, StepSpec
from tracer import record, span
from tracer import values as V


def labels(kind: str, serial: int) -> tuple[str, bool]:
    return V.label(kind, serial), False


def roundtrip(value, max_values: int = V.MAX_ITEMS) -> dict:
    """value -> typed value -> JSON text -> typed value."""
    typed = V.typed(value, labels, max_values)
    back = json.loads(json.dumps(typed, allow_nan=False))
    assert back == typed
    return back


# -- Python's own values, against torch's repr where torch has them -----------------------
PYTHON = [
    ("none", None, "None"),
    ("bool", True, "True"),
    ("int", 7, "7"),
    ("float", 0.25, "0.25"),
    ("str", "cpu", "'cpu'"),
    ("tuple", (4, 1), "(4, 1)"),
    ("tuple", (3,), "(3,)"),
    ("tuple", (), "()"),
    ("list", [[1, 2], [3]], "[[1, 2], [3]]"),
    ("dict", {"dtype": None, "n": 2}, "{'dtype': None, 'n': 2}"),
]


@pytest.mark.parametrize("kind, value, shown", PYTHON)
def test_python_values(kind, value, shown):
    typed = roundtrip(value)
    assert typed["kind"] == kind
    assert V.text(typed) == shown == repr(value)
    assert V.plain(typed) == value


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_floats_are_strings_in_json(value):
    typed = roundtrip(value)
    assert typed == {"kind": "float", "value": repr(value)}
    assert V.text(typed) == repr(value)


def test_lists_and_strings_are_bounded():
    typed = roundtrip(list(range(100)))
    assert len(typed["items"]) == V.MAX_ITEMS and typed["more"] == 100 - V.MAX_ITEMS
    assert V.text(typed).endswith(", 63, ...]")
    long = roundtrip("x" * (V.MAX_STR + 5))
    assert len(long["value"]) == V.MAX_STR and long["more"] == 5


# -- torch's small value types: the engine's hooks -------------------------------------------
def test_size_dtype_device_memory_format_print_as_torch_does():
    torch = require_torch()
    cases = [(Size([3, 3]), torch.Size([3, 3]), "size"),
             (engine.int64, torch.int64, "dtype"),
             (device("cpu"), torch.device("cpu"), "device"),
             (device("meta"), torch.device("meta"), "device"),
             (options.contiguous_format, torch.contiguous_format, "memory_format")]
    for ours, theirs, kind in cases:
        typed = roundtrip(ours)
        assert typed["kind"] == kind
        assert V.text(typed) == repr(theirs) == repr(ours)
    assert roundtrip(engine.float32)["short"] == "f32"


# -- the engine's objects -----------------------------------------------------------------------
def test_tensor_labels_and_values():
    torch = require_torch()
    t = engine.tensor([[1.5, -0.25], [2.0, 3.0]])
    typed = roundtrip(t)
    assert typed["kind"] == "tensor" and typed["label"].startswith("t$")
    assert "name" not in typed and V.shown(typed) == typed["label"]
    assert V.shown(V.with_name(typed, "y")) == "y"
    assert typed["values"] == [[1.5, -0.25], [2.0, 3.0]]
    # one line, with torch's own element format
    theirs = repr(torch.tensor([[1.5, -0.25], [2.0, 3.0]]))
    assert V.text(typed) == re.sub(r",\n\s+", ", ", theirs)
    for value in ([1, 2, 3], [True, False], [1.0, 2.0]):
        assert V.text(roundtrip(engine.tensor(value))) == repr(torch.tensor(value))
    ints = engine.tensor([1, 2], dtype=engine.int32)
    assert V.text(roundtrip(ints)) == repr(torch.tensor([1, 2], dtype=torch.int32))


TENSORS = ["torch.tensor(3)", "torch.tensor(2.5)", "torch.tensor([[-1, 10], [3, 4]])",
           "torch.tensor([], dtype=torch.int64)", "torch.tensor([])", "torch.zeros(0, 3)",
           "torch.zeros(0, 3, dtype=torch.int64)", "torch.tensor([], dtype=torch.bool)",
           "torch.tensor([float('nan'), 1.0])", "torch.tensor([float('nan'), 1.5])",
           "torch.tensor([float('-inf'), 2.0])", "torch.tensor([1e-7, 1.0])",
           "torch.tensor([1e10, 1.0])", "torch.tensor([100.0, 2.0])",
           "torch.tensor([1, 2], dtype=torch.uint8)", "torch.tensor([0.0, 0.0])",
           "torch.tensor([1.5], dtype=torch.float64)", "torch.empty(2, 3, device='meta')"]


@pytest.mark.parametrize("source", TENSORS)
def test_tensor_text_is_torchs_repr_on_one_line(source):
    torch = require_torch()
    theirs = re.sub(r",\n\s+", ", ", repr(eval(source, {"torch": torch})))  # noqa: S307
    assert V.text(roundtrip(eval(source, {"torch": engine}))) == theirs  # noqa: S307


def test_a_large_tensor_records_no_values():
    typed = roundtrip(engine.zeros(100, 100))
    assert "values" not in typed and V.text(typed) == "tensor(..., size=(100, 100))"


def test_the_recorder_says_which_labels_are_the_users_names():
    t, u = engine.tensor([1, 2]), engine.tensor([3])
    with record() as tr:
        tr.name_value(t, "t")
        with span(StepSpec("step", Layer.KERNEL), a=t, b=u):
            pass
    args = tr.to_dict()["statements"][0]["events"][0]["args"]
    assert args["a"]["name"] == "t" and args["a"]["label"] == "t"
    assert "name" not in args["b"] and args["b"]["label"] == "t$0"
    assert [V.shown(x) for x in sorted(args.values(), key=V.order)] == ["t", "t$0"]


def test_storage():
    torch = require_torch()
    typed = roundtrip(new_storage(72, "cpu"))
    assert typed == {"kind": "storage", "label": typed["label"], "nbytes": 72, "device": "cpu"}
    # the last line of what torch prints for a storage
    theirs = repr(torch.zeros(9, dtype=torch.int64).untyped_storage()).splitlines()[-1]
    assert V.text(typed) == theirs
    # tensor.untyped_storage() is a handle: the trace shows the storage itself
    handle = roundtrip(engine.tensor([1, 2, 3]).untyped_storage())
    assert handle["kind"] == "storage" and handle["nbytes"] == 24


def test_tensor_index_holds_a_typed_value():
    integer = roundtrip(TensorIndex("Integer", 1))
    assert integer["value"] == {"kind": "int", "value": 1}
    assert V.text(integer) == "TensorIndex(1)"
    index = engine.tensor([0, 2])
    tensor = roundtrip(TensorIndex("Tensor", unpack(index)))
    assert V.is_tensor(tensor["value"]) and list(V.tensors(tensor)) == [tensor["value"]]
    sliced = roundtrip(TensorIndex("Slice", Slice(1, 3, 1)))
    assert sliced["value"] == {"kind": "str", "value": "1:3:1"}
    assert V.text(sliced) == "Slice(1, 3, 1)"
    assert roundtrip(TensorIndex("None"))["value"] == {"kind": "none"}


def test_scalar_is_a_wrapped_python_number():
    typed = roundtrip(Wrapped(2.5))
    assert typed == {"kind": "scalar", "value": 2.5, "dtype": "f64"}
    assert V.text(typed) == "2.5"


def test_elements_a_kernel_touched():
    t = engine.tensor([[1, 2, 3], [4, 5, 6]])
    typed = roundtrip(touched(unpack(t[:, 1])))
    assert typed["kind"] == "elements" and typed["count"] == 2 and typed["offsets"] == [1, 4]
    assert V.text(typed) == f"{typed['storage']} elements [1, 4]"
    many = roundtrip(elements(unpack(t).storage, np.arange(100)))
    assert "offsets" not in many and V.text(many) == f"{many['storage']}: 100 elements"


def test_pypto_tensor():
    x = pypto.tensor([2, 2], pypto.DT_FP32, data=[[1.0, 2.0], [3.0, 4.0]])
    typed = roundtrip(x)
    assert typed["kind"] == "pypto_tensor" and typed["values"] == [1.0, 2.0, 3.0, 4.0]
    assert V.text(typed) == repr(x)


def test_anything_else_is_a_bounded_repr():
    class Thing:
        def __repr__(self) -> str:
            return "T" * 500

    typed = roundtrip(Thing())
    assert typed["kind"] == "object" and typed["type"] == "Thing"
    assert len(typed["repr"]) == V.MAX_REPR and V.text(typed) == typed["repr"]


def test_tensors_are_found_inside_containers():
    a, b = engine.tensor([1]), engine.tensor([2])
    typed = roundtrip({"pair": (a, [b, 3])})
    assert [t["values"] for t in V.tensors(typed)] == [[1], [2]]
    assert V.text(typed).startswith("{'pair': (tensor([1]), [tensor([2]), 3])")


@pytest.mark.torch
def test_a_named_tuple_prints_as_torch_return_types():
    """torch.return_types.max: a tuple with field names, printed one field a line, in the
    trace (kind tuple, its name and fields) as Python prints torch's."""
    torch = require_torch()
    from engine.binding.return_types import return_type
    ours = return_type("max", ("values", "indices"))(
        (engine.tensor([3, 5]), engine.tensor([1, 0])))
    theirs = torch.tensor([[1, 5], [3, 2]]).max(0)
    assert repr(ours) == repr(theirs) and str([ours]) == str([theirs])
    assert ours.indices is ours[1] and isinstance(ours, tuple)
    value = V.typed(ours, lambda kind, serial: (f"{kind}{serial}", False))
    assert value["name"] == "torch.return_types.max"
    assert value["fields"] == ["values", "indices"]
    assert V.text(json.loads(json.dumps(value))) == repr(theirs)
    assert V.plain(value)[0] is not None and len(V.plain(value)) == 2


def test_a_function_is_recorded_as_an_object_not_a_string():
    """Alone or inside a list, a function prints as Python prints it in every view (no
    quotes, no address that changes from run to run), and is typed as Python types it."""
    from engine.interpreter.session import Session
    from tracer import values as V

    doc = Session().run("tensor = torch.tensor\ndef f(i):\n    return i\ny = [f, tensor, int]")
    y = doc["statements"][-1]["bindings"]["y"]["summary"]
    assert [item["type"] for item in y["items"]] == ["function", "builtin_function_or_method",
                                                     "type"]
    assert V.text(y) == "[<function f>, <built-in method tensor of type object>, <class 'int'>]"
    assert V.text(doc["statements"][0]["bindings"]["tensor"]["summary"]) == \
        "<built-in method tensor of type object>"
