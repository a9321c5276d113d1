"""The facts that prove what shares memory, against torch 2.13: data_ptr() differences,
untyped_storage() and its data_ptr()/nbytes()/size(), element_size(), itemsize, nbytes,
storage_offset(), is_contiguous(memory_format=), real/imag.

Addresses themselves differ (tidx's are simulated, torch's are the process's), so what is
compared is what a learner concludes from them: a view's data_ptr() minus its base's,
and whether two tensors share a storage.  tidx's addresses are the same in every run.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples, require_torch
from oracle import assert_like_torch, attempt

pytestmark = pytest.mark.torch

DTYPES = ["int64", "float32", "bool", "uint8", "float64", "int16", "float16"]


@st.composite
def cases(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=0, max_size=3)))
    index = tuple(slice(draw(st.integers(0, 2)), None, draw(st.integers(1, 3)))
                  for _ in shape)
    transpose = len(shape) >= 2 and draw(st.booleans())
    fmt = draw(st.sampled_from([None, "contiguous_format", "channels_last",
                                "preserve_format"]))
    return dtype, shape, index, transpose, fmt


def facts(lib, dtype, shape, index, transpose, fmt):
    base = lib.zeros(shape, dtype=getattr(lib, dtype))
    v = base[index] if index else base
    if transpose:
        v = v.transpose(0, 1)
    out = [v.data_ptr() - base.data_ptr() if v.numel() and base.numel() else None,
           v.untyped_storage().data_ptr() == base.untyped_storage().data_ptr(),
           v.untyped_storage().nbytes(), v.untyped_storage().size(), v.element_size(),
           v.itemsize, v.nbytes, v.storage_offset(), v.real is v]
    out.append(attempt(lambda: v.is_contiguous() if fmt is None else
                       v.is_contiguous(memory_format=getattr(lib, fmt))))
    out.append(attempt(lambda: v.imag is None))     # a real tensor has no imag: the error
    return out


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_memory_facts_match_torch(case):
    torch = require_torch()
    assert facts(engine, *case) == facts(torch, *case)


@pytest.mark.parametrize("statements", [
    ["y = t.real"], ["y = t.imag"], ["y = torch.real(t)"], ["y = t.nbytes"],
    ["y = t.untyped_storage().nbytes()"], ["y = t[1:].data_ptr() - t.data_ptr()"],
])
def test_memory_facts_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)


def test_addresses_are_the_same_in_every_run_and_a_view_is_its_base_plus_its_offset():
    from engine.interpreter.session import Session

    def run():
        s = Session()
        s.run("a = torch.zeros(3, 4); b = torch.ones(5); v = a[1, 1:]")
        return {n: s.evaluator.names[n]._impl.data_ptr() for n in ("a", "b", "v")}
    first, second = run(), run()
    assert first == second
    assert first["v"] == first["a"] + (4 + 1) * 4
    assert first["a"] % 64 == first["b"] % 64 == 0 and first["b"] >= first["a"] + 48
