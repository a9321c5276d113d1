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

from engine.core import dtypes as D
from engine.core.context import current
from engine.core.errors import Refused
from engine.core.tensor_impl import TensorImpl
from engine.dispatch import autograd_key, cuda, inplace_or_view
from engine.dispatch.at_dispatch import Running
from engine.dispatch.device_check import REGISTER_CUDA, device_error, runs_to_its_check
from engine.dispatch.declarations import COMPOSITE, FACTORY, INPLACE, META_PYTHON, OUT, \
    REGISTRY, VIEW, Declaration, lookup
from engine.dispatch.keys import keyset, reached

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


def _all_inference(args: tuple, kwargs: dict[str, Any]) -> bool:
    """Are the call's tensors (lists included) all inference tensors, so that the key set
    computeDispatchKeySet unions has no Autograd and no ADInplaceOrView key?  (A call
    with no tensor argument at all is not: its keys come from elsewhere.)"""
    seen = False
    for a in (*args, *kwargs.values()):
        for t in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(t, TensorImpl):
                if not t.is_inference:
                    return False
                seen = True
    return seen


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
    # (a view moves no element; a composite's operators are each asked in turn)
    # (an operator whose AT_DISPATCH leaves complex out is refused too: some kernels take
    # a branch before it that torch's complex check comes first in, floor's copy of ints)
    if not op.takes_complex and op.kind not in (VIEW, COMPOSITE) and \
            _complex_in(args, kwargs):
        raise Refused(f"{op.op_name} on a complex tensor (or with a complex dtype) is not "
                      "modelled by tidx yet")
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
    # which of the Autograd and ADInplaceOrView kernels the call reaches (inference
    # mode and inference tensors leave them out: keys.reached)
    inference = op.kind != FACTORY and _all_inference(args, kwargs)
    above, inplace_view = reached(ctx.below_autograd, ctx.inference_mode, inference)
    # compute_requires_grad, asked once: the Autograd kernel's checks and its node use it
    wants_grad = above and ctx.grad_enabled and autograd_key.requires_grad(args, kwargs)
    autograd = wants_grad and op.kind != FACTORY
    before = inplace_or_view.before_kernel(op, args) if inplace_view else None
    if not recorder.active():
        original = _clone(args[0]) if above and autograd_key.check_before(
            op, args, kwargs, wants_grad) else None
        # an in-place call's node keeps self's sizes from before the kernel (squeeze_)
        self_before = autograd_key.metadata_before(op, args, kwargs) if autograd else None
        if failed is not None:
            raise failed[1]
        result = _run_resolving_conj(op, args, kwargs)
        if inplace_view:
            inplace_or_view.after_kernel(op, args, result, before)
        if autograd:
            autograd_key.record_after(op, result, args, kwargs, original, self_before)
        return result

    keys, route = keyset(device, op.kind, ctx.below_autograd,
                         inference_mode=ctx.inference_mode, inference_tensors=inference)
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
        original = _clone(args[0]) if above and autograd_key.check_before(
            op, args, kwargs, wants_grad) else None
        # an in-place call's node keeps self's sizes from before the kernel (squeeze_)
        self_before = autograd_key.metadata_before(op, args, kwargs) if autograd else None
        if failed is not None:
            raise failed[1]
        result = _run_resolving_conj(op, args, kwargs)
        if inplace_view:
            inplace_or_view.after_kernel(op, args, result, before)
        if autograd:
            autograd_key.record_after(op, result, args, kwargs, original, self_before)
        s.set_result(result)
    return result


def _clone(self: TensorImpl) -> TensorImpl:
    """VariableType's ``original_self = self.clone()`` before an in-place kernel whose
    backward formula needs self's old value: an operator call of its own (the node saves
    it as ``self``)."""
    clone: TensorImpl = dispatch(REGISTRY["aten::clone"], (self,), {})
    return clone


