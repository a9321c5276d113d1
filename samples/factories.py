"""Factories: every one is empty plus a fill; meta tensors get shapes and strides but no memory."""
import torch

torch.manual_seed(0)

# zeros = empty + zero_; ones = empty + fill_(1); full picks its dtype from the value.
print(torch.zeros(2, 3), torch.ones(2, dtype=torch.int32), torch.full((2,), 7).dtype)

# rand = empty + uniform_; randint = empty + random_; randperm shuffles 0..n-1.
print(torch.rand(3), torch.randint(0, 10, (4,)), torch.randperm(5))

# arange: size ceil((end - start) / step); values computed as the CPU kernel computes them.
print(torch.arange(0, 1, 0.25), torch.eye(2, 3))

# channels_last keeps the NCHW sizes but lays memory out as NHWC: see the strides.
e = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last)
print(e.shape, e.stride())

# On the meta device the same path runs, with no memory: data_ptr is 0.
m = torch.randn(3, 4, device='meta')
print(m, m.stride(), m.data_ptr())
