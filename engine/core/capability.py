"""ATen's CPU capability: which build of a vectorised kernel runs, and on how many threads.

PyTorch compiles the kernels under ``aten/src/ATen/native/cpu/`` once per instruction set
(DEFAULT, AVX2, AVX512 on x86-64) and picks one build per run
(aten/src/ATen/native/DispatchStub.cpp, ``compute_cpu_capability``):

* ``ATEN_CPU_CAPABILITY`` when it is exactly ``avx512``, ``avx2`` or ``default`` (compared
  with ``==``: case sensitive); any other value is ignored with a warning;
* otherwise the best the CPU has: AVX512 needs avx512vl, avx512bw, avx512dq and fma3;
  AVX2 needs avx2 and fma3; else DEFAULT.

The choice fixes the last bits of floating-point results: a build's vectors hold 32 bytes
(DEFAULT, AVX2) or 64 (AVX512), which decides how a sum is split into partial sums, and
the AVX2/AVX512 builds are compiled with ``-mfma``, so GCC fuses ``a * b + c`` into one
rounding where the DEFAULT build rounds twice.  Not every kernel has every build: a
DispatchStub whose AVX512 slot is empty runs its AVX2 build on an AVX512 CPU
(``try_choose_cpu_impl``); :mod:`engine.core.dispatch_stub` declares which stubs have one.

tidx reads the CPU's features itself (numpy already knows them), never from torch.  Only
x86-64's builds are modelled: on another CPU (an ARM Mac, a Graviton server) torch runs
NEON or SVE builds whose order tidx does not replay, so the kernels that depend on it
say so in one line unless a run asks for an x86 build with ``--cpu-capability``, which
tidx then simulates.

>>> choose(None, {}, Machine("x86_64", frozenset({"AVX2", "FMA3"}), 2)).name
'AVX2'
>>> choose(None, {"ATEN_CPU_CAPABILITY": "default"}, Machine("x86_64", frozenset(), 2)).name
'DEFAULT'
>>> choose("avx512", {}, Machine("x86_64", frozenset({"AVX2", "FMA3"}), 2)).simulated
True
"""

from __future__ import annotations

import functools
import os
import platform
from collections.abc import Mapping
from dataclasses import dataclass

#: x86-64's builds, lowest first (CPUCapability's order: a higher one includes the lower)
X86 = ("DEFAULT", "AVX2", "AVX512")
#: The values ATEN_CPU_CAPABILITY and ``--cpu-capability`` take, as torch spells them
ENV_VALUES = {"default": "DEFAULT", "avx2": "AVX2", "avx512": "AVX512"}
#: A build's vector register in bytes (ATen/cpu/vec/vec_base.h VECTOR_WIDTH)
VECTOR_BYTES = {"DEFAULT": 32, "AVX2": 32, "AVX512": 64}
#: The CPU features (numpy's names) torch requires for each build (DispatchStub.cpp)
REQUIRES = {"AVX512": frozenset({"AVX512VL", "AVX512BW", "AVX512DQ", "FMA3"}),
            "AVX2": frozenset({"AVX2", "FMA3"}),
            "DEFAULT": frozenset()}
#: The environment variable torch reads, and the option that overrides it in tidx
ENV = "ATEN_CPU_CAPABILITY"
#: /proc/cpuinfo's flag names for the features above, where numpy cannot be asked
_PROC_FLAGS = {"avx512vl": "AVX512VL", "avx512bw": "AVX512BW", "avx512dq": "AVX512DQ",
               "fma": "FMA3", "avx2": "AVX2"}


@dataclass(frozen=True)
class Machine:
    """What the CPU offers: its architecture, its features (numpy's names) and the
    physical cores this process may run on."""

    arch: str
    features: frozenset[str]
    cores: int
    #: cpuinfo's vendor ("intel", "amd", or "" when unknown): a few kernels choose by it
    #: (bernoulli_ with a float p runs MKL's generator on Intel only)
    vendor: str = ""

    @property
    def x86(self) -> bool:
        return self.arch == "x86_64"

    def best(self) -> str:
        """compute_cpu_capability without the environment: the best build the CPU runs.
        On a CPU that is not x86-64 the answer tidx can give is DEFAULT's name only."""
        if not self.x86:
            return "DEFAULT"
        for name in ("AVX512", "AVX2"):
            if REQUIRES[name] <= self.features:
                return name
        return "DEFAULT"

    def runs(self, name: str) -> bool:
        """Whether this CPU can run the x86 build ``name`` (else tidx simulates it)."""
        return self.x86 and REQUIRES[name] <= self.features


@dataclass(frozen=True)
class CpuCapability:
    """A run's choice: the capability torch would report
    (``torch.backends.cpu.get_cpu_capability()``), where it came from, whether tidx
    simulates it (the CPU lacks it, or is not x86-64), and at::get_num_threads()."""

    name: str
    source: str                 # "cpu", "ATEN_CPU_CAPABILITY" or "--cpu-capability"
    cpu: str                    # the CPU's own best build (what "cpu" would have chosen)
    simulated: bool
    modelled: bool              # tidx replays this build's order (x86 builds only)
    threads: int
    arch: str = "x86_64"
    warning: str | None = None  # torch's TORCH_WARN for an ATEN_CPU_CAPABILITY it ignored

    def summary(self) -> dict:
        """The document's record of it (docs/trace-format.md, ``cpu``)."""
        out = {"capability": self.name, "source": self.source, "cpu": self.cpu,
               "arch": self.arch, "simulated": self.simulated, "modelled": self.modelled,
               "threads": self.threads}
        if self.warning:
            out["warning"] = self.warning
        return out


