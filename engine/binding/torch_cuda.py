"""The ``torch.cuda`` namespace over tidx's simulated GPU (issue 16).

Each function is the Python of torch/cuda/*.py calling its torch._C binding
(torch/csrc/cuda/Module.cpp), which asks c10's CUDA runtime or the caching allocator.  The
machine tidx simulates has one GPU, cuda:0, so ``is_available()`` is True here; the note
says what the learner's own torch answers (a CPU build says False).  Every step is
labelled simulated.  Device arguments other than the one GPU (None, 0, 'cuda',
'cuda:0') are refused: torch's own answers for them need a second device.
"""

from __future__ import annotations

from typing import Any, Callable

from tracer.notes import Note
from tracer.recorder import emit, span
from tracer.steps import Layer, step

from engine.core.errors import Refused, torch_error, tp_name
from engine.memory.cuda_caching_allocator import SOURCE as ALLOCATOR
from engine.memory.cuda_caching_allocator import device_allocator
from engine.rng import generator as G

INIT = "torch/cuda/__init__.py"
MEMORY = "torch/cuda/memory.py"
RANDOM = "torch/cuda/random.py"
MODULE = "torch/csrc/cuda/Module.cpp"
FUNCTIONS_CPP = "c10/cuda/CUDAFunctions.cpp"
#: What get_device_name answers: honest about what the device is.
DEVICE_NAME = "tidx simulated GPU"


class CudaModule:
    """The value ``torch.cuda`` evaluates to."""

    def __repr__(self) -> str:
        return "<module 'torch.cuda' (tidx simulated GPU)>"


CUDA = CudaModule()


#: torch/cuda/__init__.py's and memory.py's functions (``torch.cuda.<function>``)
TORCH_CUDA_FUNCTION = step("torch.cuda.<function>", Layer.PYTHON)


def _entry(name: str, source: str, note: Any = None, **args: Any) -> Any:
    s = span(TORCH_CUDA_FUNCTION, called=f"torch.cuda.{name}", source=source, note=note, **args)
    return s


def _device(name: str, device: Any) -> None:
    """The one simulated GPU, however it is named; anything else is refused."""
    if device is None or device == 0 and not isinstance(device, bool) or \
            device in ("cuda", "cuda:0"):
        return
    if getattr(device, "type", None) == "cuda" and getattr(device, "index", 0) in (0, None):
        return
    raise Refused(f"torch.cuda.{name}(device={device!r}): the simulated machine has one GPU, "
                  f"cuda:0; only that device is modelled")


def _no_args(name: str, args: tuple, kwargs: dict) -> None:
    if args or kwargs:
        raise torch_error(TypeError, f"{name}() takes 0 positional arguments but "
                                     f"{len(args) + len(kwargs)} were given")


THCPMODULE_GET_DEVICE_COUNT_WRAP = step("THCPModule_getDeviceCount_wrap", Layer.BINDING,
                                        source=MODULE)
C10_CUDA_DEVICE_COUNT = step("c10::cuda::device_count", Layer.KERNEL, source=FUNCTIONS_CPP,
                             note="cudart.device_count")


def _device_count() -> int:
    with span(THCPMODULE_GET_DEVICE_COUNT_WRAP) as s:
        s.set(simulated=True)
        emit(C10_CUDA_DEVICE_COUNT, result=1, simulated=True)
        s.set_result(1)
    return 1


def is_available(*args: Any, **kwargs: Any) -> bool:
    _no_args("is_available", args, kwargs)
    with _entry("is_available", INIT, note="cudart.is_available", simulated=True) as s:
        result = _device_count() > 0
        s.set_result(result)
    return result


def device_count(*args: Any, **kwargs: Any) -> int:
    _no_args("device_count", args, kwargs)
    with _entry("device_count", INIT, note="cudart.device_count.python",
                simulated=True) as s:
        n = _device_count()
        s.set_result(n)
    return n


C10_CUDA_CURRENT_DEVICE = step("c10::cuda::current_device", Layer.KERNEL, source=FUNCTIONS_CPP)


def current_device(*args: Any, **kwargs: Any) -> int:
    _no_args("current_device", args, kwargs)
    with _entry("current_device", INIT, note="cudart.current_device", simulated=True) as s:
        emit(C10_CUDA_CURRENT_DEVICE, result=0, simulated=True)
        s.set_result(0)
    return 0


AT_CUDA_GET_DEVICE_PROPERTIES = step("at::cuda::getDeviceProperties", Layer.KERNEL,
                                     source="aten/src/ATen/cuda/CUDAContext.cpp")


