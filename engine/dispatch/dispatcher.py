"""The dispatcher: every aten operator call goes through :func:`dispatch`.

Mirrors c10's Dispatcher (aten/src/ATen/core/dispatch/Dispatcher.h): the operator is
looked up by its full name among the declarations (:mod:`engine.dispatch.declarations`),
the DispatchKeySet of the call decides the kernels it passes
(:mod:`engine.dispatch.keys`), and the kernel runs.  Kernels that call other operators
call them through here again, so the nesting of ``op`` events is the nesting
torch.profiler records.  Code calls an operator through its typed handle,
``aten.select.int(t, 0, 1)`` (:mod:`engine.dispatch.aten`), which comes here.

The ``RecordFunction`` that torch.profiler sees is taken once per call, at this entry
point; that is where the trace's ``op`` event opens.
"""

from __future__ import annotations

from typing import Any

from tracer import recorder
from tracer.steps import FROM_KERNEL, Layer, step

from engine.core.context import current
from engine.core.errors import Refused
from engine.core.tensor_impl import TensorImpl
from engine.dispatch import autograd_key, cuda, inplace_or_view
from engine.dispatch.at_dispatch import Running
from engine.dispatch.device_check import REGISTER_CUDA, device_error, runs_to_its_check
from engine.dispatch.declarations import COMPOSITE, FACTORY, META_PYTHON, REGISTRY, \
    Declaration
from engine.dispatch.keys import keyset

SOURCE = "aten/src/ATen/core/dispatch/Dispatcher.h"


def _first_tensor_device(args: tuple) -> str | None:
    """The device of the first tensor argument (lists of tensors included): what
    computeDispatchKeySet reads from the arguments."""
    for a in args:
        if isinstance(a, TensorImpl):
            return a.device_type
        if isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, TensorImpl):
                    return b.device_type
    return None


def _on_device(args: tuple, device: str = "cuda") -> bool:
    """Is any tensor argument (lists of tensors included) on the simulated CUDA device
    (or on ``device``)?"""
    for a in args:
        if isinstance(a, TensorImpl) and a.device_type == device:
            return True
        if isinstance(a, (list, tuple)) and _on_device(tuple(a), device):
            return True
    return False


#: an operator call (``aten::select``): the event that carries ``op``; gdb stops in the
#: kernel it names when that is a function of the wheel (tracer/symbols.py)
OPERATOR = step("aten::<operator>", Layer.DISPATCHER, libtorch=FROM_KERNEL)


