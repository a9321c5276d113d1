"""Structured operator groups (engine.dispatch.declarations.structured), torchgen's
``structured_delegate``: one kernel declares the out= overload and generates the
functional and in-place ones.  The clamp family is one: every form is compared with
torch 2.13 (values, layout, errors, the aten operators torch.profiler records: one per
form, never an out= call nested in the functional one)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.dispatch.declarations import INPLACE, OUT, FUNCTIONAL, REGISTRY, _delegate_schemas
from oracle import assert_like_torch, call, forms

pytestmark = pytest.mark.torch

F = "t = torch.tensor([[1., -2., 3.], [4., -5., 6.]]); "
I = "t = torch.tensor([1, -2, 3]); "


@pytest.mark.parametrize("statements", [
    F + "o = torch.empty(0); y = torch.clamp(t, 0, out=o)",
    F + "o = torch.empty(0); y = torch.clamp(t, max=2., out=o)",
    F + "o = torch.empty(2, 3); y = torch.clamp_min(t, 1, out=o)",
    F + "o = torch.empty(2, 3); y = torch.clamp_max(t, 1, out=o)",
    F + "o = torch.empty(3, 2).t(); y = torch.clamp(t, -1, 1, out=o)",
    F + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.clamp(t, 0, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.clamp(t, 0, out=o)",
    I + "o = torch.empty(0); y = torch.clamp(t, 0, out=o)",
    I + "o = torch.empty(0); y = torch.clamp(t, 0.5, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.clamp(t, 0.5, out=o)",
    F + "y = torch.clamp(t, 0, out=t)",
    F + "o = torch.empty(0); y = torch.clamp(t, out=o)",
    F + "o = torch.empty(0); y = torch.clamp(t, torch.tensor(0.), torch.tensor([1., 2., 2.]), "
        "out=o)",
    F + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.clamp(t, min=torch.tensor(0.), "
        "out=o)",
    F + "o = torch.empty(0, dtype=torch.long); y = torch.clamp(t, min=torch.tensor(0.), out=o)",
    F + "o = torch.empty(0); y = torch.clamp_min(t, torch.tensor([0., 1., -9.]), out=o)",
    F + "o = torch.empty(0); y = torch.clamp_max(t, torch.tensor(0.), out=o)",
    "t = torch.tensor([True, False]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.clamp(t, torch.tensor(True), torch.tensor(False), out=o)",
    "t = torch.tensor([True, False]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.clamp(t, 0, 1, out=o)",
])
def test_clamp_out_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "t"))


def test_an_out_of_another_dtype_and_shape_is_torchs():
    """torch resizes a temporary and the out= both."""
    statements = (F + "o = torch.empty(0, dtype=torch.float64); "
                  "y = torch.clamp(t, min=torch.tensor(0.), out=o)")
    assert_like_torch(statements, names=("y", "o"))


@given(form=forms(), which=st.sampled_from(["clamp", "clamp_min", "clamp_max"]),
       dtype=st.sampled_from(["float32", "float64", "int64", "int32", "uint8", "float16"]),
       tensor_bound=st.booleans(), lo=st.integers(-3, 3), width=st.integers(0, 4),
       shape=st.sampled_from([(3,), (2, 3), (0,), ()]))
@settings(max_examples=examples(60), deadline=None)
def test_every_form_of_the_clamp_group_is_torchs(form, which, dtype, tensor_bound, lo, width,
                                                 shape):
    def program(lib):
        t = (lib.arange(6, dtype=lib.float64) - 2.5).reshape(2, 3)
        t = (t if shape == (2, 3) else t.reshape(-1)[:3] if shape == (3,) else
             t.reshape(-1)[:0] if shape == (0,) else t[0, 0]).to(getattr(lib, dtype))
        bounds = (lo, lo + width)
        if tensor_bound:
            bounds = tuple(lib.tensor(float(b)).to(t.dtype) for b in bounds)
        args = {"clamp": bounds, "clamp_min": bounds[:1], "clamp_max": bounds[1:]}[which]
        return call(lib, form, which, t, *args)
    assert_like_torch(program)


def test_one_kernel_declares_the_three_forms():
    """The out= kernel's declaration and the two torchgen derives from it, each with the
    group's facts; the yaml's schemas are checked for every declaration elsewhere."""
    for name in ("aten::clamp", "aten::clamp.Tensor", "aten::clamp_min", "aten::clamp_max.Tensor"):
        functional = REGISTRY[name]
        out_name = name + ("_out" if "." in name else ".out")
        inplace_name = name.replace(".", "_.") if "." in name else name + "_"
        forms_ = [REGISTRY[n] for n in (name, inplace_name, out_name)]
        assert [d.kind for d in forms_] == [FUNCTIONAL, INPLACE, OUT]
        assert all(d.structured and d.meta == functional.meta for d in forms_)
        assert forms_[1].device_check == functional.device_check
        assert _delegate_schemas(forms_[2].schema) == (forms_[0].schema, forms_[1].schema)


# -- the unary family: neg, sign, reciprocal ----------------------------------------------------
@pytest.mark.parametrize("statements", [
    F + "o = torch.empty(0); y = torch.neg(t, out=o)",
    F + "o = torch.empty(3, 2).t(); y = torch.sign(t, out=o)",
    F + "o = torch.empty(5); y = torch.reciprocal(t, out=o)",
    I + "o = torch.empty(0); y = torch.reciprocal(t, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.reciprocal(t, out=o)",
    I + "o = torch.empty(0); y = torch.neg(t, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.sign(t, out=o)",
    "t = torch.tensor([True]); o = torch.empty(0, dtype=torch.bool); y = torch.neg(t, out=o)",
    F + "y = torch.neg(t, out=t)",
])
def test_unary_out_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "t"))


@given(form=forms(), which=st.sampled_from(["neg", "sign", "reciprocal"]),
       dtype=st.sampled_from(["float32", "float64", "int64", "int16", "float16", "bool"]),
       values=st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.0, 0.5, float("nan"),
                                        float("inf"), 7.0]), max_size=6))
@settings(max_examples=examples(60), deadline=None)
def test_every_form_of_the_unary_groups_is_torchs(form, which, dtype, values):
    def program(lib):
        t = lib.tensor(values, dtype=lib.float64).to(getattr(lib, dtype))
        return call(lib, form, which, t)
    assert_like_torch(program)
