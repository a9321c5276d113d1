"""aten operator kernels, registered with the dispatcher on import."""

from . import advanced, copy, factories, gather, pointwise, random, ranges, views  # noqa: F401  (registration side effects)
