"""out= for the scatter and index family (issue #26), compared with torch 2.13:
scatter.src_out, scatter.value_out, scatter.reduce_out, scatter.value_reduce_out,
scatter_add.out, scatter_reduce.two_out, index_add.out, index_copy.out, index_reduce.out.

All nine are structured in torch (TensorAdvancedIndexing.cpp): the out= form is the
functional form's meta and impl with the out= tensor as the output.  scatter_meta_impl
checks a given output for overlap *before* set_output resizes it; index_func_meta_impl
and index_copy's meta check it *after*.  Each case compares the values, the out= tensor's
sizes, strides and dtype after the call, torch's errors word for word, the operator tree
torch.profiler records, ``y is o``, and resize_output's warning.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from engine.core.errors import Refused
from oracle import assert_like_torch
from ops.test_out_overloads_torch import _tidx_resize_warnings, _torch_resize_warnings

pytestmark = pytest.mark.torch

A = "a = torch.arange(6.).reshape(2, 3); s = torch.arange(10., 16.).reshape(2, 3); "
I = "i = torch.tensor([[1, 0, 0]]); "       # scatter's index: row 0 of s into rows 1, 0, 0
V = "v = torch.tensor([1, 0]); "            # index_*'s index along dim 0

#: every overload, into an empty out=, one of the wrong size (the warning), one of the
#: right shape but transposed strides (kept), one of another dtype (torch's error)
CALLS = {
    "scatter_src": A + I + "y = torch.scatter(a, 0, i, s, out=o)",
    "scatter_value": A + I + "y = torch.scatter(a, 0, i, 7.5, out=o)",
    "scatter_reduce_src": A + I + "y = torch.scatter(a, 0, i, s, reduce='multiply', out=o)",
    "scatter_value_reduce": A + I + "y = torch.scatter(a, 0, i, 2., reduce='add', out=o)",
    "scatter_add": A + I + "y = torch.scatter_add(a, 0, i, s, out=o)",
    "scatter_reduce_sum": A + I + "y = torch.scatter_reduce(a, 0, i, s, 'sum', out=o)",
    "scatter_reduce_mean": A + I + "y = torch.scatter_reduce(a, 0, i, s, 'mean', "
                                   "include_self=False, out=o)",
    "scatter_reduce_amax": A + I + "y = torch.scatter_reduce(a, 1, i, s, 'amax', out=o)",
    "index_add": A + V + "y = torch.index_add(a, 0, v, s, out=o)",
    "index_add_alpha": A + "y = torch.index_add(a, 1, torch.tensor([2, 0, 2]), s, alpha=2, "
                           "out=o)",
    "index_copy": A + V + "y = torch.index_copy(a, 0, v, s, out=o)",
    "index_reduce_prod": A + V + "y = torch.index_reduce(a, 0, v, s, 'prod', out=o)",
    "index_reduce_mean": A + "y = torch.index_reduce(a, 0, torch.tensor([1, 1]), s, 'mean', "
                             "include_self=False, out=o)",
}

OUTS = ["o = torch.empty(0); ", "o = torch.empty(5); ", "o = torch.empty(3, 2).t(); ",
        "o = torch.empty(0, dtype=torch.float64); ", "o = torch.empty(2, 3); "]

CASES = [out + call for call in CALLS.values() for out in OUTS]

#: what may or may not be written into the out= tensor: aliasing, overlap, bad input
EDGE_CASES = [
    # out= is self: allowed (is_same: no copy of self into itself)
    A + I + "o = a; y = torch.scatter(a, 0, i, s, out=a)",
    A + I + "o = a; y = torch.scatter_reduce(a, 0, i, s, 'prod', out=a)",
    A + V + "o = a; y = torch.index_add(a, 0, v, s, out=a)",
    A + V + "o = a; y = torch.index_copy(a, 0, v, s, out=a)",
    # out= a view of self: no overlap check against self (self is copied in first), the
    # view resized over self's storage or grown past it
    A + I + "o = a[1]; y = torch.scatter(a, 0, i, s, out=o)",
    A + I + "o = a.t(); y = torch.scatter(a, 0, i, s, out=o)",
    A + V + "o = a[0]; y = torch.index_add(a, 0, v, s, out=o)",
    A + V + "o = a.view(3, 2); y = torch.index_reduce(a, 0, v, s, 'prod', out=o)",
    # out= is src/source: the overlap error (scatter: before the resize; index: after)
    A + I + "o = s; y = torch.scatter(a, 0, i, s, out=s)",
    A + I + "o = s; y = torch.scatter_add(a, 0, i, s, out=s)",
    A + V + "o = s; y = torch.index_add(a, 0, v, s, out=s)",
    A + V + "o = s; y = torch.index_reduce(a, 0, v, s, 'amin', out=s)",
    # an out= of another dtype over src's memory: scatter checks the overlap first,
    # index_add the dtype (set_output) first
    A + I + "o = s.view(torch.int32); y = torch.scatter(a, 0, i, s, out=o)",
    A + V + "o = s.view(torch.int32); y = torch.index_add(a, 0, v, s, out=o)",
    A + V + "o = s.view(torch.int32); y = torch.index_copy(a, 0, v, s, out=o)",
    # out= of the index itself (an int64 out: the dtype or the overlap decides)
    A + I + "o = i; y = torch.scatter(a.long(), 0, i, s.long(), out=i)",
    A + V + "o = v; y = torch.index_copy(a.long(), 0, v, s.long(), out=v)",
    # an expanded out= (internal overlap)
    A + I + "o = torch.zeros(3).expand(2, 3); y = torch.scatter(a, 0, i, s, out=o)",
    A + V + "o = torch.zeros(3).expand(2, 3); y = torch.index_add(a, 0, v, s, out=o)",
    # bad input with a wrong out=: which error comes first
    A + "o = torch.empty(0, dtype=torch.long); y = torch.scatter(a, 0, torch.tensor([[5]]), s, "
        "out=o)",
    A + "o = torch.empty(7); y = torch.scatter(a, 0, torch.tensor([[5, 0]]), s, out=o)",
    A + I + "o = torch.empty(0); y = torch.scatter(a, 0, i, s, reduce='max', out=o)",
    A + I + "o = torch.empty(0); y = torch.scatter_reduce(a, 0, i, s, 'max', out=o)",
    A + I + "o = torch.empty(0); y = torch.scatter_reduce(a, 0, i, s, 'nope', out=o)",
    A + "o = torch.empty(4); y = torch.index_add(a, 0, torch.tensor([1, 9]), s, out=o)",
    A + "o = torch.empty(0, dtype=torch.int32); y = torch.index_add(a, 0, torch.tensor([[1]]), "
        "s, out=o)",
    A + "o = torch.empty(4); y = torch.index_copy(a, 0, torch.tensor([1, 0, 1]), s, out=o)",
    A + V + "o = torch.empty(0); y = torch.index_reduce(a, 0, v, s, 'sum', out=o)",
    A + "o = torch.empty(0); y = torch.index_copy(a, 0, torch.tensor([3, 0]), s, out=o)",
    # an out= on the meta device beside CPU inputs: set_output's device check
    A + I + "o = torch.empty(0, device='meta'); y = torch.scatter(a, 0, i, s, out=o)",
    A + I + "o = torch.empty(0, device='meta'); y = torch.scatter(a, 0, i, 1., reduce='add', "
            "out=o)",
    A + I + "o = torch.empty(0, device='meta'); y = torch.scatter_add(a, 0, i, s, out=o)",
    A + V + "o = torch.empty(0, device='meta'); y = torch.index_reduce(a, 0, v, s, 'amax', "
            "out=o)",
    # an empty index: the copy of self alone
    A + "o = torch.empty(0); y = torch.scatter(a, 0, torch.tensor([[]], dtype=torch.long), s, "
        "out=o)",
    A + "o = torch.empty(0); y = torch.index_add(a, 0, torch.tensor([], dtype=torch.long), "
        "s[:0], out=o)",
    A + "o = a; y = a.scatter_add_(0, torch.tensor([[]], dtype=torch.long), s)",
    # integers, and a 0-dim self
    "a = torch.arange(6).reshape(2, 3); o = torch.empty(0, dtype=torch.long); "
    "y = torch.scatter_reduce(a, 0, torch.tensor([[1, 1, 0]]), a * 3, 'mean', out=o)",
    "a = torch.tensor(2.); o = torch.empty(3); y = torch.scatter(a, 0, torch.tensor(0), "
    "torch.tensor(5.), out=o)",
    "a = torch.tensor(2.); o = torch.empty(0); y = torch.index_copy(a, 0, torch.tensor([0]), "
    "torch.tensor(5.), out=o)",
    # the expanded-index fast path (the out= tensor's own strides decide it)
    "a = torch.zeros(4, 16); s = torch.arange(48.).reshape(3, 16); "
    "i = torch.tensor([[2], [0], [2]]).expand(3, 16); o = torch.empty(0); "
    "y = torch.scatter_add(a, 0, i, s, out=o)",
    "a = torch.zeros(4, 16); s = torch.arange(48.).reshape(3, 16); "
    "i = torch.tensor([[2], [0], [2]]).expand(3, 16); o = torch.empty(16, 4).t(); "
    "y = torch.scatter_add(a, 0, i, s, out=o)",
    "a = torch.zeros(4, 16); s = torch.arange(48.).reshape(3, 16); "
    "i = torch.tensor([[2], [0], [2]]).expand(3, 16); o = torch.empty(0); "
    "y = torch.scatter_reduce(a, 0, i, s, 'mean', include_self=False, out=o)",
]

@pytest.mark.parametrize("statements", CASES + EDGE_CASES)
def test_out_forms_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"), uninitialised=("o",))
    assert_like_torch(statements + "; same = torch.tensor(y is o)", names=("y", "same"))
    assert _tidx_resize_warnings(statements) == _torch_resize_warnings(statements)


def test_every_call_warns_of_a_resize_somewhere():
    """The warning comparison is not vacuous: each call warns for its out= of 5 elements."""
    assert sum(bool(_torch_resize_warnings(s)) for s in CASES) == len(CALLS)


@pytest.mark.parametrize("call", [
    A + I + "y = torch.scatter(g, 0, i, s, out=torch.empty(0))",
    A + I + "y = torch.scatter_reduce(a, 0, i, g, 'sum', out=torch.empty(0))",
    A + V + "y = torch.index_add(g, 0, v, s, out=torch.empty(0))",
    A + V + "y = torch.index_reduce(a, 0, v, g, 'amax', out=torch.empty(0))",
])
def test_out_with_an_input_that_requires_grad_like_torch(call):
    """torch's Autograd kernel: out= with an input that requires grad raises."""
    assert_like_torch("g = torch.ones(2, 3, requires_grad=True); " + call)


