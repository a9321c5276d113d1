"""The Python around the tensors, against real Python + torch 2.13: tuple unpacking,
augmented assignment, ``is``/``in``, comprehensions for index lists, and the builtins
``abs``, ``range``, ``list``, ``tuple``, ``len``, ``int``, ``float``, ``bool``.

Each program runs in tidx (its own evaluator, never ``eval``) and, with ``exec``, in
Python over real torch; the named values (their type and repr, or the tensor's layout and
values), the error (class and message) and the aten operators must agree.
"""

from __future__ import annotations

import pytest

from oracle import assert_like_torch

pytestmark = pytest.mark.torch

PROGRAMS = [
    # unpacking: a tensor through Tensor.__iter__ (unbind), lists, tuples, starred
    ["a, b, c = t", "y = b"],
    ["a, *y = t"],
    ["*y, c = t", "z = c"],
    ["y, = torch.ones(1, 2)"],
    ["a, b = t"],
    ["a, b, c, d = t"],
    ["a, b = torch.tensor(3)"],
    ["a, b = 3"],
    ["a, b = None"],
    ["a, *b, c = [1]"],
    ["[y, z] = (1, 2)"],
    ["y, (z, w) = [1, (2, 3)]"],
    ["y, z = t.shape[0], t.stride()"],
    ["rows, cols = t.shape", "y = torch.zeros(rows, cols)"],
    ["y, z = z, y = 1, 2"],
    ["a, b, c = t", "y = a.data_ptr() - t.data_ptr() == 0 and b.storage_offset()"],
    # augmented assignment on Python values
    ["y = 5", "y += 2"], ["y = 5", "y //= 2"], ["y = 7", "y %= 4"], ["y = 2", "y **= 10"],
    ["y = 1", "y <<= 4"], ["y = 6", "y ^= 3"], ["y = 1.5", "y *= 2"],
    ["y = [1, 2]", "z = y", "y += [3]", "w = z"], ["y = [1]", "y += (2,)"],
    ["y = [1]", "y += 2"], ["y = (1,)", "y += (2,)"], ["y = (1,)", "y += [2]"],
    ["y = [0]", "y *= 3"], ["y = 1", "y /= 0"], ["y = None", "y += 1"], ["y = [1] - 1"], ["y = None * 2"],
    ["y = t.shape", "y += (4,)"],
    ["y = [0, 1]", "y[0] += 5"],
    # identity and membership
    ["y = t[1]", "z = y is t[1]"], ["y = t.contiguous() is t"], ["y = t.view(9) is not t"],
    ["y = 2 in [1, 2]"], ["y = 3 not in (1, 2)"], ["y = 3 in t.shape"], ["y = 3 in 4"],
    ["y = 'a' in 'abc'"], ["y = 1 in 'abc'"],
    # comprehensions for index lists
    ["y = t[[i for i in range(3) if i != 1]]"],
    ["y = [i * 2 for i in range(4)]"],
    ["y = [r.sum() for r in t]"],
    ["y = [(i, j) for i, j in [(0, 1), (2, 0)]]", "z = t[[p[0] for p in y], [p[1] for p in y]]"],
    ["y = [i for i in 5]"],
    ["y = [0, 1]", "y[5] = 1"], ["y = [0, 1]", "y[-2] = t", "z = y[0]"],
    # builtins
    ["y = abs(-3)"], ["y = abs(-2.5)"], ["y = abs('a')"], ["y = abs()"],
    ["y = range(3)"], ["y = t[range(2)]"], ["y = t[range(1, 3), 0]"], ["t[range(2)] = 0", "y = t"],
    ["y = range(1.5)"], ["y = range(0, 5, 0)"], ["y = range(t[0, 1])"], ["y = range()"],
    ["y = list(t)"], ["y = tuple(t.shape)"], ["y = list(range(4))"], ["y = list(3)"],
    ["y = tuple()"], ["y = list([1], [2])"],
    ["y = float('inf')"], ["y = float('-inf')"], ["y = int(t[1, 1])"], ["y = float(t[0, 0])"],
    ["y = bool(t[0, 0])"], ["y = t[0, 0].item()"], ["y = len(t)"], ["y = int(t)"],
    ["y = t.float()"], ["y = t.long() is t"], ["y = t.T.double()"], ["y = t.bool()"],
    ["y = t.half()"], ["y = t.byte()"], ["y = t.char()"], ["y = t.short()"], ["y = t.int()"],
    ["y = t.float(1)"], ["y = t.byte(x=1)"], ["y = t.float(memory_format=torch.preserve_format)"],
    ["y = 2 @ 3"], ["y = 1.5 & 2"], ["y = 1 << 3"], ["y = 7 >> 1"], ["y = 6 ^ 3"],
    # Tensor.type: the legacy name, a dtype, a legacy name to convert to, the errors
    ["y = t.type()"], ["y = (t > 2).type()"], ["y = t.float().type()"],
    ["y = t.type(torch.int32)"], ["y = t.type(torch.int64) is t"],
    ["y = t.type('torch.DoubleTensor')"], ["y = t.type('torch.LongTensor') is t"],
    ["y = t.type(dtype=torch.float16)"], ["y = t.T.type(torch.float64)"],
    ["y = t.type('torch.Foo')"], ["y = t.type(3)"], ["y = t.type(torch.float32, 1, 2)"],
    ["y = t.relu()"], ["y = torch.relu(t - 5)"], ["y = (t - 5).relu_()"],
]


