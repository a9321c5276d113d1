"""torch.einsum as aten/src/ATen/native/Linear.cpp's ``einsum`` runs it.

Three parts.  (1) The equation is parsed into labels per operand (A-Z then a-z, each an
index in [0, 52); ``...`` a marker of its own), the output is the explicit right-hand
side or, without ``->``, the ellipsis then every label seen once in alphabetical order
(upper case first).  (2) Every operand is brought to one shape, "output dims, then the
dims to sum out": a repeated label in one operand becomes a diagonal (``diagonal`` then
``movedim``), a label it lacks an ``unsqueeze``d dim of size 1, and one ``permute``
orders the dims.  (3) The operands are contracted two at a time, left to right (torch
2.13 takes a path only from opt_einsum, which is not installed beside it here:
``torch.backends.opt_einsum.is_available()`` is False, so ``torch.einsum`` hands
``_VF.einsum`` no path).  Before each pair, a dim to be summed that only one of the two
still has (and no later operand has) is summed right there; the pair itself is
``sumproduct_pair``: a plain ``mul`` when nothing is summed, else permute, reshape to
(batch, rows, sum) and (batch, sum, cols), ``bmm``, ``view`` and ``permute`` back.
Last, the summed dims (all of size 1 now) are dropped with a ``view`` -- or, for one
operand, ``sum``med.

The values are those of the kernels it calls: mul and sum as tidx runs them, bmm under
its own note (bit for bit for integers and small matrices, within MKL's stated bound
above that).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core.errors import check
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, declare

LINEAR = "aten/src/ATen/native/Linear.cpp"

_LETTERS = 26
_TOTAL = 2 * _LETTERS
_ELLIPSIS = _TOTAL


def _subscript(label: str) -> int:
    """label_to_subscript: A-Z are 0-25, a-z 26-51."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + _LETTERS


def _label(s: int) -> str:
    """subscript_to_label."""
    return chr(s + ord("A")) if s < _LETTERS else chr(s - _LETTERS + ord("a"))


def _isalpha(c: str) -> bool:
    """std::isalpha in the C locale: ASCII letters only."""
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _parse_operands(lhs: str, num_ops: int) -> list[list[int]]:
    """The labels of each operand, as einsum's first loop reads the left-hand side."""
    op_labels: list[list[int]] = [[] for _ in range(num_ops)]
    ell_in_input = False
    curr_op = 0
    i = 0
    while i < len(lhs):
        label = lhs[i]
        if label == " ":
            pass
        elif label == ".":
            check(not ell_in_input, RuntimeError,
                  f"einsum(): found '.' for operand {curr_op} for which an ellipsis was "
                  "already found")
            # i + 2 < lhs.length() && lhs[++i] == '.' && lhs[++i] == '.'
            ok = i + 2 < len(lhs)
            if ok:
                i += 1
                ok = lhs[i] == "."
                if ok:
                    i += 1
                    ok = lhs[i] == "."
            check(ok, RuntimeError, f"einsum(): found '.' for operand {curr_op} that is not "
                  "part of any ellipsis")
            op_labels[curr_op].append(_ELLIPSIS)
            ell_in_input = True
        elif label == ",":
            curr_op += 1
            check(curr_op < num_ops, RuntimeError,
                  "einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            check(_isalpha(label), RuntimeError,
                  f"einsum(): invalid subscript given at index {i} in the equation string, "
                  "subscripts must be in [a-zA-Z]")
            op_labels[curr_op].append(_subscript(label))
        i += 1
    check(curr_op == num_ops - 1, RuntimeError,
          "einsum(): more operands were provided than specified in the equation")
    return op_labels


class _Plan:
    """What the parse decides: where each label goes in the aligned shape."""

    def __init__(self) -> None:
        self.label_perm_index = [-1] * _TOTAL
        self.perm_index = 0
        self.ell_index = 0
        self.ell_num_dim = 0
        self.out_num_dim = 0


