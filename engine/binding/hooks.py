"""``Tensor.register_hook(hook)`` (torch/_tensor.py): a function the backward pass calls with
the gradient flowing into this tensor, before it goes on; what it returns (a tensor)
replaces the gradient, None leaves it.  A leaf's hooks run before its AccumulateGrad, a
non-leaf's before its grad_fn (and before retain_grad's own hook, whatever the order they
were registered in).  The handle's ``remove()`` takes the hook out again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding.tensor import Tensor, wrap
from engine.core.context import current
from engine.core.errors import torch_error, tp_name
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.autograd_graph import gradient_edge

REGISTER_HOOK = step("Tensor.register_hook", Layer.PYTHON, source="torch/_tensor.py",
                     note="autograd.register_hook")


class HandleIds:
    """torch.utils.hooks.RemovableHandle.next_id, counted per run."""

    def __init__(self) -> None:
        self.next = 0


class RemovableHandle:
    """torch.utils.hooks.RemovableHandle: ``remove()`` and its ``id``."""

    __tp_name__ = "RemovableHandle"

    def __init__(self, hooks: dict[int, Any]) -> None:
        ctx = current()
        ids = ctx.local(HandleIds)
        self.id, ids.next = ids.next, ids.next + 1
        self._hooks = hooks
        self._address = ctx.next_address(0)

    def remove(self) -> None:
        self._hooks.pop(self.id, None)

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {self._address:#x}>"


def register_hook(self: Tensor, hook: Any) -> RemovableHandle:
    impl = self._impl
    with span(REGISTER_HOOK, hook=tp_name(hook)) as s:
        if not impl.requires_grad:
            raise torch_error(RuntimeError, "cannot register a hook on a tensor that doesn't "
                                            "require gradient")
        node, nr = (impl.grad_fn, impl.output_nr) if impl.grad_fn is not None \
            else (gradient_edge(impl)[0], 0)
        assert node is not None
        hooks = node.tensor_hooks.setdefault(nr, {})
        handle = RemovableHandle(hooks)
        hooks[handle.id] = _called(hook)
        s.set_result(handle)
        return handle


def _called(hook: Any) -> Callable[[TensorImpl], TensorImpl | None]:
    """The hook as the engine calls it: a gradient in, a gradient (or None) out."""
    def call(grad: TensorImpl) -> TensorImpl | None:
        out = hook(wrap(grad))
        if out is None:
            return None
        if not isinstance(out, Tensor):
            raise torch_error(TypeError, f"expected Tensor or None (got {tp_name(out)})")
        return out._impl
    return call


def is_hook_handle(obj: Any) -> bool:
    """tidx's handle, or torch's own under --verify."""
    return isinstance(obj, RemovableHandle) or type(obj).__name__ == "RemovableHandle"
