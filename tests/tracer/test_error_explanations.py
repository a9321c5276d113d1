"""Plain-language explanations of PyTorch's errors, in English and Chinese (issue 15).

Each case is a statement a learner writes, the error it raises in tidx and in real
PyTorch (the oracle: the message must be torch's, or the explanation would explain a
message nobody sees), and the line explaining it with the statement's own tensor and
numbers.  Every pattern of both tables is reached by a case.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from conftest import cli_run, examples, require_torch
from engine.interpreter import session
from oracle import torch_scope
from tracer import i18n
from tracer.document import Document, Error, Statement
from tracer.i18n import en_errors, zh_errors
from tracer.render import html as render_html
from tracer.render import markdown as render_markdown
from tracer.render import step as render_step
from tracer.render import tree as render_tree
from rich.console import Console

#: statement -> the English line under PyTorch's message.
CASES: dict[str, str] = {
    "t[5]": "t has size 3 in dimension 0, so an index there must be between -3 and 2; "
            "5 is not.",
    "t[-4]": "t has size 3 in dimension 0, so an index there must be between -3 and 2; "
             "-4 is not.",
    "t[1, 5]": "t has size 3 in dimension 1, so an index there must be between -3 and 2; "
               "5 is not.",
    "t[0][7]": "t[0] has size 3 in dimension 0, so an index there must be between -3 and "
               "2; 7 is not.",
    "t[rows, torch.tensor([0, 5])]":
        "t has size 3 in dimension 1, so an index there must be between -3 and 2; 5 is not.",
    "t[torch.tensor([3])] = 1":
        "t has size 3 in dimension 0, so an index there must be between -3 and 2; 3 is not.",
    "torch.empty(0)[0]": "torch.empty(0) has size 0 in dimension 0: there is no element "
                         "there, so no index is valid, and 0 is not.",
    "t.gather(1, torch.tensor([[3]]))":
        "t has size 3 in dimension 1, so the index tensor given to t.gather must hold "
        "values from 0 to 2 (no negative index here); it holds 3.",
    "t.scatter_(1, torch.tensor([[-1]]), 1)":
        "t has size 3 in dimension 1, so the index tensor given to t.scatter_ must hold "
        "values from 0 to 2 (no negative index here); it holds -1.",
    "t.index_copy_(0, torch.tensor([5]), torch.ones(1, 3, dtype=torch.int64))":
        "t has size 3 in dimension 0, so index_copy_'s index must hold values from 0 to 2 "
        "(no negative index here); it holds 5.",
    "t.select(0, 5)": "t has shape [3, 3]: dimension 0 has size 3, so select's index must "
                      "be between -3 and 2; 5 is not.",
    "t.index_select(0, torch.tensor([3]))":
        "the index tensor tensor([3]) given to t.index_select has a value that is not a "
        "position in dimension 0 of t: each must be from 0 to that dimension's size - 1 (no "
        "negative index here).",
    "t.take(torch.tensor([9]))": "take counts the 9 elements of t as one flat list, so its "
                                 "indices must be between -9 and 8; 9 is not.",
    "t[1, 2, 3]": "t has 2 dimension(s), but t[1, 2, 3] indexes 3: each integer, slice or "
                  "index tensor takes one dimension (a boolean mask as many as it has; None "
                  "and ... take none).",
    "t[0, 0][0]": "The tensor is a 0-dim tensor (one number): it has no dimension left to "
                  "index; use .item() to get the number.",
    "t[1.5]": "an index must be an integer, a slice, ..., None, or a tensor of integers or "
              "booleans; a float is none of these (use int(...) for a number).",
    "t[::-1]": "a slice of a tensor cannot step backwards (a view's strides are never "
               "negative in PyTorch): reverse with .flip(dim), which copies.",
    "bool(t)": "if, and, or, not and bool() need one True or False, and t holds "
               "several: say which you mean with .any() or .all() (or compare one element).",
    "torch.tensor([[1, 2], [3]])": "a tensor is a rectangle: every list at depth 1 must have "
                                   "the same length, and one has 1 where the first has 2.",
    "t.float().normal_(0, -1)": "a standard deviation is never negative; -1 is.",
    "t[rows, cols] = torch.tensor([1, 2, 3])":
        "t[rows, cols] selects elements of shape [2], and the value written there has shape "
        "[3], which does not broadcast to [2]: give a value of shape [2], or one that "
        "broadcasts to it (a single number always does).",
    "t[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]":
        "the index tensors are used together, element by element, so their shapes must "
        "broadcast to one shape; [2], [3] do not (compared from the last dimension, sizes "
        "must be equal or 1).",
    "t[index_0, index_1]":
        "a boolean mask covers as many dimensions as it has and must have their sizes: "
        "dimension 0 of the mask has size 2, but it lines up with dimension 1 of t (shape "
        "[3, 3]), which has size 3.",
    "t + torch.tensor([1, 2])":
        "broadcasting lines the two shapes up from their last dimension; in dimension 1 (of "
        "the result) one has size 3 and the other 2: sizes must be equal, or one of them 1.",
    "t.expand(2, 4)": "expand only stretches dimensions of size 1: t has sizes [3, 3], and "
                      "the size that lines up with dimension 1 of [2, 4] is 3, so it must stay "
                      "3 there (or be -1), not become 4.",
    "t[0:2] = torch.tensor([1, 2])":
        "the value written, of sizes [2], must broadcast to t[0:2], of sizes [2, 3]: lined up "
        "from the last dimension, its size 2 meets 3 in dimension 1, and only a size of 1 "
        "stretches.",
    "t.expand_as(torch.zeros(2, 4))":
        "a tensor of sizes [3, 3] cannot be expanded to [2, 4]: lined up from the last "
        "dimension, its size 3 meets 4 in dimension 1, and only a size of 1 stretches.",
    "t.expand(3)": "expand needs a size for every dimension of t (2) and may add new ones in "
                   "front; 1 size(s) is too few.",
    "t.mul_(torch.ones(2, 3, 3))": "an in-place operation writes its result into t, whose "
                                   "shape [3, 3] cannot change; the operands broadcast to "
                                   "[2, 3, 3].",
    "t.t().view(9)":
        "view never copies: the new shape must be reachable with strides over the same "
        "memory, and the elements of t.t() are not laid out in that order (after a "
        "transpose, a step slice or an expand, say). Use .reshape(...), which copies when it "
        "must, or .contiguous().view(...).",
    "t.view(4, 2)": "the shape [4, 2] holds 8 elements but t has 9: the sizes must multiply "
                    "to 9 (one of them may be -1, to be worked out).",
    "t.view(-1, 2)": "t has 9 elements, and the sizes of [-1, 2] other than the -1 hold 2: 9 "
                     "is not a multiple of 2, so no size can stand for the -1.",
    "t.view(-1, -1)": "-1 in a shape means 'whatever size is left over', so it can appear "
                      "only once.",
    "t.unflatten(0, (2, 2))": "unflatten splits dimension 0 (size 3) into sizes [2, 2], "
                              "which must multiply to 3.",
    "t.gather(1, rows)": "gather and scatter take an index with as many dimensions as t "
                         "(add the missing ones with unsqueeze).",
    "t.sum(2)": "t.sum takes a dim between -2 and 1 here (a negative dim counts from the "
                "end: -1 is the last); 2 is not.",
    "t.unsqueeze(3)": "t.unsqueeze takes a dim between -3 and 2 here (a negative dim counts "
                      "from the end: -1 is the last); 3 is not.",
    "t.narrow(0, 2, 2)": "narrow takes 2 element(s) from position 2, but the dimension has "
                         "size 3 (positions 0 to 2).",
    "t.repeat(2)": "repeat needs a count for every dimension of t (more add dimensions in "
                   "front).",
    "t.permute(0, 1, 2)": "permute needs each of the 2 dimensions of t exactly once; 3 were "
                          "given.",
    "t.permute(0, 0)": "permute needs each dimension of t exactly once; one was given twice.",
    "torch.cat([t, torch.ones(2, 2)])":
        "cat joins the tensors along dimension 0, so every other dimension must have the "
        "same size in all of them: tensor number 1 of the list has size 2 where the first "
        "has 3.",
    "torch.cat([t, torch.ones(3)])": "cat joins tensors with the same number of dimensions; "
                                     "here 2 and 1 (add or remove dimensions first: "
                                     "unsqueeze, reshape).",
    "torch.stack([t, torch.ones(2, 2)])":
        "stack puts the tensors side by side along a new dimension, so they must all have "
        "the same shape: entry 0 has shape [3, 3], entry 1 has [2, 2].",
    "t[torch.tensor([0.0, 1.0])]":
        "an index tensor must hold integers (int64, int32) or booleans (bool, uint8), not "
        "floating-point numbers: convert it with .long().",
    "t.index_select(0, torch.tensor([0.0]))":
        "index_select's index must hold integers (int64 or int32): convert it with .long().",
    "t += 1.5": "the result is computed as torch.float32, but it must be written into a "
                "torch.int64 tensor (in place, or out=), and PyTorch does not cast "
                "torch.float32 down to torch.int64 silently: write the result to a new "
                "tensor (y = t + ..., not t += ...) or convert the tensor first (t = "
                "t.float()).",
    "t[rows, cols] = torch.tensor(1.5)":
        "index_put_ writes the value into a torch.int64 tensor and needs a value of that "
        "dtype, but it is torch.float32: convert it first, value.to(torch.int64).",
    "t[0] = 1e30": "the number written does not fit in int64_t, the tensor's element type: "
                   "it is too large, or it is nan or inf, which no integer type can hold.",
    "t.masked_fill_(torch.tensor([1, 0, 1]), 0)":
        "a mask must be a bool tensor: build it with a comparison (t > 0) or convert it with "
        ".bool().",
    "t.mean()": "mean is computed only in a floating-point (or complex) dtype, and the input "
                "is torch.int64: convert it first (.float()) or pass dtype=torch.float32.",
    "t.item()": ".item() returns one Python number, so the tensor must have exactly one "
                "element; this one has 9: index one element first, or use .tolist().",
    "int(t)": "int(), float() and bool() of a tensor need exactly one element: index one "
              "element first, or use .tolist().",
    "int(torch.tensor(float('nan')))": "nan (not a number) has no integer value: int() of "
                                       "nan fails in Python too.",
    "torch.empty(-1)": "a size of -1 is not possible: every size of a tensor must be 0 or "
                       "more.",
    "torch.empty(2**62, 2**62)": "a tensor of sizes [4611686018427387904, "
                                 "4611686018427387904] has more bytes than a 64-bit number "
                                 "can count: it cannot be allocated.",
    "torch.arange(0, 10, -1)": "arange counts from start towards end by step, so step must "
                               "be positive when end > start and negative when end < start.",
}

#: Messages tidx's statements do not reach, with the line explaining them.
#: the autograd errors (issue #27): statement -> the English line
AUTOGRAD_CASES: dict[str, str] = {
    "x = torch.ones(3, requires_grad=True); y = x * 2; z = y * y; y.add_(1); "
    "z.sum().backward()":
        "a node of the graph saved a tensor of shape [3] at version 0 for its backward "
        "formula, and an in-place write since took it to version 1: the values the formula "
        "needs are gone. The graph picture names the node, the tensor and the statement "
        "that changed it; write out of place (y = y + 1) or into a clone.",
    "x = torch.ones(3, requires_grad=True); x.add_(1)":
        "a leaf that requires grad is where its .grad is measured: autograd will not let it "
        "change in place. Write into it under torch.no_grad() (as an optimiser's update "
        "does), or into a copy.",
    "x = torch.ones(3, requires_grad=True); x[0] = 1":
        "this is a view of a leaf that requires grad: writing into it would change the leaf "
        "in place. Write under torch.no_grad(), or into a clone.",
    "x = torch.ones(3, requires_grad=True); y = (x * x).sum(); y.backward(); y.backward()":
        "the first backward() freed what the graph's nodes saved (to give the memory back): "
        "pass retain_graph=True to the backward() before this one to walk the graph again.",
    "x = torch.ones(3, requires_grad=True); (x * 2).backward()":
        "backward() without a gradient starts from 1.0, which only a one-element output "
        "has: reduce first (y.sum().backward()) or pass backward(gradient) of the output's "
        "shape.",
    "x = torch.ones(3, requires_grad=True); x.grad.zero_()":
        "the value before .zero_ is None: a tensor's .grad, for one, is None until a "
        "backward pass has reached it (and a non-leaf's stays None unless it called "
        "retain_grad()); check for None first.",
    "x = torch.ones(3); x.sum().backward()":
        "the tensor backward() starts from has no history: nothing it was computed from "
        "requires grad (or it was computed under torch.no_grad()). Make the leaves with "
        "requires_grad=True first.",
    "x = torch.ones(3, requires_grad=True)\nwith torch.inference_mode():\n    t = torch.ones(3)"
    "\ny = x * t":
        "this tensor was made inside torch.inference_mode(), so it can never join a graph: "
        "use a clone of it (made outside the block), or torch.no_grad() instead.",
    "with torch.inference_mode():\n    t = torch.ones(3)\nt.add_(1)":
        "this tensor was made inside torch.inference_mode() and has no version counter, so "
        "it may only be written in place inside such a block (the write has already "
        "happened: the check comes after it). Write into a clone instead.",
    "x = torch.ones(3, requires_grad=True)\nwith torch.no_grad():\n    v = x[1:]\nv.mul_(2)":
        "the view was made while autograd was off (no_grad mode), and it or its base is "
        "written in place with autograd on: autograd cannot tell whether to track the "
        "write. Make the view and the write both inside the block or both outside it.",
    "x = torch.ones(2, 2, requires_grad=True) * 1; u = x.unbind(0); u[1].add_(1)":
        "unbind, split and chunk return several views at once, whose histories autograd "
        "cannot rebase one by one when one of them (or their base) is written in place: "
        "write into a clone of the view, or use an out-of-place operation.",
}
CASES.update(AUTOGRAD_CASES)

MESSAGES: dict[str, str] = {
    # an expand message without its sizes: the plainer entry still explains it
    "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
    "dimension 1":
        "expand only stretches dimensions of size 1: the existing size 3 lines up with "
        "dimension 1 of the new sizes, so it must stay 3 there, not become 4.",
    # select() on a dimension of size 0 (THPVariable_getitem's fast path)
    "index is out of bounds for dimension with size 0":
        "The tensor has size 0 in the dimension being indexed: there is no element there, "
        "so no index is valid.",
}


def _error(statement: str) -> tuple[Statement, Error]:
    st = session.run_document(statement).statements[-1]
    assert st.error is not None, f"{statement!r} raised nothing in tidx"
    return st, st.error


@pytest.mark.parametrize("statement,expected", CASES.items())
def test_the_explanation_names_the_statements_tensor_and_numbers(statement, expected):
    st, err = _error(statement)
    assert i18n.explain_error(err.message, "en", i18n.error_context(st)) == expected


@pytest.mark.torch
@pytest.mark.parametrize("statement", CASES)
def test_the_message_explained_is_torchs(statement):
    """torch is the oracle: the message matched is the one real PyTorch prints."""
    torch = require_torch()
    ns = torch_scope(torch)
    with pytest.raises(Exception) as raised:
        exec(statement, ns)  # the test's own statement, run in real torch
    _, err = _error(statement)
    theirs = str(raised.value).split("\nException raised from")[0]
    assert (type(raised.value).__name__, theirs) == (err.type, err.message)


def _reached(table: list[tuple], messages: list[str]) -> list[str]:
    return [entry[0] for entry in table
            if not any(re.search(entry[0], m) for m in messages)]


def test_every_pattern_is_reached_by_a_case():
    messages = [_error(s)[1].message for s in CASES] + list(MESSAGES)
    assert _reached(en_errors.ERRORS, messages) == []
    parser = ["zeros() got an unexpected keyword argument 'foo'",
              "zeros() missing 1 required positional arguments: \"size\"",
              "select() takes 2 positional arguments but 3 were given",
              "zeros() got multiple values for argument 'size'",
              "zeros(): argument 'size' failed to unpack the object at pos 2 with error",
              "zeros() received an invalid combination of arguments - got (str)",
              "zeros(): argument 'size' (position 1) must be tuple of ints, not float",
              "required rank 4 tensor to use channels_last format",
              "refusing to allocate 4.0 TiB (4398046511104 bytes): above tidx's memory limit "
              "of 1.0 GiB; raise it"]
    assert _reached(zh_errors.ERRORS, messages + parser) == []


@pytest.mark.parametrize("message,expected", MESSAGES.items())
def test_a_message_alone_is_explained_plainly(message, expected):
    assert i18n.explain_error(message, "en") == expected


def test_without_the_trace_the_line_is_plainer_but_right():
    message = "index 5 is out of bounds for dimension 0 with size 3"
    assert i18n.explain_error(message, "en") == (
        "dimension 0 has size 3: an index there must be from 0 to 2 (or from -3 to -1 where "
        "negative indices count from the end); 5 is not.")
    assert i18n.explain_error("index out of range in self", "en").startswith(
        "an index is not a position in the dimension being indexed")
    assert i18n.explain_error("Dimension out of range (expected to be in range of [-2, 1], "
                              "but got 2)", "en", {"type": "IndexError"}).startswith(
        "a dim here must be between -2 and 1")
    assert i18n.explain_error("something new", "en") is None


@pytest.mark.parametrize("statement", ["t[5]", "t[0][7]", "t.sum(2)", "t.view(4, 2)",
                                       "t[rows, cols] = torch.tensor([1, 2, 3])"])
def test_chinese_names_the_same_tensor_and_numbers(statement):
    st, err = _error(statement)
    context = i18n.error_context(st)
    english = i18n.explain_error(err.message, "en", context)
    chinese = i18n.explain_error(err.message, "zh", context)
    assert chinese and re.search(r"[\u4e00-\u9fff]", chinese)
    # every number of the English line is in the Chinese one
    assert set(re.findall(r"-?\d+", english)) <= set(re.findall(r"-?\d+", chinese)), chinese


# -- the numbers agree with the message, whatever the sizes ------------------------------

_SHAPES = st.lists(st.integers(1, 5), min_size=1, max_size=3)


@settings(max_examples=examples(40), deadline=None)
@given(shape=_SHAPES, data=st.data())
def test_index_out_of_range_numbers_agree_with_the_message(shape, data):
    dim = data.draw(st.integers(0, len(shape) - 1), label="dim")
    size = shape[dim]
    index = data.draw(st.one_of(st.integers(size, size + 5), st.integers(-size - 5, -size - 1)),
                      label="index")
    where = ", ".join([":"] * dim + [str(index)])
    st_, err = _error(f"y = torch.zeros({', '.join(map(str, shape))}); y[{where}]")
    message = err.message
    assert message == f"index {index} is out of bounds for dimension {dim} with size {size}"
    why = i18n.explain_error(message, "en", i18n.error_context(st_))
    assert why == (f"y has size {size} in dimension {dim}, so an index there must be between "
                   f"{-size} and {size - 1}; {index} is not.")
    zh = i18n.explain_error(message, "zh", i18n.error_context(st_))
    assert f"合法的索引是 {-size} 到 {size - 1},而这里是 {index}" in zh


@settings(max_examples=examples(40), deadline=None)
@given(shape=_SHAPES, data=st.data())
def test_dim_out_of_range_numbers_agree_with_the_message(shape, data):
    n = len(shape)
    dim = data.draw(st.one_of(st.integers(n, n + 3), st.integers(-n - 3, -n - 1)), label="dim")
    op = data.draw(st.sampled_from(["sum", "flip", "unsqueeze", "select"]), label="op")
    args = f"{dim}, 0" if op == "select" else str(dim)
    lo, hi = (-n - 1, n) if op == "unsqueeze" else (-n, n - 1)
    if lo <= dim <= hi:  # unsqueeze accepts one more
        return
    st_, err = _error(f"y = torch.zeros({', '.join(map(str, shape))}); y.{op}({args})")
    message = err.message
    got = re.fullmatch(r"Dimension out of range \(expected to be in range of \[(-?\d+), "
                       r"(-?\d+)\], but got (-?\d+)\)", message)
    assert got and tuple(map(int, got.groups())) == (lo, hi, dim), message
    why = i18n.explain_error(message, "en", i18n.error_context(st_))
    assert why == (f"y.{op} takes a dim between {lo} and {hi} here (a negative dim counts "
                   f"from the end: -1 is the last); {dim} is not.")


@settings(max_examples=examples(30), deadline=None)
@given(shape=_SHAPES, new=_SHAPES)
def test_view_shape_numbers_agree_with_the_message(shape, new):
    numel, want = 1, 1
    for s in shape:
        numel *= s
    for s in new:
        want *= s
    if numel == want:
        return
    st_, err = _error(f"y = torch.zeros({', '.join(map(str, shape))}); "
                      f"y.view({', '.join(map(str, new))})")
    assert err.message == f"shape '{list(new)}' is invalid for input of size {numel}"
    why = i18n.explain_error(err.message, "en", i18n.error_context(st_))
    assert why == (f"the shape {list(new)} holds {want} elements but y has {numel}: the sizes "
                   f"must multiply to {numel} (one of them may be -1, to be worked out).")


# -- every view that shows an error shows the line -----------------------------------------
STATEMENT = "t[rows, torch.tensor([0, 5])]"
LINE = CASES[STATEMENT]


def test_the_tree_shows_it_at_the_step_and_at_the_end():
    console = Console(width=400, no_color=True, record=True, file=open("/dev/null", "w"))
    console.print(render_tree.render(session.run_document(STATEMENT), links=False))
    text = console.export_text()
    assert text.count(f"→ {LINE}") == 2
    assert f"IndexError: index 5 is out of bounds for dimension 1 with size 3\n→ {LINE}\n" in text


def test_a_filtered_tree_still_names_the_tensor():
    res = cli_run("explain", STATEMENT, "--layers", "kernel", "--width", "400")
    assert res.exit_code == 1
    assert f"→ {LINE}" in res.stdout


def test_step_shows_it_at_the_step_that_raised():
    doc = session.run_document(STATEMENT)
    flat = render_step.steps(doc)
    k = next(i for i, item in enumerate(flat) if item["event"] and item["event"].error)
    console = Console(width=400, no_color=True, record=True, file=open("/dev/null", "w"))
    console.print(render_step.render(flat, k))
    assert f"→ {LINE}" in console.export_text()


def test_markdown_and_html_show_it_at_the_step_and_under_the_outcome():
    doc = session.run(STATEMENT)
    page = render_markdown.render(Document.from_json(doc))
    assert f"```\n\n→ {LINE}" in page and page.count(f"→ {LINE}") == 2
    page = render_html.render(Document.from_json(doc), "<svg></svg>")
    assert f'<p class="error">→ {LINE}</p>' in page
    assert f'<div class="note error">→ {LINE}</div>' in page


def test_the_command_line_ends_with_the_message_and_its_explanation():
    res = cli_run("explain", "t[5]")
    assert res.exit_code == 1
    assert res.stderr.rstrip().splitlines()[-2:] == [
        "tidx: 't[5]' raised IndexError: index 5 is out of bounds for dimension 0 with size 3",
        f"→ {CASES['t[5]']}"]
    zh = cli_run("explain", "t[5]", "--lang", "zh")
    assert zh.stderr.rstrip().splitlines()[-1] == \
        "→ 索引越界:张量 t 的第 0 维大小是 3,合法的索引是 -3 到 2,而这里是 5。"


def test_a_refusal_stays_one_line_in_english():
    res = cli_run("explain", "torch.empty(2**20, 2**20)")
    assert res.exit_code == 2
    assert "→" not in res.output


def test_user_text_in_the_explanation_is_escaped_in_html():
    doc = session.run("y = torch.zeros(3); y[y < 5, 7]")
    page = render_html.render(Document.from_json(doc), "<svg></svg>")
    last = Document.from_json(doc).statements[-1]
    assert last.error is not None
    why = i18n.explain_error(last.error.message, "en", i18n.error_context(last))
    assert why and "<" in why and why not in page
    assert why.replace("<", "&lt;") in page


_MESSAGES = st.sampled_from([entry[0] for entry in en_errors.ERRORS])


@settings(max_examples=examples(100), deadline=None)
@given(message=st.one_of(st.text(max_size=80), _MESSAGES.map(lambda rx: re.sub(r"[\\()?]", "",
                                                                                rx))),
       source=st.one_of(st.none(), st.text(max_size=40), st.sampled_from(list(CASES))),
       call=st.one_of(st.none(), st.sampled_from(["Tensor.__getitem__", "Tensor.sum", "torch.cat",
                                                  "Tensor.__bool__", "Tensor.", "torch."])),
       lang=st.sampled_from(["en", "zh"]))
def test_any_message_and_context_explains_or_says_nothing(message, source, call, lang):
    """Never an exception: a message no pattern knows, a source that is not Python, a
    call the source does not make — the line is a string or there is none."""
    context = {k: v for k, v in {"source": source, "call": call, "type": "IndexError",
                                 "args": {"dim": {"kind": "int", "value": 1}}}.items() if v}
    why = i18n.explain_error(message, lang, context)
    assert why is None or (isinstance(why, str) and why)