def _run_resolving_conj(op: Declaration, args: tuple, kwargs: dict[str, Any]) -> Any:
    """The Conjugate key's fallback (aten/src/ATen/ConjugateFallback.cpp, through
    MathBitsFallback.h) below an operator that does not read the bit itself: each input
    with the conjugate bit is cloned (clone's copy_ conjugates it: the clone has no bit),
    the kernel runs on the clones, and a written one is copied back into its tensor."""
    if op.conj_fallthrough or op.kind in (VIEW, COMPOSITE) or not _conj_in(args, kwargs):
        return _run(op, args, kwargs)
    clone, copy = lookup("aten::clone"), lookup("aten::copy_")
    if op.kind == OUT and any(isinstance(v, TensorImpl) and v.is_conj
                              for k, v in kwargs.items() if k.startswith("out")):
        raise Refused(f"{op.op_name} writing into a tensor with the conjugate bit (out=) is "
                      "not modelled by tidx")
    if _conj_in((), kwargs):
        raise Refused(f"{op.op_name} with a keyword tensor with the conjugate bit is not "
                      "modelled by tidx")

    def resolve(a: Any) -> Any:         # a tensor list's elements too, in order
        if isinstance(a, (list, tuple)) and _conj_in(tuple(a), {}):
            return type(a)(resolve(b) for b in a)
        return dispatch(clone, (a,), {}) if isinstance(a, TensorImpl) and a.is_conj else a
    resolved = [resolve(a) for a in args]
    if op.conj_records_again:
        # torch.profiler shows the operator again under the first, holding the kernel's
        # operators (sum and mean of a whole tensor, measured): a call below autograd
        ctx = current()
        outer, ctx.below_autograd = ctx.below_autograd, True
        try:
            return dispatch(op, tuple(resolved), kwargs)
        finally:
            ctx.below_autograd = outer
    result = _run(op, tuple(resolved), kwargs)
    if op.kind == INPLACE and resolved[0] is not args[0]:
        dispatch(copy, (args[0], resolved[0]), {})   # the written clone, back
        return args[0]
    return result


def _conj_in(args: tuple, kwargs: dict[str, Any]) -> bool:
    """Does a tensor argument (lists included) carry the conjugate bit?"""
    for a in (*args, *kwargs.values()):
        if isinstance(a, TensorImpl) and a.is_conj:
            return True
        if isinstance(a, (list, tuple)) and _conj_in(tuple(a), {}):
            return True
    return False


def _complex_in(args: tuple, kwargs: dict[str, Any]) -> bool:
    """Is any tensor argument (lists included), Python number or dtype complex?"""
    for a in (*args, *kwargs.values()):
        if isinstance(a, TensorImpl) and a.dtype.is_complex or isinstance(a, complex) or \
                isinstance(a, D.dtype) and a.is_complex:
            return True
        if isinstance(a, (list, tuple)) and _complex_in(tuple(a), {}):
            return True
    return False


def _requires_grad(args: tuple, kwargs: dict[str, Any]) -> bool:
    """Does any tensor argument (lists of tensors included) require grad?"""
    for a in (*args, *kwargs.values()):
        if isinstance(a, TensorImpl) and a.requires_grad:
            return True
        if isinstance(a, (list, tuple)) and _requires_grad(tuple(a), {}):
            return True
    return False


def _refuse_autograd(op: Declaration, result: Any, args: tuple) -> None:
    """The Autograd key of a call with an input that requires grad: torch's VariableType
    records a grad_fn on a floating result (it then requires grad and prints it), which
    tidx does not model yet (issue #27) -- refused rather than shown without it.  An
    integer or bool result (x > 0, x.argmax()) has no grad_fn in torch either, nor do the
    factories that only copy an input's options (zeros_like, new_ones) or detach."""
    results = result if isinstance(result, (list, tuple)) else (result,)
    if op.kind not in (INPLACE, OUT) and any(r is a for r in results for a in args):
        return      # an input handed back as it is (resolve_conj without a conj bit)
    if op.name in ("detach", "detach_") or op.name.endswith("_like") or \
            op.name.startswith("new_") or not any(
            isinstance(r, TensorImpl) and (r.dtype.is_floating_point or r.dtype.is_complex)
            for r in results):
        return
    raise Refused(f"{op.op_name} on a tensor that requires grad: torch records its autograd "
                  "node (grad_fn) and the result requires grad, which tidx does not model "
                  "yet; use .detach() or requires_grad=False to see its path")


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
