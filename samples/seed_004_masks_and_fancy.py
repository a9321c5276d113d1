"""Seed 004: bool masks and fancy indexing: masks become nonzero() indices, index tensors broadcast."""
import torch

a = torch.tensor([[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [10, 11]]])
index_0 = torch.tensor([False, False, True])
index_1 = torch.tensor([True, False])
index_2 = torch.tensor([[False, True], [True, False], [True, True]])

# A 1-d mask on dim 0 keeps the rows where it is True.
print(a[index_0])
# Integers and slices first, then the mask matches the dims that remain.
print(a[:, index_1, 1])
# An n-d mask consumes as many dims as it has.
print(a[index_2])
print(a[index_2, 1])

# Fancy indexing: index tensors broadcast together, each position picks one element.
b = torch.tensor([[0, 1], [2, 3], [4, 5]])
idx_0 = torch.tensor([[1, 0], [2, 1]])
idx_1 = torch.tensor([0, 1])
print(b[idx_0, idx_1])

# Mask first, then an integer on what is left (or the other way round): two steps.
print(a[index_2][:, 1])
print(a[:, :, 1][index_2])

# Fancy indexing on a 1-d tensor: the result takes the index tensor's shape.
v = torch.tensor([0, 1, 2, 3, 4])
print(v[torch.tensor([[3, 2], [1, 4]])])

# arange along each dim, broadcast together, picks every element at its own place.
c = torch.arange(2 * 3 * 4).view(2, 3, 4).contiguous()
i0 = torch.arange(2).view(-1, 1, 1)
i1 = torch.arange(3).view(1, -1, 1)
i2 = torch.arange(4).view(1, 1, -1)
print(c[i0, i1, i2] == c)
