"""pad in constant mode: pad -> constant_pad_nd (aten/src/ATen/native/PadNd.cpp).

``pad`` (what ``F.pad`` is: ``torch._C._nn.pad``) checks the pad list (even length, at
most two entries per dim) and hands constant mode to ``constant_pad_nd(self, pad, value
or 0)``.  The pad list runs from the last dim backwards: ``(left, right)`` pads the last
dim, ``(left, right, top, bottom)`` the last two.  ``constant_pad_nd`` first narrows the
input by each negative pad (a view), returns a clone if no pad is positive, else
allocates the output (``empty`` in the input's suggested memory format), fills it with
the value, narrows it to the input's window and copies the input in (``copy_``): the
result never shares memory with the input.  reflect, replicate and circular run other
kernels, which tidx refuses in one line.
"""

from __future__ import annotations

from engine.core import memory_format as MF
from engine.core.errors import Refused, check, torch_error
from engine.dispatch.aten import aten
from engine.dispatch.declarations import COMPOSITE, declare

PADND = "aten/src/ATen/native/PadNd.cpp"
_MODES = ("constant", "reflect", "replicate", "circular")


@declare('pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor',
         kind=COMPOSITE, native="at::native::pad_symint", source=PADND, python_module="nn")
def pad(self, pad, mode="constant", value=None):
    if mode not in _MODES:
        raise torch_error(NotImplementedError, f"Unrecognised padding mode {mode}")
    check(len(pad) % 2 == 0, RuntimeError, "Padding length must be divisible by 2")
    check(len(pad) <= self.dim() * 2, RuntimeError,
          "Padding length should be less than or equal to two times the input dimension but "
          f"got padding length {len(pad)} and input of dimension {self.dim()}")
    if mode == "constant":
        return aten.constant_pad_nd.default(self, pad, 0.0 if value is None else value)
    check(value is None or value == 0, RuntimeError,
          f'Padding mode "{mode}" doesn\'t take in value argument')
    raise Refused(f"F.pad with mode='{mode}' is not modelled yet (mode='constant' is)")


@declare("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor",
         native="at::native::constant_pad_nd", source=PADND)
def constant_pad_nd(self, pad, value=0):
    check(len(pad) % 2 == 0, RuntimeError,
          f"Length of pad must be even but instead it equals {len(pad)}")
    sizes = list(self.view.sizes)
    l_inp, l_pad = self.dim(), len(pad) // 2
    l_diff = l_inp - l_pad
    check(l_inp >= l_pad, RuntimeError,
          "Length of pad should be no more than twice the number of dimensions of the input. "
          f"Pad length is {len(pad)}while the input has {l_inp}dimensions.")
    c_input, all_non_positive = self, True
    for i in range(l_diff, l_inp):
        at = 2 * (l_inp - i - 1)
        if pad[at] < 0:
            c_input = aten.narrow.default(c_input, i, -pad[at], c_input.view.sizes[i] + pad[at])
        elif pad[at] != 0:
            all_non_positive = False
        if pad[at + 1] < 0:
            c_input = aten.narrow.default(c_input, i, 0, c_input.view.sizes[i] + pad[at + 1])
        elif pad[at + 1] != 0:
            all_non_positive = False
    if all_non_positive:
        # only narrowing: the narrowed view, cloned
        return aten.clone.default(c_input)
    new_shape = sizes[:l_diff]
    for i in range(l_pad):
        at = len(pad) - (i + 1) * 2
        new_dim = sizes[l_diff + i] + pad[at] + pad[at + 1]
        check(new_dim >= 0, RuntimeError,
              f"The input size {sizes[l_diff + i]}, plus negative padding {pad[at]} and "
              f"{pad[at + 1]} resulted in a negative output size, which is invalid. Check "
              f"dimension {l_diff + i} of your input.")
        new_shape.append(new_dim)
    fmt = MF.suggest_memory_format(self.view.sizes, self.view.strides)
    output = aten.empty.memory_format(new_shape, dtype=self.dtype, device=self.device_type,
                                      memory_format=fmt)
    aten.fill_.Scalar(output, value)
    c_output = output
    for i in range(l_diff, l_inp):
        at = 2 * (l_inp - i - 1)
        if pad[at] > 0:
            c_output = aten.narrow.default(c_output, i, pad[at], c_output.view.sizes[i] - pad[at])
        if pad[at + 1] > 0:
            c_output = aten.narrow.default(c_output, i, 0, c_output.view.sizes[i] - pad[at + 1])
    aten.copy_.default(c_output, c_input)
    return output
