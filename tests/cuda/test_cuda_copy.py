"""Copy.cu's whole copy path on the simulated CUDA device (engine/ops/cuda_copy.py).

torch here is a CPU build, so each statement is also run in torch with the CUDA side put
on the CPU (a move becomes ``.to('cpu', copy=True)``, which runs the same _to_copy with the
same layout rules): the values of every copy and cast, shapes, strides, dtypes, offsets
and errors must agree.  What only the GPU road has (the temporaries, the cudaMemcpyAsync
byte counts, the caching allocator's 512-byte blocks, the order of the steps) is checked
against Copy.cu's branches.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import cli_run, examples, require_torch
from engine.interpreter import session
from engine.rng import philox
from tracer import values as V

_DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "i64": "int64",
           "i32": "int32", "b8": "bool"}


def _bound(doc: dict, name: str) -> dict:
    for statement in reversed(doc["statements"]):
        if name in (statement.get("bindings") or {}):
            return statement["bindings"][name]["summary"]
    raise KeyError(name)


def _steps(events: list[dict]):
    for ev in events:
        yield ev
        yield from _steps(ev.get("children") or [])


def _last_steps(doc: dict) -> list[dict]:
    return list(_steps(doc["statements"][-1]["events"]))


def _arg(ev: dict, key: str):
    return V.plain(ev["args"][key])


def _on_cpu(statement: str) -> str:
    """The statement with its CUDA side on the CPU, for torch's CPU build."""
    for cuda, cpu in ((".cuda()", ".to('cpu', copy=True)"), (".cpu()", ".to('cpu', copy=True)"),
                      (".to('cuda')", ".to('cpu', copy=True)"),
                      (".to('cuda', ", ".to('cpu', copy=True, "),
                      (".to('cpu', dtype", ".to('cpu', copy=True, dtype"),
                      ("device='cuda'", "device='cpu'")):
        statement = statement.replace(cuda, cpu)
    return statement


def _torch_values(statement: str, name: str):
    torch = require_torch()
    scope = {"torch": torch}
    exec(_on_cpu(statement), scope)  # noqa: S102 - the tests' own statements
    return scope[name]


def _assert_like_torch(statement: str, name: str = "y") -> dict:
    doc = session.run(statement)
    assert not any(s.get("error") for s in doc["statements"]), doc["statements"][-1]["error"]
    mine, theirs = _bound(doc, name), _torch_values(statement, name)
    assert (mine["shape"], mine["strides"], f"torch.{_DTYPES[mine['dtype']]}",
            mine["offset"]) == (list(theirs.shape), list(theirs.stride()), str(theirs.dtype),
                                theirs.storage_offset()), statement
    assert mine["values"] == theirs.tolist(), statement
    return doc


