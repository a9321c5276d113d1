"""engine.pypto: seed 003's pypto.index_select, its constraints, values and tiling trace.

Values are compared with real torch.index_select; a 2-d index is compared with
``torch.index_select(input, dim, index.flatten()).reshape(...)``, the seed's shape
formula with dim replaced by the index's shape.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from conftest import examples
from engine.pypto import index_select as pypto
from engine.pypto.index_select import PyptoError
from tracer import record
from tracer import values as V
from tracer.events import walk

pytestmark = pytest.mark.torch

X = [[0.1427, 0.0231, -0.5414, -1.0009],
     [-0.4664, 0.2647, -0.1228, -1.1068],
     [-1.1734, -0.6571, 0.7230, -0.6004]]


@pytest.fixture(autouse=True)
def fresh_state():
    pypto.reset()
    yield
    pypto.reset()


def x34(**kw):
    return pypto.tensor([3, 4], pypto.DT_FP32, data=X, **kw)


def idx(values, dtype=pypto.DT_INT32):
    return pypto.tensor([len(values)], dtype, data=values)


# -- the seed's own example ----------------------------------------------------------
def test_seed_example():
    x, indices = x34(), idx([0, 2])
    pypto.set_vec_tile_shapes(2, 4)
    out1 = pypto.index_select(x, 0, indices)
    out2 = pypto.index_select(x, 1, indices)
    assert isinstance(out1, engine.Tensor) and out1.dtype is engine.float32
    np.testing.assert_array_equal(out1.numpy(), np.float32([X[0], X[2]]))
    np.testing.assert_array_equal(out2.numpy(), np.float32([[0.1427, -0.5414],
                                                            [-0.4664, -0.1228],
                                                            [-1.1734, 0.7230]]))


def test_declared_tensors_give_a_declared_result():
    pypto.set_vec_tile_shapes(1, 8, 8)
    out = pypto.index_select(pypto.tensor([4, 5, 8], pypto.DT_BF16), -2,
                             pypto.tensor([3], pypto.DT_INT64))
    assert isinstance(out, pypto.PyptoTensor) and out.data is None
    assert out.shape == (4, 3, 8) and out.dtype is pypto.DT_BF16


def test_engine_tensors_are_accepted():
    pypto.set_vec_tile_shapes(2, 2)
    t = engine.tensor([[1, 2], [3, 4], [5, 6]], dtype=engine.int32)
    out = pypto.index_select(t, 0, engine.tensor([2, 0]))
    assert out.tolist() == [[5, 6], [1, 2]] and out.dtype is engine.int32


# -- one test per constraint ---------------------------------------------------------
def raises(constraint, *args, **kw):
    with pytest.raises(PyptoError, match=f"constraint '{constraint}'") as info:
        pypto.index_select(*args, **kw)
    assert info.value.constraint == constraint
    assert "Seed 003:" in str(info.value)
    return str(info.value)


def test_input_dtype():
    pypto.set_vec_tile_shapes(2, 2)
    msg = raises("input dtype", pypto.tensor([2, 2], pypto.DT_INT64), 0, idx([0]))
    assert "DT_INT64" in msg and "DT_BF16" in msg


@pytest.mark.parametrize("shape", [[4], [1, 1, 1, 1, 2]])
def test_input_rank(shape):
    pypto.set_vec_tile_shapes(1)
    assert "2-4维" in raises("input rank", pypto.tensor(shape, pypto.DT_FP32), 0, idx([0]))


def test_input_not_empty():
    pypto.set_vec_tile_shapes(1, 1)
    raises("input not empty", pypto.tensor([0, 3], pypto.DT_FP32), 1, idx([0]))


def test_input_shape_size():
    pypto.set_vec_tile_shapes(1, 1)
    big = pypto.tensor([65536, 32768], pypto.DT_INT8)  # 2**31 elements, declared only
    assert "INT32_MAX" in raises("input shape size", big, 0, idx([0]))
    ok = pypto.tensor([65536, 32767], pypto.DT_INT8)
    assert pypto.index_select(ok, 0, idx([0])).shape == (1, 32767)


@pytest.mark.parametrize("dim", [2, -3, 1.0, True])
def test_dim_range(dim):
    pypto.set_vec_tile_shapes(1, 1)
    raises("dim range", x34(), dim, idx([0]))


def test_negative_dim_wraps():
    pypto.set_vec_tile_shapes(4, 4)
    out = pypto.index_select(x34(), -1, idx([3]))
    np.testing.assert_array_equal(out.numpy(), np.float32(X)[:, [3]])


@pytest.mark.parametrize("dtype", [pypto.DT_FP32, pypto.DT_INT16, pypto.DT_INT8])
def test_index_dtype(dtype):
    pypto.set_vec_tile_shapes(1, 1)
    raises("index dtype", x34(), 0, pypto.tensor([1], dtype, data=[0]))


def test_index_rank():
    pypto.set_vec_tile_shapes(1, 1)
    raises("index rank", x34(), 0, pypto.tensor([1, 1, 1], pypto.DT_INT32))
    raises("index rank", x34(), 0, pypto.tensor([], pypto.DT_INT32))


def test_index_not_empty():
    pypto.set_vec_tile_shapes(1, 1)
    raises("index not empty", x34(), 0, pypto.tensor([0], pypto.DT_INT64))


def test_index_shape_size():
    pypto.set_vec_tile_shapes(1, 1, 1)
    raises("index shape size", x34(), 0, pypto.tensor([65536, 32768], pypto.DT_INT32))


@pytest.mark.parametrize("values", [[0, 3], [-1], [2, 0, -3]])
def test_index_values(values):
    pypto.set_vec_tile_shapes(1, 1)
    msg = raises("index values", x34(), 0, idx(values, pypto.DT_INT64))
    assert "0 <= v < 3" in msg


def test_input_viewshape():
    pypto.set_vec_tile_shapes(2, 2)
    x = x34(view_shape=[2, 4])
    raises("input viewshape", x, 0, idx([0]))
    assert pypto.index_select(x, 1, idx([0])).shape == (3, 1)  # dim 1 is whole


def test_tile_shape_set():
    assert pypto.get_vec_tile_shapes() is None
    assert "set_vec_tile_shapes" in raises("TileShape set", x34(), 0, idx([0]))


def test_tile_shape_rank():
    pypto.set_vec_tile_shapes(1, 1, 1)
    raises("TileShape rank", x34(), 0, idx([0]))
    # a 2-d index makes the result 3-d: now the 3-d TileShape fits
    two_d = pypto.tensor([2, 2], pypto.DT_INT32, data=[[0, 1], [2, 2]])
    assert pypto.index_select(x34(), 0, two_d).shape == (2, 2, 4)


def test_tile_shape_values():
    for bad in [(), (0, 4), (2, -1)]:
        with pytest.raises(PyptoError, match="TileShape values"):
            pypto.set_vec_tile_shapes(*bad)


def test_ub_size():
    pypto.set_vec_tile_shapes(4, 4)  # 16 * 4 bytes = 64
    raises("UB size", x34(), 0, idx([0]), ub_size=64)  # strictly less than
    assert pypto.index_select(x34(), 0, idx([0]), ub_size=65).shape == (1, 4)
    pypto.set_ub_size(64)
    raises("UB size", x34(), 0, idx([0]))
    pypto.reset()
    pypto.set_vec_tile_shapes(128, 384)  # fp32: 196608 bytes, the 192 KiB default
    raises("UB size", x34(), 0, idx([0]))
    pypto.set_vec_tile_shapes(128, 192)  # fp16: half the bytes fit
    assert pypto.index_select(pypto.tensor([3, 4], pypto.DT_FP16), 0,
                              pypto.tensor([1], pypto.DT_INT32)).shape == (1, 4)


# -- values against torch ------------------------------------------------------------
DTYPES = {"DT_FP32": torch.float32, "DT_FP16": torch.float16, "DT_BF16": torch.bfloat16,
          "DT_INT16": torch.int16, "DT_INT8": torch.int8, "DT_INT32": torch.int32}


@st.composite
def cases(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=2, max_size=4))
    dim = draw(st.integers(-len(shape), len(shape) - 1))
    index_shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    values = draw(st.lists(st.integers(0, shape[dim] - 1), min_size=int(np.prod(index_shape)),
                           max_size=int(np.prod(index_shape))))
    name = draw(st.sampled_from(sorted(DTYPES)))
    index_dtype = draw(st.sampled_from(["DT_INT32", "DT_INT64"]))
    seed = draw(st.integers(0, 2**16))
    return shape, dim, index_shape, values, name, index_dtype, seed


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_matches_torch_index_select(case):
    shape, dim, index_shape, values, name, index_dtype, seed = case
    rng = np.random.default_rng(seed)
    data = rng.normal(size=shape) * 50
    tdtype = DTYPES[name]
    if tdtype.is_floating_point:
        t = torch.tensor(data, dtype=torch.float32).to(tdtype)
    else:
        t = torch.tensor(np.round(data), dtype=torch.float32).clamp(-128, 127).to(tdtype)
    x = pypto.tensor(shape, getattr(pypto, name), data=t.float().numpy())
    index = pypto.tensor(index_shape, getattr(pypto, index_dtype),
                         data=np.reshape(values, index_shape))
    d = dim % len(shape)
    expected_shape = shape[:d] + index_shape + shape[d + 1:]
    pypto.set_vec_tile_shapes(*[1 + v % 3 for v in range(len(expected_shape))])
    out = pypto.index_select(x, dim, index)
    flat = torch.tensor(values, dtype=torch.int32 if index_dtype == "DT_INT32" else torch.int64)
    ref = torch.index_select(t, dim, flat).reshape(expected_shape)
    assert list(out.shape) == list(ref.shape)
    np.testing.assert_array_equal(out.numpy(), ref.float().numpy())
    if tdtype is not torch.bfloat16:  # BF16 data lives in float32 engine tensors
        assert out.dtype.name == str(tdtype).removeprefix("torch.")


# -- the recorded tiling -------------------------------------------------------------
def events_named(tr, prefix):
    evs = [e for st_ in tr.to_dict()["statements"] for _, e in walk(st_["events"])]
    return [e for e in evs if e["name"].startswith(prefix)]


def args(ev):
    """A step's arguments as plain Python values."""
    return {k: V.plain(v) for k, v in ev["args"].items()}


