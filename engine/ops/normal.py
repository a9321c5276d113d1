"""``torch.normal``: its four overloads and their out= forms.

Mirrors native/DistributionTemplates.h (``normal_impl``, ``normal_out_impl``) and
Distributions.cpp (``normal`` with sizes).  A tensor mean or std is not passed to a
kernel that draws per element: the normal kernel draws N(0, std) -- or N(0, 1) -- into
the output, *called directly* (no ``aten::normal_`` of its own), and ordinary operators
shift and scale it: ``add_(mean)``, or ``mul_(std).add_(mean)``.  So the numbers are
those of ``normal_`` with the same generator, bit for bit, then rounded by ``mul_`` and
``add_`` as those operators round.

Before any of that, a tensor std is checked with tensor operators (``std.min().ge(0)
.item()``: CHECK_NORMAL_TENSOR_STD) -- twice, once in ``normal_impl`` and once in
``normal_out_impl``, as torch.profiler records.
https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/DistributionTemplates.h
"""

from __future__ import annotations


from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core import shape_math
from engine.core import view as S
from engine.core.errors import Refused, torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.at_dispatch import AT_DISPATCH
from engine.dispatch.aten import aten
from engine.dispatch.declarations import CHECK_WRAPPER, META_PYTHON, declare
from engine.ops.pointwise import resize_output
from engine.ops.random import check_normal_std, normal_impl_

TEMPLATES = "aten/src/ATen/native/DistributionTemplates.h"
DISTRIBUTIONS = "aten/src/ATen/native/Distributions.cpp"

#: the normal kernel's AT_DISPATCH, reached from every overload with a tensor
KERNEL_DISPATCH = AT_DISPATCH("normal_kernel_cpu", "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16)")

CHECK_TENSOR_STD = step("CHECK_NORMAL_TENSOR_STD", Layer.KERNEL, source=TEMPLATES,
                        note="random.normal.check_tensor_std")
NORMAL_IMPL = step("normal_impl_", Layer.KERNEL, source=TEMPLATES)


def _supported(*tensors: TensorImpl) -> None:
    for t in tensors:
        if t.device_type != "cpu":
            raise Refused(f"torch.normal on a {t.device_type} tensor is not modelled by tidx "
                          f"yet (the CPU's is)")
        if t.dtype.name.startswith("complex"):
            raise Refused("torch.normal with complex tensors is not modelled by tidx")


def _check_tensor_std(std: TensorImpl) -> None:
    """CHECK_NORMAL_TENSOR_STD: every element >= 0, read back with item()."""
    with span(CHECK_TENSOR_STD):
        if std.numel() == 0:
            return
        ok = aten.item.default(aten.ge.Scalar(aten.min.default(std), 0))
        if not ok:
            raise torch_error(RuntimeError, "normal expects all elements of std >= 0.0")


def _draw(output: TensorImpl, std: float) -> None:
    """normal_impl_<normal_kernel>(output, 0, std): the kernel, called directly."""
    with span(NORMAL_IMPL, note=Note("random.normal.kernel_direct", std=std)):
        normal_impl_(output, 0.0, std)


def _resize(output: TensorImpl, shape: tuple[int, ...]) -> None:
    resize_output(output, shape, S.contiguous_strides(shape))


# -- normal(Tensor mean, float std) ----------------------------------------------------------
@declare("normal.Tensor_float_out(Tensor mean, float std=1, *, Generator? generator=None, "
         "Tensor(a!) out) -> Tensor(a!)", native="at::native::normal_out",
         source=DISTRIBUTIONS, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=KERNEL_DISPATCH)
def normal_tensor_float_out(mean, std=1.0, *, generator=None, out):
    _supported(mean, out)
    check_normal_std(std)
    # the std tensor normal_out_impl makes (and never reads): only its shape is used
    std_tensor = aten.empty_like.default(out, memory_format="contiguous_format")
    _resize(out, shape_math.infer_broadcast(mean.view.sizes, std_tensor.view.sizes))
    _draw(out, std)
    return aten.add_.Tensor(out, mean)


