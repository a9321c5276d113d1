"""An emulation of ``pypto.index_select`` for Ascend NPUs (seed 003).

Seed 003 (``/work/shared/seeds/003_6d390d85df333210.txt``, the spec, in Chinese)
documents PyPTO's ``index_select(input, dim, index)``: a gather of whole slices of
``input`` along ``dim``, tiled over the *result* by the TileShape set with
``set_vec_tile_shapes``, each tile living in the vector core's Unified Buffer (UB).

Every constraint of the seed's 参数说明 and 约束说明 tables is checked in one traced
step, each failure raising one :class:`PyptoError` naming it (English, then the
seed's own Chinese wording).  The tiling is traced tile by tile so ``tidx explain``
can show which output block, index entries and input rows each tile touches.

>>> DT_BF16.itemsize, DT_BF16.engine is None, DT_FP16.engine
(2, True, torch.float16)
>>> tensor([2, 3], DT_INT8)
pypto.tensor([2, 3], pypto.DT_INT8)
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Sequence

import numpy as np

from tracer import i18n
from tracer.notes import Note
from tracer.recorder import active, emit, span
from tracer.steps import Layer, step

from engine.binding.functions import from_numpy
from engine.binding.tensor import Tensor
from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused, torch_error

__all__ = ["DT_BF16", "DT_FP16", "DT_FP32", "DT_INT8", "DT_INT16", "DT_INT32", "DT_INT64",
           "INT32_MAX", "UB_SIZE_DEFAULT", "PyptoDType", "PyptoError", "PyptoTensor",
           "from_engine", "get_vec_tile_shapes", "index_select", "reset", "set_ub_size",
           "set_vec_tile_shapes", "tensor"]

INT32_MAX = 2147483647
#: Assumption, not in the seed (which only says "UBSize"): 192 KiB is the Unified
#: Buffer of one AI Vector core on Atlas A2/A3 (DAV_C220; Ascend C kernels for it use
#: UB_SIZE 196608).  Other chips differ, hence ``set_ub_size`` and ``ub_size=``.
UB_SIZE_DEFAULT = 192 * 1024
#: Tiles listed one event each; the rest are counted in one summary event.
MAX_TILE_EVENTS = 64


class PyptoError(ValueError):
    """A violated pypto constraint; ``constraint`` names it (e.g. ``"input dtype"``)."""

    constraint: str = ""


class PyptoDType:
    """A pypto data type: its name, its size on the NPU and the engine dtype holding it."""

    __slots__ = ("name", "itemsize", "engine", "storage")

    def __init__(self, name: str, itemsize: int, engine: D.dtype | None,
                 storage: D.dtype) -> None:
        self.name, self.itemsize, self.engine, self.storage = name, itemsize, engine, storage

    def __repr__(self) -> str:
        return f"pypto.{self.name}"


DT_FP32 = PyptoDType("DT_FP32", 4, D.float32, D.float32)
DT_FP16 = PyptoDType("DT_FP16", 2, D.float16, D.float16)
# The engine has no bfloat16: a BF16 tensor can be declared, and its data (if given)
# is rounded to bfloat16 precision (nearest even, as torch's .to(bfloat16)) and
# stored as float32.  sizeof(DT_BF16) stays 2 for the UB budget.
DT_BF16 = PyptoDType("DT_BF16", 2, None, D.float32)
DT_INT16 = PyptoDType("DT_INT16", 2, D.int16, D.int16)
DT_INT8 = PyptoDType("DT_INT8", 1, D.int8, D.int8)
DT_INT32 = PyptoDType("DT_INT32", 4, D.int32, D.int32)
DT_INT64 = PyptoDType("DT_INT64", 8, D.int64, D.int64)
_FROM_ENGINE = {d.engine: d for d in (DT_FP32, DT_FP16, DT_INT16, DT_INT8, DT_INT32,
                                      DT_INT64)}

INPUT_DTYPES = (DT_FP32, DT_FP16, DT_BF16, DT_INT16, DT_INT8, DT_INT32)
INDEX_DTYPES = (DT_INT32, DT_INT64)


def _round_bf16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even), kept as float32."""
    f32 = np.ascontiguousarray(values, dtype=np.float32)
    bits = f32.view(np.uint32)
    bits = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) \
        & np.uint32(0xFFFF0000)
    return np.where(np.isnan(f32), f32, bits.view(np.float32))