@pytest.mark.parametrize("statements", PROGRAMS, ids=lambda p: " ; ".join(p))
def test_python_forms_match_python_and_torch(statements):
    assert_like_torch(statements, names=["y", "z", "w"])


def test_a_comprehension_keeps_its_names_to_itself():
    """As in Python 3, ``i`` lives only inside the comprehension: reading it after is
    refused before anything runs (a name that is not defined)."""
    from engine.core.errors import Refused
    from engine.interpreter.statements import parse
    with pytest.raises(Refused, match="name 'i' is not defined"):
        parse("y = [i for i in range(3)]\nz = i")


#: A one-element tensor where an int, a float or a Scalar goes: PythonArgParser converts
#: it through Tensor.__index__ / __float__ / item() (one aten::item each), or refuses it.
TENSORS_AS_NUMBERS = [
    "y = t.select(0, torch.tensor(1))", "y = t.select(0, torch.tensor([1]))",
    "y = t.select(0, torch.tensor(1.0))", "y = t.select(torch.tensor(-1), torch.tensor(5))",
    "y = torch.full((2,), torch.tensor(5))", "y = torch.full((2,), torch.tensor(5.5))",
    "y = torch.full((2,), torch.tensor([5]))", "y = torch.full((2,), torch.tensor(True))",
    "y = t.unsqueeze(torch.tensor(0))", "y = t.unsqueeze(torch.tensor(True))",
    "y = torch.arange(torch.tensor(5))", "y = t.transpose(torch.tensor(0), 1)",
    "y = torch.zeros(torch.tensor(2))", "y = t.flip(torch.tensor(0))",
]


@pytest.mark.parametrize("statement", TENSORS_AS_NUMBERS)
def test_a_tensor_where_a_number_goes(statement):
    assert_like_torch([statement])


@pytest.mark.parametrize("statement", [
    "y = torch.numel(t)", "y = torch.is_floating_point(t)", "y = torch.is_complex(t)",
    "y = t.is_complex()", "y = torch.numel(1)", "y = torch.is_floating_point(1)",
    "y = torch.is_complex()", "y = t.is_complex(1)", "y = torch.numel(input=t)",
    "y = torch.is_floating_point(t.float())", "y = t.numel()",
])
def test_the_facts_as_functions(statement):
    """torch.numel / is_floating_point / is_complex and Tensor.is_complex: read off the
    TensorImpl, no operator; torch's TypeErrors for a wrong argument."""
    assert_like_torch([statement])


@pytest.mark.parametrize("statement", [
    "y = torch.max(t, t.T)", "y = t.min(t.T)", "y = torch.max(t, t.float())",
    "y = torch.min(t, torch.zeros(2))", "y = t.max(other=t)", "y = torch.max(t, 2)",
])
def test_max_and_min_of_two_tensors_are_elementwise(statement):
    """torch.max(a, b) is at::maximum(a, b) (max.other), not a reduction."""
    assert_like_torch([statement])
