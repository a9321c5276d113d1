"""``torch.*``: the functions of the torch namespace (python_torch_functions.cpp).

Every operator torch generates a function for comes from its declarations
(:mod:`engine.binding.operators`); the few torch binds by hand
(python_torch_functions_manual.cpp, torch/__init__.py) are written here:
``torch.tensor``, ``torch.nonzero`` (its ``as_tuple``), ``torch.from_numpy``,
``torch.manual_seed`` and ``torch.unravel_index`` (Python in torch/functional.py).  :data:`FUNCTIONS` is the namespace, which the interpreter's
allow-list is made of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tracer.notes import Note
from tracer.recorder import span
from tracer.steps import Layer, step, symbol

from engine.binding import contraction, functional, grad_mode, tensor_numpy, unique
from engine.binding import operators as O
from engine.binding.arg_parser import PythonArgParser
from engine.binding.python_signatures import manual_signatures
from engine.binding.tensor import THPVariable_Wrap, Tensor, unpack, wrap, wrap_result
from engine.binding.ndarray import NDArray
from engine.binding.tensor_new import internal_new_from_data
from engine.binding import conj as conj_binding
from engine.binding.torch_manual import FUNCTIONS as FACTORY_FUNCTIONS
from engine.core import dtypes as D
from engine.core.errors import Refused, check, torch_error, tp_name
from engine.core.storage import Storage
from engine.core.tensor_impl import TensorImpl
from engine.core.view import View
from engine.dispatch.aten import aten
from engine.rng import generator as G


#: the functions torch/__init__.py writes in Python (``torch.<function>``)
TORCH_INIT_FUNCTION = step("torch.<function>", Layer.PYTHON, source="torch/__init__.py")


def _entry(name: str, note: Any, **args: Any) -> Any:
    return span(TORCH_INIT_FUNCTION, called=f"torch.{name}", note=note, **args)


_TENSOR = PythonArgParser([s.text for s in manual_signatures("tensor", "function")])
_NONZERO = PythonArgParser([s.text for s in manual_signatures("nonzero", "function")])


THPVARIABLE_TENSOR = step("THPVariable_tensor", Layer.BINDING, source=O.FUNCTIONS,
                          note=O.PARSER_NOTE,
                          libtorch=symbol("torch::autograd::THPVariable_tensor"))


def tensor(*args: Any, **kwargs: Any) -> Tensor:
    """torch.tensor(data): a new tensor that copies ``data``; then detach_ gives it no
    autograd history (torch/csrc/utils/tensor_new.cpp, tensor_ctor)."""
    with _entry("tensor", "factory.tensor",
                args=lambda: [O.shown_argument(a) for a in args],
                kwargs=lambda: {k: O.shown_argument(v) for k, v in kwargs.items()}) as py:
        with span(THPVARIABLE_TENSOR) as b:
            parsed = _TENSOR.parse(None, args, kwargs)
            values = parsed.values
            data = values["data"]
            if isinstance(data, Tensor):
                raise Refused("torch.tensor(a_tensor) is not supported; use .clone()")
            if isinstance(data, (list, tuple)) and any(isinstance(v, NDArray) for v in data):
                raise Refused("torch.tensor of a list of numpy arrays is not modelled by "
                              "tidx; np.array(...) them first")
            if values.get("pin_memory"):
                raise Refused("tensor(): pin_memory=True is not modelled by tidx")
            dtype = values.get("dtype")
            if isinstance(dtype, type):
                dtype = O.PYTHON_DTYPES.get(dtype)
                if dtype is None:
                    raise Refused("tensor(): complex dtypes are not modelled by tidx")
            device = O.device_type_of(values.get("device")) or "cpu"
            result = aten.detach_.default(internal_new_from_data(data, dtype, device))
            if values.get("requires_grad"):
                O.make_variable(result)
            b.set_result(result)
        out = THPVariable_Wrap(result)
        py.set_result(out)
        return out


def _fact_function(name: str, read: Callable[[Any], Any]) -> Callable[..., Any]:
    """torch.numel / is_floating_point / is_complex (manual_cpp_binding in the yaml): the
    generated Python binding parses ``(Tensor input)`` and reads the TensorImpl; no aten
    operator runs."""
    parser = PythonArgParser([f"{name}(Tensor input)"])

    def fn(*args: Any, **kwargs: Any) -> Any:
        with _entry(name, Note("binding.readsTensorImpl", reads=f"{name}()")) as py:
            impl = unpack(parser.parse(None, args, kwargs).values["input"])
            result = read(impl)
            py.set_result(result)
            return result
    fn.__name__ = fn.__qualname__ = name
    return fn


_CONJ = PythonArgParser(["conj(Tensor input)"])


def _conj(*args: Any, **kwargs: Any) -> Any:
    """torch.conj(input) (manual_cpp_binding): the parsed tensor's TensorBase::conj."""
    with _entry("conj", O.PARSER_NOTE) as py:
        result = conj_binding.conj_function(_CONJ.parse(None, args, kwargs).values["input"])
        py.set_result(result)
        return result


