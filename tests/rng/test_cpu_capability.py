"""ATen's CPU capability (issue #23): chosen as torch chooses it, shown, and bit-exact under
every capability this machine can run.

torch is the oracle, in worker processes started with ``ATEN_CPU_CAPABILITY`` set
(tests/torch_worker.py): torch reads it once per process.  tidx runs the same cases in
process, in a run whose RunContext carries that capability.  On an AVX512 machine the
three capabilities are checked; on an AVX2 one, DEFAULT and AVX2 (and AVX512, which that
CPU cannot run, is checked by tidx's own rule that it falls back to AVX2 for every stub
torch 2.13 ships no AVX512 build of, which the wheel itself is read for).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import capability_cases as cases
import engine
from conftest import UNDER_CI, cli_run, examples, require_torch
from engine.core import capability as C
from engine.core.context import RunContext, activate
from engine.core.dispatch_stub import STUBS
from engine.core.errors import Refused
from engine.interpreter import session
from torch_worker import capability_workers, runnable, under_capability

MACHINE = C.machine()
#: The capabilities this machine runs (torch runs each in its own worker), and None: no
#: ATEN_CPU_CAPABILITY at all, the machine's own choice
RUNNABLE = runnable()
CHOICES = RUNNABLE + [None]

X86 = pytest.mark.skipif(not MACHINE.x86, reason="torch's x86 builds need an x86-64 CPU")


@pytest.fixture(scope="module")
def workers():
    yield from capability_workers(CHOICES)


def _tidx(case: tuple, capability: str | None):
    return under_capability(capability, cases.run, engine, case)


# -- the choice --------------------------------------------------------------------------
@X86
def test_the_workers_run_the_capability_asked_for(workers):
    for cap, worker in workers.items():
        want = MACHINE.best() if cap is None else C.ENV_VALUES[cap]
        assert worker.capability == want


@X86
def test_tidx_chooses_what_torch_reports_here():
    torch = require_torch()
    env = {k: v for k, v in os.environ.items() if k != C.ENV}
    if C.ENV not in os.environ:
        assert C.choose(None, env, MACHINE).name == torch.backends.cpu.get_cpu_capability()
    assert MACHINE.best() in ("AVX2", "AVX512"), "CI machines have AVX2 at least"


_PROBE = ("import torch, warnings\n"
          "with warnings.catch_warnings(record=True) as w:\n"
          "    warnings.simplefilter('always')\n"
          "    cap = torch.backends.cpu.get_cpu_capability()\n"
          "print(cap)\n"
          "print('|'.join(str(x.message) for x in w))\n"
          "print(torch.get_num_threads())\n")


def _probe(env: dict[str, str | None], affinity: set[int] | None = None) -> tuple:
    """torch's capability, warnings and thread count in a fresh process with ``env``."""
    full = {k: v for k, v in os.environ.items()
            if k not in (C.ENV, "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MKL_DYNAMIC")}
    full.update({k: v for k, v in env.items() if v is not None})
    preexec = (lambda: os.sched_setaffinity(0, affinity)) if affinity else None
    out = subprocess.run([sys.executable, "-c", _PROBE], env=full, capture_output=True,
                         text=True, check=True, preexec_fn=preexec).stdout.splitlines()
    return out[0], out[1], int(out[2])


@X86
@pytest.mark.parametrize("value", ["default", "avx2", "avx512", "AVX2", "Avx512", "sse4",
                                   "", " avx2"])
def test_aten_cpu_capability_is_read_as_torch_reads_it(value):
    """Exact lowercase values only (torch compares with ==); anything else is ignored with
    torch's own warning, and the CPU decides."""
    require_torch()
    if value == "avx512" and not MACHINE.runs("AVX512"):
        pytest.skip("torch would run AVX512 kernels this CPU lacks")
    name, warnings, _ = _probe({C.ENV: value})
    ours = C.choose(None, {C.ENV: value}, MACHINE)
    assert ours.name == name
    if ours.warning:
        assert ours.warning in warnings
    else:
        assert "ATEN_CPU_CAPABILITY" not in warnings


def test_the_cli_repeats_torchs_warning_for_an_ignored_value(monkeypatch):
    from click.testing import CliRunner

    import cli

    result = CliRunner().invoke(cli.main, ["explain", "y = torch.ones(3)"],
                                env={"NO_COLOR": "1", C.ENV: "AVX2"})
    assert result.exit_code == 0
    assert "UserWarning: ignoring invalid value for ATEN_CPU_CAPABILITY: AVX2" in result.output


