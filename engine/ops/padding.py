"""reflection_pad1d/2d/3d and replication_pad1d/2d/3d: what F.pad's 'reflect' and
'replicate' modes run (aten/src/ATen/native/ReflectionPad.cpp,
aten/src/ATen/native/ReplicationPadding.cpp, aten/src/ATen/native/Padding.h and the CPU
kernels in aten/src/ATen/native/cpu/PaddingKernel.cpp).

Each pads the last 1, 2 or 3 dims of a batch-less ``(C, ...)`` or batched ``(N, C, ...)``
input.  The meta function checks the input (``padding::check_valid_input``: only the
batch dim may be empty), the pads against the sizes, and sizes the output; the kernel
(``cpu_padding`` / ``cpu_padding_channels_last``, under the input's suggested memory
format) writes every output element from one input element: for output position ``j``
of a dim padded by ``pad`` on the left, ``i = j - pad`` mirrored about the edge elements
(reflect: ``-i`` below 0, ``2(n-1) - i`` past the end; the edges are not repeated) or
clamped to them (replicate).  Negative pads crop with the same formula.  No arithmetic:
the values are the input's, bit for bit.

How the output is made differs, and torch.profiler shows it: reflection_pad1d and
replication_pad1d are structured (the output allocated without an operator);
reflection_pad2d is not (``at::empty({0})`` and ``resize_`` in the input's suggested
memory format); reflection_pad3d and replication_pad2d/3d are structured and their CPU
impl ``resize_``\\ s the output to that memory format.  The kernel takes a contiguous
copy of an input that is not contiguous in that format (``contiguous``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import memory_format as MF
from engine.core.errors import check
from engine.dispatch.at_dispatch import AT_DISPATCH, dispatched
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.memory import empty as memory
from engine.memory.allocator import check_temporary
from engine.ops.pointwise import shape_text
from engine.ops.touch import touched

REFLECTION = "aten/src/ATen/native/ReflectionPad.cpp"
REPLICATION = "aten/src/ATen/native/ReplicationPadding.cpp"
KERNEL = "aten/src/ATen/native/cpu/PaddingKernel.cpp"
_TYPES = "AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf)"
#: the dims' letters in the meta functions' messages, innermost first
_LETTERS = ("W", "H", "D")


def _dispatch(name: str, nd: int) -> tuple:
    """The kernel's switches: one per memory format the 2-d and 3-d kernels take."""
    if nd == 1:
        return (AT_DISPATCH(name, _TYPES),)
    return (AT_DISPATCH(name, _TYPES), AT_DISPATCH(f"{name}_channels_last", _TYPES))


def check_valid_input(self, padding: Sequence[int], nd: int) -> None:
    """padding::check_valid_input<dim> (Padding.h): 2*dim pads; a (dim+2)-d input may have
    an empty batch dim, every other dim (and all of a (dim+1)-d input's) non-empty."""
    check(len(padding) == 2 * nd, RuntimeError,
          f"padding size is expected to be {2 * nd}, but got: {len(padding)}")
    sizes = self.view.sizes
    batch = len(sizes) == nd + 2
    valid = all(n != 0 for n in (sizes[1:] if batch else sizes))
    check(valid, RuntimeError,
          f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with possibly 0 batch size "
          f"and other non-zero dimensions for input, but got: {shape_text(sizes)}")


