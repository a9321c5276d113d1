"""``torch.Tensor(2, 3)``, ``torch.FloatTensor([1, 2])``: the legacy constructors.

Calling the class ``torch.Tensor`` runs ``THPVariable_pynew``
(torch/csrc/autograd/python_variable.cpp -> ``base_tensor_ctor``); calling a legacy
type (``torch.FloatTensor``, ``torch.LongTensor`` ...) runs ``Tensor_new``
(torch/csrc/tensor/python_tensor.cpp -> ``legacy_tensor_ctor``).  Both end in
``legacy_tensor_generic_ctor_new`` (torch/csrc/utils/tensor_new.cpp), whose parser
chooses what the arguments mean:

- nothing: ``at::empty({0})``;
- ``(Tensor other)``: ``other.alias()`` (the legacy types first check that ``other``
  has their dtype; ``torch.Tensor`` takes any);
- sizes (ints, or a ``torch.Size``): ``new_with_sizes``, an ``at::empty`` whose
  memory is left as it was -- uninitialised;
- any other object: ``legacy_new_from_sequence``, the data path of ``torch.tensor``
  with the type's dtype and no type inference (so ``torch.Tensor([1, 2])`` is float).

https://github.com/pytorch/pytorch/blob/v2.13.0/torch/csrc/utils/tensor_new.cpp
"""

from __future__ import annotations

from typing import Any, Callable

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.binding import operators as O
from engine.binding.arg_parser import PythonArgParser
from engine.binding.ndarray import NDArray
from engine.binding.size_new import size_new
from engine.binding.tensor import THPVariable_Wrap, Tensor, unpack
from engine.binding.tensor_new import TENSOR_NEW, _is_sequence, internal_new_from_data
from engine.core import dtypes as D
from engine.core.context import current
from engine.core.device import Size
from engine.core.errors import Refused, torch_error, tp_name
from engine.core.tensor_impl import TensorImpl
from engine.dispatch.aten import aten

#: The legacy CPU tensor types torch/__init__.py exports, and the dtype of each.
TYPES: dict[str, D.dtype] = {
    f"{D.cpp_name(d)}Tensor": d
    for d in (D.float32, D.float64, D.float16, D.uint8, D.int8, D.int16, D.int32,
              D.int64, D.bool)}

# legacy_tensor_generic_ctor_new's parser, in its order (the index says which form bound)
_PARSER = PythonArgParser([
    "new(*, Device? device=None)",
    "new(Storage storage)",
    "new(*, int64_t cdata)|hidden",
    "new(Tensor other)",
    "new(Tensor other, *, Device? device=None)|hidden",
    "new(SymIntArrayRef size, *, Device? device=None)",
    "new(PyObject* data, *, Device? device=None)",
])
EMPTY, STORAGE, CDATA, OTHER, OTHER_DEVICE, SIZES, DATA = range(7)

PYTHON_VARIABLE = "torch/csrc/autograd/python_variable.cpp"
PYTHON_TENSOR = "torch/csrc/tensor/python_tensor.cpp"

THPVARIABLE_PYNEW = step("THPVariable_pynew", Layer.BINDING, source=PYTHON_VARIABLE,
                         note="binding.legacy.pynew",
                         libtorch=symbol("THPVariable_pynew"))
TENSOR_NEW_TYPE = step("Tensor_new", Layer.BINDING, source=PYTHON_TENSOR,
                       note="binding.legacy.type_new",
                       libtorch=symbol("torch::tensors::Tensor_new"))
GENERIC_CTOR = step("legacy_tensor_generic_ctor_new", Layer.BINDING, source=TENSOR_NEW,
                    libtorch=symbol("torch::utils::legacy_tensor_generic_ctor_new"))

_FORM_NOTES = {EMPTY: "binding.legacy.empty", OTHER: "binding.legacy.alias",
               SIZES: "binding.legacy.sizes", DATA: "binding.legacy.data"}


def _options_string(dtype: D.dtype) -> str:
    """TensorOptions' operator<<, as the legacy types' dtype check prints it."""
    return (f"TensorOptions(dtype={D.type_meta_name(dtype)}, device=cpu, layout=Strided, "
            f"requires_grad=false (default), pinned_memory=false (default), "
            f"memory_format=(nullopt))")


def _check_device(device: Any) -> None:
    """check_legacy_ctor_device: the legacy constructors make CPU tensors only (the
    default dispatch key's device type)."""
    given = O.device_type_of(device)
    if given is not None and given != "cpu":
        raise torch_error(RuntimeError, f"legacy constructor expects device type: cpu but "
                                        f"device type: {given} was passed")


