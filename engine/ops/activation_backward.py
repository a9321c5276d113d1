"""The activations' backward operators (issue #27): what ReluBackward0, SigmoidBackward0
and TanhBackward0 call in the backward pass.

threshold_backward (aten/src/ATen/native/Activation.cpp, kernel in cpu/Activation.cpp):
the gradient where the forward result is above the threshold, 0 elsewhere.
sigmoid_backward and tanh_backward (aten/src/ATen/native/BinaryOps.cpp, kernels in
cpu/BinaryOpsKernel.cpp): ``grad * (1 - y) * y`` and ``grad * (1 - y * y)`` from the
forward result ``y``, in the tensors' dtype, left to right as the loops write them.  Not
bound in Python (torchgen skips ``*_backward``).
"""

from __future__ import annotations

import numpy as np

from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.ops.pointwise import iterate

ACTIVATION = "aten/src/ATen/native/Activation.cpp"
BINARY = "aten/src/ATen/native/BinaryOps.cpp"
ACTIVATION_KERNEL = "aten/src/ATen/native/cpu/Activation.cpp"
BINARY_KERNEL = "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp"


@declare("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
         native="at::native::threshold_backward (structured)", source=ACTIVATION,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def threshold_backward(grad_output, self, threshold):
    def loop(grad, x):
        return np.where(x <= x.dtype.type(threshold), grad.dtype.type(0), grad)
    return iterate("threshold_backward", [grad_output, self], loop, source=ACTIVATION_KERNEL)


@declare("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor",
         native="at::native::sigmoid_backward (structured)", source=BINARY, meta=META_PYTHON,
         python_module="nn", device_check=CHECK_WRAPPER)
def sigmoid_backward(grad_output, output):
    def loop(a, b):
        one = b.dtype.type(1)
        return (a * (one - b)) * b
    return iterate("sigmoid_backward", [grad_output, output], loop, source=BINARY_KERNEL)


@declare("tanh_backward(Tensor grad_output, Tensor output) -> Tensor",
         native="at::native::tanh_backward (structured)", source=BINARY, meta=META_PYTHON,
         python_module="nn", device_check=CHECK_WRAPPER)
def tanh_backward(grad_output, output):
    def loop(a, b):
        one = b.dtype.type(1)
        return a * (one - b * b)
    return iterate("tanh_backward", [grad_output, output], loop, source=BINARY_KERNEL)
