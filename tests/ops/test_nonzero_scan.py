"""nonzero's two passes over an expanded tensor visit its distinct elements only: the
count and the coordinates must be numpy's over the full view, for any broadcast."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.ops.nonzero import count_nonzero, nonzero_coords


@st.composite
def expanded(draw) -> np.ndarray:
    """A small array, some dims of size 1 broadcast to larger sizes, maybe transposed."""
    ndim = draw(st.integers(0, 4))
    shape = draw(st.lists(st.integers(0, 3), min_size=ndim, max_size=ndim))
    base = np.array(draw(st.lists(st.integers(-1, 1), min_size=int(np.prod(shape)),
                                  max_size=int(np.prod(shape)))), dtype=np.int64)
    base = base.reshape(shape)
    target = [draw(st.integers(1, 4)) if n == 1 else n for n in shape]
    view = np.broadcast_to(base, target)
    if ndim >= 2 and draw(st.booleans()):
        view = view.transpose()
    return view


@settings(max_examples=examples(300), deadline=None)
@given(expanded())
def test_scan_matches_numpy_over_the_full_view(view: np.ndarray) -> None:
    assert count_nonzero(view) == np.count_nonzero(view)
    coords = nonzero_coords(view)
    expected = np.argwhere(view)
    assert coords.shape == expected.shape
    assert (coords == expected).all()


def test_a_huge_expansion_is_counted_without_visiting_it() -> None:
    view = np.broadcast_to(np.array([0, 0, 7, 0]), (10**12, 4))
    assert count_nonzero(view) == 10**12
    small = np.broadcast_to(np.array([[0], [3]]), (2, 10**6))
    assert nonzero_coords(small).shape == (10**6, 2)
