"""The out= overloads (issue #26) compared with torch 2.13: each family's out= form into
out= tensors of every kind -- empty, of the right shape, too small, too big, 0-element,
non-contiguous, of another dtype, the input itself -- for the result's values, the out=
tensor's sizes, strides and dtype after the call, torch's errors word for word, the
operator tree torch.profiler records, ``r is out``, and the resize warning
("An output with one or more elements was resized ...") where torch gives it.

The kernels' out= paths differ by kind, as torch's do: structured kernels resize in the
meta step (pow.Tensor_Scalar_out, cat.out), a composite calls another operator's out=
(square.out is pow's, negative.out neg's, hstack.out cat's), stack.out resizes first and
cats into a view of its out= tensor when the strides allow one.
"""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings, strategies as st

from conftest import examples, require_torch
from oracle import assert_like_torch

pytestmark = pytest.mark.torch

A = "a = torch.arange(6.).reshape(2, 3); "
L = "a = torch.arange(6).reshape(2, 3); "

#: (statement, whether torch raises): each family's out= forms, the out= tensor drawn in
#: every kind the brief names
CASES = [
    # pow.Tensor_Scalar_out: structured (TensorIterator), the exponent 0/1 shortcuts write
    # the out= tensor itself
    A + "o = torch.empty(0); y = torch.pow(a, 2, out=o)",
    A + "o = torch.empty(2, 3); y = torch.pow(a, 3, out=o)",
    A + "o = torch.empty(5); y = torch.pow(a, 2, out=o)",
    A + "o = torch.empty(3, 2).t(); y = torch.pow(a, 2, out=o)",
    A + "o = torch.empty(0, dtype=torch.long); y = torch.pow(a, 2, out=o)",
    A + "o = torch.empty(0); y = torch.pow(a, 1, out=o)",
    A + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.pow(a, 1, out=o)",
    A + "o = torch.empty(2, 3, dtype=torch.float64); y = torch.pow(a, 0, out=o)",
    L + "o = torch.empty(2, 3); y = torch.pow(a, 2, out=o)",
    L + "o = torch.empty(0, dtype=torch.long); y = torch.pow(a, -1, out=o)",
    A + "y = torch.pow(a, 2, out=a); o = a",
    A + "o = torch.empty(0); y = torch.pow(a[:, :1], 2, out=a)",
    # pow.Scalar_out: the out= keeps its dtype, resized to the exponent's shape
    A + "o = torch.empty(0); y = torch.pow(2, a, out=o)",
    A + "o = torch.empty(0); y = torch.pow(1, a, out=o)",
    A + "o = torch.empty(4); y = torch.pow(2, a, out=o)",
    L + "o = torch.empty(0); y = torch.pow(2, a, out=o)",
    L + "o = torch.empty(0, dtype=torch.long); y = torch.pow(2.5, a, out=o)",
    # composites: square_out is pow_out, negative/absolute/fix/true_divide the aliases'
    A + "o = torch.empty(0); y = torch.square(a, out=o)",
    A + "o = torch.empty(7); y = torch.square(a, out=o)",
    A + "o = torch.empty(0); y = torch.negative(a, out=o)",
    A + "o = torch.empty(0); y = torch.absolute(-a, out=o)",
    A + "o = torch.empty(0); y = torch.fix(a / 4, out=o)",
    A + "o = torch.empty(0); y = torch.true_divide(a, 4, out=o)",
    L + "o = torch.empty(0, dtype=torch.long); y = torch.true_divide(a, 4, out=o)",
    # cat.out: structured; the dtype check before the resize, the overlap check after it
    A + "o = torch.empty(0); y = torch.cat([a, a], out=o)",
    A + "o = torch.empty(4, 3); y = torch.cat([a, a], out=o)",
    A + "o = torch.empty(5); y = torch.cat([a, a], 1, out=o)",
    A + "o = torch.empty(3, 4).t(); y = torch.cat([a, a], out=o)",
    A + "o = torch.empty(6, 2).t(); y = torch.cat([a, a], 1, out=o)",
    A + "o = torch.empty(0, dtype=torch.long); y = torch.cat([a, a], out=o)",
    L + "o = torch.empty(0); y = torch.cat([a, a], out=o)",
    L + "o = torch.empty(0, dtype=torch.float64); y = torch.cat([a, a.float()], out=o)",
    A + "y = torch.cat([a, a], out=a); o = a",
    A + "o = torch.empty(0); y = torch.cat([a, torch.empty(0)], out=o)",
    "o = torch.empty(3); y = torch.cat([torch.empty(0), torch.empty(0)], out=o)",
    # stack.out: resize_output, then cat into a view of the out= tensor, or cat of the
    # unsqueezed inputs
    A + "o = torch.empty(0); y = torch.stack([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.stack([a, a], 2, out=o)",
    A + "o = torch.empty(2, 2, 3); y = torch.stack([a, a], 1, out=o)",
    A + "o = torch.empty(3, 2, 2).permute(2, 1, 0); y = torch.stack([a, a], 0, out=o)",
    A + "o = torch.empty(3, 2, 2).permute(1, 2, 0); y = torch.stack([a, a], 1, out=o)",
    A + "o = torch.empty(9); y = torch.stack([a, a], -1, out=o)",
    A + "o = torch.empty(0, dtype=torch.int32); y = torch.stack([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.stack([a, a[:1]], out=o)",
    # the stacks and concat: cat_out after atleast_Nd / reshape
    A + "o = torch.empty(0); y = torch.hstack([a, a], out=o)",
    "a = torch.arange(3.); o = torch.empty(0); y = torch.hstack([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.vstack([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.row_stack([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.dstack([a, a], out=o)",
    "a = torch.arange(3.); o = torch.empty(0); y = torch.column_stack([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.concat([a, a], out=o)",
    A + "o = torch.empty(0); y = torch.concatenate([a, a], 1, out=o)",
    # sum.IntList_out and mean.out: resize_reduction into the out= tensor, in its dtype
    # (or the dtype= it must have); mean.dtype_out is mean.out over every dim
    A + "o = torch.empty(0); y = torch.sum(a, 1, out=o)",
    A + "o = torch.empty(5); y = torch.sum(a, 1, out=o)",
    A + "o = torch.empty(0, dtype=torch.long); y = torch.sum(a, 1, out=o)",
    L + "o = torch.empty(0); y = torch.sum(a, 0, keepdim=True, out=o)",
    A + "o = torch.empty(0); y = torch.sum(a, 1, dtype=torch.float64, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.sum(a, 1, dtype=torch.float64, out=o)",
    A + "o = torch.empty(4)[::2]; y = torch.sum(a, 1, out=o)",
    A + "o = torch.empty(0); y = torch.sum(a, 2, out=o)",
    A + "o = torch.empty(0); y = torch.mean(a, 1, out=o)",
    A + "o = torch.empty(3); y = torch.mean(a, 1, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.mean(a, 1, out=o)",
    A + "o = torch.empty(0, dtype=torch.long); y = torch.mean(a, 1, out=o)",
    L + "o = torch.empty(0); y = torch.mean(a, 1, out=o)",
    A + "o = torch.empty(4)[::2]; y = torch.mean(a, 1, out=o)",
    A + "o = torch.empty(0); y = torch.mean(a, out=o)",
    A + "o = torch.empty(2); y = torch.mean(a, out=o)",
    A + "o = torch.empty(0); y = torch.mean(a, dtype=torch.float64, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.mean(a, dtype=torch.float64, out=o)",
    A + "o = torch.empty(0, dtype=torch.half); y = torch.mean(a.half(), 0, out=o)",
    # arange.out (the end alone) is arange.start_out; a factory's dtype= must be the out=
    # tensor's (check_out_type_matches)
    "o = torch.empty(0); y = torch.arange(3, out=o)",
    "o = torch.empty(3); y = torch.arange(3, out=o)",
    "o = torch.empty(0); y = torch.arange(3, dtype=torch.float64, out=o)",
    "o = torch.empty(0, dtype=torch.float64); y = torch.arange(3, dtype=torch.float64, out=o)",
    "o = torch.empty(0); y = torch.zeros(3, dtype=torch.float64, out=o)",
    "o = torch.empty(0); y = torch.zeros(3, dtype=torch.float32, out=o)",
    "o = torch.empty(0); y = torch.linspace(0, 1, 3, dtype=torch.long, out=o)",
]


