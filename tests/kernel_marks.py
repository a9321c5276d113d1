"""Run one declared operator on small generated inputs and replay, independently of
what its kernels recorded, which storage elements it read and wrote.

The replay (tests/ops/test_kernel_marks.py holds the recorded marks to it):

* **written** — every storage's bytes before and after the call: an element whose bytes
  changed was written.  The inputs hold distinct values, so almost every write changes
  its element; a fresh output's storage is filled with a sentinel byte pattern first,
  so every element the operator produced is seen to change.
* **read** — each floating input holds *its own code* at every element
  (``100 * (k + 1) + offset + 0.5`` for the k-th input): a value of the output that
  equals a code says which input element it came from (gather, take, index_select,
  sort, cat ... copy values), and that element must be marked read.

Generation is by schema: a Tensor argument is a small float32 matrix of codes, an
index is an int64 tensor of valid positions, a mask is a bool matrix; a few profiles
(index shapes and dims) are tried in turn, and an operator none of them runs is
reported with the errors it raised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.core import dtypes as D
from engine.core.context import activate
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.declarations import REGISTRY
from engine.dispatch.dispatcher import dispatch
from engine.dispatch.schema import FunctionSchema
from engine.interpreter.session import Session
from engine.memory import allocator, resize
from engine.memory import empty as memory
from tracer import recorder
from tracer import values as V
from tracer.events import walk

SENTINEL = 0xA5
SHAPE = (3, 4)

#: names of Tensor arguments that hold positions, not data
INDEX_NAMES = ("index", "indices")
MASK_NAMES = ("mask",)


def code(k: int, off: int) -> float:
    return 100.0 * (k + 1) + off + 0.5


@dataclass
class Profile:
    """One way to fill the arguments: the dim, the index tensors' values and a source
    shape that fits them."""
    name: str
    dim: int
    index: list
    dtype: Any = D.float32
    source_rows: int | None = 2
    shape: tuple = SHAPE


PROFILES = [
    Profile("matrix index, dim 0", 0, [[0, 1, 2, 0], [2, 0, 1, 1]]),
    Profile("vector index, dim 0", 0, [2, 0]),
    Profile("vector index, dim 1", 1, [3, 1], source_rows=None),
    Profile("int64 data", 0, [[0, 1, 2, 0], [2, 0, 1, 1]], dtype=D.int64),
    Profile("bool data", 0, [[0, 1, 2, 0], [2, 0, 1, 1]], dtype=D.bool),
    Profile("vector data", 0, [2, 0], shape=(12,)),
    Profile("one element", 0, [0], shape=(1,)),
    Profile("3-d data", 0, [[[0]]], shape=(2, 2, 3)),
]

#: values for arguments the generic rules cannot guess, by name (or "op:name")
NAMED: dict[str, Any] = {
    "rounding_mode": "floor", "reduce": "sum", "index_reduce:reduce": "prod",
    "scatter:reduce": "add", "stride": [4, 1], "dims": [1, 0],
    "physical_layout": [0, 1], "split_sizes": [1, 2], "repeats": [2, 1], "from": 0,
    "to": 5, "low": 0, "high": 5, "source": 1, "destination": 0, "dim0": 0, "dim1": 1,
    "axis0": 0, "axis1": 1, "min": 1, "max": 5, "sections": 3, "tensor_split:indices": [1],
    "unflatten:sizes": [1, 4], "repeat:repeats": [2, 1], "shifts": [1], "diagonal": 0,
    "split.sizes:split_size": [1, 2], "repeat_interleave:repeats": 2,
    "movedim.intlist:source": [0], "movedim.intlist:destination": [1],
    "moveaxis.intlist:source": [0], "moveaxis.intlist:destination": [1],
    # tensors of a given shape or dtype: made from the inputs
    "tensor_split:tensor_indices_or_sections": lambda i: _tensor(np.array([1]), D.int64),
    "repeat_interleave.Tensor:repeats": lambda i: _tensor(np.array([1, 2]), D.int64),
    "repeat_interleave.self_Tensor:repeats": lambda i: _tensor(np.array([2]), D.int64),
    "select_scatter:src": lambda i: i.data_tensor(shape=(4,)),
    "diagonal_scatter:src": lambda i: i.data_tensor(shape=(3,)),
    # far below the data: tidx runs logaddexp only where exp(-|a - b|) is 0
    # the matmul family: operands whose inner sizes agree with the profile's data
    # an out= tensor of the product's size (12 x 12 from the (12,) vectors): growing it
    # would reallocate the storage the replay compares
    "outer:out": lambda i: i.data_tensor(shape=(12, 12)),
    "ger:out": lambda i: i.data_tensor(shape=(12, 12)),
    "mm:mat2": lambda i: i.data_tensor(shape=(4, 2)),
    "bmm:mat2": lambda i: i.data_tensor(shape=(2, 3, 2)),
    "baddbmm:batch2": lambda i: i.data_tensor(shape=(2, 3, 3)),
    "addbmm:self": lambda i: i.data_tensor(shape=(2, 3)),
    "addbmm:batch2": lambda i: i.data_tensor(shape=(2, 3, 3)),
    "einsum:equation": "ij,ij->i",
    "tensordot:out": lambda i: i.data_tensor(shape=(4, 4)),
    "mv:vec": lambda i: i.data_tensor(shape=(4,)),
    "addmm:mat1": lambda i: i.data_tensor(shape=(3, 2)),
    "matrix_power:self": lambda i: i.data_tensor(shape=(3, 3)), "matrix_power:n": 2,
    "addmm:mat2": lambda i: i.data_tensor(shape=(2, 4)),
    "addmv:mat": lambda i: i.data_tensor(shape=(12, 4)),
    "addmv:vec": lambda i: i.data_tensor(shape=(4,)),
    "logaddexp:other": lambda i: _tensor(np.array(-1000.0), D.float32),
    # quantile's q: within [0, 1], of the data's dtype
    "quantile:q": lambda i: _tensor(np.array([0.25, 0.5]), i.profile.dtype),
    "nanquantile:q": lambda i: _tensor(np.array([0.25, 0.5]), i.profile.dtype),
    **{f"{name}.{overload}:q": 0.25 for name in ("quantile", "nanquantile")
       for overload in ("scalar", "scalar_out")},
    # below where Sleef's vectorised sinh and cosh overflow early (tidx refuses those)
    "sinh:self": lambda i: _tensor(np.arange(12.0).reshape(3, 4), D.float32),
    "cosh:self": lambda i: _tensor(np.arange(12.0).reshape(3, 4), D.float32),
    # the losses: a class per row of the 3x4 data; pad: one element on each side
    **{f"{loss}:target": (lambda i: _tensor(np.array([0, 3, 1]), D.int64))
       for loss in ("nll_loss_nd", "nll_loss", "nll_loss_forward", "cross_entropy_loss")},
    "pad:pad": [1, 1], "constant_pad_nd:pad": [1, 1],
}


@dataclass
class Run:
    """One operator run: the recorded marks and the replay's facts, by storage label."""
    op: str
    profile: str
    written: dict[str, set[int]] = field(default_factory=dict)
    read: dict[str, set[int]] = field(default_factory=dict)
    changed: dict[str, set[int]] = field(default_factory=dict)
    came_from: dict[str, set[int]] = field(default_factory=dict)
    #: elements whose change changed what the call produced (the influence replay)
    influenced: dict[str, set[int]] = field(default_factory=dict)
    #: elements a kernel marked by their count only (a large set): storage -> count
    counted: dict[str, dict[str, int]] = field(default_factory=dict)


