"""Operators whose Meta kernel torch 2.13 runs in Python.

``import torch`` registers Python meta functions (torch/_meta_registrations.py, many of
them torch._refs decompositions into prims) for the Meta dispatch key, over the C++
structured meta functions tidx follows; ``torch._C._dispatch_dump("aten::add.Tensor")``
lists the C++ one as "Meta (inactive)".  On a meta tensor those operators run other
aten and prims operators (``z + z`` is aten::add -> prims::add -> empty_permuted ...),
which tidx does not model, so the dispatcher refuses them there rather than show the
C++ path torch does not take.  Factories and the fills they end in record the same
operators either way (compared with torch.profiler in tests/ops/test_meta_python.py).

The table is torch's own answer, written down so the engine never imports torch; the
test re-derives it from the installed wheel.
"""

from __future__ import annotations

#: aten operators (with overload) whose active Meta kernel is a Python registration
PYTHON_META: frozenset[str] = frozenset({
    "aten::_local_scalar_dense", "aten::_unsafe_view", "aten::abs", "aten::abs.out",
    "aten::abs_", "aten::add.Tensor", "aten::add.out", "aten::add_.Tensor", "aten::all",
    "aten::all.all_out", "aten::all.dim", "aten::all.dims", "aten::all.dims_out",
    "aten::all.out", "aten::amax", "aten::amax.out", "aten::amin", "aten::amin.out",
    "aten::any", "aten::any.all_out", "aten::any.dim", "aten::any.dims", "aten::any.dims_out",
    "aten::any.out", "aten::arange", "aten::arange.out", "aten::arange.start",
    "aten::arange.start_out", "aten::arange.start_step", "aten::argmax", "aten::argmin",
    "aten::bitwise_and.Scalar", "aten::bitwise_and.Scalar_Tensor",
    "aten::bitwise_and.Scalar_out", "aten::bitwise_and.Tensor", "aten::bitwise_and.Tensor_out",
    "aten::bitwise_and_.Scalar", "aten::bitwise_and_.Tensor", "aten::bitwise_not",
    "aten::bitwise_not.out", "aten::bitwise_not_", "aten::bitwise_or.Scalar",
    "aten::bitwise_or.Scalar_Tensor", "aten::bitwise_or.Scalar_out", "aten::bitwise_or.Tensor",
    "aten::bitwise_or.Tensor_out", "aten::bitwise_or_.Scalar", "aten::bitwise_or_.Tensor",
    "aten::bitwise_xor.Scalar", "aten::bitwise_xor.Scalar_Tensor",
    "aten::bitwise_xor.Scalar_out", "aten::bitwise_xor.Tensor", "aten::bitwise_xor.Tensor_out",
    "aten::bitwise_xor_.Scalar", "aten::bitwise_xor_.Tensor", "aten::bucketize.Scalar",
    "aten::bucketize.Tensor", "aten::bucketize.Tensor_out", "aten::cat", "aten::cat.out",
    "aten::clamp", "aten::clamp.Tensor", "aten::clamp.Tensor_out", "aten::clamp.out",
    "aten::clamp_", "aten::clamp_.Tensor", "aten::clamp_max", "aten::clamp_max.Tensor",
    "aten::clamp_max.Tensor_out", "aten::clamp_max.out", "aten::clamp_max_",
    "aten::clamp_max_.Tensor", "aten::clamp_min", "aten::clamp_min.Tensor",
    "aten::clamp_min.Tensor_out", "aten::clamp_min.out", "aten::clamp_min_",
    "aten::clamp_min_.Tensor", "aten::count_nonzero", "aten::count_nonzero.dim_IntList",
    "aten::cumsum", "aten::cumsum.out", "aten::cumsum_", "aten::diag_embed",
    "aten::diagonal_copy", "aten::diagonal_copy.out", "aten::diagonal_scatter",
    "aten::div.Scalar_mode", "aten::div.Tensor", "aten::div.Tensor_mode", "aten::div.out",
    "aten::div.out_mode", "aten::div_.Scalar", "aten::div_.Scalar_mode", "aten::div_.Tensor",
    "aten::div_.Tensor_mode", "aten::empty_like", "aten::eq.Scalar", "aten::eq.Scalar_out",
    "aten::eq.Tensor", "aten::eq.Tensor_out", "aten::eq_.Scalar", "aten::eq_.Tensor",
    "aten::eye", "aten::eye.m", "aten::eye.m_out", "aten::eye.out", "aten::fill_.Scalar",
    "aten::fill_.Tensor", "aten::flip", "aten::floor_divide", "aten::floor_divide.Scalar",
    "aten::floor_divide.out", "aten::floor_divide_.Scalar", "aten::floor_divide_.Tensor",
    "aten::fmod.Scalar", "aten::fmod.Scalar_out", "aten::fmod.Tensor", "aten::fmod.Tensor_out",
    "aten::fmod_.Scalar", "aten::fmod_.Tensor", "aten::full", "aten::full.out", "aten::gather",
    "aten::ge.Scalar", "aten::ge.Scalar_out", "aten::ge.Tensor", "aten::ge.Tensor_out",
    "aten::ge_.Scalar", "aten::ge_.Tensor", "aten::gt.Scalar", "aten::gt.Scalar_out",
    "aten::gt.Tensor", "aten::gt.Tensor_out", "aten::gt_.Scalar", "aten::gt_.Tensor",
    "aten::index.Tensor", "aten::index_add", "aten::index_add.out", "aten::index_add_",
    "aten::index_copy", "aten::index_copy.out", "aten::index_copy_",
    "aten::index_fill.int_Scalar", "aten::index_fill.int_Tensor",
    "aten::index_fill_.int_Scalar", "aten::index_fill_.int_Tensor", "aten::index_put",
    "aten::index_put_", "aten::index_reduce", "aten::index_reduce_", "aten::index_select",
    "aten::index_select.out", "aten::is_same_size", "aten::isin.Scalar_Tensor",
    "aten::isin.Scalar_Tensor_out", "aten::isin.Tensor_Scalar", "aten::isin.Tensor_Scalar_out",
    "aten::isin.Tensor_Tensor", "aten::isin.Tensor_Tensor_out", "aten::isinf", "aten::isnan",
    "aten::isneginf", "aten::isneginf.out", "aten::isposinf", "aten::isposinf.out",
    "aten::le.Scalar", "aten::le.Scalar_out", "aten::le.Tensor", "aten::le.Tensor_out",
    "aten::le_.Scalar", "aten::le_.Tensor", "aten::linspace", "aten::linspace.Scalar_Tensor",
    "aten::linspace.Scalar_Tensor_out", "aten::linspace.Tensor_Scalar",
    "aten::linspace.Tensor_Scalar_out", "aten::linspace.Tensor_Tensor",
    "aten::linspace.Tensor_Tensor_out", "aten::linspace.out", "aten::logical_and",
    "aten::logical_and.out", "aten::logical_and_", "aten::logical_not",
    "aten::logical_not.out", "aten::logical_not_", "aten::logical_or", "aten::logical_or.out",
    "aten::logical_or_", "aten::logical_xor", "aten::logical_xor.out", "aten::logical_xor_",
    "aten::logspace", "aten::logspace.Scalar_Tensor", "aten::logspace.Scalar_Tensor_out",
    "aten::logspace.Tensor_Scalar", "aten::logspace.Tensor_Scalar_out",
    "aten::logspace.Tensor_Tensor", "aten::logspace.Tensor_Tensor_out", "aten::logspace.out",
    "aten::lt.Scalar", "aten::lt.Scalar_out", "aten::lt.Tensor", "aten::lt.Tensor_out",
    "aten::lt_.Scalar", "aten::lt_.Tensor", "aten::masked_fill.Scalar",
    "aten::masked_fill.Tensor", "aten::masked_fill_.Scalar", "aten::masked_fill_.Tensor",
    "aten::masked_scatter", "aten::masked_scatter_", "aten::max", "aten::max.dim",
    "aten::max.unary_out", "aten::maximum", "aten::maximum.out", "aten::mean",
    "aten::mean.dim", "aten::mean.dtype_out", "aten::mean.out", "aten::min", "aten::min.dim",
    "aten::min.unary_out", "aten::minimum", "aten::minimum.out", "aten::mul.Tensor",
    "aten::mul.out", "aten::mul_.Tensor", "aten::ne.Scalar", "aten::ne.Scalar_out",
    "aten::ne.Tensor", "aten::ne.Tensor_out", "aten::ne_.Scalar", "aten::ne_.Tensor",
    "aten::neg", "aten::neg.out", "aten::neg_", "aten::new_empty", "aten::new_empty_strided",
    "aten::new_full", "aten::new_ones", "aten::new_zeros", "aten::nonzero",
    "aten::nonzero_static", "aten::nonzero_static.out", "aten::normal_", "aten::ones",
    "aten::ones.out", "aten::ones_like", "aten::pow.Scalar", "aten::pow.Scalar_out",
    "aten::pow.Tensor_Scalar", "aten::pow.Tensor_Scalar_out", "aten::pow.Tensor_Tensor",
    "aten::pow.Tensor_Tensor_out", "aten::pow_.Scalar", "aten::pow_.Tensor", "aten::prod",
    "aten::prod.dim_int", "aten::prod.int_out", "aten::rand", "aten::rand.out",
    "aten::randint", "aten::randint.low", "aten::randint.low_out", "aten::randint.out",
    "aten::randint_like.Tensor", "aten::randn", "aten::randperm",
    "aten::randperm.generator_out", "aten::reciprocal", "aten::reciprocal.out",
    "aten::reciprocal_", "aten::relu", "aten::relu_", "aten::remainder.Scalar",
    "aten::remainder.Scalar_Tensor", "aten::remainder.Scalar_out", "aten::remainder.Tensor",
    "aten::remainder.Tensor_out", "aten::remainder_.Scalar", "aten::remainder_.Tensor",
    "aten::repeat", "aten::repeat_interleave.Tensor", "aten::roll", "aten::rsub.Scalar",
    "aten::rsub.Tensor", "aten::scalar_tensor", "aten::scatter.reduce", "aten::scatter.src",
    "aten::scatter.value", "aten::scatter.value_reduce", "aten::scatter_.reduce",
    "aten::scatter_.src", "aten::scatter_.value", "aten::scatter_.value_reduce",
    "aten::scatter_add", "aten::scatter_add_", "aten::scatter_reduce.two",
    "aten::scatter_reduce.two_out", "aten::scatter_reduce_.two", "aten::searchsorted.Scalar",
    "aten::searchsorted.Scalar_out", "aten::searchsorted.Tensor",
    "aten::searchsorted.Tensor_out", "aten::select_scatter", "aten::sign", "aten::sign.out",
    "aten::sign_", "aten::slice_scatter", "aten::slice_scatter.out", "aten::sort",
    "aten::sort.stable", "aten::sort.values", "aten::sort.values_stable", "aten::stack",
    "aten::stack.out", "aten::sub.Tensor", "aten::sub.out", "aten::sub_.Tensor", "aten::sum",
    "aten::sum.IntList_out", "aten::sum.dim_IntList", "aten::take", "aten::take.out",
    "aten::topk", "aten::transpose_", "aten::tril", "aten::tril.out", "aten::tril_",
    "aten::tril_indices", "aten::triu", "aten::triu.out", "aten::triu_", "aten::triu_indices",
    "aten::uniform_", "aten::unsqueeze_", "aten::where.self", "aten::where.self_out",
    "aten::zero_", "aten::zeros", "aten::zeros.out", "aten::zeros_like",
})

#: Of those, the ones whose Python meta function runs no other operator (it checks and
#: returns self, or raises torch's error): the trace is the same as tidx's
SAME_ON_META: frozenset[str] = frozenset({
    "aten::fill_.Scalar", "aten::zero_", "aten::_local_scalar_dense", "aten::new_empty",
    "aten::new_empty_strided",
})
