"""The simulated CUDA runtime (issue 16): a CUDA tensor's death gives its block back to the
caching allocator, and the torch.cuda namespace reads the allocator's statistics.

torch here is a CPU build: ``torch.cuda.is_available()`` is False in it, and that is what
the note beside tidx's True must say.  The allocator's numbers cannot be compared with a
GPU; they are worked out by hand below from c10/cuda/CUDACachingAllocator.cpp's rules
(round_size to a multiple of 512; sizes up to 1 MiB share 2 MiB segments, 1 to 10 MiB
take a 20 MiB segment; memory_allocated counts rounded blocks, memory_reserved counts
segments; emptyCache frees only segments that are one whole free block).
"""

from __future__ import annotations

from conftest import cli_run, require_torch
from engine.interpreter import session
from engine.memory.cuda_caching_allocator import SIMULATED_DEVICE_HEAP

MIB = 1 << 20


def _steps(events: list[dict]):
    for ev in events:
        yield ev
        yield from _steps(ev.get("children") or [])


def _results(doc: dict) -> list:
    """Each expression statement's value, as Python would print it."""
    return [st["result"]["repr"] for st in doc["statements"] if st.get("result")]


def _deaths(statement: dict) -> list[dict]:
    return [ev for ev in statement["events"] if ev["name"] == "last reference dropped"]


ZEROS = "x = torch.zeros(3, device='cuda')"


def test_a_rebound_tensors_block_is_reused_at_the_same_address():
    doc = session.run("; ".join([ZEROS, "a = x.data_ptr()", ZEROS, "b = x.data_ptr()", ZEROS,
                                 "x.data_ptr()"]))
    first = SIMULATED_DEVICE_HEAP
    # the second zeros runs while the first x is still alive (CPython rebinds x only
    # after the call returns): it takes the next 512-byte block; the third gets the
    # first block back from the cache
    assert _results(doc) == [str(first)]
    binds = [st["bindings"] for st in doc["statements"] if "a" in st["bindings"]
             or "b" in st["bindings"]]
    assert [list(b.values())[0]["repr"] for b in binds] == [str(first), str(first + 512)]
    third = doc["statements"][4]
    malloc = [ev for ev in _steps(third["events"]) if ev["name"] == "get_free_block"]
    assert malloc[0]["note_id"] == "cuda.get_free_block.found"
    assert not any(ev["name"] == "cudaMalloc" for ev in _steps(third["events"]))


def test_the_death_is_one_step_after_the_statements_other_steps_and_says_why():
    doc = session.run(f"{ZEROS}; {ZEROS}")
    second = doc["statements"][1]
    assert second["events"][-1]["name"] == "last reference dropped"
    (death,) = _deaths(second)
    assert death["note_id"] == "cudart.died.rebound"
    assert death["note_args"]["names"] == "x"
    assert "x was rebound" in death["note"]
    chain = [ev["name"] for ev in _steps(death["children"])]
    assert chain[:6] == ["~TensorImpl", "~StorageImpl", "local_raw_delete",
                         "NativeCachingAllocator::free", "get_allocated_block",
                         "DeviceCachingAllocator::free"]
    assert "free_block" in chain
    assert all(ev["args"].get("simulated") for ev in _steps([death]) if ev["name"] in
               ("~TensorImpl", "~StorageImpl", "local_raw_delete"))
    # the first statement frees nothing: its x is alive
    assert _deaths(doc["statements"][0]) == []


def test_temporaries_and_shown_results_die_after_their_statement():
    doc = session.run("y = torch.zeros(2, device='cuda').cpu(); torch.zeros(2, device='cuda')")
    (temp,) = _deaths(doc["statements"][0])
    assert temp["note_id"] == "cudart.died.temporary"
    (shown,) = _deaths(doc["statements"][1])
    assert shown["note_id"] == "cudart.died.result"


