"""x.T @ y: BLAS takes the transposed view with a flag; a non-contiguous operand is copied first."""
import torch

x = torch.arange(6.).reshape(2, 3)
y = torch.arange(8.).reshape(2, 4)

# x.T is a view (strides (1, 3)): addmm_impl_cpu_ hands it to gemm with flag 'T' and
# copies nothing; only resolve_conj runs on the other operand and the result.
a = x.T @ y
print(a, a.stride())

# A column slice with step 2 is neither row- nor column-major (strides (8, 2)):
# BLAS cannot describe it, so the operand is cloned contiguous before gemm.
z = torch.arange(24.).reshape(3, 8)[:, ::2]
b = x @ z
print(b)

# 3-D @ 2-D folds the batch into the rows: reshape to (10, 3), one mm, _unsafe_view back.
batch = torch.arange(30.).reshape(5, 2, 3)
c = batch @ z
print(c.shape)

# Batch dims that broadcast go to bmm: both sides expanded and reshaped to 3-D.
d = torch.ones(2, 1, 2, 3) @ torch.ones(4, 3, 5)
print(d.shape)

# Small integers in float: every product and partial sum is exact, so MKL's order and
# tidx's give the same bits.
print(torch.ones(2, 3) @ torch.ones(3, 2))

# The inner sizes must agree.
try:
    x @ y
except RuntimeError as e:
    print(e)
