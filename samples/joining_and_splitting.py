"""Joining and splitting: cat and stack copy into a new tensor, split and chunk return views."""
import torch

t = torch.tensor([[1, 2, 3], [4, 5, 6]])

# cat joins along an existing dim: two (2, 3) tensors make one (4, 3) or (2, 6).
rows = torch.cat([t, t])
cols = torch.cat([t, t], dim=1)
print(rows.shape, cols.shape)

# stack adds a new dim first: two (2, 3) tensors make one (2, 2, 3).
s = torch.stack([t, t])
print(s.shape, s.stride())

# cat always copies into new memory: writing the result leaves t alone.
rows[0, 0] = 100
print(t[0, 0], rows.untyped_storage().data_ptr() == t.untyped_storage().data_ptr())

# split returns views: same storage, t's strides, the offset moved along the dim.
parts = t.split(2, dim=1)
left = parts[0]
right = parts[1]
print(left.shape, right.shape, right.stride(), right.storage_offset())

# Writing into a piece writes into t.
right[1, 0] = 60
print(t)

# chunk asks for a number of pieces: ceil(3 / 2) = 2 columns each, the last gets the rest.
pieces = t.chunk(2, dim=1)
print(pieces[0].shape, pieces[1].shape)

# Inputs of different dtypes are promoted: int64 and float32 make float32.
print(torch.cat([t, torch.tensor([[0.5, 1.5, 2.5]])]).dtype)

# The sizes must match except along the dim being joined.
try:
    torch.cat([t, torch.tensor([[7, 8]])])
except RuntimeError as e:
    print(e)
