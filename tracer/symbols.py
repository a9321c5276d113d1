"""Which steps of a trace are functions of libtorch 2.13 that gdb can break on.

tidx's steps follow PyTorch's C++, but a release build (the wheel on PyPI) compiles
many small functions into their callers: ``c10::StorageImpl``'s constructor and
``generic_set_sizes_contiguous`` leave no function to stop in.  This module is the one
place that says, for a step, which function of the binary runs it (the ``gdb`` location
tidx breaks on) or why there is none.  The facts come from the symbols of the torch
2.13.0 CPU wheel (``nm -C lib/libtorch_cpu.so``, ``libtorch_python.so``, ``libc10.so``)
and from running the seeds' statements under gdb: tests/test_gdb_libtorch.py checks
every function named here against the wheel and the seeds' paths against the binary.

:func:`lookup` answers for one event; the recorder stores its answer in every event
(``"libtorch"``, docs/trace-format.md), and ``--format gdb`` (tracer/render/gdb.py)
writes the breakpoints from it.
"""

from __future__ import annotations

from typing import Any

#: Why a step has no breakpoint (the ``why`` of :func:`lookup`).
PYTHON = "python"       # Python code in torch/*.py: pdb's business, not gdb's
INLINED = "inlined"     # a C++ function the release build compiled into its caller
PART = "part"           # a part of one C++ function (a branch, a computation), not a call
UNMAPPED = "unmapped"   # tidx has not matched this step to a function of the wheel

#: Steps that are calls of a function of the wheel: step name -> gdb location (a
#: function name; gdb breaks on every overload and every copy, e.g. the DEFAULT, AVX2
#: and AVX512 builds of a CPU kernel, which the name without namespace matches).
FUNCTIONS: dict[str, str] = {
    # torch/csrc (libtorch_python.so)
    "THPVariable_Wrap": "THPVariable_Wrap",
    # Tensor.untyped_storage is bound to THPVariable_storage (python_variable_methods.cpp)
    "THPVariable_untyped_storage": "torch::autograd::THPVariable_storage",
    "valueToTensor": "torch::autograd::valueToTensor",
    # a Python number bound to a Tensor parameter (torch/csrc/utils/python_arg_parser.cpp)
    "PythonArgs::tensor_slow": "torch::PythonArgs::tensor_slow",
    "wrapTuple": "torch::autograd::wrapTuple",
    "count_specified_dimensions": "torch::autograd::count_specified_dimensions",
    # python_variable_indexing.cpp's own applySlicing (it reads the Python index), not
    # TensorIndexing.h's at::indexing::impl::applySlicing of the C++ API
    "applySlicing": "torch::autograd::applySlicing",
    "TensorIndex": "at::indexing::TensorIndex::TensorIndex",
    # ATen/TensorIndexing.h (its inline functions have copies in both libraries)
    "handleDimInMultiDimIndexing": "at::indexing::handleDimInMultiDimIndexing",
    "applySelect": "at::indexing::impl::applySelect",
    "applySlice": "at::indexing::impl::applySlice",
    "recordTensorIndex": "at::indexing::impl::recordTensorIndex",
    "boolToIndexingTensor": "at::indexing::impl::boolToIndexingTensor",
    "slicePrefix1sSize": "at::indexing::slicePrefix1sSize",
    "dispatch_index_put_": "at::indexing::dispatch_index_put_",
    "copy_to": "at::indexing::copy_to",
    "get_item": "at::indexing::get_item",
    "set_item": "at::indexing::set_item",
    "dispatch_index": "at::indexing::dispatch_index",
    # ATen: memory
    "scalar_tensor_static": "at::detail::scalar_tensor_static",
    # _empty_generic<int64_t> is compiled into empty_generic, which only calls it
    "_empty_generic": "at::detail::empty_generic",
    "check_size_nonnegative": "at::detail::check_size_nonnegative",
    "computeStorageNbytesContiguous": "at::detail::computeStorageNbytesContiguous",
    "DefaultCPUAllocator::allocate": "c10::DefaultCPUAllocator::allocate",
    # the constructor make_tensor<TensorImpl>(storage, keys, dtype) calls for a new
    # tensor; by its signature, so that a view's TensorImpl (VIEW, storage, ...), made in
    # as_strided_tensorimpl, does not stop here
    "TensorImpl": "c10::TensorImpl::TensorImpl(c10::Storage&&, c10::DispatchKeySet, "
                  "caffe2::TypeMeta)",
    # ATen: the random generator (normal_kernel fetches the default one first)
    "CPUGeneratorImpl": "at::detail::getDefaultCPUGenerator",
    "CPUGeneratorImpl::set_current_seed": "at::CPUGeneratorImpl::set_current_seed",
    # ATen: kernels
    "TensorIterator": "at::TensorIteratorBase::build",
    # one step for a kernel's overlap checks (engine/ops/overlap.py check()); the one
    # with the internal check starts with it, as TensorIterator's compute_mem_overlaps
    # does (see OVERLAP_CHECKS)
    "assert_no_overlap": "at::assert_no_overlap",
    "copy_kernel": "copy_kernel",
    "canDispatchToMaskedFill": "at::native::canDispatchToMaskedFill",
    "make_info": "at::native::make_info",
    "expand_outplace": "at::expand_outplace",
    "computeStride": "at::detail::computeStride",
    "cpu_index_put_kernel": "at::native::(anonymous namespace)::index_put_kernel",
}

