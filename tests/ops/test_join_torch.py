"""Joining and splitting against real torch 2.13: cat, concat, concatenate, stack,
hstack, vstack, dstack, column_stack, atleast_*d, split, split_with_sizes, chunk,
tensor_split, hsplit, vsplit, dsplit, unbind.

Hypothesis draws dtypes (mixed ones for the joins: the result dtype is promoted), shapes
(0-size, 0-dim, the legacy 1-d empty tensor cat skips), strided views of a base (steps,
transposes), the dim and sizes (wrapped, out of range, negative, of the wrong type) and
the call form (torch.X, Tensor.X, keywords, a tuple or a list); tidx and torch must agree
on every result (values, shape, strides, offset, dtype, whether it shares the input's
storage) or on the error (class and message).  The parametrized tests compare the aten
operator tree torch.profiler records.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples, require_torch
from oracle import assert_like_torch, attempt

pytestmark = pytest.mark.torch

DTYPES = ["int64", "float32", "bool", "uint8", "float64"]
BAD = [0.5, "a", None]


@st.composite
def tensor_spec(draw, shape):
    """A tensor of ``shape``: a plain one, or a strided view (every other element of a
    twice-as-long base dim) or a transpose of a contiguous base."""
    dtype = draw(st.sampled_from(DTYPES))
    how = draw(st.sampled_from(["plain", "step", "transpose"]))
    if how == "transpose" and len(shape) < 2:
        how = "plain"
    return dtype, tuple(shape), how


def make(lib, spec, seed: int = 0):
    dtype, shape, how = spec
    base_shape = list(shape)
    if how == "step":
        base_shape = [2 * s for s in shape]
    elif how == "transpose":
        base_shape[0], base_shape[1] = base_shape[1], base_shape[0]
    n = int(np.prod(base_shape)) if base_shape else 1
    values = ((np.arange(n) + seed) * 5 % 7).reshape(base_shape).astype(dtype)
    base = lib.tensor(values.tolist(), dtype=getattr(lib, dtype)).reshape(base_shape)
    if how == "step":
        return base[tuple(slice(None, None, 2) for _ in shape)]
    if how == "transpose":
        return base.transpose(0, 1)
    return base


def describe(r, inputs):
    shares = any(r.untyped_storage().data_ptr() == i.untyped_storage().data_ptr()
                 and r.numel() > 0 for i in inputs)
    meta = str(r.device) == "meta"
    return (None if meta else r.tolist(), list(r.shape), list(r.stride()), r.storage_offset(),
            str(r.dtype), shares)


# -- joins --------------------------------------------------------------------------------
JOINS = ["cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"]


@st.composite
def join_cases(draw):
    op = draw(st.sampled_from(JOINS))
    n = draw(st.integers(0, 3))
    ndim = draw(st.integers(0, 3))
    shape = draw(st.lists(st.integers(0, 3), min_size=ndim, max_size=ndim))
    along = draw(st.integers(0, max(ndim - 1, 0)))
    specs = []
    for _ in range(n):
        kind = draw(st.sampled_from(["same", "same", "same", "along", "legacy", "other"]))
        s = list(shape)
        if kind == "along" and s:
            s[along] = draw(st.integers(0, 3))
        elif kind == "legacy":
            s = [0]
        elif kind == "other":
            s = draw(st.lists(st.integers(0, 3), min_size=0, max_size=3))
        specs.append(draw(tensor_spec(s)))
    dim = draw(st.one_of(st.integers(-4, 4), st.sampled_from(BAD)))
    form = draw(st.sampled_from(["positional", "keyword", "default", "tuple"]))
    return op, specs, dim, form


def join_outcome(lib, op, specs, dim, form):
    inputs = [make(lib, s, i) for i, s in enumerate(specs)]
    fn = getattr(lib, op)
    seq = tuple(inputs) if form == "tuple" else inputs
    def go():
        if op in ("cat", "concat", "concatenate", "stack"):
            if form == "keyword":
                r = fn(tensors=seq, dim=dim)
            elif form == "default":
                r = fn(seq)
            else:
                r = fn(seq, dim)
        else:
            r = fn(tensors=seq) if form == "keyword" else fn(seq)
        return ("ok",) + describe(r, inputs)
    return attempt(go)


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(join_cases())
def test_joins_match_torch(case):
    torch = require_torch()
    assert join_outcome(engine, *case) == join_outcome(torch, *case)


# -- splits -------------------------------------------------------------------------------
SPLITS = ["split", "split_list", "torch_split", "split_with_sizes", "chunk", "tensor_split",
          "tensor_split_list", "tensor_split_tensor", "hsplit", "vsplit", "dsplit",
          "hsplit_list", "vsplit_list", "dsplit_list", "unbind", "atleast"]


@st.composite
def split_cases(draw):
    op = draw(st.sampled_from(SPLITS))
    shape = draw(st.lists(st.integers(0, 5), min_size=0, max_size=3))
    spec = draw(tensor_spec(shape))
    meta = draw(st.integers(0, 9)) == 0
    size = draw(st.one_of(st.integers(-2, 6), st.sampled_from(BAD)))
    sizes = draw(st.one_of(st.lists(st.integers(-1, 6), max_size=4), st.sampled_from(BAD)))
    dim = draw(st.one_of(st.integers(-4, 4), st.sampled_from(BAD)))
    form = draw(st.sampled_from(["function", "method", "keyword", "default"]))
    return op, spec, meta, size, sizes, dim, form


def split_outcome(lib, op, spec, meta, size, sizes, dim, form):
    t = make(lib, spec)
    if meta:
        t = lib.empty(t.shape, dtype=t.dtype, device="meta")
    kw = form == "keyword"
    fn = form == "function"
    def go():
        if op == "split":
            r = (t.split(split_size=size, dim=dim) if kw else
                 t.split(size) if form == "default" else
                 lib.split(t, size, dim) if fn else t.split(size, dim))
        elif op == "split_list":
            r = t.split(sizes, dim=dim) if kw else t.split(sizes, dim)
        elif op == "torch_split":
            r = (lib.split(t, split_size_or_sections=sizes, dim=dim) if kw else
                 lib.split(t, sizes, dim))
        elif op == "split_with_sizes":
            r = (t.split_with_sizes(split_sizes=sizes, dim=dim) if kw else
                 lib.split_with_sizes(t, sizes, dim) if fn else t.split_with_sizes(sizes, dim))
        elif op == "chunk":
            r = (t.chunk(chunks=size, dim=dim) if kw else t.chunk(size) if form == "default"
                 else lib.chunk(t, size, dim) if fn else t.chunk(size, dim))
        elif op == "tensor_split":
            r = (t.tensor_split(sections=size, dim=dim) if kw else
                 lib.tensor_split(t, size, dim) if fn else t.tensor_split(size, dim))
        elif op == "tensor_split_list":
            r = (t.tensor_split(indices=sizes, dim=dim) if kw else
                 lib.tensor_split(t, sizes, dim) if fn else t.tensor_split(sizes, dim))
        elif op == "tensor_split_tensor":
            arg = lib.tensor(size if isinstance(size, int) and form == "default" else
                             sizes if isinstance(sizes, list) else [1])
            r = (t.tensor_split(tensor_indices_or_sections=arg, dim=dim) if kw else
                 lib.tensor_split(t, arg, dim) if fn else t.tensor_split(arg, dim))
        elif op in ("hsplit", "vsplit", "dsplit"):
            r = (getattr(t, op)(sections=size) if kw else
                 getattr(lib, op)(t, size) if fn else getattr(t, op)(size))
        elif op in ("hsplit_list", "vsplit_list", "dsplit_list"):
            name = op[:6]
            r = (getattr(t, name)(indices=sizes) if kw else
                 getattr(lib, name)(t, sizes) if fn else getattr(t, name)(sizes))
        elif op == "unbind":
            r = (t.unbind(dim=dim) if kw else t.unbind() if form == "default" else
                 lib.unbind(t, dim) if fn else t.unbind(dim))
        else:
            r = lib.atleast_3d(t, t) if fn else lib.atleast_2d(t) if kw else lib.atleast_1d([t])
        r = r if isinstance(r, (tuple, list)) else (r,)
        return ("ok", type(r).__name__) + tuple(describe(p, [t]) for p in r)
    return attempt(go)


@settings(max_examples=examples(400), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(split_cases())
def test_splits_match_torch(case):
    torch = require_torch()
    assert split_outcome(engine, *case) == split_outcome(torch, *case)


def test_split_pieces_write_through_and_cat_copies():
    """The lesson in one test: a piece of split is the input's memory, cat's result is not."""
    torch = require_torch()
    for lib in (engine, torch):
        t = lib.arange(6).reshape(2, 3)
        first = t.split(1, 1)[0]
        first[0, 0] = 100
        joined = lib.cat([t, t])
        joined[0, 0] = -1
        assert t.tolist() == [[100, 1, 2], [3, 4, 5]]


# -- the operator tree torch.profiler records ---------------------------------------------
@pytest.mark.parametrize("statements", [
    ["y = torch.cat([t, t])"],
    ["y = torch.cat([t, t], 1)"],
    ["y = torch.cat((t, x[:3, :3]), dim=-1)"],
    ["y = torch.cat([x, x], 1)"],
    ["y = torch.cat([t, torch.tensor([])])"],
    ["y = torch.cat([torch.tensor([]), torch.tensor([], dtype=torch.int64)], 7)"],
    ["y = torch.cat([t.t(), t])"],
    ["y = torch.cat([t[:, ::2], t[:, 1:]], 1)"],
    ["y = torch.cat([t.to(torch.bool), t.to(torch.uint8)], 1)"],
    ["y = torch.cat([torch.zeros(1, 3, 2, 2).permute(0, 2, 3, 1)] * 2, 3)"],
    ["y = torch.cat([torch.zeros(200, 200, dtype=torch.int64)] * 2, 1)"],
    ["y = torch.cat([torch.zeros(200, 200)] * 2, 0)"],
    ["y = torch.cat([])"],
    ["y = torch.cat([t, torch.tensor(1)])"],
    ["y = torch.cat([t, b])"],
    ["y = torch.cat([t, t], 2)"],
    ["y = torch.cat(t)"],
    ["y = torch.concat([t, t], 1)"],
    ["y = torch.concatenate([t, t], -2)"],
    ["y = torch.stack([t, t])"],
    ["y = torch.stack([t, t], 2)"],
    ["y = torch.stack([t, t], -1)"],
    ["y = torch.stack([t, b])"],
    ["y = torch.stack([])"],
    ["y = torch.stack([torch.tensor(1), torch.tensor(2.)])"],
    ["y = torch.hstack([t, t])"],
    ["y = torch.hstack([indices, indices])"],
    ["y = torch.vstack([indices, indices])"],
    ["y = torch.vstack([torch.tensor(1), torch.tensor(2)])"],
    ["y = torch.dstack([t, t])"],
    ["y = torch.dstack([indices, indices])"],
    ["y = torch.column_stack([indices, indices])"],
    ["y = torch.column_stack([torch.tensor(1), torch.tensor(2)])"],
    ["y = torch.column_stack([])"],
    ["y = torch.atleast_3d(t)"],
])
def test_joins_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("statements", [
    ["parts = t.split(1)", "y = parts[2]"],
    ["parts = t.split(2, 1)", "y = parts[1]"],
    ["parts = torch.split(t, [1, 2], 1)", "y = parts[1]"],
    ["parts = torch.split(t, split_size_or_sections=2, dim=-1)", "y = parts[0]"],
    ["y = t.split(0)"],
    ["y = t.split(-1, 5)"],
    ["y = t.split([1, -1, 3], 1)"],
    ["y = t.split([2, 5], 1)"],
    ["parts = t.split(torch.tensor(1))", "y = parts[0]"],
    ["y = t.split(torch.tensor([1, 2]))"],
    ["y = torch.split(t)"],
    ["y = t.split()"],
    ["parts = torch.zeros(0, 2).split(0)", "y = parts[0]"],
    ["parts = t.chunk(2, 1)", "y = parts[1]"],
    ["parts = torch.zeros(0, 2).chunk(3)", "y = parts[2]"],
    ["y = t.chunk(0)"],
    ["parts = t.tensor_split(2, 1)", "y = parts[0]"],
    ["parts = torch.tensor_split(t, [1, 5], 1)", "y = parts[2]"],
    ["parts = t.tensor_split(torch.tensor([1]), 1)", "y = parts[1]"],
    ["parts = t.tensor_split(torch.tensor(2), 1)", "y = parts[1]"],
    ["y = t.tensor_split(torch.tensor([1.0]), 1)"],
    ["parts = t.tensor_split(torch.tensor([2, 0, 1])[::2])", "y = parts[1]"],
    ["parts = t.hsplit(3)", "y = parts[2]"],
    ["y = t.hsplit(2)"],
    ["parts = torch.vsplit(t, [1, 2])", "y = parts[2]"],
    ["parts = a.dsplit(2)", "y = parts[1]"],
    ["y = t.dsplit(1)"],
    ["parts = t.unbind(1)", "y = parts[1]"],
    ["y = torch.tensor(1).unbind()"],
    ["parts = torch.zeros(3, 4, device='meta').split(2, 1)", "y = parts[1]"],
    ["parts = t[:, ::2].split(1, 1)", "y = parts[1]"],
    ["parts = torch.atleast_1d(t[0, 0], t[1])", "y = parts[0]"],
    ["y = t.chunk(2**63 - 1)"],
    ["parts = t.chunk(2**62)", "y = parts[2]"],
    ["parts = t.split(2**63 - 1)", "y = parts[0]"],
    ["y = t.tensor_split(2**62)"],
    ["y = t.hsplit(2**62)"],
])
def test_splits_run_the_operators_torch_runs(statements):
    assert_like_torch(statements, names=["y", "parts"])


@pytest.mark.parametrize("statement", [
    "y = torch.zeros(1).expand(2**40).split(1)", "y = torch.zeros(0).chunk(2**40)",
    "y = t.tensor_split(2**40)", "y = torch.zeros(1).expand(2**40).unbind()",
    "y = torch.cat([t, torch.zeros(3, 3, device='meta')])",
    "y = torch.stack([torch.zeros(3, device='meta')] * 2)",
    "y = torch.cat([torch.zeros(2, 2, 2, 2, 3).permute(0, 4, 1, 2, 3)] * 2)"])
def test_what_tidx_refuses(statement):
    """Millions of pieces (torch would make them), and what torch runs through its
    Python decompositions (a meta input) or a channels_last_3d output: refused in one
    line, exit 2."""
    from conftest import cli_run

    result = cli_run("explain", statement)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("statement", [
    "y = torch.cat([t, t], 1)", "y = torch.stack([t, t], 2)", "parts = t.chunk(2)",
    "y = torch.cat([t, b])"])
@pytest.mark.parametrize("fmt", ["tree", "json", "mermaid"])
def test_the_cli_draws_them(statement, fmt):
    from conftest import cli_run

    result = cli_run("explain", "--format", fmt, statement)
    assert result.exit_code == (1 if "b]" in statement else 0), result.output
    assert "Traceback" not in result.output