def choose(option: str | None, env: Mapping[str, str], machine: Machine) -> CpuCapability:
    """The run's capability: ``option`` (``--cpu-capability``, one of ENV_VALUES) wins,
    then ATEN_CPU_CAPABILITY as torch reads it, then the CPU's best.  ``option`` values
    are checked by the caller (a usage error names the accepted ones)."""
    threads = num_threads(env, machine.cores)
    warning = None
    source, name = "cpu", machine.best()
    if option is not None:
        source, name = "--cpu-capability", ENV_VALUES[option]
    elif ENV in env:
        value = env[ENV]
        if machine.x86 and value in ENV_VALUES:
            source, name = ENV, ENV_VALUES[value]
        elif not machine.x86 and value == "default":
            source = ENV
        else:
            warning = f"ignoring invalid value for {ENV}: {value}"
    # an x86 build on a CPU that cannot run it, or any x86 build asked for on another
    # CPU: tidx replays it, labelled simulated (torch there would stop at an illegal
    # instruction, or has no such build)
    asked_x86 = source == "--cpu-capability"
    simulated = not machine.runs(name) if machine.x86 else asked_x86
    return CpuCapability(name=name, source=source, cpu=machine.best(), simulated=simulated,
                         modelled=machine.x86 or asked_x86, threads=threads,
                         arch=machine.arch, warning=warning)


def num_threads(env: Mapping[str, str], cores: int) -> int:
    """at::get_num_threads() of torch's x86 wheel (OpenMP sized by MKL:
    ``omp_set_num_threads(mkl_get_max_threads())`` in ParallelOpenMP.cpp's
    init_num_threads): MKL_NUM_THREADS, else OMP_NUM_THREADS (its first number), else
    the physical cores; MKL caps it at the physical cores unless MKL_DYNAMIC is false.
    Measured with torch 2.13 on a 2-core machine: OMP_NUM_THREADS=3 gives 2,
    MKL_DYNAMIC=false OMP_NUM_THREADS=3 gives 3, ``taskset -c 0`` gives 1.

    >>> num_threads({}, 4), num_threads({"OMP_NUM_THREADS": "8"}, 4)
    (4, 4)
    >>> num_threads({"OMP_NUM_THREADS": "8", "MKL_DYNAMIC": "FALSE"}, 4)
    8
    >>> num_threads({"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "2"}, 4)
    2
    """
    wanted = _positive(env.get("MKL_NUM_THREADS")) or _positive(env.get("OMP_NUM_THREADS"))
    if wanted is None:
        return max(1, cores)
    if env.get("MKL_DYNAMIC", "").strip().lower() == "false":
        return wanted
    return max(1, min(wanted, cores))


def _positive(value: str | None) -> int | None:
    """The first number of an OMP_NUM_THREADS-style list, if it is a positive integer."""
    if not value:
        return None
    first = value.split(",")[0].strip()
    return int(first) if first.isdigit() and int(first) > 0 else None


@functools.lru_cache(maxsize=None)
def machine() -> Machine:
    """This machine, read once (a fact of the hardware, not of a run)."""
    arch = platform.machine().lower()
    arch = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64"}.get(arch, arch)
    return Machine(arch, _features(), _physical_cores(), _vendor())


#: /proc/cpuinfo's vendor_id values, as cpuinfo names the vendors
_VENDORS = {"GenuineIntel": "intel", "AuthenticAMD": "amd", "HygonGenuine": "hygon"}


def _vendor() -> str:
    """The CPU's vendor, as cpuinfo_get_processor(0)->core->vendor tells torch."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("vendor_id"):
                    return _VENDORS.get(line.split(":", 1)[1].strip(), "other")
    except OSError:
        pass
    return ""


def _features() -> frozenset[str]:
    """The CPU's features as numpy names them (it checks the OS saves the registers
    too, as cpuinfo does for torch); /proc/cpuinfo's flags where numpy cannot say."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as found
        return frozenset(k for k, v in found.items() if v)
    except ImportError:     # pragma: no cover - numpy < 2 kept it elsewhere
        pass
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = line.split(":", 1)[1].split()
                    return frozenset(_PROC_FLAGS[f] for f in flags if f in _PROC_FLAGS)
    except OSError:
        pass
    return frozenset()


def _physical_cores() -> int:
    """The physical cores among the CPUs this process may run on (MKL counts cores, not
    hyper-threads): distinct (package, core) pairs in the affinity mask."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except AttributeError:      # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
    cores = set()
    for cpu in cpus:
        base = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
        try:
            with open(base + "physical_package_id") as p, open(base + "core_id") as c:
                cores.add((p.read().strip(), c.read().strip()))
        except OSError:
            cores.add(("cpu", str(cpu)))
    return max(1, len(cores))
