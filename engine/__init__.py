"""tidx's tensor engine: a torch-like namespace that follows PyTorch's C++ path.

``import engine as torch`` reads naturally: the dtypes, ``Tensor``, and every
``torch.*`` function tidx models carry torch's names.  The functions are generated from
the operator declarations (engine/ops), as torch's are from native_functions.yaml; every
step the engine takes is emitted to :mod:`tracer` when a recorder is active.
"""

from types import SimpleNamespace as _SimpleNamespace

from engine.binding.functions import FUNCTIONS
from engine.binding.linalg import FUNCTIONS as _LINALG
from engine.binding.methods import PUBLIC as TENSOR_PUBLIC  # noqa: F401 (re-exported)
from engine.binding.options import (channels_last, contiguous_format, memory_format,
                                    preserve_format)
from engine.binding.tensor import Tensor
from engine.core.device import Size, device
from engine.core.dtypes import (bool, complex64, complex128, dtype, float16, float32, float64,
                                int8, int16, int32, int64, uint8)
from engine.core.errors import Refused
from engine.rng.generator import initial_seed

half, float, double, long, int, short = float16, float32, float64, int64, int32, int16
cfloat, cdouble = complex64, complex128

# torch.zeros, torch.gather ...: one generated function per declared Python name
globals().update(FUNCTIONS)
#: torch.linalg: its generated functions (vector_norm, matrix_norm, norm)
linalg = _SimpleNamespace(**_LINALG)

__all__ = sorted(["Refused", "Size", "Tensor", "TENSOR_PUBLIC", "FUNCTIONS", "bool", "cdouble",
                  "cfloat", "complex64", "complex128",
                  "channels_last", "contiguous_format", "device", "double", "dtype", "float",
                  "float16", "float32", "float64", "half", "initial_seed", "int", "int8",
                  "int16", "int32", "int64", "linalg", "long", "memory_format", "preserve_format",
                  "short", "uint8", *FUNCTIONS])