def test_a_tensor_kept_in_a_list_or_by_a_view_stays_alive():
    doc = session.run(f"{ZEROS}; keep = [x]; {ZEROS}; v = x[1:]; x = None")
    assert all(_deaths(st) == [] for st in doc["statements"])


def test_memory_allocated_and_reserved_follow_the_allocators_rules():
    doc = session.run("; ".join([
        "a = torch.zeros(100, device='cuda')",      # 400 bytes -> a 512-byte block
        "b = torch.zeros(1000, device='cuda')",     # 4000 bytes -> 4096
        "c = torch.zeros(300000, device='cuda')",   # 1200000 bytes -> 1200128, large pool
        "torch.cuda.memory_allocated()", "torch.cuda.memory_reserved()",
        "b = None",
        "torch.cuda.memory_allocated()", "torch.cuda.memory_reserved()",
        "torch.cuda.empty_cache()", "torch.cuda.memory_reserved()",
        "c = None", "torch.cuda.empty_cache()",
        "torch.cuda.memory_allocated()", "torch.cuda.memory_reserved()",
        "torch.cuda.max_memory_allocated()", "torch.cuda.max_memory_reserved()"]))
    a, b, c = 512, 4096, 1200128
    small_segment, large_segment = 2 * MIB, 20 * MIB
    assert _results(doc) == [str(n) for n in (
        a + b + c, small_segment + large_segment,
        a + c, small_segment + large_segment,
        # every segment holds a live block: empty_cache frees nothing
        small_segment + large_segment,
        # c's block merges back into its whole segment, which empty_cache frees; a's
        # segment stays
        a, small_segment,
        a + b + c, small_segment + large_segment)]
    frees = [ev for ev in _steps(doc["statements"][11]["events"]) if ev["name"] == "cudaFree"]
    assert len(frees) == 1


def test_is_available_is_true_for_the_simulation_and_the_note_says_a_cpu_build_says_false():
    torch = require_torch()
    assert torch.cuda.is_available() is False            # the oracle is a CPU build
    doc = session.run("torch.cuda.is_available()")
    assert _results(doc) == ["True"]
    (entry,) = doc["statements"][0]["events"]
    assert entry["note_id"] == "cudart.is_available"
    assert "simulated" in entry["note"] and "False" in entry["note"]
    assert entry["args"]["simulated"]


def test_the_runtimes_small_answers():
    doc = session.run("torch.cuda.device_count(); torch.cuda.current_device(); "
                      "torch.cuda.get_device_name(); torch.cuda.synchronize(); "
                      "torch.cuda.manual_seed(7); torch.cuda.initial_seed(); "
                      "torch.cuda.manual_seed_all(9); torch.cuda.initial_seed()")
    assert _results(doc) == ["1", "0", "'tidx simulated GPU'", "7", "9"]


def test_the_cuda_generators_seed_gives_the_same_numbers():
    seeded = session.run("torch.cuda.manual_seed(5); x = torch.randn(4, device='cuda')")
    again = session.run("torch.cuda.manual_seed(5); x = torch.randn(4, device='cuda')")
    assert seeded["statements"][1]["bindings"]["x"]["repr"] == \
        again["statements"][1]["bindings"]["x"]["repr"]


def test_unknown_torch_cuda_names_are_refused_in_one_line():
    result = cli_run("explain", "torch.cuda.mem_get_info()")
    assert result.exit_code == 2
    assert "torch.cuda.mem_get_info is not available in tidx" in result.output
    assert "Traceback" not in result.output


# -- torch.device, device indices, get_device ------------------------------------------------
DEVICE_CALLS = ["'cuda'", "'cuda:0'", "'cuda', 0", "'cpu'", "'cpu', 0", "'cuda:1'", "'cuda', None",
                "'cuda:x'", "'gpu'", "'cuda:0', 1", "'cuda', -1", "'cuda:-1'", "'gpu', 0",
                "'cuda:0', -1", "type='cuda', index=0"]


