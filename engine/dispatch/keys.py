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


def keyset(device: str | None, kind: str, below_autograd: bool = False
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
    autograd = "Autograd" + backend
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