class PyptoTensor:
    """A pypto tensor: shape, dtype and (optionally) data.

    ``pypto.tensor(shape, dtype)`` in the seed only *declares* a tensor; tidx keeps such
    a tensor data-less (like a meta tensor), so shape checks run on shapes of any size.
    ``view_shape`` is the seed's viewshape (constraint 3): the window a tiled view of
    the tensor sees, the full shape unless given.
    """

    __slots__ = ("shape", "dtype", "data", "view_shape")

    def __init__(self, shape: tuple[int, ...], dtype: PyptoDType, data: np.ndarray | None,
                 view_shape: tuple[int, ...]) -> None:
        self.shape, self.dtype, self.data, self.view_shape = shape, dtype, data, view_shape

    def dim(self) -> int:
        return len(self.shape)

    def numel(self) -> int:
        return math.prod(self.shape)

    def to_engine(self):
        """The data as an engine tensor (float32 for DT_BF16)."""
        if self.data is None:
            raise Refused(f"{self!r} is only declared: it has no data")
        return from_numpy(np.ascontiguousarray(self.data))

    def __repr__(self) -> str:
        return f"pypto.tensor({list(self.shape)}, {self.dtype!r})"

    def __tidx_summary__(self, max_values: int) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "pypto_tensor", "shape": list(self.shape),
                               "dtype": self.dtype.name, "declared_only": self.data is None}
        if self.view_shape != self.shape:
            out["view_shape"] = list(self.view_shape)
        if self.data is not None and self.data.size <= max_values:
            out["values"] = self.data.reshape(-1).tolist()
        return out


def _shape(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0
            for s in value):
        raise Refused(f"pypto {what} must be a list of non-negative ints, got {value!r}")
    return tuple(int(s) for s in value)


def _make(shape: tuple[int, ...], dtype: PyptoDType, data: Any,
          view_shape: Sequence[int] | None) -> PyptoTensor:
    if not isinstance(dtype, PyptoDType):
        raise Refused(f"pypto dtype expected (pypto.DT_FP32 ...), got {dtype!r}")
    view = shape if view_shape is None else _shape(view_shape, "view_shape")
    if len(view) != len(shape):
        raise Refused(f"view_shape {list(view)} must have as many dims as {list(shape)}")
    if data is not None:
        data = np.asarray(data, dtype=dtype.storage.np)
        if data.shape != shape:
            raise Refused(f"data of shape {list(data.shape)} for a tensor of {list(shape)}")
        if dtype is DT_BF16:
            data = _round_bf16(data)
    return PyptoTensor(shape, dtype, data, view)


def tensor(shape: Sequence[int], dtype: PyptoDType, *, data: Any = None,
           view_shape: Sequence[int] | None = None) -> PyptoTensor:
    """``pypto.tensor([3, 4], pypto.DT_FP32)`` as in the seed's example; ``data=`` (a tidx
    extension) gives it values, without which it is declared only."""
    return _make(_shape(shape, "shape"), dtype, data, view_shape)


def from_engine(t: Any, dtype: PyptoDType | None = None, *,
                view_shape: Sequence[int] | None = None) -> PyptoTensor:
    """Wrap an engine tensor (its data is shared, not copied, unless ``dtype=DT_BF16``)."""

    if not isinstance(t, Tensor):
        raise Refused(f"from_engine() takes an engine tensor, got {type(t).__name__}")
    if dtype is None:
        dtype = _FROM_ENGINE.get(t.dtype)
        if dtype is None:
            raise Refused(f"pypto has no data type for {t.dtype}")
    data = None if t.is_meta else t._impl.array()
    return _make(tuple(t.shape), dtype, data, view_shape)