def _torch_answer(torch, call: str) -> str:
    try:
        return repr(eval(f"torch.device({call})", {"torch": torch}))   # test's own text
    except RuntimeError as exc:
        return f"RuntimeError: {exc}"


def _tidx_answer(call: str) -> str:
    doc = session.run(f"torch.device({call})")
    st = doc["statements"][0]
    if st["error"]:
        return f"{st['error']['type']}: {st['error']['message']}"
    return st["result"]["repr"]


def test_torch_device_values_and_errors_are_torchs():
    torch = require_torch()
    for call in DEVICE_CALLS:
        assert _tidx_answer(call) == _torch_answer(torch, call), call


def test_a_bare_index_is_the_simulated_accelerator():
    """torch.device(0) is the current accelerator's device: cuda:0 on the simulated
    machine; the CPU build has none (what the note and the comment say)."""
    torch = require_torch()
    assert _torch_answer(torch, "0") == ("RuntimeError: Cannot access accelerator device "
                                         "when none is available.")
    assert _tidx_answer("0") == "device(type='cuda', index=0)"
    assert _tidx_answer("-1") == "RuntimeError: Device index must not be negative"
    assert _torch_answer(torch, "-1") == "RuntimeError: Device index must not be negative"


def test_devices_given_every_way_put_the_tensor_on_cuda_0():
    doc = session.run("x = torch.zeros(2); a = x.cuda(0); b = x.cuda('cuda:0'); "
                      "c = x.cuda(device=0); d = x.to(0); e = torch.zeros(2, device=0); "
                      "f = x.to(torch.device('cuda')); g = f.to(torch.device('cpu')); "
                      "[t.device for t in (a, b, c, d, e, f, g)]; "
                      "[t.get_device() for t in (a, g)]; [a.is_cuda, g.is_cuda]")
    assert _results(doc) == ["[" + ", ".join(["device(type='cuda', index=0)"] * 6
                                             + ["device(type='cpu')"]) + "]",
                             "[0, -1]", "[True, False]"]


def test_cpu_tensors_get_device_and_is_cuda_are_torchs():
    torch = require_torch()
    x = torch.zeros(2)
    doc = session.run("x = torch.zeros(2); x.get_device(); x.is_cuda; x.device")
    assert _results(doc) == [repr(x.get_device()), repr(x.is_cuda), repr(x.device)]


def test_a_second_gpu_is_refused_in_one_line():
    for statement in ("x.cuda(1)", "x.to(1)", "torch.zeros(2, device=1)", "x.to('cuda:1')"):
        result = cli_run("explain", f"x = torch.zeros(2); {statement}")
        assert result.exit_code == 2, statement
        assert "invalid device ordinal" in result.output and "Traceback" not in result.output


def test_the_footer_shows_the_cpu_and_the_gpu_apart_and_what_went_back_to_the_cache():
    from tracer import allocated
    from tracer.document import Allocated

    doc = session.run("y = torch.ones(2); " + "; ".join([ZEROS] * 3))
    # 8 CPU bytes (two floats); three 512-byte blocks handed out, two freed (the first
    # and the second x, each rebound)
    assert doc["allocated"] == {"bytes": 8, "blocks": 1, "cuda": {
        "bytes": 1536, "blocks": 3, "freed_bytes": 1024, "freed_blocks": 2}}
    assert allocated.line(Allocated.from_json(doc["allocated"], "allocated")) == (
        "allocated: 8 bytes in 1 block on the CPU; 1536 bytes in 3 blocks on cuda:0 "
        "(simulated); 1024 bytes in 2 blocks freed back to the cache")
    assert session.run("y = torch.ones(2)")["allocated"] == {"bytes": 8, "blocks": 1}


def test_the_lecture_view_says_which_tensor_died_and_why():
    result = cli_run("explain", f"{ZEROS}; {ZEROS}")
    assert result.exit_code == 0
    line = next(ln for ln in result.output.splitlines() if "last reference dropped" in ln)
    assert "reason=rebound  tensor=x  storage=s$0" in line
