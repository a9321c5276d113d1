"""The aten operators: each declared beside its kernel (engine.dispatch.declarations).

Every module of this package declares its operators as it is imported, so a new family
of operators is a new module and nothing else.  At start-up the declarations come from
:mod:`engine.dispatch.operator_cache` (every module imported on the first run, then a
cache file), and a kernel's module is imported the first time the kernel runs; a tool
that needs every kernel module loaded calls :func:`import_all`.
"""

from engine.dispatch import operator_cache as _cache


def import_all() -> None:
    """Import every module of the package (each kernel, each DispatchStub)."""
    _cache.import_all(__name__, __path__[0])


_cache.load(__name__, __path__[0])