# -- per-run state: the TileShape and the UB size --------------------------------------
class TileSettings:
    """What ``set_vec_tile_shapes`` and ``set_ub_size`` set, kept per run (the run's
    context holds one; a new run starts with no TileShape and the default UB size)."""

    __slots__ = ("tile_shape", "ub_size")

    def __init__(self) -> None:
        self.tile_shape: tuple[int, ...] | None = None
        self.ub_size: int = UB_SIZE_DEFAULT


def _settings() -> TileSettings:
    return current().local(TileSettings)


def set_vec_tile_shapes(*tile: int) -> None:
    """Store the TileShape that tiles the result of the next vector operations."""
    if not tile or not all(isinstance(t, (int, np.integer)) and not isinstance(t, bool)
                           and t > 0 for t in tile):
        raise _error("TileShape values", f"set_vec_tile_shapes{tile} needs one or more "
                     "positive ints (not a seed-003 constraint: a tile needs a size)", "",
                     where="pypto.set_vec_tile_shapes")
    _settings().tile_shape = tuple(int(t) for t in tile)


def get_vec_tile_shapes() -> list[int] | None:
    tile = _settings().tile_shape
    return None if tile is None else list(tile)


def set_ub_size(nbytes: int) -> None:
    """Set the Unified Buffer size the UB constraint compares against."""
    if not isinstance(nbytes, int) or nbytes <= 0:
        raise Refused(f"the UB size must be a positive int, got {nbytes!r}")
    _settings().ub_size = nbytes


def reset() -> None:
    """Forget the TileShape and restore the default UB size (of the current run)."""
    st = _settings()
    st.tile_shape, st.ub_size = None, UB_SIZE_DEFAULT


# -- index_select ------------------------------------------------------------------
def _error(constraint: str, english: str, seed_zh: str,
           where: str = "pypto.index_select") -> BaseException:
    """One PyptoError: English naming the constraint, then the seed's wording."""
    text = f"{where}: constraint '{constraint}' violated: {english}."
    if seed_zh:
        text += f" Seed 003: {seed_zh}"
    exc = torch_error(PyptoError, text)  # a framework error, not a tidx refusal
    exc.constraint = constraint  # type: ignore[attr-defined]
    return exc


#: one of pypto.index_select's tiling constraints checked (``check <constraint>``)
CHECK_CONSTRAINT = step("check <constraint>", Layer.BINDING)


def _check(constraint: str, ok: bool, english: str, note: str, **compared: Any) -> None:
    """One traced check: the values it compared, and whether it passed.

    ``note`` is the constraint's id: its English template states the constraint, its
    Chinese one is the seed's own sentence, which a failure also quotes (the one copy of
    the seed's wording is the Chinese table)."""
    with span(CHECK_CONSTRAINT, called=f"check {constraint}", note=note, passed=bool(ok),
              **compared):
        if not ok:
            raise _error(constraint, english, i18n.text(note, "zh"))


def _as_pypto(value: Any, what: str) -> PyptoTensor:
    if isinstance(value, PyptoTensor):
        return value
    if isinstance(value, Tensor):
        return from_engine(value)
    raise Refused(f"pypto.index_select(): {what} must be a tensor, got {type(value).__name__}")


