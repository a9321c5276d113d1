"""``torch.device(...)`` as THPDevice_pynew (torch/csrc/Device.cpp) parses it:
``device(Device device)`` or ``device(c10::string_view type, int64_t? index=-1)``.

A bare index names the current accelerator's device (``at::getAccelerator``): on tidx's
simulated machine, whose one GPU is cuda:0, ``torch.device(0)`` is ``cuda:0`` (a CPU
build of torch has no accelerator and raises instead; the note says so).
"""

from __future__ import annotations

from typing import Any

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step

from engine.core.device import device
from engine.core.errors import Refused, torch_error, tp_name

DEVICE_CPP = "torch/csrc/Device.cpp"


def _index(value: Any) -> int:
    if value < 0:
        raise torch_error(RuntimeError, "Device index must not be negative")
    return int(value)


def _parse(args: tuple, kwargs: dict) -> device:
    if set(kwargs) - {"type", "index", "device"} or len(args) + len(kwargs) > 2:
        raise Refused("torch.device takes (type), (type, index) or (index) in tidx")
    if "device" in kwargs:
        args = (kwargs.pop("device"),) + args
    if "type" in kwargs:
        args = (kwargs.pop("type"),) + args
    if "index" in kwargs:
        args = args + (kwargs.pop("index"),)
    if len(args) == 1:
        spec = args[0]
        if isinstance(spec, device):
            return device(spec)
        if isinstance(spec, int) and not isinstance(spec, bool):
            return device(f"cuda:{_index(spec)}")     # the simulated accelerator
        if isinstance(spec, str):
            return device(spec)
        raise Refused(f"torch.device({tp_name(spec)}): tidx takes a string, an index or a "
                      f"torch.device here")
    kind, index = args if len(args) == 2 else (None, None)
    if not isinstance(kind, str) or not (index is None or isinstance(index, int)
                                         and not isinstance(index, bool)):
        raise Refused(f"torch.device({tp_name(kind)}, {tp_name(index)}): tidx takes a "
                      f"string and an int index here")
    if index is None:
        return device(kind)
    if ":" in kind:
        raise torch_error(RuntimeError, f"type (string) must not include an index because "
                                        f"index was passed explicitly: {kind}")
    kind = device(kind).type                 # the type's own errors first
    return device(f"{kind}:{_index(index)}")


TORCH_DEVICE = step("torch.device", Layer.PYTHON, source=DEVICE_CPP)
THPDEVICE_PYNEW = step("THPDevice_pynew", Layer.BINDING, source=DEVICE_CPP)


def torch_device(*args: Any, **kwargs: Any) -> device:
    """torch.device(...): a value; nothing is allocated or initialised."""
    with span(TORCH_DEVICE, note=Note("cudart.torch_device"), args=list(args)) as s:
        with span(THPDEVICE_PYNEW) as b:
            result = _parse(args, dict(kwargs))
            b.set_result(result)
        if result.type == "cuda":
            s.set(simulated=True)
        s.set_result(result)
    return result


torch_device.__name__ = torch_device.__qualname__ = "device"
