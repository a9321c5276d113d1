"""The storage picture's model (tracer.picture): which tensors, under which names, what
changed, and one element's offset worked out, all read from the trace document."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from engine.interpreter import session
from tracer import picture as P
from tracer import replay as R
from tracer import values as V
from tracer.document import Statement


def pictures(source: str, index: int = -1):
    doc = session.run_document(source, seed=0)
    sts = doc.statements
    i = index % len(sts)
    return P.collect(sts[i], sts[i - 1] if i else None)


# -- the names record ------------------------------------------------------------------


def test_each_statement_records_the_users_tensors_on_the_storages_it_touched():
    doc = session.run("y = t[1:, ::2]; y[0, 1] = 0; u = t.clone(); n = 3")
    first, second, third, fourth = doc["statements"]
    assert sorted(first["names"]) == ["t", "y"] and sorted(second["names"]) == ["t", "y"]
    # after the write: t's own summary shows the new value, under t's label
    t = second["names"]["t"]
    assert t["label"] == "t" and t["values"][1][2] == 0
    assert second["names"]["y"]["label"] == first["bindings"]["y"]["summary"]["label"]
    # clone reads t's storage (the copy kernel): t is named there, beside the new u
    assert "u" in third["names"] and third["names"]["u"]["storage"] != t["storage"]
    assert fourth["names"] == {}


def test_a_name_not_on_a_touched_storage_is_not_recorded():
    """Bounded: a statement that touches only x's storage records x, not every tensor."""
    doc = session.run("a = torch.zeros(2); b = torch.ones(3); a[0] = 5")
    assert list(doc["statements"][-1]["names"]) == ["a"]


def test_many_names_on_one_storage_record_six_and_count_the_rest():
    """Issue 24: after 3,000 ``yN = t[i]`` each statement listed every name on t's
    storage.  Now it records those it bound, wrote or read, the base t and the most
    recently bound (six in all), and counts the others; ``shares_storage_with`` lists
    the recorded ones and counts the rest too."""
    lines = [f"y{k} = t[{k % 3}]" for k in range(40)] + ["y3[1] = 0", "z = y7 + y8"]
    doc = session.run("\n".join(lines))
    last40, write, add = doc["statements"][39], doc["statements"][40], doc["statements"][41]
    assert list(last40["names"]) == ["y39", "t", "y38", "y37", "y36", "y35"]
    assert last40["names_more"] == {"s$0": 35}          # 41 tensors, 6 recorded
    assert last40["shares_storage_with"] == {"y39": ["t", "y35", "y36", "y37", "y38"]}
    assert last40["shares_storage_more"] == {"y39": 35}
    # the name a statement writes through, and those it reads, are always recorded
    assert "y3" in write["names"] and write["names_more"] == {"s$0": 35}
    assert {"y7", "y8", "z"} <= set(add["names"])
    # the picture counts the tensors left out among the views it does not draw
    (p,) = P.collect(Statement.from_json(last40), Statement.from_json(doc["statements"][38]))
    assert p["base"] == "t" and p["more_views"] >= 35
    # the base is the name most recently bound to a tensor covering the storage, however
    # many views came after it
    lines = ["u = torch.arange(12)"] + [f"v{k} = u[{k % 11 + 1}:]" for k in range(20)]
    doc = session.run("\n".join(lines + ["v0[0] = 7"]))
    assert "u" in doc["statements"][-1]["names"]
    assert doc["statements"][-1]["names_more"] == {"s$0": 15}   # 21 tensors, 6 recorded


def test_the_left_out_views_are_said_alike_in_every_format(tmp_path):
    """'... 7 more views of this storage' in the terminal, tidx step, the SVG's Graphviz
    source, the HTML stepper and the GIF's frames."""
    from conftest import cli_run
    from tracer.render import gif

    path = tmp_path / "views.py"
    path.write_text("\n".join(f"y{k} = t[{k % 3}]" for k in range(12)), encoding="utf-8")
    said = "7 more views of this storage"
    for args in (["explain", "-f", str(path)], ["step", "-f", str(path)],
                 ["explain", "-f", str(path), "--format", "dot"]):
        res = cli_run(*args)
        assert res.exit_code == 0 and said in res.output, args
    res = cli_run("export", "-f", str(path), "-o", str(tmp_path / "v.html"))
    assert res.exit_code == 0 and said in (tmp_path / "v.html").read_text(encoding="utf-8")
    frames = gif.frames(session.run_document(path.read_text(encoding="utf-8")))
    assert frames[-1]["pictures"][0]["more_views"] == 7


