"""A dispatch key with no kernel: OperatorEntry::reportError
(aten/src/ATen/core/dispatch/OperatorEntry.cpp), torch's NotImplementedError "Could not run
'aten::mm.dtype' with arguments from the 'CPU' backend ...".

torch 2.13's CPU build registers no CPU kernel for some overloads: the matmul family's
``out_dtype`` forms (``mm.dtype``, ``bmm.dtype``, ``addmm.dtype``, ``baddbmm.dtype`` and
their ``.dtype_out``) run on CUDA and on the meta device only.  The message's first
paragraph names the operator, the backend and every dispatch key the operator has a kernel
for; torch goes on with one line per key naming the file and line of the build (and, for
the meta key, the path torch is installed at) where it was registered.  tidx gives the
first paragraph word for word and says, in the step's note, that the registration lines are
left out: they describe torch's build and installation, not the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core.errors import torch_error

OPERATOR_ENTRY = "aten/src/ATen/core/dispatch/OperatorEntry.cpp"
REPORT_ERROR = step("OperatorEntry::reportError", Layer.DISPATCHER, source=OPERATOR_ENTRY,
                    note="dispatch.no_kernel")


def no_kernel(full_name: str, backend: str, registered: Sequence[str]) -> NoReturn:
    """Raise torch's error for ``full_name`` (``aten::mm.dtype``) reaching ``backend``
    ('CPU'), which has kernels for the dispatch keys ``registered`` only."""
    with span(REPORT_ERROR, operator=full_name, backend=backend):
        raise torch_error(
            NotImplementedError,
            f"Could not run '{full_name}' with arguments from the '{backend}' backend. This "
            "could be because the operator doesn't exist for this backend, or was omitted "
            "during the selective/custom build process (if using custom build). If you are a "
            "Facebook employee using PyTorch on mobile, please visit "
            "https://fburl.com/ptmfixes for possible resolutions. "
            f"'{full_name}' is only available for these backends: "
            f"[{', '.join(registered)}].")
