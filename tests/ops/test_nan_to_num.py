"""torch.nan_to_num (torch.nan_to_num, Tensor.nan_to_num, nan_to_num_, out=; nan, posinf,
neginf) in engine/ops/unary.py, compared with torch 2.13: values bit for bit, layout,
errors word for word, and the aten operators torch.profiler records (the functional and
in-place forms are CompositeExplicitAutograd kernels that call the out= one:
``aten::nan_to_num > aten::empty_like, aten::nan_to_num``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples
from oracle import assert_like_torch, call, forms

pytestmark = pytest.mark.torch

T = ("t = torch.tensor([[float('nan'), float('inf'), -float('inf')], [1.5, -0.0, 3e38]]); ")


@pytest.mark.parametrize("statements", [
    T + "y = torch.nan_to_num(t)",
    T + "y = t.nan_to_num(1., 2., -2.)",
    T + "y = t.nan_to_num(posinf=9.)",
    T + "y = t.nan_to_num(neginf=1e300)",
    T + "y = t.nan_to_num_(nan=-1.)",
    T + "y = torch.nan_to_num_(t, 0.5)",
    T + "o = torch.empty(0); y = torch.nan_to_num(t, out=o)",
    T + "o = torch.empty(3, 2).t(); y = torch.nan_to_num(t, 7., out=o)",
    T + "o = torch.empty(5); y = torch.nan_to_num(t, out=o)",
    T + "y = torch.nan_to_num(t.t())",
    T + "y = torch.nan_to_num(t.double(), posinf=1e300)",
    T + "y = torch.nan_to_num(t.half())",
    T + "y = torch.nan_to_num(t.half(), nan=1e5, neginf=-70000.)",
    T + "y = torch.nan_to_num(t[:, ::2])",
    "i = torch.tensor([1, 2, 3]); y = torch.nan_to_num(i)",
    "i = torch.tensor([1, 2, 3]); y = i.nan_to_num_(5.)",
    "i = torch.tensor([True, False]); o = torch.empty(0, dtype=torch.bool); "
    "y = torch.nan_to_num(i, out=o)",
    "i = torch.tensor([1, 2, 3]); o = torch.empty(2, 2, dtype=torch.long); "
    "y = torch.nan_to_num(i, out=o)",
    # the out= tensor must have the input's dtype
    T + "o = torch.empty(0, dtype=torch.float64); y = torch.nan_to_num(t, out=o)",
    "i = torch.tensor([1, 2]); o = torch.empty(0); y = torch.nan_to_num(i, out=o)",
    T + "y = torch.nan_to_num(t, nan='a')",
])
def test_nan_to_num_is_torchs(statements):
    assert_like_torch(statements.split("; "), names=("y",))


SPECIAL = st.sampled_from([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, 6e4,
                           -3e38, 1e-40])


@given(form=forms(), dtype=st.sampled_from(["float32", "float64", "float16", "int64", "bool"]),
       values=st.lists(st.one_of(SPECIAL, st.floats(allow_nan=True, allow_infinity=True)),
                       max_size=8),
       nan=st.one_of(st.none(), st.floats(-1e300, 1e300)),
       posinf=st.one_of(st.none(), st.floats(-1e300, 1e300)),
       neginf=st.one_of(st.none(), SPECIAL))
@settings(max_examples=examples(80), deadline=None)
def test_every_form_gives_torchs_bits(form, dtype, values, nan, posinf, neginf):
    def program(lib):
        t = lib.tensor(values, dtype=lib.float64).to(getattr(lib, dtype))
        return call(lib, form, "nan_to_num", t, nan, posinf=posinf, neginf=neginf)
    assert_like_torch(program)