@pytest.mark.fast
@pytest.mark.parametrize("statements", CASES)
def test_out_forms_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"), uninitialised=("o",))
    assert_like_torch(statements + "; same = torch.tensor(y is o)", names=("y", "same"))


M = "a = torch.tensor([[1., 5., 2.], [7., 0., 7.]]); "
VI = "v = torch.empty(0); i = torch.empty(0, dtype=torch.long); "

#: the out= overloads of two outputs, ``out=(values, indices)``: each out= tensor checked
#: and resized in turn, torch's TypeError for a tuple of another length
TUPLE_CASES = [
    # max.dim_max / min.dim_min: structured (values, then indices)
    M + VI + "r = torch.max(a, 1, out=(v, i))",
    M + "v = torch.empty(5); i = torch.empty(0, dtype=torch.long); "
    "r = torch.max(a, 1, keepdim=True, out=(v, i))",
    M + "v = torch.empty(4)[::2]; i = torch.empty(2, dtype=torch.long); "
    "r = torch.min(a, 1, out=(v, i))",
    M + "v = torch.empty(0, dtype=torch.float64); i = torch.empty(0, dtype=torch.long); "
    "r = torch.max(a, 1, out=(v, i))",
    M + "v = torch.empty(0); i = torch.empty(0); r = torch.max(a, 1, out=(v, i))",
    M + "v = torch.empty(0); i = torch.empty(0); r = torch.max(a, 1, out=(v,))",
    M + VI + "r = torch.min(a, 0, out=[v, i])",
    M + VI + "r = torch.max(a, 2, out=(v, i))",
    "a = torch.tensor(3.); " + VI + "r = torch.max(a, 0, out=(v, i))",
    "a = torch.empty(0, 2); " + VI + "r = torch.max(a, 0, out=(v, i))",
    # sort.values / sort.values_stable: the meta's strides given to a resized out= tensor
    M + VI + "r = torch.sort(a, out=(v, i))",
    M + "v = torch.empty(7); i = torch.empty(6, dtype=torch.long); "
    "r = torch.sort(a, 0, True, out=(v, i))",
    M + "v = torch.empty(3, 2).t(); i = torch.empty(0, dtype=torch.long); "
    "r = torch.sort(a, out=(v, i))",
    M + VI + "r = torch.sort(a.t(), out=(v, i))",
    M + VI + "r = torch.sort(a, stable=True, out=(v, i))",
    M + "v = torch.empty(0); i = torch.empty(0); r = torch.sort(a, out=(v, i))",
    M + "v = torch.empty(0, dtype=torch.long); i = torch.empty(0, dtype=torch.long); "
    "r = torch.sort(a, out=(v, i))",
    M + "i = torch.empty(0, dtype=torch.long); r = torch.sort(a, out=(a, i)); v = a",
    "a = torch.tensor(3.); " + VI + "r = torch.sort(a, out=(v, i))",
    # topk.values: resized before the kernel reads self (which may be one of them)
    M + VI + "r = torch.topk(a, 2, out=(v, i))",
    M + "v = torch.empty(5); i = torch.empty(0, dtype=torch.long); "
    "r = torch.topk(a, 1, 0, out=(v, i))",
    M + "v = torch.empty(2, 2).t(); i = torch.empty(0, dtype=torch.long); "
    "r = torch.topk(a, 2, out=(v, i))",
    M + "v = torch.empty(0, dtype=torch.float64); i = torch.empty(0, dtype=torch.long); "
    "r = torch.topk(a, 2, out=(v, i))",
    M + "v = torch.empty(0); i = torch.empty(0, dtype=torch.int32); "
    "r = torch.topk(a, 2, out=(v, i))",
    M + VI + "r = torch.topk(a, 4, out=(v, i))",
    "a = torch.tensor(3.); " + VI + "r = torch.topk(a, 1, out=(v, i))",
    M + "i = torch.empty(0, dtype=torch.long); r = torch.topk(a, 2, out=(a, i)); v = a",
]