#: The overlap step's function by its note: the checks of a written tensor itself first
#: (copy_'s TensorIterator), or only against its inputs (index_put_).
OVERLAP_CHECKS: dict[str, str] = {"overlap.check": "at::assert_no_internal_overlap",
                                  "overlap.check_inputs": "at::assert_no_overlap"}

#: The property getters of python_variable.cpp (static, outside any namespace) tidx
#: matched: the property -> its getter.  ``dtype``'s is THPVariable_dtype, no ``get_``.
GETTERS: dict[str, str] = {
    "dtype": "THPVariable_dtype", "device": "THPVariable_device",
    "layout": "THPVariable_layout", "shape": "THPVariable_get_shape",
    "ndim": "THPVariable_get_ndim", "nbytes": "THPVariable_get_nbytes",
    "itemsize": "THPVariable_get_itemsize",
}

#: Steps whose C++ function the release build compiled into its caller: step name ->
#: (the function, the caller to break on instead).
INLINED_INTO: dict[str, tuple[str, str]] = {
    "scalar_fill": ("at::detail::scalar_fill", "at::detail::scalar_tensor_static"),
    "StorageImpl": ("c10::StorageImpl::StorageImpl", "at::detail::empty_generic"),
    "generic_set_sizes_contiguous": ("c10::TensorImpl::generic_set_sizes_contiguous<int64_t>",
                                     "at::detail::empty_generic"),
    "normal_kernel": ("at::native::templates::cpu::normal_kernel",
                      "at::native::(anonymous namespace)::normal_kernel"),
    "setStrided": ("at::native::setStrided<int64_t>", "at::native::as_strided_tensorimpl"),
    "typeConvertIndices": ("at::indexing::impl::typeConvertIndices",
                           "at::indexing::dispatch_index_put_"),
    "checkIndexTensorTypes": ("at::native::checkIndexTensorTypes", "at::native::make_info"),
    "restride_src": ("at::native::restride_src", "at::native::make_info"),
    "reshape_indexer": ("at::native::reshape_indexer", "at::native::make_info"),
    # it has a symbol, but index_put_'s call is compiled in
    "make_index_put_iterator": ("at::native::(anonymous namespace)::make_index_put_iterator",
                                "at::native::_index_put_impl_"),
}

#: TensorIndex's constructors by the index's type: the release build inlines the one
#: taking a Slice into applySlicing.
TENSOR_INDEX_INLINED = frozenset({"Slice"})

#: Steps that are a part of one function (tidx shows a computation or a branch inside
#: it as a step of its own): step name -> that function.
PART_OF: dict[str, str] = {
    "randn = empty + normal_": "at::native::randn",
    "lift_fresh": "at::native::lift_fresh",
    "select geometry": "at::native::select_symint",
    "reshape_symint": "at::native::reshape_symint",
    # the moves to a CUDA self's device (engine/ops/cuda_indexing.py): lines of these
    "value.to(self.device())": "at::native::_index_put_impl_",
    "indice.to(self.device())": "at::native::make_info",
}

#: Kernels a dispatcher step names that are no function of that name in the wheel.
NOT_A_SYMBOL: frozenset[str] = frozenset({"at::native::argsort_stable", "at::native::zeros"})


