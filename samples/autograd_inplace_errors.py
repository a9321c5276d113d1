"""Why `x[0] = 1` breaks backward: a leaf is not written in place, and what a node saved must not change."""
import torch

x = torch.ones(3, requires_grad=True)

# x is a leaf that requires grad: torch refuses an in-place write into it.
try:
    x[0] = 1
except RuntimeError as e:
    print(e)

# Under no_grad the write is allowed (an optimiser updates its weights this way).
with torch.no_grad():
    x[0] = 2
print(x, x._version)

# z needs y to compute x's gradient: MulBackward0 saves y, at y's version 0.
y = x * 2
z = (y * y).sum()
print(y._version)

# Writing into y bumps its version (and its history becomes CopySlices).
y[0] = 0
print(y._version, y.grad_fn.name())

# The backward pass finds the saved y at version 1, not 0: torch stops.
try:
    z.backward()
except RuntimeError as e:
    print(e)

# sum saves only a shape, so writing its input later does not matter.
y = x * 2
s = y.sum()
y[1] = 5
s.backward()
print(x.grad)
