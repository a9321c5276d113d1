"""AccumulateGrad (torch/csrc/autograd/functions/accumulate_grad.h): what a leaf keeps as
``.grad`` when the backward pass reaches it.

The first gradient is stolen when nothing else holds it and its strides are the leaf's
(``aten::detach``: ``.grad`` then shares its memory); otherwise it is copied into a new
tensor laid out as the leaf is (``new_empty_strided`` + ``copy_``,
clone_obey_contract).  Later gradients are added: in place (``aten::add_``) when the
backward pass runs without grad mode (``create_graph=False``), else out of place.
"""

from __future__ import annotations

from tracer.recorder import span
from tracer.steps import Layer, part_of, step

from engine.core.context import current
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten

SOURCE = "torch/csrc/autograd/functions/accumulate_grad.h"

ACCUMULATE = step("accumulateGrad", Layer.DISPATCHER, source=SOURCE,
                  libtorch=part_of("torch::autograd::AccumulateGrad::apply"))


def obeys_layout_contract(grad: TensorImpl, variable: TensorImpl) -> bool:
    """utils::obeys_layout_contract (torch/csrc/autograd/utils/grad_layout_contract.h):
    a dense leaf wants its gradient strided as itself, dims of size 1 aside (but never
    0-strided); any other leaf a contiguous one."""
    if variable.view.is_non_overlapping_and_dense:
        for size, gs, vs in zip(grad.view.sizes, grad.view.strides, variable.view.strides):
            if size != 1:
                if gs != vs:
                    return False
            elif gs == 0:
                return False
        return True
    return grad.view.is_contiguous


def clone_obey_contract(grad: TensorImpl, variable: TensorImpl) -> TensorImpl:
    """utils::clone_obey_contract: a copy laid out as the leaf (a dense leaf's strides,
    else contiguous)."""
    if variable.view.is_non_overlapping_and_dense:
        fresh = aten.new_empty_strided.default(grad, list(variable.view.sizes),
                                               list(variable.view.strides),
                                               dtype=variable.dtype,
                                               device=variable.device_type)
        result: TensorImpl = aten.copy_.default(fresh, grad)
        return result
    out: TensorImpl = aten.clone.default(grad, memory_format="contiguous_format")
    return out


def accumulate(variable: TensorImpl, new_grad: TensorImpl, stealable: bool) -> None:
    """AccumulateGrad::accumulateGrad for a dense gradient.  ``stealable``:
    impl::is_tensor_stealable -- no reference to ``new_grad`` but the engine's."""
    grad_mode = current().grad_enabled
    old = variable.grad
    if old is None:
        if not grad_mode and stealable and obeys_layout_contract(new_grad, variable):
            with span(ACCUMULATE, note="autograd.steal") as s:
                variable.grad = aten.detach.default(new_grad)
                s.set_result(variable.grad)
        else:
            why = "autograd.copy_held" if not stealable else "autograd.copy_layout"
            with span(ACCUMULATE, note=why) as s:
                variable.grad = clone_obey_contract(new_grad, variable)
                s.set_result(variable.grad)
    elif not grad_mode:
        with span(ACCUMULATE, note="autograd.add_inplace") as s:
            aten.add_.Tensor(old, new_grad)
            s.set_result(old)
    else:
        # create_graph=True: the sum is recorded in the graph, so it is a new tensor
        with span(ACCUMULATE, note="autograd.add") as s:
            variable.grad = aten.add.Tensor(old, new_grad)
            s.set_result(variable.grad)