# -- which tensors, under which names ----------------------------------------------------


def test_a_view_is_drawn_over_its_base_with_the_users_names():
    """y[0, 1] = 0 after y = t[1:, ::2]: the statement never mentions t, yet t is the
    base y views; both are called by their names, the select temporaries by
    their index (issue #28)."""
    (p,) = pictures("y = t[1:, ::2]; y[0, 1] = 0")
    assert [V.shown(v) for v in p["views"]][:2] == ["t", "y"] and p["base"] == "t"
    assert [V.shown(v) for v in p["views"][2:]] == ["y[0]", "y[0, 1]"]
    assert [g["name"] for g in p["grids"]] == [V.shown(v) for v in p["views"]]


def test_a_temporary_with_a_named_tensors_geometry_is_drawn_under_the_name():
    (p,) = pictures("y = t.view(9)")
    geometry = {(tuple(v["shape"]), tuple(v["strides"]), v["offset"]): V.shown(v)
                for v in p["views"]}
    assert geometry[((9,), (1,), 0)] == "y" and geometry[((3, 3), (3, 1), 0)] == "t"
    assert len(geometry) == len(p["views"])


def test_the_grid_is_the_views_own_shape_with_its_values_and_marks():
    (p,) = pictures("y = t[1:, ::2]; y[0, 1] = 0")
    y = p["grids"][1]
    assert [[c["value"] for c in r["cells"]] for r in y["rows"]] == [[4, 0], [7, 9]]
    assert [[c["mark"] for c in r["cells"]] for r in y["rows"]] == [[None, "written"],
                                                                     [None, None]]
    assert y["selects"] == [[[0, 0], 3], [[0, 1], 5], [[1, 0], 6], [[1, 1], 8]]


# -- what changed ------------------------------------------------------------------------


def test_a_write_shows_the_old_and_the_new_value():
    (p,) = pictures("t[1, 2] = 3")
    assert p["changes"] == [{"offset": 5, "old": 6, "old_known": True, "new": 3,
                             "new_known": True}]
    (p,) = pictures("t[rows, cols] = 10")
    assert [(c["offset"], c["old"], c["new"]) for c in p["changes"]] == [(1, 2, 10),
                                                                        (7, 8, 10)]


def test_a_second_write_of_one_element_keeps_the_value_before_the_first():
    (p,) = pictures("t[0, 0] = 5; t[0, 0] = 7")
    assert [(c["old"], c["new"]) for c in p["changes"]] == [(5, 7)]
    doc = session.run("t[0, 0] = 5; t[0, 0] = 7")
    wrote = R.changes(*(Statement.from_json(doc["statements"][k]) for k in (1, 0)))
    assert wrote[p["storage"]] == {0: (5, 7)}
    # and the value 7 itself: a fresh scalar tensor whose empty bytes scalar_fill filled
    (scalar,) = [w for s, w in wrote.items() if s != p["storage"]]
    assert scalar == {0: (R.MISSING, 7)}


def test_an_old_value_no_summary_recorded_is_unknown_not_guessed():
    """A write whose element no earlier summary covered: the change says so."""
    st = {"source": None, "events": [{"name": "k", "layer": "kernel", "args": {
        "written": V.elements("s$0", 1, [2])}, "result": None, "children": []}],
        "bindings": {}, "names": {}}
    assert R.changes(Statement.from_json(st)) == {"s$0": {2: (R.MISSING, R.MISSING)}}
    t = V.tensor("x", "s$0", shape=[3], strides=[1], offset=0, dtype="i64", device="cpu",
                 numel=3, nbytes=24, name="x", values=[1, 2, 9])
    st["names"] = {"x": t}
    assert R.changes(Statement.from_json(st)) == {"s$0": {2: (R.MISSING, 9)}}
    (p,) = P.collect(Statement.from_json({**st, "bindings": {"x": {"summary": t,
                                                                     "repr": ""}}}))
    assert p["changes"] == [{"offset": 2, "old": None, "old_known": False, "new": 9,
                             "new_known": True}]