def test_trace_tiles():
    x = pypto.tensor([4, 6], pypto.DT_FP32, data=np.arange(24).reshape(4, 6))
    pypto.set_vec_tile_shapes(2, 4)
    with record() as tr:
        pypto.index_select(x, 0, idx([3, 1, 1, 0, 2]))  # result 5x6: 3 x 2 tiles
    (top,) = events_named(tr, "pypto.index_select")
    assert [c["name"] for c in top["children"]][:2] == ["constraint checks", "tiling"]
    checks = top["children"][0]["children"]
    assert len(checks) == 14 and all(args(c)["passed"] for c in checks)
    ub = next(c for c in checks if c["name"] == "check UB size")
    assert args(ub) == {"passed": True, "tile_bytes": 32, "ub_size": 196608}
    tiles = events_named(tr, "tile ")
    assert len(tiles) == 6 and not events_named(tr, "more tiles")
    assert args(top["children"][1])["tiles"] == 6
    last = args(tiles[-1])
    assert last["offsets"] == [4, 4] and last["extents"] == [1, 2]
    assert last["index_entries"] == [[4, 5]] and last["input_rows"] == [2]
    assert last["input_block"] == [[0, 4], [4, 6]]
    assert last["ub_bytes"] == 32 and last["valid_bytes"] == 8
    assert args(tiles[0])["input_rows"] == [1, 3]


def test_trace_is_bounded_for_many_tiles():
    pypto.set_vec_tile_shapes(1, 8)
    with record() as tr:
        pypto.index_select(pypto.tensor([100, 64], pypto.DT_FP16), 0,
                           pypto.tensor([100], pypto.DT_INT32))  # 100 x 8 tiles
    assert len(events_named(tr, "tile ")) == pypto.MAX_TILE_EVENTS
    (more,) = events_named(tr, "more tiles")
    assert args(more)["count"] == 800 - 64 and args(more)["total"] == 800


def test_trace_records_the_failing_check():
    pypto.set_vec_tile_shapes(4, 4)
    with record() as tr, pytest.raises(PyptoError):
        pypto.index_select(x34(), 0, idx([0]), ub_size=10)
    (failed,) = [e for e in events_named(tr, "check ") if e["error"]]
    assert failed["name"] == "check UB size" and args(failed)["passed"] is False
    assert not events_named(tr, "tile ")