def _generic_ctor(dtype: D.dtype, base: bool, args: tuple, kwargs: dict) -> TensorImpl:
    with span(GENERIC_CTOR) as s:
        parsed = _PARSER.parse(None, args, kwargs)
        form = parsed.index
        if form == SIZES and args and _is_sequence(args[0]) and not isinstance(args[0], Size):
            # new(sequence) binds to the sizes signature too, but means data (unless it
            # is a torch.Size): tensor_new.cpp checks the first positional argument
            form = DATA
        s.note(_FORM_NOTES.get(form, "binding.legacy.refused"))
        if form == EMPTY:
            _check_device(parsed.values["device"])
            result = aten.empty.memory_format([0], dtype=dtype, device="cpu")
        elif form in (STORAGE, CDATA):
            raise Refused("a legacy constructor given a storage (or cdata) is not "
                          "modelled by tidx; use torch.tensor([]).set_(...) in torch")
        elif form == OTHER:
            other = unpack(parsed.values["other"])
            if not base and (other.dtype is not dtype or other.device_type != "cpu"):
                raise torch_error(TypeError, f"expected {_options_string(dtype)} (got "
                                             f"{_options_string(other.dtype)})"
                                  if other.device_type == "cpu" else
                                  f"expected {_options_string(dtype)} (got another device)")
            result = aten.alias.default(other)
        elif form == OTHER_DEVICE:
            raise torch_error(RuntimeError,
                              "Legacy tensor constructor of the form torch.Tensor(tensor, "
                              "device=device) is not supported.  Use torch.tensor(...) or "
                              "torch.as_tensor(...) instead.")
        elif form == SIZES:
            _check_device(parsed.values["device"])
            result = aten.empty.memory_format(list(parsed["size"]), dtype=dtype,
                                              device="cpu")
        else:
            data = parsed.values["size" if parsed.index == SIZES else "data"]
            _check_device(parsed.values["device"])
            result = _new_from_sequence(data, dtype)
        s.set_result(result)
        return result


def _new_from_sequence(data: Any, dtype: D.dtype) -> TensorImpl:
    """legacy_new_from_sequence: a sequence only, then internal_new_from_data with the
    type's dtype (type_inference=false)."""
    if isinstance(data, NDArray):       # a sequence: its bytes kept when the dtype is
        return internal_new_from_data(data, dtype, "cpu", copy_numpy=False)    # the type's
    if not _is_sequence(data) or type(data).__name__ == "Tensor":
        raise torch_error(TypeError, f"new(): data must be a sequence (got {tp_name(data)})")
    return internal_new_from_data(data, dtype, "cpu")


def base_tensor_ctor(*args: Any, **kwargs: Any) -> Tensor:
    """``torch.Tensor(...)``: the default dtype (any tensor is aliased as it is)."""
    with span(THPVARIABLE_PYNEW, called="torch.Tensor",
              args=lambda: [O.shown_argument(a) for a in args],
              kwargs=lambda: {k: O.shown_argument(v) for k, v in kwargs.items()}) as b:
        result = _generic_ctor(current().default_dtype, True, args, kwargs)
        b.set_result(result)
    return THPVariable_Wrap(result)


def legacy_type_ctor(name: str) -> Callable[..., Tensor]:
    """``torch.FloatTensor(...)`` and the other legacy types: their own dtype."""
    dtype = TYPES[name]

    def ctor(*args: Any, **kwargs: Any) -> Tensor:
        with span(TENSOR_NEW_TYPE, called=f"torch.{name}",
                  args=lambda: [O.shown_argument(a) for a in args],
                  kwargs=lambda: {k: O.shown_argument(v) for k, v in kwargs.items()},
                  note=Note("binding.legacy.type_new", type=f"torch.{name}",
                            dtype=str(dtype))) as b:
            result = _generic_ctor(dtype, False, args, kwargs)
            b.set_result(result)
        return THPVariable_Wrap(result)
    ctor.__name__ = ctor.__qualname__ = name
    return ctor


def is_instance(name: str) -> Callable[[Any], bool]:
    """``isinstance(x, torch.FloatTensor)``: a CPU tensor of the type's dtype."""
    dtype = TYPES[name]
    return lambda obj: (isinstance(obj, Tensor) and obj._impl.dtype is dtype
                        and obj._impl.device_type == "cpu")


def constructors() -> dict[str, tuple[Callable[..., Any], Callable[[Any], bool]]]:
    """The classes a statement may call, each with its isinstance test: torch.Tensor and
    torch.Size (Python classes: their own test), and the legacy types."""
    return {"Tensor": (base_tensor_ctor, lambda obj: False),
            "Size": (size_new, lambda obj: False)} | {
        name: (legacy_type_ctor(name), is_instance(name)) for name in TYPES}
