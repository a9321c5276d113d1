"""Which kernels a call passes: the DispatchKeySet (c10/core/DispatchKeySet.h).

The keys come from the tensor arguments (a CPU tensor carries ``CPU, ADInplaceOrView,
AutogradCPU, AutocastCPU``) or, for factories with no tensor argument, from
``BackendSelect``, which reads the device out of the TensorOptions and redispatches.
The highest-priority key with a kernel wins.  For a plain tensor that is the Autograd
kernel (VariableType), which finds no input requiring grad and redispatches below
autograd; in-place, out= and view operators then pass the ADInplaceOrView kernel
(version counter / view metadata) before the backend kernel does the work.  Kernels
that call other operators do so with the autograd keys excluded
(``AutoDispatchBelowADInplaceOrView``); CompositeImplicitAutograd operators (``reshape``)
are decompositions that run at whichever key is reached.
"""

from __future__ import annotations

from engine.dispatch.declarations import COMPOSITE, FACTORY, INPLACE, OUT, VIEW


def backend_key(device: str | None) -> str:
    """The backend dispatch key of a device type."""
    return {"meta": "Meta", "cuda": "CUDA"}.get(device or "cpu", "CPU")


def reached(below_autograd: bool, inference_mode: bool, inference_tensors: bool
            ) -> tuple[bool, bool]:
    """Does a call reach the Autograd kernel, and the ADInplaceOrView one?  Below a
    kernel (AutoDispatchBelowADInplaceOrView) neither.  In inference mode the TLS
    excludes the autograd keys and no longer includes ADInplaceOrView, so only a normal
    tensor's own key reaches it; outside it, the TLS includes ADInplaceOrView (which is
    how an in-place write into an inference tensor is caught), and an inference tensor
    has no Autograd key (c10/core/InferenceMode.h, Note [Expected TLS state]).

    >>> reached(False, False, False), reached(False, True, False), reached(False, True, True)
    ((True, True), (False, True), (False, False))
    >>> reached(False, False, True), reached(True, False, False)
    ((False, True), (False, False))
    """
    if below_autograd:
        return False, False
    return not inference_mode and not inference_tensors, \
        not inference_mode or not inference_tensors


def keyset(device: str | None, kind: str, below_autograd: bool = False, *,
           inference_mode: bool = False, inference_tensors: bool = False
           ) -> tuple[str, list[str]]:
    """The DispatchKeySet of a call and the kernels it passes, outermost first.

    >>> keyset("cpu", "view")
    ('DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)', ['AutogradCPU', 'ADInplaceOrView', 'CPU'])
    >>> keyset("meta", "factory")[1]
    ['BackendSelect', 'Meta']
    >>> keyset("cuda", "factory")[1], keyset("cuda", "inplace")[1]
    (['BackendSelect', 'CUDA'], ['AutogradCUDA', 'ADInplaceOrView', 'CUDA'])
    >>> keyset("cpu", "inplace", below_autograd=True)[1]
    ['CPU']
    >>> keyset("cpu", "inplace", inference_mode=True, inference_tensors=True)
    ('DispatchKeySet(CPU, AutocastCPU) - excluded(Autograd)', ['CPU'])
    >>> keyset("cpu", "view", inference_tensors=True)[1], keyset("cpu", "add")[1]
    (['ADInplaceOrView', 'CPU'], ['AutogradCPU', 'CPU'])
    """
    backend = backend_key(device)
    if kind == FACTORY:
        # No tensor argument: BackendSelect computes the backend key from the
        # TensorOptions (computeDispatchKey) and redispatches to it.
        return "DispatchKeySet(BackendSelect)", ["BackendSelect", backend]
    if backend == "Meta":
        keys = "DispatchKeySet(Meta, ADInplaceOrView, AutogradMeta)"
    elif backend == "CUDA":
        keys = "DispatchKeySet(CUDA, ADInplaceOrView, AutogradCUDA, AutocastCUDA)"
    else:
        keys = "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)"
    if inference_tensors:
        # an inference tensor's keys: no Autograd, no ADInplaceOrView
        keys = "DispatchKeySet(Meta)" if backend == "Meta" else \
            f"DispatchKeySet({backend}, Autocast{backend})"
    autograd = "Autograd" + backend
    if (inference_mode or inference_tensors) and not below_autograd:
        keys += " - excluded(Autograd)" if inference_mode else ""
        if kind == COMPOSITE:
            return keys, [backend + " (CompositeImplicitAutograd)"]
        inplace_view = reached(below_autograd, inference_mode, inference_tensors)[1]
        if kind in (VIEW, INPLACE, OUT) and inplace_view:
            return keys, ["ADInplaceOrView", backend]
        return keys, [backend]
    if kind == COMPOSITE:
        # CompositeImplicitAutograd kernels are registered for the autograd and backend
        # keys alike: whichever key is reached runs the decomposition.
        key = backend if below_autograd else autograd
        return keys, [key + " (CompositeImplicitAutograd)"]
    if kind == "autograd" and not below_autograd:
        # the Autograd kernel is the whole operator: nothing is redispatched below it
        return keys, [autograd]
    if below_autograd:
        # AutoDispatchBelowADInplaceOrView is in force: the TLS excluded set
        # removes the autograd keys, so the backend kernel is reached directly.
        return keys + " - excluded(Autograd, ADInplaceOrView)", [backend]
    if kind in (VIEW, INPLACE, OUT):
        return keys, [autograd, "ADInplaceOrView", backend]
    return keys, [autograd, backend]