def _parse_output(equation: str, arrow: int, lhs_len: int, label_count: list[int],
                  plan: _Plan) -> None:
    ell_in_output = False
    if arrow < 0:
        # implicit output: the ellipsis, then every label seen once, A-Z then a-z
        plan.perm_index = plan.ell_num_dim
        ell_in_output = True
        for sub in range(_TOTAL):
            if label_count[sub] == 1:
                plan.label_perm_index[sub] = plan.perm_index
                plan.perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            label = rhs[i]
            if label == " ":
                pass
            elif label == ".":
                check(not ell_in_output, RuntimeError,
                      "einsum(): found '.' for output but an ellipsis (...) was already found")
                ok = i + 2 < len(rhs)
                if ok:
                    i += 1
                    ok = rhs[i] == "."
                    if ok:
                        i += 1
                        ok = rhs[i] == "."
                check(ok, RuntimeError, "einsum(): found '.' for output that is not part of "
                      "any ellipsis (...)")
                plan.ell_index = plan.perm_index
                plan.perm_index += plan.ell_num_dim
                ell_in_output = True
            else:
                check(_isalpha(label), RuntimeError,
                      f"einsum(): invalid subscript given at index {lhs_len + 2 + i} in the "
                      "equation string, subscripts must be in [a-zA-Z]")
                index = _subscript(label)
                seen = plan.label_perm_index[index] > -1
                check(label_count[index] > 0 and not seen, RuntimeError,
                      f"einsum(): output subscript {label}"
                      + (" appears more than once in the output" if seen else
                         " does not appear in the equation for any input operand"))
                plan.label_perm_index[index] = plan.perm_index
                plan.perm_index += 1
            i += 1
    plan.out_num_dim = plan.perm_index
    if not ell_in_output:
        # the ellipsis dims not in the output are summed out, before the labels
        plan.ell_index = plan.perm_index
        plan.perm_index += plan.ell_num_dim
    for sub in range(_TOTAL):
        if label_count[sub] > 0 and plan.label_perm_index[sub] == -1:
            plan.label_perm_index[sub] = plan.perm_index
            plan.perm_index += 1


# -- sumproduct_pair ---------------------------------------------------------------------------
SUMPRODUCT_PAIR = step("sumproduct_pair", Layer.KERNEL, source=LINEAR)


def sumproduct_pair(left, right, sum_dims_: Sequence[int], keepdim: bool):
    """(left * right).sum(sum_dims) by permute, reshape and bmm (Linear.cpp)."""
    check(left.dim() == right.dim(), RuntimeError, "number of dimensions must match")
    if not sum_dims_:
        with span(SUMPRODUCT_PAIR, note=Note("einsum.pair_mul")):
            pass
        return aten.mul.Tensor(left, right)
    dim = left.dim()
    sum_dims = [False] * dim
    for d in sum_dims_:
        sum_dims[d] = True
    lro: list[int] = []
    lo: list[int] = []
    ro: list[int] = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl = left.view.sizes[i] != 1
        sr = right.view.sizes[i] != 1
        if sum_dims[i]:
            if sl and sr:
                check(left.view.sizes[i] == right.view.sizes[i], RuntimeError,
                      "non-broadcast dimensions must match")
                sum_size *= left.view.sizes[i]
            elif sl:
                left = aten.sum.dim_IntList(left, [i], True)
            elif sr:
                right = aten.sum.dim_IntList(right, [i], True)
        elif sl and sr:
            check(left.view.sizes[i] == right.view.sizes[i], RuntimeError,
                  "non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.view.sizes[i]
        elif sl:
            lo.append(i)
            lo_size *= left.view.sizes[i]
        else:
            ro.append(i)
            ro_size *= right.view.sizes[i]
    # when every right-only dim comes before every left-only one, the operands swap so
    # that bmm writes the result in the output's order
    if lo and ro and ro[-1] < lo[0]:
        left, right = right, left
        lo, ro = ro, lo
        lo_size, ro_size = ro_size, lo_size
    out_size = ([left.view.sizes[d] for d in lro] + [left.view.sizes[d] for d in lo]
                + [1] * len(sum_dims_) + [right.view.sizes[d] for d in ro])
    lperm = lro + lo + list(sum_dims_) + ro
    rperm = lro + list(sum_dims_) + ro + lo
    operm = [-1] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims_) + ro):
        operm[d] = i
    with span(SUMPRODUCT_PAIR, note=Note("einsum.pair_bmm", batch=lro_size, rows=lo_size,
                                         k=sum_size, cols=ro_size)) as s:
        left = aten.reshape.default(aten.permute.default(left, lperm),
                                    [lro_size, lo_size, sum_size])
        right = aten.reshape.default(aten.permute.default(right, rperm),
                                     [lro_size, sum_size, ro_size])
        result = aten.bmm.default(left, right)
        result = aten.permute.default(aten.view.default(result, out_size), operm)
        if not keepdim:
            sizes = [n for i, n in enumerate(result.view.sizes) if not sum_dims[i]]
            result = aten.view.default(result, sizes)
        s.set_result(result)
    return result