def _output_shape(self, padding: Sequence[int], nd: int, reflect: bool) -> list[int]:
    """The meta function's checks and the output's sizes."""
    sizes = list(self.view.sizes)
    first = len(sizes) - nd                  # the first padded dim
    inputs = [sizes[len(sizes) - 1 - k] for k in range(nd)]          # W, H, D
    outputs = [inputs[k] + padding[2 * k] + padding[2 * k + 1] for k in range(nd)]
    if reflect:
        for k in range(nd):
            left, right = padding[2 * k], padding[2 * k + 1]
            check(left < inputs[k] and right < inputs[k], RuntimeError,
                  f"Argument #{4 + 2 * k}: Padding size should be less than the corresponding "
                  f"input dimension, but got: padding ({left}, {right}) at dimension "
                  f"{len(sizes) - 1 - k} of input {shape_text(sizes)}")
    if nd == 1:
        check(outputs[0] >= 1, RuntimeError,
              f"input (W: {inputs[0]}) is too small. Calculated output W: {outputs[0]}")
    elif nd == 2:
        gap = ", W: {w}) is too small." if reflect else ", W: {w} ) is too small."
        check(outputs[0] >= 1 or outputs[1] >= 1, RuntimeError,
              ("input (H: {h}" + gap + " Calculated output H: {oh} W: {ow}").format(
                  h=inputs[1], w=inputs[0], oh=outputs[1], ow=outputs[0]))
    else:
        check(any(o >= 1 for o in outputs), RuntimeError,
              f"input (D: {inputs[2]} H: {inputs[1]}, W: {inputs[0]}) is too small. "
              f"Calculated output D: {outputs[2]} H: {outputs[1]} W: {outputs[0]}")
    return sizes[:first] + outputs[::-1]


def source_index(size: int, out_size: int, left: int, reflect: bool) -> np.ndarray:
    """ReflectionPad::index / ReplicationPad::index plus the crop's offset: the input
    position each output position of one dim reads.

    >>> source_index(3, 6, 1, True).tolist(), source_index(3, 6, 2, False).tolist()
    ([1, 0, 1, 2, 1, 0], [0, 0, 0, 1, 2, 2])
    """
    i = np.arange(out_size, dtype=np.int64) - left
    if reflect:
        i = np.where(i < 0, -i, i)
        return np.where(i >= size, 2 * (size - 1) - i, i)
    return np.clip(i, 0, size - 1)


PAD_KERNEL = step("cpu_padding", Layer.KERNEL, source=KERNEL)


def _kernel(name: str, output, self, padding: Sequence[int], nd: int, reflect: bool):
    """reflection/replication_pad{nd}d_kernel_impl: cpu_padding_channels_last when the
    input suggests the kernel's own channels-last format (ChannelsLast for 2-d,
    ChannelsLast3d for 3-d), else cpu_padding (each its own AT_DISPATCH name); either
    reads a contiguous copy of an input not laid out in its format and writes into a
    contiguous copy of an output not laid out so (a 4-d channels-last input of pad3d),
    copied back at the end."""
    fmt = MF.suggest_memory_format(self.view.sizes, self.view.strides)
    last = (nd == 2 and fmt == MF.CHANNELS_LAST) or (nd == 3 and fmt == MF.CHANNELS_LAST_3D)
    use = fmt if last else MF.CONTIGUOUS
    dispatched(self.dtype, f"{name}_channels_last" if last else name)
    src = self
    if not MF.is_contiguous_as(self.view.sizes, self.view.strides, use):
        src = aten.contiguous.default(self, memory_format=use)
    dst = output
    if not MF.is_contiguous_as(output.view.sizes, output.view.strides, use):
        dst = aten.contiguous.default(output, memory_format=use)
    with span(PAD_KERNEL, called=("cpu_padding_channels_last" if last else "cpu_padding"),
              note=Note("pad.reflect" if reflect else "pad.replicate", dims=nd)) as s:
        if not self.is_meta and dst.numel() > 0:
            check_temporary(name, dst.numel(), 8 * nd + dst.dtype.itemsize)
            sizes, outs = self.view.sizes, dst.view.sizes
            first = len(sizes) - nd
            index: list = [slice(None)] * first
            for d in range(first, len(sizes)):
                k = len(sizes) - 1 - d
                index.append(source_index(sizes[d], outs[d], padding[2 * k], reflect))
            grid = np.ix_(*index[first:]) if nd > 1 else (index[first],)
            values = src.array()[tuple(index[:first]) + tuple(grid)]
            dst.array(write=True)[...] = values
            s.set(read=touched(src), written=touched(dst))
        s.set_result(dst)
    if dst is not output:
        aten.copy_.default(output, dst)
    return output