#: one-output forms of the same families
CASES += [
    # Scalar_out composites (remainder, fmod, bitwise_*: the Tensor_out of the wrapped
    # number), floor_divide.out (non-structured: resize_as_ after the loop when it casts)
    A + "o = torch.empty(0); y = torch.remainder(a, 4, out=o)",
    L + "o = torch.empty(5); y = torch.fmod(a, 4, out=o)",
    L + "o = torch.empty(0); y = torch.floor_divide(a, 4, out=o)",
    L + "o = torch.empty(5); y = torch.floor_divide(a.t(), 4, out=o)",
    L + "o = torch.empty(0, dtype=torch.long); y = torch.floor_divide(a, 2.5, out=o)",
    L + "o = torch.empty(0); y = torch.bitwise_and(a, 3, out=o)",
    L + "o = torch.empty(2, 3, dtype=torch.long); y = torch.bitwise_xor(a, 3, out=o)",
    L + "o = torch.empty(0); y = torch.bitwise_or(a.float(), 3, out=o)",
    # an out= of another dtype that must also be resized: TensorIterator's temporary
    L + "o = torch.empty(5); y = torch.add(a.t(), 1, out=o)",
    L + "o = torch.empty(3, 2).t(); y = torch.add(a, 1, out=o)",
    L + "o = torch.empty(5, dtype=torch.float64); y = torch.mul(a, 2, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.neg(a.t(), out=o)",
    # isposinf.out / isneginf.out: bool outputs only; an integer self is filled with False
    "a = torch.tensor([1., float('inf'), -float('inf')]); o = torch.empty(5, dtype=torch.bool); "
    "y = torch.isposinf(a, out=o)",
    "a = torch.tensor([1., float('inf'), -float('inf')]); "
    "o = torch.empty(6, dtype=torch.bool)[::2]; y = torch.isneginf(a, out=o)",
    "a = torch.tensor([1, 2]); o = torch.empty(3, dtype=torch.bool); y = torch.isneginf(a, out=o)",
    A + "o = torch.empty(0); y = torch.isposinf(a, out=o)",
    # argmax/argmin.out, amax/amin.out, all/any (.out, .dims_out, .all_out): resize_reduction
    M + "o = torch.empty(0, dtype=torch.long); y = torch.argmax(a, 1, out=o)",
    M + "o = torch.empty(5, dtype=torch.long); y = torch.argmin(a, out=o)",
    M + "o = torch.empty(0); y = torch.argmax(a, 1, out=o)",
    M + "o = torch.empty(4, dtype=torch.long)[::2]; y = torch.argmax(a, 1, out=o)",
    M + "o = torch.empty(0, dtype=torch.long); y = torch.argmax(a, 0, keepdim=True, out=o)",
    M + "o = torch.empty(0); y = torch.amax(a, 1, out=o)",
    M + "o = torch.empty(5); y = torch.amin(a, (0, 1), keepdim=True, out=o)",
    M + "o = torch.empty(0, dtype=torch.float64); y = torch.amax(a, 1, out=o)",
    "a = torch.tensor([[1, 5, 2], [7, 0, 7]]); o = torch.empty(0, dtype=torch.long); "
    "y = torch.amin(a, 0, out=o)",
    M + "o = torch.empty(0, dtype=torch.bool); y = torch.all(a, 1, out=o)",
    M + "o = torch.empty(0); y = torch.any(a, 1, out=o)",
    M + "o = torch.empty(3, dtype=torch.bool); y = torch.any(a, out=o)",
    M + "o = torch.empty(0, dtype=torch.uint8); y = torch.all(a, (0, 1), out=o)",
    "a = torch.tensor([[1, 5, 0], [7, 0, 7]], dtype=torch.uint8); "
    "o = torch.empty(0, dtype=torch.bool); y = torch.all(a, 0, out=o)",
    M + "o = torch.empty(0, dtype=torch.bool); y = torch.any(a[:1, :1], 1, out=o)",
    "o = torch.empty(2, dtype=torch.bool); y = torch.all(torch.empty(0, 3), 1, out=o)",
    # tril.out / triu.out: structured, the kernel writes any strides; prod.int_out as sum's
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(0); y = torch.tril(a, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(5); y = torch.triu(a, 1, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(3, 3).t(); y = torch.triu(a, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(0, dtype=torch.long); "
    "y = torch.tril(a, out=o)",
    "a = torch.arange(9.).reshape(3, 3); y = torch.tril(a, out=a); o = a",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(0); y = torch.tril(a.t(), -1, out=o)",
    "a = torch.arange(3.); o = torch.empty(0); y = torch.tril(a, out=o)",
    "a = torch.arange(1., 7.).reshape(2, 3); o = torch.empty(0); y = torch.prod(a, 1, out=o)",
    "a = torch.arange(1., 7.).reshape(2, 3); o = torch.empty(5); "
    "y = torch.prod(a, 0, keepdim=True, out=o)",
    "a = torch.arange(1, 7).reshape(2, 3); o = torch.empty(0); y = torch.prod(a, 1, out=o)",
    "a = torch.arange(1., 7.).reshape(2, 3); o = torch.empty(0); "
    "y = torch.prod(a, 1, dtype=torch.float64, out=o)",
    "a = torch.arange(1., 7.).reshape(2, 3); o = torch.empty(4)[::2]; y = torch.prod(a, 1, out=o)",
    # take.out (its checks, overlaps, then TensorIterator's resize), masked_select.out
    A + "o = torch.empty(0); y = torch.take(a, torch.tensor([[0, 5], [2, 2]]), out=o)",
    A + "o = torch.empty(5); y = torch.take(a, torch.tensor([0, 5]), out=o)",
    A + "o = torch.empty(4)[::2]; y = torch.take(a, torch.tensor([0, 5]), out=o)",
    A + "o = torch.empty(0, dtype=torch.long); y = torch.take(a, torch.tensor([0, 5]), out=o)",
    A + "y = torch.take(a, torch.tensor([0, 5]), out=a); o = a",
    A + "o = torch.empty(0); y = torch.take(a, torch.tensor([0, 9]), out=o)",
    A + "o = torch.empty(0); y = torch.take(a, torch.tensor([[0, 5], [2, 2]]).t(), out=o)",
    A + "o = torch.empty(0); y = torch.masked_select(a, a > 2, out=o)",
    A + "o = torch.empty(5); y = torch.masked_select(a, a > 2, out=o)",
    A + "o = torch.empty(0, dtype=torch.long); y = torch.masked_select(a, a > 2, out=o)",
    A + "o = torch.empty(6)[::2]; y = torch.masked_select(a, a > 2, out=o)",
    A + "o = torch.empty(0); y = torch.masked_select(a, a > 9, out=o)",
    A + "y = torch.masked_select(a, a > 2, out=a); o = a",
    # nansum.out: sum_out for integers, else make_reduction in the out= tensor's dtype
    "a = torch.tensor([[1., float('nan'), 2.], [7., 0., 7.]]); o = torch.empty(0); "
    "y = torch.nansum(a, 1, out=o)",
    "a = torch.tensor([[1., float('nan'), 2.], [7., 0., 7.]]); o = torch.empty(5); "
    "y = torch.nansum(a, 1, out=o)",
    "a = torch.tensor([[1., float('nan'), 2.], [7., 0., 7.]]); "
    "o = torch.empty(0, dtype=torch.float64); y = torch.nansum(a, 1, out=o)",
    "a = torch.tensor([[1., float('nan'), 2.], [7., 0., 7.]]); o = torch.empty(4)[::2]; "
    "y = torch.nansum(a, 1, out=o)",
    "a = torch.tensor([[1, 2, 2], [7, 0, 7]]); o = torch.empty(0); y = torch.nansum(a, 1, out=o)",
    "a = torch.tensor([[1., float('nan'), 2.], [7., 0., 7.]]); o = torch.empty(0); "
    "y = torch.nansum(a, 1, dtype=torch.float64, out=o)",
    # diagonal_copy.out (the generated view_copy out=: functional, resize, dtype, copy_) and
    # diag.out of a matrix (diagonal_copy's out=)
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(0); y = torch.diag(a, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(5); y = torch.diag(a, 1, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(0, dtype=torch.long); "
    "y = torch.diag(a, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(6)[::2]; y = torch.diag(a, out=o)",
    "a = torch.arange(9.).reshape(3, 3); o = torch.empty(0); y = torch.diagonal_copy(a, out=o)",
    "a = torch.arange(24.).reshape(2, 3, 4); o = torch.empty(0); "
    "y = torch.diagonal_copy(a, 1, 1, 2, out=o)",
    "a = torch.ones(2, 2, 2); o = torch.empty(0); y = torch.diag(a, out=o)",
    # where.self_out: the out= tensor must have the result type; TensorIterator resizes it
    A + "o = torch.empty(0); y = torch.where(a > 2, a, -a, out=o)",
    A + "o = torch.empty(5); y = torch.where(a > 2, a, -a, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.where(a > 2, a, -a, out=o)",
    A + "o = torch.empty(3, 2).t(); y = torch.where(a > 2, a, -a, out=o)",
    A + "y = torch.where(a > 2, a, -a, out=a); o = a",
    L + "o = torch.empty(0); y = torch.where(a > 2, a, a.float(), out=o)",
    # gather.out: set_output (dtype check, resize), then the overlap checks
    A + "o = torch.empty(0); y = torch.gather(a, 1, torch.tensor([[0, 0], [1, 2]]), out=o)",
    A + "o = torch.empty(7); y = torch.gather(a, 1, torch.tensor([[0, 0], [1, 2]]), out=o)",
    A + "o = torch.empty(2, 2).t(); y = torch.gather(a, 1, torch.tensor([[0, 0], [1, 2]]), "
    "out=o)",
    A + "o = torch.empty(0, dtype=torch.long); "
    "y = torch.gather(a, 1, torch.tensor([[0, 0], [1, 2]]), out=o)",
    A + "y = torch.gather(a, 1, torch.tensor([[0, 0], [1, 2]]), out=a); o = a",
    A + "o = torch.empty(3); y = torch.gather(a, 1, torch.tensor([[0, 5]]), out=o)",
    # index_select.out: the checks and overlaps before resize_output
    A + "o = torch.empty(0); y = torch.index_select(a, 1, torch.tensor([2, 0]), out=o)",
    A + "o = torch.empty(5); y = torch.index_select(a, 0, torch.tensor([1, 1, 0]), out=o)",
    A + "o = torch.empty(2, 2).t(); y = torch.index_select(a, 1, torch.tensor([2, 0]), out=o)",
    A + "o = torch.empty(0, dtype=torch.long); "
    "y = torch.index_select(a, 1, torch.tensor([2, 0]), out=o)",
    A + "y = torch.index_select(a, 1, torch.tensor([2, 0]), out=a); o = a",
    "a = torch.arange(6.); o = torch.empty(0); y = torch.index_select(a, 0, torch.tensor([2, 0]), "
    "out=o)",

    M + "o = torch.empty(0); y = torch.max(a, out=o)",
    M + "o = torch.empty(3); y = torch.min(a.t(), out=o)",
    M + "o = torch.empty(0, dtype=torch.long); y = torch.max(a, out=o)",
    "a = torch.tensor([[1, 5], [7, 0]]); o = torch.empty(3); y = torch.max(a, out=o)",
    "a = torch.empty(0); o = torch.empty(3); y = torch.min(a, out=o)",
    "a = torch.empty(0, dtype=torch.long); o = torch.empty(3); y = torch.max(a, out=o)",
    M + "o = torch.empty(0); y = torch.max(a, a + 1, out=o)",
    M + "o = torch.empty(0); y = torch.max(a, a.long(), out=o)",
    M + "o = torch.empty(0, dtype=torch.long); y = torch.min(a, a, out=o)",
    M + "o = torch.empty(0, dtype=torch.long); y = torch.argsort(a, stable=True, out=o)",
    M + "o = torch.empty(0); y = torch.argsort(a, stable=True, out=o)",
    M + "o = torch.empty(5); y = torch.msort(a, out=o)",
]


@pytest.mark.fast
@pytest.mark.parametrize("statements", TUPLE_CASES)
def test_tuple_out_forms_like_torch(statements):
    """Both out= tensors after the call (torch's values, sizes, strides), the errors and
    the operator tree; the result holds the very tensors given."""
    assert_like_torch(statements, names=("v", "i"), uninitialised=("v", "i"))
    # the values once the call succeeded (after an error both hold fresh memory)
    assert_like_torch(statements + "; same = torch.tensor([r[0] is v, r[1] is i, "
                      "r.values is v, r.indices is i]); vals = r[0]; inds = r[1]",
                      names=("vals", "inds", "same"))


@pytest.mark.fast
@pytest.mark.parametrize("statements", TUPLE_CASES)
def test_tuple_out_resize_warnings_like_torch(statements):
    assert _tidx_resize_warnings(statements) == _torch_resize_warnings(statements)


#: softmax's out= forms: the values are Sleef's exp within the bound the kernel's note
#: states (tests/ops/test_softmax_torch.py); here the layouts, dtypes, errors and trees
SOFTMAX_CASES = [
    A + "o = torch.empty(0); y = torch.softmax(a, 1, out=o)",
    A + "o = torch.empty(5); y = torch.log_softmax(a, 0, out=o)",
    A + "o = torch.empty(3, 2).t(); y = torch.softmax(a, 1, out=o)",
    A + "o = torch.empty(3, 2).t(); y = torch.log_softmax(a, 1, dtype=torch.float64, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.softmax(a, 1, out=o)",
    A + "o = torch.empty(0, dtype=torch.float64); y = torch.softmax(a, 1, dtype=torch.float64, "
    "out=o)",
    A + "o = torch.empty(0); y = torch.softmax(a, 1, dtype=torch.float64, out=o)",
    A + "y = torch.softmax(a, 1, out=a); o = a",
    L + "o = torch.empty(0, dtype=torch.long); y = torch.softmax(a, 1, out=o)",
    A + "o = torch.empty(0); y = torch.log_softmax(a, 2, out=o)",
]


@pytest.mark.fast
@pytest.mark.parametrize("statements", SOFTMAX_CASES)
def test_softmax_out_forms_like_torch(statements):
    assert_like_torch(statements, names=("y", "o"), uninitialised=("y", "o"))
    assert _tidx_resize_warnings(statements) == _torch_resize_warnings(statements)


_RESIZED = re.compile(r"An output with one or more elements was resized since it had shape "
                      r"\[([0-9, ]*)\], which does not match the required output shape "
                      r"\[([0-9, ]*)\]")


def _torch_resize_warnings(statements: str) -> list[tuple[list[int], list[int]]]:
    torch = require_torch()
    scope = {"torch": torch}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(statements, scope)         # the tests' own strings (see tests/oracle.py)
        except (RuntimeError, TypeError, ValueError, IndexError):
            pass
    found = []
    for w in caught:
        m = _RESIZED.search(str(w.message))
        if m:
            found.append(tuple([int(x) for x in g.split(",") if x.strip()] for g in m.groups()))
    return found


def _tidx_resize_warnings(statements: str) -> list[tuple[list[int], list[int]]]:
    from engine.interpreter.evaluator import Evaluator
    from engine.interpreter.statements import parse
    from tracer import record

    def walk(events):
        for e in events:
            yield e
            yield from walk(e.get("children", []))

    ev = Evaluator()
    with record() as tr:
        try:
            for stmt in parse(statements):
                ev.run(stmt)
        except (RuntimeError, TypeError, ValueError, IndexError):
            pass
    return [(e["note_args"]["old"], e["note_args"]["new"])
            for s in tr.to_dict()["statements"] for e in walk(s["events"])
            if e["name"] == "TORCH_WARN" and e.get("note_id") == "pointwise.resize_warning"]


@pytest.mark.fast
@pytest.mark.parametrize("statements", CASES)
def test_resize_warnings_like_torch(statements):
    """torch's UserWarning where an out= tensor that held elements is resized: the same
    ones, with the same old and new shapes."""
    assert _tidx_resize_warnings(statements) == _torch_resize_warnings(statements)


def test_every_case_family_warns_somewhere():
    """The warning comparison is not vacuous: some cases warn in torch."""
    assert sum(bool(_torch_resize_warnings(s)) for s in CASES) >= 5
    assert sum(bool(_torch_resize_warnings(s)) for s in TUPLE_CASES) >= 3


# -- the property: any small out= tensor, for every family ---------------------------------

#: each family's call, over ``a`` (a float or integer tensor of 1 to 3 dims)
FAMILIES = {
    "pow": "torch.pow(a, 2, out=o)",
    "pow_scalar": "torch.pow(2, a, out=o)",
    "square": "torch.square(a, out=o)",
    "negative": "torch.negative(a, out=o)",
    "absolute": "torch.absolute(a, out=o)",
    "fix": "torch.fix(a, out=o)",
    "true_divide": "torch.true_divide(a, 2, out=o)",
    "cat": "torch.cat([a, a], {dim}, out=o)",
    "stack": "torch.stack([a, a], {dim}, out=o)",
    "hstack": "torch.hstack([a, a], out=o)",
    "vstack": "torch.vstack([a, a], out=o)",
    "dstack": "torch.dstack([a, a], out=o)",
    "column_stack": "torch.column_stack([a, a], out=o)",
    "concat": "torch.concat([a, a], {dim}, out=o)",
    "sum": "torch.sum(a, {dim}, out=o)",
    "mean": "torch.mean(a.float(), {dim}, out=o)",
    "mean_all": "torch.mean(a.double(), out=o)",
    "remainder": "torch.remainder(a, 3, out=o)",
    "floor_divide": "torch.floor_divide(a, 3, out=o)",
    "bitwise_and": "torch.bitwise_and(a.long(), 6, out=o)",
    "add": "torch.add(a, a.t() if a.dim() == 2 else a, out=o)",
    "max_all": "torch.max(a, out=o)",
    "isposinf": "torch.isposinf(a, out=o)",
    "where": "torch.where(a > 0, a, -a, out=o)",
    "index_select": "torch.index_select(a, 0, torch.tensor([0, 0]), out=o)",
    "gather": "torch.gather(a, 0, torch.zeros_like(a, dtype=torch.long), out=o)",
    "argmax": "torch.argmax(a, {dim}, out=o)",
    "amax": "torch.amax(a, {dim}, out=o)",
    "any": "torch.any(a, {dim}, out=o)",
    "prod": "torch.prod(a, {dim}, out=o)",
    "tril": "torch.tril(a, {dim}, out=o)",
    "take": "torch.take(a, torch.tensor([0, -1]), out=o)",
    "masked_select": "torch.masked_select(a, a > 0, out=o)",
    "nansum": "torch.nansum(a, {dim}, out=o)",
}


@pytest.mark.fast
@settings(max_examples=examples(150), deadline=None)
@given(st.sampled_from(sorted(FAMILIES)),
       st.lists(st.integers(1, 3), min_size=1, max_size=3),
       st.sampled_from(["torch.float32", "torch.int64"]),
       st.lists(st.integers(0, 5), min_size=0, max_size=3),
       st.sampled_from(["torch.float32", "torch.int64", "torch.float64", "torch.int32"]),
       st.sampled_from(["", ".t()", "[::2]", ".unsqueeze(0)"]),
       st.integers(-1, 1))
def test_out_property_like_torch(family, shape, dtype, out_shape, out_dtype, layout, dim):
    """Any small out= tensor (shape, dtype, contiguous or not) for every family: torch's
    values, out= layout after the call, errors, profiler tree and warnings."""
    if layout == ".t()" and len(out_shape) != 2:
        layout = ""
    if layout == "[::2]" and not out_shape:
        layout = ""
    numel = 1
    for d in shape:
        numel *= d
    call = FAMILIES[family].format(dim=dim)
    program = (f"a = (torch.arange({numel}) - 2).to({dtype}).reshape({shape}); "
               f"o = torch.empty({out_shape}, dtype={out_dtype}){layout}; y = {call}")
    assert_like_torch(program, names=("y", "o"), uninitialised=("o",))
    assert_like_torch(program, names=("y",))
    assert _tidx_resize_warnings(program) == _torch_resize_warnings(program)