@pytest.mark.parametrize("features, best", [
    ({"AVX512F", "AVX512VL", "AVX512BW", "AVX512DQ", "AVX2", "FMA3"}, "AVX512"),
    ({"AVX512F", "AVX512CD", "AVX2", "FMA3"}, "AVX2"),       # Knights Landing: no VL/BW/DQ
    ({"AVX512VL", "AVX512BW", "AVX512DQ", "AVX2"}, "DEFAULT"),  # no FMA3: neither
    ({"AVX2"}, "DEFAULT"),
    ({"AVX", "FMA3"}, "DEFAULT"),
    (set(), "DEFAULT"),
])
def test_compute_cpu_capability_rule(features, best):
    """DispatchStub.cpp: AVX512 needs avx512vl, bw, dq and fma3; AVX2 needs avx2 and fma3."""
    machine = C.Machine("x86_64", frozenset(features), 4)
    assert machine.best() == best
    choice = C.choose(None, {}, machine)
    assert (choice.name, choice.source, choice.simulated) == (best, "cpu", False)
    # asking for more than the CPU has is simulated, never refused
    wanted = C.choose("avx512", {}, machine)
    assert wanted.name == "AVX512" and wanted.simulated == (best != "AVX512")


def test_a_cpu_tidx_does_not_model_refuses_float_sums_in_one_line():
    """On an ARM machine torch runs NEON/SVE builds tidx does not replay: a float sum
    says so (naming the way out), integers still run, and an x86 build can be asked for
    (simulated)."""
    arm = C.Machine("aarch64", frozenset({"ASIMD"}), 8)
    cpu = C.choose(None, {}, arm)
    assert (cpu.name, cpu.modelled, cpu.simulated) == ("DEFAULT", False, False)
    with activate(RunContext(cpu=cpu)):
        assert engine.tensor([1, 2, 3]).sum().item() == 6
        with pytest.raises(Refused, match="--cpu-capability avx2"):
            engine.ones(3).sum()
    asked = C.choose("avx2", {}, arm)
    assert asked.modelled and asked.simulated
    with activate(RunContext(cpu=asked)):
        assert engine.ones(3).sum().item() == 3.0
    # ATEN_CPU_CAPABILITY=avx2 is not a value an ARM torch accepts
    assert C.choose(None, {C.ENV: "avx2"}, arm).warning


def test_the_document_and_the_steps_say_which_build_ran():
    doc = session.run("y = torch.ones(40).sum()", cpu_capability="default")
    assert doc["cpu"]["capability"] == "DEFAULT" and doc["cpu"]["source"] == "--cpu-capability"
    from tracer import walk
    steps = {ev["name"]: ev for _, ev in walk(doc["statements"][0]["events"])}
    assert steps["cascade_sum"]["args"]["capability"]["value"] == "DEFAULT"
    assert steps["sum_stub"]["note_id"] == "stub.build"
    on512 = session.run("y = torch.ones(40).sum()", cpu_capability="avx512")
    steps = {ev["name"]: ev for _, ev in walk(on512["statements"][0]["events"])}
    # torch 2.13 has no AVX512 sum kernel: an AVX512 run sums in AVX2's 8-float vectors,
    # and says so in the same words as an AVX2 run (the bits are the same)
    assert steps["sum_stub"]["note_id"] == "stub.avx2_only"
    assert steps["cascade_sum"]["args"]["capability"]["value"] == "AVX2"
    assert "no AVX512 build of it" in steps["sum_stub"]["note"]
    assert steps["sum_stub"]["args"]["lanes"]["value"] == 8


def test_the_option_is_refused_in_one_line_when_unknown():
    result = cli_run("explain", "y = torch.ones(3).sum()", "--cpu-capability", "sse2")
    assert result.exit_code == 2
    with pytest.raises(Refused, match="unknown CPU capability"):
        session.Session(cpu_capability="AVX2")