_conj.__name__ = _conj.__qualname__ = "conj"
FACTS = {"numel": _fact_function("numel", lambda t: t.numel()),
         "is_floating_point": _fact_function("is_floating_point",
                                             lambda t: t.dtype.is_floating_point),
         "is_complex": _fact_function("is_complex",
                                      lambda t: t.dtype.name.startswith("complex")),
         "is_conj": _fact_function("is_conj", lambda t: t.is_conj), "conj": _conj}


def nonzero(*args: Any, **kwargs: Any) -> Any:
    """torch.nonzero(input, *, as_tuple=False): as_tuple gives one index tensor per dim."""
    parsed = _NONZERO.parse(None, args, kwargs)
    if parsed.values.get("out") is not None:
        raise Refused("nonzero(): out= is not modelled yet")
    op = aten.nonzero_numpy.default if parsed.values.get("as_tuple") else aten.nonzero.default
    return wrap_result(op(unpack(parsed.values["input"])))


class Generator:
    """torch._C.Generator as Python sees the default CPU generator: manual_seed returns
    it.  torch's is one object for the whole process, so its address never changes; the
    address shown is a simulated one, like tidx's data_ptr()s."""

    __tp_name__ = "torch._C.Generator"
    ADDRESS = 0x7F5A_0000_0010      # simulated

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {self.ADDRESS:#x}>"


DEFAULT_GENERATOR = Generator()


def manual_seed(seed: Any) -> Generator:
    """torch/random.py: ``seed = int(seed)``, then the default generator's manual_seed,
    which takes any 64-bit pattern (torch/csrc/Generator.cpp: a negative seed wraps to
    uint64; beyond 64 bits, unpacking overflows)."""
    with _entry("manual_seed", "function.manual_seed", seed=seed):
        if isinstance(seed, Tensor):
            seed = int(seed)
        elif isinstance(seed, float) and seed != seed:
            raise torch_error(ValueError, "cannot convert float NaN to integer")
        elif isinstance(seed, float) and abs(seed) == float("inf"):
            raise torch_error(OverflowError, "cannot convert float infinity to integer")
        elif isinstance(seed, (bool, int, float)):
            seed = int(seed)
        elif isinstance(seed, str):
            try:
                seed = int(seed)            # int("7") is 7, as Python reads it
            except ValueError as exc:
                raise torch_error(ValueError, str(exc)) from None
        else:
            raise torch_error(TypeError, f"int() argument must be a string, a bytes-like "
                                         f"object or a real number, not '{tp_name(seed)}'")
        check(-(2**63) <= seed < 2**64, ValueError, "Overflow when unpacking long long")
        G.manual_seed(seed)
        return DEFAULT_GENERATOR


def from_numpy(*args: Any, **kwargs: Any):
    """torch.from_numpy: a tensor that shares the array's memory (no copy).  A METH_O
    C function: CPython itself checks for exactly one positional argument.  A statement's
    array goes through tensor_from_numpy's checks (engine/binding/tensor_numpy.py); the
    engine's own callers (pypto) hand it a C-contiguous numpy array."""
    name = "torch._VariableFunctionsClass.from_numpy()"
    if kwargs:
        raise torch_error(TypeError, f"{name} takes no keyword arguments")
    if len(args) != 1:
        raise torch_error(TypeError, f"{name} takes exactly one argument ({len(args)} given)")
    array = args[0]
    if not isinstance(array, np.ndarray):
        with _entry("from_numpy", "function.from_numpy"):
            return wrap(tensor_numpy.tensor_from_numpy(array))
    dtype = D.from_numpy(array.dtype)
    assert array.flags.c_contiguous, "the engine hands from_numpy C-contiguous arrays"
    with _entry("from_numpy", "function.from_numpy"):
        raw = array.reshape(-1).view(np.uint8)
        storage = Storage(raw.nbytes, "cpu", data=raw)
        storage.initialised = True
        result = TensorImpl(storage, View(array.shape), dtype)
        return wrap(aten.lift_fresh.default(result))


def _class_repr(obj: Any) -> str:
    """``repr(type(obj))`` as Python prints it for torch's objects: ``<class 'float'>``,
    ``<class 'torch.Tensor'>``."""
    name = tp_name(obj)
    return f"<class '{'torch.Tensor' if name == 'Tensor' else name}'>"


def unravel_index(indices: Any, shape: Any) -> tuple:
    """torch.unravel_index (torch/functional.py, Python, no aten operator of its own):
    ``indices.unsqueeze(-1).floor_divide(coefs) % shape``, then ``unbind(-1)``; coefs
    are the row-major strides of ``shape``."""
    with _entry("unravel_index", None):
        if not isinstance(indices, Tensor):
            raise torch_error(AttributeError, f"'{tp_name(indices)}' object has no attribute "
                                              "'is_complex'")
        dtype = indices.dtype
        check(not dtype.is_floating_point and dtype is not D.bool, TypeError,
              f"expected 'indices' to be integer dtype, but got {dtype}")
        if not isinstance(shape, (int, tuple, list, str)):
            raise torch_error(TypeError, "expected 'shape' to be int or sequence of ints, but "
                                         f"got {_class_repr(shape)}")
        shape = [shape] if isinstance(shape, int) else list(shape)
        for dim in shape:
            check(isinstance(dim, int), TypeError,
                  f"expected 'shape' sequence to only contain ints, but got {_class_repr(dim)}")
        check(all(dim >= 0 for dim in shape), ValueError,
              f"'shape' cannot have negative values, but got {tuple(int(d) for d in shape)}")
        if not (hasattr(Tensor, "floor_divide") and hasattr(Tensor, "__mod__")):
            raise Refused("torch.unravel_index needs floor_divide and remainder (%), which are "
                          "not modelled yet")
        coefs, running = [], 1
        for dim in reversed(shape[1:] + [1]):
            running *= int(dim)
            coefs.append(running)
        coefs.reverse()
        device = str(indices.device)
        quotient = indices.unsqueeze(-1).floor_divide(tensor(coefs, device=device,
                                                             dtype=D.int64))
        return (quotient % tensor([int(d) for d in shape], device=device,
                                  dtype=D.int64)).unbind(-1)


def _functions() -> dict[str, Callable[..., Any]]:
    # torch/__init__.py leaves its PRIVATE_OPS (unique_dim) out of the torch namespace
    generated = {name: O.function(name) for name in O.generated_names("function")
                 if name != "unique_dim"}
    manual: dict[str, Callable[..., Any]] = {
        "tensor": tensor, "nonzero": nonzero, "from_numpy": from_numpy,
        "manual_seed": manual_seed, "unravel_index": unravel_index,
        # torch/functional.py's Python functions replace the generated bindings
        "unique": unique.unique, "unique_consecutive": unique.unique_consecutive}
    # torch/functional.py's Python functions (split, the variadic wrappers); the
    # hand-written factories (range, asarray, get/set_default_dtype)
    return (generated | manual | functional.FUNCTIONS | contraction.FUNCTIONS
            | FACTORY_FUNCTIONS | FACTS | grad_mode.FUNCTIONS)


#: The functions of the torch namespace, by name.
FUNCTIONS: dict[str, Callable[..., Any]] = _functions()
