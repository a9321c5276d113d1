"""The dispatcher and the operator declarations (aten/src/ATen/core/dispatch).

Every aten operator call goes through its typed handle (``aten.select.int``,
:mod:`engine.dispatch.aten`) to :func:`engine.dispatch.dispatcher.dispatch`, which
computes the DispatchKeySet, picks the kernel and records the ``op`` event that
torch.profiler would show.
"""