@pytest.mark.parametrize("call", [
    "torch.scatter(m, 0, i.to('meta'), m, out=o)",
    "torch.scatter(m, 0, i.to('meta'), m, reduce='add', out=o)",
    "torch.scatter_add(m, 0, i.to('meta'), m, out=o)",
    "torch.index_reduce(m, 0, v.to('meta'), m, 'amax', out=o)",
])
def test_out_on_the_meta_device_is_refused(call):
    """On the meta device torch runs these out= overloads' C++ meta function alone (no
    Python meta is registered for them), which tidx does not model: refused in one line,
    where torch computes."""
    program = (A + I + V + "m = torch.empty(2, 3, device='meta'); "
               "o = torch.empty(0, device='meta'); y = " + call)
    torch = require_torch()
    exec(program, {"torch": torch})         # the test's own string: torch computes
    with pytest.raises(Refused, match="on the meta device runs only torch's C\\+\\+ meta"):
        assert_like_torch(program)


def test_gather_into_a_meta_out_like_torch():
    """gather.out's structured wrapper checks the out= tensor's device after its dtype
    (tidx failed inside, exit 3, reading the meta tensor's data)."""
    assert_like_torch(A + I + "o = torch.empty(0, device='meta'); "
                      "y = torch.gather(a, 0, i, out=o)")