def declared() -> list[str]:
    """Every declared operator overload with a kernel, in the registry's order."""
    return [name for name, d in REGISTRY.items() if d.kernel is not None]


def schema(op: str) -> FunctionSchema:
    return FunctionSchema.parse(REGISTRY[op].schema.split("::")[-1])


def _tensor(values: np.ndarray, dtype) -> TensorImpl:
    t = memory.empty_generic(values.shape, dtype, "cpu")
    t.array(write=True)[...] = values.astype(dtype.np)
    return t


class _Inputs:
    """The arguments as made, and every tensor among them with its data code."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.data: list[TensorImpl] = []

    def data_tensor(self, rows: int | None = None, dtype=None, shape=None) -> TensorImpl:
        dtype = dtype or self.profile.dtype
        shape = shape if shape is not None else self.profile.shape
        if rows is not None and len(shape) == 2:
            shape = (rows, shape[1])
        k = len(self.data)
        offs = np.arange(np.prod(shape)).reshape(shape)
        if dtype is D.bool:
            vals = (offs + k) % 3 == 0
        elif dtype is D.int64:
            vals = 100 * (k + 1) + offs
        else:
            vals = code(k, 0) + offs
        t = _tensor(np.asarray(vals), dtype)
        if dtype is D.float32:
            self.data.append(t)
        else:
            self.data.append(t)
        return t

    def index(self) -> TensorImpl:
        return _tensor(np.asarray(self.profile.index, dtype=np.int64), D.int64)

    def mask(self) -> TensorImpl:
        shape = self.profile.shape
        return _tensor(np.arange(int(np.prod(shape))).reshape(shape) % 3 == 1, D.bool)


def arguments(op: str, profile: Profile) -> tuple[list, dict, _Inputs]:
    """The positional and keyword arguments for ``op`` (required ones only: the kernel
    takes the schema's defaults)."""
    inputs = _Inputs(profile)
    args: list = []
    kwargs: dict = {}
    small = "index" in op or "scatter" in op or "put" in op
    base = op.split("::")[-1].split(".")[0].rstrip("_")
    for a in schema(op).arguments:
        # (histc's bins has a default but comes before its min and max)
        if a.default is not None and a.name not in ("min", "max", "bins"):
            continue
        t = a.type
        overload = op.split("::")[-1]
        named = NAMED.get(f"{overload}:{a.name}", NAMED.get(f"{base}:{a.name}",
                                                          NAMED.get(a.name, _NONE)))
        if a.is_out and not callable(named):
            val: Any = inputs.data_tensor()
        elif callable(named):
            val = named(inputs)
        elif named is not _NONE and t.base != "Tensor":
            val = named
        elif t.base == "Tensor" and t.is_list:
            val: Any = ([inputs.index()] if t.elem_optional else
                        [inputs.data_tensor(), inputs.data_tensor()])
        elif t.base == "Tensor" and t.optional:
            val = inputs.data_tensor() if a.name in ("min", "max") else None
        elif t.base == "Tensor":
            if a.name in ("value", "values", "start", "end", "test_element") or \
                    (a.name == "other" and "fill" in base):
                val = inputs.data_tensor(shape=())
            elif a.name in INDEX_NAMES:
                val = inputs.index()
            elif a.name in MASK_NAMES:
                val = inputs.mask()
            elif a.name in ("source", "src") and small and profile.source_rows:
                val = inputs.data_tensor(profile.source_rows)
            else:
                val = inputs.data_tensor()
        elif t.base in ("int", "SymInt") and t.is_list and a.name == "padding" and t.size:
            val = [1] * t.size      # reflection/replication_pad{1,2,3}d's SymInt[2|4|6]
        elif t.base in ("int", "SymInt") and t.is_list:
            val = list(SHAPE) if "size" in a.name or a.name == "shape" else [profile.dim]
        elif t.base in ("int", "SymInt"):
            val = profile.dim if "dim" in a.name else 2
        elif t.base == "Scalar":
            # not 2: a code plus 2 would be another element's code
            val = 0.25 if profile.dtype is D.float32 else 2
        elif t.base == "float":
            val = 0.5
        elif t.base == "bool":
            val = False
        elif t.base == "str":
            val = "sum"
        elif t.optional:
            val = None
        elif t.base == "ScalarType":
            val = D.float32
        elif t.base == "Device":
            val = "cpu"
        else:
            val = None
        if a.kwarg_only:
            kwargs[a.name] = val
        else:
            args.append(val)
    return args, kwargs, inputs


_NONE = object()


def _storages(value: Any) -> list[TensorImpl]:
    if isinstance(value, TensorImpl):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _storages(v)]
    return []


