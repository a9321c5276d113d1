"""Factory operators: empty, empty_strided, zeros, ones, full and the *_like family.

Mirrors aten/src/ATen/native/TensorFactories.cpp: every factory is ``empty``
followed by a fill (seed 002's table): randn = empty + normal_, zeros = empty
+ zero_.  ``empty`` itself is the memory path of :mod:`engine.memory.empty`.
"""

from __future__ import annotations

from collections.abc import Sequence

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import dtypes as D
from engine.memory import empty as memory
from engine.core import view as S
from engine.core.context import current
from engine.core.errors import check, torch_error
from engine.dispatch.declarations import COMPOSITE, META_PYTHON, META_PYTHON_ALONE, declare
from engine.dispatch.aten import aten

FACTORIES = "aten/src/ATen/native/TensorFactories.cpp"


@declare("empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
         native="at::native::empty_cpu", source=FACTORIES,
         native_meta="at::native::empty_meta_symint",
         python_note="factory.empty", takes_complex=True)
def empty(size: Sequence[int], *, dtype: D.dtype | None = None, layout=None,
          device: str | None = None, pin_memory=None, memory_format: str | None = None):
    dtype, device = options(dtype, device)
    if memory_format not in (None, "contiguous_format", "channels_last", "preserve_format"):
        raise AssertionError(memory_format)
    if memory_format == "preserve_format":
        raise torch_error(RuntimeError, "preserve memory format is unsupported by the "
                                        "contiguous operator")
    return memory.empty_generic(size, dtype, device,
                                None if memory_format == "contiguous_format" else memory_format)


@declare("empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::empty_strided_cpu", source=FACTORIES,
         native_meta="at::native::empty_strided_meta_symint",
         python_note="factory.empty_strided", takes_complex=True)