# -- einsum ------------------------------------------------------------------------------------
EINSUM_PARSE = step("einsum: parse the equation", Layer.KERNEL, source=LINEAR)
EINSUM_ALIGN = step("einsum: align operand", Layer.KERNEL, source=LINEAR)
EINSUM_CONTRACT = step("einsum: contract a pair", Layer.KERNEL, source=LINEAR)


def _letters(labels: Sequence[int]) -> str:
    return "".join("..." if s == _ELLIPSIS else _label(s) for s in labels)


@declare("einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
         kind=COMPOSITE, native="at::native::einsum", source=LINEAR)
def einsum(equation: str, tensors: Sequence, *, path=None):
    operands = list(tensors)
    check(bool(operands), RuntimeError, "einsum(): must provide at least one operand")
    num_ops = len(operands)
    if path is not None:
        path_size = 1 if num_ops == 1 else (num_ops - 1) * 2
        check(len(path) == path_size, RuntimeError,
              "einsum(): expected contraction path given in path parameter to have size "
              f"{path_size} but got {len(path)}")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    plan = _Plan()
    with span(EINSUM_PARSE, equation=equation) as parse:
        op_labels = _parse_operands(lhs, num_ops)
        label_count = [0] * _TOTAL
        for i, (op, labels) in enumerate(zip(operands, op_labels)):
            ndims = op.dim()
            nlabels = len(labels)
            has_ellipsis = False
            for label in labels:
                if label == _ELLIPSIS:
                    nlabels -= 1
                    has_ellipsis = True
                    plan.ell_num_dim = max(plan.ell_num_dim, ndims - nlabels)
                else:
                    label_count[label] += 1
            check(nlabels <= ndims if has_ellipsis else nlabels == ndims, RuntimeError,
                  f"einsum(): the number of subscripts in the equation ({nlabels}"
                  + (") is more than the number of dimensions (" if has_ellipsis
                     else ") does not match the number of dimensions (")
                  + f"{ndims}) for operand {i}"
                  + ("" if has_ellipsis else " and no ellipsis was given"))
        _parse_output(equation, arrow, len(lhs), label_count, plan)
        order = sorted((p, s) for s, p in enumerate(plan.label_perm_index) if p >= 0)
        aligned = "".join(_label(s) for p, s in order if p < plan.out_num_dim)
        summed = "".join(_label(s) for p, s in order if p >= plan.out_num_dim)
        parse.note(Note("einsum.parse", operands=", ".join(_letters(x) for x in op_labels),
                        output=aligned or "(none)", summed=summed or "(none)",
                        ellipsis=plan.ell_num_dim))

    label_size = [1] * _TOTAL
    ell_sizes = [1] * plan.ell_num_dim
    dim_counts = [0] * plan.perm_index
    ops: deque = deque()
    for i in range(num_ops):
        op = operands[i]
        permutation = [-1] * plan.perm_index
        dim = 0
        with span(EINSUM_ALIGN, operand=i, labels=_letters(op_labels[i]),
                  note=Note("einsum.align", operand=i)) as s:
            for sub in op_labels[i]:
                if sub == _ELLIPSIS:
                    ndim = operands[i].dim() - (len(op_labels[i]) - 1)
                    for j in range(plan.ell_num_dim - ndim, plan.ell_num_dim):
                        size = op.view.sizes[dim]
                        if size != 1:
                            check(ell_sizes[j] == 1 or ell_sizes[j] == size, RuntimeError,
                                  f"einsum(): dimension {dim} covered by ellipsis in operand "
                                  f"{i}has size {size} which does not broadcast with "
                                  f"previously seen ellipsis with size {ell_sizes[j]} for the "
                                  "respective dimension")
                            ell_sizes[j] = size
                            dim_counts[plan.ell_index + j] += 1
                        permutation[plan.ell_index + j] = dim
                        dim += 1
                elif permutation[plan.label_perm_index[sub]] == -1:
                    size = op.view.sizes[dim]
                    if size != 1:
                        check(label_size[sub] == 1 or label_size[sub] == size, RuntimeError,
                              f"einsum(): subscript {_label(sub)} has size {size} for operand "
                              f"{i} which does not broadcast with previously seen size "
                              f"{label_size[sub]}")
                        label_size[sub] = size
                        dim_counts[plan.label_perm_index[sub]] += 1
                    permutation[plan.label_perm_index[sub]] = dim
                    dim += 1
                else:
                    # a repeated label: its diagonal, moved to the first occurrence's place
                    prev = permutation[plan.label_perm_index[sub]]
                    check(op.view.sizes[dim] == op.view.sizes[prev], RuntimeError,
                          f"einsum(): subscript {_label(sub)} is repeated for operand {i} but "
                          f"the sizes don't match, {op.view.sizes[dim]} != "
                          f"{op.view.sizes[prev]}")
                    op = aten.movedim.int(aten.diagonal.default(op, 0, prev, dim), -1, prev)
            for k, val in enumerate(permutation):
                if val == -1:
                    op = aten.unsqueeze.default(op, dim)
                    permutation[k] = dim
                    dim += 1
            op = aten.permute.default(op, permutation)
            s.set_result(op)
        ops.append(op)

    contract_path = list(path) if path is not None else []
    it = 0
    while len(ops) > 1:
        i, j = 0, 1
        if path is not None:
            i, j = contract_path[it], contract_path[it + 1]
            it += 2
            if j < i:
                i, j = j, i
            check(i != j and i >= 0 and j < len(ops), RuntimeError,
                  f"einsum(): invalid contraction ({i}, {j}"
                  + (") cannot contract an operand with itself" if i == j
                     else ") operand index is out of bounds"))
        a, b = ops[i], ops[j]
        del ops[j]
        del ops[i]
        sum_dims: list[int] = []
        a_dims: list[int] = []
        b_dims: list[int] = []
        with span(EINSUM_CONTRACT, note=Note("einsum.contract", left=i, right=j,
                                             remaining=len(ops))) as s:
            for d in range(plan.out_num_dim, plan.perm_index):
                sa, sb = a.view.sizes[d] != 1, b.view.sizes[d] != 1
                if sa and sb:
                    check(a.view.sizes[d] == b.view.sizes[d], RuntimeError,
                          "non-broadcast dimensions must match")
                    dim_counts[d] -= 1
                    if dim_counts[d] == 1:
                        sum_dims.append(d)
                        dim_counts[d] = 0
                elif dim_counts[d] == 1:
                    if sa:
                        a_dims.append(d)
                        dim_counts[d] = 0
                    elif sb:
                        b_dims.append(d)
                        dim_counts[d] = 0
            if a_dims:
                a = aten.sum.dim_IntList(a, a_dims, True)
            if b_dims:
                b = aten.sum.dim_IntList(b, b_dims, True)
            pair = sumproduct_pair(a, b, sum_dims, True)
            s.set_result(pair)
        if path is not None:
            ops.append(pair)
        else:
            ops.appendleft(pair)

    result = ops[0]
    if plan.perm_index - plan.out_num_dim > 0:
        if num_ops > 1:
            # every dim to sum is 1 now: a view drops them
            return aten.view.default(result, list(result.view.sizes[:plan.out_num_dim]))
        return aten.sum.dim_IntList(result, list(range(plan.out_num_dim, plan.perm_index)))
    return result
