"""The bytes a statement allocated, against torch 2.13's profiler.

Every statement's entry (and the document) records ``{"bytes", "blocks"}``; for the
seeds' statements the blocks must be the allocations ``torch.profiler`` sees with
``profile_memory=True`` (its raw event tree's Allocation events of positive size), and
the tree, markdown and HTML views print the record with the right plurals.
"""

from __future__ import annotations

import warnings

import pytest

from conftest import cli_run, require_torch
from engine.interpreter.defaults import DEFAULTS
from engine.interpreter.session import run, run_document
from tracer import allocated, values as V
from tracer.document import Allocated
from tracer.events import walk

STATEMENTS = [
    "t[1, 2] = 3", "t[rows, cols] = 10", "x = torch.randn(3, 4)", "y = t[1:, ::2]",
    "y = a[index_2, 1]", "t[t > 4] = 0", "y = torch.gather(t, 1, torch.tensor([[0], [1], [2]]))",
    "y = t.index_select(0, indices)", "y = torch.ones(40000).sum()", "y = t[[0, 1]]",
    "y = t[None, ..., 0]", "t[0:2] = torch.tensor([7, 8, 9])", "y = torch.arange(5)",
    "y = torch.rand(20)", "y = t.masked_select(t > 4)", "y = t[[1, 2]]", "y = t.T.contiguous()",
    "y = torch.zeros(3).expand(2, 3)", "y = torch.randperm(6)", "y = t.T",
    "y = torch.zeros(2, 3, device='meta')", "y = t.index_select(1, indices)",
    "y = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last)",
    "y = torch.randint(0, 2**12, (1,), dtype=torch.float16)",
    "y = torch.zeros(3).expand(2, 3); y.masked_fill_(torch.tensor([True, False, True]), 1.)",
    "t[5]", "t[1, 2, 3]", "y = torch.empty(2**62, 2**62)",
]

#: A Python number beside a tensor is an 8-byte wrapped-number tensor in torch: made in
#: the binding for add/sub/mul/div (PythonArgs::tensor_slow), in an operator's Scalar
#: overload otherwise (gt.Scalar's meta function, remainder.Scalar_Tensor, pow.Scalar).
WRAPPED = [
    "y = t + 4", "y = t > 4", "y = torch.where(t > 4, t, 0)", "y = 2 ** t", "y = t & 3",
    "y = 3 - t", "y = t.add(4, alpha=2)", "y = t.remainder(3)", "y = t // 2", "y = t * 2.5",
    "y = t.div(2, rounding_mode='floor')", "y = t.sub(1)", "y = t.add_(1)", "y = 5 & t",
    "y = torch.where(t > 4, 1.0, 0.0)", "y = 1 / t.float()", "y = t.float() + True",
    "y = t.clamp(0, 5)", "y = t ** 2", "y = torch.remainder(7, t)", "y = t.isclose(t)",
]


def _torch_blocks(torch, code: str) -> list[int]:
    """The sizes of the blocks torch allocates running ``code`` after the defaults."""
    from torch._C._profiler import _EventType
    from torch.profiler import ProfilerActivity, profile

    scope = {"torch": torch}
    for d in DEFAULTS:
        scope[d.name] = eval(d.source, scope)   # tidx's own default names, not user input
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        try:
            with warnings.catch_warnings():   # torch's own warnings of two seeds
                warnings.simplefilter("ignore", UserWarning)
                exec(code, scope)
        except (IndexError, RuntimeError):
            pass        # what was allocated before the error still counts
    sizes: list[int] = []

    def visit(node) -> None:
        if node.typed[0] == _EventType.Allocation and node.typed[1].alloc_size > 0:
            sizes.append(node.typed[1].alloc_size)
        for child in node.children:
            visit(child)
    for root in prof.profiler.kineto_results.experimental_event_tree():
        visit(root)
    return sizes


