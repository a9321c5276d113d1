"""torch.einsum is permutes, reshapes and a bmm: Linear.cpp's einsum, step by step."""
import torch

a = torch.arange(6.).reshape(2, 3)
b = torch.arange(12.).reshape(3, 4)

# One operand, no sum: a permute and nothing else -- the result is a view of a.
t = torch.einsum('ij->ji', a)
print(t, t.stride())

# 'ij,jk->ik' is a matrix product: each operand is unsqueezed to the labels i, k, j and
# permuted to that order; j is summed by sumproduct_pair: permute, reshape to
# (1, 2, 3) and (1, 3, 4), one bmm, then view and permute back.
c = torch.einsum('ij,jk->ik', a, b)
print(c)

# Nothing summed between two operands: one broadcasting mul (an outer product).
v = torch.arange(3.)
w = torch.arange(2.)
print(torch.einsum('i,j->ij', w, v))

# A repeated label is a diagonal: diagonal, then movedim; without '->' the output is
# the labels seen once, so 'ii' sums the diagonal: the trace.
m = torch.arange(9.).reshape(3, 3)
print(torch.einsum('ii->i', m), torch.einsum('ii', m))

# A label only one operand has is summed first, with sum(keepdim=True), before the bmm.
print(torch.einsum('ij,j->', a, v))

# Batched: b is the batch of the bmm, ... broadcasts like any other dims.
x = torch.ones(2, 3, 4)
y = torch.ones(2, 4, 5)
print(torch.einsum('bij,bjk->bik', x, y).shape)
print(torch.einsum('...ij,...jk', x, y).shape)

# Three operands contract left to right (torch has no opt_einsum here): a @ b, then @ b.T.
print(torch.einsum('ij,jk,lk->il', a, b, b))

# The equation is checked label by label, with torch's own words.
try:
    torch.einsum('ij,jk->ik', a, a)
except RuntimeError as e:
    print(e)
