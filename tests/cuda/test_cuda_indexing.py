"""Advanced indexing on the simulated CUDA device (issue 16): ``t[rows, cols] = 10`` and
``t[rows, cols]`` on a CUDA ``t`` (engine/ops/cuda_indexing.py).

torch here is a CPU build, so what can be compared with it is: the same statement on a
CPU tensor gives the values, shapes, strides and dtypes tidx gives on the simulated GPU,
and the errors torch checks before any kernel runs are its CPU's.  The steps are
checked against TensorAdvancedIndexing.cpp's CUDA branches: the 0-dim value and every
CPU index tensor moved to the device (one host-to-device cudaMemcpyAsync of numel *
itemsize bytes each, a caching allocator block each), then IndexKernel.cu's kernels.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings, strategies as st
from rich.console import Console

from conftest import cli_run, examples, golden, require_torch
from engine.interpreter import session
from engine.memory import cuda_caching_allocator as A
from tracer import lecture, values as V
from tracer.events import walk
from tracer.render import tree as render_tree

T = "t = torch.zeros(3, 4, device='cuda'); "
SETITEM = T + "t[rows, cols] = 10"
GETITEM = T + "y = t[rows, cols]"
DEFAULTS = "rows = torch.tensor([0, 2]); cols = torch.tensor([1, 1]); "
_DTYPES = {"f32": "torch.float32", "i64": "torch.int64", "f64": "torch.float64",
           "b8": "torch.bool"}


def _last(doc: dict) -> list[dict]:
    return [ev for _, ev in walk(doc["statements"][-1]["events"])]


def _args(ev: dict) -> dict:
    return {k: V.plain(v) for k, v in ev["args"].items()}


def _bound(doc: dict, name: str) -> dict:
    for statement in reversed(doc["statements"]):
        if name in (statement.get("bindings") or {}):
            return statement["bindings"][name]["summary"]
    raise KeyError(name)


def _meta(summary: dict) -> tuple:
    return (summary["shape"], summary["strides"], _DTYPES[summary["dtype"]],
            summary["values"])


def _torch_meta(value) -> tuple:
    return list(value.shape), list(value.stride()), str(value.dtype), value.tolist()


def _on_cpu(statement: str, torch) -> dict:
    """The statement run by real torch on the CPU (the device argument taken out)."""
    scope: dict = {"torch": torch}
    exec(DEFAULTS + statement.replace(", device='cuda'", ""), scope)   # noqa: S102 - ours
    return scope


# -- the steps, in torch's order ------------------------------------------------------
def test_setitem_moves_the_value_then_each_index_then_runs_gpu_index_kernel():
    steps = _last(session.run(SETITEM))
    names = [ev["name"] for ev in steps]
    taught = [n for n in names if n in (
        "valueToTensor", "aten::index_put_", "aten::_index_put_impl_",
        "value.to(self.device())", "make_info", "indice.to(self.device())",
        "cudaMemcpyAsync", "index_put_kernel", "gpu_index_kernel", "cpu_index_put_kernel")]
    assert taught == ["valueToTensor", "aten::index_put_", "aten::_index_put_impl_",
                      "value.to(self.device())", "cudaMemcpyAsync", "make_info",
                      "indice.to(self.device())", "cudaMemcpyAsync",
                      "indice.to(self.device())", "cudaMemcpyAsync",
                      "index_put_kernel", "gpu_index_kernel"]
    # make_info moves the indices after expand_outplace, before the AdvancedIndex
    assert names.index("expand_outplace") < names.index("indice.to(self.device())") \
        < names.index("restride_src")
    # every move is aten::to -> _to_copy -> empty_strided on CUDA -> copy_kernel_cuda
    for move in (ev for ev in steps if ev["name"].endswith(".to(self.device())")):
        inside = [ev["name"] for _, ev in walk(move["children"])]
        assert inside[:3] == ["aten::to", "aten::_to_copy", "aten::empty_strided"]
        assert inside.index("copy_kernel_cuda") < inside.index("cudaMemcpyAsync") \
            < inside.index("cudaStreamSynchronize")
        assert V.plain(move["args"]["simulated"]) is True
        assert move["result"]["device"] == "cuda"
    for kernel in ("index_put_kernel", "gpu_index_kernel"):
        ev = next(e for e in steps if e["name"] == kernel)
        assert V.plain(ev["args"]["simulated"]) is True and "simulated" in ev["note"]
        assert ev["source"] == "aten/src/ATen/native/cuda/IndexKernel.cu"


def test_the_host_to_device_copies_carry_numel_times_itemsize_bytes():
    steps = _last(session.run(SETITEM))
    copies = [_args(ev) for ev in steps if ev["name"] == "cudaMemcpyAsync"]
    # the float32 value (4 bytes), then rows and cols: two int64 each, 16 bytes
    assert [c["nbytes"] for c in copies] == [4, 2 * 8, 2 * 8]
    assert {c["kind"] for c in copies} == {"cudaMemcpyHostToDevice"}
    # each lands at the start of its own caching allocator block
    assert [c["dst"] for c in copies] == [A.hex_ptr(A.SIMULATED_DEVICE_HEAP + k * 512)
                                          for k in (1, 2, 3)]
    moves = [ev for ev in steps if ev["name"] == "indice.to(self.device())"]
    assert [ev["note_args"]["nbytes"] for ev in moves] == [16, 16]
    assert "16 bytes host to device (simulated)" in moves[0]["note"]


def test_the_moved_tensors_take_blocks_of_the_caching_allocator():
    doc = session.run(SETITEM)
    allocs = [ev for _, ev in walk(doc["statements"][-1]["events"])
              if ev["name"] == "CUDACachingAllocator::allocate"]
    assert [_args(ev)["nbytes"] for ev in allocs] == [4, 16, 16]
    assert [V.plain(ev["result"]) for ev in allocs] == \
        [hex(A.SIMULATED_DEVICE_HEAP + k * A.K_MIN_BLOCK_SIZE) for k in (1, 2, 3)]
    # all carved from t's 2 MiB segment: one cudaMalloc in the whole run
    every = [ev["name"] for st_ in doc["statements"] for _, ev in walk(st_["events"])]
    assert every.count("cudaMalloc") == 1
    assert every.count("get_free_block") == 4


def test_getitem_moves_the_indices_and_allocates_the_result_on_the_device():
    doc = session.run(GETITEM)
    steps = _last(doc)
    names = [ev["name"] for ev in steps]
    assert "value.to(self.device())" not in names
    assert names.index("indice.to(self.device())") < names.index("at::detail::empty_cuda") \
        < names.index("index_kernel") < names.index("gpu_index_kernel")
    assert "cpu_index_kernel" not in names
    y = _bound(doc, "y")
    assert y["device"] == "cuda" and y["values"] == [0.0, 0.0]
    result = next(ev for ev in steps if ev["name"] == "CUDACachingAllocator::allocate"
                  and _args(ev)["nbytes"] == 8)
    assert V.plain(result["result"]) == hex(A.SIMULATED_DEVICE_HEAP + 3 * 512)


# -- values and errors against torch on the CPU ---------------------------------------------
AGREE = [
    T + "t[rows, cols] = 10", T + "t[rows, cols] = -2.5", T + "t[rows] = 4",
    T + "t[:, cols] = 1", T + "t[rows, 1:] = 3", T + "t[rows, cols] = torch.tensor(5.)",
    T + "t[torch.tensor([-1, 0]), cols] = 2",
    T + "t[rows[:, None], :] = 6".replace("rows[:, None]", "torch.tensor([2])"),
    "t = torch.zeros(2, 3, 4, device='cuda'); t[torch.tensor([1, 0]), :, cols] = 9",
    "t = torch.zeros(3, 4, dtype=torch.int64, device='cuda'); t[rows, cols] = 7",
    "t = torch.ones(3, 4, device='cuda'); t[cols, rows] = 0; y = t[rows, cols]",
    "t = torch.full((3, 4), 2., device='cuda'); t[rows, cols] = 8; y = t[rows]",
    "t = torch.zeros(3, 4, device='cuda'); t[rows, cols] = 5; y = t[:, cols]",
    "t = torch.zeros(3, 4, device='cuda'); t[1, 2] = 4; y = t[rows, torch.tensor([2, -2])]",
    "t = torch.zeros(2, 3, 4, device='cuda'); t[1, 2, 3] = 1; y = t[torch.tensor([1, 1]), :, cols]",
    "t = torch.zeros(3, 4, device='cuda'); t[rows, cols] = 3; y = t.t()[cols, rows]",
    T + "t.index_put_((rows, cols), torch.tensor(2.)); t = t", T + "t[..., rows] = 1",
    T + "t[None, rows] = 1", T + "t[rows, 1] = 1", T + "t[1, rows] = 1",
    T + "t[torch.tensor([], dtype=torch.int64)] = 1",
    T + "t[2, 3] = 1; y = t[torch.tensor([[0, 1], [2, 2]]), torch.tensor([[3, 3], [0, 1]])]",
    T + "t[0, 1] = 1; y = t[torch.tensor([], dtype=torch.int64)]",
]


@pytest.mark.parametrize("statement", AGREE)
def test_values_shapes_strides_and_dtypes_are_torch_cpus(statement):
    torch = require_torch()
    doc = session.run(statement)
    assert doc["statements"][-1].get("error") is None, doc["statements"][-1]["error"]
    theirs = _on_cpu(statement, torch)
    for name in ("t", "y"):
        if name in theirs:
            assert _meta(_bound(doc, name)) == _torch_meta(theirs[name]), name
            assert _bound(doc, name)["device"] == "cuda"


ERRORS = [
    T + "t[rows, cols] = torch.tensor(5)",                 # dtypes differ (Long into Float)
    T + "t[rows, cols] = torch.tensor([1., 2., 3.])",      # shape: checked before devices
    T + "t[rows, cols, rows] = 1",                         # too many indices
    T + "y = t[rows, cols, rows]",
    T + "t[rows, torch.tensor([0, 1, 2])] = 1",            # indices do not broadcast
    T + "y = t[torch.tensor([1.5])]",                      # not an index dtype
]


@pytest.mark.parametrize("statement", ERRORS)
def test_errors_torch_checks_before_the_kernel_are_its_cpus(statement):
    torch = require_torch()
    error = session.run(statement)["statements"][-1]["error"]
    with pytest.raises(Exception) as theirs:
        _on_cpu(statement, torch)
    assert (error["type"], error["message"]) == (type(theirs.value).__name__,
                                                 str(theirs.value))


def test_a_cpu_value_tensor_is_tensoriterators_device_error():
    doc = session.run(T + "t[rows, cols] = torch.tensor([1., 2.])")
    error = doc["statements"][-1]["error"]
    assert (error["type"], error["message"]) == (
        "RuntimeError", "Expected all tensors to be on the same device, but found at least "
                        "two devices, cuda:0 and cpu!")


def test_a_cuda_index_into_a_cpu_tensor_is_index_metas_error():
    doc = session.run(T + "y = torch.zeros(3)[rows.cuda()]")
    error = doc["statements"][-1]["error"]
    assert (error["type"], error["message"]) == (
        "RuntimeError", "indices should be either on cpu or on the same device as the "
                        "indexed tensor (cpu)")


def test_the_messages_are_in_torchs_binary():
    torch = require_torch()
    lib = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so")
    data = open(lib, "rb").read()
    assert b"indices should be either on " in data
    assert b"Expected all tensors to be on the same device, but found at least two " \
           b"devices, " in data


@pytest.mark.parametrize("statement", [
    T + "t[torch.tensor([0, 3]), cols] = 1", T + "y = t[rows, torch.tensor([4, 0])]",
    T + "t[torch.tensor([-4]), 0] = 1"])
def test_an_index_out_of_range_is_refused_as_a_device_side_assert(statement):
    torch = require_torch()
    with pytest.raises(IndexError):    # the CPU's error, which a GPU does not give
        _on_cpu(statement, torch)
    result = cli_run("explain", statement)
    assert result.exit_code == 2, result.output
    words = " ".join(result.output.split())
    assert "device-side assert triggered" in words and "CUDA_KERNEL_ASSERT" in words
    assert "Traceback" not in result.output


@pytest.mark.parametrize("statement", [
    T + "t.index_put_((rows, cols), torch.tensor(1.), accumulate=True)",   # with_sort
    T + "t[torch.tensor([0, 0]), cols] = torch.tensor([1., 2.]).cuda()",    # racing writes
    # an int index (int -> long on the GPU) and a broadcast index (its copy through
    # Copy.cu's temporaries) run now: tests/cuda/test_cuda_copy.py
    T + "y = t[t > 0]",                                 # masks: comparisons not modelled
])
def test_what_is_not_modelled_is_refused_in_one_line(statement):
    result = cli_run("explain", statement)
    assert result.exit_code == 2, result.output
    assert "simulated CUDA device" in result.output and "Traceback" not in result.output


# -- property: any index tensors, values and metadata as torch's CPU gives --------------------
@st.composite
def _cases(draw):
    ndim = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim))
    count = draw(st.integers(1, ndim))
    first = draw(st.integers(0, ndim - count))      # a run of indexed dims after slices
    # every index tensor of one shape (1 or 2 dims): broadcasting them needs a strided
    # host-to-device copy, which is refused (tested above)
    ishape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    n = ishape[0] * (ishape[1] if len(ishape) == 2 else 1)
    parts = [":"] * first
    for size in shape[first:first + count]:
        values = draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n))
        if len(ishape) == 2:
            values = [values[r * ishape[1]:(r + 1) * ishape[1]] for r in range(ishape[0])]
        parts.append(f"torch.tensor({values})")
    index = ", ".join(parts)
    dtype = draw(st.sampled_from(["torch.float32", "torch.int64"]))
    value = draw(st.integers(-9, 9))
    statement = (f"t = torch.zeros({tuple(shape)}, dtype={dtype}, device='cuda'); "
                 f"t[{index}] = {value}; y = t[{index}]")
    return statement, 4 if dtype == "torch.float32" else 8, count, n


@settings(max_examples=examples(25), deadline=None)
@given(_cases())
def test_any_index_tensors_give_torch_cpus_values_and_metadata(case):
    statement, itemsize, count, n = case
    torch = require_torch()
    doc = session.run(statement)
    assert doc["statements"][-1].get("error") is None, (statement,
                                                        doc["statements"][-1]["error"])
    theirs = _on_cpu(statement, torch)
    for name in ("t", "y"):
        mine, expected = _bound(doc, name), _torch_meta(theirs[name])
        if "values" not in mine:
            # more elements than a trace summary keeps (tracer.values.MAX_ITEMS): shape,
            # strides and dtype are still compared
            mine, expected = {**mine, "values": None}, expected[:3] + (None,)
        assert _meta(mine) == expected, (statement, name)
        assert _bound(doc, name)["device"] == "cuda"
    # the write moves the value (itemsize bytes) and each index (n int64s); the read
    # moves each index again: a move is not kept between operators
    write, read = doc["statements"][1], doc["statements"][2]
    for st_, expected in ((write, [itemsize] + [n * 8] * count), (read, [n * 8] * count)):
        copies = [_args(ev)["nbytes"] for _, ev in walk(st_["events"])
                  if ev["name"] == "cudaMemcpyAsync"]
        assert copies == expected, statement


# -- the lecture view --------------------------------------------------------------------------
def _lecture(statement: str, width: int = 100) -> str:
    doc = session.run_document(statement)
    console = Console(width=width, no_color=True, color_system=None, record=True,
                      file=open(os.devnull, "w"), highlight=False)
    console.print(render_tree.render(lecture.fold(doc), notes=False, links=False,
                                     brief=True, full=doc))
    return console.export_text()


def test_the_lecture_shows_each_host_to_device_copy_and_the_kernel():
    result = cli_run("explain", SETITEM)
    assert result.exit_code == 0, result.output
    out = result.output
    setitem = out[out.index(">>> t[rows, cols] = 10"):]
    assert setitem.count("cudaMemcpyAsync") == 3
    assert setitem.count("indice.to(self.device())") == 2
    assert "value.to(self.device())" in setitem
    assert "index_put_kernel" in setitem and "gpu_index_kernel" in setitem
    # a slide: the CPU's tree and the seven lines of the device (three copies, their
    # moves, the CUDA kernel under its stub) in place of cpu_index_put_kernel
    cpu = cli_run("explain", "t = torch.zeros(3, 4); t[rows, cols] = 10").output
    assert _steps(setitem) == _steps(cpu[cpu.index(">>> t[rows"):]) + 7
    # then the three device temporaries (the value and the two indices moved to the
    # device) die, their blocks back to the cache (engine/memory/cuda_lifetime.py)
    tree = setitem.splitlines()[1:_tree_lines(setitem, deaths=True) + 1]
    deaths = [ln for ln in tree if "last reference dropped" in ln]
    assert len(deaths) == 3 and all("reason=temporary" in ln for ln in deaths)


def _steps(out: str) -> int:
    """The steps of the statement's tree: its lines that begin a step (a long step wraps
    onto more lines under it)."""
    return sum("── " in line for line in out.splitlines()[1:_tree_lines(out) + 1])


def _tree_lines(out: str, deaths: bool = False) -> int:
    """The lines of the statement's step tree (up to what it printed after it), without
    the CUDA temporaries' deaths after its steps unless ``deaths``."""
    lines = out.splitlines()[1:]
    return next(i for i, line in enumerate(lines)
                if not line.startswith((" ", "└", "├", "│"))
                or not deaths and "last reference dropped" in line)


def test_the_lecture_view_golden():
    golden("cuda_index_put_lecture.txt", _lecture(SETITEM))
