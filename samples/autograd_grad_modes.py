"""no_grad and inference_mode: what each turns off, and why an inference tensor can never join a graph."""
import torch

w = torch.ones(3, requires_grad=True)

# With grad mode on, an operator on w records its node: y has a grad_fn.
y = w * 2
print(y.requires_grad, y.grad_fn.name())

# Under no_grad the Autograd key records nothing: z is a plain tensor.
with torch.no_grad():
    z = w * 2
print(z.requires_grad, z.grad_fn, torch.is_grad_enabled())

# inference_mode turns grad mode off too, and more: the tensors made inside are
# inference tensors, with no version counter and no autograd keys at all.
with torch.inference_mode():
    p = w * 2
    print(torch.is_inference_mode_enabled(), p.is_inference())
print(p.requires_grad, p.is_inference())

# Outside the block they can be read (p + 1 is a normal tensor) ...
q = p + 1
print(q.is_inference())

# ... but not written in place (the write happens, then the check refuses it) ...
try:
    p.add_(1)
except RuntimeError as e:
    print(e)

# ... nor saved by a node for the backward pass.
try:
    r = w * p
except RuntimeError as e:
    print(e)

# A clone made outside the block is a normal tensor: it joins the graph.
r = w * p.clone()
r.sum().backward()
print(w.grad)