def dispatch(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> Any:
    """Dispatch one operator (``aten::select.int``): pick its kernel, run it, record it."""
    name = op.full_name
    if op.kernel is None:
        raise Refused(f"{op.op_name} ({op.schema}) is not modelled by tidx: {op.reason}")
    ctx = current()
    device = kwargs.get("device") if op.kind == FACTORY else _first_tensor_device(args)
    if device == "meta" and op.meta == META_PYTHON and \
            op.kind != FACTORY and not ctx.below_autograd:
        # called from Python on a meta tensor, torch runs its Python meta function (the
        # operators a C++ kernel calls inside, like randn(device='meta')'s normal_, were
        # compared with torch.profiler and record the same operators)
        raise Refused(f"{op.op_name} on the meta device runs a Python meta function in "
                      "torch 2.13 (torch/_meta_registrations.py, often prims), which tidx "
                      "does not model; on the CPU it runs the C++ path tidx shows")
    if device == "cpu" and op.kind != FACTORY and op.meta is not None and \
            (_on_device(args, "meta") or _on_device(tuple(kwargs.values()), "meta")):
        # the Meta key outranks CPU: torch runs the operator's Python meta function
        # (torch/_meta_registrations.py), which for some operators returns an
        # uninitialised CPU tensor (cpu_t[meta_index]) instead of raising
        raise Refused(f"{op.op_name} with a meta tensor beside a CPU tensor runs torch's "
                      "Python meta functions (torch/_meta_registrations.py), which tidx "
                      "does not model")
    if device == "cpu" and _on_device(args):
        # computeDispatchKeySet unions every tensor's keys and the highest backend bit
        # wins: CUDA over CPU (y.cpu()'s copy_(cpu_dst, cuda_src) dispatches to CUDA)
        device = "cuda"
    if device == "cuda" or kwargs.get("device") == "cuda" or \
            _on_device(args) or _on_device(tuple(kwargs.values())):
        # also a CPU-first call with a CUDA tensor anywhere (mixing devices: refused,
        # never answered by a CPU kernel)
        # the CUDA wrapper's own device check (RegisterCUDA.cpp) comes before its kernel:
        # raised inside the operator's span (torch.profiler has recorded the operator)
        failed: tuple[str | None, BaseException] | None = device_error(op, args, kwargs)
        if failed is None:
            mixed = cuda.same_device_error(name, args)
            if mixed is not None:
                # TensorIterator's compute_types, in the structured meta: inside the
                # operator too, with the operator's own kernel
                failed = (None, mixed)
            elif not runs_to_its_check(op, args, kwargs):
                cuda.check_modelled(name, op.op_name)
    else:
        failed = None
    above = not ctx.below_autograd
    autograd = above and ctx.grad_enabled and op.kind != FACTORY and \
        autograd_key.requires_grad(args, kwargs)
    before = inplace_or_view.before_kernel(op, args) if above else None
    if not recorder.active():
        if above and autograd_key.check_before(op, args, kwargs, ctx.grad_enabled):
            _clone(args[0])
        if failed is not None:
            raise failed[1]
        result = _run(op, args, kwargs)
        if above:
            inplace_or_view.after_kernel(op, args, result, before)
        if autograd:
            autograd_key.record_after(op, result, args, kwargs)
        return result

    keys, route = keyset(device, op.kind, ctx.below_autograd)
    # The profiler records the operator without its overload: "aten::randperm".
    shown = op.op_name
    kernel, source = op.native_meta if device == "meta" and op.native_meta else op.native, \
        op.source
    if device == "cuda":
        kernel, source = cuda.CUDA_KERNELS.get(name, (kernel, source))
    if failed is not None and failed[0] is not None:
        kernel, source = failed[0], REGISTER_CUDA
    with recorder.span(OPERATOR, called=shown, op=shown, source=source, keys=keys,
                       route=route, kernel=kernel) as s:
        if above and autograd_key.check_before(op, args, kwargs, ctx.grad_enabled):
            _clone(args[0])
        if failed is not None:
            raise failed[1]
        result = _run(op, args, kwargs)
        if above:
            inplace_or_view.after_kernel(op, args, result, before)
        if autograd:
            autograd_key.record_after(op, result, args, kwargs)
        s.set_result(result)
    return result


def _clone(self: TensorImpl) -> None:
    """VariableType's ``original_self = self.clone()`` before an in-place kernel whose
    backward formula needs self's old value: an operator call of its own."""
    dispatch(REGISTRY["aten::clone"], (self,), {})


def _run(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> Any:
    """The kernel, below autograd unless it is a CompositeImplicitAutograd decomposition."""
    kernel = op.kernel
    assert kernel is not None       # dispatch() refused a declaration without one
    ctx = current()
    # the kernel's AT_DISPATCHes are its declaration's (at_dispatch.dispatched reads them)
    running = ctx.local(Running)
    outer_op, outer_dispatches = running.op, running.dispatches
    running.op, running.dispatches = op.full_name, op.at_dispatch
    try:
        if op.kind == COMPOSITE:
            return kernel(*args, **kwargs)
        outer, ctx.below_autograd = ctx.below_autograd, True
        try:
            return kernel(*args, **kwargs)
        finally:
            ctx.below_autograd = outer
    finally:
        running.op, running.dispatches = outer_op, outer_dispatches