# -- the legend: every mark used, and only those -------------------------------------------


def test_the_legend_lists_exactly_the_marks_the_picture_uses():
    (p,) = pictures("t[rows, cols] = 10")
    # (index_put_'s stride-0 restriding of t is a folded step's temporary: not drawn)
    assert [m["key"] for m in p["legend"]] == ["written", "selected"]
    assert [v["label"] for v in p["views"]] == ["t"]
    (p,) = pictures("y = t[1:, ::2]")
    assert [m["key"] for m in p["legend"]] == ["selected"]
    (p,) = pictures("x = torch.randn(3, 4)")     # normal_ filled all twelve
    assert [m["key"] for m in p["legend"]] == ["written", "selected"]
    result, source = pictures("b[idx_0, idx_1]")
    # index's restrided source (a stride 0 view of b) is a folded step's temporary
    assert [m["key"] for m in source["legend"]] == ["read", "selected"]
    assert not any(0 in v["strides"] for v in source["views"])
    (p,) = pictures("s = t.expand(2, 3, 3)[:, 0]")   # the user's own stride 0: explained
    assert [m["key"] for m in p["legend"]] == ["selected", "repeated"]
    assert [m["key"] for m in result["legend"]] == ["written", "selected"]
    (p,) = pictures("e = torch.empty(2)")
    assert "unrecorded" in [m["key"] for m in p["legend"]]


# -- the offset arithmetic ---------------------------------------------------------------


def test_the_arithmetic_works_out_the_written_element_through_the_users_view():
    (p,) = pictures("y = t[1:, ::2]; y[0, 1] = 0")
    assert p["arithmetic"] == {"view": "y", "index": [0, 1], "offset": 3,
                               "strides": [3, 2], "result": 5, "value": 0, "known": True}
    assert P.arithmetic_terms(p["arithmetic"]) == "3 + 0*3 + 1*2"
    (p,) = pictures("x = torch.randn(3, 4)")
    assert (p["arithmetic"]["index"], p["arithmetic"]["result"]) == ([2, 3], 11)


SIDE = st.integers(1, 5)


@st.composite
def views(draw):
    """A base tensor made by arange and a chain of slices and transposes of it."""
    rows, cols = draw(SIDE), draw(SIDE)
    base = np.arange(rows * cols).reshape(rows, cols)
    expr = f"torch.arange({rows * cols}).view({rows}, {cols})"
    view = base
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            view = view.T
            expr += ".t()"
            continue
        parts = []
        slices = []
        for n in view.shape:
            start = draw(st.integers(0, n - 1))
            step = draw(st.integers(1, 3))
            slices.append(slice(start, None, step))
            parts.append(f"{start}::{step}")
        view = view[tuple(slices)]
        expr += "[" + ", ".join(parts) + "]"
    return expr, view


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(views())
def test_the_arithmetic_and_the_grids_address_the_right_storage_elements(case):
    expr, expected = case
    (p,) = pictures(f"v = {expr}")
    grid = next(g for g in p["grids"] if g["name"] == "v")
    # the picture's own line: its numbers add up and name the cell it shows
    a = p["arithmetic"]
    assert a["result"] == a["offset"] + sum(i * s for i, s in zip(a["index"], a["strides"]))
    assert a["value"] == p["cells"][a["result"]]
    # worked out through v (the picture's choice when v is not the storage's base)
    v = next(t for t in p["views"] if V.shown(t) == "v")
    a = P.arithmetic([v], {}, p["cells"])
    assert a["result"] == a["offset"] + sum(i * s for i, s in zip(a["index"], a["strides"]))
    assert a["value"] == expected[tuple(a["index"])] == p["cells"][a["result"]]
    if p["base"] != "v":
        assert p["arithmetic"] == a
    # every element of the view's grid is the storage cell its strides address
    for index, off in grid["selects"]:
        assert off == grid["offset"] + sum(i * s for i, s in zip(index, grid["strides"]))
        assert p["cells"][off] == expected[tuple(index)]
    values = [[c["value"] for c in r["cells"]] for r in grid["rows"]]
    assert np.array(values).reshape(expected.shape).tolist() == expected.tolist()