def _tidx_blocks(doc: dict) -> list[int]:
    """The blocks in the trace, read from its steps (the record is checked against these)."""
    out = []
    for st in doc["statements"]:
        for _, ev in walk(st["events"]):
            args = ev["args"]
            if ev["name"] == "DefaultCPUAllocator::allocate" or (
                    ev["name"] == "resize_impl_cpu_" and V.plain(args.get("realloc")) is True):
                out.append(V.plain(args["nbytes"]))
    return [n for n in out if n > 0]


@pytest.mark.torch
@pytest.mark.parametrize("code", STATEMENTS + WRAPPED)
def test_the_blocks_are_the_ones_torch_allocates(code):
    torch = require_torch()
    doc = run(code, seed=0)
    expected = _torch_blocks(torch, code)
    assert sorted(_tidx_blocks(doc)) == sorted(expected)
    assert doc["allocated"] == {"bytes": sum(expected), "blocks": len(expected)}
    if len(doc["statements"]) == 1:
        assert doc["statements"][0]["allocated"] == doc["allocated"]


def test_the_document_sums_its_statements():
    doc = run("t[1, 2] = 3; y = t[[1, 2]]; z = t.T", seed=0)
    assert [st["allocated"] for st in doc["statements"]] == [
        {"bytes": 8, "blocks": 1}, {"bytes": 64, "blocks": 2}, {"bytes": 0, "blocks": 0}]
    assert doc["allocated"] == {"bytes": 72, "blocks": 3}


def test_a_meta_tensor_and_an_empty_one_allocate_nothing():
    for code in ("y = torch.zeros(2, 3, device='meta')", "y = torch.empty(0)"):
        assert run(code)["allocated"] == {"bytes": 0, "blocks": 0}, code


def test_an_error_keeps_what_was_allocated_before_it():
    doc = run("t[5]")
    assert doc["statements"][-1]["error"] is not None
    assert doc["allocated"] == doc["statements"][-1]["allocated"]


@pytest.mark.parametrize("record, en, zh", [
    ({"bytes": 48, "blocks": 1}, "allocated: 48 bytes in 1 block", "已分配:48 字节,共 1 块"),
    ({"bytes": 1, "blocks": 1}, "allocated: 1 byte in 1 block", "已分配:1 字节,共 1 块"),
    ({"bytes": 64, "blocks": 2}, "allocated: 64 bytes in 2 blocks", "已分配:64 字节,共 2 块"),
    ({"bytes": 0, "blocks": 0}, "allocated: 0 bytes in 0 blocks", "已分配:0 字节,共 0 块")])
def test_the_line_says_plurals_right(record, en, zh):
    typed = Allocated(record["bytes"], record["blocks"])
    assert allocated.line(typed) == en
    assert allocated.line(typed, "zh") == zh


def test_every_view_ends_with_the_line():
    tree = cli_run("explain", "x = torch.randn(3, 4)", "--seed", "0")
    assert tree.exit_code == 0, tree.output
    # (the lecture view's footer carries the random seed on the same line)
    assert "\nallocated: 48 bytes in 1 block  random seed 0" in tree.output
    full = cli_run("explain", "x = torch.randn(3, 4)", "--seed", "0", "--full")
    assert "\nallocated: 48 bytes in 1 block\n" in full.output
    one_byte = cli_run("explain", "y = torch.tensor(True)")
    assert "allocated: 1 byte in 1 block\n" in one_byte.output
    md = cli_run("explain", "t[1, 2] = 3", "--format", "markdown")
    assert md.output.rstrip().endswith("allocated: 8 bytes in 1 block")
    zh = cli_run("explain", "t[1, 2] = 3", "--lang", "zh")
    assert "已分配:8 字节,共 1 块  allocated: 8 bytes in 1 block" in zh.output
    from tracer.render import html
    page = html.render(run_document("y = t[[1, 2]]"), "", lang="zh")
    assert '<p>已分配:64 字节,共 2 块 <span class="en">allocated: 64 bytes in 2 blocks</span>' \
        '</p>' in page
