"""English texts of the device checks and of --verify for the simulated CUDA device
(issue 16).  Part of :data:`tracer.i18n.en.TEXT`, which merges this table in.  Plain data,
no logic; the same conventions as en.py.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
    # -- --verify of a CUDA statement (engine/interpreter/verify_cuda.py) ------------------
    "ui.verify.cuda_on_cpu":
        "compared on the CPU (no GPU here): shapes, strides, dtypes, values of "
        "deterministic ops",
    "ui.verify.cuda_random":
        "compared on the CPU (no GPU here): shapes, strides, dtypes; not the values: the "
        "CUDA generator (Philox) draws other numbers than the CPU's (mt19937)",
    "ui.verify.after_cuda_random":
        "values not compared: the CPU run drew the CUDA statements' numbers from the CPU "
        "generator, which tidx's CUDA generator leaves untouched",
    "ui.verify.cuda_device_value":
        "compared on the CPU (no GPU here): shapes, strides, dtypes; not a value that is the "
        "device itself (x.device, x.is_cuda), which is the CPU there",
}