# -- which stubs have an AVX512 build: read off the wheel ---------------------------------
def _nm_avx512_slots() -> dict[str, bool]:
    """Each DispatchStub's AVX512 slot in libtorch_cpu.so: initialised data (a kernel) or
    zero-initialised .bss (none: try_choose_cpu_impl falls back to AVX2)."""
    torch = require_torch()
    nm = shutil.which("nm")
    if nm is None:
        if UNDER_CI:
            pytest.fail("nm (binutils) is required under CI to read torch's wheel")
        pytest.skip("nm not installed")
    lib = Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"
    out = subprocess.run([nm, "-C", str(lib)], capture_output=True, text=True,
                         check=True).stdout
    slots = {}
    for line in out.splitlines():
        m = re.match(r"\S+ ([BbDd]) at::native::DispatchStub<.*?at::native::(?:\w+::)?(\w+)"
                     r"_DECLARE_DISPATCH_type>::AVX512$", line)
        if m:
            slots[m.group(2)] = m.group(1) in "Dd"
    return slots


@X86
def test_every_declared_stub_has_the_avx512_build_the_wheel_has():
    slots = _nm_avx512_slots()
    assert len(slots) > 300
    for name, stub in STUBS.items():
        if name.startswith("doctest"):
            continue
        assert name in slots, f"{name} is not a DispatchStub of torch 2.13"
        assert stub.avx512 == slots[name], name


# -- at::get_num_threads() ----------------------------------------------------------------
@pytest.mark.parametrize("env", [
    {}, {"OMP_NUM_THREADS": "1"}, {"MKL_NUM_THREADS": "1"}, {"OMP_NUM_THREADS": "64"},
    {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "2"}, {"OMP_NUM_THREADS": "0"},
    {"OMP_NUM_THREADS": "3", "MKL_DYNAMIC": "false"}, {"OMP_NUM_THREADS": "2,1"},
])
def test_the_thread_count_is_torchs(env):
    require_torch()
    _, _, threads = _probe(env)
    assert C.num_threads(env, MACHINE.cores) == threads


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_the_thread_count_follows_the_affinity_mask():
    require_torch()
    one = {min(os.sched_getaffinity(0))}
    _, _, threads = _probe({}, affinity=one)
    assert threads == 1
    # tidx reads the same mask: what a process pinned to one CPU would count
    code = ("import os; os.sched_setaffinity(0, %r); from engine.core import capability as C;"
            " print(C.machine().cores)" % (one,))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=str(Path(__file__).resolve().parents[2]))
    assert int(out.stdout) == threads


# -- bit for bit under every capability -----------------------------------------------------
DTYPES = st.sampled_from(["float32", "float64"])