def _checks(x: PyptoTensor, dim: Any, index: PyptoTensor, tile: tuple[int, ...] | None,
            ub_size: int) -> tuple[int, tuple[int, ...]]:
    """All of the seed's constraints, in build-time order, index values (runtime) last.
    Returns the wrapped dim and the result shape."""
    names = [d.name for d in INPUT_DTYPES]
    _check("input dtype", x.dtype in INPUT_DTYPES,
           f"input dtype {x.dtype.name} is not one of {', '.join(names)}",
           "pypto.check.input_dtype",
           dtype=x.dtype.name, supported=names)
    _check("input rank", 2 <= x.dim() <= 4, f"input has {x.dim()} dims, not 2 to 4",
           "pypto.check.input_rank", ndim=x.dim(), allowed=[2, 4])
    _check("input not empty", x.numel() > 0, f"input of shape {list(x.shape)} is empty",
           "pypto.check.input_not_empty", shape=list(x.shape), numel=x.numel())
    _check("input shape size", x.numel() <= INT32_MAX,
           f"input has {x.numel()} elements, more than INT32_MAX ({INT32_MAX})",
           "pypto.check.input_shape_size", numel=x.numel(), limit=INT32_MAX)
    n = x.dim()
    is_int = isinstance(dim, (int, np.integer)) and not isinstance(dim, bool)
    _check("dim range", is_int and -n <= dim < n,
           f"dim {dim!r} is not an int in [{-n}, {n})",
           "pypto.check.dim_range", dim=repr(dim), low=-n, high=n)
    d = int(dim) % n
    _check("index dtype", index.dtype in INDEX_DTYPES,
           f"index dtype {index.dtype.name} is not DT_INT32 or DT_INT64",
           "pypto.check.index_dtype", dtype=index.dtype.name,
           supported=[t.name for t in INDEX_DTYPES])
    _check("index rank", 1 <= index.dim() <= 2, f"index has {index.dim()} dims, not 1 or 2",
           "pypto.check.index_rank", ndim=index.dim(), allowed=[1, 2])
    _check("index not empty", index.numel() > 0,
           f"index of shape {list(index.shape)} is empty", "pypto.check.index_not_empty",
           shape=list(index.shape), numel=index.numel())
    _check("index shape size", index.numel() <= INT32_MAX,
           f"index has {index.numel()} elements, more than INT32_MAX ({INT32_MAX})",
           "pypto.check.index_shape_size", numel=index.numel(), limit=INT32_MAX)
    _check("input viewshape", x.view_shape[d] >= x.shape[d],
           f"the view of input cuts dim {d}: viewshape[{d}] = {x.view_shape[d]} < "
           f"input.shape[{d}] = {x.shape[d]}",
           "pypto.check.input_viewshape",
           view_shape=list(x.view_shape), shape=list(x.shape), dim=d)
    out_shape = x.shape[:d] + index.shape + x.shape[d + 1:]
    _check("TileShape set", tile is not None,
           "no TileShape: call pypto.set_vec_tile_shapes(...) first",
           "pypto.check.tile_shape_set", tile_shape=tile)
    assert tile is not None
    _check("TileShape rank", len(tile) == len(out_shape),
           f"TileShape {list(tile)} has {len(tile)} dims but the result "
           f"{list(out_shape)} has {len(out_shape)}",
           "pypto.check.tile_shape_rank", tile_shape=list(tile),
           result_shape=list(out_shape))
    tile_bytes = math.prod(tile) * x.dtype.itemsize
    _check("UB size", tile_bytes < ub_size,
           f"a tile takes prod({list(tile)}) * sizeof({x.dtype.name}) = {tile_bytes} bytes, "
           f"not less than the UB size {ub_size}",
           "pypto.check.ub_size", tile_bytes=tile_bytes, ub_size=ub_size)
    if index.data is not None:
        values = index.data.astype(np.int64, copy=False)
        bad = (values < 0) | (values >= x.shape[d])
        first = np.argwhere(bad)[0].tolist() if bad.any() else None
        _check("index values", first is None,
               f"index{first} = {values[tuple(first)] if first else ''} is not a valid "
               f"index into input.shape[{d}] = {x.shape[d]} (valid: 0 <= v < {x.shape[d]}; "
               "negative values are not wrapped)",
               "pypto.check.index_values", low=0, high=x.shape[d],
               min=int(values.min()), max=int(values.max()))
    return d, out_shape


