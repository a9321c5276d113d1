"""The device check of torch's generated CUDA wrappers (RegisterCUDA.cpp).

torchgen (torchgen/dest/register_dispatch_key.py, gen_device_check) writes, at the top of
every CUDA wrapper of an operator whose ``device_check`` is not NoCheck, one
``c10::impl::check_and_update_common_device(common_device, arg, "wrapper", "arg")`` per
tensor-like argument, out= arguments first, then the flat positional ones, in schema
order.  The first defined tensor sets the common device; any later tensor elsewhere
fails with common_device_check_failure (aten/src/ATen/core/adaption.cpp) before the
kernel runs.  TensorIterator operators (``device_check: NoCheck``) have no such check:
theirs is TensorIterator::compute_types' (engine.dispatch.cuda.same_device_error).

Which operators' wrappers check is a fact of each declaration (``device_check=``); the
wrapper's name and the arguments it checks follow from the schema, as torchgen derives
them.  tests/cuda/test_cuda_device_check.py runs the wheel's torchgen and compares.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.declarations import CHECK_CALLEE, CHECK_WRAPPER, OUT, Declaration
from engine.dispatch.schema import FunctionSchema

def wrapper(decl: Declaration) -> str | None:
    """The name torchgen gives the operator's CUDA wrapper when it checks devices
    (``device_check=CHECK_WRAPPER``), else None.  register_dispatch_key.py names a
    structured one ``wrapper_CUDA_<name>[_<overload>]`` (its out= form
    ``wrapper_CUDA_<name>_out_<overload>``), any other ``wrapper_CUDA_<overload>_<kernel
    name>`` (native.name: an out= form's name ends in ``_out``)."""
    if decl.device_check != CHECK_WRAPPER:
        return None
    name, overload = decl.name, decl.overload
    if decl.structured:
        if decl.kind == OUT:
            return f"wrapper_CUDA_{name}_out_{overload}"
        return f"wrapper_CUDA_{name}_{overload}" if overload else f"wrapper_CUDA_{name}"
    return f"wrapper_CUDA_{overload}_{name}{'_out' if decl.kind == OUT else ''}"


def checked(decl: Declaration) -> tuple[str, ...]:
    """The arguments the wrapper checks, in order (gen_device_check: the out= arguments,
    then the flat positional ones, each tensor-like)."""
    if decl.device_check != CHECK_WRAPPER:
        return ()
    s = _parsed(decl.schema)
    return tuple(a.name for a in (*s.out, *s.positional) if a.type.is_tensor_like)


def _all_tensors(values) -> list[TensorImpl]:
    return [t for v in values for t in _tensors(v)]


def mixes_devices(args: tuple, kwargs: dict) -> bool:
    """Do a CUDA tensor and a CPU tensor meet in this call?"""
    devices = {t.device_type for t in _all_tensors((*args, *kwargs.values()))}
    return {"cuda", "cpu"} <= devices


def runs_to_its_check(decl: Declaration, args: tuple, kwargs: dict) -> bool:
    """Is this a call of an operator with no device check of its own
    (``device_check=CHECK_CALLEE``) with mixed devices (run it, not refuse it)?  stack and
    concat run to cat's wrapper check, where.self to where_self_out's TensorIterator."""
    return decl.device_check == CHECK_CALLEE and mixes_devices(args, kwargs)


@lru_cache(maxsize=None)
def _parsed(schema: str) -> FunctionSchema:
    return FunctionSchema.parse(schema)


def _device(t: TensorImpl) -> str:
    """c10::Device as torch prints it: ``cpu``, ``cuda:0`` (one simulated GPU)."""
    return "cuda:0" if t.device_type == "cuda" else t.device_type


def _tensors(value: Any) -> list[TensorImpl]:
    """The defined tensors of an argument: a Tensor, a Tensor? (None skipped, as
    check_and_update_common_device skips an undefined one) or a Tensor[] / Tensor?[]."""
    if isinstance(value, TensorImpl):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, TensorImpl)]
    return []


#: Where the wrappers are: the file torchgen writes them into.
REGISTER_CUDA = "build/aten/src/ATen/RegisterCUDA.cpp"


def device_error(decl: Declaration, args: tuple, kwargs: dict
                 ) -> tuple[str, BaseException] | None:
    """The error the CUDA wrapper of ``name`` raises on the call's devices, with the
    wrapper's name (the kernel the dispatcher entered), or None.  The arguments are bound
    as the binding passes them: positional in the schema's order, keyword-only and out=
    by name."""
    if decl.full_name == "aten::index.Tensor":
        return _index_devices(args)
    name = wrapper(decl)
    if name is None:
        return None
    s = _parsed(decl.schema)
    bound = dict(zip((a.name for a in s.positional), args))
    bound.update(kwargs)
    common: str | None = None
    for arg in checked(decl):
        for t in _tensors(bound.get(arg)):
            if common is None:
                common = _device(t)
            elif _device(t) != common:
                return name, torch_error(
                    RuntimeError,
                    f"Expected all tensors to be on the same device, but got {arg} is on "
                    f"{_device(t)}, different from other tensors on {common} (when checking "
                    f"argument in method {name})")
    return None


def _index_devices(args: tuple) -> tuple[str, BaseException] | None:
    """index.Tensor has no wrapper check (NoCheck); its meta function
    (TensorAdvancedIndexing.cpp, check_indices_on_cpu_or_selfdevice, after the
    too-many-indices check) allows an index on the CPU or on self's device only."""
    self, indices = args[0], _tensors(args[1])
    if len(args[1]) > self.dim() or all(t.device_type in ("cpu", self.device_type)
                                        for t in indices):
        return None
    return "wrapper_CUDA_index_Tensor", torch_error(
        RuntimeError, f"indices should be either on cpu or on the same device as the indexed "
                      f"tensor ({_device(self)})")