def _structured(name: str, self, padding: Sequence[int], nd: int, reflect: bool,
                restride: bool):
    """A structured pad: check_valid_input, the meta checks, the output allocated by the
    structured kernel (no operator), for 2-d and 3-d its resize_ into the input's
    suggested memory format (TORCH_IMPL_FUNC(..._out_cpu)), then the kernel."""
    if not reflect:
        check(len(padding) == 2 * nd, RuntimeError, f"padding size is expected to be {2 * nd}")
    check_valid_input(self, padding, nd)
    shape = _output_shape(self, padding, nd, reflect)
    output = memory.empty_generic(shape, self.dtype, self.device_type)
    if restride:
        fmt = MF.suggest_memory_format(self.view.sizes, self.view.strides)
        aten.resize_.default(output, shape, memory_format=fmt)
    return _kernel(name, output, self, padding, nd, reflect)


@declare("reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor",
         native="at::native::reflection_pad1d_out_cpu (structured)", source=REFLECTION,
         python_module="nn", at_dispatch=_dispatch("reflection_pad1d", 1), takes_complex=True,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def reflection_pad1d(self, padding):
    return _structured("reflection_pad1d", self, padding, 1, True, False)


@declare("reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor",
         native="at::native::reflection_pad2d_cpu", source=REFLECTION,
         python_module="nn", at_dispatch=_dispatch("reflection_pad2d", 2), takes_complex=True,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def reflection_pad2d(self, padding):
    """Not structured: at::empty({0}), then reflection_pad2d_out_template's checks and
    its resize_ (a 4-d input's in its suggested memory format)."""
    output = aten.empty.memory_format([0], dtype=self.dtype, device=self.device_type)
    check_valid_input(self, padding, 2)
    shape = _output_shape(self, padding, 2, True)
    if self.dim() == 3:
        aten.resize_.default(output, shape)
    else:
        aten.resize_.default(output, shape, memory_format=MF.suggest_memory_format(
            self.view.sizes, self.view.strides))
    return _kernel("reflection_pad2d", output, self, padding, 2, True)


@declare("reflection_pad3d(Tensor self, SymInt[6] padding) -> Tensor",
         native="at::native::reflection_pad3d_out_cpu (structured)", source=REFLECTION,
         python_module="nn", at_dispatch=_dispatch("reflection_pad3d", 3), takes_complex=True,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def reflection_pad3d(self, padding):
    return _structured("reflection_pad3d", self, padding, 3, True, True)


@declare("replication_pad1d(Tensor self, SymInt[2] padding) -> Tensor",
         native="at::native::replication_pad1d_out_cpu (structured)", source=REPLICATION,
         python_module="nn", at_dispatch=_dispatch("replication_pad1d", 1), takes_complex=True,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def replication_pad1d(self, padding):
    return _structured("replication_pad1d", self, padding, 1, False, False)


@declare("replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor",
         native="at::native::replication_pad2d_out_cpu (structured)", source=REPLICATION,
         python_module="nn", at_dispatch=_dispatch("replication_pad2d", 2), takes_complex=True,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def replication_pad2d(self, padding):
    return _structured("replication_pad2d", self, padding, 2, False, True)


@declare("replication_pad3d(Tensor self, SymInt[6] padding) -> Tensor",
         native="at::native::replication_pad3d_out_cpu (structured)", source=REPLICATION,
         python_module="nn", at_dispatch=_dispatch("replication_pad3d", 3), takes_complex=True,
         meta=META_PYTHON, device_check=CHECK_WRAPPER)
def replication_pad3d(self, padding):
    return _structured("replication_pad3d", self, padding, 3, False, True)
