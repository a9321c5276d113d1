"""Views and in-place: writing into a view rebases its base onto CopySlices."""
import torch

w = torch.arange(6.).reshape(2, 3).requires_grad_()
z = w * 1
row = z[0]
print(z.grad_fn.name(), row.grad_fn.name())

# copy_ into a view of z (z[0, 1] is select twice): z's history becomes CopySlices,
# which holds the write's own node (CopyBackwards) and points at z's old MulBackward0.
z[0, 1] = 10
print(z.grad_fn.name(), [n.name() for n, _ in z.grad_fn.next_functions if n is not None])
print(z._version, row._version)

# row shares z's version counter; its grad_fn is made again over the new history.
print(row.grad_fn.name(), row.grad_fn.next_functions[0][0].name())

# The written element gets no gradient through z: 10 does not depend on w.
(z.sum() + row.sum()).backward()
print(w.grad)
