"""The lecture view's name-keyed tables, while the engine moves to step specs
(tracer/steps.py): a step recorded without a spec is treated by its name.  Goes when
every step has its spec."""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]

#: Steps folded away wherever they are, by layer: the checks and plumbing around the
#: steps the seeds teach.
HIDDEN: dict[str, frozenset[str]] = {
    "binding": frozenset({
        "wrapTuple", "count_specified_dimensions", "sequenceToVariable",
        "recursive_to_list", "recursive_store", "scalar_tensor_static",
        "autograd::make_variable",
    }),
    "indexing": frozenset({"slicePrefix1sSize", "typeConvertIndices"}),
    "memory": frozenset({"check_size_nonnegative"}),
    "kernel": frozenset({
        "TensorIterator", "assert_no_overlap", "canDispatchToMaskedFill",
        "checkIndexTensorTypes", "make_index_put_iterator", "expand_outplace",
        "expand_inplace", "restride_src", "reshape_indexer", "result_type", "check_args",
        "cast_common_dtype_to_outputs", "transposeToFront", "lift_fresh", "detach",
        "detach_", "computeStride", "reshape_symint",
        # DispatchStub picking a build (engine/core/dispatch_stub.py): the kernel's own
        # line says which (capability=AVX2); --full gives the step and its why
        "sum_stub", "prod_stub", "max_values_stub", "min_values_stub", "linspace_stub",
        "arange_stub", "add_stub", "normal_stub", "uniform_stub",
    }),
}

#: Steps shown on one line with everything they ran folded into it: what they do is
#: the lesson, how they do it is not (``valueToTensor``: ``10`` becomes a 0-dim tensor;
#: its empty/allocate/fill are the same steps ``torch.empty`` teaches).
FOLD_INSIDE: frozenset[str] = frozenset({"valueToTensor", "make_info"})

#: Steps whose inside is taught once per document: the first ``empty`` of a lesson shows
#: computeStorageNbytes, the allocator, StorageImpl, TensorImpl and the strides; every
#: later one is a line that folds them (a lesson's setup statements would otherwise
#: repeat the same seven lines each).
FOLD_INSIDE_AFTER_FIRST: frozenset[str] = frozenset({"_empty_generic",
                                                     "empty_strided_generic",
                                                     # a simulated CUDA tensor's death
                                                     "last reference dropped"})

#: Moves of a tensor to another device (engine/ops/cuda_indexing.py), shown wherever they
#: are, inside a folded step too (make_info's index moves are the lesson of indexing a
#: CUDA tensor); their inside is folded but for :data:`LIFTED`.
TRANSFERS: frozenset[str] = frozenset({"value.to(self.device())",
                                       "indice.to(self.device())"})

#: Steps a transfer's line shows directly under it, the chain that leads to them
#: (aten::to -> _to_copy -> empty_strided, copy_ -> copy_kernel_cuda) counted on the
#: transfer's own line: the bytes crossing to the device are what it teaches.
LIFTED: frozenset[str] = frozenset({"cudaMemcpyAsync"})


#: The allocator steps that tell one allocation path from another: the CPU allocator, or
#: the caching allocator with (a new segment) or without (a cached block) cudaMalloc.
_PATH_STEPS = frozenset({"DefaultCPUAllocator::allocate", "CUDACachingAllocator::allocate",
                         "alloc_block", "cudaMalloc"})


def legacy_treatment(ev: Event) -> str:
    """A step recorded without a spec, by name (while the engine moves to specs)."""
    name = ev["name"]
    if name in TRANSFERS:
        return "transfer"
    if name in LIFTED:
        return "lifted"
    if name in FOLD_INSIDE:
        return "fold_inside"
    if name in FOLD_INSIDE_AFTER_FIRST:
        return "fold_inside_after_first"
    if name in _PATH_STEPS:
        return "allocation_path"
    if name in HIDDEN.get(ev["layer"], ()):
        return "hidden"
    return "shown"
