"""pad: pad -> constant_pad_nd, reflection_pad1d/2d/3d, replication_pad1d/2d/3d or
_pad_circular (aten/src/ATen/native/PadNd.cpp).

``pad`` (what ``F.pad`` is: ``torch._C._nn.pad``) checks the pad list (even length, at
most two entries per dim) and hands constant mode to ``constant_pad_nd(self, pad, value
or 0)``.  The pad list runs from the last dim backwards: ``(left, right)`` pads the last
dim, ``(left, right, top, bottom)`` the last two.  ``constant_pad_nd`` first narrows the
input by each negative pad (a view), returns a clone if no pad is positive, else
allocates the output (``empty`` in the input's suggested memory format), fills it with
the value, narrows it to the input's window and copies the input in (``copy_``): the
result never shares memory with the input.

The other modes take no value and pad the last 1, 2 or 3 dims of a 2-d/3-d, 3-d/4-d or
4-d/5-d input (``_pad_enum``, which ``pad`` calls as a C++ function: no operator of its
own): reflect and replicate run their kernels (engine/ops/padding.py); circular is the
composite ``_pad_circular``, made of slices and copies: the input (cropped by negative
pads) copied into the middle of a ``new_empty`` output, then, dim by dim from the last,
the output's own far end copied into its left pad and its near end into its right pad
(the corners are written more than once).
"""

from __future__ import annotations

import math

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
    # _pad_enum: the pad's length and the input's dims choose the kernel
    dims, nd = self.dim(), len(pad) // 2
    if len(pad) in (2, 4, 6) and dims in (nd + 1, nd + 2):
        if mode == "circular":
            return aten._pad_circular.default(self, pad)
        name = ("reflection_pad" if mode == "reflect" else "replication_pad") + f"{nd}d"
        return getattr(aten, name).default(self, pad)
    raise torch_error(NotImplementedError,
                      f"Padding size {len(pad)} is not supported for {dims}D input tensor.\n"
                      "Supported combinations for non-constant padding:\n"
                      "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                      "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                      "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


@declare("_pad_circular(Tensor self, SymInt[] pad) -> Tensor", kind=COMPOSITE,
         native="at::native::_pad_circular_symint", source=PADND, python_module="nn")
def _pad_circular(self, pad):
    """_pad_circular_symint: the output's shape (each pad at most the dim's size), the
    input's window copied into the output's, then each pad copied from the other end of
    the output."""
    in_shape = list(self.view.sizes)
    padded = len(pad) // 2
    unpadded = len(in_shape) - padded
    check(unpadded in (1, 2), RuntimeError,
          "Invalid padding size, expected 1 or 2 non-padded dimensions, which would be "
          f"equivalent to padding of length {(len(in_shape) - 1) * 2} or "
          f"{(len(in_shape) - 2) * 2} respectively but got {len(pad)}")
    out_shape = in_shape[:unpadded]
    for i in range(padded):
        left, right = pad[2 * (padded - i - 1)], pad[2 * (padded - i - 1) + 1]
        size = in_shape[unpadded + i]
        out_shape.append(size + left + right)
        check(left <= size and right <= size, RuntimeError,
              "Padding value causes wrapping around more than once.")
        check(out_shape[-1] >= 0, RuntimeError,
              "Negative padding value is resulting in an empty dimension")
    for i in range(padded if math.prod(out_shape) else 0):
        left, right = pad[2 * i], pad[2 * i + 1]
        size = in_shape[len(in_shape) - 1 - i]
        if (left > 0 > right and left > size + right) or \
                (right > 0 > left and right > size + left):
            # a pad wider than what is left of the input after the other side's crop: torch
            # copies from output elements nothing wrote yet (uninitialised memory), or
            # within one overlapping window in its copy loop's order
            raise Refused(f"F.pad(mode='circular') with pads ({left}, {right}) on a dim of "
                          f"size {size}: torch fills that pad from output elements nothing "
                          "has written (uninitialised memory), which tidx does not show")
    out = aten.new_empty.default(self, out_shape)
    out_slice, in_slice = out, self
    for i in range(padded):
        dim = padded - i + unpadded - 1
        left, right = pad[2 * i], pad[2 * i + 1]
        out_slice = aten.slice.Tensor(out_slice, dim, max(left, 0),
                                      out_shape[dim] - max(right, 0))
        in_slice = aten.slice.Tensor(in_slice, dim, max(-left, 0),
                                     in_shape[dim] - max(-right, 0))
    aten.copy_.default(out_slice, in_slice)
    for i in range(padded):
        dim = padded - i + unpadded - 1
        left, right = pad[2 * i], pad[2 * i + 1]
        if left > 0:
            aten.copy_.default(aten.slice.Tensor(out, dim, 0, left), aten.slice.Tensor(
                out, dim, out_shape[dim] - left - max(right, 0), out_shape[dim] - max(right, 0)))
        if right > 0:
            aten.copy_.default(aten.slice.Tensor(out, dim, out_shape[dim] - right,
                                                 out_shape[dim]),
                               aten.slice.Tensor(out, dim, max(left, 0), max(left, 0) + right))
    return out


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