def _str(value: Any, key: str) -> str | None:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def answer(libtorch: Any, event: dict[str, Any]) -> dict[str, Any]:
    """An event's ``libtorch`` field from its spec's :class:`tracer.steps.Libtorch`
    (a dispatcher step's from its kernel argument; a step without a spec by name)."""
    if libtorch is None:
        return lookup(event)
    if libtorch.rule == "kernel":
        return _from_kernel(event.get("args") or {})
    if libtorch.rule:   # a family's member: the function named after the step
        return {**libtorch.answer(), "function": libtorch.rule.format(name=event["name"]),
                "why": None, "breakable": True}
    return libtorch.answer()


def _from_kernel(args: dict[str, Any]) -> dict[str, Any]:
    """A dispatcher step's ``libtorch``: the kernel it names, when that is a function."""
    kernel = _str(args.get("kernel"), "value")

    def answer(function: str | None, why: str | None) -> dict[str, Any]:
        return {"breakable": why is None, "function": function, "into": None, "why": why}

    # a "(structured)" kernel is a generated wrapper running meta() then the class
    # structured_NAME's impl(): no function of the declared name starts the step
    # (impl() comes after meta's allocation of the result)
    if (kernel and kernel.startswith("at::native::") and " " not in kernel
            and kernel not in NOT_A_SYMBOL):
        return answer(kernel, None)
    if kernel and kernel.startswith("torch::autograd::VariableType::"):
        # an Autograd kernel written by hand (VariableTypeManual.cpp: detach_)
        return answer(kernel, None)
    return answer(kernel, UNMAPPED)


def lookup(event: dict[str, Any]) -> dict[str, Any]:
    """Whether gdb can break on a step (an event's ``name``, ``layer``, ``args``,
    ``note_id`` and ``result``), as the event's ``libtorch`` field: ``breakable``,
    ``function`` (the gdb location, or the inlined function), ``into`` (where an
    inlined step or a part runs) and ``why`` (None when breakable).

    >>> lookup({"name": "computeStorageNbytesContiguous", "layer": "memory"})["function"]
    'at::detail::computeStorageNbytesContiguous'
    >>> [lookup({"name": n, "layer": layer})["why"]
    ...  for n, layer in (("StorageImpl", "memory"), ("torch.randn", "python"))]
    ['inlined', 'python']
    >>> lookup({"name": "aten::randn", "layer": "dispatcher",
    ...         "args": {"kernel": {"kind": "str", "value": "at::native::randn"}}})["breakable"]
    True
    >>> lookup({"name": "aten::index", "layer": "dispatcher", "args": {"kernel": {
    ...     "kind": "str", "value": "at::native::index_out (structured)"}}})["why"]
    'unmapped'

    """
    name, layer = event["name"], event["layer"]
    args = event.get("args") or {}

    def answer(function: str | None, why: str | None, into: str | None = None):
        return {"breakable": why is None, "function": function, "into": into, "why": why}

    if layer == "python":
        return answer(None, PYTHON)
    if layer == "dispatcher":
        return _from_kernel(args)
    if name == "assert_no_overlap" and event.get("note_id") in OVERLAP_CHECKS:
        return answer(OVERLAP_CHECKS[event["note_id"]], None)
    if name == "TensorIndex" and _str(event.get("result"), "type") in TENSOR_INDEX_INLINED:
        return answer(FUNCTIONS[name], INLINED, FUNCTIONS["applySlicing"])
    if name in FUNCTIONS:
        return answer(FUNCTIONS[name], None)
    if name in INLINED_INTO:
        function, into = INLINED_INTO[name]
        return answer(function, INLINED, into)
    if name in PART_OF:
        return answer(None, PART, PART_OF[name])
    if layer == "binding" and name.startswith("THPVariable_get_"):
        getter = GETTERS.get(name.removeprefix("THPVariable_get_"))
        return answer(getter, None) if getter else answer(None, UNMAPPED)
    if layer == "binding" and name.startswith("THPVariable_"):
        # the generated bindings of torch.* and Tensor.* (python_torch_functions.cpp,
        # python_variable_methods.cpp ...) and indexing's, all in torch::autograd
        return answer(f"torch::autograd::{name}", None)
    return answer(None, UNMAPPED)