# -- every road of copy_kernel_cuda gives CPU torch's values and metadata --------------------
STATEMENTS = [
    # GPU to GPU: a cast (direct_copy_kernel_cuda, float16_copy_kernel_cuda), a memcpy
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.double()",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.to(torch.float64)",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.half()",
    "x = torch.full((2, 3), -2.5, device='cuda'); y = x.long()",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.clone()",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.t().clone()",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x[:, ::2].clone()",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.t().contiguous()",
    "x = torch.full((2, 3), 0.1, device='cuda', dtype=torch.float64); y = x.float()",
    # CPU to GPU through temporaries: a cast, a strided source, a strided destination
    "y = torch.arange(6.).view(2, 3).to('cuda', dtype=torch.float16)",
    "y = torch.arange(6).view(2, 3).to('cuda', dtype=torch.float32)",
    "t = torch.arange(12.).view(3, 4); y = t[:, ::2].cuda()",
    "t = torch.arange(12.).view(3, 4); y = t.t()[::2].cuda()",
    "y = torch.zeros(2, 3, device='cuda'); y[:, 1] = torch.arange(2.)",
    "y = torch.zeros(2, 3, device='cuda'); y[:, 1] = torch.arange(2)",
    "y = torch.zeros(2, 3, device='cuda'); y[0] = torch.arange(3.)",
    "y = torch.zeros(2, 3, device='cuda'); y[:] = torch.arange(3.)",
    "y = torch.zeros(2, 3, device='cuda'); y[1] = torch.arange(3, dtype=torch.float64)",
    # GPU to CPU through temporaries
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.to('cpu', dtype=torch.float64)",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x[:, ::2].cpu()",
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.t()[::2].cpu()",
    "x = torch.full((3,), 2.5, device='cuda'); y = torch.zeros(2, 3); y[:] = x",
    "x = torch.full((2,), 2.5, device='cuda'); y = torch.zeros(2, 3); y[:, 1] = x",
    # no temporaries: the iterator is contiguous after reordering the dims
    "x = torch.full((2, 3), 1.7, device='cuda'); y = x.t().cpu()",
    "t = torch.arange(6.).view(2, 3); y = t.t().cuda()",
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_copies_give_cpu_torchs_values_and_metadata(statement):
    _assert_like_torch(statement)


# -- the steps of each road, in order, with their bytes ---------------------------------
def test_a_transposed_move_needs_no_temporaries():
    """_to_copy keeps a dense input's strides, so dst and src step through memory alike:
    the iterator coalesces to one contiguous dim and one cudaMemcpyAsync moves it."""
    doc = session.run("x = torch.zeros(2, 3, device='cuda'); y = x.t().cpu()")
    names = [ev["name"] for ev in _last_steps(doc)]
    assert "copy_requires_temporaries" not in names and "temporaries" not in names
    memcpy = [ev for ev in _last_steps(doc) if ev["name"] == "cudaMemcpyAsync"]
    assert [(_arg(m, "nbytes"), _arg(m, "kind")) for m in memcpy] == [
        (24, "cudaMemcpyDeviceToHost")]


def test_host_to_device_with_a_strided_source_converts_on_the_cpu():
    """Blocking: conversion_device is the CPU, the source's side: src.to(dst.dtype)
    .expand_as(dst).contiguous() is a CPU clone (the CPU allocator), then one
    cudaMemcpyAsync of the contiguous bytes into dst (contiguous: no copy back)."""
    doc = session.run("t = torch.arange(12.).view(3, 4); y = t[:, ::2].cuda()")
    steps = _last_steps(doc)
    names = [ev["name"] for ev in steps]
    order = ["copy_requires_temporaries", "aten::to", "aten::expand_as", "aten::contiguous",
             "DefaultCPUAllocator::allocate", "copy_kernel", "cudaMemcpyAsync",
             "cudaStreamSynchronize"]
    # the destination y came first, from the caching allocator
    assert names.index("CUDACachingAllocator::allocate") < names.index(order[0])
    positions = [names.index(n, names.index(order[0])) for n in order]
    assert positions == sorted(positions), names
    cpu = next(ev for ev in steps if ev["name"] == "DefaultCPUAllocator::allocate")
    assert _arg(cpu, "nbytes") == 24
    memcpy = [ev for ev in steps if ev["name"] == "cudaMemcpyAsync"]
    assert [(_arg(m, "nbytes"), _arg(m, "kind")) for m in memcpy] == [
        (24, "cudaMemcpyHostToDevice")]
    assert "copy back into dst" not in names
    # the CPU's staging temporary and the GPU's block, in the footer's two parts
    assert doc["statements"][-1]["allocated"] == {
        "bytes": 24, "blocks": 1,
        "cuda": {"bytes": 512, "blocks": 1, "freed_bytes": 0, "freed_blocks": 0}}


def test_host_to_device_into_a_strided_destination_copies_back_on_the_gpu():
    """dst (a column) is not contiguous: a contiguous empty_like(dst) on the GPU (8 bytes
    asked, a 512-byte block) takes the cudaMemcpyAsync, then copy_ back into dst runs on
    the GPU: same device, no temporaries, the elementwise kernel (strided)."""
    doc = session.run("y = torch.zeros(2, 3, device='cuda'); y[:, 1] = torch.arange(2.)")
    steps = _last_steps(doc)
    names = [ev["name"] for ev in steps]
    assert names.index("aten::empty_like") < names.index("cudaMemcpyAsync") \
        < names.index("copy back into dst") < names.index("direct_copy_kernel_cuda")
    rounded = [V.plain(ev["result"]) for ev in steps if ev["name"] == "round_size"]
    assert rounded == [512]
    requires = [V.plain(ev["result"]) for ev in steps
                if ev["name"] == "copy_requires_temporaries"]
    assert requires == [True, False]
    memcpy = next(ev for ev in steps if ev["name"] == "cudaMemcpyAsync")
    assert (_arg(memcpy, "nbytes"), _arg(memcpy, "kind")) == (8, "cudaMemcpyHostToDevice")
    # the GPU temporary dies with the statement: its block goes back to the cache
    assert doc["statements"][-1]["allocated"] == {
        "bytes": 8, "blocks": 1,
        "cuda": {"bytes": 512, "blocks": 1, "freed_bytes": 512, "freed_blocks": 1}}


def test_device_to_host_with_a_cast_copies_then_casts_on_the_cpu():
    """The source is on CUDA, conversion on the CPU: dst_contig = empty_like(dst,
    float32) on the CPU, the cudaMemcpyAsync of float32 bytes, the CPU cast into dst."""
    doc = session.run("x = torch.ones(2, 3, device='cuda'); "
                      "y = x.to('cpu', dtype=torch.float64)")
    steps = _last_steps(doc)
    names = [ev["name"] for ev in steps]
    cpu = [_arg(ev, "nbytes") for ev in steps if ev["name"] == "DefaultCPUAllocator::allocate"]
    assert cpu == [48, 24]        # y (float64), then the float32 temporary
    memcpy = next(ev for ev in steps if ev["name"] == "cudaMemcpyAsync")
    assert (_arg(memcpy, "nbytes"), _arg(memcpy, "kind")) == (24, "cudaMemcpyDeviceToHost")
    assert names.index("cudaMemcpyAsync") < names.index("copy back into dst") \
        < names.index("copy_kernel")
    cast = next(ev for ev in steps if ev["name"] == "copy_kernel")
    assert cast["note_id"] == "copy.cast"


def test_gpu_to_gpu_same_dtype_is_one_device_to_device_memcpy_without_a_sync():
    doc = session.run("x = torch.zeros(2, 3, device='cuda'); y = x.clone()")
    steps = _last_steps(doc)
    names = [ev["name"] for ev in steps]
    memcpy = [ev for ev in steps if ev["name"] == "cudaMemcpyAsync"]
    assert [(_arg(m, "nbytes"), _arg(m, "kind")) for m in memcpy] == [
        (24, "cudaMemcpyDeviceToDevice")]
    assert memcpy[0]["note_id"] == "cudacopy.memcpy_d2d"
    assert "cudaStreamSynchronize" not in names
    assert doc["statements"][-1]["allocated"] == {
        "bytes": 0, "blocks": 0,
        "cuda": {"bytes": 512, "blocks": 1, "freed_bytes": 0, "freed_blocks": 0}}


@pytest.mark.parametrize(("method", "kernel", "nbytes"), [
    ("double()", "direct_copy_kernel_cuda", 48), ("half()", "float16_copy_kernel_cuda", 12),
    ("long()", "direct_copy_kernel_cuda", 48), ("t().clone()", "cudaMemcpyAsync", 24),
    ("t().contiguous()", "direct_copy_kernel_cuda", 24)])
def test_gpu_to_gpu_casts_and_relayouts_run_the_elementwise_kernel(method, kernel, nbytes):
    doc = session.run(f"x = torch.zeros(2, 3, device='cuda'); y = x.{method}")
    steps = _last_steps(doc)
    names = [ev["name"] for ev in steps]
    # aten::to / clone -> empty_strided or empty on CUDA -> copy_ -> the kernel
    assert kernel in names and "cudaStreamSynchronize" not in names
    asked = [_arg(ev, "nbytes") for ev in steps if ev["name"] == "CUDACachingAllocator::allocate"]
    assert asked == [nbytes]
    assert [V.plain(ev["result"]) for ev in steps if ev["name"] == "round_size"] == [512]


def test_every_cuda_step_is_labelled_simulated():
    doc = session.run("x = torch.zeros(2, 3, device='cuda'); a = x.double(); b = x.clone(); "
                      "c = x[:, ::2].cpu(); d = torch.ones(2, 3).to('cuda', dtype=torch.float16)"
                      "; e = x.half(); x[:, 1] = torch.arange(2.)")
    cuda_steps = {"copy_kernel_cuda", "cudaMemcpyAsync", "cudaStreamSynchronize",
                  "direct_copy_kernel_cuda", "float16_copy_kernel_cuda", "temporaries",
                  "copy back into dst"}
    seen = set()
    for statement in doc["statements"]:
        for ev in _steps(statement["events"]):
            if ev["name"] in cuda_steps:
                seen.add(ev["name"])
                assert V.plain(ev["args"].get("simulated", {"kind": "bool", "value": False})) \
                    is True, ev["name"]
    assert seen == cuda_steps


# -- errors: torch's, the same as on the CPU -------------------------------------------
@pytest.mark.parametrize("bad", ["y = x.to(dtype=5)", "y = x.double(1)",
                                 "y = x.to(torch.float64, torch.int32)"])
def test_a_bad_argument_is_torchs_error(bad):
    torch = require_torch()
    with pytest.raises(Exception) as theirs:
        exec(bad, {"torch": torch, "x": torch.zeros(2, 3)})  # noqa: S102
    doc = session.run(f"x = torch.zeros(2, 3, device='cuda'); {bad}")
    error = doc["statements"][-1]["error"]
    assert (error["type"], error["message"]) == (type(theirs.value).__name__,
                                                  str(theirs.value))


def test_the_cli_shows_the_copy_path_in_one_piece():
    result = cli_run("explain", "x = torch.zeros(2, 3, device='cuda'); y = x[:, ::2].cpu()",
                     "--full")
    assert result.exit_code == 0, result.output
    words = " ".join(re.sub("[│├└─]", " ", result.output).split())
    assert "copy_kernel_cuda (simulated)" in words and "Traceback" not in result.output
    assert "cudaMemcpyAsync (simulated): 16 bytes, cudaMemcpyDeviceToHost" in words


# -- round trips over shapes, dtypes and strided bases ----------------------------------
_VIEWS = ["", ".t()", "[::2]", ".t()[1:]", "[:, ::2]"]
_CASTS = ["float32", "float64", "float16", "int64", "int32"]


@st.composite
def _round_trips(draw):
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    view = draw(st.sampled_from(_VIEWS))
    dtype = draw(st.sampled_from(_CASTS))
    move = draw(st.sampled_from([
        "y = b.cuda()", "y = b.cuda().cpu()", f"y = b.to('cuda', dtype=torch.{dtype})",
        f"y = b.cuda().to(torch.{dtype})", f"y = b.cuda().to(torch.{dtype}).cpu()",
        f"y = b.cuda().to('cpu', dtype=torch.{dtype})", "y = b.cuda().clone().cpu()",
        "y = b.cuda().t().cpu()", "y = b.cuda()[..., ::2].cpu()"]))
    return (f"t = (torch.arange({rows * cols}.) * 1.37 - 3).view({rows}, {cols}); "
            f"b = t{view}; {move}")


@given(_round_trips())
@settings(max_examples=examples(40), deadline=None)
def test_round_trips_match_cpu_torch(statement):
    require_torch()
    _assert_like_torch(statement)


# -- the random kernels in float64 and float16 (DistributionTemplates.h) ---------------------
def _values(statement: str, name: str = "x", seed: int = 0) -> np.ndarray:
    """The tensor's elements as the engine holds them (the trace's summary keeps only a
    large tensor's first values)."""
    from engine.interpreter.evaluator import Evaluator
    from engine.interpreter.statements import parse
    from tracer import record

    ev = Evaluator()
    for stmt in parse(f"torch.manual_seed({seed}); {statement}"):
        with record():
            ev.run(stmt)
    return ev.names[name]._impl.array().copy()


def test_rand_float64_is_curand_uniform2_double_of_each_threads_block():
    """numel 3: threads 0..2 each draw one Philox block at offset 0; element i is
    _curand_uniform_double_hq(x, y) of thread i's block, derived here from the block
    function without the kernel's code path."""
    x = _values("x = torch.rand(3, device='cuda', dtype=torch.float64)", seed=7)
    words = philox.philox4x32_10(philox.counters(np.arange(3, dtype=np.uint64), 0, 0),
                                 (np.uint32(7), np.uint32(0)))
    expected = []
    for w in words.tolist():
        z = w[0] ^ (w[1] << 21)
        expected.append(float(Fraction(2 * z + 1, 2**54)))   # z * 2^-53 + 2^-54, rounded
    assert x.tolist() == expected


def test_rand_float16_is_float32s_draw_rounded_to_half():
    """accscalar_t of Half is float: the same curand_uniform4 numbers as float32, and
    rand * 1 + 0 then rounded to half (numpy's float16 cast rounds to nearest even, as
    c10::Half's); a number that rounds up to 1 in half is ``to`` and becomes ``from``."""
    for n in (5, 300, 5000):
        half = _values(f"x = torch.rand({n}, device='cuda', dtype=torch.float16)")
        single = _values(f"x = torch.rand({n}, device='cuda')")
        expected = single.astype(np.float16)
        expected[expected == 1] = 0
        assert half.tolist() == expected.tolist()
        assert np.all((half >= 0) & (half < 1))


def test_uniform_float16_bounds_are_halves_and_to_becomes_from():
    x = _values("x = torch.empty(2000, device='cuda', dtype=torch.float16).uniform_(-1, 3)")
    assert np.all((x >= -1) & (x < 3))


@pytest.mark.parametrize(("dtype", "unroll"), [("float32", 4), ("float16", 4),
                                               ("float64", 2)])
def test_the_philox_offset_advances_by_the_dtypes_increment(dtype, unroll):
    """calc_execution_policy with unroll_factor sizeof(float4 or double2) / sizeof
    (accscalar_t): past 864 x 256 threads x 2, a double kernel needs two rounds (offset
    increment 8) where a float one needs one (4)."""
    numel = 864 * 256 * 2 + 1
    gen = philox.CUDAGenerator(0)
    philox.uniform_kernel(gen, numel, dtype=dtype)
    expected = philox.calc_execution_policy(numel, unroll)[0]
    assert gen.philox_offset_per_thread == expected == (8 if unroll == 2 else 4)


def test_randn_float64_is_standard_normal_and_says_simulated():
    statement = "x = torch.randn(4096, device='cuda', dtype=torch.float64)"
    doc = session.run(statement, seed=0)
    x = _values(statement)
    assert abs(x.mean()) < 0.06 and abs(x.std() - 1) < 0.06
    steps = {ev["name"]: ev for ev in _last_steps(doc)}
    assert steps["normal_kernel"]["note_id"] == "cudacopy.normal_kernel.float64"
    kernel = steps["distribution_elementwise_grid_stride_kernel"]
    assert kernel["note_id"] == "cudacopy.philox.normal2_double"
    assert _arg(kernel, "unroll_factor") == 2 and _arg(kernel, "simulated") is True


@pytest.mark.parametrize("factory", [
    "x = torch.randn(3, 4, device='cuda', dtype=torch.float64)",
    "x = torch.rand(2, 3, device='cuda', dtype=torch.float16)",
    "x = torch.empty(3, 2, device='cuda', dtype=torch.float64).normal_(2, 0.5)"])
def test_random_factories_in_other_dtypes_have_cpu_torchs_metadata(factory):
    torch = require_torch()
    doc = session.run(factory, seed=0)
    mine = _bound(doc, "x")
    scope = {"torch": torch}
    exec(_on_cpu(factory), scope)  # noqa: S102
    theirs = scope["x"]
    assert (mine["shape"], mine["strides"], f"torch.{_DTYPES[mine['dtype']]}") == (
        list(theirs.shape), list(theirs.stride()), str(theirs.dtype))


def test_normal_of_an_integer_dtype_is_the_cuda_kernels_error():
    """CPU torch names its kernel normal_kernel_cpu; the CUDA dispatch is
    normal_kernel_cuda (DistributionTemplates.h), same class and wording otherwise."""
    torch = require_torch()
    with pytest.raises(NotImplementedError) as theirs:
        torch.randn(3, dtype=torch.int64)
    doc = session.run("x = torch.randn(3, device='cuda', dtype=torch.int64)")
    error = doc["statements"][-1]["error"]
    assert error["type"] == "NotImplementedError"
    assert error["message"] == str(theirs.value).replace("_cpu", "_cuda")


# -- copy_impl's early exit ----------------------------------------------------------------
@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_a_view_of_the_same_data_is_copy_impls_early_exit(device):
    """is_same_data: one storage, same offset, strides, sizes, dtype: copy_impl returns
    before building the TensorIterator, so no kernel runs.  The early exit is read from
    Copy.cpp (torch's profiler lists aten::copy_ alone either way); what torch can confirm
    is that the operator is that one call and the values stay."""
    torch = require_torch()
    from torch.profiler import profile

    x = torch.arange(6.).view(2, 3)
    y = x.view(2, 3)
    with profile() as prof:
        x.copy_(y)
    assert [e.name for e in prof.events()] == ["aten::copy_"]
    assert x.tolist() == torch.arange(6.).view(2, 3).tolist()
    doc = session.run(f"x = torch.zeros(2, 3, device='{device}'); x.copy_(x.view(2, 3))")
    names = [ev["name"] for ev in _last_steps(doc)]
    assert "is_same_data" in names and "TensorIterator" not in names
    assert not any("kernel" in n and n != "is_same_data" for n in names[names.index(
        "is_same_data"):])


def test_a_non_blocking_cast_converts_on_the_gpu():
    """non_blocking=True: conversion_device is CUDA, so the float64 source crosses as it is
    (an empty_like(dst, float64) on the GPU: 48 bytes in a 512-byte block), without
    cudaStreamSynchronize, and the GPU's kernel casts it into dst; the values are CPU
    torch's cast."""
    statement = ("y = torch.zeros(2, 3, device='cuda'); "
                 "y.copy_(torch.full((2, 3), 0.1, dtype=torch.float64), non_blocking=True)")
    assert _values(statement, "y").tolist() == _torch_values(statement, "y").tolist()
    doc = session.run(statement)
    steps = _last_steps(doc)
    names = [ev["name"] for ev in steps]
    plan = next(ev for ev in steps if ev["name"] == "temporaries")
    assert _arg(plan, "conversion_device") == "cuda"
    asked = [_arg(ev, "nbytes") for ev in steps if ev["name"] == "CUDACachingAllocator::allocate"]
    assert asked == [48]
    memcpy = next(ev for ev in steps if ev["name"] == "cudaMemcpyAsync")
    assert (_arg(memcpy, "nbytes"), _arg(memcpy, "kind")) == (48, "cudaMemcpyHostToDevice")
    assert "cudaStreamSynchronize" not in names
    assert names.index("cudaMemcpyAsync") < names.index("direct_copy_kernel_cuda")


@given(st.integers(1, 70000), st.integers(0, 2**32 - 1))
@settings(max_examples=examples(10), deadline=None)
def test_half_rand_is_float_rand_rounded_for_any_size_and_seed(numel, seed):
    """Over sizes that span one to several grid-stride rounds: float16's kernel draws what
    float32's draws (same grid, same offset increment) and rounds it."""
    half = philox.uniform_kernel(philox.CUDAGenerator(seed), numel, dtype="float16")
    single = philox.uniform_kernel(philox.CUDAGenerator(seed), numel, dtype="float32")
    expected = single.astype(np.float16)
    expected[expected == 1] = 0
    assert half.dtype == np.float16 and np.array_equal(half, expected)


# -- advanced indexing's copies (engine/ops/cuda_indexing.py) run through Copy.cu's path --
INDEX_DEFAULTS = "rows = torch.tensor([0, 2]); cols = torch.tensor([1, 1]); "


@pytest.mark.parametrize(("index", "steps"), [
    # make_info moves the int32 index as it is, then converts it to int64 on the GPU
    ("rows.int(), cols", ["cudaMemcpyAsync", "cudaMemcpyAsync", "direct_copy_kernel_cuda"]),
    # expand_outplace's broadcast index is not dense: to('cuda') goes through a contiguous
    # CPU temporary, one for each index
    ("rows[:, None], cols", ["temporaries", "cudaMemcpyAsync", "temporaries",
                             "cudaMemcpyAsync"])])
def test_index_tensors_moved_to_the_gpu_take_copy_cus_roads(index, steps):
    statement = (INDEX_DEFAULTS + "t = (torch.arange(12.) * 1.5).view(3, 4).cuda(); "
                 f"y = t[{index}]")
    _assert_like_torch(statement)
    doc = session.run(statement)
    names = [ev["name"] for ev in _last_steps(doc)
             if ev["name"] in ("cudaMemcpyAsync", "direct_copy_kernel_cuda", "temporaries")]
    assert names == steps
