"""engine.binding.tensor_str against real torch: ``format_tensor`` must equal ``repr``."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.binding.tensor_str import format_tensor

pytestmark = pytest.mark.torch

DTYPES = [
    "bool", "uint8", "int8", "int16", "int32", "int64",
    "float16", "float32", "float64",
]  # fmt: skip


def _check(arr: np.ndarray, requires_grad: bool = False) -> None:
    """Build the torch tensor from the same array and compare reprs."""
    t = torch.from_numpy(arr.copy())
    dtype_name = str(t.dtype).removeprefix("torch.")
    if requires_grad:
        t.requires_grad_(True)
    got = format_tensor(arr, dtype_name, arr.shape, requires_grad=requires_grad)
    assert got == repr(t), f"\n--- tidx\n{got}\n--- torch\n{t!r}"


def _a(values: object, dtype: str) -> np.ndarray:
    return np.array(values, dtype=dtype)


HAND_PICKED = {
    "ints": _a([1, -22, 333], "int64"),
    "int_matrix": np.arange(-6, 6, dtype=np.int64).reshape(3, 4),
    "bools": _a([True, False, True], "bool"),
    "bool_0d": _a(False, "bool"),
    "floats": _a([1.5, -2.25, 3.0], "float32"),
    "float_ints": _a([1.0, -2.0, 300.0], "float32"),
    "mixed_magnitudes": _a([1e-5, 1.0, 1e5], "float32"),
    "ratio_sci": _a([0.5, 600.0], "float64"),
    "big_1e10": _a([1e10], "float32"),
    "big_ints_sci": _a([1e10, 2.0, -3.0], "float64"),
    "tiny": _a([1e-30, 2e-30], "float64"),
    "denormal": _a([5e-324, 1.0], "float64"),
    "huge_exp": _a([1e-300, 1e300], "float64"),
    "nan_inf": _a([np.nan, np.inf, -np.inf, 1.5], "float32"),
    "only_nonfinite": _a([np.nan, -np.inf], "float32"),
    "neg_zero": _a([-0.0, 0.0, 1.0], "float32"),
    "neg_zero_frac": _a([-0.0, 0.25], "float32"),
    "neg_zero_sci": _a([-0.0, 1e-7], "float32"),
    "only_neg_zero": _a([-0.0], "float32"),
    "zeros": np.zeros((2, 3), dtype=np.float32),
    "scalar_float": _a(3.14159, "float32"),
    "scalar_neg_zero": _a(-0.0, "float64"),
    "scalar_int": _a(-7, "int64"),
    "scalar_sci": _a(1e-9, "float32"),
    "scalar_nan": _a(np.nan, "float16"),
    "empty_1d": np.zeros((0,), dtype=np.float32),
    "empty_1d_int": np.zeros((0,), dtype=np.int64),
    "empty_2d": np.zeros((0, 3), dtype=np.float32),
    "empty_3d": np.zeros((2, 0, 4), dtype=np.int8),
    "empty_bool": np.zeros((0, 1), dtype=np.bool_),
    "summarize_1d": np.arange(2000, dtype=np.int64),
    "summarize_2d": np.arange(1600, dtype=np.float32).reshape(40, 40) / 7,
    "summarize_wide": np.arange(6000, dtype=np.int32).reshape(3, 2000),
    "summarize_4d": np.arange(2 * 8 * 9 * 10, dtype=np.float64).reshape(2, 8, 9, 10),
    "summarize_small_dims": np.ones((6, 6, 6, 6), dtype=np.int16),
    "float16": _a([0.1, 65504.0, -1.0], "float16"),
    "float16_frac": _a([0.1, 0.2, 0.3], "float16"),
    "float64": _a([1 / 3, 2 / 3], "float64"),
    "int8_neg": _a([-128, 0, 127], "int8"),
    "uint8": _a([0, 255, 7], "uint8"),
    "wrap_lines": np.linspace(-1, 1, 40, dtype=np.float32),
    "wrap_3d": np.arange(2 * 3 * 30, dtype=np.int64).reshape(2, 3, 30) * 1000,
    "long_suffix": np.linspace(0, 1, 11, dtype=np.float64),
    "suffix_wraps": np.arange(9, dtype=np.int16) * 1000,
}


@pytest.mark.parametrize("name", sorted(HAND_PICKED))
def test_hand_picked(name: str) -> None:
    _check(HAND_PICKED[name])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0,), (0, 2), (1200,)])
def test_requires_grad(dtype: str, shape: tuple[int, ...]) -> None:
    arr = np.linspace(-2, 3, int(np.prod(shape)), dtype=dtype).reshape(shape)
    _check(arr, requires_grad=True)


META_CASES = [
    (dtype, shape, grad)
    for dtype in DTYPES
    for shape in [(), (2,), (0,), (3, 4), (0, 3), (2, 0, 4), (1000, 1000)]
    # Only floating tensors can require grad.
    for grad in ([False, True] if dtype.startswith("float") else [False])
]


@pytest.mark.parametrize(("dtype", "shape", "requires_grad"), META_CASES)
def test_meta(dtype: str, shape: tuple[int, ...], requires_grad: bool) -> None:
    t = torch.empty(shape, dtype=getattr(torch, dtype), device="meta")
    t.requires_grad_(requires_grad)
    got = format_tensor(
        None, dtype, shape, device="meta", requires_grad=requires_grad
    )
    assert got == repr(t)


def test_huge_tensor_is_fast() -> None:
    # 16M elements: only the summarized 36 elements may be formatted.
    arr = np.arange(4096 * 4096, dtype=np.float32).reshape(4096, 4096) / 3
    _check(arr)


@st.composite
def arrays(draw: st.DrawFn) -> np.ndarray:
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(st.lists(st.integers(0, 6), max_size=4))
    if shape and draw(st.integers(0, 9)) == 0:
        # Occasionally one big dim, to cross the summarization threshold.
        shape[draw(st.integers(0, len(shape) - 1))] = draw(st.integers(7, 1500))
    n = int(np.prod(shape))
    if dtype.kind == "b":
        elems = st.booleans()
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        elems = st.one_of(
            st.integers(int(info.min), int(info.max)),
            st.sampled_from([int(info.min), int(info.max), 0]),
        )
    else:
        finfo = np.finfo(dtype)
        elems = st.one_of(
            st.floats(width=finfo.bits, allow_nan=True, allow_infinity=True),
            st.floats(-1e3, 1e3, width=finfo.bits),
            st.integers(-1000, 1000).map(float),
            # Edge values rounded to the dtype (1e8 overflows float16: skip it).
            st.sampled_from(
                [
                    float(dtype.type(v))
                    for v in [0.0, -0.0, finfo.max, finfo.tiny, 1e-4, 1e8, 0.5]
                    if abs(v) <= float(finfo.max)
                ]
            ),
        )
    if n > 64:
        # Drawing thousands of elements is slow: tile a drawn pattern instead.
        pattern = draw(st.lists(elems, min_size=1, max_size=32))
        flat = np.resize(np.array(pattern, dtype=dtype), n)
    else:
        flat = np.array(draw(st.lists(elems, min_size=n, max_size=n)), dtype=dtype)
    return flat.reshape(shape)


@settings(
    max_examples=examples(400),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(arr=arrays(), requires_grad=st.booleans())
def test_matches_torch_repr(arr: np.ndarray, requires_grad: bool) -> None:
    _check(arr, requires_grad=requires_grad and arr.dtype.kind == "f")


# -- many dimensions and millions of elements -------------------------------------------
# torch summarises a tensor of more than THRESHOLD elements along the dimensions longer
# than 2 * EDGEITEMS only; a base of a few values broadcast (stride 0) to the shape makes
# millions of elements cheap in both libraries.

PRINTED = 1000      # elements torch formats (its _Formatter loops over them in Python)
ELEMENTS = 50_000_000


def _printed(shape: list[int]) -> int:
    numel = math.prod(shape)
    if numel <= 1000:
        return numel
    return math.prod(min(n, 6) for n in shape)


@st.composite
def expanded(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """(base, view): ``view`` is ``base`` broadcast to up to 22 dims and up to
    :data:`ELEMENTS` elements (its zero strides are what ``expand`` gives), with a repr
    torch prints in at most :data:`PRINTED` elements."""
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    ndim = draw(st.integers(1, 22))
    shape = [draw(st.sampled_from([1, 1, 2, 2, 3, 6, 7, 40, 1000])) for _ in range(ndim)]
    while _printed(shape) > PRINTED or math.prod(shape) > ELEMENTS:
        shape[draw(st.integers(0, ndim - 1))] = 1
    base_shape, size = [], 1
    for n in shape:
        keep = n if size * n <= 4096 and draw(st.booleans()) else 1
        base_shape.append(keep)
        size *= keep
    pattern = draw(st.lists(_elements(dtype), min_size=1, max_size=16))
    base = np.resize(np.array(pattern, dtype=dtype), size).reshape(base_shape)
    strides = [0 if k != n else s for k, n, s in zip(base_shape, shape, base.strides)]
    return base, np.lib.stride_tricks.as_strided(base, shape, strides, writeable=False)


def _elements(dtype: np.dtype) -> st.SearchStrategy:
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.integers(int(info.min), int(info.max))
    finfo = np.finfo(dtype)
    return st.one_of(st.floats(width=finfo.bits, allow_nan=True, allow_infinity=True),
                     st.integers(-1000, 1000).map(float))


def _torch_expanded(base: np.ndarray, shape: tuple[int, ...]) -> torch.Tensor:
    return torch.from_numpy(base.copy()).expand(shape)


@settings(max_examples=examples(60), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=expanded(), limit=st.sampled_from([40, 300, 2000]))
def test_many_dimensions_and_millions_of_elements_match_torch(case, limit) -> None:
    """format_tensor is torch's repr for up to 22 dims and millions of elements; with a
    limit, it keeps torch's first lines (a cut at a line's end) and says what it left
    out, never more than the limit of them."""
    base, view = case
    theirs = repr(_torch_expanded(base, view.shape))
    dtype_name = str(base.dtype) if base.dtype.kind != "b" else "bool"
    assert format_tensor(view, dtype_name, view.shape) == theirs
    cut = format_tensor(view, dtype_name, view.shape, limit=limit)
    if cut == theirs:
        return
    head, _, said = cut.rpartition("\n")
    assert said == f"... (torch.Size({list(view.shape)}), {view.size} elements: " \
                   "the rest of its repr left out)"
    assert theirs.startswith(head) and len(head) <= len("tensor(") + limit
    assert theirs[len(head)] == "\n" or len(head) == len("tensor(") + limit


@pytest.mark.parametrize("dims", [12, 14])
def test_a_binding_keeps_torchs_first_lines_and_stays_small(dims) -> None:
    """``x = torch.zeros([2] * dims)``: torch prints every element (no dimension is
    longer than 6); the document keeps its first lines, whole, and what was left out."""
    from engine.interpreter import reprs, session

    theirs = repr(torch.zeros([2] * dims))
    assert len(theirs) > reprs.MAX_REPR
    doc = session.run(f"x = torch.zeros([2] * {dims})")
    ours = doc["statements"][0]["bindings"]["x"]["repr"]
    head, _, said = ours.rpartition("\n")
    assert theirs.startswith(head + "\n") and len(head) <= reprs.MAX_REPR + len("tensor(")
    assert said.endswith(f"{2 ** dims} elements: the rest of its repr left out)")


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_22_dimensions_make_a_small_document() -> None:
    """torch.zeros([2] * 22) printed 88 MB into the document; now the repr is cut and
    its JSON stays small (and a list of such tensors too)."""
    import json

    from engine.interpreter import session

    doc = session.run("x = torch.zeros([2] * 22); y = [x[0], x[1]]; print(x[0, 0])")
    assert len(json.dumps(doc)) < 200_000
    sts = doc["statements"]
    assert sts[0]["bindings"]["x"]["repr"].startswith("tensor(" + "[" * 22 + "0., 0.],\n")
    assert sts[1]["bindings"]["y"]["repr"].startswith("[tensor(" + "[" * 21)
    assert sts[2]["printed"][0].endswith("(the rest of what it printed left out)")