def empty_strided(size: Sequence[int], stride: Sequence[int], *, dtype: D.dtype | None = None,
                  layout=None, device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    return memory.empty_strided_generic(size, stride, dtype, device)


META_NO_FILL = step("meta: no fill", Layer.KERNEL, source=FACTORIES)


def _meta_fill_skipped(device: str, what: str) -> bool:
    """On the meta device the fill step is skipped: there is no memory to fill."""
    if device != "meta":
        return False
    with span(META_NO_FILL, note=Note("factory.meta_no_fill", fill=what)):
        pass
    return True


@declare("zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::zeros", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.zeros", takes_complex=True)
def zeros(size: Sequence[int], *, dtype: D.dtype | None = None, layout=None,
          device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    # torch 2.13 checks the sizes inside aten::zeros on CPU, before aten::empty runs,
    # with its own message (on meta, empty's check_size_nonnegative speaks)
    if device == "cpu":
        check(all(s >= 0 for s in size), RuntimeError,
              "zeros: Dimension size must be non-negative.")
    result = aten.empty.memory_format(size, dtype=dtype, device=device)
    if _meta_fill_skipped(device, "zero_"):
        return result
    return aten.zero_.default(result)


@declare("ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::ones", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.ones", takes_complex=True)
def ones(size: Sequence[int], *, dtype: D.dtype | None = None, layout=None,
         device: str | None = None, pin_memory=None):
    dtype, device = options(dtype, device)
    result = aten.empty.memory_format(size, dtype=dtype, device=device)
    if _meta_fill_skipped(device, "fill_(1)"):
        return result
    return aten.fill_.Scalar(result, 1)


@declare("full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         native="at::native::full", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.full", takes_complex=True)
def full(size: Sequence[int], fill_value: Any, *, dtype: D.dtype | None = None, layout=None,
         device: str | None = None, pin_memory=None):
    # infer_full_options: without a dtype, a bool value gives bool, an int gives int64,
    # a complex one the default complex dtype
    if dtype is None:
        dtype = D.bool if isinstance(fill_value, bool) else (
            D.int64 if isinstance(fill_value, int) else
            D.to_complex(current().default_dtype) if isinstance(fill_value, complex) else None)
    dtype, device = options(dtype, device)
    result = aten.empty.memory_format(size, dtype=dtype, device=device)
    if _meta_fill_skipped(device, "fill_"):
        return result
    return aten.fill_.Scalar(result, fill_value)


EMPTY_LIKE_PRESERVE_FORMAT = step("empty_like: preserve_format", Layer.KERNEL, source=FACTORIES)


@declare("empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
         native="at::native::empty_like", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.empty_like", takes_complex=True, conj_fallthrough=True)
def empty_like(self, *, dtype: D.dtype | None = None, layout=None, device: str | None = None,
               pin_memory=None, memory_format: str | None = None):
    """Preserve (the default) keeps a dense input's strides; otherwise the named format."""
    dtype, device = dtype or self.dtype, device or self.device_type
    fmt = memory_format or "preserve_format"
    if fmt == "preserve_format" and S.is_non_overlapping_and_dense(self.view.sizes, self.view.strides):
        with span(EMPTY_LIKE_PRESERVE_FORMAT, note="empty_like.dense"):
            pass
        return aten.empty_strided.default(self.view.sizes, self.view.strides, dtype=dtype,
                                          device=device)
    if fmt == "preserve_format":
        with span(EMPTY_LIKE_PRESERVE_FORMAT, note="empty_like.gaps"):
            strides = S.infer_dense_strides(self.view.sizes, self.view.strides)
        return aten.empty_strided.default(self.view.sizes, strides, dtype=dtype, device=device)
    return aten.empty.memory_format(self.view.sizes, dtype=dtype, device=device,
                                    memory_format=None if fmt == "contiguous_format" else fmt)


def _like(schema: str, fill: str, value: Any = None, meta: str | None = META_PYTHON, *,
          python_note: str) -> None:
    """zeros_like / ones_like / full_like: empty_like, then the fill."""
    def kernel(self, *args: Any, dtype: D.dtype | None = None, layout=None,
               device: str | None = None, pin_memory=None, memory_format: str | None = None):
        result = aten.empty_like.default(self, dtype=dtype, device=device,
                                         memory_format=memory_format)
        if fill == "zero_":
            return aten.zero_.default(result)
        return aten.fill_.Scalar(result, args[0] if value is None else value)
    name = schema.partition("(")[0]
    declare(schema, native=f"at::native::{name}", source=FACTORIES, meta=meta,
            python_note=python_note)(kernel)


_like("zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", "zero_",
      python_note="factory.zeros_like")
_like("ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", "fill_", 1,
      python_note="factory.ones_like")
_like("full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) "
      "-> Tensor", "fill_", meta=None, python_note="factory.full_like")


def options(dtype: D.dtype | None, device: str | None) -> tuple[D.dtype, str]:
    """TensorOptions' defaults: the run's default dtype (torch.get_default_dtype()) and
    the CPU."""
    return (current().default_dtype if dtype is None else dtype,
            "cpu" if device is None else device)


# -- overloads torch binds in Python that tidx does not model -----------------------------
# -- the out= forms: resize_ the given tensor (no resize warning: resize_, not
# resize_output), then fill it (TensorFactories.cpp's zeros_out, full_out, empty_out)
@declare("zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::zeros_out", source=FACTORIES, meta=META_PYTHON)
def zeros_out(size: Sequence[int], *, out):
    aten.resize_.default(out, list(size))
    return aten.zero_.default(out)


@declare("ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::ones_out", source=FACTORIES, meta=META_PYTHON)
def ones_out(size: Sequence[int], *, out):
    # native::full_out(size, 1., result): called, not dispatched
    return _full_out(size, 1.0, out)


@declare("full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::full_out", source=FACTORIES, meta=META_PYTHON)
def full_out(size: Sequence[int], fill_value: Any, *, out):
    return _full_out(size, fill_value, out)


def _full_out(size: Sequence[int], fill_value: Any, out):
    aten.resize_.default(out, list(size))
    return aten.fill_.Scalar(out, fill_value)


@declare("empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> "
         "Tensor(a!)", kind=COMPOSITE, native="at::native::empty_out", source=FACTORIES)
def empty_out(size: Sequence[int], *, memory_format: str | None = None, out):
    check(memory_format is None, RuntimeError,
          "'memory_format' argument is incompatible with 'out' tensor argument")
    # check_size_nonnegative
    negative = [n for n in size if n < 0]
    check(not negative, RuntimeError,
          f"Trying to create tensor with negative dimension {negative[:1] and negative[0]}: "
          f"{list(size)}")
    aten.resize_.default(out, list(size))
    return out


# -- Tensor.new_*: self's dtype and device unless given (TensorFactories.cpp) --------------
def _new_options(self, dtype: D.dtype | None, device: str | None) -> tuple[D.dtype, str]:
    """self.options().merge_in(the options given): what is not given comes from self."""
    return (self.dtype if dtype is None else dtype,
            self.device_type if device is None else device)


NEW_EMPTY_SELF_S_OPTIONS = step("new_empty: self's options", Layer.KERNEL, source=FACTORIES)


@declare("new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         variants="method", native="at::native::new_empty_symint", source=FACTORIES,
         meta=META_PYTHON_ALONE,
         python_note="factory.new_empty", takes_complex=True)
def new_empty(self, size: Sequence[int], *, dtype: D.dtype | None = None, layout=None,
              device: str | None = None, pin_memory=None):
    dtype, device = _new_options(self, dtype, device)
    with span(NEW_EMPTY_SELF_S_OPTIONS,
              note=Note("factory.new_options", dtype=str(dtype), device=device)):
        pass
    return aten.empty.memory_format(size, dtype=dtype, device=device)


NEW_EMPTY_STRIDED_SELF_S_OPTIONS = step("new_empty_strided: self's options", Layer.KERNEL,
                                        source=FACTORIES)


@declare("new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         variants="method", native="at::native::new_empty_strided_symint", source=FACTORIES,
         meta=META_PYTHON_ALONE,
         python_note="factory.new_empty_strided")
def new_empty_strided(self, size: Sequence[int], stride: Sequence[int], *,
                      dtype: D.dtype | None = None, layout=None, device: str | None = None,
                      pin_memory=None):
    dtype, device = _new_options(self, dtype, device)
    with span(NEW_EMPTY_STRIDED_SELF_S_OPTIONS,
              note=Note("factory.new_options", dtype=str(dtype), device=device)):
        pass
    return aten.empty_strided.default(size, stride, dtype=dtype, device=device)


def _new_filled(self, size: Sequence[int], dtype: D.dtype | None, device: str | None,
                fill: Any):
    """new_zeros / new_ones / new_full: ``self.new_empty(size, options)`` then the fill
    (zero_ or fill_); the value never decides the dtype, self does."""
    result = aten.new_empty.default(self, size, dtype=dtype, device=device)
    if fill is None:
        return aten.zero_.default(result)
    return aten.fill_.Scalar(result, fill)


@declare("new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         variants="method", native="at::native::new_full", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.new_full", takes_complex=True)
def new_full(self, size: Sequence[int], fill_value: Any, *, dtype: D.dtype | None = None,
             layout=None, device: str | None = None, pin_memory=None):
    return _new_filled(self, size, dtype, device, fill_value)


@declare("new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         variants="method", native="at::native::new_zeros", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.new_zeros", takes_complex=True)
def new_zeros(self, size: Sequence[int], *, dtype: D.dtype | None = None, layout=None,
              device: str | None = None, pin_memory=None):
    return _new_filled(self, size, dtype, device, None)


@declare("new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         variants="method", native="at::native::new_ones", source=FACTORIES, meta=META_PYTHON,
         python_note="factory.new_ones", takes_complex=True)
def new_ones(self, size: Sequence[int], *, dtype: D.dtype | None = None, layout=None,
             device: str | None = None, pin_memory=None):
    return _new_filled(self, size, dtype, device, 1.0)
