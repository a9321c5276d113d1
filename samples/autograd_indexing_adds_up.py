"""Gradients through fancy indexing add up: index's backward is index_put_ with accumulate=True."""
import torch

x = torch.zeros(4, requires_grad=True)
idx = torch.tensor([0, 2, 2, 2])

# y picks x[0] once and x[2] three times; IndexBackward0 saves the indices.
y = x[idx]
print(y.grad_fn.name())

# The backward pass puts each gradient back where it came from, adding: x[2] gets 3.
y.sum().backward()
print(x.grad)

# The same with rows of a weight (an embedding lookup): row 1 is picked twice.
w = torch.arange(6.).reshape(3, 2).requires_grad_()
rows = torch.tensor([1, 1, 0])
scale = torch.tensor([[1.], [2.], [3.]])
(w[rows] * scale).sum().backward()
print(w.grad)

# A second backward adds to .grad again: gradients accumulate until zeroed.
x[idx].sum().backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
