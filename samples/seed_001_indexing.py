"""Seed 001: tensor indexing and assignment, from THPVariable_setitem to copy_ and index_put_."""
import torch

# An integer index selects: two applySelect steps make a 0-dim view, copy_to writes it.
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
t[1, 2] = 3

# Tensor indices are only recorded (recordTensorIndex); index_put_ writes them all at once.
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
rows = torch.tensor([0, 2])
cols = torch.tensor([1, 1])
t[rows, cols] = 10

# The same write, called directly: the Python binding adds nothing but the wrapping.
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
t.index_put_((rows, cols), torch.tensor([10, 10]))
print(t)
