"""DispatchStub: one function pointer per CPU build, chosen once per run.

aten/src/ATen/native/DispatchStub.h declares a stub (``DECLARE_DISPATCH(fn, sum_stub)``);
each file under native/cpu/ is compiled once per capability and registers its kernel
into the stub's slot for that build (``REGISTER_DISPATCH``). A kernel may decline the
AVX512 slot (``REGISTER_NO_AVX512_DISPATCH``, or no AVX512 compilation of its file at
all): ``try_choose_cpu_impl`` then runs the AVX2 build on an AVX512 CPU. In torch
2.13's x86 wheel most of the stubs tidx models have no AVX512 kernel (their slots are
zero-initialised in ``.bss``: ``nm -C libtorch_cpu.so | grep 'sum_stub.*AVX512'``);
``tests/rng/test_cpu_capability.py`` re-reads the wheel and checks every declaration here.

A kernel whose bits depend on its build declares its stub beside itself and asks it for
the :class:`Build` that runs::

    SUM_STUB = DispatchStub("sum_stub", avx512=False, source=SUM_KERNEL)
    build = SUM_STUB.build()          # build.name, build.lanes(4), build.fma

>>> from engine.core.context import RunContext, activate
>>> from engine.core.capability import Machine, choose
>>> avx512 = Machine("x86_64", frozenset({"AVX512VL", "AVX512BW", "AVX512DQ", "AVX2", "FMA3"}), 2)
>>> stub = DispatchStub("doctest_stub", avx512=False, source="")
>>> with activate(RunContext(cpu=choose(None, {}, avx512))):
...     b = stub.build()
>>> b.name, b.lanes(4), b.fma, b.fallback
('AVX2', 8, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from tracer.notes import Note
from tracer.recorder import emit
from tracer.steps import Layer, Lecture, step

from engine.core import capability as C
from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused

SOURCE = "aten/src/ATen/native/DispatchStub.cpp"

#: Every stub tidx declares, by name: what tests/rng/test_cpu_capability.py checks.
STUBS: dict[str, "DispatchStub"] = {}


@dataclass(frozen=True)
class Build:
    """The build of one stub that runs in this run: its capability, its vector width,
    whether GCC fused multiply-adds in it, and why it is not the CPU's own."""

    stub: str
    name: str                   # DEFAULT, AVX2 or AVX512
    cpu: str                    # the run's capability (what torch reports)
    fallback: bool              # an AVX512 run takes this stub's AVX2 build
    simulated: bool

    @property
    def vector_bytes(self) -> int:
        return C.VECTOR_BYTES[self.name]

    @property
    def fma(self) -> bool:
        """The AVX2 and AVX512 builds are compiled with -mfma: ``a * b + c`` is one
        rounding there (GCC contracts it, and the vectorised code calls fmadd), two in
        DEFAULT."""
        return self.name != "DEFAULT"

    def lanes(self, itemsize: int) -> int:
        """Vectorized<T>::size(): how many elements of ``itemsize`` bytes a vector holds."""
        return self.vector_bytes // itemsize

    def describe(self) -> str:
        """The value a step shows: the build that ran (``AVX2``; ``AVX512 (simulated)``
        on a CPU that cannot run it).  Why an AVX512 CPU runs AVX2 is the stub step's
        note: the value is the same on both, as the bits are."""
        return self.name + (" (simulated)" if self.simulated else "")


class DispatchStub:
    """``DECLARE_DISPATCH`` for one stub: its name, whether torch 2.13's x86 wheel has an
    AVX512 build of it, and the file its kernels are in."""

    def __init__(self, name: str, *, avx512: bool, source: str) -> None:
        self.name, self.avx512, self.source = name, avx512, source
        # the step of picking a build: the kernel's own line says which (capability=AVX2),
        # so the lecture folds it; --full gives the step and its why
        self.step = step(name, Layer.KERNEL, source=SOURCE, lecture=Lecture.HIDDEN)
        STUBS.setdefault(name, self)

    def __repr__(self) -> str:
        return f"DispatchStub({self.name!r}, avx512={self.avx512})"

    def __deepcopy__(self, memo: dict) -> "DispatchStub":
        return self     # a declaration: immutable once made

    def call(self, dtype: D.dtype, itemsize: int) -> Build:
        """``sum_stub(kCPU, iter)``: DispatchStub::operator() picks the build
        (try_choose_cpu_impl) and calls it; the step says which build ran and what that
        means for elements of ``itemsize`` bytes (``dtype``)."""
        build = self.build()
        lanes = build.lanes(itemsize)
        # what the build is, the same words on every CPU that runs it (an AVX512 CPU
        # running a stub's AVX2 build reads as an AVX2 CPU does: the bits are the same)
        if build.name == "DEFAULT":
            note = "stub.build"
        elif build.name == "AVX2" and not self.avx512:
            note = "stub.avx2_only"
        else:       # pragma: no cover - no stub tidx models has an AVX512 build yet
            raise AssertionError(f"{self.name}'s {build.name} build has no note yet")
        emit(self.step,
             note=lambda: Note(note, stub=self.name, capability=build.name,
                               bytes=build.vector_bytes, lanes=lanes,
                               dtype=str(dtype).removeprefix("torch.")),
             capability=build.describe(), lanes=lanes, fma=build.fma)
        return build

    def build(self, cpu: C.CpuCapability | None = None) -> Build:
        """try_choose_cpu_impl: the run's capability, or AVX2 on an AVX512 run when this
        stub has no AVX512 kernel.  A CPU tidx does not model (not x86-64, and no
        --cpu-capability asked for an x86 build) is refused: its NEON or SVE kernels add
        in an order tidx cannot replay."""
        cpu = cpu if cpu is not None else current().cpu
        if not cpu.modelled:
            raise Refused(
                f"{self.name}'s result depends on the CPU's vector width, and tidx replays "
                f"only x86-64's builds; on this {cpu.arch} CPU torch runs its own (NEON's "
                "16-byte vectors, ATen/cpu/vec/vec128, or SVE256), whose order tidx has not "
                "been checked against. Pick an x86 build to see what an x86 machine "
                "prints: --cpu-capability avx2 (simulated)")
        name = self.build_for(cpu.name).name
        # simulated: the build that runs is one this CPU cannot (an AVX512 run on an AVX2
        # CPU still runs, for real, the AVX2 build of a stub that has no AVX512 one)
        runs_here = cpu.arch == "x86_64" and C.X86.index(name) <= C.X86.index(cpu.cpu)
        return self.build_for(cpu.name, simulated=cpu.simulated and not runs_here)

    def build_for(self, capability: str, simulated: bool = False) -> Build:
        """The build that runs under the capability named (DEFAULT, AVX2 or AVX512)."""
        name = capability.upper()
        if name not in C.VECTOR_BYTES:
            raise ValueError(f"unknown CPU capability {capability!r}")
        fallback = name == "AVX512" and not self.avx512
        return Build(self.name, "AVX2" if fallback else name, name, fallback, simulated)