TILING = step("tiling", Layer.KERNEL)
MORE_TILES = step("more tiles", Layer.KERNEL)


#: one tile of the output the emulated kernel fills (``tile 0``)
TILE = step("tile <k>", Layer.KERNEL, note="pypto.tile")


def _trace_tiles(x: PyptoTensor, d: int, index: PyptoTensor, out_shape: tuple[int, ...],
                 tile: tuple[int, ...]) -> None:
    """One event per result tile (the first MAX_TILE_EVENTS), then a summary event."""
    grid = [math.ceil(o / t) for o, t in zip(out_shape, tile)]
    total = math.prod(grid)
    m, size = index.dim(), x.dtype.itemsize
    with span(TILING, note=Note("pypto.tiling", dim=d),
              result_shape=list(out_shape), tile_shape=list(tile), grid=grid, tiles=total,
              ub_bytes_per_tile=math.prod(tile) * size):
        for k, pos in enumerate(itertools.islice(itertools.product(*map(range, grid)),
                                                 MAX_TILE_EVENTS)):
            offsets = [p * t for p, t in zip(pos, tile)]
            extents = [min(t, o - off) for t, o, off in zip(tile, out_shape, offsets)]
            ranges = [[off, off + ext] for off, ext in zip(offsets, extents)]
            # result dims d .. d+m-1 walk the index; the others walk input's dims
            block = ranges[:d] + [[0, x.shape[d]]] + ranges[d + m:]
            rows = None
            if index.data is not None:
                rows = np.unique(index.data[tuple(slice(*r) for r in ranges[d:d + m])])
            emit(TILE, called=f"tile {k}",
                 offsets=offsets, extents=extents, index_entries=ranges[d:d + m],
                 input_block=block, input_rows=None if rows is None else rows.tolist(),
                 ub_bytes=math.prod(tile) * size, valid_bytes=math.prod(extents) * size)
        if total > MAX_TILE_EVENTS:
            emit(MORE_TILES,
                 note=Note("pypto.more_tiles", first=MAX_TILE_EVENTS, last=total - 1),
                 count=total - MAX_TILE_EVENTS, total=total)


PYPTO_INDEX_SELECT = step("pypto.index_select", Layer.PYTHON, note="pypto.index_select")
CONSTRAINT_CHECKS = step("constraint checks", Layer.BINDING, note="pypto.constraint_checks")
GATHER = step("gather", Layer.KERNEL, note="pypto.gather")


def index_select(input: Any, dim: int, index: Any, *, ub_size: int | None = None) -> Any:
    """``pypto.index_select(input, dim, index)`` (seed 003).

    ``result.shape = input.shape[:d] + index.shape + input.shape[d+1:]``: the seed's
    formula (``shape(result) = (S_0, ..., S_{d-1}, I_0, S_{d+1}, ...)``) with a 2-d index
    replacing dim ``d`` by both of its dims; ``result[..., i, ...] = input[..., index[i],
    ...]``.  Returns an engine tensor (float32 for DT_BF16) when input and index have
    data, else a declared PyptoTensor of the result's shape and dtype.
    """
    x, idx = _as_pypto(input, "input"), _as_pypto(index, "index")
    ub = _settings().ub_size if ub_size is None else ub_size
    tile = _settings().tile_shape
    with span(PYPTO_INDEX_SELECT, input=x,
              dim=repr(dim), index=idx, tile_shape=tile, ub_size=ub) as top:
        with span(CONSTRAINT_CHECKS):
            d, out_shape = _checks(x, dim, idx, tile, ub)
        if active():
            _trace_tiles(x, d, idx, out_shape, tile)  # type: ignore[arg-type]
        if x.data is None or idx.data is None:
            result: Any = PyptoTensor(out_shape, x.dtype, None, out_shape)
        else:
            with span(GATHER, dim=d):
                result = from_numpy(np.ascontiguousarray(np.take(x.data, idx.data, axis=d)))
        top.set_result(result)
    return result
