"""A Session owns its run: two of them interleaved in one process are independent, and a
run leaves every module global of the engine and the tracer as it found it."""

from __future__ import annotations

import copy
import json
import sys
import types

import pytest

from engine.interpreter.statements import parse
from engine.interpreter.session import Session

#: Each program changes what a run may change: the generator and its seed, the default
#: names, the memory limit, pypto's tile settings, tensor and storage labels.
PROGRAM_A = """
x = torch.randn(3, 4)
y = x[1:, ::2]
t[rows, cols] = 10
torch.manual_seed(7)
z = torch.rand(2)
pypto.set_vec_tile_shapes(1, 4)
o = pypto.index_select(pypto.from_engine(x), 0, pypto.from_engine(indices))
"""
PROGRAM_B = """
w = torch.randn(5)
t[1, 2] = 3
pypto.set_vec_tile_shapes(2, 2)
pypto.set_ub_size(64)
e = torch.empty(10000)
"""


def _alone(text: str, **options) -> dict:
    return Session(**options).run(text)


def _interleaved(a: tuple[str, dict], b: tuple[str, dict]) -> tuple[dict, dict]:
    sa, sb = Session(**a[1]), Session(**b[1])
    sta, stb = parse(a[0]), parse(b[0])
    for i in range(max(len(sta), len(stb))):
        if i < len(sta):
            sa.run_statement(sta[i])
        if i < len(stb):
            sb.run_statement(stb[i])
    return sa.document(), sb.document()


def _same(doc: dict) -> str:
    return json.dumps(doc, sort_keys=True)


def test_two_sessions_interleaved_are_independent():
    a = (PROGRAM_A, {"seed": 0})
    # e = torch.empty(10000) is refused; the rest (tensors, and printing them) fits
    b = (PROGRAM_B, {"seed": 1, "max_bytes": 20_000})
    with pytest.raises(Exception):
        _alone(*b[:1], **b[1])
    b = (PROGRAM_B.replace("e = torch.empty(10000)\n", ""), b[1])
    alone_a, alone_b = _alone(a[0], **a[1]), _alone(b[0], **b[1])
    mixed_a, mixed_b = _interleaved(a, b)
    assert _same(mixed_a) == _same(alone_a)
    assert _same(mixed_b) == _same(alone_b)
    # every statement ran, and the runs really differ (seeds, tile shapes, values)
    for doc in (alone_a, alone_b):
        assert all(st["error"] is None for st in doc["statements"])
    assert alone_a["seed"] == 7 and alone_b["seed"] == 1


def test_memory_limit_is_per_session():
    small, large = Session(max_bytes=100), Session()
    st = parse("e = torch.empty(1000)")[0]
    large.run_statement(st)
    from engine.core.errors import Refused
    with pytest.raises(Refused, match="memory limit"):
        small.run_statement(st)
    large.run_statement(st)


def _plain_globals() -> dict[tuple[str, str], str]:
    """Every module global of engine/ and tracer/ that holds plain data, as text."""
    out = {}
    for name, mod in list(sys.modules.items()):
        if not (name == "engine" or name.startswith(("engine.", "tracer"))):
            continue
        for key, value in vars(mod).items():
            if key.startswith("__") or isinstance(value, (types.ModuleType, types.FunctionType,
                                                          type)):
                continue
            if isinstance(value, (int, float, str, bool, tuple, list, dict, set, frozenset,
                                  type(None))):
                try:
                    out[(name, key)] = repr(copy.deepcopy(value))
                except Exception:  # noqa: BLE001 - not copyable: compare its repr
                    out[(name, key)] = repr(value)
    return out


def test_a_run_changes_no_module_global():
    Session(seed=3).run(PROGRAM_A)  # import and warm everything first
    before = _plain_globals()
    Session(seed=4).run(PROGRAM_A + PROGRAM_B.replace("e = torch.empty(10000)\n", ""))
    after = _plain_globals()
    changed = {k: (before.get(k), after.get(k)) for k in before.keys() | after.keys()
               if before.get(k) != after.get(k)}
    assert not changed, changed


def test_a_bound_tensor_takes_the_users_name_in_its_own_statement_and_later_ones():
    """``y = t[1:]``: the steps that made the view say ``y``, not the trace's ``t$1``; a
    rebound name moves to its new value; ``z = y`` keeps calling the tensor ``y``."""
    from tracer import values as V
    from tracer.events import walk

    doc = Session().run("y = t[0]; y = t[1]; z = y; w = y[None, 0:2]")
    results = [[V.shown(ev["result"]) for _, ev in walk(st["events"])
                if V.is_tensor(ev.get("result"))] for st in doc["statements"]]
    assert results[0] and set(results[0]) == {"y"}
    assert set(results[1]) == {"y"}
    assert results[2] == []
    # the last statement slices y (the second one) and names its result w
    args = [V.shown(a) for _, ev in walk(doc["statements"][3]["events"])
            for a in (ev.get("args") or {}).values() if V.is_tensor(a)]
    assert "y" in args and results[3][-1] == "w"
    offsets = {a["offset"] for _, ev in walk(doc["statements"][3]["events"])
               for a in (ev.get("args") or {}).values() if V.is_tensor(a) and V.shown(a) == "y"}
    assert offsets == {3}


def test_rebinding_a_default_name_never_gives_two_tensors_one_label():
    """``t = torch.zeros(2)`` after the default ``t`` was used: the new tensor is ``t``,
    the old one gets a trace label of its own (never ``t`` too: pictures group by label)."""
    from tracer import values as V
    from tracer.events import walk

    doc = Session().run("y = t[None, 0]; t = torch.zeros(2); z = t + y[0]")
    seen: dict[str, set] = {}
    for st in doc["statements"]:
        for _, ev in walk(st["events"]):
            for a in list((ev.get("args") or {}).values()) + [ev.get("result")]:
                if V.is_tensor(a):
                    seen.setdefault(a["label"], set()).add((a["storage"], tuple(a["shape"])))
    assert all(len(v) == 1 for v in seen.values()), seen
    named_t = {(a["storage"], tuple(a["shape"])) for st in doc["statements"][1:]
               for _, ev in walk(st["events"]) for a in [ev.get("result")]
               if V.is_tensor(a) and V.shown(a) == "t"}
    assert named_t == {("s$1", (2,))}
