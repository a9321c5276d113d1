"""Seed 004: gather and scatter are fancy indexing with arange tensors along every dim but one."""
import torch

# arange_at_dim(3, 0, 2): 0..2 laid along dim 0 of a 2-d shape, size 1 elsewhere.
index_0 = torch.arange(3).view(*[1] * 0, -1, *[1] * 1)
print(index_0)

# gather(input, 0, index): out[i][j] = input[index[i][j]][j]
input = torch.tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
index = torch.tensor([[1], [0], [2]])
print(torch.gather(input, dim=0, index=index))

# The same elements by fancy indexing: the index along dim 0, arange along dim 1.
print(input[index, torch.arange(1).view(1, -1)])

# gather along dim 1 is the index along dim 1 and arange along dim 0.
print(torch.gather(input, dim=1, index=index))
print(input[torch.arange(3).view(-1, 1), index])

# scatter writes where gather reads: self[index[i][j]][j] = src[i][j] for dim 0.
print(torch.zeros(3, 3, dtype=torch.int64).scatter(0, index, torch.tensor([[7], [8], [9]])))
