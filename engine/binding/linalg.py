"""torch.linalg and torch.norm.

``torch.linalg.vector_norm``, ``matrix_norm`` and ``norm`` are the generated bindings of
native_functions.yaml's ``python_module: linalg`` functions (``linalg_vector_norm`` ...),
bound in torch.linalg under their names without the prefix; their argument errors name
them with it, as torch's parser does (``linalg_vector_norm(): argument 'ord' ...``).

``torch.norm`` and ``Tensor.norm`` are Python (torch/functional.py, torch/_tensor.py): for
a strided tensor on the CPU (or CUDA, or meta) ``torch.norm`` hands 'fro' (with at most
two dims) and every number to ``torch.linalg.vector_norm``, and any other string order to
``torch.linalg.matrix_norm``; ``Tensor.norm`` calls ``torch.norm``.  Python binds their
arguments itself, so a wrong call raises Python's own TypeError.
"""

from __future__ import annotations

from typing import Any

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.binding import operators as O

FUNCTIONAL_PY = "torch/functional.py"
TENSOR_PY = "torch/_tensor.py"

#: torch.linalg's generated functions, by their name in torch.linalg
FUNCTIONS: dict[str, Any] = {
    name.removeprefix("linalg_"): O.function(name, "torch.linalg." + name.removeprefix("linalg_"))
    for name in O.generated_names("function", module="linalg")}

TORCH_NORM = step("torch.norm", Layer.PYTHON, source=FUNCTIONAL_PY, note="norm.python_function")
TENSOR_NORM = step("Tensor.norm", Layer.PYTHON, source=TENSOR_PY, note="norm.python_method")


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):  # noqa: A002
    """torch.norm (torch/functional.py), its strided-tensor branch."""
    with span(TORCH_NORM, p=lambda: O.shown_argument(p), dim=lambda: O.shown_argument(dim),
              keepdim=keepdim) as py:
        # each call passes out= only when given, as torch/functional.py's two branches do
        given = {} if out is None else {"out": out}
        _dim = [dim] if isinstance(dim, int) else dim
        if isinstance(p, str):
            if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
                result = FUNCTIONS["vector_norm"](input, 2, _dim, keepdim, dtype=dtype, **given)
            else:
                if _dim is None:
                    _dim = list(range(input.ndim))
                result = FUNCTIONS["matrix_norm"](input, p, _dim, keepdim, dtype=dtype,
                                                  **given)
        else:
            result = FUNCTIONS["vector_norm"](input, 2.0 if p is None else p, _dim, keepdim,
                                              dtype=dtype, **given)
        py.set_result(result)
        return result


def tensor_norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    """Tensor.norm (torch/_tensor.py): torch.norm(self, p, dim, keepdim, dtype=dtype)."""
    with span(TENSOR_NORM) as py:
        result = norm(self, p, dim, keepdim, dtype=dtype)
        py.set_result(result)
        return result


tensor_norm.__name__ = "norm"
tensor_norm.__qualname__ = "Tensor.norm"