@declare("normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor",
         native="at::native::normal", source=DISTRIBUTIONS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=KERNEL_DISPATCH)
def normal_tensor_float(mean, std=1.0, *, generator=None):
    _supported(mean)
    check_normal_std(std)
    ret = aten.empty_like.default(mean, memory_format="contiguous_format")
    return normal_tensor_float_out(mean, std, out=ret)


# -- normal(float mean, Tensor std) ----------------------------------------------------------
@declare("normal.float_Tensor_out(float mean, Tensor std, *, Generator? generator=None, "
         "Tensor(a!) out) -> Tensor(a!)", native="at::native::normal_out",
         source=DISTRIBUTIONS, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=KERNEL_DISPATCH)
def normal_float_tensor_out(mean, std, *, generator=None, out):
    _supported(std, out)
    _check_tensor_std(std)
    mean_tensor = aten.full.default([], mean, dtype=out.dtype, device=out.device_type)
    _resize(out, shape_math.infer_broadcast(mean_tensor.view.sizes, std.view.sizes))
    _draw(out, 1.0)
    return aten.add_.Tensor(aten.mul_.Tensor(out, std), mean_tensor)


@declare("normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor",
         native="at::native::normal", source=DISTRIBUTIONS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=KERNEL_DISPATCH)
def normal_float_tensor(mean, std, *, generator=None):
    _supported(std)
    _check_tensor_std(std)
    ret = aten.empty_like.default(std, memory_format="contiguous_format")
    return normal_float_tensor_out(mean, std, out=ret)


# -- normal(Tensor mean, Tensor std) ---------------------------------------------------------
@declare("normal.Tensor_Tensor_out(Tensor mean, Tensor std, *, Generator? generator=None, "
         "Tensor(a!) out) -> Tensor(a!)", native="at::native::normal_out",
         source=DISTRIBUTIONS, meta=META_PYTHON, device_check=CHECK_WRAPPER,
         at_dispatch=KERNEL_DISPATCH)
def normal_tensor_tensor_out(mean, std, *, generator=None, out):
    _supported(mean, std, out)
    _check_tensor_std(std)
    _resize(out, shape_math.infer_broadcast(mean.view.sizes, std.view.sizes))
    _draw(out, 1.0)
    return aten.add_.Tensor(aten.mul_.Tensor(out, std), mean)


@declare("normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor",
         native="at::native::normal", source=DISTRIBUTIONS, meta=META_PYTHON,
         device_check=CHECK_WRAPPER,
         at_dispatch=KERNEL_DISPATCH)
def normal_tensor_tensor(mean, std, *, generator=None):
    _supported(mean, std)
    _check_tensor_std(std)
    shape = shape_math.infer_broadcast(mean.view.sizes, std.view.sizes)
    ret = aten.empty.memory_format(list(shape), dtype=mean.dtype, device=mean.device_type)
    return normal_tensor_tensor_out(mean, std, out=ret)


# -- normal(float mean, float std, size) -----------------------------------------------------
@declare("normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, "
         "ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
         "bool? pin_memory=None) -> Tensor", native="at::native::normal", source=DISTRIBUTIONS,
         meta=META_PYTHON)
def normal_float_float(mean, std, size, *, generator=None, dtype=None, layout=None,
                       device=None, pin_memory=None):
    from engine.ops.factories import options

    dtype, device = options(dtype, device)
    if device != "cpu":
        # on the Meta device torch runs a Python decomposition (prims::normal, mul, add)
        raise Refused(f"torch.normal(mean, std, size) on {device} is not modelled by tidx "
                      f"yet (the CPU's is)")
    result = aten.empty.memory_format(list(size), dtype=dtype, device=device)
    return aten.normal_.default(result, mean, std)


@declare("normal.float_float_out(float mean, float std, SymInt[] size, *, "
         "Generator? generator=None, Tensor(a!) out) -> Tensor(a!)",
         native="at::native::normal_out", source=DISTRIBUTIONS, meta=META_PYTHON)
def normal_float_float_out(mean, std, size, *, generator=None, out):
    aten.resize_.default(out, list(size))
    return aten.normal_.default(out, mean, std)
