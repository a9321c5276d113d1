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


#: adaption.cpp's common_device_check_failure (a CUDA wrapper's device check)
WRAPPER_RX = (r"Expected all tensors to be on the same device, but got (?P<arg>\w+) is on "
              r"(?P<device>[\w:]+), different from other tensors on (?P<common>[\w:]+) "
              r"\(when checking argument in method (?P<wrapper>\w+)\)")
#: TensorIterator::compute_types (element-wise operators, where)
ITER_RX = (r"Expected all tensors to be on the same device, but found at least two devices, "
           r"(?P<common>[\w:]+) and (?P<device>[\w:]+)!")
#: TensorAdvancedIndexing.cpp's check_indices_on_cpu_or_selfdevice
INDEX_RX = (r"indices should be either on cpu or on the same device as the indexed tensor "
            r"\((?P<device>[\w:]+)\)")

#: PyTorch's mixed-device errors explained (appended to tracer.i18n.en.ERRORS; searched in
#: order after en_errors.py's entries, none of which matches these messages).
ERRORS: list[tuple] = [
    (WRAPPER_RX.replace(r"(?P<arg>\w+)", r"(?P<arg>tensors)"),
     "A tensor in {arg} is on {device}, the ones before it on {common}: the kernel runs on "
     "one device and reads only that device's memory, so torch does not move it for you. "
     "Move it first: .to('{common}')."),
    (WRAPPER_RX,
     "Argument {arg} is on {device}, the tensors checked before it on {common}: the kernel "
     "runs on one device and reads only that device's memory, so torch does not move {arg} "
     "for you. Move it first: .to('{common}')."),
    (ITER_RX,
     "An operand is on {device} while the others are on {common}: an element-wise kernel "
     "runs on one device, and only a 0-dim CPU tensor (a number) may join tensors on "
     "{common}. Move it first: .to('{common}')."),
    (INDEX_RX,
     "The index tensor is on another device than {subject}, which is on {device}: an index "
     "may be on the CPU or on the indexed tensor's device. Move it: .to('{device}')."),
    (INDEX_RX,
     "The index tensor is on another device than the indexed tensor ({device}): an index may "
     "be on the CPU or on the indexed tensor's device. Move it: .to('{device}')."),
]
