"""Views and copies: basic indexing returns a view on the same storage, advanced indexing copies."""
import torch

t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])

# Slices make a strided view: offset 3, strides (3, 2), no byte copied.
v = t[1:, ::2]
print(v.stride(), v.storage_offset(), v.data_ptr() == t.data_ptr() + 3 * t.element_size())

# Writing through the view writes t.
v[0, 1] = 60
print(t)

# A tensor index copies: index allocates a new storage for the result.
c = t[torch.tensor([1, 2])]
c[0, 0] = -1
print(t[1, 0], c.untyped_storage().data_ptr() == t.untyped_storage().data_ptr())

# transpose only swaps strides; contiguous() then copies into row-major order.
u = t.t()
print(u.stride(), u.is_contiguous(), u.contiguous().stride())
