"""tidx's tensor engine: a torch-like namespace that follows PyTorch's C++ path.

``import engine as torch`` reads naturally: dtypes, ``tensor``, ``randn``,
``empty``, ``zeros``, ``manual_seed`` and ``Tensor`` carry torch's names.  Every
step the engine takes is emitted to :mod:`tracer` when a recorder is active.
"""

from . import ops  # noqa: F401  (registers the aten kernels)
from .device import Size, device
from .dtypes import (bool, dtype, float16, float32, float64, int8, int16, int32, int64,
                     uint8)
from .errors import Refused
from .functions import empty, manual_seed, randn, tensor, zeros
from .generator import initial_seed
from ._tensor import Tensor

half, float, double, long, int, short = float16, float32, float64, int64, int32, int16

__all__ = ["Refused", "Size", "Tensor", "bool", "device", "double", "dtype", "empty", "float",
           "float16", "float32", "float64", "half", "initial_seed", "int", "int8", "int16",
           "int32", "int64", "long", "manual_seed", "randn", "short", "tensor", "uint8",
           "zeros"]
