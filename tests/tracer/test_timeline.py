"""The state at each step (tracer.timeline): every step's storage pictures before and
after it, with the values recorded up to then and never a later one."""

from __future__ import annotations

from engine.interpreter import session
from tracer import timeline as TL
from tracer.render import step as render_step


def cell(pictures, offset, storage=None):
    for p in pictures:
        if storage is None or p["storage"] == storage:
            return p["cells"].get(offset, "unrecorded")
    return "no picture"


def at(items, name):
    return next(i for i in items if i["event"] and i["event"].name == name)


def test_the_write_shows_6_before_copy_and_3_after():
    items = TL.timeline(session.run_document("t[1, 2] = 3"))
    copy = at(items, "aten::copy_")
    storage = copy["after"][0]["storage"]
    assert cell(copy["before"], 5, storage) == 6 and cell(copy["after"], 5, storage) == 3
    assert copy["changes"] == {storage: [{"offset": 5, "old": 6, "old_known": True,
                                          "new": 3, "new_known": True}]}
    assert copy["after"][0]["touched"] == {5: "written"}
    # before it, the element it is about to write is marked, with no change yet
    assert copy["before"][0]["touched"] == {5: "written"} and copy["before"][0]["changes"] == []
    kernel = at(items, "copy_kernel")
    assert cell(kernel["before"], 5) == 6 and cell(kernel["after"], 5) == 3


def test_no_step_shows_a_value_written_after_it():
    """Step 1 already draws t (it existed), with the values it had then."""
    items = TL.timeline(session.run_document("t[1, 2] = 3"))
    first = items[0]
    assert [g["name"] for g in first["before"][0]["grids"]] == ["t"]
    assert cell(first["before"], 5) == 6
    wrote = [k for k, i in enumerate(items) if i["event"].name == "copy_kernel"][0]
    for item in items[:wrote]:
        for p in item["before"]:
            assert p["cells"].get(5, 6) == 6, item["event"].name
    for item in items[wrote + 1:]:
        for p in item["before"] + item["after"]:
            if p["storage"] == first["before"][0]["storage"]:
                assert p["cells"][5] == 3


def test_the_timeline_follows_the_steps_of_tidx_step():
    doc = session.run_document("y = t[1:, ::2]; y[0, 1] = 0; t.stride()")
    items = TL.timeline(doc)
    flat = render_step.steps(doc)
    assert [(i["statement"], i["path"], i["event"] and i["event"].name) for i in items] \
        == [(f["statement"], f["path"], f["event"] and f["event"].name) for f in flat]
    # the second statement starts from what the first left, its view called y
    second = next(i for i in items if i["statement_index"] == 1)
    assert [g["name"] for g in second["before"][0]["grids"]] == ["t", "y"]
    assert TL.timeline(doc, 1) == [i for i in items if i["statement_index"] == 1]


def test_a_storage_made_by_a_step_has_no_before_and_empty_bytes_are_not_values():
    items = TL.timeline(session.run_document("x = torch.randn(3, 4)", seed=0))
    empty = at(items, "aten::empty")
    assert empty["before"] == [] and empty["after"][0]["cells"] == {}
    normal = at(items, "normal_kernel")
    assert normal["before"][0]["cells"] == {}
    assert len(normal["after"][0]["cells"]) == 12
    # the kernel records no written elements; its result shows it filled all twelve
    (changes,) = normal["changes"].values()
    assert len(changes) == 12 and not any(c["old_known"] for c in changes)
    assert at(items, "check_size_nonnegative")["after"] == []


def test_a_parent_step_shows_its_childrens_writes():
    items = TL.timeline(session.run_document("t[rows, cols] = 10"))
    put = at(items, "aten::index_put_")
    (changes,) = put["changes"].values()
    assert [(c["offset"], c["old"], c["new"]) for c in changes] == [(1, 2, 10), (7, 8, 10)]
    assert items[0]["changes"] == put["changes"]


def test_the_timeline_is_linear_in_the_steps(monkeypatch):
    """Four times the statements, four times the work (tensor summaries looked at),
    not sixteen: counted, not timed, so a loaded machine cannot fail it."""
    from tracer import values as V

    real, seen = V.tensors, [0]

    def counting(value):
        seen[0] += 1
        return real(value)

    def work(n):
        doc = session.run_document("\n".join(["t[1, 2] = 3"] * n))
        seen[0] = 0
        monkeypatch.setattr(V, "tensors", counting)
        TL.timeline(doc)
        monkeypatch.setattr(V, "tensors", real)
        return seen[0]

    small, large = work(20), work(80)
    assert small > 0 and large <= small * 4 * 1.1


def test_an_in_place_op_that_records_no_written_elements_never_leaks_its_result_back():
    """add_'s kernel records no written elements: its result is after the write, so
    before it the first statement knows no value (said), the second the first's."""
    items = TL.timeline(session.run_document("t.add_(1); t.add_(1)"))
    first, second = [i for i in items if i["event"].name == "aten::add_"]
    assert first["before"][0]["cells"] == {}
    assert cell(first["after"], 0) == 2
    # t's storage is the one changed (the wrapped number 1 has a storage of its own)
    (storage,) = first["changes"]
    assert [(c["old_known"], c["new"]) for c in first["changes"][storage]][:2] == [
        (False, 2), (False, 3)]
    assert cell(second["before"], 0) == 2 and cell(second["after"], 0) == 3
    assert [(c["old"], c["new"]) for c in second["changes"][storage]][:2] == [(2, 3), (3, 4)]
