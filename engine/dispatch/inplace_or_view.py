"""The ADInplaceOrView key's work: version counters and view bases.

Every operator tidx draws passes ``AutogradCPU -> ADInplaceOrView -> CPU``.  The
ADInplaceOrView kernels torchgen writes (torch/csrc/autograd/generated/
ADInplaceOrViewType_0.cpp, from gen_inplace_or_view_type.py) do two things after
redispatching below the key:

* an in-place or out= operator calls ``torch::autograd::increment_version`` on each
  tensor it wrote: one bump per call, shared by every view of the same base
  (``x[0] = 1`` bumps ``x._version`` through the select's view);
* a view operator calls ``as_view(base, result, ...)``: the result shares its base's
  version counter and remembers the root base (``v._base``; a view of a view has the
  first base).  ``detach`` makes a non-differentiable view (VariableTypeManual.cpp):
  it shares the version counter but is not a view.

Only calls made above autograd reach the key: a kernel's own calls run under
``AutoDispatchBelowADInplaceOrView`` (``RunContext.below_autograd``), and a
CompositeImplicitAutograd operator has no ADInplaceOrView kernel of its own (the
operators it calls do the work).  An operator that raises bumps nothing: the bump
follows the redispatch.
"""

from __future__ import annotations

from typing import Any

from engine.core.context import current
from engine.core.errors import torch_error
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.autograd_graph import rebase_error
from engine.dispatch.declarations import INPLACE, OUT, VIEW, Declaration

#: as_view with is_bw_differentiable=false and is_fw_differentiable=false
#: (make_variable_non_differentiable_view): the version counter is shared, the result
#: is not a view
_NON_DIFFERENTIABLE_VIEWS = frozenset({"detach"})


_INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
    "a clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")


def before_kernel(op: Declaration, args: tuple) -> Any:
    """What the ADInplaceOrView kernel holds before it redispatches: resize_'s hand-written
    one (VariableTypeManual.cpp, ADInplaceOrView::resize_) keeps the old sizes, and bumps
    the version only "if `self` was resized" (``x.resize_(x.shape)`` bumps nothing)."""
    if op.name == "resize_" and args and isinstance(args[0], TensorImpl):
        return args[0].view.sizes
    return None


def after_kernel(op: Declaration, args: tuple, result: Any, before: Any = None) -> None:
    """What the operator's ADInplaceOrView kernel does once the kernel below returned
    (``before``: what :func:`before_kernel` kept)."""
    if before is not None and args[0].view.sizes == before:
        return
    if op.kind in (INPLACE, OUT):
        inference_mode = current().inference_mode
        for written in _tensors(result):
            if written.is_inference:
                # VariableVersion::bump: an inference tensor has no counter -- in
                # inference mode nothing to bump; outside it, the write already happened
                # and this check raises after it (c10/core/TensorImpl.h)
                if not inference_mode:
                    raise torch_error(RuntimeError, _INFERENCE_INPLACE)
                continue
            written.version.bump()
    elif op.kind == VIEW and _returns_alias(op.schema):
        base = next((a for a in args if isinstance(a, TensorImpl)), None)
        if base is None:
            return
        differentiable = op.name not in _NON_DIFFERENTIABLE_VIEWS
        # an operator returning several views (unbind, split: ``Tensor(a)[]``) makes them
        # with CreationMeta::MULTI_OUTPUT_NODE
        several = isinstance(result, (list, tuple))
        for view in _tensors(result):
            if view is not base:
                as_view(base, view, differentiable, several)


def as_view(base: TensorImpl, view: TensorImpl, differentiable: bool = True,
            several: bool = False) -> None:
    """torch::autograd::as_view (VariableTypeUtils.h): share the counter, name the base."""
    if base.is_inference:
        # Note [View of inference tensor] (VariableTypeUtils.h as_view): no view
        # metadata, and the view is an inference tensor too (it has base's keys)
        return
    view.version = base.version
    if differentiable:
        root = view.view_base = base.view_base if base.view_base is not None else base
        ctx = current()
        grad_mode = ctx.grad_enabled
        meta = "inference" if ctx.inference_mode else \
            ("multi_output" if several else "") if grad_mode else "no_grad"
        if base.view_base is not None:
            # propagate_creation_meta: a view of a view keeps its base's, unless it has
            # its own (inference mode's always wins)
            prev = base.creation_meta
            meta = prev if not meta or prev == "inference" else meta
        view.creation_meta = meta
        # a view requires grad when its root base does (made in no_grad mode too:
        # VariableHooks::requires_grad reads base().requires_grad(), the root's), and
        # with grad mode on when its input does (it gets a grad_fn)
        if root.requires_grad or (grad_mode and base.requires_grad):
            view.requires_grad = True
        if view.creation_meta in ("no_grad", "inference") and root.requires_grad:
            # VariableHooks::grad_fn checks the version of a view with no history whose
            # base requires grad: a write into the base since makes reading it an error
            view.attr_version = view.version.value
            view.regenerate_grad_fn = rebase_error


def _returns_alias(schema: str) -> bool:
    """A return annotated ``Tensor(a)``: ``_unsafe_view`` is declared a view for its
    layout, but its schema returns a plain Tensor, and autograd does not see a view
    (reshape's copy path is no view of its input)."""
    returns = schema.rsplit("->", 1)[1]
    return "(a)" in returns


def _tensors(result: Any) -> list[TensorImpl]:
    """The tensors an operator returned (a tuple of outs, a list of views)."""
    if isinstance(result, TensorImpl):
        return [result]
    if isinstance(result, (list, tuple)):
        return [r for r in result if isinstance(r, TensorImpl)]
    return []