@st.composite
def reduction_cases(draw):
    op = draw(st.sampled_from(cases.REDUCTIONS))
    dtype = draw(st.sampled_from(["float32", "float64", "float16"]) if op in ("sum", "prod")
                 else DTYPES)
    two = draw(st.booleans())
    if two:
        rows = draw(st.integers(1, 70))
        cols = draw(st.integers(1, 5000 // rows))
        shape = (rows, cols)
        layout = draw(st.sampled_from(["contiguous", "transposed", "strided"]))
        dim = draw(st.sampled_from([0, 1, -1] + ([None] if op != "cumsum" else [])))
    else:
        shape = (draw(st.integers(1, 5000)),)
        layout = draw(st.sampled_from(["contiguous", "strided"]))
        dim = draw(st.sampled_from([0] + ([None] if op != "cumsum" else [])))
    if dtype == "float16" and two and dim is None:
        dim = 0     # tidx refuses a float16 sum over two dims it cannot merge (acc buffer)
    params = {"dim": dim, "keepdim": draw(st.booleans()),
              "nan": op in ("amax", "amin") and draw(st.integers(0, 4)) == 0}
    return op, dtype, shape, layout, draw(st.integers(0, 2**32 - 1)), params


@st.composite
def factory_cases(draw):
    op = draw(st.sampled_from(cases.FACTORIES))
    bound = st.floats(-50, 50, allow_nan=False) if op == "linspace" else st.floats(-6, 6)
    params = {"start": draw(bound), "end": draw(bound), "steps": draw(st.integers(1, 5000)),
              "base": draw(st.sampled_from([10.0, 2.0, 2.718281828459045, 0.5, 3.0]))}
    return op, draw(DTYPES), (params["steps"],), "contiguous", 0, params


@st.composite
def index_add_cases(draw):
    rows = draw(st.integers(1, 60))
    cols = draw(st.integers(1, 80))
    dim = draw(st.sampled_from([0, 1]))
    params = {"dim": dim, "m": draw(st.integers(1, 5000 // max(rows, cols))),
              "alpha": draw(st.sampled_from([1, 2.5, -0.3, 0.1, 3])),
              "out": draw(st.sampled_from([None, "empty", "transposed"]))}
    return ("index_add", draw(DTYPES), (rows, cols), draw(st.sampled_from(["contiguous",
                                                                          "transposed"])),
            draw(st.integers(0, 2**32 - 1)), params)


def _same_under_every_capability(workers, case):
    for cap in CHOICES:
        theirs = workers[cap].call("capability_cases", "run", case)
        ours = _tidx(case, cap)
        assert ours == theirs, (cap, case)


@X86
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=reduction_cases())
def test_reductions_bit_for_bit_under_every_capability(workers, case):
    _same_under_every_capability(workers, case)


@X86
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=factory_cases())
def test_linspace_and_logspace_bit_for_bit_under_every_capability(workers, case):
    _same_under_every_capability(workers, case)


@X86
@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=index_add_cases())
def test_index_add_bit_for_bit_under_every_capability(workers, case):
    _same_under_every_capability(workers, case)


@X86
@pytest.mark.parametrize("op", cases.REDUCTIONS)
@pytest.mark.parametrize("n", [1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257,
                               1000, 4095, 4096, 4097, 5000])
def test_reductions_at_the_vector_boundaries(workers, op, n):
    """Sizes around 8, 16, 32 and 64 lanes and the cascade's levels, in float32: where a
    16-lane order and an 8-lane one part (the bug an AVX512 machine showed)."""
    _same_under_every_capability(workers, (op, "float32", (n,), "contiguous", n,
                                           {"dim": None, "nan": False}))


@X86
@pytest.mark.parametrize("statement", ["x = torch.randn(1000); s = x.sum()",
                                       "x = torch.randn(16); s = x.sum()",
                                       "x = torch.rand(300, 7); m = x.mean(0); p = x.prod(1)",
                                       "y = torch.logspace(0, 1, 5, dtype=torch.float64)"])
@pytest.mark.parametrize("capability", RUNNABLE)
@pytest.mark.kernel    # by hand: the torch worker process is started inside --verify
def test_verify_agrees_and_says_the_capability(statement, capability):
    """``--verify`` runs torch with the run's capability (a subprocess when this process's
    torch chose another) and agrees."""
    require_torch()
    result = cli_run("explain", statement, "--seed", "0", "--verify",
                     "--cpu-capability", capability, "--width", "200")
    assert result.exit_code == 0, result.output
    assert f"both with the {C.ENV_VALUES[capability]} CPU capability" in result.output
    assert "tidx and PyTorch agree on every check." in result.output


def test_a_simulated_capability_is_labelled_and_not_verified(monkeypatch):
    """An AVX2 CPU asked for AVX512: tidx replays it, says (simulated) on the steps and in
    the document, and --verify says torch cannot run it rather than comparing."""
    avx2 = C.Machine("x86_64", frozenset({"AVX2", "FMA3"}), 2)
    monkeypatch.setattr(C, "machine", lambda: avx2)
    doc = session.run("x = torch.ones(40); s = x.sum()", cpu_capability="avx512")
    assert doc["cpu"]["simulated"] and doc["cpu"]["cpu"] == "AVX2"
    result = cli_run("explain", "x = torch.ones(40); s = x.sum()", "--cpu-capability",
                     "avx512", "--verify", "--width", "200")
    assert result.exit_code == 0
    # the sum ran sum_stub's AVX2 build (torch has no AVX512 one), which this CPU runs
    assert "capability=AVX2" in result.output and "AVX2 (simulated)" not in result.output
    assert "AVX512 CPU capability (--cpu-capability), simulated: this CPU runs at most " \
           "AVX2" in result.output
    assert "nothing was compared" in result.output
    # a build this CPU cannot run is labelled where it runs
    on_default = C.Machine("x86_64", frozenset(), 2)
    monkeypatch.setattr(C, "machine", lambda: on_default)
    result = cli_run("explain", "x = torch.ones(40); s = x.sum()", "--cpu-capability",
                     "avx2", "--width", "200")
    assert "capability=AVX2 (simulated)" in result.output
