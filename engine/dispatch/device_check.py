"""The device check of torch's generated CUDA wrappers (RegisterCUDA.cpp).

torchgen (torchgen/dest/register_dispatch_key.py, gen_device_check) writes, at the top of
every CUDA wrapper of an operator whose ``device_check`` is not NoCheck, one
``c10::impl::check_and_update_common_device(common_device, arg, "wrapper", "arg")`` per
tensor-like argument, out= arguments first, then the flat positional ones, in schema
order.  The first defined tensor sets the common device; any later tensor elsewhere
fails with common_device_check_failure (aten/src/ATen/core/adaption.cpp) before the
kernel runs.  TensorIterator operators (``device_check: NoCheck``) have no such check:
theirs is TensorIterator::compute_types' (engine.dispatch.cuda.same_device_error).

WRAPPERS lists the declared operators whose CUDA wrapper checks: full name -> (the
wrapper's name, the checked arguments in order).  It is torchgen's output for torch
2.13, written down as data (tidx never imports torch); tests/cuda/test_cuda_device_check.py
derives it again from the wheel's torchgen and compares.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.schema import FunctionSchema

WRAPPERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "aten::_local_scalar_dense": ("wrapper_CUDA___local_scalar_dense", ("self",)),
    "aten::_unique": ("wrapper_CUDA___unique", ("self",)),
    "aten::_unique2": ("wrapper_CUDA___unique2", ("self",)),
    "aten::amax": ("wrapper_CUDA_amax", ("self",)),
    "aten::amax.out": ("wrapper_CUDA_amax_out_out", ("out", "self")),
    "aten::amin": ("wrapper_CUDA_amin", ("self",)),
    "aten::amin.out": ("wrapper_CUDA_amin_out_out", ("out", "self")),
    "aten::arange.start_out": ("wrapper_CUDA_start_out_arange_out", ("out",)),
    "aten::argmax.out": ("wrapper_CUDA_argmax_out_out", ("out", "self")),
    "aten::argmin.out": ("wrapper_CUDA_argmin_out_out", ("out", "self")),
    "aten::bucketize.Scalar": ("wrapper_CUDA_Scalar_bucketize", ("boundaries",)),
    "aten::bucketize.Tensor": ("wrapper_CUDA_Tensor_bucketize", ("self", "boundaries")),
    "aten::bucketize.Tensor_out":
        ("wrapper_CUDA_Tensor_out_bucketize_out", ("out", "self", "boundaries")),
    "aten::cat": ("wrapper_CUDA_cat", ("tensors",)),
    "aten::cat.out": ("wrapper_CUDA_cat_out_out", ("out", "tensors")),
    "aten::clamp.Tensor": ("wrapper_CUDA_clamp_Tensor", ("self", "min", "max")),
    "aten::clamp_.Tensor": ("wrapper_CUDA_clamp__Tensor", ("self", "min", "max")),
    "aten::clamp_max.Tensor": ("wrapper_CUDA_clamp_max_Tensor", ("self", "max")),
    "aten::clamp_max_.Tensor": ("wrapper_CUDA_clamp_max__Tensor", ("self", "max")),
    "aten::clamp_min.Tensor": ("wrapper_CUDA_clamp_min_Tensor", ("self", "min")),
    "aten::clamp_min_.Tensor": ("wrapper_CUDA_clamp_min__Tensor", ("self", "min")),
    "aten::count_nonzero.dim_IntList": ("wrapper_CUDA_dim_IntList_count_nonzero", ("self",)),
    "aten::cumsum_": ("wrapper_CUDA_cumsum_", ("self",)),
    "aten::equal": ("wrapper_CUDA__equal", ("self", "other")),
    "aten::eye.m_out": ("wrapper_CUDA_m_out_eye_out", ("out",)),
    "aten::eye.out": ("wrapper_CUDA_out_eye_out", ("out",)),
    "aten::flip": ("wrapper_CUDA__flip", ("self",)),
    "aten::gather": ("wrapper_CUDA_gather", ("self", "index")),
    "aten::gather.out": ("wrapper_CUDA_gather_out_out", ("out", "self", "index")),
    "aten::index_add": ("wrapper_CUDA_index_add", ("self", "index", "source")),
    "aten::index_add.out":
        ("wrapper_CUDA_index_add_out_out", ("out", "self", "index", "source")),
    "aten::index_add_": ("wrapper_CUDA_index_add_", ("self", "index", "source")),
    "aten::index_copy": ("wrapper_CUDA_index_copy", ("self", "index", "source")),
    "aten::index_copy.out":
        ("wrapper_CUDA_index_copy_out_out", ("out", "self", "index", "source")),
    "aten::index_copy_": ("wrapper_CUDA_index_copy_", ("self", "index", "source")),
    "aten::index_reduce": ("wrapper_CUDA_index_reduce", ("self", "index", "source")),
    "aten::index_reduce.out":
        ("wrapper_CUDA_index_reduce_out_out", ("out", "self", "index", "source")),
    "aten::index_reduce_": ("wrapper_CUDA_index_reduce_", ("self", "index", "source")),
    "aten::index_select": ("wrapper_CUDA__index_select", ("self", "index")),
    "aten::index_select.out": ("wrapper_CUDA_out_index_select_out", ("out", "self", "index")),
    "aten::isin.Scalar_Tensor": ("wrapper_CUDA_isin_Scalar_Tensor", ("test_elements",)),
    "aten::isin.Scalar_Tensor_out":
        ("wrapper_CUDA_isin_out_Scalar_Tensor_out", ("out", "test_elements")),
    "aten::isin.Tensor_Scalar": ("wrapper_CUDA_isin_Tensor_Scalar", ("elements",)),
    "aten::isin.Tensor_Scalar_out":
        ("wrapper_CUDA_isin_out_Tensor_Scalar_out", ("out", "elements")),
    "aten::isin.Tensor_Tensor":
        ("wrapper_CUDA_isin_Tensor_Tensor", ("elements", "test_elements")),
    "aten::isin.Tensor_Tensor_out":
        ("wrapper_CUDA_isin_out_Tensor_Tensor_out", ("out", "elements", "test_elements")),
    "aten::isneginf": ("wrapper_CUDA_isneginf", ("self",)),
    "aten::isneginf.out": ("wrapper_CUDA_isneginf_out_out", ("out", "self")),
    "aten::isposinf": ("wrapper_CUDA_isposinf", ("self",)),
    "aten::isposinf.out": ("wrapper_CUDA_isposinf_out_out", ("out", "self")),
    "aten::linspace.out": ("wrapper_CUDA_out_linspace_out", ("out",)),
    "aten::logspace.out": ("wrapper_CUDA_out_logspace_out", ("out",)),
    "aten::masked_scatter_": ("wrapper_CUDA__masked_scatter_", ("self", "mask", "source")),
    "aten::masked_select": ("wrapper_CUDA__masked_select", ("self", "mask")),
    "aten::masked_select.out": ("wrapper_CUDA_out_masked_select_out", ("out", "self", "mask")),
    "aten::nonzero": ("wrapper_CUDA__nonzero", ("self",)),
    "aten::nonzero_static": ("wrapper_CUDA__nonzero_static", ("self",)),
    "aten::nonzero_static.out": ("wrapper_CUDA_out_nonzero_static_out", ("out", "self")),
    "aten::put_": ("wrapper_CUDA__put_", ("self", "index", "source")),
    "aten::randperm.generator_out": ("wrapper_CUDA_generator_out_randperm_out", ("out",)),
    "aten::range.out": ("wrapper_CUDA_out_range_out", ("out",)),
    "aten::repeat_interleave.Tensor": ("wrapper_CUDA_Tensor_repeat_interleave", ("repeats",)),
    "aten::roll": ("wrapper_CUDA__roll", ("self",)),
    "aten::scatter.reduce": ("wrapper_CUDA_scatter_reduce", ("self", "index", "src")),
    "aten::scatter.reduce_out":
        ("wrapper_CUDA_scatter_out_reduce_out", ("out", "self", "index", "src")),
    "aten::scatter.src": ("wrapper_CUDA_scatter_src", ("self", "index", "src")),
    "aten::scatter.src_out":
        ("wrapper_CUDA_scatter_out_src_out", ("out", "self", "index", "src")),
    "aten::scatter.value": ("wrapper_CUDA_scatter_value", ("self", "index")),
    "aten::scatter.value_out": ("wrapper_CUDA_scatter_out_value_out", ("out", "self", "index")),
    "aten::scatter.value_reduce": ("wrapper_CUDA_scatter_value_reduce", ("self", "index")),
    "aten::scatter.value_reduce_out":
        ("wrapper_CUDA_scatter_out_value_reduce_out", ("out", "self", "index")),
    "aten::scatter_.reduce": ("wrapper_CUDA_scatter__reduce", ("self", "index", "src")),
    "aten::scatter_.src": ("wrapper_CUDA_scatter__src", ("self", "index", "src")),
    "aten::scatter_.value": ("wrapper_CUDA_scatter__value", ("self", "index")),
    "aten::scatter_.value_reduce": ("wrapper_CUDA_scatter__value_reduce", ("self", "index")),
    "aten::scatter_add": ("wrapper_CUDA_scatter_add", ("self", "index", "src")),
    "aten::scatter_add.out":
        ("wrapper_CUDA_scatter_add_out_out", ("out", "self", "index", "src")),
    "aten::scatter_add_": ("wrapper_CUDA_scatter_add_", ("self", "index", "src")),
    "aten::scatter_reduce.two": ("wrapper_CUDA_scatter_reduce_two", ("self", "index", "src")),
    "aten::scatter_reduce.two_out":
        ("wrapper_CUDA_scatter_reduce_out_two_out", ("out", "self", "index", "src")),
    "aten::scatter_reduce_.two": ("wrapper_CUDA_scatter_reduce__two", ("self", "index", "src")),
    "aten::searchsorted.Scalar": ("wrapper_CUDA_Scalar_searchsorted", ("sorted_sequence",)),
    "aten::searchsorted.Scalar_out":
        ("wrapper_CUDA_Scalar_out_searchsorted_out", ("out", "sorted_sequence")),
    "aten::searchsorted.Tensor":
        ("wrapper_CUDA_Tensor_searchsorted", ("sorted_sequence", "self")),
    "aten::searchsorted.Tensor_out":
        ("wrapper_CUDA_Tensor_out_searchsorted_out", ("out", "sorted_sequence", "self")),
    "aten::sort.stable": ("wrapper_CUDA_sort_stable", ("self",)),
    "aten::sort.values_stable":
        ("wrapper_CUDA_sort_out_values_stable", ("values", "indices", "self")),
    "aten::take": ("wrapper_CUDA__take", ("self", "index")),
    "aten::take.out": ("wrapper_CUDA_out_take_out", ("out", "self", "index")),
    "aten::topk": ("wrapper_CUDA_topk", ("self",)),
    "aten::topk.values": ("wrapper_CUDA_topk_out_values", ("values", "indices", "self")),
    "aten::tril": ("wrapper_CUDA_tril", ("self",)),
    "aten::tril.out": ("wrapper_CUDA_tril_out_out", ("out", "self")),
    "aten::tril_": ("wrapper_CUDA_tril_", ("self",)),
    "aten::triu": ("wrapper_CUDA_triu", ("self",)),
    "aten::triu.out": ("wrapper_CUDA_triu_out_out", ("out", "self")),
    "aten::triu_": ("wrapper_CUDA_triu_", ("self",)),
    "aten::unique_consecutive": ("wrapper_CUDA__unique_consecutive", ("self",)),
    "aten::unique_dim": ("wrapper_CUDA__unique_dim", ("self",)),
}


#: Operators with no device check of their own (no CUDA kernel: CompositeExplicitAutograd
#: or Implicit; or a NoCheck one that leaves it to a TensorIterator) whose tidx kernel only
#: calls other operators up to the check: with a CUDA and a CPU tensor they run until the
#: operator they call raises torch's mixed-device error (stack and concat: cat's wrapper;
#: where.self: where_self_out's TensorIterator), instead of being refused at the door.
RUN_TO_THE_CHECK = frozenset({"aten::stack", "aten::concat", "aten::concatenate",
                              "aten::where.self"})


def _all_tensors(values) -> list[TensorImpl]:
    return [t for v in values for t in _tensors(v)]


def mixes_devices(args: tuple, kwargs: dict) -> bool:
    """Do a CUDA tensor and a CPU tensor meet in this call?"""
    devices = {t.device_type for t in _all_tensors((*args, *kwargs.values()))}
    return {"cuda", "cpu"} <= devices


def runs_to_its_check(name: str, args: tuple, kwargs: dict) -> bool:
    """Is this a call of RUN_TO_THE_CHECK with mixed devices (run it, not refuse it)?"""
    return name in RUN_TO_THE_CHECK and mixes_devices(args, kwargs)


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


def device_error(name: str, schema: str, args: tuple, kwargs: dict
                 ) -> tuple[str, BaseException] | None:
    """The error the CUDA wrapper of ``name`` raises on the call's devices, with the
    wrapper's name (the kernel the dispatcher entered), or None.  The arguments are bound
    as the binding passes them: positional in the schema's order, keyword-only and out=
    by name."""
    if name == "aten::index.Tensor":
        return _index_devices(args)
    entry = WRAPPERS.get(name)
    if entry is None:
        return None
    wrapper, checked = entry
    s = _parsed(schema)
    bound = dict(zip((a.name for a in s.positional), args))
    bound.update(kwargs)
    common: str | None = None
    for arg in checked:
        for t in _tensors(bound.get(arg)):
            if common is None:
                common = _device(t)
            elif _device(t) != common:
                return wrapper, torch_error(
                    RuntimeError,
                    f"Expected all tensors to be on the same device, but got {arg} is on "
                    f"{_device(t)}, different from other tensors on {common} (when checking "
                    f"argument in method {wrapper})")
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
