"""Triangles and diagonals: diagonal is a view whose stride is a sum, diag copies, tril/triu mask."""
import torch

t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])

# diagonal() copies nothing: one step moves a row and a column, stride 3 + 1 = 4.
d = t.diagonal()
print(d, d.stride(), d.storage_offset())

# offset=1 starts one column in (storage offset 0 + 1 * 1) and is one element shorter.
d1 = t.diagonal(1)
print(d1, d1.stride(), d1.storage_offset())

# Writing through the diagonal view writes t.
d.zero_()
print(t)

# diag on a matrix copies the diagonal: a new storage, changing it leaves t alone.
c = torch.diag(t, -1)
c[0] = 40
print(c, t[1, 0], c.untyped_storage().data_ptr() == t.untyped_storage().data_ptr())

# diag on a vector builds a matrix: zeros, its diagonal view, then copy_.
print(torch.diag(torch.tensor([1, 2]), 1))

# tril keeps j - i <= diagonal and writes 0 elsewhere; triu keeps j - i >= diagonal.
m = torch.arange(1, 10).reshape(3, 3)
print(m.tril(), m.triu(1))

# The pairs tril would keep, as row and column indices.
print(torch.tril_indices(3, 3))

# fill_diagonal_ writes in place through a view whose stride is the sum of all strides.
z = torch.zeros(5, 3, dtype=torch.int64)
z.fill_diagonal_(7, wrap=True)
print(z)

# The diagonal's two dims must differ.
try:
    t.diagonal(0, 1, -1)
except RuntimeError as e:
    print(e)
