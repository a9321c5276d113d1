"""Errors: what PyTorch says when an index or a factory is wrong, and which step raises it."""
import torch

t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])

# An integer past the end: applySelect checks the bounds before select runs.
try:
    t[5]
except IndexError as e:
    print(e)

# More indices than dims: applySlicing counts them (count_specified_dimensions) first.
try:
    t[1, 2, 3]
except IndexError as e:
    print(e)

# A bad tensor index is found by the index kernel, element by element.
try:
    t[torch.tensor([0, 5])]
except IndexError as e:
    print(e)

# Index tensors must broadcast together (make_info -> expand_outplace).
try:
    t[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]
except IndexError as e:
    print(e)

# A value must broadcast to the indexed result (copy_to -> expand_inplace).
try:
    t[0:2] = torch.tensor([1, 2])
except RuntimeError as e:
    print(e)

# index_put_ needs the value's dtype to match (make_index_put_iterator).
try:
    t[torch.tensor([0, 1])] = torch.tensor([1.5, 2.5, 3.5])
except RuntimeError as e:
    print(e)

# Slices need a positive step (applySlice).
try:
    t[::-1]
except ValueError as e:
    print(e)

# The storage size is computed in 64 bits with overflow checks (computeStorageNbytesContiguous).
try:
    torch.empty(2**62, 2**62)
except RuntimeError as e:
    print(e)

# Normal numbers need a floating dtype: empty succeeds, then normal_ refuses.
try:
    torch.randn(2, dtype=torch.int64)
except NotImplementedError as e:
    print(e)
