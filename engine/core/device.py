"""``torch.device`` and ``torch.Size``, the small value types tensors report.

>>> device("cpu"), str(device("meta"))
(device(type='cpu'), 'meta')
>>> Size([3, 4])
torch.Size([3, 4])
"""

from __future__ import annotations

from engine.core.errors import torch_error, tp_name

#: Device types c10 parses (c10/core/Device.cpp), in its error message's order.
_KNOWN = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
          "vulkan, mps, meta, hpu, mtia, privateuseone")
#: The ones tidx's engine runs ("cuda": a simulated GPU, cuda:0 only, every step labelled
#: simulated).  Others parse, then fail like a build without them.
SUPPORTED = ("cpu", "meta", "cuda")


class device:
    """A device type with no index (tidx has one CPU and the meta device)."""

    __tp_name__ = "torch.device"   # Py_TYPE(obj)->tp_name in torch's messages

    __slots__ = ("type", "index")
    type: str
    index: int | None

    def __init__(self, spec: "str | device") -> None:
        if isinstance(spec, device):
            self.type, self.index = spec.type, spec.index
            return
        if not isinstance(spec, str):
            raise torch_error(TypeError, f"device() received an invalid combination of "
                                         f"arguments - got ({type(spec).__name__})")
        kind, _, index = spec.partition(":")
        if kind not in _KNOWN.split(", "):
            raise torch_error(RuntimeError, f"Expected one of {_KNOWN} device type at start of "
                                            f"device string: {spec}")
        if index and not index.isdigit():
            raise torch_error(RuntimeError, f"Invalid device string: '{spec}'")
        self.type = kind
        self.index = int(index) if index else None

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __tidx_summary__(self, max_values: int) -> dict:
        """tracer/values.py's ``device`` shape."""
        out = {"kind": "device", "type": self.type, "index": self.index}
        if self.type == "cuda":
            out["simulated"] = True     # no GPU here: tidx's simulated cuda:0
        return out


def of_type(kind: str) -> device:
    """The torch.device a tensor on device type ``kind`` reports: a CUDA tensor always
    lives on a device with an index (the simulated machine's one GPU, cuda:0).

    >>> of_type("cuda"), of_type("cpu")
    (device(type='cuda', index=0), device(type='cpu'))
    """
    return device("cuda:0" if kind == "cuda" else kind)


class Size(tuple):
    """torch.Size: a tuple of ints that prints as ``torch.Size([...])``.

    Concatenation, repetition and slicing give a Size again (torch/csrc/Size.cpp wraps
    tuple's sq_concat, sq_repeat and mp_subscript), and a Size is built only from ints
    (THPSize_pynew: bools and other ``__index__`` objects become ints).
    """

    __tp_name__ = "torch.Size"   # Py_TYPE(obj)->tp_name in torch's messages

    def __new__(cls, items=()) -> "Size":
        items = tuple(items)
        for i, item in enumerate(items):
            if not hasattr(item, "__index__") or isinstance(item, float):
                raise torch_error(TypeError, f"torch.Size() takes an iterable of 'int' "
                                             f"(item {i} is '{tp_name(item)}')")
        return super().__new__(cls, (int(item.__index__()) for item in items))

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise torch_error(TypeError, f"can only concatenate tuple (not "
                                         f"{tp_name(other)}) to torch.Size")
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        if not hasattr(n, "__index__") or isinstance(n, float):
            raise torch_error(TypeError, f"can't multiply sequence by non-int of type "
                                         f"'{tp_name(n)}'")
        return Size(tuple(self) * int(n.__index__()))

    __rmul__ = __mul__

    def __getitem__(self, index):
        result = tuple.__getitem__(self, index)
        return Size(result) if isinstance(index, slice) else result

    def __repr__(self) -> str:
        return "torch.Size([" + ", ".join(str(s) for s in self) + "])"

    __str__ = __repr__

    def __tidx_summary__(self, max_values: int) -> dict:
        """tracer/values.py's ``size`` shape."""
        return {"kind": "size", "dims": list(self)}

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n
