"""add, sub, mul, div, the comparisons (eq, ne, lt, le, gt, ge), maximum/minimum,
bitwise_and/or/xor/not, remainder and fmod as torch declares them: structured groups (``add.out`` is
``structured: True``, ``add.Tensor`` and ``add_.Tensor`` its ``structured_delegate``s),
one kernel each in engine/ops/arithmetic.py.  The functional and in-place forms trace as
they did before the groups (their byte-identical traces were compared when converted);
the out= forms, refused until then, are compared with torch 2.13 here: values, layout,
errors word for word and the aten operators torch.profiler records (one per form)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from engine.dispatch.declarations import FUNCTIONAL, INPLACE, OUT, REGISTRY
from oracle import assert_like_torch, call, forms

pytestmark = pytest.mark.torch

F = "t = torch.tensor([[1., -2., 3.], [4., -5., 6.]]); "
I = "t = torch.tensor([7, -7, 3]); "


@pytest.mark.parametrize("statements", [
    F + "o = torch.empty(0); y = torch.add(t, 1, out=o)",
    F + "o = torch.empty(0); y = torch.add(t, t, alpha=2, out=o)",
    F + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.add(t, 1, out=o)",
    F + "o = torch.empty(3, 2).t(); y = torch.mul(t, t, out=o)",
    F + "o = torch.empty(5); y = torch.sub(t, 1, out=o)",
    F + "o = torch.empty(0, dtype=torch.long); y = torch.add(t, 1, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.add(t, 2.5, out=o)",
    I + "o = torch.empty(3); y = torch.mul(t, 2, out=o)",
    I + "o = torch.empty(0); y = torch.div(t, 2, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.div(t, 2, out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.div(t, torch.tensor(2), "
        "rounding_mode='floor', out=o)",
    I + "o = torch.empty(3); y = torch.div(t, torch.tensor([2, 1, 2]), rounding_mode='trunc', "
        "out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.div(t, torch.tensor([2, 0, 2]), "
        "rounding_mode='trunc', out=o)",
    "t = torch.tensor([True]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.sub(t, t, out=o)",
    "t = torch.tensor([True]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.div(t, t, rounding_mode='floor', out=o)",
    F + "y = torch.add(t, 1, out=t)",
    F + "y = torch.mul(t, t[0], out=t)",
    F + "o = torch.empty(0); y = torch.multiply(t, t, out=o)",
    F + "o = torch.empty(0); y = torch.divide(t, 2, rounding_mode='floor', out=o)",
    F + "o = torch.empty(0); y = torch.subtract(t, t, alpha=3, out=o)",
    F + "o = torch.empty(0); y = torch.add(t, 2, t, out=o)",      # deprecated.yaml's form
    F + "o = torch.empty(0); y = torch.add(t, torch.ones(4), out=o)",
    F + "o = torch.empty(2); y = torch.add(t, t, alpha=True, out=o)",
])
def test_out_forms_are_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "t"))


@pytest.mark.parametrize("statements", [
    I + "o = torch.empty(0); y = torch.mul(t, 2, out=o)",
    I + "o = torch.empty(5, dtype=torch.float64); y = torch.add(t, t, out=o)",
    I + "o = torch.empty(2, 2); y = torch.floor_divide(t, 2, out=o)",
    I + "o = torch.empty(0, dtype=torch.int16); y = torch.sub(t, 1, out=o)",
])
def test_an_out_of_another_dtype_and_shape_is_torchs(statements):
    """TensorIterator's temporary in the common dtype, made with the out= tensor's old
    shape, is resized as the out= tensor is (a structured kernel resizes the out= tensor
    first; floor_divide's resize_as_ after the loop), then copied back."""
    assert_like_torch(statements, names=("y", "o"), uninitialised=("o",))
    assert_like_torch(statements, names=("y",))


@given(form=forms(), which=st.sampled_from(["add", "sub", "mul", "div"]),
       dtype=st.sampled_from(["float32", "float64", "int64", "int16", "uint8"]),
       other=st.sampled_from(["tensor", "scalar", "row"]),
       mode=st.sampled_from([None, "trunc", "floor"]),
       values=st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.0, 0.5, 3.0, 7.0]), min_size=0,
                       max_size=6))
@settings(max_examples=examples(80), deadline=None)
def test_every_form_of_the_binary_groups_is_torchs(form, which, dtype, other, mode, values):
    def program(lib):
        t = lib.tensor(values, dtype=lib.float64).to(getattr(lib, dtype))
        o = {"tensor": (t * 2 + 3).abs() + 1, "scalar": 3,
             "row": lib.tensor(4.0, dtype=t.dtype)}[other]
        kwargs = {"rounding_mode": mode} if which == "div" and mode else {}
        return call(lib, form, which, t, o, **kwargs)
    assert_like_torch(program)


@pytest.mark.parametrize("statements", [
    F + "o = torch.empty(0, dtype=torch.bool); y = torch.gt(t, 2, out=o)",
    F + "o = torch.empty(2, 3); y = torch.eq(t, t[0], out=o)",
    F + "o = torch.empty(2, 3, dtype=torch.long); y = torch.le(t, 0.5, out=o)",
    F + "o = torch.empty(0); y = torch.ne(t, torch.tensor(4.), out=o)",
    F + "o = torch.empty(3, 2, dtype=torch.bool).t(); y = torch.lt(t, t.flip(0), out=o)",
    F + "y = torch.ge(t, 0, out=t)",
    I + "o = torch.empty(0, dtype=torch.bool); y = torch.eq(t, 'x', out=o)",
    F + "o = torch.empty(0); y = torch.maximum(t, t.flip(1), out=o)",
    F + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.minimum(t, t[1], out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.maximum(t, torch.tensor(0.5), out=o)",
    F + "y = torch.maximum(t, torch.ones(4), out=t)",
    F + "o = torch.empty(0, dtype=torch.bool); y = torch.greater(t, 1, out=o)",
])
def test_comparison_and_extreme_out_forms_are_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "t"))


