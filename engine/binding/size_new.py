"""``torch.Size([2, 3])``: THPSize_pynew (torch/csrc/Size.cpp).

A tuple's constructor, then every item checked: an int (a bool is one), or an object
with ``__index__`` (a one-element integer tensor: ``Tensor.__index__``, an
``aten::item``), else torch's TypeError naming the item.
https://github.com/pytorch/pytorch/blob/v2.13.0/torch/csrc/Size.cpp
"""

from __future__ import annotations

from typing import Any

from engine.binding.arg_parser import unpack_long
from engine.core.device import Size
from engine.core.errors import torch_error, tp_name


def size_new(*args: Any, **kwargs: Any) -> Size:
    if kwargs:
        raise torch_error(TypeError, "tuple() takes no keyword arguments")
    if len(args) > 1:
        raise torch_error(TypeError, f"tuple expected at most 1 argument, got {len(args)}")
    if not args:
        return Size(())
    items = args[0]
    if not isinstance(items, (list, tuple, range, str)) and \
            tp_name(items) not in ("Tensor", "Size"):
        raise torch_error(TypeError, f"'{tp_name(items)}' object is not iterable")
    values = []
    for i, item in enumerate(items):
        if type(item) in (int, bool):
            values.append(unpack_long(int(item)))
        elif tp_name(item) == "Tensor":
            values.append(item.__index__())
        else:
            raise torch_error(TypeError, f"torch.Size() takes an iterable of 'int' (item {i} "
                                         f"is '{tp_name(item)}')")
    return Size(values)