def test_masked_select_into_a_meta_out_is_refused():
    """torch reaches the Meta key, where masked_select.out has no kernel: refused in one
    line (tidx failed inside, exit 3)."""
    program = A + "o = torch.empty(0, device='meta'); y = torch.masked_select(a, a > 2, out=o)"
    torch = require_torch()
    with pytest.raises(NotImplementedError):
        exec(program, {"torch": torch})     # the test's own string
    with pytest.raises(Refused, match="masked_select.out has no kernel"):
        assert_like_torch(program)


def _torch_deprecations(statements: str) -> int:
    """The deprecation warnings a fresh torch process gives (TORCH_WARN_ONCE: one a
    process, so not this one's, which other tests may have spent)."""
    import subprocess
    import sys
    require_torch()
    code = ("import warnings, torch\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    try:\n"
            f"        exec({statements!r}, {{'torch': torch}})\n"
            "    except RuntimeError:\n"
            "        pass\n"
            "print(sum('The reduce argument of torch.scatter with Tensor src is deprecated' "
            "in str(w.message) for w in caught))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    return int(done.stdout.split()[-1])


def _tidx_deprecations(statements: str) -> int:
    """The deprecation steps tidx records (a run is a fresh process: its one warning)."""
    from engine.interpreter.evaluator import Evaluator
    from engine.interpreter.statements import parse
    from tracer import record

    def walk(events):
        for e in events:
            yield e
            yield from walk(e.get("children", []))

    from engine.core.context import RunContext, activate

    ev = Evaluator()
    with activate(RunContext()), record() as tr:      # a fresh run: a fresh process
        for stmt in parse(statements):
            ev.run(stmt)
    return sum(e.get("note_id") == "scatter.reduce_deprecated"
               for s in tr.to_dict()["statements"] for e in walk(s["events"]))


@pytest.mark.slow
@pytest.mark.parametrize("statements, deprecated", [
    (A + I + "o = torch.empty(0); y = torch.scatter(a, 0, i, s, reduce='add', out=o)", True),
    (A + I + "o = torch.empty(0); y = torch.scatter(a, 0, i, 2., reduce='add', out=o)", False),
])
def test_scatter_reduce_out_deprecation_warning_like_torch(statements, deprecated):
    """scatter.reduce_out warns as scatter.reduce does (TORCH_META_FUNC2(scatter, reduce):
    the reduce argument with a Tensor src is deprecated); the Scalar value form does not."""
    assert _tidx_deprecations(statements) == _torch_deprecations(statements) == deprecated


#: each overload over any small self, index and out= tensor
PROPERTY = {
    "scatter": "torch.scatter(a, {dim}, i, s, out=o)",
    "scatter_value": "torch.scatter(a, {dim}, i, -1, out=o)",
    "scatter_reduce_old": "torch.scatter(a, {dim}, i, s, reduce='add', out=o)",
    "scatter_add": "torch.scatter_add(a, {dim}, i, s, out=o)",
    "scatter_reduce": "torch.scatter_reduce(a, {dim}, i, s, 'amin', include_self=False, out=o)",
    "scatter_reduce_mean": "torch.scatter_reduce(a, {dim}, i, s, 'mean', out=o)",
    "index_add": "torch.index_add(a, {dim}, v, s.narrow({dim}, 0, v.numel()), alpha=3, "
                 "out=o)",
    "index_reduce_mean": "torch.index_reduce(a, {dim}, v, s.narrow({dim}, 0, v.numel()), "
                         "'mean', include_self=False, out=o)",
    "index_copy": "torch.index_copy(a, {dim}, v, s.narrow({dim}, 0, v.numel()), out=o)",
    "index_reduce": "torch.index_reduce(a, {dim}, v, s.narrow({dim}, 0, v.numel()), 'prod', "
                    "out=o)",
}


@pytest.mark.slow
@settings(max_examples=examples(120), deadline=None)
@given(st.sampled_from(sorted(PROPERTY)),
       st.lists(st.integers(1, 3), min_size=1, max_size=3),
       st.sampled_from(["torch.float32", "torch.int64", "torch.float64", "torch.int32"]),
       st.lists(st.integers(0, 4), min_size=0, max_size=3),
       st.sampled_from(["torch.float32", "torch.int64", "torch.float64"]),
       st.sampled_from(["", ".t()", "[::2]", ".unsqueeze(0)"]),
       st.integers(-1, 1), st.integers(0, 2 ** 16))
def test_out_property_like_torch(family, shape, dtype, out_shape, out_dtype, layout, dim,
                                 seed):
    """Any small self, index and out= tensor (shape, dtype, contiguous or not): torch's
    values, out= layout, errors, profiler tree and resize warnings."""
    if layout == ".t()" and len(out_shape) != 2:
        layout = ""
    if layout == "[::2]" and not out_shape:
        layout = ""
    dim = dim % len(shape)
    numel = 1
    for d in shape:
        numel *= d
    # the index: values within size(dim) (seeded), scatter's of self's shape, index_*'s a
    # vector of size(dim) entries (distinct for index_copy: duplicates are refused there)
    program = (f"torch.manual_seed({seed}); "
               f"a = (torch.arange({numel}) - 2).to({dtype}).reshape({shape}); "
               f"s = (torch.arange({numel}) * 3 - 5).to({dtype}).reshape({shape}); "
               f"i = torch.randint(0, {shape[dim]}, {shape}); "
               f"v = torch.randperm({shape[dim]}); "
               f"o = torch.empty({out_shape}, dtype={out_dtype}){layout}; "
               f"y = {PROPERTY[family].format(dim=dim)}")
    assert_like_torch(program, names=("y", "o"), uninitialised=("o",))
    assert _tidx_resize_warnings(program) == _torch_resize_warnings(program)
