"""Allocation facts: views allocate nothing, advanced indexing allocates its output once,
storage is 64-byte aligned, and the memory guard refuses before allocating."""

from __future__ import annotations

import pytest

import engine
from engine.core.context import RunContext, activate
from engine.memory import allocator
from tracer import record


@pytest.fixture
def allocations(monkeypatch):
    sizes: list[int] = []
    real = allocator.allocate

    def counting(nbytes: int):
        buffer = real(nbytes)  # raises Refused before any memory exists
        sizes.append(nbytes)
        return buffer

    monkeypatch.setattr(allocator, "allocate", counting)
    return sizes


@pytest.mark.parametrize("recording", [False, True])
def test_views_allocate_nothing(allocations, recording):
    t = engine.zeros(4, 5)
    allocations.clear()
    if recording:
        with record():
            v = t[1:, ::2][2]
    else:
        v = t[1:, ::2][2]
    assert allocations == []
    assert v.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()


@pytest.mark.parametrize("recording", [False, True])
def test_advanced_getitem_allocates_its_output_once(allocations, recording):
    t = engine.zeros(100, 100)
    rows, cols = engine.tensor([0, 5, 7]), engine.tensor([1, 2, 3])
    allocations.clear()
    if recording:
        with record():
            out = t[rows, cols]
    else:
        out = t[rows, cols]
    assert allocations == [3 * 4]
    assert out.untyped_storage().nbytes() == 12


def test_storage_is_64_byte_aligned():
    for n in (1, 3, 17, 1000):
        assert engine.empty(n).data_ptr() % 64 == 0


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_memory_guard_refuses_before_allocating(allocations):
    with activate(RunContext(max_bytes=1000)), \
            pytest.raises(engine.Refused, match="4000 bytes.*--max-bytes"):
        engine.empty(1000)
    assert allocations == []


# -- one budget per run (issue #24) -----------------------------------------------------------
def test_live_storages_count_together_and_give_their_bytes_back_when_they_die():
    ctx = RunContext(max_bytes=10_000)
    with activate(ctx):
        a = engine.empty(1000)                      # 4000 bytes
        b = engine.empty(1000)
        assert ctx.budget.held == 8000
        with pytest.raises(engine.Refused, match=r"refusing to allocate 3\.9 KiB \(4000 "
                                                 r"bytes\).*already holds 7\.8 KiB \(8000 "
                                                 r"bytes\).*--max-bytes"):
            engine.empty(1000)                      # alone it fits; with a and b it does not
        view = a[::2]
        del a                                       # the view keeps the storage alive
        assert ctx.budget.held == 8000
        del view, b
        assert ctx.budget.held == 0
        engine.empty(2000)                          # the freed bytes are there again


def test_a_resized_storage_counts_its_new_bytes_only():
    ctx = RunContext()
    with activate(ctx):
        t = engine.empty(10)
        t.resize_(1000)
        assert ctx.budget.held == 4000
        del t
        assert ctx.budget.held == 0


def test_each_run_has_its_own_budget():
    small, large = RunContext(max_bytes=5000), RunContext(max_bytes=5000)
    with activate(small):
        kept = engine.empty(1000)
    with activate(large):
        engine.empty(1000)                          # small's 4000 bytes are not large's
    assert small.budget.held == 4000 and large.budget.held == 0
    del kept


def test_a_kernel_temporary_is_checked_against_what_the_run_holds():
    view = engine.zeros(1).expand(10**6)            # 4 bytes standing for 10**6 elements
    with activate(RunContext(max_bytes=1 << 20)):
        with pytest.raises(engine.Refused, match="argmax\\(\\) needs a temporary of 1000000 "
                                                 "elements"):
            engine.zeros(1).expand(10**6).argmax()
    with activate(RunContext(max_bytes=8 << 20)):
        assert int(view.argmax()) == 0


@pytest.mark.slow     # large inputs: out of the fast tier (under 2 minutes)
def test_python_values_are_charged_until_the_statement_ends_then_per_name():
    from engine.interpreter.session import Session

    session = Session(max_bytes=1 << 20)
    budget = session.context.budget
    session.run("a = [0] * 10000")                  # 80 KB kept under a
    kept = budget.held
    assert 80_000 < kept < 90_000 and budget.scratch == 0
    session.run("len([0] * 10000)")                 # built, shown, dropped
    assert budget.held == kept
    session.run("a = 1")                            # a no longer keeps the list
    assert budget.held < 1000
    with pytest.raises(engine.Refused, match="a list of 10000 items"):
        session.run("b = [[0] * 10000 for i in range(200)]")   # 16 MB in one statement
