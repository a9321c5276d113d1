"""Triangles and diagonals against real torch 2.13: tril, triu (and tril_, triu_),
tril_indices, triu_indices, diagonal, diag, diagflat, diag_embed, fill_diagonal_,
select_scatter, slice_scatter, diagonal_scatter, as_strided_scatter.

Hypothesis draws dtypes, shapes (0-dim and 0-size included), strided views of a base
(steps, transposes), arguments (wrapped, out of range, of the wrong type) and the call
form (torch.X, Tensor.X, in place, keywords); tidx and torch must agree on the result
(values, shape, strides, offset, dtype, whether it shares the base's storage) and on
the base afterwards, or on the error (class and message).  The parametrized tests
compare the aten operator tree torch.profiler records.
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
BAD_INTS = [0.5, "a", None, True, [1], 2**63]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mostly(good, *bad):
    """``good`` four times in five, else one of ``bad`` (wrong types, overflowing ints)."""
    return st.integers(0, 5).flatmap(lambda i: st.sampled_from(list(bad)) if i == 5 else good)


@st.composite
def tensors(draw, max_dims=4, max_size=4):
    """A dtype, a shape, and how to view a base of that shape (steps, a transpose)."""
    dtype = draw(st.sampled_from(DTYPES))
    # mostly matrices and batches of them; a 0-dim or 1-D tensor now and then
    ndim = draw(st.sampled_from([n for n in (0, 1, 2, 2, 2, 3, 3, 4) if n <= max_dims]))
    shape = tuple(draw(st.lists(st.integers(0, max_size), min_size=ndim, max_size=ndim)))
    view = tuple(slice(draw(st.integers(0, 1)), None, draw(st.integers(1, 2)))
                 if draw(st.booleans()) else slice(None) for _ in shape)
    transpose = len(shape) >= 2 and draw(st.booleans())
    return dtype, shape, view, transpose


def make(lib, dtype, shape, view, transpose):
    n = int(np.prod(shape)) if shape else 1
    values = (np.arange(n) * 5 % 7 + 1).reshape(shape).astype(dtype)
    base = lib.tensor(values.tolist(), dtype=getattr(lib, dtype)).reshape(shape)
    t = base[view] if view else base
    if transpose:
        t = t.transpose(0, 1)
    return base, t


def describe(lib, base, r):
    """The result and the base afterwards, the same way for torch and tidx."""
    if not hasattr(r, "untyped_storage"):
        return ("value", repr(r))
    shares = r.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    return ("ok", r.tolist(), list(r.shape), list(r.stride()), r.storage_offset(),
            str(r.dtype), shares and r.numel() > 0, r.untyped_storage().nbytes(),
            base.tolist())


def run(lib, build, call):
    def go():
        base, t = build(lib)
        return describe(lib, base, call(lib, t))
    return attempt(go)


def agree(build, call):
    torch = require_torch()
    assert run(engine, build, call) == run(torch, build, call)


# -- tril / triu ---------------------------------------------------------------------------

@settings(max_examples=examples(250), **SETTINGS)
@given(tensors(), st.sampled_from(["tril", "triu"]),
       mostly(st.integers(-5, 5), *BAD_INTS, 2**62, -2**63),
       st.sampled_from(["function", "method", "inplace", "keyword", "default"]))
def test_tril_triu_match_torch(case, name, diagonal, form):
    def call(lib, t):
        if form == "function":
            return getattr(lib, name)(t, diagonal)
        if form == "method":
            return getattr(t, name)(diagonal)
        if form == "inplace":
            return getattr(t, name + "_")(diagonal)
        if form == "keyword":
            return getattr(lib, name)(t, diagonal=diagonal)
        return getattr(t, name)()
    agree(lambda lib: make(lib, *case), call)


@settings(max_examples=examples(60), **SETTINGS)
@given(st.sampled_from(DTYPES), st.sampled_from(["tril_", "triu_"]), st.integers(-3, 3),
       st.sampled_from([(2, 3, 2, 2), (3, 1, 2, 2), (2, 2, 3)]))
def test_tril_triu_in_place_on_batches_that_are_not_one_after_another(dtype, name, k, shape):
    """A batch dim whose stride is not rows x cols: the kernel works on a copy."""
    def build(lib):
        base, t = make(lib, dtype, shape, None, False)
        return base, t.transpose(0, 1)
    agree(build, lambda lib, t: getattr(t, name)(k))


# -- tril_indices / triu_indices ------------------------------------------------------------

@settings(max_examples=examples(200), **SETTINGS)
@given(st.sampled_from(["tril_indices", "triu_indices"]),
       mostly(st.integers(-2, 6), 0.5, "a", True), st.integers(-2, 6),
       mostly(st.integers(-8, 8), None, 0.5),
       st.sampled_from([None, None, "int64", "int32", "int32", "float32", "bool", "uint8"]),
       st.sampled_from(["positional", "keyword"]))
def test_tril_triu_indices_match_torch(name, row, col, offset, dtype, form):
    def call(lib, _):
        kw = {} if dtype is None else {"dtype": getattr(lib, dtype)}
        if form == "keyword":
            kw.update(row=row, col=col)
            if offset is not None:
                kw["offset"] = offset
            return getattr(lib, name)(**kw)
        args = (row, col) if offset is None else (row, col, offset)
        return getattr(lib, name)(*args, **kw)
    agree(lambda lib: (lib.zeros(1), None), call)


# -- diagonal (the view), diag, diagflat, diag_embed ------------------------------------------

DIMS = mostly(st.integers(-3, 3), 0.5, None, 7)


@settings(max_examples=examples(250), **SETTINGS)
@given(tensors(), st.integers(-4, 4), DIMS, DIMS,
       st.sampled_from(["function", "method", "keyword", "default", "write"]))
def test_diagonal_matches_torch(case, offset, dim1, dim2, form):
    def call(lib, t):
        if form == "function":
            return lib.diagonal(t, offset, dim1, dim2)
        if form == "method":
            return t.diagonal(offset, dim1, dim2)
        if form == "keyword":
            return lib.diagonal(t, dim2=dim2, offset=offset, dim1=dim1)
        if form == "write":
            # a view: writing through it changes the base (the base is compared too)
            return t.diagonal(offset).fill_(0)
        return t.diagonal()
    agree(lambda lib: make(lib, *case), call)


@settings(max_examples=examples(200), **SETTINGS)
@given(tensors(max_dims=3), mostly(st.integers(-4, 4), 0.5, None),
       st.sampled_from(["diag", "diag_method", "diagflat", "diagflat_method", "diagonal_copy",
                        "diag_keyword"]))
def test_diag_and_diagflat_match_torch(case, k, form):
    def call(lib, t):
        if form == "diag":
            return lib.diag(t, k)
        if form == "diag_method":
            return t.diag(k)
        if form == "diag_keyword":
            return lib.diag(t, diagonal=k)
        if form == "diagflat":
            return lib.diagflat(t, k)
        if form == "diagonal_copy":
            return lib.diagonal_copy(t, k)
        return t.diagflat(offset=k)
    agree(lambda lib: make(lib, *case), call)


@settings(max_examples=examples(200), **SETTINGS)
@given(tensors(max_dims=3), st.integers(-3, 3), DIMS, DIMS,
       st.sampled_from(["function", "method", "keyword", "default"]))
def test_diag_embed_matches_torch(case, offset, dim1, dim2, form):
    def call(lib, t):
        if form == "function":
            return lib.diag_embed(t, offset, dim1, dim2)
        if form == "method":
            return t.diag_embed(offset, dim1, dim2)
        if form == "keyword":
            return lib.diag_embed(t, dim1=dim1, dim2=dim2, offset=offset)
        return lib.diag_embed(t)
    agree(lambda lib: make(lib, *case), call)


# -- fill_diagonal_ ---------------------------------------------------------------------------

@settings(max_examples=examples(200), **SETTINGS)
@given(st.one_of(tensors(max_dims=2, max_size=7), tensors(max_dims=3, max_size=2)),
       mostly(st.sampled_from([0, 1, -1, 2.5, True, 300]), "a", None),
       mostly(st.sampled_from([None, False, True]), 1, "a"))
def test_fill_diagonal_matches_torch(case, value, wrap):
    def call(lib, t):
        if wrap is None:
            return t.fill_diagonal_(value)
        return t.fill_diagonal_(value, wrap=wrap)
    agree(lambda lib: make(lib, *case), call)


# -- select_scatter, slice_scatter, diagonal_scatter, as_strided_scatter ---------------------

def _view(lib, t, name, args):
    if name == "select_scatter":
        return t.select(*args)
    if name == "slice_scatter":
        if not 0 <= args[0] < t.dim():
            raise IndexError(args[0])
        return t[(slice(None),) * args[0] + (slice(args[1], args[2], args[3]),)]
    if name == "diagonal_scatter":
        return t.diagonal(*args)
    return t.as_strided(*args)


@st.composite
def scatter_cases(draw):
    name = draw(st.sampled_from(["select_scatter", "slice_scatter", "diagonal_scatter",
                                 "as_strided_scatter"]))
    dim = st.integers(-2, 2)
    if name == "select_scatter":
        args = (draw(dim), draw(st.integers(-3, 3)))
    elif name == "slice_scatter":
        args = (draw(st.integers(0, 2)), draw(st.one_of(st.none(), st.integers(-4, 4))),
                draw(st.one_of(st.none(), st.integers(-4, 4))), draw(st.integers(1, 3)))
    elif name == "diagonal_scatter":
        args = (draw(st.integers(-3, 3)), draw(dim), draw(dim))
    else:
        n = draw(st.integers(0, 2))
        args = (tuple(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))),
                tuple(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))),
                draw(st.integers(0, 3)))
    src = draw(st.sampled_from(["match", "match", "other_dtype", "wrong_shape"]))
    form = draw(st.sampled_from(["function", "method"]))
    return name, args, src, form


@settings(max_examples=examples(300), **SETTINGS)
@given(tensors(max_dims=3), scatter_cases())
def test_scatter_views_match_torch(case, scatter):
    name, args, src_kind, form = scatter

    def call(lib, t):
        try:
            shape = list(_view(lib, t, name, args).shape)
        except Exception:  # noqa: BLE001 - the op reports its own error below
            shape = [1]
        if src_kind == "wrong_shape":
            shape = shape + [1]
        dtype = lib.float64 if src_kind == "other_dtype" else t.dtype
        src = lib.full(shape, 9, dtype=dtype)
        if form == "function":
            return getattr(lib, name)(t, src, *args)
        return getattr(t, name)(src, *args)
    agree(lambda lib: make(lib, *case), call)


# -- the operator tree torch.profiler records ----------------------------------------------

@pytest.mark.parametrize("statements", [
    ["y = t.tril()"], ["y = torch.triu(t, 1)"], ["y = t.tril_(-1)"], ["y = torch.tril(a)"],
    ["y = a.transpose(0, 1).tril()"], ["y = a.transpose(1, 2).triu()"],
    ["y = a.transpose(0, 1).tril_()"], ["y = a.reshape(1, 3, 2, 2).transpose(0, 1).tril_()"],
    ["y = torch.zeros(2, 1, 3).as_strided((2, 1, 3), (3, 7, 1)).tril_()"],
    ["y = torch.zeros(2, 1, 3).as_strided((2, 1, 3), (3, 7, 1)).tril()"],
    ["y = t[:1].expand(3, 3).tril_()"], ["y = torch.zeros(2, 0, 3).triu_()"],
    ["y = t[0].tril()"], ["y = t.tril(diagonal=True)"],
])
def test_tril_triu_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("statements", [
    ["y = torch.tril_indices(3, 3)"], ["y = torch.triu_indices(3, 4, 1, dtype=torch.int32)"],
    ["y = torch.tril_indices(4, 6, -2)"], ["y = torch.triu_indices(5, 3, -2)"],
    ["y = torch.tril_indices(0, 3)"], ["y = torch.tril_indices(-1, 3)"],
    ["y = torch.triu_indices(3, -2)"], ["y = torch.tril_indices(3, 3, dtype=torch.float32)"],
])
def test_tril_triu_indices_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("statements", [
    ["y = t.diagonal()"], ["y = torch.diagonal(a, 1, 0, 2)"], ["y = t.t().diagonal(1)"],
    ["y = t.diagonal(-5)"], ["y = t.diagonal(0, 0, 0)"], ["y = t[0].diagonal()"],
    ["y = t.diagonal()", "y.zero_()", "y = t"],
    ["y = torch.zeros(3, 3, device='meta').diagonal()"],
    ["y = torch.diag(t)"], ["y = torch.diag(t[0])"], ["y = t[0].diag(-1)"],
    ["y = torch.diag(t, 5)"], ["y = torch.diag(torch.tensor(5))"],
    ["y = torch.diagonal_copy(t, 1)"],
    ["y = torch.diagflat(t)"], ["y = torch.diagflat(t.t(), 1)"], ["y = torch.diagflat(t[0])"],
    ["y = torch.diag_embed(t)"], ["y = t.diag_embed(-1, 0, 2)"],
    ["y = torch.diag_embed(torch.tensor(5))"], ["y = torch.diag_embed(t, 0, 1, -2)"],
])
def test_diagonals_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("statements", [
    ["y = t.fill_diagonal_(0)"], ["y = torch.zeros(7, 3).fill_diagonal_(1, wrap=True)"],
    ["y = torch.zeros(7, 3).fill_diagonal_(1)"], ["y = torch.zeros(3, 3, 3).fill_diagonal_(2)"],
    ["y = torch.zeros(2, 3, 3).fill_diagonal_(2)"], ["y = t[0].fill_diagonal_(1)"],
    ["y = torch.zeros(3, 3, device='meta').fill_diagonal_(1)"],
    ["y = t[:, 1:].fill_diagonal_(-1)"],
])
def test_fill_diagonal_runs_the_operators_torch_runs(statements):
    assert_like_torch(statements)


@pytest.mark.parametrize("statements", [
    ["y = torch.diagonal_scatter(t, t[0])"], ["y = torch.select_scatter(t, t[0], 0, 1)"],
    ["y = torch.slice_scatter(t, t[:1], 0, 0, 1)"],
    ["y = torch.as_strided_scatter(t, t[0], (3,), (4,))"],
    ["y = torch.select_scatter(t[:1].expand(3, 3), t[0], 0, 0)"],
    ["y = torch.select_scatter(t, t[0], 0, 5)"], ["y = torch.select_scatter(t, t[0, :2], 0, 0)"],
    ["y = torch.slice_scatter(t, t[0], 0)"], ["y = torch.as_strided_scatter(t, t[0], (3,), (5,))"],
    ["y = torch.diagonal_scatter(t, t[0, :2])"], ["y = t[:, 1:].select_scatter(t[0, :2], 1, 0)"],
    ["y = t.t().slice_scatter(t[:, :2] * 10, 1, 1)"],
    ["y = torch.select_scatter(t, t[0].to(torch.float32), 0, 0)"],
    ["y = torch.select_scatter(t, src=t[0], dim=0, index=1)"],
    ["y = t.slice_scatter(t[1:], start=1)"], ["y = t.diagonal_scatter(t[0, :2], offset=1)"],
    ["y = t.as_strided_scatter(t[0], size=(3,), stride=(1,), storage_offset=3)"],
    ["y = torch.as_strided_scatter(torch.zeros(3, 3, device='meta'), "
     "torch.zeros(3, device='meta'), (3,), (1,))"],
])
def test_scatter_views_run_the_operators_torch_runs(statements):
    assert_like_torch(statements)


def test_meta_decompositions_are_refused_not_guessed():
    """torch runs a Python decomposition or meta function for tril/triu/tril_indices,
    diag_embed and select/slice/diagonal_scatter on the meta device (arange, sub, le,
    where ...): tidx says so in one line instead of drawing another operator tree."""
    from engine.core.errors import Refused

    with pytest.raises(Refused, match="meta device"):
        engine.zeros(3, 3, device="meta").tril()
    with pytest.raises(Refused, match="meta device"):
        engine.zeros(3, 3, device="meta").triu_()
    with pytest.raises(Refused, match="meta device"):
        engine.tril_indices(3, 3, device="meta")
    with pytest.raises(Refused, match="meta device"):
        engine.diag_embed(engine.zeros(2, 3, device="meta"))
    meta = engine.zeros(3, 3, device="meta")
    src = engine.zeros(3, device="meta")
    for name, args in (("select_scatter", (0, 0)), ("slice_scatter", ()),
                       ("diagonal_scatter", ())):
        with pytest.raises(Refused, match="meta device"):
            getattr(engine, name)(meta, src, *args)
