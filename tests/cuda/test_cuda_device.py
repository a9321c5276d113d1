"""The simulated CUDA device, first slice (issue 16): factories on device='cuda', views of
their tensors, everything else refused in one line.

torch here is a CPU build (``torch.randn(3, device='cuda')`` fails in it), so what can be
compared with it is compared with the same factory on the CPU: shapes, strides, dtypes,
storage offsets, fill values and errors.  The allocator's and the generator's arithmetic
are their modules' (tested in test_cuda_caching_allocator.py and test_philox.py); here they
are checked to be what the statement's steps show.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import cli_run, examples, require_torch
from engine.interpreter import session
from engine.memory import cuda_caching_allocator as A
from engine.rng import philox
from tracer import values as V
from tracer.render import format as F

RANDN = "x = torch.randn(3, 4, device='cuda')"


def _bound(doc: dict, name: str) -> dict:
    for statement in reversed(doc["statements"]):
        if name in (statement.get("bindings") or {}):
            return statement["bindings"][name]
    raise KeyError(name)


def _steps(events: list[dict]):
    for ev in events:
        yield ev
        yield from _steps(ev.get("children") or [])


def _words(out: str) -> str:
    """The output's words in one line: the tree's wrapping and guides taken out."""
    return " ".join(re.sub("[│├└─]", " ", out).split())


def _all_steps(doc: dict) -> list[dict]:
    return [ev for statement in doc["statements"] for ev in _steps(statement["events"])]


# -- the trace: dispatch key, caching allocator, Philox, "simulated" ---------------------
def test_randn_on_cuda_shows_its_path_and_says_simulated():
    result = cli_run("explain", RANDN, "--seed", "0", "--full")
    assert result.exit_code == 0, result.output
    out = result.output
    for shown in ("BackendSelect -> CUDA", "at::native::empty_cuda",
                  "at::detail::empty_cuda", "round_size", "48 bytes round up to 512",
                  "small pool", "cudaMalloc(2097152)", "the 2097152-byte block is split: 512 "
                  "bytes at 0x7f0000000000", "philox_cuda_state(4): this kernel draws with "
                  "seed 0 at offset 0", "normal_kernel of DistributionNormal.cu",
                  "cuda:0 (simulated)", "device='cuda:0')"):
        assert shown in _words(out), shown


def test_the_default_view_labels_the_device_simulated():
    result = cli_run("explain", RANDN, "--seed", "0")
    assert result.exit_code == 0, result.output
    assert "simulated" in result.output
    assert "device='cuda:0'" in result.output


def test_the_steps_are_the_allocator_and_generator_modules_numbers():
    doc = session.run(RANDN, seed=0)
    steps = {ev["name"]: ev for ev in _all_steps(doc)}
    assert V.plain(steps["round_size"]["result"]) == A.round_size(48) == 512
    assert V.plain(steps["cudaMalloc"]["args"]["nbytes"]) == A.get_allocation_size(512) \
        == A.K_SMALL_BUFFER
    assert steps["DeviceCachingAllocator::malloc"]["note_id"] == "cuda.malloc"
    kernel = steps["normal_kernel"]
    assert kernel["note_id"] == "cuda.device.normal_kernel" and "simulated" in kernel["note"]
    # the values are engine.rng.philox's normal_kernel for seed 0 (tested against a
    # real GPU's prints in test_philox.py)
    expected = philox.normal_kernel(philox.CUDAGenerator(0), 12).reshape(3, 4)
    values = np.array(_bound(doc, "x")["summary"]["values"], dtype=np.float32)
    assert np.array_equal(values, expected)


def test_a_second_tensor_is_carved_from_the_same_segment():
    doc = session.run("x = torch.zeros(3, 4, device='cuda'); p = x.data_ptr(); "
                      "y = torch.ones(100, device='cuda'); q = y.data_ptr()")
    p = V.plain(_bound(doc, "p")["summary"])
    q = V.plain(_bound(doc, "q")["summary"])
    assert p == A.SIMULATED_DEVICE_HEAP and q - p == A.K_MIN_BLOCK_SIZE
    mallocs = [ev for ev in _all_steps(doc) if ev["name"] == "cudaMalloc"]
    found = [ev for ev in _all_steps(doc) if ev.get("note_id") == "cuda.get_free_block.found"]
    assert len(mallocs) == 1 and len(found) == 1


# -- values and the JSON document --------------------------------------------------------
def test_json_records_the_device_and_marks_it_simulated():
    doc = session.run("x = torch.full((2, 3), 7, device='cuda:0'); d = x.device; "
                      "c = x.is_cuda")
    x = _bound(doc, "x")
    assert x["summary"]["device"] == "cuda" and x["summary"]["values"] == [[7] * 3] * 2
    assert x["repr"] == "tensor([[7, 7, 7],\n        [7, 7, 7]], device='cuda:0')"
    d = _bound(doc, "d")
    assert d["summary"] == {"kind": "device", "type": "cuda", "index": 0, "simulated": True}
    assert d["repr"] == "device(type='cuda', index=0)"
    assert F.value(d["summary"]) == "cuda:0 (simulated)"
    assert _bound(doc, "c")["repr"] == "True"


@pytest.mark.parametrize("spec", ["'cuda'", "'cuda:0'"])     # (torch.device: not in tidx)
def test_every_spelling_of_the_device(spec):
    doc = session.run(f"x = torch.zeros(2, device={spec})")
    assert _bound(doc, "x")["repr"] == "tensor([0., 0.], device='cuda:0')"


# -- metadata against torch's CPU ----------------------------------------------------------
FACTORIES = ["torch.empty(3, 4{d})", "torch.zeros(2, 3, 4{d})", "torch.ones(5{d})",
             "torch.full((2, 2), 1.5{d})", "torch.full((3,), 7{d})",
             "torch.rand(4, 3{d})", "torch.randn(3, 4{d})", "torch.zeros((){d})",
             "torch.zeros(2, 3, dtype=torch.int64{d})", "torch.ones(0, 3{d})",
             "torch.empty(2, 3, 4, 5{d}, memory_format=torch.channels_last)"]
VIEWS = ["", "[1]", "[1:, ::2]", ".t()", ".transpose(0, 1)", ".view(-1)",
         ".unsqueeze(0)", "[None, 1:]", ".expand(2, 3, 4)", ".permute(1, 0)",
         ".narrow(1, 1, 2)", ".reshape(4, 3)"]


def _meta(value) -> tuple:
    return (list(value.shape), list(value.stride()), str(value.dtype),
            value.storage_offset())


def _tidx_meta(summary: dict) -> tuple:
    return (summary["shape"], summary["strides"], f"torch.{_DTYPES[summary['dtype']]}",
            summary["offset"])


_DTYPES = {"f32": "float32", "i64": "int64", "f64": "float64"}


@pytest.mark.parametrize("factory", FACTORIES)
def test_factories_match_the_cpu_in_everything_but_the_device(factory):
    torch = require_torch()
    ours = _bound(session.run(f"x = {factory.format(d=', device=' + repr('cuda'))}"),
                  "x")["summary"]
    theirs = eval(factory.format(d=""), {"torch": torch})   # noqa: S307 - our own text
    assert _tidx_meta(ours) == _meta(theirs)
    if "rand" not in factory and "empty" not in factory:
        assert ours["values"] == theirs.tolist()


@pytest.mark.parametrize("view", VIEWS)
def test_views_of_a_cuda_tensor_match_the_cpu(view):
    torch = require_torch()
    doc = session.run(f"x = torch.zeros(3, 4, device='cuda'); y = x{view if view else ''}"
                      .replace("expand(2, 3, 4)", "expand(2, 3, 4)"))
    y = _bound(doc, "y")
    theirs = eval(f"torch.zeros(3, 4){view}", {"torch": torch})   # noqa: S307
    assert _tidx_meta(y["summary"]) == _meta(theirs)
    assert y["summary"]["device"] == "cuda" and y["repr"].endswith("device='cuda:0')")


def test_the_options_are_read_before_the_sizes_as_on_the_cpu():
    torch = require_torch()
    with pytest.raises(TypeError) as theirs:
        torch.ones([1, 2.5])
    doc = session.run("x = torch.ones([1, 2.5], device='cuda')")
    error = doc["statements"][0]["error"]
    assert (error["type"], error["message"]) == ("TypeError", str(theirs.value))


# -- refusals: one line, exit code 2, never a traceback --------------------------------------
REFUSED = ["y = x + 1", "y = x.sum()", "x[1, 2] = 0.5 + x[0, 0]", "y = x.tolist()",
           "y = torch.zeros(3, 4)[0, 0] + x", "y = x == 0",
           "y = x.t().reshape(12)", "y = x[0, 0].item()", "y = x.sort()",
           "y = torch.cat([x, x])", "y = x.abs()"]


@pytest.mark.parametrize("op", REFUSED)
def test_what_the_slice_does_not_model_is_refused(op):
    result = cli_run("explain", f"x = torch.zeros(3, 4, device='cuda'); {op}")
    assert result.exit_code == 2, result.output
    assert "on the simulated CUDA device is not modelled yet" in result.output \
        or "is not available in tidx" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("statement", ["x = torch.randn(3, device='cuda:1')",
                                       "x = torch.arange(3, device='cuda')",
                                       "x = torch.tensor([1, 2], device='cuda')"])
def test_factories_outside_the_slice_are_refused(statement):
    result = cli_run("explain", statement)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


OPS = st.sampled_from(VIEWS[1:] + [r.partition("= ")[2].replace("x", "", 1)
                                   for r in REFUSED if r.startswith("y = x")])


@settings(max_examples=examples(15), deadline=None)
@given(first=OPS, second=OPS)
def test_any_chain_is_torch_metadata_or_a_refusal(first, second):
    """Two operators in a row on a CUDA tensor: torch's CPU metadata or a one-line
    refusal (exit 2), never an internal error (exit 3) or another answer."""
    torch = require_torch()
    text = f"x = torch.zeros(3, 4, device='cuda'); y = x{first}; z = y{second}"
    result = cli_run("explain", text)
    assert result.exit_code in (0, 1, 2), result.output
    try:
        theirs = eval(f"torch.zeros(3, 4){first}{second}", {"torch": torch})  # noqa: S307
    except Exception as exc:  # noqa: BLE001 - torch's error is what tidx must show
        assert result.exit_code in (1, 2), result.output
        if result.exit_code == 1:
            assert type(exc).__name__ in result.output
        return
    if result.exit_code == 0 and hasattr(theirs, "stride"):
        z = _bound(session.run(text), "z")["summary"]
        assert _tidx_meta(z) == _meta(theirs)


# -- setitem: the value made on the CPU, copied host to device (second slice) -----------
SETITEMS = ["t[1, 2] = 3", "t[1:] = 3", "t[0, 0] = 2.5", "t[1] = torch.ones(4)",
            "t[..., 0] = True", "t[2, ::2] = -1"]


@pytest.mark.parametrize("statement", SETITEMS)
def test_setitem_on_cuda_gives_torch_cpus_values_and_metadata(statement):
    torch = require_torch()
    doc = session.run(f"t = torch.zeros(3, 4, device='cuda'); {statement}")
    t = _bound(doc, "t")["summary"]
    theirs = torch.zeros(3, 4)
    exec(statement, {"torch": torch, "t": theirs})   # noqa: S102 - our own text
    assert _tidx_meta(t) == _meta(theirs) and t["values"] == theirs.tolist()
    assert t["device"] == "cuda"


def test_setitem_copies_the_cpu_value_host_to_device():
    doc = session.run("t = torch.zeros(3, 4, device='cuda'); t[1, 2] = 3")
    steps = _all_steps(doc)
    names = [ev["name"] for ev in steps]
    value = next(ev for ev in steps if ev["name"] == "valueToTensor")
    # the value is made on the CPU (at::Device(kCPU)), so lifted as a CPU value is
    assert value["note_id"] == "cuda.device.value_on_cpu" and "aten::lift_fresh" in names
    assert value["result"]["device"] == "cpu"
    # the selects are views of the CUDA tensor; the copy is copy_kernel_cuda's memcpy
    assert names.index("copy_kernel_cuda") < names.index("cudaMemcpyAsync") \
        < names.index("cudaStreamSynchronize")
    memcpy = next(ev for ev in steps if ev["name"] == "cudaMemcpyAsync")
    args = {k: V.plain(v) for k, v in memcpy["args"].items()}
    assert args["nbytes"] == 4 and args["kind"] == "cudaMemcpyHostToDevice" \
        and args["stream"] == 0
    assert "simulated" in memcpy["note"] and "4 bytes" in memcpy["note"]
    # the source is the CPU scalar tensor, the destination element 6 of the device block
    assert args["dst"] == A.hex_ptr(A.SIMULATED_DEVICE_HEAP + 6 * 4) == "0x7f0000000018"
    assert "fill_kernel" not in [n for n in names[names.index("copy_to"):]]


def test_the_tree_and_the_picture_show_the_host_to_device_write():
    result = cli_run("explain", "t = torch.zeros(3, 4, device='cuda'); t[1, 2] = 3")
    assert result.exit_code == 0, result.output
    out = _words(result.output)
    assert "copy_kernel_cuda" in out and "cudaMemcpyHostToDevice" in out
    assert "on cuda:0 (simulated)" in out
    assert "changed: offset 6: 0.0000 -> 3.0000" in out


def test_a_wider_destination_is_filled_from_the_cpu_scalar_without_a_copy():
    """copy_to: sizes differ and the value is a 0-dim CPU tensor -> fill_(Tensor), which
    (devices differ) reads it with item() and runs fill_kernel_cuda: no memcpy."""
    doc = session.run("t = torch.zeros(3, 4, device='cuda'); t[1:] = 3")
    steps = list(_steps(doc["statements"][1]["events"]))   # t[1:] = 3's steps only
    names = [ev["name"] for ev in steps]
    assert "cudaMemcpyAsync" not in names
    assert names.index("aten::item") < names.index("fill_kernel_cuda")
    fill = next(ev for ev in steps if ev["name"] == "fill_(Tensor)")
    assert fill["note_id"] == "cuda.device.fill_from_cpu"


# copies needing copy_kernel_cuda's temporaries (casts, strided or broadcast sides, GPU to
# GPU) are modelled now: tests/cuda/test_cuda_copy.py


# -- moving tensors between the devices: aten::to -> _to_copy -> empty_strided + copy_ --
MOVES = ["y = x.cuda()", "y = x.to('cuda')", "y = x.to(device='cuda')", "y = x.cuda('cuda:0')",
         "y = x.cuda().cpu()", "y = x.to('cuda').to('cpu')", "y = x[1:].cuda()",
         "y = x.view(3, 2).cuda()"]


@pytest.mark.parametrize("move", MOVES)
def test_moves_keep_torch_cpus_values_and_metadata(move):
    torch = require_torch()
    doc = session.run(f"x = torch.arange(6.0).view(2, 3); {move}")
    y = _bound(doc, "y")["summary"]
    theirs = eval(move.partition("= ")[2].replace(".cuda('cuda:0')", "").replace(  # noqa: S307
        ".cuda()", "").replace(".to(device='cuda')", "").replace(".to('cuda')", "")
        .replace(".cpu()", "").replace(".to('cpu')", "") + ".clone()",
        {"x": torch.arange(6.0).view(2, 3)})   # a new tensor, strides kept, as _to_copy
    assert _tidx_meta(y) == _meta(theirs) and y["values"] == theirs.tolist()
    assert y["device"] == ("cpu" if move.endswith(("cpu()", "'cpu')")) else "cuda")


def test_a_move_is_to_copy_with_one_memcpy_each_way():
    doc = session.run("x = torch.arange(6.0).view(2, 3); y = x.cuda(); z = y.cpu()")
    kinds = []
    for statement in doc["statements"][1:]:
        steps = list(_steps(statement["events"]))
        names = [ev["name"] for ev in steps]
        # the structure torch.profiler shows for t.to(dtype) on the CPU
        assert names.index("aten::to") < names.index("aten::_to_copy") \
            < names.index("aten::empty_strided") < names.index("aten::copy_")
        copy = next(ev for ev in steps if ev["name"] == "aten::copy_")
        assert "CUDA" in str(copy["args"].get("keys", copy.get("keys")))
        memcpy = [ev for ev in steps if ev["name"] == "cudaMemcpyAsync"]
        assert len(memcpy) == 1 and V.plain(memcpy[0]["args"]["nbytes"]) == 24
        kinds.append(V.plain(memcpy[0]["args"]["kind"]))
    assert kinds == ["cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost"]


@pytest.mark.parametrize("same", ["z = y.cuda()", "z = y.to('cuda')", "z = y.to('cuda:0')",
                                  "z = x.cpu()", "z = x.to('cpu')"])
def test_a_move_to_the_device_it_is_on_returns_self(same):
    doc = session.run(f"x = torch.arange(6.0); y = x.cuda(); {same}; "
                      f"same = z.data_ptr() == {same[4]}.data_ptr()")
    assert _bound(doc, "same")["repr"] == "True"
    assert "cudaMemcpyAsync" not in [ev["name"] for ev in _steps(doc["statements"][2]["events"])]


def test_cuda_to_another_device_is_torchs_error():
    torch = require_torch()
    with pytest.raises(RuntimeError) as theirs:
        torch.arange(3.0).cuda("cpu")
    result = cli_run("explain", "x = torch.arange(3.0); y = x.cuda('cpu')")
    assert result.exit_code == 1 and str(theirs.value) in result.output


# -- mixed devices: TensorIterator::compute_types' error, before any kernel ---------------
#: aten/src/ATen/TensorIterator.cpp (compute_types): "found at least two devices, ",
#: common_device (the first non-CPU operand's), " and ", the operand's device, "!"
SAME_DEVICE = "Expected all tensors to be on the same device, but found at least two " \
    "devices, cuda:0 and cpu!"


@pytest.mark.parametrize("mixed", ["y = x + z", "y = z + x", "y = x * z", "y = z - x",
                                   "y = x / z[0]", "y = x == z", "y = z.lt(x)", "z.add_(x)",
                                   "torch.ones(4).mul_(x[0])"])
def test_mixing_devices_is_torchs_tensoriterator_error(mixed):
    result = cli_run("explain", f"x = torch.zeros(3, 4, device='cuda'); z = torch.ones(3, 4); "
                     f"{mixed}")
    assert result.exit_code == 1, result.output
    assert f"RuntimeError: {SAME_DEVICE}" in _words(result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("allowed", ["y = x + torch.tensor(2.0)", "y = torch.tensor(2.0) * x",
                                     "y = x + 1", "x.add_(torch.tensor(1.0))",
                                     # checks torch makes first (shapes, output casting):
                                     # refused rather than guessed
                                     "y = x + torch.ones(5)", "y = x + z.long()",
                                     "z[0].add_(x)"])
def test_a_cpu_scalar_beside_cuda_is_allowed_then_the_op_is_refused(allowed):
    """A 0-dim CPU input is a CPU scalar the CUDA kernel reads (allow_cpu_scalars_): no
    device error; the operator itself is not modelled on the simulated device."""
    result = cli_run("explain", f"x = torch.zeros(3, 4, device='cuda'); z = torch.ones(3, 4); "
                     f"{allowed}")
    assert result.exit_code == 2, result.output
    assert "on the simulated CUDA device is not modelled yet" in result.output


def test_the_message_is_in_torchs_binary():
    """The text tidx shows is the one compiled into this torch 2.13 (its CPU library holds
    TensorIterator.cpp's message prefix)."""
    torch = require_torch()
    import pathlib
    lib = pathlib.Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    if not lib.exists():
        pytest.skip("no libtorch_cpu.so to read")
    assert SAME_DEVICE.rpartition("cuda:0")[0].encode() in lib.read_bytes()


# -- --verify --------------------------------------------------------------------------
def test_verify_compares_cuda_statements_on_the_cpu():
    """No GPU here: --verify runs the statement on torch's CPU and compares what does not
    depend on the device (tests/cuda/test_verify_cuda.py has the rest)."""
    require_torch()
    result = cli_run("explain", RANDN, "--verify")
    assert result.exit_code == 0, result.output
    text = _words(result.output)
    assert "compared on the CPU (no GPU here): shapes, strides, dtypes; not the values" in text
    assert "agree on every check" in text and "Traceback" not in result.output


def test_manual_seed_reseeds_the_cuda_generator_and_the_offset_moves_on():
    doc = session.run("torch.manual_seed(1); x = torch.randn(2, device='cuda'); "
                      "torch.manual_seed(1); y = torch.randn(2, device='cuda'); "
                      "z = torch.randn(2, device='cuda')")
    x, y, z = (_bound(doc, n)["summary"]["values"] for n in "xyz")
    assert x == y != z
    # z's kernel starts where y's left the Philox offset: 4 numbers per thread later
    expected = philox.CUDAGenerator(1)
    philox.normal_kernel(expected, 2)
    assert np.array_equal(np.array(z, dtype=np.float32), philox.normal_kernel(expected, 2))
    assert any(ev["name"] == "CUDAGeneratorImpl::set_current_seed" for ev in _all_steps(doc))


def test_the_allocation_summary_counts_the_caching_allocators_blocks():
    """torch.profiler sees the block the caching allocator hands out (block->size):
    48 bytes asked are one 512-byte block; a second small tensor is another block of
    the same 2 MiB segment (no cudaMalloc)."""
    from engine.interpreter import session

    doc = session.run("x = torch.randn(3, 4, device='cuda'); y = torch.zeros(2, device='cuda')",
                      seed=0)
    gpu = {"bytes": 512, "blocks": 1, "freed_bytes": 0, "freed_blocks": 0}
    # the CPU's bytes and the simulated GPU's apart (tracer/allocated.py)
    assert [st["allocated"] for st in doc["statements"]] == [
        {"bytes": 0, "blocks": 0, "cuda": gpu}, {"bytes": 0, "blocks": 0, "cuda": gpu}]
    assert doc["allocated"] == {"bytes": 0, "blocks": 0, "cuda": {
        "bytes": 1024, "blocks": 2, "freed_bytes": 0, "freed_blocks": 0}}


def test_the_grid_stride_kernel_is_the_step_that_writes_the_random_numbers():
    """normal_kernel launches; its threads write: the stepper marks the written cells at
    distribution_elementwise_grid_stride_kernel, not one step early."""
    from tracer.events import walk
    doc = session.run("x = torch.randn(3, 4, device='cuda')", seed=0)
    writers = [ev["name"] for _, ev in walk(doc["statements"][0]["events"])
               if "written" in ev["args"]]
    assert writers == ["distribution_elementwise_grid_stride_kernel"]