@given(form=forms(), which=st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge"]),
       dtype=st.sampled_from(["float32", "float64", "int64", "uint8", "bool"]),
       other=st.sampled_from(["tensor", "scalar", "zero-dim"]),
       values=st.lists(st.sampled_from([0.0, 1.0, -2.0, 0.5, 3.0, float("nan")]),
                       max_size=6))
@settings(max_examples=examples(80), deadline=None)
def test_every_form_of_the_comparisons_is_torchs(form, which, dtype, other, values):
    def program(lib):
        t = lib.tensor(values, dtype=lib.float64).to(getattr(lib, dtype))
        o = {"tensor": t.flip(0), "scalar": 1, "zero-dim": lib.tensor(0.5)}[other]
        return call(lib, form, which, t, o)
    # an integer out= of size 0 and a float common dtype: the refusal tested above
    assert_like_torch(program, refused=True)


@given(form=forms("function", "method", "out"), which=st.sampled_from(["maximum", "minimum"]),
       dtype=st.sampled_from(["float32", "int64", "bool", "float16"]),
       values=st.lists(st.sampled_from([1.0, -2.0, 0.5, 3.0, float("nan")]), max_size=6))
@settings(max_examples=examples(60), deadline=None)
def test_every_form_of_maximum_and_minimum_is_torchs(form, which, dtype, values):
    def program(lib):
        t = lib.tensor(values, dtype=lib.float64).to(getattr(lib, dtype))
        return call(lib, form, which, t, t.flip(0))
    assert_like_torch(program)


@pytest.mark.parametrize("statements", [
    I + "o = torch.empty(0, dtype=torch.long); y = torch.bitwise_and(t, torch.tensor(6), out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.bitwise_xor(t, t.flip(0), out=o)",
    I + "o = torch.empty(3); y = torch.bitwise_or(t, t, out=o)",
    I + "o = torch.empty(3, dtype=torch.int8); y = torch.bitwise_or(t, t, out=o)",
    F + "o = torch.empty(0); y = torch.bitwise_and(t, t, out=o)",
    "t = torch.tensor([True, False]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.bitwise_or(t, t.flip(0), out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.bitwise_not(t, out=o)",
    I + "o = torch.empty(0, dtype=torch.int16); y = torch.bitwise_not(t, out=o)",
    F + "o = torch.empty(0); y = torch.bitwise_not(t, out=o)",
    I + "y = torch.bitwise_not(t, out=t)",
    F + "o = torch.empty(0); y = torch.remainder(t, torch.tensor(2.5), out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.remainder(t, torch.tensor([2, -3, 0]), "
        "out=o)",
    F + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.fmod(t, t.flip(1), out=o)",
    I + "o = torch.empty(0, dtype=torch.long); y = torch.fmod(t, torch.tensor(-2), out=o)",
    "t = torch.tensor([True]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.fmod(t, t, out=o)",
])
def test_bitwise_remainder_fmod_out_forms_are_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y", "t"))


@given(form=forms(), which=st.sampled_from(["bitwise_and", "bitwise_or", "bitwise_xor",
                                            "remainder", "fmod"]),
       dtype=st.sampled_from(["int64", "int16", "uint8", "bool", "float32"]),
       values=st.lists(st.integers(-5, 9), max_size=6))
@settings(max_examples=examples(60), deadline=None)
def test_every_form_of_the_bitwise_and_modulo_groups_is_torchs(form, which, dtype, values):
    def program(lib):
        t = lib.tensor(values, dtype=lib.int64).to(getattr(lib, dtype))
        return call(lib, form, which, t, (t.flip(0) if len(values) else t) * 0 + 3)
    assert_like_torch(program)


@given(form=forms(), dtype=st.sampled_from(["int64", "uint8", "bool", "float32"]),
       values=st.lists(st.integers(-5, 9), max_size=6))
@settings(max_examples=examples(30), deadline=None)
def test_every_form_of_bitwise_not_is_torchs(form, dtype, values):
    def program(lib):
        return call(lib, form, "bitwise_not", lib.tensor(values).to(getattr(lib, dtype)))
    assert_like_torch(program)


def test_one_kernel_declares_the_three_forms_of_each():
    for functional, inplace, out in (("add.Tensor", "add_.Tensor", "add.out"),
                                     ("sub.Tensor", "sub_.Tensor", "sub.out"),
                                     ("mul.Tensor", "mul_.Tensor", "mul.out"),
                                     ("div.Tensor", "div_.Tensor", "div.out"),
                                     ("div.Tensor_mode", "div_.Tensor_mode", "div.out_mode"),
                                     ("eq.Tensor", "eq_.Tensor", "eq.Tensor_out"),
                                     ("ge.Scalar", "ge_.Scalar", "ge.Scalar_out"),
                                     ("bitwise_and.Tensor", "bitwise_and_.Tensor",
                                      "bitwise_and.Tensor_out"),
                                     ("bitwise_not", "bitwise_not_", "bitwise_not.out"),
                                     ("fmod.Tensor", "fmod_.Tensor", "fmod.Tensor_out")):
        decls = [REGISTRY[f"aten::{n}"] for n in (functional, inplace, out)]
        assert [d.kind for d in decls] == [FUNCTIONAL, INPLACE, OUT]
        assert decls[2].structured and all(d.modelled for d in decls)
        # the three forms run one kernel
        assert len({getattr(d.kernel, "structured_impl", (None,))[0] for d in decls}) == 1
