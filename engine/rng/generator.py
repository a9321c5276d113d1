"""The default CPU generator (at::detail::getDefaultCPUGenerator).

torch seeds its default generator non-deterministically at start-up, so a fresh
``python -c "import torch; print(torch.randn(3))"`` differs run to run; tidx
does the same unless a seed is given (``--seed`` or ``torch.manual_seed``), and
the trace always says which seed the numbers came from, so any run can be
reproduced in real torch with ``torch.manual_seed(seed)``.
"""

from __future__ import annotations

import os

from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.core.context import current

SOURCE = "aten/src/ATen/CPUGeneratorImpl.cpp"


class DefaultGenerator:
    """A run's default CPU generator (made on first use) and how often the run used it."""

    __slots__ = ("generator", "uses", "pending", "cuda")

    def __init__(self) -> None:
        self.generator = None
        #: the simulated GPU's CUDAGeneratorImpl (engine.rng.philox), made on first use
        self.cuda = None
        #: a run reports its seed only if it used the generator
        self.uses = 0
        #: a seed to apply at the generator's next use (see :func:`start_run`)
        self.pending: int | None = None


def _state() -> DefaultGenerator:
    return current().local(DefaultGenerator)


def start_run(seed: int | None) -> None:
    """Begin a run as a fresh ``python`` process would: the generator starts from
    ``seed``, or from a new random seed, the first time the run uses it (so the seed a
    run reports always reproduces its numbers in real torch)."""
    _state().pending = seed if seed is not None else int.from_bytes(os.urandom(8), "little")


def uses() -> int:
    """How many times this run asked for its generator."""
    return _state().uses


def default_generator():
    """The run's CPUGeneratorImpl, created on first use (rng imports lazily: most
    statements draw no random numbers)."""
    st = _state()
    st.uses += 1
    if st.generator is None:
        # mt19937 too is imported here, not by every start (issue #25)
        from engine.rng.mt19937 import CPUGenerator

        st.generator = CPUGenerator(int.from_bytes(os.urandom(8), "little"))
    if st.pending is not None:
        seed, st.pending = st.pending, None
        st.generator.manual_seed(seed)
    return st.generator


def kernels():
    """The bit-exact CPU distributions (:mod:`engine.rng.distributions`).

    Imported on first use, not at start-up: loading glibc's libm and compiling the
    WebAssembly kernels costs time that a statement drawing no random numbers should
    not pay (``tidx explain "t[1, 2] = 3"`` never loads them)."""
    from engine.rng import distributions

    return distributions


CPUGENERATOR_IMPL_SET_CURRENT_SEED = step("CPUGeneratorImpl::set_current_seed", Layer.RNG,
                                          source=SOURCE, note="rng.manual_seed",
                                          libtorch=symbol("at::CPUGeneratorImpl::set_current_seed"))


def manual_seed(seed: int):
    """torch.manual_seed: reseed the default generator (clears its cached normal)."""
    gen = default_generator()
    with span(CPUGENERATOR_IMPL_SET_CURRENT_SEED, seed=int(seed)):
        gen.manual_seed(int(seed))
    cuda = _state().cuda
    if cuda is not None:
        # torch.manual_seed seeds every device's default generator (cuda.manual_seed_all)
        cuda.set_current_seed(int(seed))
    return gen


def cuda_generator():
    """The simulated GPU's default CUDA generator, made on first use with the run's seed
    (the one the trace reports).  torch's getDefaultCUDAGenerator seeds it
    non-deterministically (``seed()``), as it does the CPU's; tidx gives both the run's one
    seed, and ``torch.manual_seed(seed)`` seeds the CUDA generators too, so the reported
    seed reproduces the same Philox numbers."""
    from engine.rng.philox import CUDAGenerator

    seed = default_generator().initial_seed()     # applies --seed; counts the run's use
    st = _state()
    if st.cuda is None:
        st.cuda = CUDAGenerator(seed)
    return st.cuda


def initial_seed() -> int:
    return default_generator().initial_seed()
