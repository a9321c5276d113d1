"""aten operator kernels, registered with the dispatcher on import."""

from . import advanced, copy, factories, random, ranges, views  # noqa: F401  (registration side effects)