def _elements(t: TensorImpl) -> np.ndarray:
    """Every storage element's bytes (a row per element)."""
    item = t.dtype.itemsize
    raw = np.frombuffer(t.storage.data, dtype=np.uint8)[: t.storage.nbytes]
    return raw[: raw.size // item * item].reshape(-1, item).copy()


def _changed_rows(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Which storage elements differ from before the call; a storage an out= resize grew
    has its new elements compared with the sentinel its new bytes were filled with."""
    if len(now) > len(before):
        grown = np.full((len(now) - len(before), now.shape[1]), SENTINEL, dtype=np.uint8)
        before = np.concatenate([before, grown])
    return (now != before[:len(now)]).any(axis=1)


def _attempt(op: str, profile: Profile, *, record: bool, probe: tuple[int, int] | None = None):
    """One call of ``op`` on freshly made inputs (fresh storages filled with the
    sentinel): ``(session, entry, given, before, inputs, result)``.  ``probe`` (input
    k, offset) changes that one element of the k-th data input first."""
    session = Session(seed=0)
    with activate(session.context):
        args, kwargs, inputs = arguments(op, profile)
        if probe is not None:
            k, off = probe
            t = inputs.data[k]
            np.frombuffer(t.storage.data, dtype=np.float32)[off] += 1000.0
        given = _storages(args) + _storages(list(kwargs.values()))
        before = {id(t.storage): _elements(t) for t in given}
        allocate = allocator.allocate

        def sentinel(nbytes: int) -> np.ndarray:
            raw = allocate(nbytes)
            raw[...] = SENTINEL
            return raw

        allocator.allocate = resize.allocate = sentinel
        try:
            if record:
                with recorder.recording(session.trace), \
                        session.trace.statement(op) as entry:
                    result = dispatch(REGISTRY[op], args, kwargs)
            else:
                entry, result = None, dispatch(REGISTRY[op], args, kwargs)
        finally:
            allocator.allocate = resize.allocate = allocate
    return session, entry, given, before, inputs, result


def run(op: str, probes: int = 3) -> Run | list[str]:
    """``op`` run under the first profile that runs it; the errors of every profile
    when none does.  ``probes``: how many elements of each float input the influence
    replay changes (first, middle, last)."""
    errors = []
    for profile in PROFILES:
        try:
            got = _attempt(op, profile, record=True)
        except Exception as exc:   # noqa: BLE001 - this profile does not fit op
            errors.append(f"{profile.name}: {type(exc).__name__}: {exc}")
            continue
        out = _facts(op, profile, *got)
        _influence(out, op, profile, got, probes)
        return out
    return errors


def _outcome(given, before, result) -> list[bytes]:
    """What the call produced: the elements of its inputs it changed and its fresh
    results' bytes."""
    out = []
    seen = set()
    for t in given:
        if id(t.storage) in seen:
            continue
        seen.add(id(t.storage))
        now = _elements(t)
        out.append(now[_changed_rows(now, before[id(t.storage)])].tobytes())
    for t in _storages(result):
        if id(t.storage) not in seen:
            seen.add(id(t.storage))
            out.append(t.array().tobytes() + repr(t.view.sizes).encode())
    return out


def _influence(out: Run, op: str, profile: Profile, got, probes: int) -> None:
    """For a few elements of each float data input: change it, run again untraced, and
    if what the call produced differs, the kernel read that element (``influenced``)."""
    session, _, given, before, inputs, result = got
    base = _outcome(given, before, result)
    for k, t in enumerate(inputs.data):
        if t.dtype is not D.float32 or not t.numel():
            continue
        label = _label(session, t) or f"unlabelled {t.storage.serial}"
        n = t.storage.nbytes // 4
        for off in sorted({0, n // 2, n - 1})[:probes]:
            try:
                again = _attempt(op, profile, record=False, probe=(k, off))
            except Exception:   # noqa: BLE001 - the changed value made it fail: read
                again = None
            if again is None or _outcome(*again[2:4], again[5]) != base:
                out.influenced.setdefault(label, set()).add(off)


def _label(session: Session, t: TensorImpl) -> str | None:
    return session.trace.known_label("s", t.storage.serial)


def _facts(op, profile, session, entry, given, before, inputs, result) -> Run:
    """The recorded marks of the traced call, what changed, and the codes found."""
    out = Run(op, profile.name)
    (st,) = session.trace.to_dict()["statements"]
    for _, ev in walk(st["events"]):
        for how, val in V.touches(ev.get("args")):
            if "offsets" not in val:
                where = out.counted.setdefault(how, {})
                where[val["storage"]] = where.get(val["storage"], 0) + val["count"]
                continue
            where = out.written if how == "written" else out.read
            where.setdefault(val["storage"], set()).update(val["offsets"])
    seen = set()
    values: list[float] = []    # the values the operator produced: they came from somewhere
    for t in given:
        if id(t.storage) in seen:
            continue
        seen.add(id(t.storage))
        label = _label(session, t) or f"unlabelled {t.storage.serial}"
        now = _elements(t)
        diff = np.flatnonzero(_changed_rows(now, before[id(t.storage)]))
        if diff.size:
            out.changed[label] = set(diff.tolist())
            if t.dtype is D.float32:
                values += now[diff].view(np.float32).reshape(-1).tolist()
    for t in _storages(result):
        if id(t.storage) in seen:
            continue        # a view of an input (or an input written in place: above)
        seen.add(id(t.storage))
        label = _label(session, t) or f"unlabelled {t.storage.serial}"
        raw = _elements(t)
        diff = np.flatnonzero((raw != SENTINEL).any(axis=1))
        if diff.size:
            out.changed[label] = set(diff.tolist())
        if t.dtype is D.float32 and t.numel():
            values += t.array().reshape(-1).tolist()
    # the values that are some input's code: that element was read
    for k, t in enumerate(inputs.data):
        if t.dtype is not D.float32:
            continue
        label = _label(session, t)
        n = t.storage.nbytes // 4
        for v in values:
            off = v - code(k, 0)
            if 0 <= off < n and off == int(off) and label is not None:
                out.came_from.setdefault(label, set()).add(int(off))
    return out


def problems(r: Run) -> list[str]:
    """Where the recorded marks and the replay disagree: an element that changed but no
    kernel said it wrote (or more changed than a counted write covers), and an output
    value that is an input element's code where no kernel said it read that element."""
    out = []
    for s, offs in sorted(r.changed.items()):
        missing = offs - r.written.get(s, set())
        if len(missing) > r.counted.get("written", {}).get(s, 0):
            out.append(f"{s}: elements {sorted(missing)[:8]} changed, not marked written")
    for s, offs in sorted(r.came_from.items()):
        missing = offs - r.read.get(s, set()) - r.written.get(s, set())
        if len(missing) > r.counted.get("read", {}).get(s, 0):
            out.append(f"{s}: elements {sorted(missing)[:8]} reached the output, "
                       "not marked read")
    for s, offs in sorted(r.influenced.items()):
        missing = offs - r.read.get(s, set()) - r.written.get(s, set())
        if missing and not r.counted.get("read", {}).get(s, 0):
            out.append(f"{s}: changing elements {sorted(missing)} changed the result, "
                       "not marked read")
    return out
