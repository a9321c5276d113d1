"""numpy and torch: from_numpy and .numpy() share one buffer, torch.tensor copies it."""
import numpy as np
import torch

a = np.arange(6)

# torch.from_numpy wraps the array's own bytes (at::from_blob): no copy, one storage.
t = torch.from_numpy(a)
print(t, t.dtype)

# A write through the array is seen through the tensor, and the other way round.
a[0] = 100
t[1] = -1
print(t)
print(a)

# torch.tensor copies: the new tensor has bytes of its own.
c = torch.tensor(a)
a[2] = 42
print(c)

# as_tensor keeps the array's bytes when it can (same dtype, on the CPU) ...
s = torch.as_tensor(a)
# ... and copies when it must: float32 is another dtype than numpy's int64.
f = torch.as_tensor(a, dtype=torch.float32)
a[3] = 7
print(s, f)

# t.numpy() is the tensor's bytes seen by numpy: strides in bytes, not elements.
x = torch.arange(6.).reshape(2, 3)
n = x.T.numpy()
print(x.stride(), n.strides)
n[0, 1] = 0.5
print(x)

# numpy's arrays default to float64, torch.tensor's floats to float32.
print(np.array([1.0]).dtype, torch.tensor([1.0]).dtype, torch.from_numpy(np.array([1.0])).dtype)