def get_device_name(device: Any = None) -> str:
    _device("get_device_name", device)
    with _entry("get_device_name", INIT, note="cudart.get_device_name", device=device,
                simulated=True) as s:
        emit(AT_CUDA_GET_DEVICE_PROPERTIES, device=0, result=DEVICE_NAME, simulated=True)
        s.set_result(DEVICE_NAME)
    return DEVICE_NAME


THCPMODULE_MEMORY_STATS = step("THCPModule_memoryStats", Layer.BINDING, source=MODULE)
DEVICE_CACHING_ALLOCATOR_GET_STATS = step("DeviceCachingAllocator::getStats", Layer.MEMORY,
                                          source=ALLOCATOR)


def _stat(name: str, key: str, note: str) -> Callable[..., int]:
    """memory_allocated and its kin: torch/cuda/memory.py reads one key of
    memory_stats(device), which _cuda_memoryStats builds from getDeviceStats."""
    def fn(device: Any = None) -> int:
        _device(name, device)
        with _entry(name, MEMORY, note=note, device=device, simulated=True) as s:
            value = device_allocator(0).memory_stats()[key]
            with span(THCPMODULE_MEMORY_STATS) as b:
                b.set(simulated=True)
                emit(DEVICE_CACHING_ALLOCATOR_GET_STATS,
                     note=Note("cudart.get_stats", key=key, value=value), key=key,
                     result=value, simulated=True)
                b.set_result(value)
            s.set_result(value)
        return value
    fn.__name__ = fn.__qualname__ = name
    return fn


memory_allocated = _stat("memory_allocated", "allocated_bytes.all.current",
                         "cudart.memory_allocated")
memory_reserved = _stat("memory_reserved", "reserved_bytes.all.current",
                        "cudart.memory_reserved")
max_memory_allocated = _stat("max_memory_allocated", "allocated_bytes.all.peak",
                             "cudart.max_memory_allocated")
max_memory_reserved = _stat("max_memory_reserved", "reserved_bytes.all.peak",
                            "cudart.max_memory_reserved")


THCPMODULE_EMPTY_CACHE = step("THCPModule_emptyCache", Layer.BINDING, source=MODULE)


def empty_cache(*args: Any, **kwargs: Any) -> None:
    _no_args("empty_cache", args, kwargs)
    with _entry("empty_cache", MEMORY, note="cudart.empty_cache", simulated=True):
        with span(THCPMODULE_EMPTY_CACHE) as b:
            b.set(simulated=True)
            device_allocator(0).empty_cache()
    return None


THCPMODULE_CUDA_SYNCHRONIZE = step("THCPModule_cudaSynchronize", Layer.BINDING, source=MODULE)
C10_CUDA_DEVICE_SYNCHRONIZE = step("c10::cuda::device_synchronize", Layer.KERNEL,
                                   source=FUNCTIONS_CPP, note="cudart.device_synchronize")


def synchronize(device: Any = None) -> None:
    _device("synchronize", device)
    with _entry("synchronize", INIT, note="cudart.synchronize", device=device,
                simulated=True):
        with span(THCPMODULE_CUDA_SYNCHRONIZE) as b:
            b.set(simulated=True)
            emit(C10_CUDA_DEVICE_SYNCHRONIZE, simulated=True)
    return None


def _seed_value(seed: Any) -> int:
    """torch/cuda/random.py: ``seed = int(seed)``."""
    if isinstance(seed, bool) or isinstance(seed, int):
        return int(seed)
    if isinstance(seed, float) and seed == seed and abs(seed) != float("inf"):
        return int(seed)
    raise Refused(f"torch.cuda.manual_seed({tp_name(seed)}): tidx takes an int seed here")


def _seeder(name: str, note: str) -> Callable[[Any], None]:
    def fn(seed: Any) -> None:
        value = _seed_value(seed)
        if not -(2**63) <= value < 2**64:
            raise torch_error(RuntimeError, "Overflow when unpacking long long")
        with _entry(name, RANDOM, note=Note(note, seed=value), seed=value, simulated=True):
            G.cuda_generator().set_current_seed(value)
        return None
    fn.__name__ = fn.__qualname__ = name
    return fn


manual_seed = _seeder("manual_seed", "cudart.manual_seed")
manual_seed_all = _seeder("manual_seed_all", "cudart.manual_seed_all")


def initial_seed(*args: Any, **kwargs: Any) -> int:
    _no_args("initial_seed", args, kwargs)
    with _entry("initial_seed", RANDOM, note="cudart.initial_seed", simulated=True) as s:
        seed = G.cuda_generator().seed
        s.set_result(seed)
    return seed


FUNCTIONS: dict[str, Callable[..., Any]] = {
    fn.__name__: fn for fn in (
        is_available, device_count, current_device, get_device_name, memory_allocated,
        memory_reserved, max_memory_allocated, max_memory_reserved, empty_cache,
        synchronize, manual_seed, manual_seed_all, initial_seed)}
