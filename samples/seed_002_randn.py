"""Seed 002: the creation path of torch.randn(3, 4): TensorOptions, dispatcher, empty + normal_."""
import torch

# A fixed seed makes the numbers reproducible in real torch too.
torch.manual_seed(0)

# randn = empty (48 bytes: 12 elements x 4 bytes, 64-byte aligned) + normal_ from the CPU generator.
x = torch.randn(3, 4)
print(x)
